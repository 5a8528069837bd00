"""Clicks on a game's buttons (see :mod:`bot.exts.games.views`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable

import aiohttp
import discord

from bot.bot import Interaction
from bot.exts.games.audience import personal
from bot.exts.games.custom_ids import Action, Click
from bot.exts.games.handlers.base import GamesCogBase, actor_of
from bot.exts.games.looking_back import post_replay, show_review
from bot.exts.games.messages import MessageRef, board_ref
from bot.exts.games.places import place_of, require_public_answers
from bot.exts.games.render.answers import NOT_THIS_GAME, outdated_board_text
from bot.exts.games.respond import tell, within_deadline
from bot.exts.games.views import shown_game
from bot.notice import Notice
from bot.services import Actor, GameView, Place, Refusal, refusals

log = logging.getLogger(__name__)


class ClickHandling(GamesCogBase):
    """The work of a click on a board or a challenge."""

    async def on_click(self, interaction: Interaction, click: Click, /) -> None:
        """A click on one of the game's buttons (see :mod:`bot.exts.games.views`)."""
        async with self.answering(interaction, game_id=click.game_id, kind=f"button:{click.action.value}"):
            await self._click(interaction, click)

    async def _click(self, interaction: Interaction, click: Click) -> None:
        if shown_game(interaction.message) != click.game_id:
            # A crafted id naming another game than the one its message shows: act on neither.
            await tell(interaction, personal(interaction).gettext(NOT_THIS_GAME), Notice.REFUSAL)
            return
        place = place_of(interaction)
        user = actor_of(interaction)
        if click.action is Action.REVIEW:
            await show_review(self.service, interaction, personal(interaction), place, click.game_id)
            return
        if click.action is Action.HINT:
            await self._show_hint(interaction, click.game_id)
            return
        if click.action is Action.REPLAY:
            texts = await self._public_texts(place, interaction)
            await post_replay(self.service, interaction, texts, place, click.game_id)
            return
        if click.action is Action.REMATCH:
            require_public_answers(interaction)
            game = await within_deadline(
                interaction, self.service.rematch(place, user, click.game_id), thinking=True
            )
            await self._show_new_board(interaction, game)
            return
        work = self._board_work(place, user, click)
        try:
            game = await within_deadline(interaction, work, thinking=False)
        except refusals.OutdatedBoard as error:
            if place.interactions_only:
                await self._redraw_clicked(interaction, click.game_id, error)
                return
            # The clicked message shows an older state (its edit was lost, say): redraw it.
            await tell(interaction, outdated_board_text(personal(interaction), error), Notice.REFUSAL)
            await self._refresh_clicked(interaction, click.game_id)
            return
        try:
            await self.publisher.answer_click(interaction, game)
        except (discord.HTTPException, aiohttp.ClientError) as error:
            # The move stands; show it through the channel API (retried by the sweeper if that fails too).
            # No apology to the user: the board shows their move, and "try again" would mislead.
            log.warning("Could not edit the board of game %s after a click: %r", game.id, error)
            await self.publisher.refresh(game)
            return
        self.sweeper.poke(game.deadline)
        await self._adopt_clicked(interaction, game)
        await self.arenas.game_ended(game)

    def _board_work(self, place: Place, user: Actor, click: Click) -> Awaitable[GameView]:
        """The service's work for a click that changes the board: a move, a resignation, an answer."""
        if click.action is Action.CELL:
            assert click.cell is not None
            return self.service.move(place, user, click.cell, game_id=click.game_id, expected_ply=click.ply)
        if click.action is Action.RESIGN:
            return self.service.resign(place, user, click.game_id)
        if click.action is Action.ACCEPT:
            return self.service.accept(place, user, click.game_id)
        return self.service.decline(place, user, click.game_id)

    async def _adopt_clicked(self, interaction: Interaction, game: GameView) -> None:
        """An older message of the game was clicked and now shows it: it becomes the board."""
        clicked = interaction.message
        if clicked is not None and clicked.id != game.message_id:
            await self.service.set_message(game.id, clicked.channel.id, clicked.id)
            old = board_ref(game)
            if old is not None:
                await self.publisher.retire(game, old, MessageRef(clicked.channel.id, clicked.id))

    async def _redraw_clicked(self, interaction: Interaction, game_id: int, refusal: Refusal) -> None:
        """Where boards change only on request: show the game as it stands on the clicked message,
        through this click (a game that ended on time shows it here), then say why nothing was played."""
        game = await self.service.game(game_id, place_of(interaction))
        if not game.bot_to_move:
            await self.publisher.answer_click(interaction, game)
        await tell(interaction, outdated_board_text(personal(interaction), refusal), Notice.REFUSAL)

    async def _refresh_clicked(self, interaction: Interaction, game_id: int) -> None:
        """Redraw an outdated board that someone clicked, so its buttons are current again.

        An older message of the game than its board message becomes a link to the board
        instead. Not while the bot is about to reply: the answer that made the board
        outdated will show the reply, and this redraw would only race it.
        """
        clicked = interaction.message
        if clicked is None:
            return
        game = await self.service.game(game_id, place_of(interaction))
        if game.bot_to_move:
            return
        board = board_ref(game)
        here = MessageRef(clicked.channel.id, clicked.id)
        if board is None or board == here:
            await self.publisher.redraw(here.channel_id, here.message_id, game)
        else:
            await self.publisher.retire(game, here, board)
