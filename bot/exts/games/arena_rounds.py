"""Shows arenas on Discord: the arena's message, and each round's message, threads and boards.

The service pairs the rounds; this sets each one up: a message for the round in the arena's
channel, then for every pairing a message of its own (Discord starts one thread per message) with
the game's thread started from it, both players added, and the game's normal board posted there.
Setting up is idempotent: a pairing whose game exists is skipped, and a pairing's thread is stored
before its game (Discord gives a thread started from a message that message's id), so a set-up cut
off half-way (Discord refused a thread, a restart) is finished in the same message and thread by
:meth:`ArenaPublisher.resume`, which the start-up and every sweep call. One process sets up a given
arena's round at a time, always from the stored state read once it has the arena to itself.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from dataclasses import dataclass

import aiohttp
import discord

from bot.exts.games.arena_buttons import arena_view, card_only
from bot.exts.games.messages import BoardPublisher
from bot.exts.games.render.arena import CROSS_TABLE_ALT, arena_card, pairing_card, round_card, thread_name
from bot.exts.games.render.common import nobody
from bot.i18n import Texts
from bot.services import ArenaStatus, GameService, GameView, NotDone, Place
from bot.services.arena_views import ArenaUpdate, ArenaView, PairingView, RoundView

log = logging.getLogger(__name__)

THREAD_ALREADY_CREATED = 160004
"""Discord's error code when the message has its thread already."""
CROSS_TABLE_FILENAME = "arena-cross-table.png"


@dataclass(frozen=True, slots=True)
class ArenaMessage:
    """The arena's message: its layout and the files it shows (the cross table, once finished)."""

    view: discord.ui.LayoutView
    files: list[discord.File]


class ArenaPublisher:
    """Brings arenas' messages up to date and sets up their rounds through the channel API."""

    def __init__(self, client: discord.Client, service: GameService, boards: BoardPublisher) -> None:
        self._client = client
        self._service = service
        self._boards = boards
        self._setting_up: set[int] = set()
        """The arenas whose round this process is setting up now."""

    async def layout(self, arena: ArenaView, *, too_few: bool = False) -> ArenaMessage:
        """The arena's message, in the server's language; once finished, with its cross table."""
        texts = await self._boards.audience.server(arena.guild_id)
        card = arena_card(texts, arena, too_few=too_few)
        files: list[discord.File] = []
        if arena.status is ArenaStatus.FINISHED and arena.played:
            png = await self._service.arena_cross_table(arena)
            alt = texts.gettext(CROSS_TABLE_ALT)
            files.append(discord.File(io.BytesIO(png), filename=CROSS_TABLE_FILENAME, description=alt))
            card = dataclasses.replace(
                card, image=f"attachment://{CROSS_TABLE_FILENAME}", image_description=alt
            )
        return ArenaMessage(arena_view(card, arena, texts), files)

    async def show(self, update: ArenaUpdate, *, shown: bool = False) -> None:
        """Show what an operation changed: the games it ended, the arena's message (unless the
        interaction's answer ``shown`` it), and the new round's games.

        A new round is set up while the arena's message is edited, not after: its games wait for
        nothing else (both steps log their own failures).
        """
        for game in update.ended_games:
            await self._boards.refresh(game)
        steps = []
        if update.new_round is not None:
            steps.append(self.set_up_round(update.arena, update.new_round))
        if not shown:
            steps.append(self._edit_arena(update.arena, too_few=update.too_few))
        await asyncio.gather(*steps)

    async def game_ended(self, game: GameView) -> None:
        """After a move, resignation or cancel ended ``game``: tell its arena, and show what follows."""
        if game.arena_id is None or game.is_live:
            return
        try:
            update = await self._service.arena_game_over(game.id)
        except NotDone as error:
            log.warning("Could not note the end of arena game %s (the sweep will): %s", game.id, error)
            return
        if update is not None:
            await self.show(update)

    async def sweep(self) -> None:
        """Start the lobbies whose time is up, note games that ended on time, pair the rounds they end."""
        try:
            updates = await self._service.sweep_arenas()
        except NotDone as error:
            log.warning("Could not sweep the arenas (the next sweep tries again): %s", error)
            return
        for update in updates:
            await self.show(update)
        await self.resume()

    async def resume(self) -> None:
        """Set up the rounds whose games were not all made (after a restart, or a set-up that failed)."""
        try:
            updates = await self._service.arena_rounds_to_set_up()
        except NotDone as error:
            log.warning("Could not find the arena rounds left half made (the sweep goes on): %s", error)
            return
        for update in updates:
            if update.new_round is not None:
                await self.set_up_round(update.arena, update.new_round)

    async def set_up_round(self, arena: ArenaView, played: RoundView) -> None:
        """Post the round and start every pairing's game in a thread of its own.

        Skipped while this process sets up the arena's round already; otherwise done from the
        arena as stored now, so nothing another set-up made in between is made twice.
        """
        if arena.id in self._setting_up:
            return
        self._setting_up.add(arena.id)
        try:
            stored = await self._service.arena(arena.id)
            current = None if stored is None else stored.current
            if stored is not None and current is not None and current.number == played.number:
                await self._set_up(stored, current)
        except (discord.HTTPException, aiohttp.ClientError, NotDone) as error:
            log.warning(
                "Could not set up round %s of arena %s (the next sweep retries): %r",
                played.number,
                arena.id,
                error,
            )
        finally:
            self._setting_up.discard(arena.id)

    async def _set_up(self, arena: ArenaView, played: RoundView) -> None:
        if arena.status is not ArenaStatus.RUNNING:
            return
        texts = await self._boards.audience.server(arena.guild_id)
        channel = self._client.get_partial_messageable(arena.channel_id, guild_id=arena.guild_id)
        if played.message_id is None:
            sent = await channel.send(
                view=card_only(round_card(texts, arena, played)), allowed_mentions=nobody()
            )
            await self._service.set_arena_round_message(arena.id, played.number, sent.id)
        for pairing in played.pairings:
            if pairing.game_id is None and pairing.result is None:
                await self._start_game(arena, pairing, channel, texts)

    async def _start_game(
        self, arena: ArenaView, pairing: PairingView, channel: discord.PartialMessageable, texts: Texts
    ) -> None:
        thread = await self._thread_of(arena, pairing, channel, texts)
        for player in (pairing.x, pairing.o):
            await thread.add_user(discord.Object(id=player.user_id))
        place = Place(arena.guild_id, thread.id, interactions_only=False, parent_id=arena.channel_id)
        game = await self._service.create_arena_game(arena.id, pairing.round_number, pairing.board, place)
        if game is not None:
            await self._boards.refresh(game)

    async def _thread_of(
        self, arena: ArenaView, pairing: PairingView, channel: discord.PartialMessageable, texts: Texts
    ) -> discord.Thread:
        """The pairing's thread: the one a set-up before started (or began to), else a new one."""
        name = thread_name(texts, pairing)
        if pairing.thread_id is not None:
            try:
                return await channel.get_partial_message(pairing.thread_id).create_thread(name=name)
            except discord.NotFound:
                pass  # its message is gone: the pairing gets a new one
            except discord.HTTPException as error:
                if error.code != THREAD_ALREADY_CREATED:
                    raise
                made = await self._client.fetch_channel(pairing.thread_id)
                if isinstance(made, discord.Thread):
                    return made
        starter = await channel.send(view=card_only(pairing_card(texts, pairing)), allowed_mentions=nobody())
        await self._service.set_arena_pairing_thread(
            arena.id, pairing.round_number, pairing.board, starter.id
        )
        return await starter.create_thread(name=name)

    async def _edit_arena(self, arena: ArenaView, *, too_few: bool = False) -> None:
        if arena.message_id is None:
            return
        partial = self._client.get_partial_messageable(arena.channel_id).get_partial_message(arena.message_id)
        message = await self.layout(arena, too_few=too_few)
        try:
            await partial.edit(view=message.view, attachments=message.files, allowed_mentions=nobody())
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.warning("Could not show arena %s on its message: %r", arena.id, error)
