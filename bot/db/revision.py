"""Is the database already on the newest schema? Answered without importing Alembic.

Every ``python -m bot run`` upgrades the schema first (``AUTO_MIGRATE``), and nearly
always there is nothing to upgrade. Importing Alembic and loading its script directory
to find that out costs a few hundred milliseconds per start, so :func:`at_head` answers
it cheaply: the head revision read from the migration scripts' source (their literal
``revision`` and ``down_revision`` assignments, parsed, not executed), compared with the
row in ``alembic_version``. Whenever the scripts do not name exactly one head plainly,
or the table is missing, empty or holds something else, the answer is "no" and the
caller runs Alembic, which decides (and locks, and reports) as before.

A database read as at head is at head for good: a concurrent upgrade on PostgreSQL
commits the new revision together with the schema, under its advisory lock.
"""

from __future__ import annotations

import ast
from pathlib import Path

from sqlalchemy import inspect, pool, text
from sqlalchemy.engine import URL, Connection

from bot.db.database import create_engine
from bot.db.migration_files import migrations_dir

MIGRATIONS_DIR = migrations_dir()
VERSIONS_DIR = MIGRATIONS_DIR / "versions"
VERSION_TABLE = "alembic_version"
"""Alembic's default version table, which ``migrations/env.py`` keeps."""


class _UnreadableError(Exception):
    """A migration script whose revisions are not plain literals: leave the question to Alembic."""


def _literal_assignments(source: str) -> dict[str, object]:
    """Module-level ``name = literal`` and ``name: type = literal`` assignments of a script."""
    found: dict[str, object] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name):
            try:
                found[target.id] = ast.literal_eval(value)
            except (ValueError, TypeError):
                found[target.id] = _UnreadableError
    return found


def _revisions(path: Path) -> tuple[str, tuple[str, ...]]:
    """A script's revision and the revisions it follows."""
    names = _literal_assignments(path.read_text(encoding="utf-8"))
    revision, down = names.get("revision"), names.get("down_revision")
    if not isinstance(revision, str):
        raise _UnreadableError(path.name)
    if down is None:
        return revision, ()
    if isinstance(down, str):
        return revision, (down,)
    if isinstance(down, tuple | list) and all(isinstance(item, str) for item in down):
        return revision, tuple(down)
    raise _UnreadableError(path.name)


def script_head(versions_dir: Path = VERSIONS_DIR) -> str | None:
    """The one revision no migration script follows, or None when that is not plain from the source.

    Reads the files Alembic would load (``*.py``, not ``__init__.py``); None when there is
    none, when a script's revisions are not literals, or when there are several heads.
    """
    try:
        scripts = [
            path for path in sorted(versions_dir.glob("*.py")) if not path.name.startswith(("__init__", ".#"))
        ]
        revisions = dict(_revisions(path) for path in scripts)
    except (OSError, SyntaxError, UnicodeDecodeError, _UnreadableError):
        return None
    followed = {down for downs in revisions.values() for down in downs}
    heads = [revision for revision in revisions if revision not in followed]
    return heads[0] if len(heads) == 1 and len(revisions) == len(scripts) else None


def _stored(connection: Connection) -> list[str]:
    if not inspect(connection).has_table(VERSION_TABLE):
        return []
    rows = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}"))
    return [str(row[0]) for row in rows]


async def stored_revisions(database_url: str | URL) -> list[str]:
    """The revisions ``alembic_version`` holds (none before the first migration).

    Raises what the driver raises when the database cannot be opened.
    """
    engine = create_engine(database_url, poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(_stored)
    finally:
        await engine.dispose()


async def at_head(database_url: str | URL) -> bool:
    """True when the database is plainly on the newest migration, so there is nothing to upgrade."""
    head = script_head()
    return head is not None and await stored_revisions(database_url) == [head]
