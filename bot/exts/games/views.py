"""Persistent buttons: the board grid, Resign, Rematch, and a challenge's Accept and Decline.

Every button is a :class:`discord.ui.DynamicItem` whose custom id carries what a click
needs to find its game in the database: ``ttt:cell:<game>:<ply>:<cell>``,
``ttt:resign:<game>``, ``ttt:rematch:<game>``, ``ttt:accept:<game>``,
``ttt:decline:<game>``. The classes are registered once at start-up, so a click on a
message posted before a restart is still understood; the ply in a cell's id lets the
service refuse a click on a board that has moved on since it was drawn.

A click is parsed into a :class:`Click` and handed to the games cog (a
:class:`ClickHandler`), which does the work; these classes only translate.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

import discord
from discord.ext import commands

from bot.services import GameStatus
from bot.services.results import GameView

GAMES_COG = "Games"
"""The name of the cog that handles clicks (:class:`bot.exts.games.cog.GamesCog`)."""

PREFIX = "ttt"
_ID = r"(?P<game>[1-9][0-9]{0,17})"


class Action(enum.Enum):
    CELL = "cell"
    RESIGN = "resign"
    REMATCH = "rematch"
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
        if self.action is Action.CELL:
            return f"{PREFIX}:{self.action.value}:{self.game_id}:{self.ply}:{self.cell}"
        return f"{PREFIX}:{self.action.value}:{self.game_id}"


@runtime_checkable
class ClickHandler(Protocol):
    async def on_click(self, interaction: discord.Interaction[Any], click: Click, /) -> None: ...


async def _hand_over(interaction: discord.Interaction[Any], click: Click) -> None:
    client = interaction.client
    handler = client.get_cog(GAMES_COG) if isinstance(client, commands.Bot) else None
    if isinstance(handler, ClickHandler):
        await handler.on_click(interaction, click)
    elif not interaction.response.is_done():
        await interaction.response.send_message(
            "The game is not available right now; please try again in a moment.", ephemeral=True
        )


class CellButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"{PREFIX}:cell:{_ID}:(?P<ply>[0-9]{{1,2}}):(?P<cell>[0-9]{{1,2}})",
):
    """One cell of the board; its row in the message is its row on the board."""

    def __init__(
        self, click: Click, *, label: str, style: discord.ButtonStyle, disabled: bool, row: int
    ) -> None:
        self.click = click
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label, style=style, disabled=disabled, custom_id=click.custom_id
        )
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        click = Click(Action.CELL, int(match["game"]), int(match["ply"]), int(match["cell"]))
        return cls(click, label="?", style=discord.ButtonStyle.secondary, disabled=False, row=0)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _hand_over(interaction, self.click)


class ControlButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"{PREFIX}:(?P<action>resign|rematch|accept|decline):{_ID}",
):
    """Resign, Rematch, Accept or Decline: an action on the whole game."""

    LABELS: ClassVar[dict[Action, tuple[str, discord.ButtonStyle]]] = {
        Action.RESIGN: ("Resign", discord.ButtonStyle.danger),
        Action.REMATCH: ("Rematch", discord.ButtonStyle.primary),
        Action.ACCEPT: ("Accept", discord.ButtonStyle.success),
        Action.DECLINE: ("Decline", discord.ButtonStyle.danger),
    }

    def __init__(self, click: Click, *, row: int) -> None:
        self.click = click
        label, style = self.LABELS[click.action]
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label, style=style, custom_id=click.custom_id
        )
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(Click(Action(match["action"]), int(match["game"])), row=0)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _hand_over(interaction, self.click)


DYNAMIC_ITEMS: tuple[type[CellButton] | type[ControlButton], ...] = (CellButton, ControlButton)


def is_known_custom_id(custom_id: str) -> bool:
    """Whether one of this module's button classes will handle a click with this custom id."""
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS)


def _cell_style(game: GameView, cell: int) -> discord.ButtonStyle:
    if game.status is GameStatus.FINISHED and cell in game.winning_cells:
        return discord.ButtonStyle.success
    if cell == game.last_cell:
        return discord.ButtonStyle.primary
    return discord.ButtonStyle.secondary


def board_view(game: GameView) -> discord.ui.View:
    """The grid (the first ``size`` rows, cells in reading order), then Resign or Rematch when there is room.

    Occupied cells are disabled and show X or O; empty ones show their name (``b2``)
    and are enabled while the game runs. The last move is blue, a winning line green.
    """
    view = discord.ui.View(timeout=None)
    legal = set(game.legal_moves)
    for cell, mark in enumerate(game.cells):
        view.add_item(
            CellButton(
                Click(Action.CELL, game.id, game.ply, cell),
                label=game.cell_name(cell) if mark is None else mark.value,
                style=_cell_style(game, cell),
                disabled=not (game.is_active and cell in legal),
                row=cell // game.size,
            )
        )
    if game.size < 5:
        if game.is_active:
            view.add_item(ControlButton(Click(Action.RESIGN, game.id), row=game.size))
        elif game.status is GameStatus.FINISHED:
            view.add_item(ControlButton(Click(Action.REMATCH, game.id), row=game.size))
    return view


def challenge_view(game: GameView) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ControlButton(Click(Action.ACCEPT, game.id), row=0))
    view.add_item(ControlButton(Click(Action.DECLINE, game.id), row=0))
    return view
