"""The Components V2 layouts of a game's message and their buttons: the board (its grid, and Resign
and Hint, or Rematch, Review and Replay) and a challenge (Accept and Decline).

Every button's custom id (see :mod:`bot.exts.games.custom_ids`) carries what a click needs to find
its game in the database, so a click on a message posted before a restart is still understood.
The buttons are lean ones (:class:`~bot.exts.games.lean.LeanButton`) that discord.py does not
dispatch: the bot's listener (:mod:`bot.exts.games.buttons`) reads the click's custom id, checks
that the clicked message has that button, and hands the :class:`Click` to the bot's click handler.
discord.py's persistent ``DynamicItem`` buttons would rebuild the clicked message as a view on
every click to find the button, which cost more than the rest of the click's handling outside
the store.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.exts.games.custom_ids import Action, Click, game_of
from bot.exts.games.lean import LeanButton, LeanContainer, LeanSeparator
from bot.exts.games.render.board import board_text, button_label, challenge_text
from bot.exts.games.render.common import Card
from bot.exts.games.render.pieces import UNICODE_PIECES, Pieces
from bot.i18n import Texts
from bot.services import GameStatus
from bot.services.results import GameView

CONTROL_STYLES: dict[Action, discord.ButtonStyle] = {
    Action.RESIGN: discord.ButtonStyle.danger,
    Action.REMATCH: discord.ButtonStyle.primary,
    Action.ACCEPT: discord.ButtonStyle.success,
    Action.DECLINE: discord.ButtonStyle.danger,
    Action.REVIEW: discord.ButtonStyle.secondary,
    Action.HINT: discord.ButtonStyle.secondary,
    Action.REPLAY: discord.ButtonStyle.secondary,
}
"""The style of each button that acts on the whole game."""

LAST_MOVE_SIGN = "•"
"""After the last move's cell name, so it stands out without colour too."""
WINNING_SIGN = "★"
"""After the cell names of the winning line, so it stands out without colour too."""


def _button_ids(message: discord.Message | None) -> list[str]:
    """The custom ids of the message's buttons, in a container or a section too (in reading order)."""
    ids: list[str] = []
    if message is not None:
        _collect_ids(message.components, ids)
    return ids


def _collect_ids(components: Iterable[Any], ids: list[str]) -> None:
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            ids.append(custom_id)
        children = getattr(component, "children", None)
        if children:
            _collect_ids(children, ids)
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            _collect_ids((accessory,), ids)


def has_button(message: discord.Message | None, custom_id: str) -> bool:
    """Whether the message has a button with this custom id (in a container too)."""
    return custom_id in _button_ids(message)


def shown_game(message: discord.Message | None) -> int | None:
    """The game whose buttons a message shows; None when it shows none (or, never, several)."""
    games = {game_of(custom_id) for custom_id in _button_ids(message)}
    games.discard(None)
    return games.pop() if len(games) == 1 else None


def _cell_look(game: GameView, cell: int) -> tuple[discord.ButtonStyle, str]:
    """A cell's style and label: its name, with a sign on the last move or the winning line."""
    name = game.cell_name(cell)
    if game.status is GameStatus.FINISHED and cell in game.winning_cells:
        return discord.ButtonStyle.success, f"{name} {WINNING_SIGN}"
    if cell == game.last_cell:
        return discord.ButtonStyle.primary, f"{name} {LAST_MOVE_SIGN}"
    return discord.ButtonStyle.secondary, name


def _control(texts: Texts, click: Click) -> LeanButton:
    label = button_label(texts, click.action)
    return LeanButton(label=label, custom_id=click.custom_id, style=CONTROL_STYLES[click.action])


def _controls(game: GameView, texts: Texts) -> list[LeanButton]:
    """Resign and Hint while the game runs; Rematch, Review and Replay once it is finished."""
    actions: tuple[Action, ...] = ()
    if game.is_active:
        actions = (Action.RESIGN, Action.HINT)
    elif game.status is GameStatus.FINISHED:
        actions = (Action.REMATCH, Action.REVIEW, Action.REPLAY)
    return [_control(texts, Click(action, game.id)) for action in actions]


def _row(items: Sequence[LeanButton]) -> discord.ui.ActionRow[discord.ui.LayoutView]:
    row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
    for item in items:
        row.add_item(item)
    return row


def card_view(
    card: Card,
    rows: Sequence[discord.ui.ActionRow[discord.ui.LayoutView]] = (),
    controls: Sequence[LeanButton] = (),
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
    active = game.is_active
    grid: list[LeanButton] = []
    for cell, mark in enumerate(game.cells):
        style, label = _cell_look(game, cell)
        grid.append(
            LeanButton(
                label=label,
                custom_id=Click(Action.CELL, game.id, game.ply, cell).custom_id,
                style=style,
                disabled=not (active and cell in legal),
                emoji=None if mark is None else pieces.of(mark),
            )
        )
    rows = [_row(grid[start : start + game.size]) for start in range(0, len(grid), game.size)]
    return card_view(card or board_text(texts, game), rows, _controls(game, texts))


def challenge_view(game: GameView, texts: Texts, card: Card | None = None) -> discord.ui.LayoutView:
    """A challenge: Accept and Decline while it is pending, then only how it ended."""
    actions: tuple[Action, ...] = (Action.ACCEPT, Action.DECLINE) if game.is_pending else ()
    controls = [_control(texts, Click(action, game.id)) for action in actions]
    return card_view(card or challenge_text(texts, game), controls=controls)
