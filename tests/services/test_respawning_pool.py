"""A worker killed while several calls wait: the engine's and the pictures' pools answer every call,
from one new pool (one replaced only while it is the one that failed)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

import pytest

from bot.engine import Analysis, Board
from bot.pictures.replay import ReplayMove, render_replay
from bot.services import EnginePool
from bot.services.picture_pool import PicturePool
from tests.services import worker_probe

pytestmark = pytest.mark.skipif(
    not Path("/proc").is_dir() or sys.platform != "linux", reason="finds the workers in /proc"
)

WAITING = 4
"""Calls queued behind the one the killed worker is running."""


def _workers() -> set[int]:
    """This process's spawned worker processes."""
    out = subprocess.run(["pgrep", "-P", str(os.getpid())], capture_output=True, text=True).stdout
    return {int(pid) for pid in out.split() if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()}


async def _answers_with_the_worker_killed(
    started: Callable[[], Awaitable[object]], calls: list[Callable[[], Awaitable[object]]]
) -> tuple[int, list[object]]:
    """Start the pool's one worker, make ``calls`` at once and kill the worker while they wait:
    the killed worker's process id and the calls' answers."""
    before = _workers()
    await started()
    (worker,) = _workers() - before
    waiting = [asyncio.ensure_future(call()) for call in calls]
    await asyncio.sleep(0)  # every call is submitted to the pool on its first step
    os.kill(worker, signal.SIGKILL)
    return worker, await asyncio.gather(*waiting)


async def test_every_call_waiting_on_a_killed_engine_worker_is_answered_by_one_new_worker() -> None:
    pool = EnginePool(1, budget_ms=300)
    board = Board.empty(5).play(12)
    try:
        killed, (analysis, *pids) = await _answers_with_the_worker_killed(
            pool.warm_up, [partial(pool.analyze, board), *[partial(pool._run, worker_probe.pid)] * WAITING]
        )
    finally:
        pool.close()
    assert isinstance(analysis, Analysis) and analysis.board == board
    assert len(set(pids)) == 1 and killed not in pids, f"answered by workers {pids}, {killed} killed"


async def test_every_picture_waiting_on_a_killed_pictures_worker_is_drawn_by_one_new_worker() -> None:
    pool = PicturePool()
    moves = [ReplayMove(cell, "XO"[ply % 2]) for ply, cell in enumerate(range(20))]
    try:
        killed, (replay, *pids) = await _answers_with_the_worker_killed(
            partial(pool.draw, worker_probe.pid_bytes),
            [
                partial(pool.draw, render_replay, 5, moves),
                *[partial(pool.draw, worker_probe.pid_bytes)] * WAITING,
            ],
        )
    finally:
        pool.close()
    assert replay == render_replay(5, moves)
    assert len(set(pids)) == 1 and str(killed).encode() not in pids, f"drawn by {pids}, {killed} killed"
