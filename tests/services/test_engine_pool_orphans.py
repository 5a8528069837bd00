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


ASKER = textwrap.dedent(
    """
    import asyncio, sys

    from bot.engine import Board
    from bot.services.engine_pool import EnginePool


    async def main() -> None:
        pool = EnginePool(1, budget_ms=1000)
        await pool.warm_up()
        print("ready", flush=True)
        sys.stdin.readline()
        analysis = await pool.analyze(Board.parse("X.O......"))
        print(analysis.best, flush=True)
        pool.close()


    if __name__ == "__main__":
        asyncio.run(main())
    """
)


def test_ctrl_c_in_the_terminal_leaves_workers_to_the_bot(tmp_path: Path) -> None:
    """SIGINT reaches a terminal's whole process group; the worker must not die of it mid-game."""
    script = tmp_path / "asker.py"
    script.write_text(ASKER)
    asker = subprocess.Popen(
        [sys.executable, str(script)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert asker.stdout is not None and asker.stdin is not None
    assert asker.stdout.readline().strip() == b"ready"
    (worker,) = _worker_pids(asker.pid)
    os.kill(worker, signal.SIGINT)
    out, err = asker.communicate(b"go\n", timeout=60)
    assert asker.returncode == 0, err.decode()
    assert out.decode().strip() == "(3, 6, 8)"
    assert b"KeyboardInterrupt" not in err
