"""The write path of one process: group commit, and a cache of immutable game records.

Every write transaction of the bot is ``async with database.write() as repo:``. The rule:

- **Writers join the open batch.** The first writer opens a batch; writers arriving while
  its first body runs join it. Their bodies run one after another on the batch's one
  connection, in one transaction, each seeing what the bodies before it wrote. The batch
  commits when the last body that joined is done, and each writer's ``write()`` returns
  only after that commit: nothing is reported done before it is durable. Writers arriving
  later form the next batch, which begins once this one has ended (committed or rolled
  back): one batch at a time, so a process never waits on itself inside the database.
- **Compare-and-set, sent at once.** A change of a game is ``UPDATE games ... WHERE id = :id
  AND version = :seen``. The rules check before they write, so a body whose change applies
  to no row (another process changed the game) has written nothing: it hears
  :class:`~bot.db.errors.LostRaceError` alone and the batch goes on.
- **All or nothing.** A body that fails after it wrote (or a database error, or a failed
  commit) rolls the whole batch back; its writers that did not fail hear
  :class:`~bot.db.errors.DatabaseUnavailableError` ("try again"). Storing a display name
  (what Discord said, not a decision) does not count as a write here.
- **Immutable records.** Games are :class:`GameRecord` values, replaced, never changed. The
  batch keeps the records it read or wrote in an overlay that its later bodies read; the
  process's :class:`GameCache` receives them only after the commit, and a failed batch
  drops every game it touched from it. So the cache holds only committed records.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TypeAlias

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.db.errors import DatabaseUnavailableError
from bot.db.models import GameRecord

log = logging.getLogger(__name__)

CACHE_SIZE = 20_000
"""Games kept in memory; the least recently used leaves first."""
MAX_BATCH = 200
"""Writers per batch; one more opens the next batch."""
CLOSE_WAIT = 5.0
"""Seconds :meth:`WriteBatches.close` waits for an open batch to end."""

CommitObserver: TypeAlias = Callable[[int, float], None]
"""Told of every committed batch: how many writers it held and how long its commit took, in seconds."""


class GameCache:
    """Committed game records by id, at most ``size`` of them (least recently used out first)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._games: OrderedDict[int, GameRecord] = OrderedDict()
        self._size = size

    def get(self, game_id: int) -> GameRecord | None:
        """The record of game ``game_id``, if cached."""
        if game_id in self._games:
            self._games.move_to_end(game_id)
        return self._games.get(game_id)

    def put(self, game: GameRecord) -> None:
        """Cache ``game``, the least recently used entry leaving when full."""
        self._games[game.id] = game
        self._games.move_to_end(game.id)
        if len(self._games) > self._size:
            self._games.popitem(last=False)

    def drop(self, game_id: int) -> None:
        """Forget game ``game_id``."""
        self._games.pop(game_id, None)


class Batch:
    """Writers sharing one transaction on one connection; see the module docstring."""

    def __init__(self) -> None:
        self.turn = asyncio.Lock()
        """Held by the writer whose body runs: bodies run one at a time."""
        self.joined = 0
        self.finished = 0
        self.writes = 0
        """Statements of the bodies that wrote: a body that raises after one spoils the batch."""
        self.connection: AsyncConnection | None = None
        self.overlay: dict[int, GameRecord] = {}
        """The records this transaction read or wrote: the cache's once it commits."""
        self.failure: BaseException | None = None
        self.outcome: asyncio.Future[BaseException | None] = asyncio.get_running_loop().create_future()
        """Resolved when the batch has ended: None once committed, else why it was rolled back."""

    def keep(self, game: GameRecord) -> GameRecord:
        """Note ``game`` as this transaction now sees it."""
        self.overlay[game.id] = game
        return game


class WriteBatches:
    """Group commit of one process's write transactions (the module docstring tells how)."""

    def __init__(
        self,
        engine: AsyncEngine,
        cache: GameCache,
        max_batch: int = MAX_BATCH,
        on_commit: CommitObserver | None = None,
    ) -> None:
        self._engine = engine
        self.cache = cache
        self._max_batch = max_batch
        self._on_commit = on_commit
        self._open: Batch | None = None
        """The batch that writers arriving now join."""
        self._one_at_a_time = asyncio.Lock()
        """Held by a batch from its begin to its end."""
        self._kept: AsyncConnection | None = None
        """The connection of the last batch that committed, for the next one."""
        self.commits = 0
        self.writes = 0

    @asynccontextmanager
    async def joined(self) -> AsyncIterator[Batch]:
        """The begun batch this writer joined, for the length of its body; leaves once it committed.

        Raises :class:`DatabaseUnavailableError` when the batch was rolled back (the body's own
        exception, if it raised, passes through).
        """
        batch = self._open
        if batch is None or batch.joined >= self._max_batch:
            batch = self._open = Batch()
        batch.joined += 1
        self.writes += 1
        try:
            async with batch.turn:
                if batch.failure is not None:
                    raise DatabaseUnavailableError("write batch rolled back") from batch.failure
                writes = batch.writes
                try:
                    if batch.connection is None:
                        await self._begin(batch)
                    yield batch
                except BaseException as error:
                    if batch.writes != writes or _spoils(error):
                        batch.failure = batch.failure or error
                    raise
        finally:
            if self._open is batch:  # writers arriving from now on form the next batch
                self._open = None
            batch.finished += 1
            if batch.finished == batch.joined:
                await asyncio.shield(asyncio.ensure_future(self._end(batch)))
        failure = await asyncio.shield(batch.outcome)
        if failure is not None:
            raise DatabaseUnavailableError("write batch rolled back") from failure

    async def _begin(self, batch: Batch) -> None:
        await self._one_at_a_time.acquire()
        try:
            connection, self._kept = self._kept, None
            if connection is None:
                connection = await self._engine.connect()
            batch.connection = connection
            await connection.begin()
        except BaseException:
            if batch.connection is not None:
                await _close(batch.connection)
                batch.connection = None
            self._one_at_a_time.release()
            raise

    async def _end(self, batch: Batch) -> None:
        """Commit the batch (or roll it back after a failure) and tell every writer how it went."""
        connection = batch.connection
        if connection is None:  # every writer left before a body ran
            batch.outcome.set_result(batch.failure)
            return
        try:
            if batch.failure is None:
                started = time.perf_counter()
                try:
                    await connection.commit()
                except BaseException as error:
                    batch.failure = error
                else:
                    for game in batch.overlay.values():
                        self.cache.put(game)
                    self.commits += 1
                    if self._on_commit is not None:
                        self._on_commit(batch.joined, time.perf_counter() - started)
                    self._kept = connection
                    return
            for game_id in batch.overlay:
                self.cache.drop(game_id)
            await _close(connection)  # what broke the batch (a server restarting) likely broke it too
        finally:
            self._one_at_a_time.release()
            batch.outcome.set_result(batch.failure)

    async def close(self) -> None:
        """Give the kept connection back, before the engine is disposed of (after the open batch
        has ended, if it does within :data:`CLOSE_WAIT` seconds)."""
        try:
            async with asyncio.timeout(CLOSE_WAIT):
                await self._one_at_a_time.acquire()
            self._one_at_a_time.release()
        except TimeoutError:
            log.warning("A write batch is still open at close")
        if self._kept is not None:
            await _close(self._kept)
            self._kept = None


async def _close(connection: AsyncConnection) -> None:
    """Close ``connection`` (rolling back what it has open); a failure only logs."""
    try:
        await connection.close()
    except Exception as error:
        log.debug("Closing a write connection failed: %r", error)


def _spoils(error: BaseException) -> bool:
    """Whether a body's exception rolls back its whole batch even if the body wrote nothing: the
    database failed underneath, or the body did not end normally (cancelled)."""
    return not isinstance(error, Exception) or isinstance(
        error, SQLAlchemyError | OSError | DatabaseUnavailableError
    )
