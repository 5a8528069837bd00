"""What every part of the game service shares: transactions, players' names, views and lookups."""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta
from typing import TypeVar

from bot.db import Database, DatabaseUnavailableError, GameRecord, LostRaceError, Repository
from bot.engine import Board
from bot.services import refusals
from bot.services.engine_pool import EnginePool
from bot.services.presenter import game_view
from bot.services.results import Actor, GameView, Place
from bot.services.server_rules import NO_RULES, ServerRules, read_rules
from bot.services.settings import Clock, ServiceSettings

log = logging.getLogger(__name__)
T = TypeVar("T")

NAME_LENGTH = 100
"""Display names are stored cut to this many characters."""

_NAME_CACHE_SIZE = 50_000
_RULES_CACHE_SIZE = 50_000
_NAMES_IN_WRITE: ContextVar[dict[int, str] | None] = ContextVar("names_in_write", default=None)
"""The players' names the running write transaction stored or read, for the cache once it commits."""
_AFTER_COMMIT: ContextVar[list[Callable[[], None]] | None] = ContextVar("after_commit", default=None)
"""What the running write transaction has to do once it has committed (count a game for the metrics)."""


class ServiceCore:
    """The database, engine, settings, clock and randomness one :class:`GameService` works with."""

    def __init__(
        self,
        database: Database,
        settings: ServiceSettings,
        engine: EnginePool,
        clock: Clock,
        rng: random.Random,
    ) -> None:
        self.database = database
        self.settings = settings
        self.engine = engine
        self.clock = clock
        self.rng = rng
        self._name_cache: dict[int, str] = {}
        self._server_rules: dict[int, ServerRules] = {}

    # Transactions

    @asynccontextmanager
    async def _guard(self) -> AsyncIterator[None]:
        """Turn an unreachable or locked database into a short "try again" for the user, and a
        change another writer made first into :class:`~bot.services.refusals.StaleBoard`."""
        try:
            yield
        except DatabaseUnavailableError as error:
            log.warning("Database unavailable: %s", error, exc_info=error.__cause__)
            raise refusals.Unavailable() from error
        except LostRaceError as error:
            raise refusals.StaleBoard() from error

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Repository]:
        """A write transaction (see ``Database.write``).

        The players' names it stores or reads join this process's cache of names once it has
        committed, so a name in the cache is one of a player whose row is stored.
        """
        names: dict[int, str] = {}
        committed: list[Callable[[], None]] = []
        token = _NAMES_IN_WRITE.set(names)
        actions = _AFTER_COMMIT.set(committed)
        try:
            async with self._guard(), self.database.write() as repo:
                yield repo
        finally:
            _AFTER_COMMIT.reset(actions)
            _NAMES_IN_WRITE.reset(token)
        self._remember(names)
        for action in committed:
            action()

    @staticmethod
    def after_commit(action: Callable[[], None]) -> None:
        """Run ``action`` once the running write transaction has committed (never if it rolls back)."""
        pending = _AFTER_COMMIT.get()
        if pending is None:
            raise RuntimeError("after_commit outside a write transaction")
        pending.append(action)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Repository]:
        """A repository for reading, in a transaction of its own."""
        async with self._guard(), self.database.read() as repo:
            yield repo

    # Players and views

    async def names(self, repo: Repository, game: GameRecord) -> dict[int, str]:
        """Display names of the game's players, from this process's cache when it knows them.

        A name is display only; one changed in another process shows up here once
        that player acts in this one.
        """
        wanted = [i for i in (game.x_player_id, game.o_player_id) if i is not None]
        known = {i: self._name_cache[i] for i in wanted if i in self._name_cache}
        missing = [i for i in wanted if i not in known]
        if missing:
            found = await repo.display_names(missing)
            self._learn(found)
            known.update(found)
        return {i: known[i] for i in wanted if i in known}

    def _learn(self, names: Mapping[int, str]) -> None:
        """Cache ``names`` now, or once the running write transaction has committed."""
        pending = _NAMES_IN_WRITE.get()
        if pending is None:
            self._remember(names)
        else:
            pending.update(names)

    def _remember(self, names: Mapping[int, str]) -> None:
        if len(self._name_cache) > _NAME_CACHE_SIZE:
            self._name_cache.clear()
        self._name_cache.update(names)

    async def save_players(
        self, repo: Repository, now: datetime, *actors: Actor, known: Mapping[int, str] | None = None
    ) -> None:
        """Store each actor and their display name (skipped when ``known``, by default this process's
        cache of stored names, already has that name)."""
        await self.store_names(repo, now, self.unsaved_names(*actors, known=known))

    def unsaved_names(self, *actors: Actor, known: Mapping[int, str] | None = None) -> dict[int, str]:
        """The actors' display names, by id, that ``known`` (by default this process's cache of
        stored names) does not have as they are now: the ones :meth:`store_names` would write."""
        if known is None:
            known = self._name_cache
        names = {actor.user_id: actor.display_name[:NAME_LENGTH] for actor in actors}
        return {user_id: name for user_id, name in names.items() if known.get(user_id) != name}

    async def store_names(self, repo: Repository, now: datetime, names: Mapping[int, str]) -> None:
        """Store these players with their display names (nothing to do when there are none)."""
        if names:
            await repo.save_players(list(names.items()), now)
            self._learn(names)

    async def view(
        self,
        repo: Repository,
        game: GameRecord,
        board: Board | None = None,
        names: Mapping[int, str] | None = None,
    ) -> GameView:
        """The result adapters render; ``board`` is the game's board when the caller has it parsed."""
        if names is None:
            names = await self.names(repo, game)
        return game_view(
            game, Board.parse(game.board) if board is None else board, names, self.settings.bot_name
        )

    # Lookups

    async def game_here(
        self, repo: Repository, place: Place, game_id: int | None, *, cached: bool = False
    ) -> GameRecord:
        """The game a request is about: ``game_id`` (which must be in this channel) or the live one.

        ``cached``: this process's copy of ``game_id`` will do (see :meth:`Repository.game`).
        """
        if game_id is None:
            game = await repo.live_game(place.channel_id)
            if game is None:
                raise refusals.NoGame()
            return game
        found = await repo.game(game_id, cached=cached)
        if found is None or found.channel_id != place.channel_id or found.guild_id != place.guild_id:
            raise refusals.GameElsewhere()
        return found

    @staticmethod
    async def cached_first(attempt: Callable[[bool], Awaitable[T]]) -> T:
        """``attempt(True)``, deciding on this process's cached copy of the game; a refusal is
        decided again with ``attempt(False)`` on a fresh read, since another process may have
        changed the game since this one last saw it (see :meth:`Repository.game`)."""
        try:
            return await attempt(True)
        except refusals.Refusal:
            return await attempt(False)

    async def game_by_id(self, repo: Repository, game_id: int) -> GameRecord:
        """The game ``game_id``; refuse an unknown one."""
        found = await repo.game(game_id)
        if found is None:
            raise refusals.UnknownGame()
        return found

    # Server rules

    async def server_rules(self, guild_id: int | None, repo: Repository | None = None) -> ServerRules:
        """The rules of the server ``guild_id`` (none outside servers), kept in memory once read.

        A server's interactions all reach the one process that serves its shard, and that process
        is where its settings change (:meth:`keep_server_rules`). ``repo``: read in that transaction
        (when the rules are not in memory) instead of one of their own.
        """
        if guild_id is None:
            return NO_RULES
        known = self._server_rules.get(guild_id)
        if known is not None:
            return known
        if repo is None:
            async with self.read() as reading:
                found = await read_rules(reading, guild_id)
        else:
            found = await read_rules(repo, guild_id)
        self.keep_server_rules(guild_id, found)
        return found

    def keep_server_rules(self, guild_id: int, rules: ServerRules) -> None:
        """Remember the rules of the server ``guild_id`` as they now stand."""
        if len(self._server_rules) > _RULES_CACHE_SIZE:
            self._server_rules.clear()
        self._server_rules[guild_id] = rules

    async def turn_deadline(
        self, repo: Repository, guild_id: int | None, player_id: int | None, now: datetime
    ) -> datetime:
        """The side on turn must move by then: a human (``player_id``) loses on time (after the
        server's turn timeout, else the bot's), and the bot (None) has its move made again (see
        :meth:`Moves.retry_overdue`)."""
        settings = self.settings
        if player_id is None:
            seconds = settings.bot_turn_seconds
        else:
            chosen = (await self.server_rules(guild_id, repo)).turn_timeout_seconds
            seconds = settings.turn_timeout_seconds if chosen is None else chosen
        return now + timedelta(seconds=seconds)

    async def challenge_deadline(self, repo: Repository, guild_id: int | None, now: datetime) -> datetime:
        """An unanswered challenge made now expires then (the server's challenge timeout, else the bot's)."""
        chosen = (await self.server_rules(guild_id, repo)).challenge_timeout_seconds
        seconds = self.settings.challenge_timeout_seconds if chosen is None else chosen
        return now + timedelta(seconds=seconds)
