"""Swiss pairings: worked cases, and properties checked against an exhaustive search of every pairing."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.services.arena import (
    BadRecordError,
    Entrant,
    Ledger,
    NoPairingLeftError,
    Pairing,
    PlayedGame,
    Result,
    RoundPlan,
    RoundRecord,
    pair_round,
)
from bot.services.arena import pairing as pairing_module

XW, OW, DR = Result.X_WON, Result.O_WON, Result.DRAW


def played(plan: RoundPlan, results: list[Result]) -> RoundRecord:
    games = tuple(PlayedGame(p.x, p.o, result) for p, result in zip(plan.pairings, results, strict=True))
    return RoundRecord(plan.number, games, plan.bye)


def field(count: int) -> list[Entrant]:
    return [Entrant(player, seed=player) for player in range(1, count + 1)]


def test_first_round_top_half_meets_bottom_half_with_sides_alternating() -> None:
    plan = pair_round(field(8), [])
    assert plan == RoundPlan(1, (Pairing(1, 5), Pairing(6, 2), Pairing(3, 7), Pairing(8, 4)), bye=None)


def test_second_round_pairs_by_score_and_swaps_sides() -> None:
    entrants = field(8)
    first = played(pair_round(entrants, []), [XW, OW, DR, DR])
    # The winners 1 (X) and 2 (O) meet, and the losers 5 (O) and 6 (X); of the drawn 3 (X), 7 (O),
    # 8 (X) and 4 (O), 3 would meet 7 again, so 3 meets 4, who had the other side, and 7 meets 8.
    plan = pair_round(entrants, [first])
    assert plan.pairings == (Pairing(2, 1), Pairing(4, 3), Pairing(7, 8), Pairing(5, 6))
    ledger = Ledger(entrants, [first, played(plan, [DR, DR, DR, DR])])
    assert all(abs(account.colour_balance) <= 1 for account in ledger.players.values())
    assert all(account.colour_balance == 0 for account in ledger.players.values())


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    entrants = field(5)
    first = pair_round(entrants, [])
    assert first.bye == 5
    second = pair_round(entrants, [played(first, [XW, XW])])
    # 1 beat 3 and 4 beat 2; 5 had the bye. Ranked by points, then seed: 1, 4, 5, 2, 3.
    assert second.bye == 3


def test_three_players_play_everyone_once_then_no_pairing_is_left() -> None:
    entrants = field(3)
    rounds: list[RoundRecord] = []
    for _ in range(3):
        rounds.append(played(pair_round(entrants, rounds), [DR]))
    assert sorted(r.bye for r in rounds if r.bye is not None) == [1, 2, 3]
    assert {frozenset(g.pairing.players) for r in rounds for g in r.games} == {
        frozenset(p) for p in ((1, 2), (1, 3), (2, 3))
    }
    with pytest.raises(NoPairingLeftError) as ended:
        pair_round(entrants, rounds)
    assert ended.value.round_number == 4


def test_a_player_who_left_is_paired_no_more() -> None:
    entrants = field(4)
    first = played(pair_round(entrants, []), [XW, XW])
    left = [Entrant(e.player, e.seed, left_after=1) if e.player == 1 else e for e in entrants]
    plan = pair_round(left, [first])
    assert 1 not in {p for pairing in plan.pairings for p in pairing.players} and plan.bye not in (1, None)


def test_a_round_still_being_played_cannot_be_followed() -> None:
    entrants = field(4)
    plan = pair_round(entrants, [])
    with pytest.raises(BadRecordError):
        pair_round(entrants, [RoundRecord(1, tuple(PlayedGame(p.x, p.o) for p in plan.pairings))])


def test_fewer_than_two_active_players_cannot_be_paired() -> None:
    entrants = [Entrant(1, 1), Entrant(2, 2, left_after=0), Entrant(3, 3, left_after=0)]
    with pytest.raises(NoPairingLeftError):
        pair_round(entrants, [])


def test_sixty_four_players_play_six_rounds_without_a_repeat_and_with_balanced_sides() -> None:
    entrants = field(64)
    rounds: list[RoundRecord] = []
    results = random.Random(64)
    for _ in range(6):
        plan = pair_round(entrants, rounds)
        assert len(plan.pairings) == 32
        rounds.append(played(plan, [results.choice([XW, OW, DR]) for _ in plan.pairings]))
    ledger = Ledger(entrants, rounds)
    assert all(abs(account.colour_balance) <= 1 for account in ledger.players.values())
    assert max(account.score for account in ledger.players.values()) <= 6


# Properties, against an exhaustive search of the pairings a round could have.


def matchings(players: list[int], met: dict[int, set[int]]) -> Iterator[list[tuple[int, int]]]:
    """Every pairing of ``players`` in which nobody meets someone they met before."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for other in rest:
        if other not in met[first]:
            for remainder in matchings([p for p in rest if p != other], met):
                yield [(first, other), *remainder]


def can_stay_balanced(pairs: list[tuple[int, int]], balance: dict[int, int]) -> bool:
    """Whether sides exist for ``pairs`` that move nobody further than one game off balance."""
    return all(balance[a] * balance[b] <= 0 for a, b in pairs)


@st.composite
def arenas(draw: st.DrawFn) -> tuple[int, int, list[int], list[list[Result]], list[set[int]]]:
    count = draw(st.integers(3, 9))
    rounds = draw(st.integers(1, 9))
    seeds = draw(st.permutations(list(range(count))))
    results = draw(
        st.lists(st.lists(st.sampled_from([XW, OW, DR]), min_size=5, max_size=5), min_size=9, max_size=9)
    )
    leaving = draw(
        st.lists(st.sets(st.integers(1, count), max_size=1), min_size=9, max_size=9)
        if draw(st.booleans())
        else st.just([set() for _ in range(9)])
    )
    return count, rounds, list(seeds), results, leaving


@settings(max_examples=300, deadline=None)
@given(arenas())
def test_every_round_keeps_the_swiss_rules(
    arena: tuple[int, int, list[int], list[list[Result]], list[set[int]]],
) -> None:
    count, total, seeds, results, leaving = arena
    entrants = [Entrant(player, seed=seeds[player - 1]) for player in range(1, count + 1)]
    rounds: list[RoundRecord] = []
    for number in range(1, total + 1):
        ledger = Ledger(entrants, rounds)
        ranked = [account.player for account in ledger.active()]
        met = {player: account.met for player, account in ledger.players.items()}
        balance = {player: account.colour_balance for player, account in ledger.players.items()}
        had_bye = {player for player, account in ledger.players.items() if account.had_bye}
        byes = [None] if len(ranked) % 2 == 0 else [p for p in reversed(ranked) if p not in had_bye]
        possible = {bye: list(matchings([p for p in ranked if p != bye], met)) for bye in byes}
        try:
            plan = pair_round(entrants, rounds)
        except NoPairingLeftError:
            assert len(ranked) < 2 or not any(possible.values())
            return
        # The bye: the lowest-ranked player without one whose field can be paired.
        assert plan.bye == next(bye for bye in byes if possible[bye])
        # Every active player exactly once: in one game or with the bye; nobody else.
        seen = Counter(p for pairing in plan.pairings for p in pairing.players)
        seen.update([plan.bye] if plan.bye is not None else [])
        assert sorted(seen) == sorted(ranked) and set(seen.values()) == {1}
        # No pair meets twice.
        assert all(pairing.o not in met[pairing.x] for pairing in plan.pairings)
        # Sides: nobody goes two games off balance while some pairing of this field avoids it.
        after = Counter(balance)
        for pairing in plan.pairings:
            after[pairing.x] += 1
            after[pairing.o] -= 1
        if any(can_stay_balanced(pairs, balance) for pairs in possible[plan.bye]):
            paired = [p for pairing in plan.pairings for p in pairing.players]
            assert all(abs(after[p]) <= 1 or abs(after[p]) < abs(balance[p]) for p in paired)
        # The backtracking search and the oracle's choices agree, wherever the search stops.
        field = [account for account in ledger.active() if account.player != plan.bye]
        for balanced in (True, False):
            searched = pairing_module._search(field, balanced, [10**9])
            settled = (
                pairing_module._pair_by_oracle(field, balanced)
                if pairing_module._pairable(field, balanced)
                else None
            )
            assert searched == settled
        rounds.append(played(plan, results[number - 1][: len(plan.pairings)]))
        entrants = [
            Entrant(e.player, e.seed, left_after=number)
            if e.player in leaving[number - 1] and e.active
            else e
            for e in entrants
        ]
    # Byes at most once each (the ledger refuses a second; counted here too).
    byes_had = Counter(r.bye for r in rounds if r.bye is not None)
    assert all(times == 1 for times in byes_had.values())
