"""The next round's pairings, Swiss style.

The rules, in the order they give way to each other:

1. **No two players meet twice, and nobody has a second bye.** When no pairing of the active
   players allows that, the arena has played every round it can: :class:`NoPairingLeftError`.
2. **The bye** (an odd number of active players) goes to the lowest-ranked player who has not had
   one (by score, then seed), unless the others then cannot all be paired; then to the next one up.
3. **Colours stay balanced:** nobody's games as X and as O differ by more than one while any
   pairing allows it. Tic-tac-toe gives the first move a large edge, so this comes before scores.
4. **By score:** players are taken from the top of the ranking (score, then seed); each meets
   the nearest score they can, and within a score group the top half meets the bottom half
   (first against the middle, as the Dutch system pairs), so leaders meet late.
5. **Sides:** whoever had X more often gets O (and the other way round); with equal counts each
   gets the side they did not have last time; when both want the same, the one further off
   balance, then the higher-ranked, gets it; in the first round the boards alternate.

Each choice is made greedily but never into a dead end: a pair is taken only when the players
left can still all be paired under rules 1 and 3 (:func:`~.matching.has_perfect_matching`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.services.arena.errors import BadRecordError, NoPairingLeftError
from bot.services.arena.ledger import Ledger, PlayerLedger
from bot.services.arena.matching import has_perfect_matching
from bot.services.arena.records import Entrant, Mark, Pairing, RoundPlan, RoundRecord


def pair_round(entrants: Iterable[Entrant], rounds: Sequence[RoundRecord]) -> RoundPlan:
    """The pairings of the round after ``rounds`` among the active ``entrants``.

    Raises :class:`BadRecordError` when the record is impossible or its last round is still being
    played, :class:`NoPairingLeftError` when no pairing keeps rule 1.
    """
    ledger = Ledger(entrants, rounds)
    if rounds and not rounds[-1].finished:
        raise BadRecordError(f"round {rounds[-1].number} is still being played")
    number = len(rounds) + 1
    ranked = ledger.active()
    if len(ranked) < 2:
        raise NoPairingLeftError(number)
    for bye in _bye_candidates(ranked):
        field = [account for account in ranked if account is not bye]
        for balanced in (True, False):
            pairs = _pair(field, balanced)
            if pairs is not None:
                return RoundPlan(
                    number=number,
                    pairings=tuple(_sides(high, low, board) for board, (high, low) in enumerate(pairs)),
                    bye=bye.player if bye is not None else None,
                )
    raise NoPairingLeftError(number)


def _bye_candidates(ranked: list[PlayerLedger]) -> list[PlayerLedger | None]:
    """Who may have the bye, in the order it is offered: nobody in an even field."""
    if len(ranked) % 2 == 0:
        return [None]
    return [account for account in reversed(ranked) if not account.had_bye]


def _may_meet(first: PlayerLedger, second: PlayerLedger, balanced: bool) -> bool:
    """Whether the two may be paired: never again, and when ``balanced`` not both one off the same way."""
    if second.player in first.met:
        return False
    if balanced:
        need = first.must_have()
        return need is None or need is not second.must_have()
    return True


def _pairable(field: Sequence[PlayerLedger], balanced: bool) -> bool:
    edges = [
        (first.player, second.player)
        for i, first in enumerate(field)
        for second in field[i + 1 :]
        if _may_meet(first, second, balanced)
    ]
    return has_perfect_matching([account.player for account in field], edges)


def _pair(field: list[PlayerLedger], balanced: bool) -> list[tuple[PlayerLedger, PlayerLedger]] | None:
    """The first pairing of ``field`` in preference order, the top-ranked player first; None if none.

    "First" as in a dictionary: the top player meets the most preferred opponent with whom the rest
    can still be paired, and so on down. A short backtracking search finds it (or that there is
    none) at once in nearly every round; where it would take long, the oracle settles each choice.
    """
    try:
        return _search(field, balanced, [SEARCH_BUDGET])
    except _OutOfBudgetError:
        return _pair_by_oracle(field, balanced) if _pairable(field, balanced) else None


SEARCH_BUDGET = 4000
"""The candidate pairs the backtracking search may try before the oracle settles each choice."""


class _OutOfBudgetError(Exception):
    """The backtracking search tried too many candidates."""


def _search(
    left: list[PlayerLedger], balanced: bool, budget: list[int]
) -> list[tuple[PlayerLedger, PlayerLedger]] | None:
    if not left:
        return []
    top, rest = left[0], left[1:]
    for opponent in _preferred(top, rest):
        if not _may_meet(top, opponent, balanced):
            continue
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfBudgetError
        remaining = [account for account in rest if account is not opponent]
        found = _search(remaining, balanced, budget)
        if found is not None:
            return [(top, opponent), *found]
    return None


def _pair_by_oracle(field: list[PlayerLedger], balanced: bool) -> list[tuple[PlayerLedger, PlayerLedger]]:
    pairs: list[tuple[PlayerLedger, PlayerLedger]] = []
    left = list(field)
    while left:
        top, rest = left[0], left[1:]
        for opponent in _preferred(top, rest):
            remaining = [account for account in rest if account is not opponent]
            if _may_meet(top, opponent, balanced) and _pairable(remaining, balanced):
                pairs.append((top, opponent))
                left = remaining
                break
        else:  # pragma: no cover - a field known to be pairable always pairs its top player
            raise AssertionError("a pairable field left its top player unpaired")
    return pairs


def _preferred(top: PlayerLedger, rest: list[PlayerLedger]) -> list[PlayerLedger]:
    """``rest`` in the order ``top`` would best meet them (rules 4 and 5)."""
    group = [account for account in rest if account.score == top.score]
    ideal = (len(group) + 1) // 2 - 1
    position = {account.player: index for index, account in enumerate(rest)}

    def key(account: PlayerLedger) -> tuple[object, ...]:
        gap = top.score - account.score
        clash = top.wants() is not None and top.wants() is account.wants()
        within = abs(position[account.player] - ideal) if gap == 0 else position[account.player]
        return (abs(gap), clash, within)

    return sorted(rest, key=key)


def _sides(high: PlayerLedger, low: PlayerLedger, board: int) -> Pairing:
    """Who plays X in the pair of ``high`` (the higher-ranked) and ``low``, on ``board`` (0 = first)."""
    high_wants, low_wants = high.wants(), low.wants()
    if high_wants is None and low_wants is None:
        high_wants = Mark.X if board % 2 == 0 else Mark.O
    elif high_wants is None or (high_wants is low_wants and _keener(low, high)):
        assert low_wants is not None
        high_wants = low_wants.other
    return Pairing(high.player, low.player) if high_wants is Mark.X else Pairing(low.player, high.player)


def _keener(first: PlayerLedger, second: PlayerLedger) -> bool:
    """Whether ``first`` needs their side more than ``second`` does (further off balance)."""
    return abs(first.colour_balance) > abs(second.colour_balance)
