"""``python -m bot backup FILE``: a checked copy of the SQLite database, or how to back up PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from bot.config import Settings
from bot.db.backup import BackupError, backend_name, backup_sqlite, pg_dump_command, sqlite_file


def run_backup(settings: Settings, target: Path, stdout: TextIO, stderr: TextIO) -> int:
    """Back up the database at ``DATABASE_URL`` to ``target``: 0 when the checked copy is there, else 1."""
    try:
        source = sqlite_file(settings.database_url)
        if source is None:
            backend = backend_name(settings.database_url)
            if backend == "postgresql":
                command = pg_dump_command(settings.database_url, target)
                stderr.write(
                    f"PostgreSQL is backed up with its own tool, pg_dump (password from PGPASSWORD or "
                    f"~/.pgpass): {command}\n"
                )
            else:
                stderr.write(f"Backups are made of SQLite databases only; use {backend}'s own tools.\n")
            return 1
        report = backup_sqlite(source, target)
    except BackupError as error:
        stderr.write(f"{error}\n")
        return 1
    megabytes = report.size_bytes / 1_000_000
    stdout.write(
        f"Backed up {source} to {report.target} ({report.games} games, {report.moves} moves, "
        f"{megabytes:.1f} MB); the copy passed SQLite's integrity check.\n"
    )
    return 0
