"""The hot statements of the write path on SQLite, handed straight to the driver.

SQLAlchemy's execution of a statement (its execution context, a cursor opened and closed,
the result's bookkeeping) costs about 40 µs of CPU on this bot's compare-and-set, against
about 8 µs for the same statement given to the driver. ``BEGIN``, the compare-and-set of
every move, ``set_message`` and the batch's insert of moves go that way: compiled once by
SQLAlchemy (same SQL, same type conversions of their parameters), then handed to
aiosqlite's ``execute_fetchall`` (on this bot's connections a call on the event loop's
thread, see :mod:`bot.db.sqlite_inline`), inside the transaction SQLAlchemy keeps. Driver
errors come out as SQLAlchemy's (``OperationalError``, ``IntegrityError``...), like every
other statement's. Other databases (PostgreSQL) run them through SQLAlchemy.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.expression import Executable
from sqlalchemy.util import await_


class _Compiled:
    """A statement compiled for one dialect: its SQL and how each positional parameter is bound."""

    def __init__(self, statement: Executable, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)  # type: ignore[attr-defined]
        self.sql: str = compiled.string
        self.names: tuple[str, ...] = tuple(compiled.positiontup or ())
        self.processors: tuple[Callable[[Any], Any] | None, ...] = tuple(
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect) for name in self.names
        )

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(
            values[name] if process is None else process(values[name])
            for name, process in zip(self.names, self.processors, strict=True)
        )


@functools.cache
def _compiled(statement: Executable, dialect: Dialect) -> _Compiled:
    return _Compiled(statement, dialect)


async def fetch_all(
    connection: AsyncConnection, statement: Executable, values: Mapping[str, Any]
) -> Sequence[Sequence[Any]]:
    """The rows of ``statement`` (one with ``RETURNING``) run with ``values`` in ``connection``'s
    transaction, as the driver gives them (no conversion of the values read).

    ``statement`` is one built once (it is compiled once per dialect and kept).
    """
    if connection.dialect.name != "sqlite":
        return (await connection.execute(statement, values)).all()
    return await _run(connection, statement, values)


async def execute(connection: AsyncConnection, statement: Executable, values: Mapping[str, Any]) -> None:
    """Run ``statement`` (one that returns no rows) with ``values`` in ``connection``'s transaction."""
    if connection.dialect.name != "sqlite":
        await connection.execute(statement, values)
    else:
        await _run(connection, statement, values)


async def _run(
    connection: AsyncConnection, statement: Executable, values: Mapping[str, Any]
) -> Sequence[Sequence[Any]]:
    compiled = _compiled(statement, connection.dialect)
    parameters = compiled.parameters(values)
    driver: Any = connection.sync_connection.connection.driver_connection  # type: ignore[union-attr]
    try:
        rows: Sequence[Sequence[Any]] = await driver.execute_fetchall(compiled.sql, parameters)
    except sqlite3.Error as error:
        raise DBAPIError.instance(compiled.sql, parameters, error, sqlite3.Error) from error
    return rows


def begin_sqlite(connection: Connection, sql: str) -> None:
    """Run ``sql`` (``BEGIN`` or ``BEGIN IMMEDIATE``) from SQLAlchemy's ``begin`` event, on the driver."""
    driver: Any = connection.connection.driver_connection
    try:
        await_(driver.execute_fetchall(sql))
    except sqlite3.Error as error:
        raise DBAPIError.instance(sql, (), error, sqlite3.Error) from error
