"""The engine in worker processes, so a long search never blocks the event loop.

Positions the engine answers from a table (every 3x3 position, the 4x4 opening
book) are answered inline instead: a look-up takes microseconds, while a round
trip through the pool costs a millisecond or more of pickling and thread hand-offs
and would queue behind a 5x5 search that occupies the workers.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from bot.engine import DEFAULT_BUDGET_MS, Analysis, Board, Level, analyze, answers_at_once, choose_move
from bot.engine_worker import init_worker as _init_worker
from bot.engine_worker import ready as _ready

log = logging.getLogger(__name__)
T = TypeVar("T")


class EnginePool:
    """Runs :func:`choose_move` and :func:`analyze` in an executor.

    By default it owns a :class:`ProcessPoolExecutor` of ``workers`` processes
    (started with ``spawn``: forking a process that runs an event loop and
    database threads is unsafe), rebuilt once if a worker dies. An executor
    passed in is used as is and left open on :meth:`close`.
    """

    def __init__(
        self, workers: int = 1, budget_ms: int = DEFAULT_BUDGET_MS, executor: Executor | None = None
    ) -> None:
        self.workers = workers
        self.budget_ms = budget_ms
        self._owned = executor is None
        self._executor = executor

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_init_worker
            )
        return self._executor

    async def _run(self, function: Callable[..., T], *args: object) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), function, *args)
        except BrokenProcessPool:
            if not self._owned:
                raise
            log.warning("An engine worker died; starting a new pool")
            broken, self._executor = self._executor, None
            if broken is not None:
                broken.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._pool(), function, *args)

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
        return await self._run(choose_move, board, level, seed, self.budget_ms)

    async def analyze(self, board: Board, budget_ms: int | None = None) -> Analysis:
        """Every move's value on ``board``; a search stops after ``budget_ms`` (default: the pool's)."""
        budget = self.budget_ms if budget_ms is None else budget_ms
        if answers_at_once(board):
            return analyze(board, budget)
        return await self._run(analyze, board, budget)

    def close(self) -> None:
        """Shut down the worker processes this pool started."""
        if self._owned and self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
        self._executor = None
