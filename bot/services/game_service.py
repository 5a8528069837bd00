"""The game service: every rule, turn, rating and transaction, for any adapter (Discord, terminal).

Each public method is one request from a user (or from the adapter's timers) and
returns a frozen result from :mod:`bot.services.results`. Anything the rules refuse
raises a :class:`~bot.services.refusals.Refusal`, and the refusal changes nothing:
checks run inside the transaction, and any error rolls it back.

Concurrency: every change of a game's state is a typed transition (:mod:`bot.states`)
applied as a compare-and-set on the game's version (see :mod:`bot.db.repository`), so
of two requests racing on one game exactly one applies, also across processes sharing
a PostgreSQL database.

:class:`GameService` is the one entry point; the work is done by its parts, one
module per concern: :mod:`~bot.services.starting` (games, challenges, rematches),
:mod:`~bot.services.moves` (moves and the bot's replies), :mod:`~bot.services.endings`
(resignation, cancel, deadlines), :mod:`~bot.services.queries` (reading),
:mod:`~bot.services.reviewing` (reviews, replays, charts), :mod:`~bot.services.servers`
(server settings) and :mod:`~bot.services.arenas` (Swiss tournaments), over the shared
:mod:`~bot.services.core`.
"""

from __future__ import annotations

import asyncio
import random
from datetime import datetime

from bot.db import Database, DatabaseUnavailableError
from bot.engine import Level
from bot.services.arena_pictures import draw_cross_table
from bot.services.arena_views import ArenaUpdate, ArenaView
from bot.services.arenas import DEFAULT_LOBBY_MINUTES, Arenas
from bot.services.core import ServiceCore
from bot.services.endings import Endings
from bot.services.engine_pool import EnginePool
from bot.services.moves import Moves
from bot.services.picture_pool import PicturePool
from bot.services.queries import Queries
from bot.services.results import (
    Actor,
    FinishedGames,
    First,
    GameHistory,
    GameReview,
    GameView,
    HintView,
    Leaderboard,
    Place,
    PlayerStats,
    RatingChart,
    Replay,
)
from bot.services.reviewing import Reviewing
from bot.services.server_rules import SettingsChange, SettingsView
from bot.services.servers import Servers
from bot.services.settings import Clock, ServiceSettings, utc_now
from bot.services.starting import Starting


class GameService:
    """The one entry point adapters use. Create it once per process; call :meth:`close` at shutdown."""

    def __init__(
        self,
        database: Database,
        settings: ServiceSettings | None = None,
        *,
        engine: EnginePool | None = None,
        pictures: PicturePool | None = None,
        clock: Clock = utc_now,
        rng: random.Random | None = None,
    ) -> None:
        self.settings = settings or ServiceSettings()
        self.database = database
        self.engine = engine or EnginePool(self.settings.engine_workers, self.settings.engine_budget_ms)
        core = ServiceCore(database, self.settings, self.engine, clock, rng or random.Random())
        self._moves = Moves(core)
        self._starting = Starting(core, self._moves)
        self._endings = Endings(core)
        self._queries = Queries(core)
        self.pictures = pictures or PicturePool()
        self._reviewing = Reviewing(core, self.pictures)
        self._servers = Servers(core)
        self._arenas = Arenas(core)

    async def database_answers(self, seconds: float) -> bool:
        """Whether the database answers a trivial query within ``seconds`` (for health checks)."""
        try:
            async with asyncio.timeout(seconds):
                await self.database.ping()
        except (DatabaseUnavailableError, TimeoutError):
            return False
        return True

    async def live_game_count(self) -> int | None:
        """How many games are live (pending challenges and active games), in every channel; None
        when the database does not answer (for the metrics, which a database outage must not stop)."""
        try:
            async with self.database.read() as repo:
                return await repo.live_game_count()
        except DatabaseUnavailableError:
            return None

    async def close(self) -> None:
        """Stop the engine and pictures workers, and close the database connections."""
        self.engine.close()
        self.pictures.close()
        await self.database.close()

    # Starting games

    async def start_vs_bot(
        self,
        place: Place,
        player: Actor,
        *,
        size: int = 3,
        level: Level | None = None,
        first: First = First.ME,
    ) -> GameView:
        """Start a game against the bot; when the bot plays X it opens before this returns.

        ``level`` None: the server's default level (see :meth:`change_server_settings`), else perfect.
        A server's rules may refuse the start (its channels for games, the role it requires).
        """
        return await self._starting.start_vs_bot(place, player, size, level, first)

    async def challenge(
        self,
        place: Place,
        challenger: Actor,
        opponent: Actor,
        *,
        opponent_is_bot: bool = False,
        size: int = 3,
        first: First = First.ME,
    ) -> GameView:
        """Challenge another member; the game waits (pending) until they accept, decline, or it expires.

        ``opponent_is_bot`` is whether the member is a bot account: bots cannot be
        challenged (to play this bot, use :meth:`start_vs_bot`).
        """
        return await self._starting.challenge(place, challenger, opponent, opponent_is_bot, size, first)

    async def accept(self, place: Place, user: Actor, game_id: int | None = None) -> GameView:
        """The challenged member accepts: the game starts and X is on turn."""
        return await self._starting.accept(place, user, game_id)

    async def decline(self, place: Place, user: Actor, game_id: int | None = None) -> GameView:
        """The challenged member declines; the challenge ends without a game."""
        return await self._starting.decline(place, user, game_id)

    async def rematch(self, place: Place, user: Actor, game_id: int) -> GameView:
        """A new game between the same sides with marks swapped.

        Against the bot it starts at once (same level and size); against a person it
        is a new challenge they must accept.
        """
        return await self._starting.rematch(place, user, game_id)

    # Playing

    async def move(
        self,
        place: Place,
        user: Actor,
        cell: str | int,
        *,
        game_id: int | None = None,
        expected_ply: int | None = None,
    ) -> GameView:
        """Play ``cell`` for ``user``; against the bot, its reply is made before this returns.

        ``cell`` is the cell notation (``"b2"``, ``"5"``) or a 0-based index (a button).
        A button passes its ``game_id`` and the ``expected_ply`` it was drawn at, so a
        click on an outdated board is refused instead of played.
        """
        return await self._moves.move(place, user, cell, game_id, expected_ply)

    async def play_bot_turn(self, game_id: int) -> GameView:
        """Make the bot's move in ``game_id`` if it is the bot's turn; return the game as it then stands.

        The move is computed outside any transaction and stored only if the game is
        unchanged meanwhile, so two processes resuming the same game store one move.
        """
        return await self._moves.play_bot_turn(game_id)

    async def resume_bot_turns(self) -> list[GameView]:
        """After a restart: make every bot move that was due when the process stopped.

        With ``settings.shards``, only in this process's guilds: another live process
        may be making the reply in its own guilds right now.
        """
        return await self._moves.resume_bot_turns()

    # Ending games

    async def resign(self, place: Place, user: Actor, game_id: int | None = None) -> GameView:
        """``user`` gives up their running game in this channel; the other side wins."""
        return await self._endings.resign(place, user, game_id)

    async def cancel(
        self, place: Place, user: Actor, *, is_moderator: bool = False, game_id: int | None = None
    ) -> GameView:
        """End the channel's game or challenge without a result.

        Allowed for its players, and for moderators: the adapter decides who is one
        (on Discord, members with Manage Messages) and passes ``is_moderator``.
        """
        return await self._endings.cancel(place, user, is_moderator, game_id)

    async def sweep(self) -> list[GameView]:
        """Act on every game whose stored deadline has passed; return them, for the adapter to update.

        A pending challenge expires; in an active game the human on turn loses on time, and the
        bot's move, if it is the bot's turn, is made again (after failing a few times in a row,
        the game is cancelled). Works from stored deadlines only, so it catches up after a restart.
        Call it every few seconds (see :meth:`next_deadline`); a move or an answer
        that arrives after its deadline but before the next sweep still counts.
        """
        ended, overdue = await self._endings.sweep()
        return ended + await self._moves.retry_overdue(overdue)

    async def next_deadline(self) -> datetime | None:
        """The earliest stored deadline of a live game, for scheduling the next :meth:`sweep`."""
        return await self._endings.next_deadline()

    # Reading

    async def board(self, place: Place) -> GameView:
        """The channel's live game or challenge."""
        return await self._queries.board(place)

    async def latest(self, place: Place) -> GameView:
        """The channel's live game, or else the one that ended last there.

        For a place whose boards are shown only on request: a game that ended on time there
        could not show it at once, so asking for the board shows how it ended.
        """
        return await self._queries.latest(place)

    async def game(self, game_id: int, place: Place | None = None) -> GameView:
        """A game by id; with ``place``, only if it belongs to that channel."""
        return await self._queries.game(game_id, place)

    async def set_message(self, game_id: int, channel_id: int, message_id: int) -> int:
        """Remember which message shows the game's board, to edit it later (timeouts, restarts): the
        game's version, which tells whether it changed since the board was drawn."""
        return await self._queries.set_message(game_id, channel_id, message_id)

    async def hint(self, place: Place, user: Actor, game_id: int | None = None) -> HintView:
        """The engine's verdict on every empty cell, for the player on turn."""
        return await self._queries.hint(place, user, game_id)

    async def history(self, game_id: int, place: Place | None = None) -> GameHistory:
        """A game with all its moves, for a replay; with ``place``, only a game of the same server."""
        return await self._queries.history(game_id, place)

    # Looking back: reviews, replays, game lists and rating charts

    async def review(
        self, game_id: int | None = None, *, place: Place | None = None, user_id: int | None = None
    ) -> GameReview:
        """The perfect engine's verdict on every move of a game that is over (computed once per game).

        Without ``game_id``: the asker's latest finished game visible from ``place``.
        ``place`` None (the terminal) may look at any game.
        """
        return await self._reviewing.review(game_id, place, user_id)

    async def replay(
        self, game_id: int | None = None, *, place: Place | None = None, user_id: int | None = None
    ) -> Replay:
        """A game that is over, with its animated GIF (drawn in the pictures worker, off the event loop)."""
        return await self._reviewing.replay(game_id, place, user_id)

    async def finished_games(self, place: Place, asker_id: int, user_id: int) -> FinishedGames:
        """``user_id``'s latest finished games that ``asker_id`` may look at from ``place``, newest first."""
        return await self._reviewing.finished_games(place, asker_id, user_id)

    async def rating_chart(self, user_id: int, guild_id: int | None) -> RatingChart | None:
        """A PNG of the player's rating after each rated game: in ``guild_id`` (blue) and globally (red).

        None until they have a rated game.
        """
        return await self._reviewing.rating_chart(user_id, guild_id)

    async def leaderboard(self, guild_id: int | None, limit: int | None = None) -> Leaderboard:
        """The best rated players of a server, or globally with ``guild_id=None``."""
        return await self._queries.leaderboard(guild_id, limit)

    async def stats(self, user_id: int, guild_id: int | None = None) -> PlayerStats:
        """A player's records, streaks, ratings (this server's and global) and recent games."""
        return await self._queries.stats(user_id, guild_id)

    # Server settings

    async def server_language(self, guild_id: int) -> str | None:
        """The language a server chose for its public messages (a code of :mod:`bot.i18n`), None for auto.

        Kept in memory once read: a server's interactions all reach the one process that
        serves its shard, and that process is where the setting changes.
        """
        return await self._servers.server_language(guild_id)

    async def server_theme(self, guild_id: int) -> str:
        """The theme a server chose for its boards' pieces (one of ``THEMES``), kept in memory once read."""
        return await self._servers.server_theme(guild_id)

    async def server_settings(self, guild_id: int | None, *, may_manage: bool) -> SettingsView:
        """A server's settings, for a member who may manage it (see :meth:`change_server_settings`)."""
        return await self._servers.server_settings(guild_id, may_manage)

    async def change_server_settings(
        self, guild_id: int | None, change: SettingsChange, *, may_manage: bool
    ) -> SettingsView:
        """Change a server's settings: its language, channels for games, the role needed to play,
        its turn and challenge timeouts and the level of games started without one.

        Only members who may manage the server (``may_manage``) can, and only in a server; a value
        out of bounds is refused and nothing is changed. The rules apply to games and challenges
        started from then on; a change of timeout counts from the next move or challenge.
        """
        return await self._servers.change_server_settings(guild_id, change, may_manage)

    async def set_server_language(
        self, guild_id: int | None, language: str | None, *, may_manage: bool
    ) -> str | None:
        """Choose the language of a server's public messages; None goes back to the server's own locale.

        Only members who may manage the server (``may_manage``) can, and only in a server.
        """
        return await self._servers.set_server_language(guild_id, language, may_manage)

    # Arenas

    async def open_arena(
        self,
        place: Place,
        opener: Actor,
        *,
        rounds: int | None = None,
        size: int = 3,
        minutes: int = DEFAULT_LOBBY_MINUTES,
        rated: bool = True,
    ) -> ArenaView:
        """Open a Swiss arena in this channel of a server, the opener its first player.

        ``rounds`` 1-9 (None: about log2 of the players, fixed at the start and never more than
        the field can play without a repeat); its lobby closes in ``minutes`` (1-60), when it
        starts with at least 3 players (see :meth:`sweep_arenas`). One arena per channel.
        """
        return await self._arenas.open(place, opener, rounds, size, minutes, rated)

    async def join_arena(self, place: Place, user: Actor, arena_id: int | None = None) -> ArenaView:
        """Join the channel's open arena (or ``arena_id``, from its lobby's button)."""
        return await self._arenas.join(place, user, arena_id)

    async def leave_arena(self, place: Place, user: Actor, arena_id: int | None = None) -> ArenaUpdate:
        """Leave the channel's arena: out of its lobby, or out of its rounds, losing the game being
        played (which may complete the round, and pair the next)."""
        return await self._arenas.leave(place, user, arena_id)

    async def start_arena(
        self, place: Place, user: Actor, *, may_manage: bool = False, arena_id: int | None = None
    ) -> ArenaUpdate:
        """Start the arena before its lobby closes: its first round is paired.

        Only its opener, or a member who may manage the server (``may_manage``, the adapter's call).
        """
        return await self._arenas.start(place, user, may_manage, arena_id)

    async def cancel_arena(
        self, place: Place, user: Actor, *, may_manage: bool = False, arena_id: int | None = None
    ) -> ArenaUpdate:
        """Cancel the arena and the games of its round (its opener, or one who may manage the server)."""
        return await self._arenas.cancel(place, user, may_manage, arena_id)

    async def arena_standings(self, guild_id: int | None) -> ArenaView:
        """The server's current arena, else its latest, with its standings."""
        return await self._arenas.standings(guild_id)

    async def arena(self, arena_id: int) -> ArenaView | None:
        """An arena by id, if there is one."""
        return await self._arenas.arena(arena_id)

    async def set_arena_message(self, arena_id: int, message_id: int) -> None:
        """Remember the arena's lobby message, which later shows its standings."""
        await self._arenas.set_message(arena_id, message_id)

    async def set_arena_round_message(self, arena_id: int, number: int, message_id: int) -> None:
        """Remember the message of an arena's round, which its games' threads hang from."""
        await self._arenas.set_round_message(arena_id, number, message_id)

    async def set_arena_pairing_thread(
        self, arena_id: int, round_number: int, board: int, thread_id: int
    ) -> None:
        """Remember the thread (on Discord, the id of the message it starts from) of a pairing whose
        game is not created yet, so a retried set-up reuses it."""
        await self._arenas.set_pairing_thread(arena_id, round_number, board, thread_id)

    async def create_arena_game(
        self, arena_id: int, round_number: int, board: int, place: Place
    ) -> GameView | None:
        """Start a pairing's game in ``place``, the channel (thread) the adapter made for it.

        None when there is nothing to start (the arena stopped, the game exists, or the pairing
        was decided without it).
        """
        return await self._arenas.create_game(arena_id, round_number, board, place)

    async def arena_game_over(self, game_id: int) -> ArenaUpdate | None:
        """Tell the arena a game of it is over (after a move, a resignation or a cancel ended it): the
        result is noted and, if it was the round's last, the next round paired. None for other games."""
        return await self._arenas.game_over(game_id)

    async def arena_cross_table(self, arena: ArenaView) -> bytes:
        """The cross table of ``arena`` (a finished one, usually) as a PNG, drawn in the picture worker."""
        return await draw_cross_table(self.pictures, arena)

    async def arena_rounds_to_set_up(self) -> list[ArenaUpdate]:
        """This process's arena rounds whose games are not all created yet (after a restart, or a
        set-up that failed): to set up again."""
        return await self._arenas.rounds_to_set_up()

    async def sweep_arenas(self) -> list[ArenaUpdate]:
        """Start the lobbies whose time is up (cancel those with too few players), note the results of
        arena games that ended by timeout or while no one was told, and pair the rounds they
        complete. Call it with :meth:`sweep`; this process's servers' arenas only."""
        return await self._arenas.sweep()

    async def next_arena_start(self) -> datetime | None:
        """When the earliest open arena's lobby closes, for scheduling :meth:`sweep_arenas`."""
        return await self._arenas.next_start()
