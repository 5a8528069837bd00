"""The engine in worker processes, so a long search never blocks the event loop.

Positions the engine answers from a table (every 3x3 position, the 4x4 opening
book) are answered inline instead: a look-up takes microseconds, while a round
trip through the pool costs a millisecond or more of pickling and thread hand-offs
and would queue behind a 5x5 search that occupies the workers.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from bot.engine import DEFAULT_BUDGET_MS, Analysis, Board, Level, analyze, answers_at_once, choose_move
from bot.engine_worker import init_worker as _init_worker
from bot.engine_worker import ready as _ready
from bot.services import metrics, refusals
from bot.services.respawning_pool import RespawningPool

T = TypeVar("T")


class EnginePool:
    """Runs :func:`choose_move` and :func:`analyze` in a :class:`RespawningPool` of ``workers``
    processes. An executor passed in is used as is and left open on :meth:`close`."""

    def __init__(
        self, workers: int = 1, budget_ms: int = DEFAULT_BUDGET_MS, executor: Executor | None = None
    ) -> None:
        self.workers = workers
        self.budget_ms = budget_ms
        self._pool = RespawningPool("engine", workers, _init_worker, executor)
        self.jobs = 0
        """Searches handed to the pool and not yet answered (waiting for a worker or running)."""

    async def _run(self, function: Callable[..., T], *args: object) -> T:
        return await self._pool.run(function, *args)

    async def _search(self, kind: str, function: Callable[..., T], *args: object) -> T:
        """:meth:`_run` a search, counted and timed for the metrics (``kind``: move or analysis)."""
        self.jobs += 1
        metrics.ENGINE_POOL_JOBS.set(self.jobs)
        started = time.perf_counter()
        try:
            return await self._run(function, *args)
        finally:
            self.jobs -= 1
            metrics.ENGINE_POOL_JOBS.set(self.jobs)
            metrics.ENGINE_SEARCHES.labels(kind=kind).inc()
            metrics.ENGINE_SEARCH_SECONDS.labels(kind=kind).observe(time.perf_counter() - started)

    def alive(self) -> bool:
        """Whether the worker processes take work (see :meth:`RespawningPool.alive`)."""
        return self._pool.alive(_ready)

    async def warm_up(self) -> None:
        """Start the worker processes now rather than on the first move that needs one."""
        await asyncio.gather(*(self._run(_ready) for _ in range(self.workers)))

    @staticmethod
    def load_tables() -> None:
        """Load this process's tables (the solved 3x3 game, the 4x4 opening book) now rather than on
        the first move that reads one: tens of milliseconds of CPU, once per process."""
        for size in (3, 4):
            answers_at_once(Board.empty(size))

    def move_at_once(self, board: Board, level: Level, seed: int) -> int | None:
        """The engine's move when a table answers it (see :func:`answers_at_once`), else None."""
        if not answers_at_once(board):
            return None
        return choose_move(board, level, seed, self.budget_ms)

    async def choose_move(self, board: Board, level: Level, seed: int) -> int:
        """The engine's move on ``board`` at ``level``: from a table at once, else searched in a worker."""
        move = self.move_at_once(board, level, seed)
        if move is not None:
            return move
        return await self._search("move", choose_move, board, level, seed, self.budget_ms)

    async def analyze(self, board: Board, budget_ms: int | None = None) -> Analysis:
        """Every move's value on ``board``; a search stops after ``budget_ms`` (default: the pool's).

        Raises :class:`~bot.services.refusals.EngineUnavailable` when the workers died under it twice.
        """
        budget = self.budget_ms if budget_ms is None else budget_ms
        if answers_at_once(board):
            return analyze(board, budget)
        try:
            return await self._search("analysis", analyze, board, budget)
        except BrokenProcessPool as error:
            raise refusals.EngineUnavailable() from error

    def close(self) -> None:
        """Shut down the worker processes this pool started."""
        self._pool.close()
