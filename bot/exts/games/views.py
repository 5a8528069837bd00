"""Persistent buttons and the Components V2 layouts that hold them: the board (its grid, and Resign and
Hint, or Rematch, Review and Replay) and a challenge (Accept and Decline).

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
from collections.abc import Sequence
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
from bot.exts.games.lean import LeanButton, LeanContainer, LeanSeparator
from bot.exts.games.render.answers import UNAVAILABLE
from bot.exts.games.render.board import board_text, button_label, challenge_text
from bot.exts.games.render.common import Card
from bot.exts.games.render.pieces import UNICODE_PIECES, Pieces
from bot.i18n import Texts, texts_for_locale
from bot.notice import Notice, notice_view
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
        await interaction.response.send_message(
            view=notice_view(texts.gettext(UNAVAILABLE), Notice.OUTAGE), ephemeral=True
        )


class CellButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=CELL_TEMPLATE,
):
    """One cell of the board; its row in the message is its row on the board."""

    def __init__(
        self,
        click: Click,
        *,
        label: str,
        style: discord.ButtonStyle,
        disabled: bool,
        row: int,
        emoji: discord.PartialEmoji | None = None,
    ) -> None:
        self.click = click
        button = LeanButton(
            label=label, style=style, disabled=disabled, custom_id=click.custom_id, emoji=emoji
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
    """Resign, Hint, Rematch, Review, Replay, Accept or Decline: an action on the whole game."""

    STYLES: ClassVar[dict[Action, discord.ButtonStyle]] = {
        Action.RESIGN: discord.ButtonStyle.danger,
        Action.REMATCH: discord.ButtonStyle.primary,
        Action.ACCEPT: discord.ButtonStyle.success,
        Action.DECLINE: discord.ButtonStyle.danger,
        Action.REVIEW: discord.ButtonStyle.secondary,
        Action.HINT: discord.ButtonStyle.secondary,
        Action.REPLAY: discord.ButtonStyle.secondary,
    }

    def __init__(self, click: Click, *, label: str, row: int) -> None:
        self.click = click
        style = self.STYLES[click.action]
        button = LeanButton(label=label, style=style, custom_id=click.custom_id)
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

LAST_MOVE_SIGN = "•"
"""After the last move's cell name, so it stands out without colour too."""
WINNING_SIGN = "★"
"""After the cell names of the winning line, so it stands out without colour too."""


def _button_ids(message: discord.Message | None) -> list[str]:
    if message is None:
        return []
    ids = []
    pending: list[Any] = list(message.components)
    while pending:
        item = pending.pop(0)
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str):
            ids.append(custom_id)
        pending[:0] = [*getattr(item, "children", ()), *filter(None, [getattr(item, "accessory", None)])]
    return ids


def has_button(message: discord.Message | None, custom_id: str) -> bool:
    """Whether the message has a button with this custom id (in a container too)."""
    return custom_id in _button_ids(message)


def shown_game(message: discord.Message | None) -> int | None:
    """The game whose buttons a message shows; None when it shows none (or, never, several)."""
    games = {click.game_id for click in map(parse_custom_id, _button_ids(message)) if click is not None}
    return games.pop() if len(games) == 1 else None


def _cell_look(game: GameView, cell: int) -> tuple[discord.ButtonStyle, str]:
    """A cell's style and label: its name, with a sign on the last move or the winning line."""
    name = game.cell_name(cell)
    if game.status is GameStatus.FINISHED and cell in game.winning_cells:
        return discord.ButtonStyle.success, f"{name} {WINNING_SIGN}"
    if cell == game.last_cell:
        return discord.ButtonStyle.primary, f"{name} {LAST_MOVE_SIGN}"
    return discord.ButtonStyle.secondary, name


def _control(texts: Texts, click: Click) -> ControlButton:
    return ControlButton(click, label=button_label(texts, click.action), row=0)


def _controls(game: GameView, texts: Texts) -> list[ControlButton]:
    """Resign and Hint while the game runs; Rematch, Review and Replay once it is finished."""
    actions: tuple[Action, ...] = ()
    if game.is_active:
        actions = (Action.RESIGN, Action.HINT)
    elif game.status is GameStatus.FINISHED:
        actions = (Action.REMATCH, Action.REVIEW, Action.REPLAY)
    return [_control(texts, Click(action, game.id)) for action in actions]


def _row(items: list[CellButton] | list[ControlButton]) -> discord.ui.ActionRow[discord.ui.LayoutView]:
    row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
    for item in items:
        row.add_item(item)
    return row


def card_view(
    card: Card,
    rows: Sequence[discord.ui.ActionRow[discord.ui.LayoutView]] = (),
    controls: Sequence[ControlButton] = (),
) -> discord.ui.LayoutView:
    """A Components V2 message: one container in the card's colour with its top text (and picture),
    the rows of buttons, a separator and the controls, then its bottom text."""
    container = LeanContainer(accent_colour=card.colour)
    container.add_item(discord.ui.TextDisplay(card.top))
    if card.image is not None:
        picture = discord.MediaGalleryItem(card.image, description=card.image_description)
        container.add_item(discord.ui.MediaGallery(picture))
    for row in rows:
        container.add_item(row)
    if controls:
        container.add_item(LeanSeparator())
        container.add_item(_row(list(controls)))
    if card.bottom:
        container.add_item(discord.ui.TextDisplay(card.bottom))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return view


def board_view(
    game: GameView, texts: Texts, pieces: Pieces = UNICODE_PIECES, card: Card | None = None
) -> discord.ui.LayoutView:
    """The board: one container with the heading and players, the grid (``size`` rows, cells in
    reading order), the controls on every size, and the last move with the clock.

    Every cell is labelled with its name (``b2``) and a played one shows its piece as an emoji, so a
    screen reader says both. Occupied cells are disabled; empty ones are enabled while the game
    runs. The last move is blue and marked •, a winning line green and marked ★.
    """
    legal = set(game.legal_moves)
    grid: list[CellButton] = []
    for cell, mark in enumerate(game.cells):
        style, label = _cell_look(game, cell)
        grid.append(
            CellButton(
                Click(Action.CELL, game.id, game.ply, cell),
                label=label,
                emoji=None if mark is None else pieces.of(mark),
                style=style,
                disabled=not (game.is_active and cell in legal),
                row=0,
            )
        )
    rows = [_row(grid[start : start + game.size]) for start in range(0, len(grid), game.size)]
    return card_view(card or board_text(texts, game), rows, _controls(game, texts))


def challenge_view(game: GameView, texts: Texts, card: Card | None = None) -> discord.ui.LayoutView:
    """A challenge: Accept and Decline while it is pending, then only how it ended."""
    actions: tuple[Action, ...] = (Action.ACCEPT, Action.DECLINE) if game.is_pending else ()
    controls = [_control(texts, Click(action, game.id)) for action in actions]
    return card_view(card or challenge_text(texts, game), controls=controls)
