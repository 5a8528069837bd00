"""What the game service is told from outside: timeouts, pool size, limits (not read from the environment)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.engine import DEFAULT_BUDGET_MS
from bot.services.ratings import RatingRules

Clock = Callable[[], datetime]
"""Returns the current time, timezone-aware. Tests pass a clock they move by hand."""


def utc_now() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class GuildShards:
    """The guilds one process of a sharded bot serves: those whose shard, ``(guild_id >> 22) % count``
    (Discord's rule), is one of ``ids``."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        """Whether the guild ``guild_id`` belongs to one of these shards (Discord's sharding formula)."""
        return (guild_id >> 22) % self.count in self.ids

    def serve(self, guild_id: int | None) -> bool:
        """Whether a game in ``guild_id`` is this process's: its guild's shard, or shard 0 for a game
        outside servers (where Discord sends direct messages' events)."""
        return 0 in self.ids if guild_id is None else self.owns(guild_id)


@dataclass(frozen=True, slots=True)
class ServiceSettings:
    """The service's knobs; the field names match ``bot.config.Settings`` where both have one."""

    turn_timeout_seconds: float = 600.0
    challenge_timeout_seconds: float = 120.0
    engine_workers: int = 1
    engine_budget_ms: int = DEFAULT_BUDGET_MS
    start_cooldown_seconds: float = 10.0
    """Per user: the least time between two games (or challenges) they start, unless the earlier one
    was played out to a result (won, lost, drawn or resigned)."""
    leaderboard_size: int = 10
    recent_games: int = 5
    history_size: int = 10
    """How many finished games a game list shows."""
    review_budget_ms: int = 8000
    """Search time for a whole review, shared by its positions; only 5x5 positions use it up."""
    bot_turn_attempts: int = 3
    """How many times in a row the bot's move may fail (a worker died, a search raised) before its
    game is cancelled."""
    bot_retry_seconds: float = 2.0
    """How soon a failed bot move is tried again."""
    bot_name: str = "Tic-Tac-Toe Bot"
    ratings: RatingRules = field(default_factory=RatingRules)
    shards: GuildShards | None = None
    """The guilds whose pending bot moves this process resumes after a restart; None: every guild."""

    @property
    def bot_turn_seconds(self) -> float:
        """How long the bot's turn may last before its move is made again: the engine's budget
        twice over, and room for a worker that starts and a database slow to answer."""
        return 2 * self.engine_budget_ms / 1000 + 5
