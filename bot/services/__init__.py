"""The game service: rules, turns, ratings and transactions, shared by every adapter.

Adapters build a :class:`GameService` over a :class:`bot.db.Database` and call its
methods; every method returns a result from :mod:`bot.services.results` or raises
a :class:`~bot.services.refusals.NotDone`: a refusal by the rules, or the store unavailable.
Nothing here imports discord.
"""

from bot.services.arena_views import (
    ArenaEntrantView,
    ArenaUpdate,
    ArenaView,
    PairingView,
    RoundView,
    StandingView,
)
from bot.services.engine_pool import EnginePool
from bot.services.game_service import GameService
from bot.services.ratings import RatingRules
from bot.services.refusals import NotDone, Refusal, Unavailable
from bot.services.results import (
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
    RatingChart,
    RatingView,
    RecentGame,
    Record,
    Replay,
    Verdict,
)
from bot.services.server_rules import DEFAULT_THEME, THEMES, SettingsChange, SettingsView, check_theme
from bot.services.settings import Clock, GuildShards, ServiceSettings, utc_now
from bot.states import ArenaStatus, EndReason, GameResult, GameStatus

__all__ = [
    "DEFAULT_THEME",
    "THEMES",
    "Actor",
    "ArenaEntrantView",
    "ArenaStatus",
    "ArenaUpdate",
    "ArenaView",
    "CellVerdict",
    "Clock",
    "EndReason",
    "EnginePool",
    "FinishedGames",
    "First",
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
    "NotDone",
    "PairingView",
    "Place",
    "PlayerOutcome",
    "PlayerStats",
    "PlayerView",
    "RatingChart",
    "RatingRules",
    "RatingView",
    "RecentGame",
    "Record",
    "Refusal",
    "Replay",
    "RoundView",
    "ServiceSettings",
    "SettingsChange",
    "SettingsView",
    "StandingView",
    "Unavailable",
    "Verdict",
    "check_theme",
    "utc_now",
]
