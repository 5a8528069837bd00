"""The custom ids of the game's buttons: what a click carries to find its game.

``ttt:<game>:<ply>:<cell>``, ``ttt:resign:<game>``, ``ttt:rematch:<game>``,
``ttt:review:<game>``, ``ttt:hint:<game>``, ``ttt:replay:<game>``, ``ttt:accept:<game>`` and
``ttt:decline:<game>``. The ply in a cell's id lets the
service refuse a click on a board that has moved on since it was drawn. A cell's id is the shortest
because a board carries up to 25 of them in every edit; boards drawn before it was shortened say
``ttt:cell:<game>:<ply>:<cell>``, which is still understood.

:data:`CELL_TEMPLATE` and :data:`CONTROL_TEMPLATE` are the patterns of the game's buttons' ids
(:mod:`bot.exts.games.views`); :func:`parse_custom_id` reads a clicked id with them
(:mod:`bot.exts.games.buttons`).
Nothing here talks to Discord.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

PREFIX = "ttt"
_GAME = r"(?P<game>[1-9][0-9]{0,17})"

CELL_TEMPLATE = rf"{PREFIX}:(?:cell:)?{_GAME}:(?P<ply>[0-9]{{1,2}}):(?P<cell>[0-9]{{1,2}})"
"""A cell's button: the game, the ply the board was drawn at, and the cell (0-based, reading order)."""

CONTROL_TEMPLATE = rf"{PREFIX}:(?P<action>resign|rematch|review|hint|replay|accept|decline):{_GAME}"
"""Resign, Rematch, Review, Hint, Replay, Accept or Decline: an action on the whole game."""

_CELL = re.compile(CELL_TEMPLATE)
_CONTROL = re.compile(CONTROL_TEMPLATE)


class Action(enum.Enum):
    """What a game's button does."""

    CELL = "cell"
    RESIGN = "resign"
    REMATCH = "rematch"
    REVIEW = "review"
    HINT = "hint"
    REPLAY = "replay"
    ACCEPT = "accept"
    DECLINE = "decline"


@dataclass(frozen=True, slots=True)
class Click:
    """What a button asks for: an action on a game, and for a cell the ply the board was drawn at."""

    action: Action
    game_id: int
    ply: int | None = None
    cell: int | None = None

    @property
    def custom_id(self) -> str:
        """The custom id of the button that asks for this click."""
        if self.action is Action.CELL:
            return f"{PREFIX}:{self.game_id}:{self.ply}:{self.cell}"
        return f"{PREFIX}:{self.action.value}:{self.game_id}"


def cell_click(match: re.Match[str]) -> Click:
    """The click of a cell's button, from a match of :data:`CELL_TEMPLATE`."""
    return Click(Action.CELL, int(match["game"]), int(match["ply"]), int(match["cell"]))


def control_click(match: re.Match[str]) -> Click:
    """The click of a control button, from a match of :data:`CONTROL_TEMPLATE`."""
    return Click(Action(match["action"]), int(match["game"]))


def parse_custom_id(text: str) -> Click | None:
    """The click a button's custom id asks for, or None when no button of the game has that id."""
    if (match := _CELL.fullmatch(text)) is not None:
        return cell_click(match)
    if (match := _CONTROL.fullmatch(text)) is not None:
        return control_click(match)
    return None


def game_of(text: str) -> int | None:
    """The game a button's custom id names, or None when no button of a game has that id."""
    match = _CELL.fullmatch(text) or _CONTROL.fullmatch(text)
    return None if match is None else int(match["game"])
