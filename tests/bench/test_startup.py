"""The start-up benchmark's harness: every start reaches READY, answers and makes the bot's first move.

Functional only: the timings are reported by ``python -m bench.startup``, never asserted here.
It also shows that a freshly started bot plays its first move at once, although READY no
longer waits for the engine workers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.startup import PHASES, markdown, run

pytestmark = [pytest.mark.e2e]


async def test_each_start_goes_through_every_phase_in_order(tmp_path: Path) -> None:
    ours, baseline = await run(1, tmp_path)

    assert (len(ours), len(baseline)) == (2, 1)
    for start in (*ours, *baseline):
        times = [getattr(start, phase) for phase in PHASES]
        assert times[0] > 0 and times == sorted(times), times
    report = markdown(ours, baseline, 1)
    assert all(f"| {phase} |" in report for phase in PHASES)
    assert "Traceback" not in (tmp_path / "bot.log").read_text()
