"""The ``/ttt`` slash commands and the handling of board buttons.

Each handler turns a Discord interaction into one call of the game service and shows
the result; the rules live in the service, the words in :mod:`bot.exts.games.render`.
Every handler runs inside :meth:`GamesCog.answering` (commands through :func:`handled`),
which counts it as in flight (shutdown waits for it) and sends any error to
:func:`bot.exts.games.respond.report`.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import functools
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.bot import Interaction, TicTacToeBot
from bot.engine import WIN_LENGTH, Level
from bot.exts.games import looking_back, render
from bot.exts.games.audience import locale_of, personal
from bot.exts.games.custom_ids import Action, Click, parse_custom_id
from bot.exts.games.messages import (
    BoardPublisher,
    GameMessage,
    MessageRef,
    answer,
    board_ref,
)
from bot.exts.games.places import place_of, public_answers_allowed, require_public_answers
from bot.exts.games.render import jump_url
from bot.exts.games.respond import custom_id_of, report, tell, within_deadline
from bot.exts.games.sweeper import DeadlineSweeper
from bot.exts.games.views import has_button, shown_game
from bot.i18n import LANGUAGES, N_, Texts
from bot.services import Actor, First, GameView, Place, Refusal, refusals

log = logging.getLogger(__name__)
E = TypeVar("E", bound=enum.Enum)
P = ParamSpec("P")

ErrorHandler = Callable[[Interaction, app_commands.AppCommandError], Coroutine[Any, Any, Any]]
Handler = Callable[Concatenate["GamesCog", Interaction, P], Coroutine[Any, Any, None]]

MAX_GAME_ID = 2**31 - 1
"""The largest game number an option accepts: the store numbers games with 32-bit integers."""

AUTOCOMPLETE_SECONDS = 2.0
"""Autocomplete must answer within 3 s too; after this, offer nothing rather than fail."""

SIZE_LABEL = N_("{size}x{size} ({k} in a row)")
SIZE_CHOICES = [
    app_commands.Choice(
        name=app_commands.locale_str(SIZE_LABEL.format(size=n, k=k), msgid=SIZE_LABEL, size=n, k=k), value=n
    )
    for n, k in WIN_LENGTH.items()
]
"""Every board size the engine plays, labelled with the line that wins on it."""
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


def actor_of(interaction: Interaction) -> Actor:
    """The user behind ``interaction``, with their language (kept with a game they start)."""
    return Actor(interaction.user.id, interaction.user.display_name, locale_of(interaction))


def choice_of(kind: type[E], value: str, option: str) -> E:
    """Option ``option``'s value as ``kind``; a value outside its choices (a forged client) is refused."""
    try:
        return kind(value)
    except ValueError:
        raise refusals.BadOption(option) from None


def handled(command: Handler[P]) -> Handler[P]:
    """Run a command's handler as :meth:`GamesCog.answering` does: counted in flight, errors reported."""

    @functools.wraps(command)
    async def run(cog: GamesCog, interaction: Interaction, /, *args: P.args, **kwargs: P.kwargs) -> None:
        async with cog.answering(interaction):
            await command(cog, interaction, *args, **kwargs)

    return run


class GamesCog(commands.Cog, name="Games"):
    """Tic-tac-toe: ``/ttt`` commands and the board's buttons."""

    ttt = app_commands.Group(
        name="ttt",
        description=N_("Play tic-tac-toe against me or another member."),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True),
    )

    def __init__(self, bot: TicTacToeBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.publisher = BoardPublisher(bot, bot.service)
        self.sweeper = DeadlineSweeper(bot.service, self.publisher, bot.settings.sweep_interval_seconds)
        self._background: set[asyncio.Task[None]] = set()
        self._previous_error_handler: ErrorHandler | None = None

    async def cog_load(self) -> None:
        self._previous_error_handler = self.bot.tree.on_error
        self.bot.tree.error(self.on_app_command_error)
        self.bot.click_handler = self.on_click
        self.sweeper.start()
        self._spawn(self._resume_bot_turns())

    async def cog_unload(self) -> None:
        if self._previous_error_handler is not None:
            self.bot.tree.error(self._previous_error_handler)
        if self.bot.click_handler == self.on_click:
            self.bot.click_handler = None
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

    @contextlib.asynccontextmanager
    async def answering(self, interaction: Interaction, game_id: int | None = None) -> AsyncIterator[None]:
        """Count the handling of ``interaction`` in flight, and report any error it raises to the user."""
        async with self.bot.inflight.track():
            try:
                yield
            except Exception as error:
                await report(interaction, error, game_id=game_id)

    async def on_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)

    @staticmethod
    def _answers_with_board(interaction: Interaction, place: Place) -> bool:
        """Whether a command that changed a game answers with its board for everyone to see.

        Where the bot cannot edit the board on its own, the changed game is shown as the answer
        (it becomes the board message), unless Discord would show that answer to the user alone.
        """
        return place.interactions_only and public_answers_allowed(interaction)

    async def _show_new_board(self, interaction: Interaction, game: GameView) -> None:
        """Answer with the game's message and make it the game's board message.

        A board message shown before (``/ttt board`` shows the game again) becomes a link to the new one.
        """
        message_id = await answer(interaction, await self.publisher.compose(game, interaction))
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.service.set_message(game.id, game.channel_id, message_id)
        self.sweeper.poke(game.deadline)
        old = board_ref(game)
        if old is not None:
            await self.publisher.retire(game, old, MessageRef(game.channel_id, message_id))

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
    @handled
    async def start(
        self,
        interaction: Interaction,
        opponent: discord.User | None = None,
        size: int = 3,
        level: str | None = None,
        first: str = "me",
    ) -> None:
        place = place_of(interaction)
        require_public_answers(interaction)
        me = actor_of(interaction)
        order = choice_of(First, first, "first")
        own_id = self.bot.user.id if self.bot.user is not None else None
        if opponent is None or opponent.id == own_id:
            work = self.service.start_vs_bot(
                place, me, size=size, level=choice_of(Level, level or "perfect", "level"), first=order
            )
        else:
            if level is not None:
                raise refusals.LevelWithOpponent()
            if interaction.guild_id is not None and not isinstance(opponent, discord.Member):
                raise refusals.UnknownMember()
            work = self.service.challenge(
                place,
                me,
                Actor(opponent.id, opponent.display_name),
                opponent_is_bot=opponent.bot,
                size=size,
                first=order,
            )
        game = await within_deadline(interaction, work, thinking=True)
        await self._show_new_board(interaction, game)

    # /ttt move

    @ttt.command(name="move", description=N_("Play a cell in this channel's game."))
    @app_commands.describe(cell=N_("The cell: its number 1-9 (1 is top left) or a letter and row, like b2."))
    @handled
    async def move(self, interaction: Interaction, cell: app_commands.Range[str, 1, 10]) -> None:
        place = place_of(interaction)
        work = self.service.move(place, actor_of(interaction), cell)
        shows_board = self._answers_with_board(interaction, place)
        game = await within_deadline(interaction, work, thinking=True, ephemeral=not shows_board)
        if shows_board:
            await self._show_new_board(interaction, game)
            return
        message_id = await self.publisher.refresh(game)
        self.sweeper.poke(game.deadline)
        url = None
        if message_id is not None and game.message_channel_id is not None:
            url = jump_url(game.guild_id, game.message_channel_id, message_id)
        await tell(interaction, render.move_summary(personal(interaction), game, cell, url))

    @move.autocomplete("cell")
    async def move_cell_autocomplete(
        self, interaction: Interaction, current: str
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
        texts = personal(interaction)
        choices = []
        for cell in game.legal_moves:
            name, number = game.cell_name(cell), str(cell + 1)
            if not typed or name.startswith(typed) or number.startswith(typed):
                choices.append(
                    app_commands.Choice(name=render.cell_choice_name(texts, name, number), value=name)
                )
        return choices[:25]

    # /ttt board, resign, cancel, hint

    @ttt.command(name="board", description=N_("Show this channel's current game again."))
    @handled
    async def board(self, interaction: Interaction) -> None:
        place = place_of(interaction)
        require_public_answers(interaction)
        # Where boards change only on request, a game that ended on time shows how it ended here.
        work = self.service.latest(place) if place.interactions_only else self.service.board(place)
        game = await within_deadline(interaction, work, thinking=True)
        await self._show_new_board(interaction, game)

    @ttt.command(name="resign", description=N_("Give up your game in this channel."))
    @handled
    async def resign(self, interaction: Interaction) -> None:
        place = place_of(interaction)
        work = self.service.resign(place, actor_of(interaction))
        shows_board = self._answers_with_board(interaction, place)
        game = await within_deadline(interaction, work, thinking=True, ephemeral=not shows_board)
        if shows_board:
            await self._show_new_board(interaction, game)
            return
        await self.publisher.refresh(game)
        await tell(interaction, render.resigned_text(personal(interaction), game))

    @ttt.command(
        name="cancel", description=N_("End this channel's game without a result (players or moderators).")
    )
    @handled
    async def cancel(self, interaction: Interaction) -> None:
        moderator = interaction.permissions.manage_messages
        place = place_of(interaction)
        work = self.service.cancel(place, actor_of(interaction), is_moderator=moderator)
        shows_board = self._answers_with_board(interaction, place)
        game = await within_deadline(interaction, work, thinking=True, ephemeral=not shows_board)
        if shows_board:
            await self._show_new_board(interaction, game)
            return
        await self.publisher.refresh(game)
        await tell(interaction, render.cancelled_text(personal(interaction), game))

    @ttt.command(name="hint", description=N_("Ask me for the value of every free cell (only you see it)."))
    @handled
    async def hint(self, interaction: Interaction) -> None:
        work = self.service.hint(place_of(interaction), actor_of(interaction))
        hint = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        embed = render.hint_embed(personal(interaction), hint)
        await answer(
            interaction, GameMessage(render.MessageText(None, embed, render.nobody())), ephemeral=True
        )

    # /ttt leaderboard, stats

    @ttt.command(name="leaderboard", description=N_("The best rated players, here or everywhere."))
    @app_commands.describe(scope=N_("This server's ratings or the global ones. Default this server."))
    @app_commands.choices(scope=SCOPE_CHOICES)
    @handled
    async def leaderboard(self, interaction: Interaction, scope: str = "server") -> None:
        place = place_of(interaction)
        guild_id = place.guild_id if scope == "server" else None
        board = await within_deadline(interaction, self.service.leaderboard(guild_id), thinking=True)
        texts = await self._public_texts(place, interaction)
        embed = render.leaderboard_embed(texts, board, server=guild_id is not None)
        await answer(interaction, GameMessage(render.MessageText(None, embed, render.nobody())))

    @ttt.command(name="stats", description=N_("A player's wins, losses, draws, streaks and rating."))
    @app_commands.describe(user=N_("Whose stats to show. Default you."))
    @handled
    async def stats(self, interaction: Interaction, user: discord.User | None = None) -> None:
        target = user or interaction.user
        await looking_back.show_stats(
            self.service, interaction, personal(interaction), place_of(interaction), target.id
        )

    # /ttt history, review, replay

    async def _public_texts(self, place: Place, interaction: Interaction) -> Texts:
        """The language of a public answer here: the server's, or outside servers the asker's."""
        if place.guild_id is None:
            return personal(interaction)
        return await self.publisher.audience.server(place.guild_id, interaction)

    @ttt.command(name="history", description=N_("A player's latest finished games (only you see it)."))
    @app_commands.describe(user=N_("Whose games to list. Default you."))
    @handled
    async def history(self, interaction: Interaction, user: discord.User | None = None) -> None:
        target = user or interaction.user
        await looking_back.show_history(
            self.service, interaction, personal(interaction), place_of(interaction), target.id
        )

    @ttt.command(
        name="review", description=N_("My verdict on every move of a finished game (only you see it).")
    )
    @app_commands.describe(game=N_("The game's number. Default your latest finished game."))
    @handled
    async def review(
        self, interaction: Interaction, game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None
    ) -> None:
        await looking_back.show_review(
            self.service, interaction, personal(interaction), place_of(interaction), game
        )

    @ttt.command(name="replay", description=N_("Show a finished game as an animated picture."))
    @app_commands.describe(game=N_("The game's number. Default your latest finished game."))
    @handled
    async def replay(
        self, interaction: Interaction, game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None
    ) -> None:
        place = place_of(interaction)
        texts = await self._public_texts(place, interaction)
        await looking_back.post_replay(self.service, interaction, texts, place, game)

    # /ttt settings

    @ttt.command(name="settings", description=N_("Show or change this server's settings (Manage Server)."))
    @app_commands.describe(
        language=N_("The language of boards, challenges and results here; auto follows the server.")
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @handled
    async def settings(self, interaction: Interaction, language: str | None = None) -> None:
        guild_id = interaction.guild_id
        may_manage = interaction.permissions.manage_guild
        if language is None:
            work = self.service.server_settings(guild_id, may_manage=may_manage)
        else:
            chosen = None if language == AUTO_LANGUAGE else language
            work = self.service.set_server_language(guild_id, chosen, may_manage=may_manage)
        stored = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        own = self.publisher.audience.guild_locale(guild_id, interaction) if guild_id is not None else None
        await tell(
            interaction,
            render.settings_text(personal(interaction), stored, own, changed=language is not None),
        )

    # Buttons

    async def on_click(self, interaction: Interaction, click: Click, /) -> None:
        """A click on one of the game's buttons (see :mod:`bot.exts.games.views`)."""
        async with self.answering(interaction, game_id=click.game_id):
            await self._click(interaction, click)

    async def _click(self, interaction: Interaction, click: Click) -> None:
        if shown_game(interaction.message) != click.game_id:
            # A crafted id naming another game than the one its message shows: act on neither.
            await tell(interaction, personal(interaction).gettext(render.NOT_THIS_GAME))
            return
        place = place_of(interaction)
        user = actor_of(interaction)
        if click.action is Action.REVIEW:
            await looking_back.show_review(
                self.service, interaction, personal(interaction), place, click.game_id
            )
            return
        if click.action is Action.REMATCH:
            require_public_answers(interaction)
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
            if place.interactions_only:
                await self._redraw_clicked(interaction, click.game_id, error)
                return
            # The clicked message shows an older state (its edit was lost, say): redraw it.
            await tell(interaction, render.outdated_board_text(personal(interaction), error))
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
            # An older message of the game was clicked and now shows it: it becomes the board.
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
        await tell(interaction, render.outdated_board_text(personal(interaction), refusal))

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

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Answer clicks no button will take: ids the message does not have (forged, or from an old bot).

        discord.py hands a click to a button only when the clicked message has a button
        with that id; every other click is answered here and acts on nothing.
        """
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = custom_id_of(interaction) or ""
        click = parse_custom_id(custom_id)
        if click is not None and has_button(interaction.message, custom_id):
            return
        shown = shown_game(interaction.message)
        foreign = click is not None and shown is not None and shown != click.game_id
        async with self.bot.inflight.track():
            try:
                message = render.NOT_THIS_GAME if foreign else render.STALE_BUTTON
                await tell(interaction, personal(interaction).gettext(message))
            except discord.HTTPException as error:
                log.warning("Could not answer an unknown button %r: %s", custom_id, error)
