"""Themes: the look of a board's pieces, chosen by a server or, outside servers, by a game's starter.

``server_settings.theme`` holds a server's choice (null: the default theme); ``games.starter_theme``
the one the player who started a game chose, which its boards show outside servers.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("server_settings") as batch:
        batch.add_column(sa.Column("theme", sa.String(length=16), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("starter_theme", sa.String(length=16), nullable=True))


def downgrade() -> None:
    # Dropped in place (SQLite 3.35+ can): a batch would copy ``games`` into a new table, and
    # dropping the old one would take every move with it (their foreign key cascades).
    op.drop_column("games", "starter_theme")
    with op.batch_alter_table("server_settings") as batch:
        batch.drop_column("theme")
