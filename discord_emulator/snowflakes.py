"""Discord snowflake ids: unique, time-ordered, and placeable on a chosen shard."""

from __future__ import annotations

import time

DISCORD_EPOCH_MS = 1_420_070_400_000
_INCREMENT_BITS = 12
_TIMESTAMP_SHIFT = 22


def shard_for(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events, by Discord's formula."""
    return (guild_id >> _TIMESTAMP_SHIFT) % shard_count


def snowflake_time_ms(snowflake: int) -> int:
    """Unix time in milliseconds encoded in a snowflake."""
    return (snowflake >> _TIMESTAMP_SHIFT) + DISCORD_EPOCH_MS


class SnowflakeFactory:
    """Hands out strictly increasing snowflakes whose timestamps follow the wall clock.

    Ids made in the same millisecond differ in the 12-bit increment; a guild id can be asked for a
    given shard, which moves its timestamp forward by at most ``shard_count - 1`` milliseconds.
    """

    def __init__(self) -> None:
        self._last_ms = 0
        self._increment = 0

    def next(self, *, shard: tuple[int, int] | None = None) -> int:
        ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, self._last_ms)
        if ms == self._last_ms:
            self._increment += 1
            if self._increment >= 1 << _INCREMENT_BITS:
                ms += 1
                self._increment = 0
        else:
            self._increment = 0
        if shard is not None:
            shard_id, shard_count = shard
            if not 0 <= shard_id < shard_count:
                raise ValueError(f"shard {shard_id} is outside 0..{shard_count - 1}")
            while ms % shard_count != shard_id:
                ms += 1
                self._increment = 0
        self._last_ms = ms
        return (ms << _TIMESTAMP_SHIFT) | self._increment
