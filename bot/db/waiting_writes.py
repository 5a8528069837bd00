"""Sending the writes that wait with a write batch: compare-and-sets, board messages and moves.

A batch (:mod:`bot.db.live_games`) keeps its writers' first compare-and-sets, the board
messages they record and the moves they store, and sends them together. On SQLite a
statement costs microseconds on the event loop, so each goes as a statement of its own. On
PostgreSQL every statement is a round trip, and the batch's writers are answered only after
it and the commit, so everything that waits goes in one statement (:func:`waiting_writes`):

.. code-block:: sql

    WITH applied_0 AS (UPDATE games SET ... FROM unnest(...) AS changes_0(...)
                       WHERE games.id = changes_0._id AND games.version = changes_0._expected
                       RETURNING games.id),
         ...one per column set...,
         messages_set AS (UPDATE games SET message_channel_id = ..., message_id = ...
                          FROM unnest(...) AS messages(...) WHERE games.id = messages._id),
         moves_stored AS (INSERT INTO moves (...) SELECT ... FROM unnest(...) AS new_moves(...)
                          WHERE new_moves._needs IS NULL
                             OR new_moves._needs IN (SELECT id FROM applied_0 UNION ALL ...))
    SELECT id FROM applied_0 UNION ALL ...

A move is stored only when the compare-and-set it needs (``_needs``: the game whose change its
writer's move depends on) applied, so a writer that lost the race leaves nothing behind. A board
message may not go with a compare-and-set of its own game (a statement changes a row once).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import CompoundSelect, Integer, Select, false, null, select, union_all, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.db.statements import (
    GAMES,
    MOVE_KEYS,
    MOVES,
    SET_MESSAGES,
    arrays_of,
    compare_and_set,
    insert_rows,
    unnest_arrays,
)

Change = tuple[int, int, Mapping[str, Any]]
"""A compare-and-set: ``(game_id, expected_version, values)``."""
_MESSAGE_KEYS = ("_id", "message_channel_id", "message_id")


@functools.cache
def waiting_writes(
    groups: tuple[tuple[str, ...], ...], messages: bool, moves: bool
) -> Select[Any] | CompoundSelect[Any]:
    """PostgreSQL: the statement of the module docstring, built once per shape.

    ``groups``: the column sets of the compare-and-sets, the arrays of group ``i`` bound as
    ``g<i>_<column>`` (with ``g<i>__id`` and ``g<i>__expected``); ``messages``: whether board
    messages go too (``message_<column>``); ``moves``: whether moves do (``move_<column>``, with
    ``move__needs``). Returns the ids of the games whose compare-and-set applied.
    """
    applied = []
    for i, columns in enumerate(groups):
        types = {"_id": GAMES.c.id.type, "_expected": GAMES.c.version.type}
        types.update((name, GAMES.c[name].type) for name in columns)
        changes = unnest_arrays(f"changes_{i}", types, prefix=f"g{i}_")
        applied.append(
            update(GAMES)
            .where(GAMES.c.id == changes.c._id, GAMES.c.version == changes.c._expected)
            .values({name: changes.c[name] for name in columns})
            .returning(GAMES.c.id)
            .cte(f"applied_{i}")
        )
    ids: Select[Any] | CompoundSelect[Any] = (
        union_all(*(select(cte.c.id) for cte in applied))
        if applied
        else select(null().cast(Integer).label("id")).where(false())
    )
    side_effects = []
    if messages:
        message = unnest_arrays(
            "messages", {key: GAMES.c[key.lstrip("_")].type for key in _MESSAGE_KEYS}, prefix="message_"
        )
        side_effects.append(
            update(GAMES)
            .where(GAMES.c.id == message.c._id)
            .values(message_channel_id=message.c.message_channel_id, message_id=message.c.message_id)
            .cte("messages_set")
        )
    if moves:
        types = {"_needs": GAMES.c.id.type, **{key: MOVES.c[key].type for key in MOVE_KEYS}}
        new_moves = unnest_arrays("new_moves", types, prefix="move_")
        stored = select(*(new_moves.c[key] for key in MOVE_KEYS)).where(
            new_moves.c._needs.is_(None) | new_moves.c._needs.in_(ids)
        )
        side_effects.append(postgresql.insert(MOVES).from_select(list(MOVE_KEYS), stored).cte("moves_stored"))
    return ids.add_cte(*side_effects) if side_effects else ids


async def send_waiting(
    connection: AsyncConnection,
    changes: Sequence[Change],
    messages: Sequence[Mapping[str, Any]] = (),
    moves: Sequence[tuple[int | None, Mapping[str, Any]]] = (),
) -> set[int]:
    """Send ``changes`` (compare-and-sets), board ``messages`` (``_id``, ``message_channel_id``,
    ``message_id``) and ``moves`` (each with the game whose change it needs, or None); the ids of
    the games whose compare-and-set applied.

    On PostgreSQL one statement (:func:`waiting_writes`); no message may be of a game in
    ``changes``. On SQLite one statement each, in that order. Either way a move whose needed
    change did not apply is not stored.
    """
    if connection.dialect.name == "sqlite":
        return await _send_each(connection, changes, messages, moves)
    by_columns: dict[tuple[str, ...], list[Change]] = {}
    for change in changes:
        by_columns.setdefault(tuple(sorted(change[2])), []).append(change)
    groups = tuple(sorted(by_columns))
    parameters: dict[str, list[Any]] = {}
    for i, columns in enumerate(groups):
        rows = (
            {"_id": game_id, "_expected": expected, **values}
            for game_id, expected, values in by_columns[columns]
        )
        parameters |= arrays_of(rows, ("_id", "_expected", *columns), prefix=f"g{i}_")
    last_message = {message["_id"]: message for message in messages}  # a later record of a game wins
    parameters |= arrays_of(last_message.values(), _MESSAGE_KEYS, prefix="message_")
    parameters |= arrays_of(
        ({"_needs": needs, **row} for needs, row in moves), ("_needs", *MOVE_KEYS), "move_"
    )
    statement = waiting_writes(groups, bool(last_message), bool(moves))
    result = await connection.execute(statement, parameters)
    return {row[0] for row in result}


async def _send_each(
    connection: AsyncConnection,
    changes: Sequence[Change],
    messages: Sequence[Mapping[str, Any]],
    moves: Sequence[tuple[int | None, Mapping[str, Any]]],
) -> set[int]:
    applied: set[int] = set()
    for game_id, expected, values in changes:
        parameters = {**values, "_id": game_id, "_expected": expected}
        if (await connection.execute(compare_and_set(tuple(sorted(values))), parameters)).all():
            applied.add(game_id)
    for message in messages:
        await connection.execute(SET_MESSAGES, message)
    stored = [row for needs, row in moves if needs is None or needs in applied]
    if stored:
        await insert_rows(connection, MOVES, MOVE_KEYS, stored)
    return applied
