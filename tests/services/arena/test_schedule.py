"""How many players an arena needs and how many rounds it plays."""

from __future__ import annotations

import pytest

from bot.services.arena import RoundsOutOfRangeError, TooFewPlayersError, default_rounds, max_rounds
from bot.services.arena.schedule import check_rounds


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (16, 4), (17, 5), (64, 6), (65, 7), (512, 9), (10_000, 9)],
)
def test_default_rounds_separate_the_field(players: int, rounds: int) -> None:
    assert default_rounds(players) == rounds


@pytest.mark.parametrize(("players", "rounds"), [(3, 3), (4, 3), (5, 5), (6, 5), (9, 9), (10, 9), (40, 9)])
def test_max_rounds_is_a_round_robin_or_one_bye_each(players: int, rounds: int) -> None:
    assert max_rounds(players) == rounds


@pytest.mark.parametrize("players", [0, 1, 2])
def test_fewer_than_three_players_have_no_arena(players: int) -> None:
    with pytest.raises(TooFewPlayersError):
        default_rounds(players)
    with pytest.raises(TooFewPlayersError):
        max_rounds(players)


def test_rounds_are_checked_against_the_field() -> None:
    assert check_rounds(3, 4) == 3
    for rounds in (0, 4, 10):
        with pytest.raises(RoundsOutOfRangeError) as refused:
            check_rounds(rounds, 4)
        assert (refused.value.low, refused.value.high) == (1, 3)
