"""One text format for every timestamp on SQLite: UTC, as ``YYYY-MM-DD HH:MM:SS.ffffff``.

Some rows inserted several at once (a player's move with the bot's reply, ratings and their
changes) were stored in Python's own format instead, with a ``+00:00`` suffix and without
microseconds when they were zero; text comparisons (the deadline sweep, ordering by time)
need one format. PostgreSQL keeps ``timestamptz`` values, which have one representation.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIMESTAMPS = {
    "players": ("created_at", "updated_at"),
    "games": ("deadline", "created_at", "updated_at", "finished_at"),
    "moves": ("played_at",),
    "ratings": ("updated_at",),
    "server_settings": ("updated_at",),
    "rating_changes": ("played_at",),
    "reviews": ("created_at",),
}
STORED_FORMAT = "%Y-%m-%d %H:%M:%S.%f"
"""How SQLAlchemy's SQLite dialect writes a datetime (the columns hold UTC)."""


def stored(text: str) -> str:
    """``text`` (any ISO 8601 form) in the stored format, in UTC."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.strftime(STORED_FORMAT)


def upgrade() -> None:
    connection = op.get_bind()
    if connection.dialect.name != "sqlite":
        return
    for table, columns in TIMESTAMPS.items():
        for name in columns:
            odd = sa.text(
                f"SELECT rowid, {name} FROM {table} WHERE {name} IS NOT NULL AND length({name}) != 26"
            )
            fixed = [{"rowid": rowid, "value": stored(value)} for rowid, value in connection.execute(odd)]
            if fixed:
                connection.execute(sa.text(f"UPDATE {table} SET {name} = :value WHERE rowid = :rowid"), fixed)


def downgrade() -> None:
    """Nothing to undo: the older code reads the one format as well."""
