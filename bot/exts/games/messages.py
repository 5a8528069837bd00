"""A game's message (text, embed and buttons) and the ways it reaches Discord.

A game has one message at a time, its *board message*, whose id the service stores
(``set_message``). It is first the answer to ``/ttt start``; clicks edit it through
their interaction; timeouts, expiries and the bot's delayed replies edit it through the
channel API (:class:`BoardPublisher`), since interaction tokens expire after 15 minutes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

from bot.errors import GameError
from bot.exts.games.render import MessageText, game_text, is_challenge_message
from bot.exts.games.views import board_view, challenge_view
from bot.services import GameService, GameView

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class GameMessage:
    """Everything a game's message shows; ``view`` None means no buttons."""

    text: MessageText
    view: discord.ui.View | None


def compose(game: GameView) -> GameMessage:
    """The message for ``game`` as it stands: a challenge with Accept/Decline, or a board."""
    text = game_text(game)
    if is_challenge_message(game):
        return GameMessage(text, challenge_view(game) if game.is_pending else None)
    return GameMessage(text, board_view(game))


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


async def send_as_response(interaction: discord.Interaction[Any], message: GameMessage) -> int:
    """Answer ``interaction`` with a new public message (or fill in its "thinking..."); return its id."""
    text = message.text
    if interaction.response.is_done():
        sent = await interaction.edit_original_response(
            content=text.content, embed=text.embed, view=message.view, allowed_mentions=text.allowed_mentions
        )
        return sent.id
    if message.view is None:
        callback = await interaction.response.send_message(
            content=text.content, embed=text.embed, allowed_mentions=text.allowed_mentions
        )
    else:
        callback = await interaction.response.send_message(
            content=text.content, embed=text.embed, view=message.view, allowed_mentions=text.allowed_mentions
        )
    if callback.message_id is not None:
        return callback.message_id
    return (await interaction.original_response()).id


async def edit_by_response(interaction: discord.Interaction[Any], message: GameMessage) -> None:
    """Edit the message a button sits on, as the answer to its click (or after deferring it)."""
    text = message.text
    if interaction.response.is_done():
        await interaction.edit_original_response(
            content=text.content, embed=text.embed, view=message.view, allowed_mentions=text.allowed_mentions
        )
    else:
        await interaction.response.edit_message(
            content=text.content, embed=text.embed, view=message.view, allowed_mentions=text.allowed_mentions
        )


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

    async def refresh(self, game: GameView) -> int | None:
        """Show ``game`` on its board message; return the message id, or None if Discord refused."""
        message = compose(game)
        try:
            if game.message_id is not None and game.message_channel_id is not None:
                try:
                    await self._edit(game.message_channel_id, game.message_id, message)
                    self._failed.discard(game.id)
                    return game.message_id
                except discord.NotFound:
                    log.info("The board message of game %s is gone; posting a new one", game.id)
            posted = await self._post(game.channel_id, message)
            self._failed.discard(game.id)
            await self._service.set_message(game.id, game.channel_id, posted)
            return posted
        except discord.Forbidden as error:
            log.warning("Not allowed to show game %s in channel %s: %s", game.id, game.channel_id, error)
            self._failed.discard(game.id)
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.warning("Could not update the board of game %s (will retry): %r", game.id, error)
            self._failed.add(game.id)
        except GameError as error:
            log.warning("Could not record the board message of game %s: %s", game.id, error.message)
        return None

    async def retry_failed(self) -> None:
        """Try again every board that Discord failed to update."""
        for game_id in sorted(self._failed):
            try:
                game = await self._service.game(game_id)
            except GameError:
                self._failed.discard(game_id)
                continue
            await self.refresh(game)

    async def _edit(self, channel_id: int, message_id: int, message: GameMessage) -> None:
        text = message.text
        partial = self._client.get_partial_messageable(channel_id).get_partial_message(message_id)
        await partial.edit(
            content=text.content, embed=text.embed, view=message.view, allowed_mentions=text.allowed_mentions
        )

    async def _post(self, channel_id: int, message: GameMessage) -> int:
        text = message.text
        channel = self._client.get_partial_messageable(channel_id)
        if message.view is None:
            sent = await channel.send(
                content=text.content, embed=text.embed, allowed_mentions=text.allowed_mentions
            )
        else:
            sent = await channel.send(
                content=text.content,
                embed=text.embed,
                view=message.view,
                allowed_mentions=text.allowed_mentions,
            )
        return sent.id
