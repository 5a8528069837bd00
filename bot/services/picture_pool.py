"""Pictures drawn in a worker process, so that drawing never competes with clicks for the interpreter.

Drawing a chart holds the interpreter for a good part of its 100-200 ms (matplotlib
is mostly Python); in a thread of the bot's process that would stretch every click
handled meanwhile several times over. A separate process draws on another core
instead, at a lower scheduling priority than the bot, so on a busy machine clicks come
first. It is started on the first picture, not with the bot (its first chart pays the
matplotlib import, about half a second), and started again if it dies.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor

from bot.engine_worker import init_picture_worker as _init_worker
from bot.services.respawning_pool import RespawningPool


class PicturePool:
    """Runs picture renderers (plain functions returning bytes) in one spawned worker process.

    An executor passed in (a thread, for the terminal's one-off pictures) is used as
    is and left open on :meth:`close`.
    """

    def __init__(self, executor: Executor | None = None) -> None:
        self._pool = RespawningPool("pictures", 1, _init_worker, executor)

    async def draw(self, render: Callable[..., bytes], *args: object) -> bytes:
        """``render(*args)`` in the picture worker: the picture's bytes."""
        return await self._pool.run(render, *args)

    def close(self) -> None:
        """Shut down the worker process this pool started."""
        self._pool.close()
