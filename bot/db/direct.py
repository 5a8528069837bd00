"""The hottest statement of a write batch on SQLite, run straight on aiosqlite's connection.

SQLAlchemy runs a statement on aiosqlite in three or four trips to the driver's thread
(open a cursor, execute, fetch, close it), each a wake-up of the event loop, besides its
own bookkeeping. The compare-and-set of every move is worth one trip: compiled once by
SQLAlchemy (same SQL, same type conversions of its parameters), then handed to aiosqlite's
``execute_fetchall``, which runs it and fetches its rows in one trip. Driver errors come
out as SQLAlchemy's (``OperationalError``, ``IntegrityError``...), like every other
statement's. Other databases (PostgreSQL) run it through SQLAlchemy.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.expression import Executable


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
    """The rows of ``statement`` run with ``values`` in ``connection``'s transaction (raw, unconverted).

    ``statement`` is one built once (it is compiled once per dialect and kept).
    """
    dialect = connection.dialect
    if dialect.name != "sqlite":
        return (await connection.execute(statement, values)).all()
    compiled = _compiled(statement, dialect)
    parameters = compiled.parameters(values)
    driver: Any = connection.sync_connection.connection.driver_connection  # type: ignore[union-attr]
    try:
        rows: Sequence[Sequence[Any]] = await driver.execute_fetchall(compiled.sql, parameters)
    except sqlite3.Error as error:
        raise DBAPIError.instance(compiled.sql, parameters, error, sqlite3.Error) from error
    return rows
