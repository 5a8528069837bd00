"""Commands load only what they need: no database library without a database, no pictures at start-up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import clean_env

HEAVY = ("alembic", "aiosqlite", "asyncpg", "discord")
"""What the commands without a database leave out (the settings check ``DATABASE_URL`` with
SQLAlchemy's own parser, so SQLAlchemy itself is loaded)."""
PROBE = """
import io, sys
from contextlib import redirect_stdout
from bot.__main__ import main
sys.stdin = io.StringIO("q\\n")
with redirect_stdout(io.StringIO()):
    main(sys.argv[1:])
print(",".join(name for name in {heavy!r} if name in sys.modules))
"""


def loaded(heavy: tuple[str, ...], tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """Which of ``heavy`` ``python -m bot <args>`` imported, comma-separated."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=heavy), *args],
        capture_output=True,
        text=True,
        env=clean_env(env),
        cwd=str(tmp_path),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def run_probe(code: str, tmp_path: Path) -> str:
    """What ``python -c code`` printed, in a clean environment; it must succeed."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=clean_env(),
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("args", [("analyze", "X.O......"), ("play", "--no-db")])
def test_no_database_driver_is_imported(args: tuple[str, ...], tmp_path: Path) -> None:
    assert loaded(HEAVY, tmp_path, *args) == ""


def test_the_bot_and_the_service_load_no_picture_library(tmp_path: Path) -> None:
    """matplotlib costs most of a second and Pillow tens of milliseconds: each is imported where the
    first picture is drawn (the pictures worker), not at start-up."""
    probe = (
        "import sys, bot.bot, bot.exts.games, bot.services, bot.cli.review; "
        "print(','.join(name for name in ('matplotlib', 'PIL') if name in sys.modules))"
    )
    assert run_probe(probe, tmp_path) == ""


def test_the_bot_connects_before_it_imports_the_database_layer_and_the_games(tmp_path: Path) -> None:
    """``python -m bot run`` imports the database layer (its drivers, Alembic), the service,
    the games and the catalogues while it connects to Discord, in a thread: none of it before."""
    later = ("alembic", "aiosqlite", "asyncpg", "babel")
    later += ("bot.db", "bot.services", "bot.exts.games")
    probe = (
        "import sys, bot.__main__, bot.cli.run, bot.bot; from bot.config import Settings; "
        "settings = Settings(_env_file=None, discord_token='t', "
        "database_url='postgresql+asyncpg://u:p@db:5432/ttt'); "
        "bot.bot.create_bot(settings); "
        f"print(','.join(name for name in {later!r} if name in sys.modules))"
    )
    assert run_probe(probe, tmp_path) == ""
