"""What the games cog's handlers share: the ``/ttt`` group, the cog's state and its ways of answering.

The cog (:class:`bot.exts.games.cog.GamesCog`) is composed of one class per concern
(:mod:`.games`, :mod:`.records`, :mod:`.settings`, :mod:`.clicks`), each a subclass of
:class:`GamesCogBase` whose commands join :data:`TTT`; discord.py gathers them from the
composed class's bases.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import inspect
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.bot import Interaction, TicTacToeBot
from bot.exts.games.arena_rounds import ArenaPublisher
from bot.exts.games.audience import locale_of, personal
from bot.exts.games.messages import BoardPublisher, GameMessage, MessageRef, answer, board_ref
from bot.exts.games.places import bot_is_present, place_of, public_answers_allowed
from bot.exts.games.render.common import card_of
from bot.exts.games.render.hint import hint_embed
from bot.exts.games.respond import Outcome, report, within_deadline
from bot.exts.games.sweeper import DeadlineSweeper
from bot.i18n import N_, Texts
from bot.log_context import log_context
from bot.monitoring import metrics
from bot.services import Actor, GameView, Place, refusals

E = TypeVar("E", bound=enum.Enum)
P = ParamSpec("P")
C = TypeVar("C", bound="GamesCogBase")
Handler = Callable[Concatenate[C, Interaction, P], Coroutine[Any, Any, None]]


def actor_of(interaction: Interaction) -> Actor:
    """The user behind ``interaction``, with their language (kept with a game they start) and, in a
    server, their roles (a server may require one to play): unknown (None) where the bot is not a
    member, since it does not see that server's roles."""
    user = interaction.user
    roles: frozenset[int] | None = frozenset()
    if isinstance(user, discord.Member):
        roles = frozenset(role.id for role in user.roles) if bot_is_present(interaction) else None
    return Actor(user.id, user.display_name, locale_of(interaction), roles)


def choice_of(kind: type[E], value: str, option: str) -> E:
    """Option ``option``'s value as ``kind``; a value outside its choices (a forged client) is refused."""
    try:
        return kind(value)
    except ValueError:
        raise refusals.BadOption(option) from None


TTT = app_commands.Group(
    name="ttt",
    description=N_("Play tic-tac-toe against me or another member."),
    allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
    allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True),
)
"""The ``/ttt`` command group; every handler module adds its commands to it."""


def handled(command: Handler[C, P]) -> Handler[C, P]:
    """Run a command's handler as :meth:`GamesCogBase.answering` does: counted in flight, errors reported.

    The wrapper carries the handler's signature with its annotations evaluated where the handler
    is written, since discord.py reads a command's options from the annotations of its callback.
    """

    @functools.wraps(command)
    async def run(cog: C, interaction: Interaction, /, *args: P.args, **kwargs: P.kwargs) -> None:
        async with cog.answering(interaction):
            await command(cog, interaction, *args, **kwargs)

    run.__signature__ = inspect.signature(command, eval_str=True)  # type: ignore[attr-defined]
    return run


@dataclass(frozen=True, slots=True)
class ChangedGame:
    """A game a command changed, and the id of its board message once brought up to date (None if not)."""

    game: GameView
    message_id: int | None


class GamesCogBase(commands.Cog):
    """The games cog's state (the service, the board publisher, the deadline sweeper) and shared steps."""

    def __init__(self, bot: TicTacToeBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.publisher = BoardPublisher(bot, bot.service)
        self.arenas = ArenaPublisher(bot, bot.service, self.publisher)
        self.sweeper = DeadlineSweeper(
            bot.service, self.publisher, bot.settings.sweep_interval_seconds, self.arenas
        )

    @contextlib.asynccontextmanager
    async def answering(
        self, interaction: Interaction, game_id: int | None = None, kind: str | None = None
    ) -> AsyncIterator[None]:
        """Count the handling of ``interaction`` in flight, and report any error it raises to the user.

        The metrics count it by ``kind`` (default: the command, as ``/ttt start``) and outcome, timed;
        what is logged meanwhile carries the ids of the interaction, its place and ``game_id``.
        """
        started = time.perf_counter()
        outcome = Outcome.ANSWERED
        ids = log_context(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            game_id=game_id,
            interaction_id=interaction.id,
        )
        with ids:
            async with self.bot.inflight.track():
                try:
                    yield
                except Exception as error:
                    outcome = await report(interaction, error, game_id=game_id)
                finally:
                    if kind is None:
                        command = interaction.command
                        kind = f"/{command.qualified_name}" if command is not None else interaction.type.name
                    metrics.interaction_handled(kind, outcome, time.perf_counter() - started)

    async def _change_game(
        self, interaction: Interaction, place: Place, work: Awaitable[GameView]
    ) -> ChangedGame | None:
        """Run a command that changes the game here, then bring its board up to date.

        Where the bot cannot edit the board on its own, the changed game is the command's public
        answer (it becomes the board message) and None is returned, unless Discord would show that
        answer to the user alone. Otherwise the board message is edited and the game returned, with
        the board's message id, for a private summary.
        """
        shows_board = place.interactions_only and public_answers_allowed(interaction)
        game = await within_deadline(interaction, work, thinking=True, ephemeral=not shows_board)
        if shows_board:
            await self._show_new_board(interaction, game)
            return None
        message_id = await self.publisher.refresh(game)
        self.sweeper.poke(game.deadline)
        await self.arenas.game_ended(game)
        return ChangedGame(game, message_id)

    async def _show_new_board(self, interaction: Interaction, game: GameView) -> None:
        """Answer with the game's message and make it the game's board message.

        A board message shown before (``/ttt board`` shows the game again) becomes a link to the new one.
        """
        message_id = await answer(interaction, await self.publisher.compose(game, interaction))
        if message_id is None:
            message_id = (await interaction.original_response()).id
        version = await self.service.set_message(game.id, game.channel_id, message_id)
        self.sweeper.poke(game.deadline)
        if version != game.version and not game.interactions_only:
            # A change made before the board's id was stored (a /ttt resign sent at once) could
            # not be shown on it: show the game as it now stands.
            current = await self.service.game(game.id, place_of(interaction))
            await self.publisher.redraw(game.channel_id, message_id, current)
        old = board_ref(game)
        if old is not None:
            await self.publisher.retire(game, old, MessageRef(game.channel_id, message_id))

    async def _show_hint(self, interaction: Interaction, game_id: int | None) -> None:
        """The engine's verdict on every free cell of the game here (or ``game_id``), to the player on
        turn alone: ``/ttt hint`` and a board's Hint button."""
        work = self.service.hint(place_of(interaction), actor_of(interaction), game_id)
        hint = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        card = card_of(hint_embed(personal(interaction), hint))
        await answer(interaction, GameMessage.of_card(card), ephemeral=True)

    async def _public_texts(self, place: Place, interaction: Interaction) -> Texts:
        """The language of a public answer here: the server's, or outside servers the asker's."""
        if place.guild_id is None:
            return personal(interaction)
        return await self.publisher.audience.server(place.guild_id, interaction)
