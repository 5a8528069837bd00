"""``python -m tests.support.kill_at_commit POINT``: the bot, killing itself at a commit that stores a move.

A fault point from outside the product: before the bot runs, SQLAlchemy event listeners are
installed on every engine (:class:`sqlalchemy.engine.Engine`); they note a transaction that
inserts into ``moves``, and at its commit SIGKILL the process, right before the commit
(``before-move-commit``) or right after it (``after-move-commit``: the listener commits on
the driver's connection first). Every other argument goes to ``python -m bot``.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

POINTS = ("before-move-commit", "after-move-commit")
STORES_MOVE = "tests_stores_move"
"""The key, in a connection's ``info``, of "this transaction inserted a move"."""

log = logging.getLogger("tests.support.kill_at_commit")


def install(point: str) -> None:
    """Kill this process at ``point`` of the first commit of a transaction that inserts a move."""
    if point not in POINTS:
        raise SystemExit(f"the kill point must be one of {', '.join(POINTS)}, not {point!r}")

    @event.listens_for(Engine, "before_cursor_execute")
    def _note_move(connection: Connection, cursor: Any, statement: str, *args: Any) -> None:
        if "INSERT INTO moves" in statement:
            connection.info[STORES_MOVE] = True

    @event.listens_for(Engine, "rollback")
    def _forget(connection: Connection) -> None:
        connection.info.pop(STORES_MOVE, None)

    @event.listens_for(Engine, "commit")
    def _kill(connection: Connection) -> None:
        if not connection.info.pop(STORES_MOVE, False):
            return
        if point == "after-move-commit":
            connection.connection.dbapi_connection.commit()  # type: ignore[union-attr]
        log.warning("Test fault hook: killing this process %s", point.replace("-", " "))
        logging.shutdown()
        os.kill(os.getpid(), signal.SIGKILL)

    log.warning("Test fault hook armed: this process kills itself at %s", point)


def main(argv: list[str]) -> int:
    from bot.__main__ import main as bot_main

    install(argv[0])
    return bot_main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
