"""The write-path comparison plays real games on both write paths (timings are reported, not asserted)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bench.plain_writes import WRITE_PATHS, measure


async def test_both_write_paths_store_every_move_they_count(tmp_path: Path) -> None:
    path = tmp_path / "paths.sqlite3"
    tallies = await measure(f"sqlite+aiosqlite:///{path}", seconds=0.2, rounds=1, games=3)
    assert set(tallies) == set(WRITE_PATHS)
    assert all(tally.moves > 0 for tally in tallies.values())
    with sqlite3.connect(path) as stored:
        [(moves,)] = stored.execute("SELECT count(*) FROM moves").fetchall()
    assert moves >= sum(tally.moves for tally in tallies.values())
