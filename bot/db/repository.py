"""Every query the bot makes, and nothing else: no rules live here.

A :class:`Repository` runs Core statements on one connection, in a transaction its caller owns
(see :class:`bot.db.database.Database`). A change of a game is :meth:`Repository.apply`, a
compare-and-set on its ``version``: when two writers read the same version, the database applies
exactly one of them, in one process or in several sharing one PostgreSQL server; the other hears
:class:`~bot.db.errors.LostRaceError`. Games come back as immutable
:class:`~bot.db.models.GameRecord` values, other rows as models that belong to no session. In
a write batch, games are read from and kept in the batch's overlay and the process's cache (see
:mod:`bot.db.live_games`); a read transaction always asks the database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Integer, and_, delete, func, literal, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.orm import DeclarativeBase

from bot.db import models
from bot.db import statements as sql
from bot.db.arena_queries import ArenaQueries
from bot.db.errors import LostRaceError
from bot.db.live_games import Batch, GameCache
from bot.db.models import GameRecord, Rating, RatingChange, ServerSettings
from bot.db.transitions import columns
from bot.states import LIVE_STATUSES, GameStatus, Transition

M = TypeVar("M", bound=DeclarativeBase)
Move = tuple[int, int, str, int | None]
"""A move to store: ``(ply, cell, mark, player_id)``."""
G = sql.GAMES.c
LIVE = G.status.in_(LIVE_STATUSES)


class Repository(ArenaQueries):
    """Queries on ``connection``; in a write ``batch``, with the process's game ``cache``."""

    def __init__(
        self, connection: AsyncConnection, batch: Batch | None = None, cache: GameCache | None = None
    ):
        self._connection = connection
        self._batch = batch
        self._cache = cache
        self._dialect = connection.dialect.name

    def _write_conn(self) -> AsyncConnection:
        """The connection, for a statement that writes: in a batch, a failure after it fails the batch."""
        if self._batch is not None:
            self._batch.writes += 1
        return self._connection

    async def _rows(self, statement: Any, parameters: Any = None) -> Sequence[Any]:
        return (await self._connection.execute(statement, parameters)).mappings().all()

    async def _models(self, model: type[M], statement: Any, parameters: Any = None) -> list[M]:
        return [model(**row) for row in await self._rows(statement, parameters)]

    async def _games(self, statement: Any, parameters: Any = None) -> list[GameRecord]:
        return [self._keep(GameRecord(**row)) for row in await self._rows(statement, parameters)]

    async def _game(self, statement: Any, parameters: Any = None) -> GameRecord | None:
        return next(iter(await self._games(statement, parameters)), None)

    def _keep(self, game: GameRecord) -> GameRecord:
        """Note ``game`` as this write transaction sees it (the cache's once the batch commits)."""
        return self._batch.keep(game) if self._batch is not None else game

    def _known(self, game_id: int) -> GameRecord | None:
        """The batch's record of game ``game_id``, else the process's committed one, if any."""
        if self._batch is None or self._cache is None:
            return None
        return self._batch.overlay.get(game_id) or self._cache.get(game_id)

    # Players

    async def save_players(self, players: Sequence[tuple[int, str]], now: datetime) -> None:
        """Insert each ``(user_id, display_name)``, or update the stored name. Not a write of the
        batch: a name is what Discord said, not the writer's decision, so it binds no writer."""
        rows = [{"id": i, "display_name": name, "created_at": now, "updated_at": now} for i, name in players]
        if rows:
            await self._connection.execute(sql.upsert_player(self._dialect), rows)

    async def display_names(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The stored display names of ``user_ids``, by id (unknown ids left out)."""
        wanted = list(set(user_ids))
        rows = await self._rows(sql.DISPLAY_NAMES, {"ids": wanted}) if wanted else []
        return {row["id"]: row["display_name"] for row in rows}

    # Games

    async def game(self, game_id: int, *, cached: bool = False) -> GameRecord | None:
        """The game ``game_id``; with ``cached``, this process's record when it has one.

        A cached record is as this process last committed it: another process may have changed
        the game since. A compare-and-set on it then fails, and a caller that refuses a request
        because of what the record says should decide again on a fresh read.
        """
        known = self._known(game_id) if cached else None
        return known or await self._game(sql.GAME_BY_ID, {"id": game_id})

    async def live_game(self, channel_id: int) -> GameRecord | None:
        """The pending or active game of a channel, if any."""
        return await self._game(sql.LIVE_GAME, {"channel_id": channel_id})

    async def latest_game(self, channel_id: int) -> GameRecord | None:
        """The channel's most recently started game, live or not."""
        return await self._game(
            select(sql.GAMES).where(G.channel_id == channel_id).order_by(G.id.desc()).limit(1)
        )

    async def add_game(self, **values: Any) -> GameRecord | None:
        """Insert a game; None when the channel already has a live one (the partial unique index):
        nothing is then written, and the transaction goes on."""
        game = await self._game(sql.insert_game(self._dialect), values)
        if game is not None:
            self._write_conn()
        return game

    async def apply(self, game: GameRecord, transition: Transition, moves: Sequence[Move] = ()) -> GameRecord:
        """Compare-and-set ``transition`` on ``game`` and insert its ``moves`` (each ``(ply, cell,
        mark, player_id)``, played at the change's ``updated_at``) if it applied: the game as changed,
        or :class:`~bot.db.errors.LostRaceError` when another writer changed it first."""
        values = columns(transition) | {"version": game.version + 1}
        rows = [_move_row(game.id, move, values["updated_at"]) for move in moves]
        parameters = {**values, "_id": game.id, "_expected": game.version}
        if not await self._set(tuple(sorted(values)), parameters, rows):
            if self._batch is not None and self._cache is not None:
                self._batch.overlay.pop(game.id, None)
                self._cache.drop(game.id)
            raise LostRaceError(f"game {game.id} was changed by another writer")
        self._write_conn()
        return self._keep(game.but(**values))

    async def _set(
        self, columns: tuple[str, ...], parameters: dict[str, Any], moves: list[dict[str, Any]]
    ) -> bool:
        """Compare-and-set ``columns`` and, if it applied, insert ``moves``: whether it applied."""
        if not await self._rows(sql.compare_and_set(columns), parameters):
            return False
        if moves:
            await self._connection.execute(sql.MOVES.insert(), moves)
        return True

    async def set_message(self, game_id: int, channel_id: int, message_id: int) -> int | None:
        """Remember where the game's board message is (no version bump): the game's version, or None
        when there is no such game."""
        values = {"_id": game_id, "message_channel_id": channel_id, "message_id": message_id}
        rows = await self._rows(sql.SET_MESSAGE, values)
        if not rows:
            return None
        self._write_conn()
        known = self._known(game_id)
        if known is not None:
            self._keep(known.but(message_channel_id=channel_id, message_id=message_id))
        return int(rows[0]["version"])

    async def last_game_created_by(self, user_id: int) -> GameRecord | None:
        """The newest game (or challenge) ``user_id`` started."""
        return await self._game(sql.LAST_GAME_CREATED_BY, {"user_id": user_id})

    async def due_games(self, now: datetime, limit: int = 100) -> Sequence[GameRecord]:
        """Live games whose deadline has passed, oldest deadline first."""
        due = select(sql.GAMES).where(LIVE, G.deadline.is_not(None), G.deadline <= now)
        return await self._games(due.order_by(G.deadline, G.id).limit(limit))

    async def live_game_count(self) -> int:
        """How many games are live (pending challenges and active games), in every channel."""
        return int((await self._connection.execute(select(func.count()).where(LIVE))).scalar_one())

    async def next_deadline(self) -> datetime | None:
        """The earliest deadline of a live game, if any."""
        earliest = select(func.min(G.deadline)).where(LIVE)
        found: datetime | None = (await self._connection.execute(earliest)).scalar_one()
        return found

    async def games_awaiting_bot(
        self, limit: int = 1000, shards: tuple[int, Sequence[int]] | None = None
    ) -> Sequence[GameRecord]:
        """Active games in which it is the bot's turn (X moves at even plies, O at odd ones).

        ``shards=(count, ids)`` keeps the games of guilds whose ``(guild_id >> 22) % count`` is in ``ids``,
        and the games outside guilds on shard 0 (where Discord sends direct messages' events).
        """
        bot_is_x = and_(G.x_player_id.is_(None), G.ply % 2 == 0)
        bot_is_o = and_(G.o_player_id.is_(None), G.ply % 2 == 1)
        query = select(sql.GAMES).where(G.status == GameStatus.ACTIVE, or_(bot_is_x, bot_is_o))
        if shards is not None:
            count, ids = shards
            owned = (G.guild_id.op(">>")(literal(22, Integer)) % count).in_(list(ids))
            query = query.where(or_(owned, G.guild_id.is_(None)) if 0 in ids else owned)
        return await self._games(query.order_by(G.updated_at, G.id).limit(limit))

    async def finished_games_of(self, user_id: int) -> Sequence[GameRecord]:
        """Every finished game the user played, oldest first."""
        played = or_(G.x_player_id == user_id, G.o_player_id == user_id)
        query = select(sql.GAMES).where(played, G.status == GameStatus.FINISHED)
        return await self._games(query.order_by(G.finished_at, G.id))

    async def latest_finished_games(
        self, user_id: int, guild_id: int | None, limit: int
    ) -> Sequence[GameRecord]:
        """The user's finished games in one server (``guild_id``; None: outside servers), newest first."""
        played = or_(G.x_player_id == user_id, G.o_player_id == user_id)
        where = G.guild_id.is_(None) if guild_id is None else G.guild_id == guild_id
        query = select(sql.GAMES).where(played, G.status == GameStatus.FINISHED, where)
        return await self._games(query.order_by(G.finished_at.desc(), G.id.desc()).limit(limit))

    async def games_between_since(self, a: int, b: int, since: datetime, exclude_game_id: int) -> int:
        """How many finished games the two players played against each other since ``since``."""
        parameters = {"a": a, "b": b, "since": since, "exclude": exclude_game_id}
        return int((await self._connection.execute(sql.GAMES_BETWEEN_SINCE, parameters)).scalar_one())

    # Moves

    async def moves(self, game_id: int) -> Sequence[models.Move]:
        """The moves of game ``game_id`` in ply order."""
        moves = sql.MOVES.c
        return await self._models(
            models.Move, select(sql.MOVES).where(moves.game_id == game_id).order_by(moves.ply)
        )

    # Ratings

    async def lock_ratings(
        self, player_ids: Sequence[int], scopes: Sequence[int], initial: float, now: datetime
    ) -> dict[tuple[int, int], Rating]:
        """The rating rows of these players in these scopes, created at ``initial`` if missing, locked for
        this transaction (in a fixed order, so two games ending at once cannot deadlock). They belong to
        no session: change them, then store them with :meth:`record_ratings`."""
        start = {"rating": initial, "best_rating": initial, "games": 0, "wins": 0, "losses": 0, "draws": 0}
        rows = [
            {"player_id": player_id, "scope": scope, "updated_at": now, **start}
            for scope in sorted(set(scopes))
            for player_id in sorted(set(player_ids))
        ]
        await self._write_conn().execute(sql.insert_or_ignore(self._dialect, sql.RATINGS), rows)
        wanted = {"players": list(player_ids), "scopes": list(scopes)}
        return {(r.player_id, r.scope): r for r in await self._models(Rating, sql.RATINGS_FOR_UPDATE, wanted)}

    async def record_ratings(
        self,
        ratings: Iterable[Rating],
        game_id: int,
        changes: Sequence[tuple[int, int, float]],
        played_at: datetime,
    ) -> None:
        """Store ratings of :meth:`lock_ratings` as they now stand, and each player's rating in a scope
        after game ``game_id``, ``(player_id, scope, rating)``."""
        new = [
            {"_player_id": r.player_id, "_scope": r.scope}
            | {name: getattr(r, name) for name in sql.RATING_VALUES}
            for r in ratings
        ]
        recorded = [
            {"player_id": p, "scope": scope, "game_id": game_id, "rating": rating, "played_at": played_at}
            for p, scope, rating in changes
        ]
        connection = self._write_conn()
        if new:
            await connection.execute(sql.UPDATE_RATING, new)
        if recorded:
            await connection.execute(sql.RATING_CHANGES.insert(), recorded)

    async def rating_changes(self, player_id: int, scope: int) -> Sequence[RatingChange]:
        """The player's rating after each rated game in ``scope``, oldest first."""
        c = sql.RATING_CHANGES.c
        query = select(sql.RATING_CHANGES).where(c.player_id == player_id, c.scope == scope)
        return await self._models(RatingChange, query.order_by(c.played_at, c.game_id))

    async def rating(self, player_id: int, scope: int) -> Rating | None:
        """The rating of ``player_id`` in ``scope``, if rated there."""
        c = sql.RATINGS.c
        found = await self._models(
            Rating, select(sql.RATINGS).where(c.player_id == player_id, c.scope == scope)
        )
        return next(iter(found), None)

    async def leaderboard(self, scope: int, min_games: int, limit: int) -> Sequence[tuple[Rating, str]]:
        """The best rated players of a scope who have at least ``min_games`` rated games."""
        c = sql.RATINGS.c
        query = select(sql.RATINGS, sql.PLAYERS.c.display_name).join(
            sql.PLAYERS, sql.PLAYERS.c.id == c.player_id
        )
        query = query.where(c.scope == scope, c.games >= min_games)
        rows = await self._rows(query.order_by(c.rating.desc(), c.games.desc(), c.player_id).limit(limit))
        return [(Rating(**{col.key: row[col.key] for col in c}), row["display_name"]) for row in rows]

    async def rank(self, player_id: int, scope: int, min_games: int) -> int | None:
        """The player's place on the scope's leaderboard, or None when they are not ranked."""
        own = await self.rating(player_id, scope)
        if own is None or own.games < min_games:
            return None
        c = sql.RATINGS.c
        better = select(func.count()).where(c.scope == scope, c.games >= min_games, c.rating > own.rating)
        return int((await self._connection.execute(better)).scalar_one()) + 1

    # Reviews and server settings

    async def stored_review(self, game_id: int) -> str | None:
        """The review kept for a game (its moves as JSON), if one was computed."""
        query = select(sql.REVIEWS.c.moves).where(sql.REVIEWS.c.game_id == game_id)
        moves: str | None = (await self._connection.execute(query)).scalar_one_or_none()
        return moves

    async def store_review(self, game_id: int, moves: str, now: datetime) -> None:
        """Keep a game's review; a review another process stored first stays."""
        statement = sql.insert_or_ignore(self._dialect, sql.REVIEWS)
        await self._write_conn().execute(statement, {"game_id": game_id, "moves": moves, "created_at": now})

    async def server_settings(self, guild_id: int) -> ServerSettings | None:
        """The server's stored settings (a copy that belongs to no session); None when it never chose any."""
        table = sql.SERVER_SETTINGS
        return next(
            iter(await self._models(ServerSettings, select(table).where(table.c.guild_id == guild_id))), None
        )

    async def server_channels(self, guild_id: int) -> list[int]:
        """The channels where the server allows games to be started, by id; empty: every channel."""
        c = sql.SERVER_CHANNELS.c
        query = select(c.channel_id).where(c.guild_id == guild_id).order_by(c.channel_id)
        return list((await self._connection.execute(query)).scalars())

    async def update_server_settings(
        self, guild_id: int, values: Mapping[str, object], now: datetime
    ) -> None:
        """Set the given columns of the server's settings (its row is created if needed); the others stay."""
        changes = {**values, "updated_at": now}
        statement = sql.dialect_insert(self._dialect, sql.SERVER_SETTINGS).values(
            guild_id=guild_id, **changes
        )
        statement = statement.on_conflict_do_update(
            index_elements=[sql.SERVER_SETTINGS.c.guild_id], set_=changes
        )
        await self._write_conn().execute(statement)

    async def add_server_channel(self, guild_id: int, channel_id: int) -> None:
        """Allow games in ``channel_id`` (nothing happens when it is allowed already)."""
        statement = sql.insert_or_ignore(self._dialect, sql.SERVER_CHANNELS)
        await self._write_conn().execute(statement, {"guild_id": guild_id, "channel_id": channel_id})

    async def remove_server_channel(self, guild_id: int, channel_id: int) -> None:
        """Take ``channel_id`` off the server's channels for games."""
        c = sql.SERVER_CHANNELS.c
        statement = delete(sql.SERVER_CHANNELS).where(c.guild_id == guild_id, c.channel_id == channel_id)
        await self._write_conn().execute(statement)


class PostgresRepository(Repository):
    """PostgreSQL, where a statement is a round trip: a move's change and its rows go in one."""

    async def _set(
        self, columns: tuple[str, ...], parameters: dict[str, Any], moves: list[dict[str, Any]]
    ) -> bool:
        if not moves:
            return bool(await self._rows(sql.compare_and_set(columns), parameters))
        rows = {f"{key}_{i}": value for i, row in enumerate(moves) for key, value in row.items()}
        return bool(await self._rows(sql.compare_and_set_with_moves(columns, len(moves)), parameters | rows))


def _move_row(game_id: int, move: Move, played_at: datetime) -> dict[str, Any]:
    ply, cell, mark, player_id = move
    return {
        "game_id": game_id,
        "ply": ply,
        "cell": cell,
        "mark": mark,
        "player_id": player_id,
        "played_at": played_at,
    }
