"""The record of an arena as the Swiss rules read it: entrants, rounds, games and their results.

Players are named by an integer id (the service uses the Discord user id); nothing here knows
what it stands for. Scores are :class:`~fractions.Fraction` so that halves and the products of
Sonneborn-Berger stay exact.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

BYE_POINTS = Fraction(1)
"""What a bye is worth: a full point, at most once per player."""


class Mark(enum.Enum):
    """The side a player plays: X moves first."""

    X = "x"
    O = "o"  # noqa: E741 - the name of the mark

    @property
    def other(self) -> Mark:
        """The opposite side."""
        return Mark.O if self is Mark.X else Mark.X


class Result(enum.Enum):
    """How a game of the arena ended, for scoring: win 1, draw ½, loss 0."""

    X_WON = "x_won"
    O_WON = "o_won"
    DRAW = "draw"

    def points(self, mark: Mark) -> Fraction:
        """What the player of ``mark`` scores from this result."""
        if self is Result.DRAW:
            return Fraction(1, 2)
        won = Mark.X if self is Result.X_WON else Mark.O
        return Fraction(1) if mark is won else Fraction(0)


@dataclass(frozen=True)
class Entrant:
    """A player of the arena.

    ``seed`` orders players whose scores are equal when pairing (a lower seed ranks higher) and
    breaks the last tie of the standings; the service seeds by join order. ``left_after`` is the
    number of the last round the player was in when they left the arena (0: before the first), or
    None while they play on: a player who left is paired no more.
    """

    player: int
    seed: int
    left_after: int | None = None

    @property
    def active(self) -> bool:
        """Whether the player is still in the arena."""
        return self.left_after is None


@dataclass(frozen=True)
class Pairing:
    """Two players who meet in a round, ``x`` moving first."""

    x: int
    o: int

    @property
    def players(self) -> tuple[int, int]:
        """Both players, X first."""
        return (self.x, self.o)


@dataclass(frozen=True)
class PlayedGame:
    """A game of a round and its result; None while it is being played."""

    x: int
    o: int
    result: Result | None = None

    @property
    def pairing(self) -> Pairing:
        """Who met, X first."""
        return Pairing(self.x, self.o)


@dataclass(frozen=True)
class RoundRecord:
    """A round as it was paired and played: its games and the player who had the bye, if any."""

    number: int
    games: tuple[PlayedGame, ...]
    bye: int | None = None

    @property
    def finished(self) -> bool:
        """Whether every game of the round has its result."""
        return all(game.result is not None for game in self.games)


@dataclass(frozen=True)
class RoundPlan:
    """The pairings of the next round: ``pairings`` in board order (the leaders first) and the bye."""

    number: int
    pairings: tuple[Pairing, ...]
    bye: int | None = None
