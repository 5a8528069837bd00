"""The write path of one process: a write-through cache of games and group commit.

Every write transaction of the bot goes through :class:`WriteBatches` (see
:meth:`bot.db.database.Database.write`):

- **Group commit.** Writes that arrive together share one database transaction and one
  commit. The first writer opens a batch; writers that arrive until its body is done join
  it; their bodies run one after another on the batch's connection, and the batch commits
  as soon as the last body that joined is done. Each writer's ``write()`` returns only
  after the commit that holds its changes, so nothing is reported done before it is
  durable. Writers arriving later form the next batch, which begins once this one's
  bodies are done: that is how batches grow under load, and a batch is never held open
  by a stream of newcomers.
- **Serialised without a round trip.** Because the bodies of one process run one at a
  time, two clicks on one game are ordered in memory; the database is not asked to lock.
- **The next batch runs while one finishes (PostgreSQL).** Once a batch's bodies are
  done, the next one may begin on another connection while the first sends what waits
  with it (its last statement) and waits for its commit (the server's flush to disk). A
  game the finishing batch read or changed is served to the next one, and written by it,
  only once that batch has ended (:meth:`Batch.after_previous`): its change may yet be
  rolled back, and a row the next batch locked could otherwise hold up the finishing
  batch's last statement while the next batch waits for it, a wait the server cannot see.
  The server orders the rest: what the finishing batch wrote stays locked until its
  commit ends. SQLite has one writer at a time, so there a batch begins only once the
  one before it has committed.
- **Write-through cache.** :class:`LiveGameCache` keeps the games this process has read
  or written, as this process last wrote them (a batch that fails takes its games out),
  so a move asked for with ``Repository.game(..., cached=True)`` needs no ``SELECT``.
  Every change is still a compare-and-set on the game's version (``UPDATE ... WHERE
  version = :seen``): when another process changed the game meanwhile, the update
  applies to no row, the cached game is dropped and read again on its next use.
- **Compare-and-sets decided together.** A writer's first change of a game, made before
  it wrote anything else, is not sent at once: it waits with the batch
  (:meth:`Batch.defer_set`) and is sent with the others in one statement
  (:func:`~bot.db.waiting_writes.send_waiting`) when the batch next runs a statement
  that reads games (one that reads only a channel's games, or only the games of some
  players, waits only if a change of such a game is waiting: :meth:`Batch.waits_for`), at
  the latest right before its commit. So a batch of moves costs one round trip for all
  their compare-and-sets, not one each. A writer whose compare-and-set
  did not apply *lost the race*: everything it did in the batch is taken out (its moves
  are not inserted, its game leaves the cache) and its ``write()`` raises
  :class:`~bot.db.errors.LostRaceError` (at once if its body is still running, else once
  the batch has committed without it); the other writers are not affected. A game
  with a change waiting is not served from the cache until the change is decided.
- **Moves inserted once per batch.** The moves the writers of a batch store are kept with
  the batch and inserted right before its commit, on PostgreSQL in the same statement as
  the compare-and-sets still waiting, each move only if the change its writer needs
  applied (:mod:`bot.db.waiting_writes`): a batch of moves sends one statement before its
  commit. A move row is never read back by the transaction that writes it; a read of moves
  in a batch inserts the pending ones first. The board message recorded for a cached game
  waits likewise and is sent with the compare-and-sets.
- **Core statements on kept connections.** A batch is one transaction on one of the
  process's write connections, which are kept from batch to batch (a failed batch gives
  them all back to the pool); the repository writes with Core statements built once,
  straight on it (no ORM unit of work, no flush). An ORM session joined to that transaction is made only when
  a writer reads models the repository does not build itself (lists of moves, ratings);
  it is never flushed or committed.
- **All or nothing.** A body that fails after a statement of its own wrote (or a database
  error, or a failed commit) rolls the whole batch back; the other writers of that batch
  get :class:`DatabaseUnavailableError` ("try again") and nothing of the batch is kept. A
  refusal raised before any write (the usual case: the rules check before they write), or
  after writes that still wait with the batch, takes out the writer's own part alone.
  Every game the failed batch touched leaves the cache. Two writes bind no writer: a
  display name stored (a fact from Discord, not a decision) and a game not inserted
  because its channel already has a live one (the unique index refuses it without an
  error); so a start refused by that index leaves its batch alone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Collection
from contextlib import asynccontextmanager
from typing import Any, TypeAlias

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession

from bot.db.errors import DatabaseUnavailableError, LostRaceError
from bot.db.models import Game
from bot.db.statements import set_messages
from bot.db.waiting_writes import send_waiting

log = logging.getLogger(__name__)

CACHE_SIZE = 20_000
"""Games kept in memory; the oldest entry leaves first once this many are cached."""
MAX_BATCH = 200
"""Writers per batch; one more opens the next batch."""
OPEN_TRANSACTIONS = 3
"""Batch transactions open at once (PostgreSQL): one committing, one sending what waits with it,
while the next one's writers run."""
CLOSE_WAIT = 5.0
"""Seconds :meth:`WriteBatches.close` waits for an open batch to end."""


class LiveGameCache:
    """Games by id, as this process last read or wrote them.

    The games kept belong to no session (built from their row by the repository, or detached
    when the read that loaded them ended); their attributes are the row as this process last
    committed or read it, and only the repository changes them, as committed values.
    """

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._games: dict[int, Game] = {}
        self._size = size

    def get(self, game_id: int) -> Game | None:
        """The cached game ``game_id``, if any."""
        return self._games.get(game_id)

    def put(self, game: Game) -> None:
        """Cache ``game``, making room by dropping the oldest entry when full."""
        if game.id not in self._games and len(self._games) >= self._size:
            del self._games[next(iter(self._games))]
        self._games[game.id] = game

    def drop(self, game_id: int) -> None:
        """Forget game ``game_id``."""
        self._games.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._games)


class Writer:
    """One writer's part in a batch."""

    __slots__ = ("deferred_set", "lost", "wrote_directly")

    def __init__(self) -> None:
        self.wrote_directly = False
        """Whether a write of its own is in the transaction (only a rollback takes it back)."""
        self.deferred_set: int | None = None
        """The game whose compare-and-set of this writer waits with the batch."""
        self.lost = False
        """Whether its compare-and-set found another version: its part of the batch was taken out."""


class _PendingSet:
    """A compare-and-set waiting with its batch (see :meth:`Batch.defer_set`)."""

    __slots__ = ("channel_id", "expected", "game_id", "players", "values", "writer")

    def __init__(self, writer: Writer, game: Game, expected: int, values: dict[str, Any]) -> None:
        self.writer = writer
        self.game_id = game.id
        self.channel_id = game.channel_id
        self.players = {game.x_player_id, game.o_player_id} - {None}
        self.expected = expected
        self.values = values


_Waiting = list[tuple[Writer, dict[str, Any]]]
"""Rows waiting with a batch, each with the writer that stored it."""


class Batch:
    """Writers sharing one transaction; see :class:`WriteBatches`."""

    def __init__(self, cache: LiveGameCache) -> None:
        self.turn = asyncio.Lock()
        """Held by the writer whose body is running: bodies run one at a time."""
        self.joined = 0
        self.finished = 0
        self._cache = cache
        self._connection: AsyncConnection | None = None
        self._session: AsyncSession | None = None
        self.failure: BaseException | None = None
        self.running: Writer | None = None
        """The writer whose body is running."""
        self.previous: tuple[Batch, ...] = ()
        """The batches that were still committing when this one began (see :meth:`after_previous`)."""
        self.touched: set[int] = set()
        """Ids of the games the batch read or changed: they leave the cache if it fails."""
        self.pending_sets: dict[int, _PendingSet] = {}
        """Compare-and-sets waiting to be sent, by game id (:meth:`settle` sends them)."""
        self.pending_moves: _Waiting = []
        """Move rows stored by the writers, inserted by :meth:`insert_moves` before the commit."""
        self.pending_messages: _Waiting = []
        """Board messages recorded by the writers (:meth:`defer_message`), sent by :meth:`settle`."""
        self.outcome: asyncio.Future[BaseException | None] = asyncio.get_running_loop().create_future()
        """Resolved when the batch has ended: None once committed, else why it was rolled back."""

    @property
    def begun(self) -> bool:
        """Whether the batch's transaction has begun."""
        return self._connection is not None

    @property
    def connection(self) -> AsyncConnection:
        """The connection whose transaction the batch's writers share."""
        assert self._connection is not None, "the batch has not begun"
        return self._connection

    def session(self) -> AsyncSession:
        """An ORM session in the batch's transaction, for reads of models (made on first use).

        It joins the transaction without owning it: it never commits it, and it is never
        flushed (every write is a Core statement on :attr:`connection`).
        """
        if self._session is None:
            self._session = AsyncSession(
                bind=self.connection,
                autoflush=False,
                expire_on_commit=False,
                join_transaction_mode="rollback_only",
            )
        return self._session

    async def begin(self, connection: AsyncConnection) -> None:
        """Begin the batch's transaction on ``connection``."""
        await connection.begin()
        self._connection = connection

    async def after_previous(self, game_id: int) -> None:
        """Wait until the batches still committing when this one began have ended, those that
        touched game ``game_id``: until then their changes of the game may yet be rolled back, so
        its cached copy may not be built on."""
        for previous in self.previous:
            if game_id in previous.touched:
                await asyncio.shield(previous.outcome)

    def sees_settled(self, game_id: int) -> bool:
        """Whether game ``game_id`` has no change in a batch still committing (see :meth:`after_previous`)."""
        return all(previous.outcome.done() or game_id not in previous.touched for previous in self.previous)

    def wrote(self) -> None:
        """Note that the running writer's own statement wrote (called by the repository)."""
        if self.running is not None:
            self.running.wrote_directly = True

    def can_defer_set(self, game_id: int) -> bool:
        """Whether the running writer's compare-and-set of ``game_id`` may wait with the batch.

        It may when, should it not apply, everything the writer did can still be taken out:
        the writer has written nothing but moves, and the game has no other change waiting.
        """
        writer = self.running
        return (
            writer is not None
            and not writer.wrote_directly
            and writer.deferred_set is None
            and game_id not in self.pending_sets
        )

    def defer_set(self, game: Game, expected: int, values: dict[str, Any]) -> None:
        """Keep the running writer's compare-and-set of ``game`` (``version`` from ``expected`` to
        ``values["version"]``) until :meth:`settle`; see :meth:`can_defer_set`."""
        writer = self.running
        assert writer is not None and self.can_defer_set(game.id)
        writer.deferred_set = game.id
        self.pending_sets[game.id] = _PendingSet(writer, game, expected, values)
        self.touched.add(game.id)

    def waits_for(self, *, channel_id: int | None = None, players: Collection[int] | None = None) -> bool:
        """Whether a compare-and-set waits that a statement reading games may need decided: any
        one, or only those of a game of channel ``channel_id``, or of a game ``players`` play."""
        changes = self.pending_sets.values()
        if channel_id is not None:
            return any(change.channel_id == channel_id for change in changes)
        if players is not None:
            return any(not change.players.isdisjoint(players) for change in changes)
        return bool(self.pending_sets)

    def defer_message(self, values: dict[str, Any]) -> None:
        """Keep the running writer's record of a game's board message (``_id``, ``message_channel_id``,
        ``message_id``) until :meth:`settle`."""
        assert self.running is not None
        self.pending_messages.append((self.running, values))
        self.touched.add(values["_id"])

    def add_moves(self, rows: list[dict[str, Any]]) -> None:
        """Keep the running writer's move rows until :meth:`insert_moves`."""
        assert self.running is not None
        self.pending_moves.extend((self.running, row) for row in rows)

    async def settle(self) -> None:
        """Send the waiting compare-and-sets and board messages; take out the writers that lost.

        A writer whose change was sent now has a write in the transaction. Raises
        :class:`LostRaceError` when the running writer is one that lost.
        """
        await self._send_waiting(with_moves=False)

    async def insert_moves(self) -> None:
        """Settle (see :meth:`settle`) and insert the pending move rows, all in one statement on
        PostgreSQL (:func:`~bot.db.waiting_writes.send_waiting`)."""
        await self._send_waiting(with_moves=True)

    async def _send_waiting(self, *, with_moves: bool) -> None:
        moves = self.pending_moves if with_moves else []
        if not self.pending_sets and not self.pending_messages and not moves:
            return
        for game_id in {*self.pending_sets, *(values["_id"] for _, values in self.pending_messages)}:
            await self.after_previous(game_id)
        pending = list(self.pending_sets.values())
        messages = self.pending_messages
        self.pending_sets, self.pending_messages = {}, []
        if with_moves:
            self.pending_moves = []
        changed = {change.game_id for change in pending}
        apart = [values for _, values in messages if values["_id"] in changed]
        if apart:  # one statement changes a row once: these go before the compare-and-sets
            await set_messages(self.connection, apart)
        applied = await send_waiting(
            self.connection,
            [(change.game_id, change.expected, change.values) for change in pending],
            [values for _, values in messages if values["_id"] not in changed],
            [(writer.deferred_set, row) for writer, row in moves],
        )
        for writer, _ in messages:
            writer.wrote_directly = True
        self._decide(pending, applied)

    def _decide(self, sent: list[_PendingSet], applied: set[int]) -> None:
        """Mark the writers of the ``sent`` changes as having written, or as having lost (and
        take them out) when their game is not in ``applied``; raise :class:`LostRaceError` when
        the running writer lost."""
        lost_here = None
        for change in sent:
            change.writer.deferred_set = None
            if change.game_id in applied:
                change.writer.wrote_directly = True
            else:
                change.writer.lost = True
                self._take_out(change.writer, change.game_id)
                if change.writer is self.running:
                    lost_here = change.game_id
        if lost_here is not None:
            raise LostRaceError(f"game {lost_here} was changed by another writer")

    def discard(self, writer: Writer) -> None:
        """Take out what ``writer`` left waiting with the batch (its body failed before it was sent)."""
        game_id = writer.deferred_set
        if game_id is not None:
            del self.pending_sets[game_id]
            writer.deferred_set = None
        self._take_out(writer, game_id)

    def _take_out(self, writer: Writer, game_id: int | None) -> None:
        if game_id is not None:
            self._cache.drop(game_id)
        for owner, values in self.pending_messages:
            if owner is writer:
                self._cache.drop(values["_id"])
        self.pending_moves = _without(self.pending_moves, writer)
        self.pending_messages = _without(self.pending_messages, writer)

    def close_session(self) -> None:
        """Let go of the ORM session's models (no I/O: it owns neither the connection nor its transaction)."""
        if self._session is not None:
            self._session.sync_session.close()


def _without(
    entries: list[tuple[Writer, dict[str, Any]]], writer: Writer
) -> list[tuple[Writer, dict[str, Any]]]:
    """``entries`` but those of ``writer``."""
    return [entry for entry in entries if entry[0] is not writer]


CommitObserver: TypeAlias = Callable[[int, float], None]
"""Told of every committed batch: how many writers it held and how long its commit took, in seconds."""


class WriteBatches:
    """Group commit of one process's write transactions (the module docstring tells how)."""

    def __init__(
        self,
        engine: AsyncEngine,
        cache: LiveGameCache,
        max_batch: int = MAX_BATCH,
        on_commit: CommitObserver | None = None,
    ) -> None:
        self._engine = engine
        self._on_commit = on_commit
        self.cache = cache
        self._max_batch = max_batch
        self._filling: Batch | None = None
        self._statements = asyncio.Lock()
        """Held by the batch whose writers run statements: from its begin until it has sent its last one."""
        self._depth = 1 if engine.dialect.name == "sqlite" else OPEN_TRANSACTIONS
        self._slots = asyncio.Semaphore(self._depth)
        """One per batch transaction open at once (SQLite: one, it has one writer at a time)."""
        self._committing: list[Batch] = []
        """The batches that sent their last statement and wait for their commit."""
        self._idle: list[AsyncConnection] = []
        """Write connections kept from batch to batch (a failed batch gives them all back to the pool)."""
        self._open: set[AsyncConnection] = set()
        self.commits = 0
        self.writes = 0

    @asynccontextmanager
    async def joined(self) -> AsyncIterator[Batch]:
        """The batch this writer joined, begun, for the length of the writer's body.

        Leaves once the batch has committed; raises :class:`DatabaseUnavailableError` when the
        batch was rolled back, and :class:`LostRaceError` when the writer's compare-and-set
        found another version (the body's own exception, if it raised, passes through).
        """
        writer = Writer()
        batch = self._join()
        try:
            async with batch.turn:
                if batch.failure is not None:
                    raise DatabaseUnavailableError("write batch rolled back") from batch.failure
                try:
                    await self._begin(batch)
                except BaseException as error:
                    batch.failure = batch.failure or error
                    raise
                batch.running = writer
                try:
                    yield batch
                except BaseException as error:
                    if _spoils_batch(error, writer):
                        batch.failure = batch.failure or error
                    else:
                        batch.discard(writer)
                    raise
                finally:
                    batch.running = None
                    if self._filling is batch:  # writers arriving from now on form the next batch
                        self._filling = None
        finally:
            batch.finished += 1
            if batch.finished == batch.joined:
                if self._filling is batch:  # closed to newcomers before the commit is even scheduled
                    self._filling = None
                await asyncio.shield(asyncio.ensure_future(self._end(batch)))
        failure = await asyncio.shield(batch.outcome)
        if failure is not None:
            raise DatabaseUnavailableError("write batch rolled back") from failure
        if writer.lost:
            raise LostRaceError("a game was changed by another writer; nothing of this write was kept")

    def _join(self) -> Batch:
        batch = self._filling
        if batch is None or batch.joined >= self._max_batch:
            batch = self._filling = Batch(self.cache)
        batch.joined += 1
        self.writes += 1
        return batch

    async def _begin(self, batch: Batch) -> None:
        if batch.begun:
            return
        await self._statements.acquire()
        try:
            await self._slots.acquire()
        except BaseException:
            self._statements.release()
            raise
        connection = None
        try:
            connection = self._idle.pop() if self._idle else await self._engine.connect()
            self._open.add(connection)
            await batch.begin(connection)
        except BaseException:
            if connection is not None:
                await self._give_back(connection, keep=False)
            self._slots.release()
            self._statements.release()
            raise
        self._committing = [previous for previous in self._committing if not previous.outcome.done()]
        batch.previous = tuple(self._committing)

    async def _give_back(self, connection: AsyncConnection, *, keep: bool) -> None:
        """Keep ``connection`` for the next batch, or give it back to the pool (after a failure)."""
        self._open.discard(connection)
        if keep:
            self._idle.append(connection)
            return
        try:
            await connection.close()
        except Exception as error:
            log.debug("Closing a write connection failed: %r", error)

    async def _after_batch(self, connection: AsyncConnection, *, failed: bool) -> None:
        """Keep a batch's connection for a next one; after a failure, give it back to the pool with
        the kept ones (what broke the batch, a server restarting, likely broke them too)."""
        if not failed and not connection.in_transaction():
            await self._give_back(connection, keep=True)
            return
        idle, self._idle = self._idle, []
        for broken in (connection, *idle):
            await self._give_back(broken, keep=False)

    async def close(self) -> None:
        """Give the write connections back, before the engine is disposed of.

        Waits for the batches still open, at most :data:`CLOSE_WAIT` seconds; then closes their
        connections under them (those batches fail: their writers hear "try again").
        """
        slots = 0
        statements = False
        try:
            async with asyncio.timeout(CLOSE_WAIT):
                await self._statements.acquire()
                statements = True
                for _ in range(self._depth):
                    await self._slots.acquire()
                    slots += 1
        except TimeoutError:
            log.warning("A write batch is still open at close; closing its connection")
        try:
            for connection in [*self._idle, *self._open]:
                await self._give_back(connection, keep=False)
            self._idle.clear()
        finally:
            for _ in range(slots):
                self._slots.release()
            if statements:
                self._statements.release()

    async def _end(self, batch: Batch) -> None:
        """Commit the batch (or roll it back after a failure) and tell every writer how it went.

        The next batch may begin, on another connection, once this one's bodies are done: the
        statement of what waits with this batch and its commit (on PostgreSQL, a round trip and
        a wait for the disk) overlap the next batch's writers (see :meth:`Batch.after_previous`).
        """
        if not batch.begun:  # every writer left before its body ran
            batch.outcome.set_result(batch.failure)
            return
        connection = batch.connection
        statements_held = True
        try:
            if batch.failure is None:
                try:
                    self._committing.append(batch)
                    statements_held = False
                    self._statements.release()
                    await batch.insert_moves()
                    started = time.perf_counter()
                    await connection.commit()
                except BaseException as error:
                    batch.failure = error
                else:
                    self.commits += 1
                    if self._on_commit is not None:
                        self._on_commit(batch.joined, time.perf_counter() - started)
            if batch.failure is not None:
                for game_id in batch.touched:
                    self.cache.drop(game_id)
                try:
                    await connection.rollback()
                except Exception as error:
                    log.debug("Rollback after a failed write batch failed too: %r", error)
        finally:
            batch.close_session()
            await self._after_batch(connection, failed=batch.failure is not None)
            if statements_held:
                self._statements.release()
            self._slots.release()
            batch.previous = ()
            batch.outcome.set_result(batch.failure)


def _spoils_batch(error: BaseException, writer: Writer) -> bool:
    """Whether a body's exception must roll back its whole batch.

    It must when the database failed underneath, when the body did not end normally
    (cancelled), or when a statement of the writer's own wrote (what still waits with
    the batch can be taken out alone).
    """
    if not isinstance(error, Exception) or isinstance(
        error, SQLAlchemyError | OSError | DatabaseUnavailableError
    ):
        return True
    return writer.wrote_directly
