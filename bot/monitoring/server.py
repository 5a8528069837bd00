"""The HTTP endpoint for operators (``HEALTH_PORT``, bound to ``HEALTH_HOST``): health and metrics.

- ``GET /healthz``: 200 with a JSON object whose ``status`` is ``ok`` when every shard of this
  process is connected (a reconnect shorter than the grace period counts as connected) and the
  database answers; 503 otherwise, ``status`` naming what fails (``failing: ...``) and
  ``problems`` listing each. The object also shows each shard's state and latency, the
  database, the engine pool and the bot's version.
- ``GET /metrics``: Prometheus text (``prometheus_client``'s default registry).

It runs on the bot's event loop from before the login to the end of the shutdown, so a health
check sees the bot start and stop.
"""

from __future__ import annotations

import asyncio
import logging
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from bot.monitoring import metrics
from bot.monitoring.shards import ShardWatch
from bot.services import metrics as service_metrics

if TYPE_CHECKING:
    from bot.bot import TicTacToeBot

log = logging.getLogger(__name__)

DATABASE_TIMEOUT = 3.0
"""Seconds the database has to answer a health check's query before it counts as down."""


def bot_version() -> str:
    """The installed package's version (``unknown`` when run from a checkout that is not installed)."""
    try:
        return version("ttt-bot")
    except PackageNotFoundError:
        return "unknown"


class HealthServer:
    """``/healthz`` and ``/metrics`` for ``bot`` on ``host``:``port`` (port 0: any free port)."""

    def __init__(self, bot: TicTacToeBot, host: str, port: int) -> None:
        self._bot = bot
        self._host = host
        self._port = port
        self._shards = ShardWatch(bot)
        self._version = bot_version()
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        self._lag: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Listen, and start measuring the event loop's lag."""
        await self._runner.setup()
        await web.TCPSite(self._runner, self._host, self._port).start()
        for address in self._runner.addresses:
            host, port = address[0], address[1]
            log.info("Health and metrics at http://%s:%s/healthz and /metrics", host, port)
        self._lag = asyncio.create_task(metrics.watch_event_loop_lag(), name="event-loop-lag")

    async def close(self) -> None:
        """Stop listening."""
        if self._lag is not None:
            self._lag.cancel()
        await self._runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        problems: list[str] = []
        shards: dict[str, dict[str, Any]] = {}
        for report in self._shards.reports():
            latency = report.latency_seconds
            shards[str(report.shard_id)] = {
                "state": report.state.value,
                "latency_ms": None if latency is None else round(latency * 1000, 1),
            }
            if not report.state.healthy:
                problems.append(f"shard {report.shard_id} {report.state.value}")
        service = self._bot.open_service
        database: dict[str, Any] = {"reachable": None}
        engine: dict[str, Any] = {"alive": None, "workers": None, "jobs": None}
        if service is None:
            problems.append("game service not open yet")
        else:
            database["reachable"] = await service.database_answers(DATABASE_TIMEOUT)
            if not database["reachable"]:
                problems.append("database unreachable")
            pool = service.engine
            engine = {"alive": pool.alive(), "workers": pool.workers, "jobs": pool.jobs}
        body = {
            "status": "ok" if not problems else "failing: " + ", ".join(problems),
            "problems": problems,
            "shards": shards,
            "database": database,
            "engine_pool": engine,
            "version": self._version,
        }
        return web.json_response(body, status=503 if problems else 200)

    async def _metrics(self, request: web.Request) -> web.Response:
        for report in self._shards.reports():
            if report.latency_seconds is not None:
                metrics.GATEWAY_LATENCY.labels(shard=str(report.shard_id)).set(report.latency_seconds)
        service = self._bot.open_service
        if service is not None:
            try:
                async with asyncio.timeout(DATABASE_TIMEOUT):
                    live = await service.live_game_count()
            except TimeoutError:
                live = None
            if live is not None:
                service_metrics.LIVE_GAMES.set(live)
        return web.Response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})
