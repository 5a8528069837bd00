"""The game service: rules, turns, ratings and transactions, shared by every adapter.

Adapters build a :class:`GameService` over a :class:`bot.db.Database` and call its
methods; every method returns a view from :mod:`bot.services.views` or raises
:class:`bot.errors.GameError`. Nothing here imports discord.
"""

from bot.db.enums import EndReason, GameResult, GameStatus
from bot.errors import GameError
from bot.services.engine_pool import EnginePool
from bot.services.game_service import GameService
from bot.services.ratings import RatingRules
from bot.services.settings import Clock, GuildShards, ServiceSettings, utc_now
from bot.services.views import (
    Actor,
    CellVerdict,
    FinishedGames,
    First,
    GameHistory,
    GameReview,
    GameView,
    HintView,
    Leaderboard,
    LeaderboardEntry,
    LevelRecord,
    MoveReview,
    MoveView,
    Place,
    PlayerOutcome,
    PlayerStats,
    PlayerView,
    RatingView,
    RecentGame,
    Record,
    Replay,
    Verdict,
)

__all__ = [
    "Actor",
    "CellVerdict",
    "Clock",
    "EndReason",
    "EnginePool",
    "FinishedGames",
    "First",
    "GameError",
    "GameHistory",
    "GameResult",
    "GameReview",
    "GameService",
    "GameStatus",
    "GameView",
    "GuildShards",
    "HintView",
    "Leaderboard",
    "LeaderboardEntry",
    "LevelRecord",
    "MoveReview",
    "MoveView",
    "Place",
    "PlayerOutcome",
    "PlayerStats",
    "PlayerView",
    "RatingRules",
    "RatingView",
    "RecentGame",
    "Record",
    "Replay",
    "ServiceSettings",
    "Verdict",
    "utc_now",
]
