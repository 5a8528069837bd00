"""What a worker process runs besides its work: the initializers and the engine's warm-up task.

The engine pool (and the pictures worker, :mod:`bot.services.picture_pool`) start their
workers with ``spawn``: each is a fresh interpreter that imports the module of every
function it is handed. These live here, outside
``bot.services`` (whose package imports the game service, the database layer and
SQLAlchemy), so that a worker imports only this module and ``bot.engine``: it is ready
in about a tenth of a second instead of half a second or more, which every bot start
and every restart after a crash pays.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading

from bot.engine.oracle import SOLVED_SIZES, table_for


def ready() -> bool:
    """The warm-up task: solve the small boards now (tens of milliseconds), so a first reply is a look-up."""
    for size in SOLVED_SIZES:
        table_for(size)
    return True


def init_worker() -> None:
    """Worker initializer: leave signals to the bot, and end with it.

    Ctrl-C in a terminal reaches the whole process group; the bot shuts its pool
    down in order, so a worker ignores SIGINT instead of dying mid-search with a
    traceback. A bot killed with SIGKILL cannot shut its pool down, and a worker in
    the middle of a 5x5 search would otherwise run on as an orphan: the parent's
    sentinel becomes ready when the parent dies, so a daemon thread waits on it.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


PICTURE_WORKER_NICENESS = 10
"""How much lower the pictures worker runs than the bot: a busy machine serves clicks first."""


def init_picture_worker() -> None:
    """The pictures worker's initializer: as :func:`init_worker`, at a lower scheduling priority.

    A picture can wait a few milliseconds more; a click should not wait behind one.
    """
    init_worker()
    with contextlib.suppress(OSError):
        os.nice(PICTURE_WORKER_NICENESS)
