"""The states of a game (status, result, end reason): words the service decides and the store keeps."""

from __future__ import annotations

import enum


class GameStatus(enum.StrEnum):
    """Where a game is in its life. ``PENDING`` and ``ACTIVE`` are live: one per channel."""

    PENDING = "pending"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    EXPIRED = "expired"

    @property
    def is_live(self) -> bool:
        return self in LIVE_STATUSES


LIVE_STATUSES = (GameStatus.PENDING, GameStatus.ACTIVE)


class GameResult(enum.StrEnum):
    """The outcome of a finished game (cancelled and expired games have none)."""

    X_WON = "x_won"
    O_WON = "o_won"
    DRAW = "draw"


class EndReason(enum.StrEnum):
    """How a game stopped."""

    LINE = "line"
    FULL = "full"
    RESIGN = "resign"
    TIMEOUT = "timeout"
    CANCEL = "cancel"
    DECLINED = "declined"
