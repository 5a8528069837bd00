"""A game's message (text, embed and buttons) and the ways it reaches Discord.

A game has one message at a time, its *board message*, whose id the service stores
(``set_message``). It is first the answer to ``/ttt start``; clicks edit it through
their interaction; timeouts, expiries and the bot's delayed replies edit it through the
channel API (:class:`BoardPublisher`), since interaction tokens expire after 15 minutes.
A game whose board is reached only on request (``interactions_only``: a group DM, a server
without the bot) never goes through the channel API: its board changes in answer to a click
or a command only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import NamedTuple, TypedDict

import aiohttp
import discord

from bot.bot import Interaction
from bot.exts.games.audience import Audience
from bot.exts.games.render.board import game_text, is_challenge_message, moved_text
from bot.exts.games.render.common import Card, MessageText, jump_url
from bot.exts.games.render.pieces import UNICODE_PIECES, Pieces
from bot.exts.games.themes import ThemePieces
from bot.exts.games.views import board_view, card_view, challenge_view
from bot.i18n import Texts
from bot.services import GameService, GameView, NotDone

log = logging.getLogger(__name__)


class SendArgs(TypedDict, total=False):
    """Keyword arguments of discord.py's ways to send a message; a missing part is not sent."""

    content: str
    embed: discord.Embed
    view: discord.ui.View
    allowed_mentions: discord.AllowedMentions


class EditArgs(TypedDict, total=False):
    """Keyword arguments of discord.py's ways to edit a message; None removes that part, a missing
    one leaves it as it is."""

    content: str | None
    embed: discord.Embed | None
    view: discord.ui.View | discord.ui.LayoutView | None
    allowed_mentions: discord.AllowedMentions


@dataclass(frozen=True, slots=True)
class GameMessage:
    """Everything a message shows; ``view`` None means no buttons.

    A :class:`discord.ui.LayoutView` makes a Components V2 message, whose words are all in the
    view: its text has no content and no embed. Editing an older message (content and an embed)
    into one removes those and adds the flag, which Discord allows; the flag is never removed.
    """

    text: MessageText
    view: discord.ui.View | discord.ui.LayoutView | None = None

    @classmethod
    def of_card(cls, card: Card, view: discord.ui.LayoutView | None = None) -> GameMessage:
        """The Components V2 message of ``card``: ``view`` if given, else the card alone."""
        return cls(MessageText(None, None, card.allowed_mentions), view or card_view(card))

    def send_args(self) -> SendArgs:
        """The keyword arguments that send this message (only the parts it has), unless it is a
        Components V2 one (:attr:`layout`)."""
        args = SendArgs(allowed_mentions=self.text.allowed_mentions)
        if self.text.content is not None:
            args["content"] = self.text.content
        if self.text.embed is not None:
            args["embed"] = self.text.embed
        if isinstance(self.view, discord.ui.View):
            args["view"] = self.view
        return args

    @property
    def layout(self) -> discord.ui.LayoutView | None:
        """The layout of a Components V2 message (sent alone, with its allowed mentions)."""
        return self.view if isinstance(self.view, discord.ui.LayoutView) else None

    def edit_args(self, shown: discord.Message | None = None) -> EditArgs:
        """The keyword arguments that edit a message into this one (parts it lacks are removed).

        ``shown`` is the message as it stands, when known: a Components V2 one has no content and no
        embed to remove, so a layout's edit of it sends neither.
        """
        text = self.text
        if self.layout is not None and shown is not None and shown.flags.components_v2:
            return EditArgs(view=self.layout, allowed_mentions=text.allowed_mentions)
        return EditArgs(
            content=text.content, embed=text.embed, view=self.view, allowed_mentions=text.allowed_mentions
        )


def compose(game: GameView, texts: Texts, pieces: Pieces = UNICODE_PIECES) -> GameMessage:
    """The message for ``game`` as it stands, in ``texts``' language: a challenge, or a board."""
    card = game_text(texts, game, pieces)
    if is_challenge_message(game):
        return GameMessage.of_card(card, challenge_view(game, texts, card))
    return GameMessage.of_card(card, board_view(game, texts, pieces, card))


class MessageRef(NamedTuple):
    """Where a message is."""

    channel_id: int
    message_id: int


def board_ref(game: GameView) -> MessageRef | None:
    """Where ``game``'s board message is, if it has one."""
    if game.message_id is None or game.message_channel_id is None:
        return None
    return MessageRef(game.message_channel_id, game.message_id)


async def answer(interaction: Interaction, message: GameMessage, *, ephemeral: bool = False) -> int | None:
    """Answer ``interaction`` with ``message``, or fill in its deferred "thinking..." with it.

    Returns the message's id when Discord gave it (it does for a public answer).
    ``ephemeral`` applies to a first answer; a deferred one keeps the visibility its defer chose.
    """
    if interaction.response.is_done():
        return (await interaction.edit_original_response(**message.edit_args())).id
    layout, mentions = message.layout, message.text.allowed_mentions
    if layout is not None:
        callback = await interaction.response.send_message(
            view=layout, allowed_mentions=mentions, ephemeral=ephemeral
        )
    else:
        callback = await interaction.response.send_message(**message.send_args(), ephemeral=ephemeral)
    return callback.message_id


async def update_clicked(interaction: Interaction, message: GameMessage) -> None:
    """Show ``message`` on the message whose button was clicked, as the click's answer or after its defer."""
    args = message.edit_args(interaction.message)
    if interaction.response.is_done():
        await interaction.edit_original_response(**args)
    else:
        await interaction.response.edit_message(**args)


class EditOrder:
    """Keeps a board message from going back in time.

    Two answers can race to edit one message (a click and a timeout, or the winner and
    a refused loser of a double click), and the older state could land last. Edits of
    one message are sent one at a time, and an edit showing an older version of the game
    than the message already shows is skipped. Bounded: the oldest messages are forgotten.
    """

    def __init__(self, capacity: int = 4096) -> None:
        self._capacity = capacity
        self._locks: OrderedDict[int, asyncio.Lock] = OrderedDict()
        self._shown: OrderedDict[int, int] = OrderedDict()

    @contextlib.asynccontextmanager
    async def edit(self, message_id: int, version: int, *, newer_only: bool = False) -> AsyncIterator[bool]:
        """Yields whether to send an edit showing ``version``; call it around the sending.

        ``newer_only`` also skips an edit that would show the version already shown.
        """
        lock = self._locks.get(message_id)
        if lock is None:
            lock = self._locks[message_id] = asyncio.Lock()
        self._locks.move_to_end(message_id)
        async with lock:
            shown = self._shown.get(message_id, -1)
            if shown > version or (newer_only and shown == version):
                yield False
                return
            yield True
            self._shown[message_id] = version
            self._shown.move_to_end(message_id)
        for table in (self._shown, self._locks):
            while len(table) > self._capacity:
                oldest = next(iter(table))
                if table is self._locks and self._locks[oldest].locked():
                    break
                table.popitem(last=False)


class BoardPublisher:
    """Brings a game's board message up to date through the channel API.

    When the message is gone, a new one is posted in the game's channel and becomes
    the board message. When Discord fails (after discord.py's own retries), the game is
    remembered and :meth:`retry_failed` tries again later, so the message catches up.
    """

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self._client = client
        self._service = service
        self._failed: set[int] = set()
        self.order = EditOrder()
        self.audience = Audience(client, service)
        self.pieces = ThemePieces()

    async def compose(self, game: GameView, interaction: Interaction | None = None) -> GameMessage:
        """The public message for ``game``, in its audience's language (see :class:`Audience`), with
        its theme's pieces."""
        audience = self.audience
        pieces = self.pieces.of(await audience.theme(game))
        return compose(game, await audience.public(game, interaction), pieces)

    async def answer_click(self, interaction: Interaction, game: GameView) -> None:
        """Answer a button's click by editing its message to show ``game`` (or only acknowledge it,
        when the message already shows a newer state)."""
        clicked = interaction.message
        async with self.order.edit(clicked.id if clicked else 0, game.version) as newest:
            if newest:
                await update_clicked(interaction, await self.compose(game, interaction))
            elif not interaction.response.is_done():
                await interaction.response.defer()

    async def redraw(self, channel_id: int, message_id: int, game: GameView) -> None:
        """Show ``game`` on one message (an outdated copy of the board) through the channel API."""
        await self._edit(channel_id, message_id, game, await self.compose(game), newer_only=True)

    async def retire(self, game: GameView, old: MessageRef, board: MessageRef) -> None:
        """Turn ``old``, an earlier message of ``game``, into a link to its board message, without buttons.

        A game has one live board: an old one would drift apart from it. Failing is
        harmless (the old buttons are refused as outdated), so it is only logged. Where the
        bot reaches messages only in answer to requests (``interactions_only``), it cannot.
        """
        if old == board or game.interactions_only:
            return
        texts = await self.audience.public(game)
        card = moved_text(texts, jump_url(game.guild_id, board.channel_id, board.message_id))
        try:
            await self._edit(old.channel_id, old.message_id, game, GameMessage.of_card(card))
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.info("Could not point the old board %s of game %s to its new one: %r", old, game.id, error)

    async def refresh(self, game: GameView) -> int | None:
        """Show ``game`` on its board message; return the message id, or None if Discord refused.

        None at once for a game reached only on request: its board shows the change at the next
        click on it or ``/ttt board``.
        """
        if game.interactions_only:
            log.debug("Game %s is shown only on request; its board catches up at the next click", game.id)
            return None
        try:
            if game.message_id is not None and game.message_channel_id is not None:
                try:
                    message = await self.compose(game)
                    await self._edit(game.message_channel_id, game.message_id, game, message)
                    self._failed.discard(game.id)
                    return game.message_id
                except discord.NotFound:
                    log.info("The board message of game %s is gone; posting a new one", game.id)
            posted = await self._post(game.channel_id, await self.compose(game))
            self._failed.discard(game.id)
            await self._service.set_message(game.id, game.channel_id, posted)
            return posted
        except discord.Forbidden as error:
            log.warning("Not allowed to show game %s in channel %s: %s", game.id, game.channel_id, error)
            self._failed.discard(game.id)
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.warning("Could not update the board of game %s (will retry): %r", game.id, error)
            self._failed.add(game.id)
        except NotDone as error:
            log.warning("Could not record the board message of game %s: %s", game.id, error)
        return None

    async def retry_failed(self) -> None:
        """Try again every board that Discord failed to update."""
        for game_id in sorted(self._failed):
            try:
                game = await self._service.game(game_id)
            except NotDone:
                self._failed.discard(game_id)
                continue
            await self.refresh(game)

    async def _edit(
        self,
        channel_id: int,
        message_id: int,
        game: GameView,
        message: GameMessage,
        *,
        newer_only: bool = False,
    ) -> None:
        if game.interactions_only:
            return
        partial = self._client.get_partial_messageable(channel_id).get_partial_message(message_id)
        async with self.order.edit(message_id, game.version, newer_only=newer_only) as newest:
            if newest:
                await partial.edit(**message.edit_args())

    async def _post(self, channel_id: int, message: GameMessage) -> int:
        channel = self._client.get_partial_messageable(channel_id)
        layout = message.layout
        if layout is not None:
            sent = await channel.send(view=layout, allowed_mentions=message.text.allowed_mentions)
        else:
            sent = await channel.send(**message.send_args())
        return sent.id
