"""``python -m bot migrate`` says in one line what it did, and Alembic's own records stay out of it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.db.migrate import head_revision
from tests.cli.conftest import RunCli
from tests.db.migrations import downgrade_to


def test_migrate_says_what_it_did(run_cli: RunCli, tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'ttt.sqlite3'}"
    head = head_revision()

    created = run_cli("migrate", env={"DATABASE_URL": url})
    assert (created.returncode, created.stderr) == (0, "")
    assert created.stdout == f"Created the schema of the database at {url} (revision {head}).\n"

    again = run_cli("migrate", env={"DATABASE_URL": url})
    assert (again.returncode, again.stderr) == (0, "")
    assert again.stdout == f"The database at {url} is already on the newest schema (revision {head}).\n"

    asyncio.run(downgrade_to(url, "0004"))
    upgraded = run_cli("migrate", env={"DATABASE_URL": url})
    assert (upgraded.returncode, upgraded.stderr) == (0, "")
    assert upgraded.stdout == f"Upgraded the database at {url} from revision 0004 to {head}.\n"


def test_migrate_with_a_url_without_an_async_driver_says_which_form_to_use(run_cli: RunCli) -> None:
    done = run_cli("migrate", env={"DATABASE_URL": "sqlite:///ttt.db"})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "Configuration error: DATABASE_URL is not valid: sqlite:// has no async driver; "
        "use the form sqlite+aiosqlite:///ttt.sqlite3.\n"
    )
