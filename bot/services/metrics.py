"""The game service's Prometheus metrics: games, engine searches and the store's write batches.

They live in ``prometheus_client``'s default registry, which the bot's ``/metrics`` endpoint
serves (:mod:`bot.monitoring`); in the terminal nothing reads them. Games are counted once the
transaction that started or finished them has committed.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

SECONDS_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

GAMES_STARTED = Counter(
    "ttt_games_started",
    "Games that began (against the bot at once, between members once accepted)",
    ["size", "opponent"],
)
GAMES_FINISHED = Counter(
    "ttt_games_finished",
    "Games that ended with a result (a line, a full board, a resignation or a timeout)",
    ["size", "opponent"],
)
LIVE_GAMES = Gauge("ttt_live_games", "Pending challenges and active games in the database")
ENGINE_SEARCHES = Counter("ttt_engine_searches", "Searches run in the engine's worker processes", ["kind"])
ENGINE_SEARCH_SECONDS = Histogram(
    "ttt_engine_search_seconds",
    "Time from handing a search to the engine pool to its answer (queueing included)",
    ["kind"],
    buckets=SECONDS_BUCKETS,
)
ENGINE_POOL_JOBS = Gauge("ttt_engine_pool_jobs", "Searches in the engine pool, waiting or running")
WRITE_BATCHES = Counter("ttt_write_batches", "Write transactions committed (each holds one or more writes)")
WRITES_PER_BATCH = Histogram(
    "ttt_writes_per_batch", "Writes that shared one commit", buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256)
)
COMMIT_SECONDS = Histogram("ttt_commit_seconds", "Time a write batch's commit took", buckets=SECONDS_BUCKETS)


def opponent_kind(level: str | None) -> str:
    """A game's ``opponent`` label: ``bot`` when the bot plays a side (it has a level), else ``member``."""
    return "member" if level is None else "bot"


def game_started(size: int, level: str | None) -> None:
    """Count a game that has begun."""
    GAMES_STARTED.labels(size=str(size), opponent=opponent_kind(level)).inc()


def game_finished(size: int, level: str | None) -> None:
    """Count a game that ended with a result."""
    GAMES_FINISHED.labels(size=str(size), opponent=opponent_kind(level)).inc()


def batch_committed(writes: int, seconds: float) -> None:
    """The store's commit observer: count a committed write batch and time its commit."""
    WRITE_BATCHES.inc()
    WRITES_PER_BATCH.observe(writes)
    COMMIT_SECONDS.observe(seconds)
