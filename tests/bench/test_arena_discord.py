"""The Discord-side arena benchmark's harness: a small arena played by clicks through the emulator.

Functional only: the timings are reported by ``python -m bench.arena_discord``, never asserted here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.arena_discord import SECTION, report, run_arena, write_section

pytestmark = [pytest.mark.e2e]


async def test_a_small_arena_is_played_by_clicks_and_every_round_is_timed(tmp_path: Path) -> None:
    run = await run_arena(6, tmp_path)

    assert [record.number for record in run.rounds] == [1, 2, 3]
    met: set[frozenset[int]] = set()
    for record in run.rounds:
        assert len(record.games) == 3
        assert {player.id for game in record.games for player in (game.x, game.o)} == {
            player.id for game in run.rounds[0].games for player in (game.x, game.o)
        }, "everyone plays every round"
        for game in record.games:
            assert game.result in ("X", "O", "draw")
            pair = frozenset((game.x.id, game.o.id))
            assert pair not in met, "two players met twice"
            met.add(pair)
    assert [number for number, *_ in run.turnovers()] == [2, 3]
    assert all(0 < answered <= posted <= ready for _, posted, answered, ready in run.turnovers())
    clicks = sum(len(game.clicks) for record in run.rounds for game in record.games)
    assert len(run.arena.acks) == len(run.arena.edits) == clicks
    assert len(run.baseline.acks) >= 2 * 3 * 5, "two batches of three games, at least five moves each"

    text = report([run, run])
    assert "| 2 | 3 |" in text and "| 3 | 3 |" in text and "ratio (arena / baseline)" in text
    every_run = text.split("## Every run", 1)[1].split("\n\n")[2].splitlines()[2:]
    assert [line.split(" | ")[0] for line in every_run] == ["| 1", "| 2"], "a line for each run"
    results = tmp_path / "RESULTS.md"
    results.write_text("# Arena benchmark\n\nthe service's table\n")
    write_section(results, text)
    write_section(results, text)
    kept = results.read_text()
    assert kept.startswith("# Arena benchmark") and kept.count(SECTION) == 1
