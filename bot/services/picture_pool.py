"""Pictures drawn in a worker process, so that drawing never competes with clicks for the interpreter.

Drawing a chart holds the interpreter for a good part of its 100-200 ms (matplotlib
is mostly Python); in a thread of the bot's process that would stretch every click
handled meanwhile several times over. A separate process draws on another core
instead, at a lower scheduling priority than the bot, so on a busy machine clicks come
first. It is started on the first picture, not with the bot (its first chart pays the
matplotlib import, about half a second), and rebuilt once if it dies.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.engine_worker import init_picture_worker as _init_worker

log = logging.getLogger(__name__)


class PicturePool:
    """Runs picture renderers (plain functions returning bytes) in one spawned worker process.

    An executor passed in (a thread, for the terminal's one-off pictures) is used as
    is and left open on :meth:`close`.
    """

    def __init__(self, executor: Executor | None = None) -> None:
        self._owned = executor is None
        self._executor = executor

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=_init_worker
            )
        return self._executor

    async def draw(self, render: Callable[..., bytes], *args: object) -> bytes:
        """``render(*args)`` in the picture worker: the picture's bytes."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), render, *args)
        except BrokenProcessPool:
            if not self._owned:
                raise
            log.warning("The pictures worker died; starting a new one")
            broken, self._executor = self._executor, None
            if broken is not None:
                broken.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._pool(), render, *args)

    def close(self) -> None:
        """Shut down the worker process this pool started."""
        if self._owned and self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
        self._executor = None
