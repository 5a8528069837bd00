"""A bot killed with SIGKILL must not leave engine workers searching on as orphans."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

HOLDER = textwrap.dedent(
    """
    import asyncio, os

    from bot.engine import Board
    from bot.services.engine_pool import EnginePool


    async def main() -> None:
        pool = EnginePool(1, budget_ms=120_000)
        await pool.warm_up()
        print("ready", flush=True)
        await pool.analyze(Board.empty(5))


    if __name__ == "__main__":
        asyncio.run(main())
    """
)


def _worker_pids(parent: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(parent)], capture_output=True, text=True, check=False).stdout
    pids = []
    for pid in out.split():
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        if b"spawn_main" in cmdline:
            pids.append(int(pid))
    return pids


def _gone(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        return "State:\tZ" in status.read_text()
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not Path("/proc").is_dir() or sys.platform != "linux", reason="needs Linux /proc")
def test_workers_exit_when_the_bot_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "holder.py"
    script.write_text(HOLDER)
    holder = subprocess.Popen(
        [sys.executable, str(script)],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == b"ready"
    workers = _worker_pids(holder.pid)
    assert len(workers) == 1
    try:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        deadline = time.monotonic() + 15  # a failure guard; the worker normally exits at once
        while not all(_gone(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(_gone(pid) for pid in workers), "an engine worker outlived the killed bot"
    finally:
        for pid in workers:
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)
