"""Every query the bot makes, and nothing else: no rules live here.

A :class:`Repository` wraps one session inside one transaction (see
:class:`bot.db.database.Database`). Changes of a game's state go through
:meth:`Repository.apply`, a compare-and-set on the game's ``version``
(``UPDATE games ... WHERE id = :id AND version = :version``): when two writers
read the same version, the database applies exactly one of them, whether they
run in one process or in several processes sharing one PostgreSQL server; the
other hears :class:`~bot.db.errors.LostRaceError`.

In a write transaction the repository serves games from the process's
:class:`~bot.db.live_games.LiveGameCache` and keeps it current (see
:mod:`bot.db.live_games`); read transactions always ask the database.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Integer, Table, and_, delete, func, literal, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from bot.db import statements as sql
from bot.db.arena_queries import ArenaQueries
from bot.db.errors import LostRaceError
from bot.db.live_games import Batch, LiveGameCache
from bot.db.models import (
    Game,
    Move,
    Player,
    Rating,
    RatingChange,
    ServerChannel,
    ServerSettings,
    StoredReview,
)
from bot.db.transitions import columns
from bot.states import LIVE_STATUSES, GameStatus, Transition

_REVIEWS: Table = StoredReview.__table__  # type: ignore[assignment]
_SERVER_SETTINGS: Table = ServerSettings.__table__  # type: ignore[assignment]
_SERVER_CHANNELS: Table = ServerChannel.__table__  # type: ignore[assignment]


class Repository(ArenaQueries):
    """Queries in one transaction; the caller owns the transaction.

    Either over an ORM ``session`` (reads, and tests), or over a write ``batch`` with the
    process's ``cache``: games are then read from and kept in the cache, every write is noted
    on the batch, and the ORM session (for reads of models) is the batch's, made on first use.
    Writes are Core statements built once (:mod:`bot.db.statements`) on the transaction's
    connection; the games this repository returns are built from their rows
    (:func:`~bot.db.statements.game_from_row`) and belong to no session.
    """

    def __init__(
        self,
        session: AsyncSession | None = None,
        cache: LiveGameCache | None = None,
        batch: Batch | None = None,
    ) -> None:
        if session is None and batch is None:
            raise ValueError("a repository needs a session or a write batch")
        self._session = session
        self._cache = cache
        self._batch = batch
        self._connection: AsyncConnection | None = None

    @property
    def session(self) -> AsyncSession:
        """The ORM session of this transaction (in a write batch, the batch's, made on first use)."""
        if self._session is None:
            assert self._batch is not None
            self._session = self._batch.session()
        return self._session

    async def _conn(
        self,
        *,
        reads_games: bool = True,
        channel_id: int | None = None,
        players: Collection[int] | None = None,
    ) -> AsyncConnection:
        """The connection of this transaction, for Core statements.

        In a write batch, the changes waiting with the batch are settled first, so that the
        statement sees them decided (and a writer that lost hears of it here), unless the
        statement does not read games (``reads_games=False``) or reads only those of
        ``channel_id``, or only games ``players`` play, and none of them has a change waiting.
        """
        if self._batch is not None:
            if reads_games and self._batch.waits_for(channel_id=channel_id, players=players):
                await self._batch.settle()
            return self._batch.connection
        if self._connection is None:
            self._connection = await self.session.connection()
        return self._connection

    async def _orm(self) -> AsyncSession:
        """The ORM session of this transaction, for reads of models (waiting changes settled first)."""
        if self._batch is not None:
            await self._batch.settle()
        return self.session

    async def _rows(self, statement: Any, parameters: Any = None, **settling: Any) -> Sequence[sql.AnyRow]:
        result = await (await self._conn(**settling)).execute(statement, parameters)
        return result.all()

    def _writing(self) -> None:
        """Note that this transaction wrote (in a batch, a failure after this rolls back the whole batch)."""
        if self._batch is not None:
            self._batch.wrote()

    async def _write_conn(self) -> AsyncConnection:
        """The connection, for a statement that writes: settled first (see :meth:`_conn`), then noted."""
        connection = await self._conn()
        self._writing()
        return connection

    def _keep(self, game: Game) -> Game:
        """Make ``game`` the cached copy of its row (unless a batch still committing changed it:
        its copy stays, see :meth:`~bot.db.live_games.Batch.after_previous`)."""
        if self._batch is not None:
            self._batch.touched.add(game.id)
            if not self._batch.sees_settled(game.id):
                return game
        if self._cache is not None:
            self._cache.put(game)
        return game

    async def _cached(self, game_id: int) -> Game | None:
        """This process's copy of game ``game_id``, if it has one it may build on."""
        if self._cache is None:
            return None
        if self._batch is not None:
            await self._batch.after_previous(game_id)
            if game_id in self._batch.pending_sets:
                await self._batch.settle()  # a change waiting may yet not apply: never serve it
        return self._cache.get(game_id)

    # Players

    async def save_player(self, user_id: int, display_name: str, now: datetime) -> None:
        """Insert the player, or update their last known display name."""
        await self.save_players([(user_id, display_name)], now)

    async def save_players(self, players: Sequence[tuple[int, str]], now: datetime) -> None:
        """Insert each ``(user_id, display_name)``, or update the stored name: one statement for all.

        In a write batch this stays even when the writer then refuses: a display name is what
        Discord said, not something the writer decided, so it does not tie the writer to its
        batch (see :class:`~bot.db.live_games.WriteBatches`).
        """
        if not players:
            return
        connection = await self._conn(reads_games=False)
        rows = [
            {"id": user_id, "display_name": name, "created_at": now, "updated_at": now}
            for user_id, name in players
        ]
        await connection.execute(sql.upsert_player(connection.dialect.name), rows)

    async def display_names(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The stored display names of ``user_ids``, by id (unknown ids left out)."""
        wanted = set(user_ids)
        if not wanted:
            return {}
        rows = await self._rows(sql.DISPLAY_NAMES, {"ids": list(wanted)}, reads_games=False)
        return {row[0]: row[1] for row in rows}

    # Games

    async def game(self, game_id: int, *, cached: bool = False) -> Game | None:
        """The game ``game_id``; with ``cached``, this process's copy when it has one.

        A cached copy is as this process last committed or read it: another process may
        have changed the game since. A compare-and-set on it then fails, and a caller
        that refuses a request because of what the copy says should decide again on a
        fresh read (``cached=False``, which also refreshes the cache).
        """
        if cached:
            copy = await self._cached(game_id)
            if copy is not None:
                if self._batch is not None:
                    self._batch.touched.add(game_id)
                return copy
        rows = await self._rows(sql.GAME_BY_ID, {"id": game_id})
        return self._keep(sql.game_from_row(rows[0])) if rows else None

    async def live_game(self, channel_id: int) -> Game | None:
        """The pending or active game of a channel, if any."""
        rows = await self._rows(sql.LIVE_GAME, {"channel_id": channel_id}, channel_id=channel_id)
        return self._keep(sql.game_from_row(rows[0])) if rows else None

    async def latest_game(self, channel_id: int) -> Game | None:
        """The channel's most recently started game, live or not."""
        result = await (await self._orm()).execute(
            select(Game).where(Game.channel_id == channel_id).order_by(Game.id.desc()).limit(1)
        )
        return result.scalars().first()

    async def add_game(self, **values: Any) -> Game | None:
        """Insert a game; None when the channel already has a live one (the partial unique index):
        nothing is then written, and the transaction goes on."""
        connection = await self._conn(channel_id=values["channel_id"])
        rows = (await connection.execute(sql.insert_game(connection.dialect.name), values)).all()
        if not rows:
            return None
        self._writing()
        return self._keep(sql.game_from_row(rows[0]))

    async def update_game(self, game: Game, **values: Any) -> bool:
        """Compare-and-set, sent at once: apply ``values`` only if the stored version is ``game.version``.

        On success the version goes up by one and ``game`` shows the new values; on
        failure (another writer got there first) nothing changes and False is returned, and
        the game leaves the cache, so that its next use reads what the other writer stored.
        """
        if self._batch is not None:
            await self._batch.after_previous(game.id)
        expected = game.version
        values["version"] = expected + 1
        statement = sql.compare_and_set(tuple(sorted(values)))
        parameters = {**values, "_id": game.id, "_expected": expected}
        rows = (await (await self._conn()).execute(statement, parameters)).all()
        if len(rows) != 1:
            if self._cache is not None:
                self._cache.drop(game.id)
            return False
        self._writing()
        self._show(game, values)
        return True

    async def apply(self, game: Game, transition: Transition) -> None:
        """Compare-and-set ``transition`` on ``game``; ``game`` shows it at once.

        In a write batch, a writer's first write usually waits with the batch and is sent
        with the other writers' (see :meth:`~bot.db.live_games.Batch.defer_set`); whether it
        applied is known by the end of ``Database.write()``. Raises
        :class:`~bot.db.errors.LostRaceError` (here, at the writer's next statement, or when
        its ``write()`` ends) when another writer changed the game first: nothing of the
        writer's transaction is then kept.
        """
        values = columns(transition)
        if self._batch is None or not self._batch.can_defer_set(game.id):
            if not await self.update_game(game, **values):
                raise LostRaceError(f"game {game.id} was changed by another writer")
            return
        expected = game.version
        values["version"] = expected + 1
        self._batch.defer_set(game, expected, values)
        self._show(game, values)

    def _show(self, game: Game, values: dict[str, Any]) -> None:
        """Give ``game`` the values just written and make it the cached copy of its row."""
        for name, value in values.items():
            set_committed_value(game, name, value)
        self._keep(game)

    async def set_message(self, game_id: int, channel_id: int, message_id: int) -> bool:
        """Remember where the game's board message is; not a change of state, so no version bump.

        False when there is no such game. In a write batch, for a game this process has
        cached (so one that exists: games are never deleted), the update waits with the batch
        and is sent with the others (:meth:`~bot.db.live_games.Batch.defer_message`).
        """
        values = {"_id": game_id, "message_channel_id": channel_id, "message_id": message_id}
        cached = await self._cached(game_id)
        if self._batch is not None and cached is not None:
            self._batch.defer_message(values)
        else:
            if len((await (await self._conn()).execute(sql.SET_MESSAGE, values)).all()) != 1:
                return False
            self._writing()
        if cached is not None:
            set_committed_value(cached, "message_channel_id", channel_id)
            set_committed_value(cached, "message_id", message_id)
            self._keep(cached)
        return True

    async def last_game_created_by(self, user_id: int) -> Game | None:
        """The newest game (or challenge) ``user_id`` started."""
        rows = await self._rows(sql.LAST_GAME_CREATED_BY, {"user_id": user_id})
        return sql.game_from_row(rows[0]) if rows else None

    async def due_games(self, now: datetime, limit: int = 100) -> Sequence[Game]:
        """Live games whose deadline has passed, oldest deadline first."""
        result = await (await self._orm()).execute(
            select(Game)
            .where(Game.status.in_(LIVE_STATUSES), Game.deadline.is_not(None), Game.deadline <= now)
            .order_by(Game.deadline, Game.id)
            .limit(limit)
        )
        return result.scalars().all()

    async def live_game_count(self) -> int:
        """How many games are live (pending challenges and active games), in every channel."""
        result = await (await self._orm()).execute(
            select(func.count()).select_from(Game).where(Game.status.in_(LIVE_STATUSES))
        )
        return int(result.scalar_one())

    async def next_deadline(self) -> datetime | None:
        """The earliest deadline of a live game, if any."""
        result = await (await self._orm()).execute(
            select(Game.deadline)
            .where(Game.status.in_(LIVE_STATUSES), Game.deadline.is_not(None))
            .order_by(Game.deadline)
            .limit(1)
        )
        return result.scalar_one_or_none()

    async def games_awaiting_bot(
        self, limit: int = 1000, shards: tuple[int, Sequence[int]] | None = None
    ) -> Sequence[Game]:
        """Active games in which it is the bot's turn (X moves at even plies, O at odd ones).

        ``shards=(count, ids)`` keeps the games of guilds whose ``(guild_id >> 22) % count`` is in ``ids``,
        and the games outside guilds on shard 0 (where Discord sends direct messages' events).
        """
        bot_is_x = and_(Game.x_player_id.is_(None), Game.ply % 2 == 0)
        bot_is_o = and_(Game.o_player_id.is_(None), Game.ply % 2 == 1)
        query = select(Game).where(Game.status == GameStatus.ACTIVE, or_(bot_is_x, bot_is_o))
        if shards is not None:
            count, ids = shards
            shard = Game.guild_id.op(">>")(literal(22, Integer)) % count
            owned = shard.in_(list(ids))
            query = query.where(or_(owned, Game.guild_id.is_(None)) if 0 in ids else owned)
        result = await (await self._orm()).execute(query.order_by(Game.updated_at, Game.id).limit(limit))
        return result.scalars().all()

    async def finished_games_of(self, user_id: int) -> Sequence[Game]:
        """Every finished game the user played, oldest first."""
        result = await (await self._orm()).execute(
            select(Game)
            .where(
                or_(Game.x_player_id == user_id, Game.o_player_id == user_id),
                Game.status == GameStatus.FINISHED,
            )
            .order_by(Game.finished_at, Game.id)
        )
        return result.scalars().all()

    async def latest_finished_games(self, user_id: int, guild_id: int | None, limit: int) -> Sequence[Game]:
        """The user's finished games in one server (``guild_id``; None: outside servers), newest first."""
        result = await (await self._orm()).execute(
            select(Game)
            .where(
                or_(Game.x_player_id == user_id, Game.o_player_id == user_id),
                Game.status == GameStatus.FINISHED,
                Game.guild_id.is_(None) if guild_id is None else Game.guild_id == guild_id,
            )
            .order_by(Game.finished_at.desc(), Game.id.desc())
            .limit(limit)
        )
        return result.scalars().all()

    async def games_between_since(self, a: int, b: int, since: datetime, exclude_game_id: int) -> int:
        """How many finished games the two players played against each other since ``since``."""
        rows = await self._rows(
            sql.GAMES_BETWEEN_SINCE,
            {"a": a, "b": b, "since": since, "exclude": exclude_game_id},
            players=(a, b),
        )
        return int(rows[0][0])

    # Moves

    async def add_moves(
        self, game_id: int, moves: Sequence[tuple[int, int, str, int | None]], played_at: datetime
    ) -> None:
        """Insert consecutive moves of a game, each ``(ply, cell, mark, player_id)``.

        In a write batch the rows join the batch's pending moves, inserted together right
        before its commit (:class:`~bot.db.live_games.Batch`); otherwise at once.
        """
        rows = [
            {
                "game_id": game_id,
                "ply": ply,
                "cell": cell,
                "mark": mark,
                "player_id": player_id,
                "played_at": played_at,
            }
            for ply, cell, mark, player_id in moves
        ]
        if self._batch is not None:
            self._batch.add_moves(rows)
            return
        await sql.insert_rows(await self._write_conn(), sql.MOVES, sql.MOVE_KEYS, rows)

    async def moves(self, game_id: int) -> Sequence[Move]:
        """The moves of game ``game_id`` in ply order."""
        if self._batch is not None:
            await self._batch.insert_moves()
        query = select(Move).where(Move.game_id == game_id).order_by(Move.ply)
        result = await (await self._orm()).execute(query)
        return result.scalars().all()

    # Ratings

    async def lock_ratings(
        self, player_ids: Sequence[int], scopes: Sequence[int], initial: float, now: datetime
    ) -> dict[tuple[int, int], Rating]:
        """The rating rows of these players in these scopes, created at ``initial`` if missing,
        locked for this transaction (in a fixed order, so two games ending at once cannot deadlock).

        On PostgreSQL one statement (:func:`~bot.db.statements.lock_ratings_at_once`, one round
        trip); on SQLite an insert of the missing rows, then a read. The ratings returned belong
        to no session: change them, then store them with :meth:`record_ratings`.
        """
        connection = await self._write_conn()
        rows = [
            {
                "player_id": player_id,
                "scope": scope,
                "rating": initial,
                "best_rating": initial,
                "games": 0,
                "wins": 0,
                "losses": 0,
                "draws": 0,
                "updated_at": now,
            }
            for scope in sorted(set(scopes))
            for player_id in sorted(set(player_ids))
        ]
        if connection.dialect.name == "postgresql":
            arrays = sql.arrays_of(rows, sql.RATING_KEYS)
            found = (await connection.execute(sql.lock_ratings_at_once(), arrays)).all()
        else:
            await sql.insert_rows(connection, sql.RATINGS, sql.RATING_KEYS, rows, or_ignore=True)
            wanted = {"players": list(player_ids), "scopes": list(scopes)}
            found = await self._rows(sql.RATINGS_FOR_UPDATE, wanted)
        ratings = [sql.model_from_row(Rating, sql.RATING_KEYS, row) for row in found]
        return {(rating.player_id, rating.scope): rating for rating in ratings}

    async def record_ratings(
        self,
        ratings: Iterable[Rating],
        game_id: int,
        changes: Sequence[tuple[int, int, float]],
        played_at: datetime,
    ) -> None:
        """Store ratings of :meth:`lock_ratings` as they now stand, and record each player's
        rating in a scope after game ``game_id``, ``(player_id, scope, rating)``.

        On PostgreSQL one statement (:func:`~bot.db.statements.record_ratings_at_once`, one round
        trip); on SQLite, where a statement costs microseconds in the process, one for each table.
        """
        new = [
            {"_player_id": rating.player_id, "_scope": rating.scope}
            | {name: getattr(rating, name) for name in sql.RATING_VALUES}
            for rating in ratings
        ]
        recorded = [
            {"player_id": p, "scope": scope, "game_id": game_id, "rating": rating, "played_at": played_at}
            for p, scope, rating in changes
        ]
        if not new and not recorded:
            return
        connection = await self._write_conn()
        if connection.dialect.name == "postgresql":
            arrays = sql.arrays_of(new, ("_player_id", "_scope", *sql.RATING_VALUES), prefix="new_")
            arrays |= sql.arrays_of(recorded, sql.RATING_CHANGE_KEYS, prefix="change_")
            await connection.execute(sql.record_ratings_at_once(), arrays)
            return
        if new:
            await connection.execute(sql.UPDATE_RATING, new)
        if recorded:
            await sql.insert_rows(connection, sql.RATING_CHANGES, sql.RATING_CHANGE_KEYS, recorded)

    async def stored_review(self, game_id: int) -> str | None:
        """The review kept for a game (its moves as JSON), if one was computed."""
        review = await (await self._orm()).get(StoredReview, game_id)
        return None if review is None else review.moves

    async def store_review(self, game_id: int, moves: str, now: datetime) -> None:
        """Keep a game's review; a review another process stored first stays."""
        connection = await self._write_conn()
        statement = sql.dialect_insert(connection.dialect.name, _REVIEWS)
        statement = statement.values(game_id=game_id, moves=moves, created_at=now).on_conflict_do_nothing()
        await connection.execute(statement)

    async def rating_changes(self, player_id: int, scope: int) -> Sequence[RatingChange]:
        """The player's rating after each rated game in ``scope``, oldest first."""
        result = await (await self._orm()).execute(
            select(RatingChange)
            .where(RatingChange.player_id == player_id, RatingChange.scope == scope)
            .order_by(RatingChange.played_at, RatingChange.game_id)
        )
        return result.scalars().all()

    async def rating(self, player_id: int, scope: int) -> Rating | None:
        """The rating of ``player_id`` in ``scope``, if rated there."""
        return await (await self._orm()).get(Rating, (player_id, scope))

    async def leaderboard(self, scope: int, min_games: int, limit: int) -> Sequence[tuple[Rating, str]]:
        """The best rated players of a scope who have at least ``min_games`` rated games."""
        result = await (await self._orm()).execute(
            select(Rating, Player.display_name)
            .join(Player, Player.id == Rating.player_id)
            .where(Rating.scope == scope, Rating.games >= min_games)
            .order_by(Rating.rating.desc(), Rating.games.desc(), Rating.player_id)
            .limit(limit)
        )
        return [(rating, name) for rating, name in result.all()]

    async def rank(self, player_id: int, scope: int, min_games: int) -> int | None:
        """The player's place on the scope's leaderboard, or None when they are not ranked."""
        own = await self.rating(player_id, scope)
        if own is None or own.games < min_games:
            return None
        result = await (await self._orm()).execute(
            select(func.count())
            .select_from(Rating)
            .where(Rating.scope == scope, Rating.games >= min_games, Rating.rating > own.rating)
        )
        return int(result.scalar_one()) + 1

    # Server settings

    async def server_language(self, guild_id: int) -> str | None:
        """The language a server chose for its public messages; None when it never chose, or chose auto."""
        rows = await self._rows(select(ServerSettings.language).where(ServerSettings.guild_id == guild_id))
        return rows[0][0] if rows else None

    async def set_server_language(self, guild_id: int, language: str | None, now: datetime) -> None:
        """Set (None: clear) the language of the server ``guild_id``."""
        connection = await self._write_conn()
        statement = sql.dialect_insert(connection.dialect.name, _SERVER_SETTINGS)
        statement = statement.values(guild_id=guild_id, language=language, updated_at=now)
        statement = statement.on_conflict_do_update(
            index_elements=[ServerSettings.guild_id], set_={"language": language, "updated_at": now}
        )
        await connection.execute(statement)

    async def server_settings(self, guild_id: int) -> ServerSettings | None:
        """The server's stored settings (a copy that belongs to no session); None when it never chose any."""
        connection = await self._conn(reads_games=False)
        result = await connection.execute(
            select(_SERVER_SETTINGS).where(_SERVER_SETTINGS.c.guild_id == guild_id)
        )
        row = result.mappings().first()
        return None if row is None else ServerSettings(**row)

    async def server_channels(self, guild_id: int) -> list[int]:
        """The channels where the server allows games to be started, by id; empty: every channel."""
        statement = (
            select(ServerChannel.channel_id)
            .where(ServerChannel.guild_id == guild_id)
            .order_by(ServerChannel.channel_id)
        )
        return [row[0] for row in await self._rows(statement, reads_games=False)]

    async def update_server_settings(
        self, guild_id: int, values: Mapping[str, object], now: datetime
    ) -> None:
        """Set the given columns of the server's settings (its row is created if needed); the others stay."""
        changes = {**values, "updated_at": now}
        connection = await self._write_conn()
        statement = sql.dialect_insert(connection.dialect.name, _SERVER_SETTINGS)
        statement = statement.values(guild_id=guild_id, **changes)
        statement = statement.on_conflict_do_update(index_elements=[ServerSettings.guild_id], set_=changes)
        await connection.execute(statement)

    async def add_server_channel(self, guild_id: int, channel_id: int) -> None:
        """Allow games in ``channel_id`` (nothing happens when it is allowed already)."""
        connection = await self._write_conn()
        statement = sql.dialect_insert(connection.dialect.name, _SERVER_CHANNELS)
        await connection.execute(
            statement.values(guild_id=guild_id, channel_id=channel_id).on_conflict_do_nothing()
        )

    async def remove_server_channel(self, guild_id: int, channel_id: int) -> None:
        """Take ``channel_id`` off the server's channels for games."""
        connection = await self._write_conn()
        await connection.execute(
            delete(_SERVER_CHANNELS).where(
                _SERVER_CHANNELS.c.guild_id == guild_id, _SERVER_CHANNELS.c.channel_id == channel_id
            )
        )
