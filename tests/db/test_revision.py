"""The schema check without Alembic: the head read from the scripts' source, and the skip it allows."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.util.exc import CommandError
from sqlalchemy import text

from bot.db import create_engine
from bot.db.migrate import current_revision, head_revision, upgrade_to_head
from bot.db.revision import at_head, script_head, stored_revisions
from tests.db.migrations import downgrade_to


def write_scripts(directory: Path, scripts: dict[str, str]) -> Path:
    directory.mkdir(exist_ok=True)
    for name, body in scripts.items():
        (directory / name).write_text(body, encoding="utf-8")
    return directory


def script(revision: str, down: str) -> str:
    return f'"""A migration."""\n\nrevision: str = "{revision}"\ndown_revision: str | None = {down}\n'


def test_the_head_read_from_the_source_is_alembics() -> None:
    assert script_head() is not None
    assert script_head() == head_revision()


def test_a_chain_ends_at_the_script_nothing_follows(tmp_path: Path) -> None:
    versions = write_scripts(
        tmp_path,
        {
            "0002_b.py": script("0002", '"0001"'),
            "0001_a.py": script("0001", "None"),
            "0003_c.py": 'revision = "0003"\ndown_revision = "0002"\n',
            "__init__.py": 'revision = "ignored"\n',
        },
    )
    assert script_head(versions) == "0003"


def test_a_merge_follows_both_branches(tmp_path: Path) -> None:
    versions = write_scripts(
        tmp_path,
        {
            "a.py": script("a", "None"),
            "b.py": script("b", '"a"'),
            "c.py": script("c", '"a"'),
            "m.py": script("m", '("b", "c")'),
        },
    )
    assert script_head(versions) == "m"


@pytest.mark.parametrize(
    "scripts",
    [
        {"a.py": script("a", "None"), "b.py": script("b", '"a"'), "c.py": script("c", '"a"')},  # two heads
        {"a.py": script("a", "None"), "b.py": 'revision = "b" + ""\ndown_revision = "a"\n'},  # computed
        {"a.py": script("a", "None"), "b.py": 'down_revision = "a"\n'},  # no revision
        {"a.py": script("a", "None"), "b.py": "revision = (\n"},  # not Python
        {"a.py": script("a", "None"), "b.py": script("a", "None")},  # the same revision twice
        {},  # no scripts
    ],
)
def test_no_head_when_the_source_does_not_say_plainly(tmp_path: Path, scripts: dict[str, str]) -> None:
    assert script_head(write_scripts(tmp_path / "versions", scripts)) is None


async def test_at_head_only_after_the_upgrade(empty_database: str) -> None:
    assert await stored_revisions(empty_database) == []
    assert not await at_head(empty_database)
    await upgrade_to_head(empty_database)
    assert await stored_revisions(empty_database) == [head_revision()]
    assert await at_head(empty_database)
    await downgrade_to(empty_database, "base")
    assert not await at_head(empty_database)


async def test_a_database_on_an_unknown_revision_is_left_to_alembic(empty_database: str) -> None:
    """Stamped by a newer bot: not taken for "at head"; Alembic runs and refuses, as before."""
    await upgrade_to_head(empty_database)
    engine = create_engine(empty_database)
    try:
        async with engine.begin() as connection:
            await connection.execute(text("UPDATE alembic_version SET version_num = 'from-the-future'"))
    finally:
        await engine.dispose()
    assert not await at_head(empty_database)
    with pytest.raises(CommandError, match="from-the-future"):
        await upgrade_to_head(empty_database)
    assert await current_revision(empty_database) == "from-the-future"
