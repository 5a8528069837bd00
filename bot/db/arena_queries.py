"""The queries of arenas: their lobby, players, rounds and pairings. No rules: the service decides.

Mixed into :class:`~bot.db.repository.Repository`, so they run in its transaction. Rows come back
as model objects that belong to no session.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Table, delete, exists, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.db import statements as sql
from bot.db.models import Arena, ArenaPairing, ArenaPlayer, ArenaRound, Game
from bot.states import LIVE_STATUSES, ArenaStatus, GameResult, GameStatus

ARENAS: Table = Arena.__table__  # type: ignore[assignment]
ARENA_PLAYERS: Table = ArenaPlayer.__table__  # type: ignore[assignment]
ARENA_ROUNDS: Table = ArenaRound.__table__  # type: ignore[assignment]
ARENA_PAIRINGS: Table = ArenaPairing.__table__  # type: ignore[assignment]
GAMES: Table = Game.__table__  # type: ignore[assignment]

LIVE_ARENA_STATUSES = (ArenaStatus.OPEN, ArenaStatus.RUNNING)


class ArenaQueries:
    """Arena queries of a :class:`~bot.db.repository.Repository`, which supplies its connection."""

    _connection: AsyncConnection

    def _write_conn(self) -> AsyncConnection:
        raise NotImplementedError

    async def _read(self, statement: Any) -> Sequence[Any]:
        return (await self._connection.execute(statement)).mappings().all()

    # Arenas

    async def add_arena(self, **values: Any) -> Arena | None:
        """Insert an arena; None when its channel already has a live one (nothing is then written)."""
        connection = self._write_conn()
        statement = sql.dialect_insert(connection.dialect.name, ARENAS).on_conflict_do_nothing()
        rows = (await connection.execute(statement.returning(*ARENAS.columns), values)).mappings().all()
        return Arena(**rows[0]) if rows else None

    async def arena(self, arena_id: int) -> Arena | None:
        """The arena ``arena_id``, if there is one."""
        rows = await self._read(select(ARENAS).where(ARENAS.c.id == arena_id))
        return Arena(**rows[0]) if rows else None

    async def live_arena(self, channel_id: int) -> Arena | None:
        """The channel's open or running arena, if any."""
        rows = await self._read(
            select(ARENAS).where(ARENAS.c.channel_id == channel_id, ARENAS.c.status.in_(LIVE_ARENA_STATUSES))
        )
        return Arena(**rows[0]) if rows else None

    async def latest_arena(self, guild_id: int) -> Arena | None:
        """The server's newest live arena, else its newest arena; None when it never had one."""
        live_first = ARENAS.c.status.in_(LIVE_ARENA_STATUSES).desc()
        rows = await self._read(
            select(ARENAS)
            .where(ARENAS.c.guild_id == guild_id)
            .order_by(live_first, ARENAS.c.id.desc())
            .limit(1)
        )
        return Arena(**rows[0]) if rows else None

    async def due_arenas(self, now: datetime, limit: int = 100) -> list[Arena]:
        """Open arenas whose lobby time is up, the earliest first."""
        rows = await self._read(
            select(ARENAS)
            .where(ARENAS.c.status == ArenaStatus.OPEN, ARENAS.c.starts_at <= now)
            .order_by(ARENAS.c.starts_at, ARENAS.c.id)
            .limit(limit)
        )
        return [Arena(**row) for row in rows]

    async def next_lobby_close(self) -> datetime | None:
        """When the earliest open arena's lobby closes; None when no arena is open."""
        rows = await self._read(
            select(func.min(ARENAS.c.starts_at).label("at")).where(ARENAS.c.status == ArenaStatus.OPEN)
        )
        at: datetime | None = rows[0]["at"] if rows else None
        return at

    async def arenas_with_status(self, status: ArenaStatus) -> list[Arena]:
        """Every arena with ``status``, oldest first."""
        rows = await self._read(select(ARENAS).where(ARENAS.c.status == status).order_by(ARENAS.c.id))
        return [Arena(**row) for row in rows]

    async def finished_arenas_of(self, player_id: int) -> list[Arena]:
        """The finished arenas ``player_id`` played in, the latest first."""
        entered = exists().where(
            ARENA_PLAYERS.c.arena_id == ARENAS.c.id, ARENA_PLAYERS.c.player_id == player_id
        )
        rows = await self._read(
            select(ARENAS)
            .where(ARENAS.c.status == ArenaStatus.FINISHED, entered)
            .order_by(ARENAS.c.finished_at.desc(), ARENAS.c.id.desc())
        )
        return [Arena(**row) for row in rows]

    async def update_arena(self, arena: Arena, **values: Any) -> bool:
        """Compare-and-set: apply ``values`` only if the stored version is ``arena.version``.

        On success the version goes up by one and ``arena`` shows the new values; False when
        another writer changed the arena first (nothing is then written).
        """
        connection = self._write_conn()
        changes = {**values, "version": arena.version + 1}
        result = await connection.execute(
            update(ARENAS).where(ARENAS.c.id == arena.id, ARENAS.c.version == arena.version).values(**changes)
        )
        if result.rowcount != 1:
            return False
        for name, value in changes.items():
            setattr(arena, name, value)
        return True

    # Players

    async def arena_players(self, arena_id: int) -> list[ArenaPlayer]:
        """The arena's players, by seed (then by who joined first)."""
        rows = await self._read(
            select(ARENA_PLAYERS)
            .where(ARENA_PLAYERS.c.arena_id == arena_id)
            .order_by(ARENA_PLAYERS.c.seed, ARENA_PLAYERS.c.joined_at, ARENA_PLAYERS.c.player_id)
        )
        return [ArenaPlayer(**row) for row in rows]

    async def add_arena_player(self, arena_id: int, player_id: int, now: datetime) -> bool:
        """Add a player, seeded after everyone there; False when they are in the arena already."""
        connection = self._write_conn()
        next_seed = (
            select(func.coalesce(func.max(ARENA_PLAYERS.c.seed), 0) + 1)
            .where(ARENA_PLAYERS.c.arena_id == arena_id)
            .scalar_subquery()
        )
        statement = sql.dialect_insert(connection.dialect.name, ARENA_PLAYERS).values(
            arena_id=arena_id, player_id=player_id, seed=next_seed, joined_at=now
        )
        result = await connection.execute(statement.on_conflict_do_nothing())
        return bool(result.rowcount == 1)

    async def remove_arena_player(self, arena_id: int, player_id: int) -> bool:
        """Take a player out of the arena's list; False when they were not in it."""
        connection = self._write_conn()
        result = await connection.execute(
            delete(ARENA_PLAYERS).where(
                ARENA_PLAYERS.c.arena_id == arena_id, ARENA_PLAYERS.c.player_id == player_id
            )
        )
        return bool(result.rowcount == 1)

    async def set_arena_player_left(self, arena_id: int, player_id: int, left_after: int) -> bool:
        """Note that a player left after round ``left_after``; False when not in it, or gone already."""
        connection = self._write_conn()
        result = await connection.execute(
            update(ARENA_PLAYERS)
            .where(
                ARENA_PLAYERS.c.arena_id == arena_id,
                ARENA_PLAYERS.c.player_id == player_id,
                ARENA_PLAYERS.c.left_after.is_(None),
            )
            .values(left_after=left_after)
        )
        return bool(result.rowcount == 1)

    # Rounds and pairings

    async def add_arena_round(
        self,
        arena_id: int,
        number: int,
        bye_player_id: int | None,
        pairings: Sequence[tuple[int, int]],
        now: datetime,
    ) -> bool:
        """Store round ``number`` and its ``pairings`` (X, O) in board order; False if stored already."""
        connection = self._write_conn()
        insert_round = sql.dialect_insert(connection.dialect.name, ARENA_ROUNDS).values(
            arena_id=arena_id, number=number, bye_player_id=bye_player_id, created_at=now
        )
        if (await connection.execute(insert_round.on_conflict_do_nothing())).rowcount != 1:
            return False
        if pairings:
            await connection.execute(
                ARENA_PAIRINGS.insert(),
                [
                    {
                        "arena_id": arena_id,
                        "round_number": number,
                        "board": board,
                        "x_player_id": x,
                        "o_player_id": o,
                    }
                    for board, (x, o) in enumerate(pairings)
                ],
            )
        return True

    async def arena_rounds(self, arena_id: int) -> list[ArenaRound]:
        """The arena's rounds, in order."""
        rows = await self._read(
            select(ARENA_ROUNDS).where(ARENA_ROUNDS.c.arena_id == arena_id).order_by(ARENA_ROUNDS.c.number)
        )
        return [ArenaRound(**row) for row in rows]

    async def arena_pairings(self, arena_id: int, round_number: int | None = None) -> list[ArenaPairing]:
        """The arena's pairings (of one round when ``round_number`` is given), by round and board."""
        statement = select(ARENA_PAIRINGS).where(ARENA_PAIRINGS.c.arena_id == arena_id)
        if round_number is not None:
            statement = statement.where(ARENA_PAIRINGS.c.round_number == round_number)
        rows = await self._read(statement.order_by(ARENA_PAIRINGS.c.round_number, ARENA_PAIRINGS.c.board))
        return [ArenaPairing(**row) for row in rows]

    async def set_arena_round_message(self, arena_id: int, number: int, message_id: int) -> None:
        """Note the message the round's threads hang from."""
        connection = self._write_conn()
        await connection.execute(
            update(ARENA_ROUNDS)
            .where(ARENA_ROUNDS.c.arena_id == arena_id, ARENA_ROUNDS.c.number == number)
            .values(message_id=message_id)
        )

    async def finish_arena_round(self, arena_id: int, number: int, now: datetime) -> bool:
        """Note that the round is over; False when it was noted already (or is not stored)."""
        connection = self._write_conn()
        result = await connection.execute(
            update(ARENA_ROUNDS)
            .where(
                ARENA_ROUNDS.c.arena_id == arena_id,
                ARENA_ROUNDS.c.number == number,
                ARENA_ROUNDS.c.finished_at.is_(None),
            )
            .values(finished_at=now)
        )
        return bool(result.rowcount == 1)

    async def set_pairing_game(
        self, arena_id: int, round_number: int, board: int, game_id: int, thread_id: int | None
    ) -> bool:
        """Note the game (and its thread) of a pairing; False when it has one already."""
        connection = self._write_conn()
        result = await connection.execute(
            update(ARENA_PAIRINGS)
            .where(*_pairing_key(arena_id, round_number, board), ARENA_PAIRINGS.c.game_id.is_(None))
            .values(game_id=game_id, thread_id=thread_id)
        )
        return bool(result.rowcount == 1)

    async def set_pairing_thread(self, arena_id: int, round_number: int, board: int, thread_id: int) -> bool:
        """Note the thread made (or about to be made) for a pairing that has no game yet; False when
        it has its game already."""
        connection = self._write_conn()
        result = await connection.execute(
            update(ARENA_PAIRINGS)
            .where(*_pairing_key(arena_id, round_number, board), ARENA_PAIRINGS.c.game_id.is_(None))
            .values(thread_id=thread_id)
        )
        return bool(result.rowcount == 1)

    async def set_pairing_result(
        self, arena_id: int, round_number: int, board: int, result: GameResult
    ) -> bool:
        """Note how a pairing's game ended; False when it has a result already."""
        connection = self._write_conn()
        changed = await connection.execute(
            update(ARENA_PAIRINGS)
            .where(*_pairing_key(arena_id, round_number, board), ARENA_PAIRINGS.c.result.is_(None))
            .values(result=result)
        )
        return bool(changed.rowcount == 1)

    async def arena_rated(self, arena_id: int) -> bool:
        """Whether the arena's games count for the ratings (False for an arena that does not exist)."""
        rows = await self._read(select(ARENAS.c.rated).where(ARENAS.c.id == arena_id))
        return bool(rows[0]["rated"]) if rows else False

    async def ended_unrecorded_games(
        self, limit: int = 100
    ) -> list[tuple[ArenaPairing, GameStatus, GameResult | None]]:
        """Pairings of the current round of running arenas whose game is over but has no result noted
        yet, each with how its game ended."""
        current = ARENA_PAIRINGS.join(
            ARENAS,
            (ARENAS.c.id == ARENA_PAIRINGS.c.arena_id)
            & (ARENAS.c.current_round == ARENA_PAIRINGS.c.round_number)
            & (ARENAS.c.status == ArenaStatus.RUNNING),
        ).join(GAMES, GAMES.c.id == ARENA_PAIRINGS.c.game_id)
        rows = await self._read(
            select(ARENA_PAIRINGS, GAMES.c.status.label("game_status"), GAMES.c.result.label("game_result"))
            .select_from(current)
            .where(ARENA_PAIRINGS.c.result.is_(None), GAMES.c.status.not_in(LIVE_STATUSES))
            .limit(limit)
        )
        found = []
        for row in rows:
            values = dict(row)
            status, result = values.pop("game_status"), values.pop("game_result")
            found.append((ArenaPairing(**values), status, result))
        return found

    async def arenas_with_round_done(self, limit: int = 100) -> list[Arena]:
        """Running arenas every game of whose current round has its result noted."""
        undecided = exists().where(
            ARENA_PAIRINGS.c.arena_id == ARENAS.c.id,
            ARENA_PAIRINGS.c.round_number == ARENAS.c.current_round,
            ARENA_PAIRINGS.c.result.is_(None),
        )
        rows = await self._read(
            select(ARENAS)
            .where(ARENAS.c.status == ArenaStatus.RUNNING, ~undecided)
            .order_by(ARENAS.c.id)
            .limit(limit)
        )
        return [Arena(**row) for row in rows]

    async def arenas_with_games_to_make(self) -> list[Arena]:
        """Running arenas with a pairing of their current round that has neither a game nor a result."""
        waiting = exists().where(
            ARENA_PAIRINGS.c.arena_id == ARENAS.c.id,
            ARENA_PAIRINGS.c.round_number == ARENAS.c.current_round,
            ARENA_PAIRINGS.c.result.is_(None),
            ARENA_PAIRINGS.c.game_id.is_(None),
        )
        rows = await self._read(
            select(ARENAS).where(ARENAS.c.status == ArenaStatus.RUNNING, waiting).order_by(ARENAS.c.id)
        )
        return [Arena(**row) for row in rows]

    async def pairing_of_game(self, game_id: int) -> ArenaPairing | None:
        """The arena pairing whose game is ``game_id``; None for a game outside arenas."""
        rows = await self._read(select(ARENA_PAIRINGS).where(ARENA_PAIRINGS.c.game_id == game_id))
        return ArenaPairing(**rows[0]) if rows else None


def _pairing_key(arena_id: int, round_number: int, board: int) -> tuple[Any, ...]:
    return (
        ARENA_PAIRINGS.c.arena_id == arena_id,
        ARENA_PAIRINGS.c.round_number == round_number,
        ARENA_PAIRINGS.c.board == board,
    )
