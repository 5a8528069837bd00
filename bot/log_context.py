"""What a log line is about: the ids of the guild, channel, game and interaction being handled.

The Discord adapter sets them for the length of an interaction's handling
(:func:`log_context`); every record logged meanwhile, in any layer and in the tasks the handling
starts, carries them (``LOG_FORMAT=json`` writes them as fields, see :mod:`bot.cli.logs`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

_IDS: ContextVar[dict[str, int]] = ContextVar("log_ids", default={})  # noqa: B039  (never mutated)

FIELDS = ("guild_id", "channel_id", "game_id", "interaction_id")


@contextlib.contextmanager
def log_context(**ids: int | None) -> Iterator[None]:
    """Add ``ids`` (those not None) to what the records logged inside the block are about."""
    known = {name: value for name, value in ids.items() if value is not None}
    token = _IDS.set({**_IDS.get(), **known})
    try:
        yield
    finally:
        _IDS.reset(token)


def current_ids() -> dict[str, int]:
    """The ids the code running now is about."""
    return _IDS.get()
