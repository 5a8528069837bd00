"""The Discord adapter's Prometheus metrics: interactions, gateway latency and event-loop lag."""

from __future__ import annotations

import asyncio

from prometheus_client import Counter, Gauge, Histogram

INTERACTIONS = Counter(
    "ttt_interactions",
    "Interactions handled, by kind (/command or button:action) and outcome "
    "(answered, refused: the user was told why not, unavailable: the database was down, failed)",
    ["kind", "outcome"],
)
INTERACTION_SECONDS = Histogram(
    "ttt_interaction_seconds",
    "Time from the start of an interaction's handling to its last answer",
    ["kind"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0),
)
GATEWAY_LATENCY = Gauge(
    "ttt_gateway_latency_seconds", "Time between a gateway heartbeat and its acknowledgement", ["shard"]
)
EVENT_LOOP_LAG = Gauge(
    "ttt_event_loop_lag_seconds", "How late the event loop last ran a timer (a busy loop answers late)"
)
LAG_INTERVAL = 0.5
"""Seconds between two measurements of the event loop's lag."""


def interaction_handled(kind: str, outcome: str, seconds: float) -> None:
    """Count one handled interaction and time it."""
    INTERACTIONS.labels(kind=kind, outcome=outcome).inc()
    INTERACTION_SECONDS.labels(kind=kind).observe(seconds)


async def watch_event_loop_lag() -> None:
    """Measure, until cancelled, how much later than asked a timer of the event loop fires."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time() + LAG_INTERVAL
        await asyncio.sleep(LAG_INTERVAL)
        EVENT_LOOP_LAG.set(max(0.0, loop.time() - asked))
