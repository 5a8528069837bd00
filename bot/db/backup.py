"""Backups of a SQLite database, taken while the bot may be writing to it.

SQLite's online backup API copies the database as one read transaction sees it: every commit
made before the copy began is in it, none made after, and the bot's writers go on meanwhile
(the database is in WAL mode, so a reader never blocks them). The copy is written beside the
target, switched from WAL to a single self-contained file, checked with ``PRAGMA
integrity_check``, and only then renamed to the target, so a failed backup never leaves a
file that looks like one.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import URL, make_url

BUSY_TIMEOUT_SECONDS = 30.0
"""How long the copy waits for a lock (a checkpoint of the bot's WAL) before it gives up."""


class BackupError(Exception):
    """The backup could not be made; the message says why in one line."""


@dataclass(frozen=True, slots=True)
class BackupReport:
    """What a finished backup holds."""

    target: Path
    games: int
    moves: int
    size_bytes: int


def sqlite_file(database_url: str) -> Path | None:
    """The file of a SQLite URL; None for another database. An in-memory SQLite has nothing to copy."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite":
        return None
    if not url.database or url.database == ":memory:":
        raise BackupError("The SQLite database is in memory; there is no file to back up.")
    return Path(url.database)


def backend_name(database_url: str) -> str:
    """The database kind a URL names: ``sqlite``, ``postgresql``, ..."""
    return make_url(database_url).get_backend_name()


def pg_dump_command(database_url: str, target: Path) -> str:
    """The ``pg_dump`` command line that backs up ``database_url`` to ``target`` (no password in it)."""
    given = make_url(database_url)
    url = URL.create("postgresql", given.username, None, given.host, given.port, given.database)
    libpq = url.render_as_string(hide_password=False)
    return f"pg_dump --format=custom --file={shlex.quote(str(target))} {shlex.quote(libpq)}"


def backup_sqlite(source: Path, target: Path) -> BackupReport:
    """Copy the SQLite database ``source`` to ``target`` consistently, check the copy, and report it."""
    if not source.is_file():
        raise BackupError(f"There is no SQLite database at {source}.")
    if target.resolve() == source.resolve():
        raise BackupError("The backup cannot overwrite the database itself; name another file.")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with (
            contextlib.closing(_connect(source, "ro")) as original,
            contextlib.closing(sqlite3.connect(partial)) as copy,
        ):
            original.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
            problems = [row[0] for row in copy.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupError(f"The copy failed its integrity check: {problems[0]}")
            games, moves = _counts(copy)
        os.replace(partial, target)
    except sqlite3.Error as error:
        raise BackupError(f"Could not copy {source}: {error}") from error
    finally:
        partial.unlink(missing_ok=True)
    return BackupReport(target, games, moves, target.stat().st_size)


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True, timeout=BUSY_TIMEOUT_SECONDS)


def _counts(connection: sqlite3.Connection) -> tuple[int, int]:
    try:
        games = connection.execute("SELECT count(*) FROM games").fetchone()[0]
        moves = connection.execute("SELECT count(*) FROM moves").fetchone()[0]
    except sqlite3.OperationalError:  # a database the bot never migrated: no tables yet
        return 0, 0
    return int(games), int(moves)
