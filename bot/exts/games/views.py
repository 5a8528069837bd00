"""Persistent buttons: the board grid, Resign, Rematch and Review, and a challenge's Accept and Decline.

Every button is a :class:`discord.ui.DynamicItem` whose custom id (see
:mod:`bot.exts.games.custom_ids`) carries what a click needs to find its game in the
database. The classes are registered once at start-up, so a click on a message posted
before a restart is still understood.

A click is parsed into a :class:`Click` and handed to the bot's click handler
(:attr:`bot.bot.TicTacToeBot.click_handler`, which the games cog sets while it is loaded);
these classes only translate.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self, cast

import discord

from bot.bot import Interaction, TicTacToeBot
from bot.exts.games.custom_ids import (
    CELL_TEMPLATE,
    CONTROL_TEMPLATE,
    Action,
    Click,
    cell_click,
    control_click,
    parse_custom_id,
)
from bot.exts.games.render.answers import UNAVAILABLE
from bot.exts.games.render.board import button_label
from bot.i18n import Texts, texts_for_locale
from bot.services import GameStatus
from bot.services.results import GameView


async def _admitted(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot's gate lets the click through (see :mod:`bot.shutdown`)."""
    client = interaction.client
    return await client.gate.admit(interaction) if isinstance(client, TicTacToeBot) else True


async def _hand_over(interaction: discord.Interaction[Any], click: Click) -> None:
    """Give the click to the bot's click handler (discord.py types a dynamic item's interaction loosely)."""
    client = interaction.client
    handler = client.click_handler if isinstance(client, TicTacToeBot) else None
    if handler is not None:
        await handler(cast(Interaction, interaction), click)
    elif not interaction.response.is_done():
        texts = texts_for_locale(interaction.locale.value)
        await interaction.response.send_message(texts.gettext(UNAVAILABLE), ephemeral=True)


class CellButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=CELL_TEMPLATE,
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
        """The button of a clicked cell, from its custom id (discord.py's persistent items)."""
        return cls(cell_click(match), label="?", style=discord.ButtonStyle.secondary, disabled=False, row=0)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only a click the bot's gate admits is handled."""
        return await _admitted(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Give the click to the games cog."""
        await _hand_over(interaction, self.click)


class ControlButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=CONTROL_TEMPLATE,
):
    """Resign, Rematch, Review, Accept or Decline: an action on the whole game."""

    STYLES: ClassVar[dict[Action, discord.ButtonStyle]] = {
        Action.RESIGN: discord.ButtonStyle.danger,
        Action.REMATCH: discord.ButtonStyle.primary,
        Action.ACCEPT: discord.ButtonStyle.success,
        Action.DECLINE: discord.ButtonStyle.danger,
        Action.REVIEW: discord.ButtonStyle.secondary,
    }

    def __init__(self, click: Click, *, label: str, row: int) -> None:
        self.click = click
        style = self.STYLES[click.action]
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label, style=style, custom_id=click.custom_id
        )
        super().__init__(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """The clicked control button, from its custom id (discord.py's persistent items)."""
        return cls(control_click(match), label="?", row=0)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only a click the bot's gate admits is handled."""
        return await _admitted(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Give the click to the games cog."""
        await _hand_over(interaction, self.click)


DYNAMIC_ITEMS: tuple[type[CellButton] | type[ControlButton], ...] = (CellButton, ControlButton)


def _button_ids(message: discord.Message | None) -> list[str]:
    if message is None:
        return []
    ids = []
    for row in message.components:
        for child in getattr(row, "children", ()):
            custom_id = getattr(child, "custom_id", None)
            if isinstance(custom_id, str):
                ids.append(custom_id)
    return ids


def has_button(message: discord.Message | None, custom_id: str) -> bool:
    """Whether the message has a button with this custom id."""
    return custom_id in _button_ids(message)


def shown_game(message: discord.Message | None) -> int | None:
    """The game whose buttons a message shows; None when it shows none (or, never, several)."""
    games = {click.game_id for click in map(parse_custom_id, _button_ids(message)) if click is not None}
    return games.pop() if len(games) == 1 else None


def _cell_style(game: GameView, cell: int) -> discord.ButtonStyle:
    if game.status is GameStatus.FINISHED and cell in game.winning_cells:
        return discord.ButtonStyle.success
    if cell == game.last_cell:
        return discord.ButtonStyle.primary
    return discord.ButtonStyle.secondary


def _control(texts: Texts, click: Click, row: int) -> ControlButton:
    return ControlButton(click, label=button_label(texts, click.action), row=row)


def board_view(game: GameView, texts: Texts) -> discord.ui.View:
    """The grid (the first ``size`` rows, cells in reading order), then the controls when there is room:
    Resign while the game runs, Rematch and Review once it is finished.

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
            view.add_item(_control(texts, Click(Action.RESIGN, game.id), game.size))
        elif game.status is GameStatus.FINISHED:
            view.add_item(_control(texts, Click(Action.REMATCH, game.id), game.size))
            view.add_item(_control(texts, Click(Action.REVIEW, game.id), game.size))
    return view


def challenge_view(game: GameView, texts: Texts) -> discord.ui.View:
    """A pending challenge's Accept and Decline."""
    view = discord.ui.View(timeout=None)
    view.add_item(_control(texts, Click(Action.ACCEPT, game.id), 0))
    view.add_item(_control(texts, Click(Action.DECLINE, game.id), 0))
    return view
