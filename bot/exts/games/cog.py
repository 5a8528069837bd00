"""The ``/ttt`` slash commands (contract section 3) and the handling of board buttons.

Each handler turns a Discord interaction into one call of the game service and shows
the result; the rules live in the service. Every handler runs through
:meth:`GamesCog._handle`, which counts it as in flight (shutdown waits for it) and
sends any error to :func:`bot.exts.games.respond.report`.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import EngineInputError, Level, format_cell, parse_cell
from bot.exts.games import render
from bot.exts.games.audience import Audience, locale_of, personal
from bot.exts.games.messages import BoardPublisher, compose, jump_url, send_as_response
from bot.exts.games.respond import custom_id_of, report, tell, within_deadline
from bot.exts.games.sweeper import DeadlineSweeper
from bot.exts.games.views import GAMES_COG, Action, Click, is_known_custom_id
from bot.i18n import LANGUAGES, N_
from bot.services import Actor, First, GameView, Place, Refusal, refusals

if TYPE_CHECKING:
    from bot.bot import TicTacToeBot

log = logging.getLogger(__name__)
E = TypeVar("E", bound=enum.Enum)

ErrorHandler = Callable[[discord.Interaction[Any], app_commands.AppCommandError], Coroutine[Any, Any, Any]]

AUTOCOMPLETE_SECONDS = 2.0
"""Autocomplete must answer within 3 s too; after this, offer nothing rather than fail."""

SIZE_CHOICES = [
    app_commands.Choice(name=N_("3x3 (3 in a row)"), value=3),
    app_commands.Choice(name=N_("4x4 (4 in a row)"), value=4),
    app_commands.Choice(name=N_("5x5 (4 in a row)"), value=5),
]
LEVEL_CHOICES = [
    app_commands.Choice(name=N_("easy"), value="easy"),
    app_commands.Choice(name=N_("medium"), value="medium"),
    app_commands.Choice(name=N_("hard"), value="hard"),
    app_commands.Choice(name=N_("perfect (never loses)"), value="perfect"),
]
FIRST_CHOICES = [
    app_commands.Choice(name=N_("me (I play X and open)"), value="me"),
    app_commands.Choice(name=N_("opponent (they play X and open)"), value="opponent"),
    app_commands.Choice(name=N_("random"), value="random"),
]
AUTO_LANGUAGE = "auto"
LANGUAGE_CHOICES = [
    app_commands.Choice(name=N_("auto (the server's own language)"), value=AUTO_LANGUAGE),
    *(app_commands.Choice(name=language.native_name, value=language.code) for language in LANGUAGES),
]
SCOPE_CHOICES = [
    app_commands.Choice(name=N_("this server"), value="server"),
    app_commands.Choice(name=N_("global"), value="global"),
]

STALE_BUTTON = "That button belongs to an old board. Use /ttt board to see the current game."


def place_of(interaction: discord.Interaction[Any]) -> Place:
    """Where the interaction happened; games live in server channels and threads only."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise refusals.NotInServer()
    return Place(interaction.guild_id, interaction.channel_id)


def actor_of(user: discord.User | discord.Member, locale: str | None = None) -> Actor:
    return Actor(user.id, user.display_name, locale)


def choice_of(kind: type[E], value: str, option: str) -> E:
    """Option ``option``'s value as ``kind``; a value outside its choices (a forged client) is refused."""
    try:
        return kind(value)
    except ValueError:
        raise refusals.BadOption(option) from None


def _has_component(message: discord.Message | None, custom_id: str) -> bool:
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", ()):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False


class GamesCog(commands.Cog, name=GAMES_COG):
    """Tic-tac-toe: ``/ttt`` commands and the board's buttons."""

    ttt = app_commands.Group(
        name="ttt", description=N_("Play tic-tac-toe against me or another member."), guild_only=True
    )

    def __init__(self, bot: TicTacToeBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.publisher = BoardPublisher(bot, bot.service)
        self.audience = Audience(bot, bot.service)
        self.sweeper = DeadlineSweeper(bot.service, self.publisher, bot.settings.sweep_interval_seconds)
        self._background: set[asyncio.Task[None]] = set()
        self._previous_error_handler: ErrorHandler | None = None

    async def cog_load(self) -> None:
        self._previous_error_handler = self.bot.tree.on_error
        self.bot.tree.error(self.on_app_command_error)
        self.sweeper.start()
        self._spawn(self._resume_bot_turns())

    async def cog_unload(self) -> None:
        if self._previous_error_handler is not None:
            self.bot.tree.error(self._previous_error_handler)
        await self.sweeper.stop()
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _resume_bot_turns(self) -> None:
        """After a restart: make the bot's replies that were due, and show them on their boards."""
        try:
            games = await self.service.resume_bot_turns()
        except Exception:
            log.exception("Could not resume the bot's pending moves")
            return
        for game in games:
            await self.publisher.refresh(game)
        if games:
            log.info("Resumed %d game(s) waiting for my move", len(games))

    async def _handle(
        self,
        interaction: discord.Interaction[Any],
        work: Coroutine[Any, Any, None],
        game_id: int | None = None,
    ) -> None:
        async with self.bot.inflight.track():
            try:
                await work
            except Exception as error:
                await report(interaction, error, game_id=game_id)

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)

    async def _show_new_board(self, interaction: discord.Interaction[Any], game: GameView) -> None:
        """Answer with the game's message and make it the game's board message."""
        message_id = await send_as_response(interaction, compose(game))
        await self.service.set_message(game.id, game.channel_id, message_id)
        self.sweeper.poke(game.deadline)

    # /ttt start

    @ttt.command(name="start", description=N_("Start a game against me, or challenge a member."))
    @app_commands.describe(
        opponent=N_("The member to challenge; leave empty (or pick me) to play against me."),
        size=N_("The board: 3x3 (three in a row), 4x4 or 5x5 (four in a row). Default 3x3."),
        level=N_("How well I play, against me only. Default perfect."),
        first=N_("Who plays X and moves first. Default me."),
    )
    @app_commands.choices(size=SIZE_CHOICES)
    @app_commands.choices(level=LEVEL_CHOICES, first=FIRST_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | None = None,
        size: int = 3,
        level: str | None = None,
        first: str = "me",
    ) -> None:
        await self._handle(interaction, self._start(interaction, opponent, size, level, first))

    async def _start(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | None,
        size: int,
        level: str | None,
        first: str,
    ) -> None:
        place = place_of(interaction)
        me = actor_of(interaction.user, locale_of(interaction))
        order = choice_of(First, first, "first")
        own_id = self.bot.user.id if self.bot.user is not None else None
        if opponent is None or opponent.id == own_id:
            work = self.service.start_vs_bot(
                place, me, size=size, level=choice_of(Level, level or "perfect", "level"), first=order
            )
        else:
            if level is not None:
                raise refusals.LevelWithOpponent()
            work = self.service.challenge(
                place, me, actor_of(opponent), opponent_is_bot=opponent.bot, size=size, first=order
            )
        game = await within_deadline(interaction, work, thinking=True)
        await self._show_new_board(interaction, game)

    # /ttt move

    @ttt.command(name="move", description=N_("Play a cell in this channel's game."))
    @app_commands.describe(cell=N_("The cell: its number 1-9 (1 is top left) or a letter and row, like b2."))
    async def move(self, interaction: discord.Interaction[Any], cell: app_commands.Range[str, 1, 10]) -> None:
        await self._handle(interaction, self._move(interaction, cell))

    async def _move(self, interaction: discord.Interaction[Any], cell: str) -> None:
        place = place_of(interaction)
        work = self.service.move(place, actor_of(interaction.user), cell)
        game = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        message_id = await self.publisher.refresh(game)
        self.sweeper.poke(game.deadline)
        await tell(interaction, self._move_summary(game, cell, message_id))

    @staticmethod
    def _move_summary(game: GameView, cell: str, message_id: int | None) -> str:
        try:
            played = format_cell(parse_cell(cell, game.size), game.size)
        except EngineInputError:
            played = cell
        text = f"You played {played}."
        if game.last_cell is not None and game.cell_name(game.last_cell) != played:
            text += f" I answered {game.cell_name(game.last_cell)}."
        if not game.is_live:
            text += " " + render.status_sentence(game)
        if message_id is not None and game.message_channel_id is not None:
            text += f" Board: {jump_url(game.guild_id, game.message_channel_id, message_id)}"
        return text

    @move.autocomplete("cell")
    async def move_cell_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            game = await asyncio.wait_for(self.service.board(place_of(interaction)), AUTOCOMPLETE_SECONDS)
        except Refusal:
            return []
        except Exception:
            log.warning(
                "Autocomplete of /ttt move failed in channel %s", interaction.channel_id, exc_info=True
            )
            return []
        if not game.is_active or game.player(interaction.user.id) is None:
            return []
        typed = current.strip().lower()
        choices = []
        for cell in game.legal_moves:
            name, number = game.cell_name(cell), str(cell + 1)
            if not typed or name.startswith(typed) or number.startswith(typed):
                choices.append(app_commands.Choice(name=f"{name} (cell {number})", value=name))
        return choices[:25]

    # /ttt board, resign, cancel, hint

    @ttt.command(name="board", description=N_("Show this channel's current game again."))
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        await self._handle(interaction, self._board(interaction))

    async def _board(self, interaction: discord.Interaction[Any]) -> None:
        game = await within_deadline(interaction, self.service.board(place_of(interaction)), thinking=True)
        await self._show_new_board(interaction, game)

    @ttt.command(name="resign", description=N_("Give up your game in this channel."))
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        await self._handle(interaction, self._resign(interaction))

    async def _resign(self, interaction: discord.Interaction[Any]) -> None:
        work = self.service.resign(place_of(interaction), actor_of(interaction.user))
        game = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        await self.publisher.refresh(game)
        await tell(interaction, f"You resigned. {render.status_sentence(game)}")

    @ttt.command(
        name="cancel", description=N_("End this channel's game without a result (players or moderators).")
    )
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        await self._handle(interaction, self._cancel(interaction))

    async def _cancel(self, interaction: discord.Interaction[Any]) -> None:
        moderator = interaction.permissions.manage_messages
        work = self.service.cancel(place_of(interaction), actor_of(interaction.user), is_moderator=moderator)
        game = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        await self.publisher.refresh(game)
        await tell(interaction, f"Game {game.id} is cancelled; it has no result.")

    @ttt.command(name="hint", description=N_("Ask me for the value of every free cell (only you see it)."))
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        await self._handle(interaction, self._hint(interaction))

    async def _hint(self, interaction: discord.Interaction[Any]) -> None:
        work = self.service.hint(place_of(interaction), actor_of(interaction.user))
        hint = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        embed = render.hint_embed(hint)
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    # /ttt leaderboard, stats

    @ttt.command(name="leaderboard", description=N_("The best rated players, here or everywhere."))
    @app_commands.describe(scope=N_("This server's ratings or the global ones. Default this server."))
    @app_commands.choices(scope=SCOPE_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction[Any], scope: str = "server") -> None:
        await self._handle(interaction, self._leaderboard(interaction, scope))

    async def _leaderboard(self, interaction: discord.Interaction[Any], scope: str) -> None:
        place = place_of(interaction)
        guild_id = place.guild_id if scope == "server" else None
        board = await within_deadline(interaction, self.service.leaderboard(guild_id), thinking=True)
        embed = render.leaderboard_embed(board, "this server" if guild_id is not None else "global")
        await self._send_embed(interaction, embed)

    @ttt.command(name="stats", description=N_("A player's wins, losses, draws, streaks and rating."))
    @app_commands.describe(user=N_("Whose stats to show. Default you."))
    async def stats(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        await self._handle(interaction, self._stats(interaction, user))

    async def _stats(self, interaction: discord.Interaction[Any], user: discord.User | None) -> None:
        place = place_of(interaction)
        target = user or interaction.user
        stats = await within_deadline(
            interaction, self.service.stats(target.id, place.guild_id), thinking=True
        )
        await self._send_embed(interaction, render.stats_embed(stats, target.id))

    # /ttt settings

    @ttt.command(name="settings", description=N_("Show or change this server's settings (Manage Server)."))
    @app_commands.describe(
        language=N_("The language of boards, challenges and results here; auto follows the server.")
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings(self, interaction: discord.Interaction[Any], language: str | None = None) -> None:
        await self._handle(interaction, self._settings(interaction, language))

    async def _settings(self, interaction: discord.Interaction[Any], language: str | None) -> None:
        guild_id = interaction.guild_id
        may_manage = interaction.permissions.manage_guild
        if language is None:
            work = self.service.server_settings(guild_id, may_manage=may_manage)
        else:
            chosen = None if language == AUTO_LANGUAGE else language
            work = self.service.set_server_language(guild_id, chosen, may_manage=may_manage)
        stored = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        own = self.audience.guild_locale(guild_id, interaction) if guild_id is not None else None
        text = render.settings_text(personal(interaction), stored, own, changed=language is not None)
        await tell(interaction, text)

    async def _send_embed(self, interaction: discord.Interaction[Any], embed: discord.Embed) -> None:
        none = render.nobody()
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=embed, allowed_mentions=none)
        else:
            await interaction.response.send_message(embed=embed, allowed_mentions=none)

    # Buttons

    async def on_click(self, interaction: discord.Interaction[Any], click: Click, /) -> None:
        """A click on one of the game's buttons (see :mod:`bot.exts.games.views`)."""
        await self._handle(interaction, self._click(interaction, click), game_id=click.game_id)

    async def _click(self, interaction: discord.Interaction[Any], click: Click) -> None:
        place = place_of(interaction)
        user = actor_of(interaction.user, locale_of(interaction))
        if click.action is Action.REMATCH:
            game = await within_deadline(
                interaction, self.service.rematch(place, user, click.game_id), thinking=True
            )
            await self._show_new_board(interaction, game)
            return
        if click.action is Action.CELL:
            assert click.cell is not None
            work = self.service.move(place, user, click.cell, game_id=click.game_id, expected_ply=click.ply)
        elif click.action is Action.RESIGN:
            work = self.service.resign(place, user, click.game_id)
        elif click.action is Action.ACCEPT:
            work = self.service.accept(place, user, click.game_id)
        else:
            work = self.service.decline(place, user, click.game_id)
        try:
            game = await within_deadline(interaction, work, thinking=False, in_flight=self.bot.inflight.count)
        except refusals.OutdatedBoard as error:
            # The clicked message shows an older state (its edit was lost, say): redraw it.
            await tell(interaction, f"{error} I've brought the board up to date.")
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
        clicked = interaction.message
        if clicked is not None and clicked.id != game.message_id:
            await self.service.set_message(game.id, clicked.channel.id, clicked.id)

    async def _refresh_clicked(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Redraw an outdated board that someone clicked, so its buttons are current again.

        Not while the bot is about to reply: the answer that made the board outdated will
        show the reply, and this redraw would only race it.
        """
        clicked = interaction.message
        if clicked is None:
            return
        game = await self.service.game(game_id, place_of(interaction))
        if not game.bot_to_move:
            await self.publisher.redraw(clicked.channel.id, clicked.id, game)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer clicks on buttons no handler will take (forged, or from an old version of the bot)."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = custom_id_of(interaction)
        known = custom_id is not None and is_known_custom_id(custom_id)
        if known and _has_component(interaction.message, custom_id or ""):
            return
        async with self.bot.inflight.track():
            try:
                await tell(interaction, STALE_BUTTON)
            except discord.HTTPException as error:
                log.warning("Could not answer an unknown button %r: %s", custom_id, error)
