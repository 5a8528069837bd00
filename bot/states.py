"""The states of a game and the changes between them: what the service decides and the store keeps.

The enums are the words stored for a game's status, result and end reason. A
transition (:class:`Accepted`, :class:`Moved`, :class:`Ended`, :class:`Rescheduled`) is one change of a
stored game's state, decided by the service and applied by the store as one
compare-and-set on the game's version.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime


class GameStatus(enum.StrEnum):
    """Where a game is in its life. ``PENDING`` and ``ACTIVE`` are live: one per channel."""

    PENDING = "pending"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    EXPIRED = "expired"

    @property
    def is_live(self) -> bool:
        """Whether the game still waits for someone: a pending challenge or an active game."""
        return self in LIVE_STATUSES


LIVE_STATUSES = (GameStatus.PENDING, GameStatus.ACTIVE)


class ArenaStatus(enum.StrEnum):
    """Where an arena is in its life. ``OPEN`` (taking players) and ``RUNNING`` are live: one per channel."""

    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def is_live(self) -> bool:
        """Whether the arena still takes players or plays rounds."""
        return self in (ArenaStatus.OPEN, ArenaStatus.RUNNING)


class GameResult(enum.StrEnum):
    """The outcome of a finished game (cancelled and expired games have none)."""

    X_WON = "x_won"
    O_WON = "o_won"
    DRAW = "draw"


class EndReason(enum.StrEnum):
    """How a game stopped.

    ``TIMEOUT`` ends a turn that ran out: a challenge expires, a person on turn loses on time,
    and a game whose bot could not make its move in time, again and again, is cancelled.
    """

    LINE = "line"
    FULL = "full"
    RESIGN = "resign"
    TIMEOUT = "timeout"
    CANCEL = "cancel"
    DECLINED = "declined"


@dataclass(frozen=True, slots=True)
class Ending:
    """How a game stops: finished with a result, or cancelled, declined or expired without one."""

    status: GameStatus
    reason: EndReason
    result: GameResult | None = None
    rating_weight: float = 0.0
    """How much the game moves its players' ratings (0 for an unrated game)."""

    @property
    def rated(self) -> bool:
        """Whether the game counts for the ratings."""
        return self.rating_weight > 0


@dataclass(frozen=True, slots=True)
class Accepted:
    """A challenge is accepted: the game becomes active, X on turn by ``deadline``."""

    deadline: datetime | None
    at: datetime


@dataclass(frozen=True, slots=True)
class Moved:
    """Moves were played: the board is now ``board`` (compact text) after ``ply`` plies.

    ``deadline`` is the next human's; ``ending`` is set when the last move decided the game.
    """

    board: str
    ply: int
    last_cell: int
    deadline: datetime | None
    at: datetime
    ending: Ending | None = None


@dataclass(frozen=True, slots=True)
class Ended:
    """The game stops other than by a move: resignation, timeout, cancel, decline or expiry."""

    ending: Ending
    at: datetime


@dataclass(frozen=True, slots=True)
class Rescheduled:
    """The bot's turn gets a new ``deadline``: its move is being made again, or will be."""

    deadline: datetime
    at: datetime


Transition = Accepted | Moved | Ended | Rescheduled
