"""Standings against hand computations: points, Buchholz, Sonneborn-Berger, direct encounter, shared ranks."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.services.arena import BadRecordError, Entrant, PlayedGame, Result, RoundRecord, standings

XW, OW, DR = Result.X_WON, Result.O_WON, Result.DRAW
H = Fraction(1, 2)


def table(lines: tuple[object, ...]) -> list[tuple[object, ...]]:
    return [
        (s.rank, s.player, s.points, s.buchholz, s.sonneborn_berger, s.wins, s.draws, s.losses, s.bye)
        for s in lines  # type: ignore[attr-defined]
    ]


def test_five_players_three_rounds_with_a_bye_each_round() -> None:
    # Points: 1 = 1 + ½ + ½ = 2; 2 = ½ + ½ + bye = 2; 3 = 0 + 0 + 1 = 1; 4 = ½ + bye + 0 = 1½;
    # 5 = bye + 1 + ½ = 2½.
    # Buchholz: 1 met 3, 2, 5 = 1 + 2 + 2½ = 5½; 2 met 4, 1 = 1½ + 2 = 3½; 3 met 1, 5, 4 = 6;
    # 4 met 2, 3 = 3; 5 met 3, 1 = 3.
    # Sonneborn-Berger: 1 = 1 (beat 3) + 1 (drew 2) + 1¼ (drew 5) = 3¼; 2 = ¾ + 1 = 1¾;
    # 3 = 1½ (beat 4); 4 = 1 (drew 2); 5 = 1 (beat 3) + 1 (drew 1) = 2.
    entrants = [Entrant(player, seed=player) for player in range(1, 6)]
    rounds = [
        RoundRecord(1, (PlayedGame(1, 3, XW), PlayedGame(4, 2, DR)), bye=5),
        RoundRecord(2, (PlayedGame(3, 5, OW), PlayedGame(2, 1, DR)), bye=4),
        RoundRecord(3, (PlayedGame(5, 1, DR), PlayedGame(3, 4, XW)), bye=2),
    ]
    assert table(standings(entrants, rounds)) == [
        (1, 5, 2 + H, 3, 2, 1, 1, 0, True),
        (2, 1, 2, 5 + H, Fraction(13, 4), 1, 2, 0, False),
        (3, 2, 2, 3 + H, Fraction(7, 4), 0, 2, 0, True),
        (4, 4, 1 + H, 3, 1, 0, 1, 1, True),
        (5, 3, 1, 6, 1 + H, 1, 0, 2, False),
    ]


def test_sonneborn_berger_then_direct_encounter_break_equal_buchholz() -> None:
    # Everyone's Buchholz is 4½. 3 and 6 have 2 points: SB 3 = 1 (drew 6) + ½ (drew 4) + 1½ (beat 2)
    # = 3, SB 6 = 1 (drew 3) + ¾ (drew 5) + 1 (beat 1) = 2¾. 2 and 5 have 1½ and SB 2 each
    # (2: 1½ for beating 5 + ½ for drawing 1; 5: 1 for drawing 6 + 1 for beating 4): 2 beat 5.
    # 4 and 1 have 1: SB 4 = ½ + 1 = 1½, SB 1 = ½ + ¾ = 1¼. Seeds run the other way, so they
    # decide nothing here.
    entrants = [Entrant(player, seed=-player) for player in range(1, 7)]
    rounds = [
        RoundRecord(1, (PlayedGame(1, 4, DR), PlayedGame(5, 2, OW), PlayedGame(3, 6, DR))),
        RoundRecord(2, (PlayedGame(2, 1, DR), PlayedGame(4, 3, DR), PlayedGame(6, 5, DR))),
        RoundRecord(3, (PlayedGame(3, 2, XW), PlayedGame(1, 6, OW), PlayedGame(5, 4, XW))),
    ]
    lines = standings(entrants, rounds)
    assert [(s.rank, s.player) for s in lines] == [(1, 3), (2, 6), (3, 2), (4, 5), (5, 4), (6, 1)]
    assert {s.buchholz for s in lines} == {4 + H}
    assert [s.sonneborn_berger for s in lines] == [3, Fraction(11, 4), 2, 2, 1 + H, Fraction(5, 4)]


def test_players_level_on_everything_share_their_rank_listed_by_seed() -> None:
    entrants = [Entrant(player, seed=player) for player in range(1, 5)]
    rounds = [RoundRecord(1, (PlayedGame(1, 2, XW), PlayedGame(3, 4, XW)))]
    assert [(s.rank, s.player, s.points) for s in standings(entrants, rounds)] == [
        (1, 1, 1),
        (1, 3, 1),
        (3, 2, 0),
        (3, 4, 0),
    ]


def test_a_game_being_played_counts_for_nobody_yet() -> None:
    entrants = [Entrant(player, seed=player) for player in range(1, 4)]
    rounds = [RoundRecord(1, (PlayedGame(1, 2, None),), bye=3)]
    lines = {s.player: s for s in standings(entrants, rounds)}
    assert (lines[1].points, lines[2].points, lines[3].points) == (0, 0, 1)
    assert lines[1].buchholz == 0 and lines[1].wins + lines[1].draws + lines[1].losses == 0


def test_a_player_who_left_keeps_their_points_and_is_marked() -> None:
    entrants = [Entrant(1, 1), Entrant(2, 2, left_after=1), Entrant(3, 3), Entrant(4, 4)]
    rounds = [
        RoundRecord(1, (PlayedGame(2, 1, XW), PlayedGame(3, 4, DR))),
        RoundRecord(2, (PlayedGame(1, 3, XW),), bye=4),
    ]
    lines = {s.player: s for s in standings(entrants, rounds)}
    assert lines[2].points == 1 and not lines[2].active
    assert lines[1].points == 1 and lines[1].buchholz == 1 + H
    assert lines[4].points == 1 + H


def test_no_rounds_lists_everyone_level() -> None:
    lines = standings([Entrant(7, 2), Entrant(5, 1), Entrant(9, 3)], [])
    assert [(s.rank, s.player) for s in lines] == [(1, 5), (1, 7), (1, 9)]


@pytest.mark.parametrize(
    ("entrants", "rounds"),
    [
        ([Entrant(1, 1), Entrant(1, 2)], []),
        ([Entrant(1, 1), Entrant(2, 2)], [RoundRecord(1, (PlayedGame(1, 3, XW),))]),
        ([Entrant(1, 1), Entrant(2, 2)], [RoundRecord(2, (PlayedGame(1, 2, XW),))]),
        ([Entrant(1, 1), Entrant(2, 2), Entrant(3, 3)], [RoundRecord(1, (PlayedGame(1, 2, XW),), bye=1)]),
        (
            [Entrant(1, 1), Entrant(2, 2)],
            [RoundRecord(1, (PlayedGame(1, 2, XW),)), RoundRecord(2, (PlayedGame(2, 1, XW),))],
        ),
        (
            [Entrant(1, 1), Entrant(2, 2), Entrant(3, 3)],
            [RoundRecord(1, (PlayedGame(2, 3, XW),), bye=1), RoundRecord(2, (PlayedGame(1, 2, XW),), bye=1)],
        ),
    ],
    ids=[
        "entered twice",
        "unknown player",
        "round out of order",
        "twice in a round",
        "met twice",
        "two byes",
    ],
)
def test_impossible_records_are_turned_away(entrants: list[Entrant], rounds: list[RoundRecord]) -> None:
    with pytest.raises(BadRecordError):
        standings(entrants, rounds)
