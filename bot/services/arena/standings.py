"""The standings of an arena: points, then Buchholz, then Sonneborn-Berger, then direct encounter.

- **Points:** win 1, draw ½, loss 0, a bye 1. A game still being played counts for nobody yet.
- **Buchholz:** the sum of the points of every opponent met in a finished game: who scored
  against strong opponents ranks higher. A bye adds nothing to it.
- **Sonneborn-Berger:** the sum of the points of each opponent beaten, plus half of those of each
  opponent drawn: the same, weighted by what was scored against them.
- **Direct encounter:** among players still level, the points they scored in their games against
  each other (a player who met none of the others scores none).
- Players level on all of these share the rank; they are listed by seed.

A player who left the arena keeps the points they had (and loses the game they left, which the
service records as a loss); they are listed with the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby

from bot.services.arena.ledger import Ledger, PlayerLedger
from bot.services.arena.records import Entrant, RoundRecord


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    rank: int
    player: int
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    wins: int
    draws: int
    losses: int
    bye: bool
    active: bool


def standings(entrants: Iterable[Entrant], rounds: Iterable[RoundRecord]) -> tuple[Standing, ...]:
    """Every player's line, best first."""
    ledger = Ledger(entrants, rounds)
    scores = ledger.scores
    lines = {account.player: _line(account, scores) for account in ledger.players.values()}

    def primary(account: PlayerLedger) -> tuple[Fraction, Fraction, Fraction]:
        line = lines[account.player]
        return (line.points, line.buchholz, line.sonneborn_berger)

    ordered = sorted(ledger.players.values(), key=lambda account: [-value for value in primary(account)])
    result: list[Standing] = []
    for _, level in groupby(ordered, key=primary):
        tied = list(level)
        direct = _direct_points(tied)
        tied.sort(key=lambda account: (-direct[account.player], account.entrant.seed))
        for _, same in groupby(tied, key=lambda account: direct[account.player]):
            rank = len(result) + 1
            for account in same:
                line = lines[account.player]
                result.append(
                    Standing(
                        rank=rank,
                        player=account.player,
                        points=line.points,
                        buchholz=line.buchholz,
                        sonneborn_berger=line.sonneborn_berger,
                        wins=line.wins,
                        draws=line.draws,
                        losses=line.losses,
                        bye=account.had_bye,
                        active=account.entrant.active,
                    )
                )
    return tuple(result)


@dataclass(frozen=True)
class _Line:
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    wins: int
    draws: int
    losses: int


def _line(account: PlayerLedger, scores: Mapping[int, Fraction]) -> _Line:
    encounters = account.encounters
    return _Line(
        points=account.score,
        buchholz=sum((scores[e.opponent] for e in encounters), Fraction(0)),
        sonneborn_berger=sum((scores[e.opponent] * e.points for e in encounters), Fraction(0)),
        wins=sum(1 for e in encounters if e.points == 1),
        draws=sum(1 for e in encounters if e.points == Fraction(1, 2)),
        losses=sum(1 for e in encounters if e.points == 0),
    )


def _direct_points(tied: list[PlayerLedger]) -> dict[int, Fraction]:
    """Each tied player's points from their finished games against the others of ``tied``."""
    among = {account.player for account in tied}
    return {
        account.player: sum(
            (e.points for e in account.encounters if e.opponent in among and e.opponent != account.player),
            Fraction(0),
        )
        for account in tied
    }
