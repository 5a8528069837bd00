"""Whether each gateway shard of this process is connected, from discord.py's public events.

A shard counts as connected from its READY (``on_connect``) or RESUMED (``on_resumed``) until its
socket closes (``on_disconnect``); discord.py then reconnects by itself. A reconnect that has not
succeeded within :data:`RECONNECT_GRACE_SECONDS` counts as a failure: the bot is not on Discord.
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord
from discord.ext import commands

RECONNECT_GRACE_SECONDS = 10.0
"""How long a shard may be reconnecting before health checks report it as down."""


class ShardState(enum.StrEnum):
    """Where a shard's gateway connection is."""

    CONNECTING = "connecting"
    """Not connected yet since the bot started."""
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    """Lost its connection less than the grace period ago."""
    DISCONNECTED = "disconnected"
    """Lost its connection and has not got it back within the grace period."""

    @property
    def healthy(self) -> bool:
        """Whether the shard counts as on Discord (a short reconnect does)."""
        return self in (ShardState.CONNECTED, ShardState.RECONNECTING)


@dataclass(frozen=True, slots=True)
class ShardReport:
    """One shard as a health check shows it."""

    shard_id: int
    state: ShardState
    latency_seconds: float | None
    down_seconds: float | None
    """Since when the shard has been without a connection (None while connected)."""


class ShardWatch:
    """Follows the connection of every shard of ``client`` (shard 0 for an unsharded bot)."""

    def __init__(self, client: commands.Bot, clock: Callable[[], float] = time.monotonic) -> None:
        self._client = client
        self._clock = clock
        ids: Sequence[int] | None = None
        if isinstance(client, discord.AutoShardedClient):
            ids = client.shard_ids
            if ids is None and client.shard_count is not None:  # every shard, in this process
                ids = range(client.shard_count)
            client.add_listener(self._shard_up, "on_shard_connect")
            client.add_listener(self._shard_up, "on_shard_resumed")
            client.add_listener(self._shard_down, "on_shard_disconnect")
        else:
            client.add_listener(self._up, "on_connect")
            client.add_listener(self._up, "on_resumed")
            client.add_listener(self._down, "on_disconnect")
        self.shard_ids: tuple[int, ...] = tuple(ids) if ids is not None else (0,)
        self._connected: dict[int, bool] = dict.fromkeys(self.shard_ids, False)
        self._down_since: dict[int, float] = dict.fromkeys(self.shard_ids, clock())
        self._ever: set[int] = set()

    async def _up(self) -> None:
        await self._shard_up(0)

    async def _down(self) -> None:
        await self._shard_down(0)

    async def _shard_up(self, shard_id: int) -> None:
        self._connected[shard_id] = True
        self._ever.add(shard_id)

    async def _shard_down(self, shard_id: int) -> None:
        if self._connected.get(shard_id, True):
            self._down_since[shard_id] = self._clock()
        self._connected[shard_id] = False

    def reports(self) -> list[ShardReport]:
        """Every shard of the process, in order of id."""
        return [self._report(shard_id) for shard_id in self.shard_ids]

    def _report(self, shard_id: int) -> ShardReport:
        latency = self._latency(shard_id)
        if self._connected[shard_id]:
            return ShardReport(shard_id, ShardState.CONNECTED, latency, None)
        down = self._clock() - self._down_since[shard_id]
        if shard_id not in self._ever:
            state = ShardState.CONNECTING
        elif down < RECONNECT_GRACE_SECONDS:
            state = ShardState.RECONNECTING
        else:
            state = ShardState.DISCONNECTED
        return ShardReport(shard_id, state, None, down)

    def _latency(self, shard_id: int) -> float | None:
        if isinstance(self._client, discord.AutoShardedClient):
            shard = self._client.get_shard(shard_id)
            seconds = shard.latency if shard is not None else float("nan")
        else:
            seconds = self._client.latency
        return seconds if math.isfinite(seconds) else None  # NaN or infinity: no heartbeat answered yet
