"""Commands that need no database start without loading SQLAlchemy, Alembic or discord.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import clean_env

HEAVY = ("sqlalchemy", "alembic", "aiosqlite", "discord")
PROBE = """
import io, sys
from contextlib import redirect_stdout
from bot.__main__ import main
sys.stdin = io.StringIO("q\\n")
with redirect_stdout(io.StringIO()):
    main(sys.argv[1:])
print(",".join(name for name in {heavy!r} if name in sys.modules))
"""


@pytest.mark.parametrize("args", [("analyze", "X.O......"), ("play", "--no-db")])
def test_no_database_library_is_imported(args: tuple[str, ...], tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY), *args],
        capture_output=True,
        text=True,
        env=clean_env(),
        cwd=str(tmp_path),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
