"""Worker processes that come back when one dies: the engine's and the pictures' pools.

When a worker of a :class:`ProcessPoolExecutor` dies (killed, out of memory), the executor is
broken for good: every call queued on it fails with ``BrokenProcessPool`` at once. Each of those
callers then wants a new pool, and the first to ask gets it; the others must use that one rather
than replace it again, or the calls already running on it would be cancelled. So a pool is
replaced only while it is still the one that failed.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


class RespawningPool:
    """Runs pure functions in ``workers`` spawned processes, on a new pool when a worker has died.

    Processes are started with ``spawn`` (forking a process that runs an event loop and
    database threads is unsafe), on the first call. A call that failed because its pool broke
    is made once more on a new pool: the functions are pure, so making one twice is safe, and
    once is enough for a worker killed from outside; a call that kills its worker again is
    reported to its caller. An executor passed in is used as is, never replaced, and left open
    on :meth:`close`.
    """

    def __init__(
        self,
        name: str,
        workers: int,
        initializer: Callable[[], None],
        executor: Executor | None = None,
    ) -> None:
        self.name = name
        self.workers = workers
        self._initializer = initializer
        self._owned = executor is None
        self._executor = executor

    def _current(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=self._initializer
            )
        return self._executor

    def _replace(self, broken: Executor) -> None:
        """Drop ``broken`` unless another caller has already replaced it."""
        if self._executor is not broken:
            return
        log.warning("A worker of the %s pool died; starting a new pool", self.name)
        self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)

    async def run(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` in a worker process."""
        loop = asyncio.get_running_loop()
        executor = self._current()
        try:
            return await loop.run_in_executor(executor, function, *args)
        except BrokenProcessPool:
            if not self._owned:
                raise
            self._replace(executor)
        return await loop.run_in_executor(self._current(), function, *args)

    def alive(self, probe: Callable[[], object]) -> bool:
        """Whether the workers take work: started, and the no-op ``probe`` handed to them is accepted
        (a pool whose worker died refuses it; the next :meth:`run` replaces such a pool)."""
        if self._executor is None:
            return False
        try:
            self._executor.submit(probe)
        except (BrokenProcessPool, RuntimeError):
            return False
        return True

    def close(self) -> None:
        """Shut down the worker processes this pool started."""
        if self._owned and self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
        self._executor = None
