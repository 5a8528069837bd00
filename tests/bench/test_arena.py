"""The arena benchmark's harness: an arena is played out round by round, and every step is timed.

Functional only: the timings are reported by ``python -m bench.arena``, never asserted here.
"""

from __future__ import annotations

from pathlib import Path

from bench.arena import report, run_arena


async def test_an_arena_is_played_out_and_every_round_timed(tmp_path: Path) -> None:
    times = await run_arena(f"sqlite+aiosqlite:///{tmp_path / 'arena.sqlite3'}", players=8)
    assert [record.number for record in times] == [1, 2, 3]
    assert all(record.games == 4 and len(record.endings) == 4 and len(record.noted) == 3 for record in times)
    assert all(record.turnover is not None and record.pairing is not None for record in times)
    assert "| 3 | 4 |" in report(times, 8)
