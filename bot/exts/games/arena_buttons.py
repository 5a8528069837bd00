"""The arena lobby's persistent buttons: Join, Leave and Start.

``ttt:arena:<join|leave|start>:<arena>``: the custom id carries the arena, so a click on a lobby
posted before a restart still finds it. A click is handed to the games cog's
:meth:`~bot.exts.games.handlers.arenas.ArenaCommands.on_arena_click`.
"""

from __future__ import annotations

import enum
import re
from typing import Any, ClassVar, Protocol, Self, cast

import discord

from bot.bot import Interaction, TicTacToeBot
from bot.exts.games.custom_ids import PREFIX
from bot.exts.games.render.answers import UNAVAILABLE
from bot.exts.games.render.arena import JOIN, LEAVE, START
from bot.exts.games.render.common import Card
from bot.i18n import Texts, texts_for_locale
from bot.notice import Notice, notice_view
from bot.services import ArenaStatus
from bot.services.arena_views import ArenaView

ARENA_TEMPLATE = rf"{PREFIX}:arena:(?P<action>join|leave|start):(?P<arena>[1-9][0-9]{{0,17}})"
_ARENA = re.compile(ARENA_TEMPLATE)


class ArenaAction(enum.Enum):
    """What a lobby's button does."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"


class ArenaClickHandler(Protocol):
    """The cog's handling of a lobby button's click."""

    async def on_arena_click(self, interaction: Interaction, action: ArenaAction, arena_id: int, /) -> None:
        """Act on a click of ``action`` on arena ``arena_id``'s message."""


def is_arena_button(custom_id: str) -> bool:
    """Whether ``custom_id`` is one of a lobby's buttons."""
    return _ARENA.fullmatch(custom_id) is not None


class ArenaButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=ARENA_TEMPLATE):
    """Join, Leave or Start on an arena's message."""

    STYLES: ClassVar[dict[ArenaAction, discord.ButtonStyle]] = {
        ArenaAction.JOIN: discord.ButtonStyle.success,
        ArenaAction.LEAVE: discord.ButtonStyle.danger,
        ArenaAction.START: discord.ButtonStyle.primary,
    }
    LABELS: ClassVar[dict[ArenaAction, str]] = {
        ArenaAction.JOIN: JOIN,
        ArenaAction.LEAVE: LEAVE,
        ArenaAction.START: START,
    }

    def __init__(self, action: ArenaAction, arena_id: int, *, label: str = "?") -> None:
        self.action = action
        self.arena_id = arena_id
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label, style=self.STYLES[action], custom_id=f"{PREFIX}:arena:{action.value}:{arena_id}"
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """The clicked button, from its custom id (discord.py's persistent items)."""
        return cls(ArenaAction(match["action"]), int(match["arena"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Only a click the bot's gate admits is handled."""
        client = interaction.client
        return await client.gate.admit(interaction) if isinstance(client, TicTacToeBot) else True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Give the click to the games cog (or say the bot is not ready)."""
        cog = interaction.client.get_cog("Games")
        if cog is not None and hasattr(cog, "on_arena_click"):
            handler = cast(ArenaClickHandler, cog)
            await handler.on_arena_click(cast(Interaction, interaction), self.action, self.arena_id)
        elif not interaction.response.is_done():
            texts = texts_for_locale(interaction.locale.value)
            view = notice_view(texts.gettext(UNAVAILABLE), Notice.OUTAGE)
            await interaction.response.send_message(view=view, ephemeral=True)


def arena_view(card: Card, arena: ArenaView, texts: Texts) -> discord.ui.LayoutView:
    """The arena's message: its card in one container (with its picture, the final cross table), with
    Join, Leave and Start while the lobby is open and Leave while the rounds run."""
    actions: tuple[ArenaAction, ...] = ()
    if arena.status is ArenaStatus.OPEN:
        actions = (ArenaAction.JOIN, ArenaAction.LEAVE, ArenaAction.START)
    elif arena.status is ArenaStatus.RUNNING:
        actions = (ArenaAction.LEAVE,)
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=card.colour)
    container.add_item(discord.ui.TextDisplay(card.top))
    if card.image is not None:
        picture = discord.MediaGalleryItem(card.image, description=card.image_description)
        container.add_item(discord.ui.MediaGallery(picture))
    if actions:
        row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
        for action in actions:
            row.add_item(ArenaButton(action, arena.id, label=texts.gettext(ArenaButton.LABELS[action])))
        container.add_item(discord.ui.Separator())
        container.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return view


def card_only(card: Card) -> discord.ui.LayoutView:
    """A message of one container with the card's text and no buttons (a round, a pairing)."""
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=card.colour)
    container.add_item(discord.ui.TextDisplay(card.top))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return view
