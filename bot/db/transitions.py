"""The columns of a game that each state transition (:mod:`bot.states`) sets."""

from __future__ import annotations

from datetime import datetime
from typing import Any, assert_never

from bot.states import Accepted, Ended, Ending, GameStatus, Moved, Rescheduled, Transition


def columns(transition: Transition) -> dict[str, Any]:
    """The new values of the ``games`` row's columns for ``transition`` (the version aside)."""
    match transition:
        case Accepted(deadline=deadline, at=at):
            return {"status": GameStatus.ACTIVE, "deadline": deadline, "updated_at": at}
        case Moved(board=board, ply=ply, last_cell=last_cell, deadline=deadline, at=at, ending=ending):
            values: dict[str, Any] = {
                "board": board,
                "ply": ply,
                "last_cell": last_cell,
                "deadline": deadline,
                "updated_at": at,
            }
            if ending is not None:
                values.update(_ending(ending, at))
            return values
        case Ended(ending=ending, at=at):
            return _ending(ending, at)
        case Rescheduled(deadline=deadline, at=at):
            return {"deadline": deadline, "updated_at": at}
        case _:
            assert_never(transition)


def _ending(ending: Ending, at: datetime) -> dict[str, Any]:
    values: dict[str, Any] = {
        "status": ending.status,
        "end_reason": ending.reason,
        "deadline": None,
        "finished_at": at,
        "updated_at": at,
    }
    if ending.status is GameStatus.FINISHED:
        values.update(result=ending.result, rated=ending.rated, rating_weight=ending.rating_weight)
    return values
