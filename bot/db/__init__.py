"""Persistence: SQLAlchemy models, the repository (every query), engine set-up and migrations."""

from bot.db.database import Database, create_engine, is_sqlite
from bot.db.errors import DatabaseUnavailableError, LostRaceError
from bot.db.models import (
    GLOBAL_SCOPE,
    Arena,
    ArenaPairing,
    ArenaPlayer,
    ArenaRound,
    Base,
    Game,
    GameRecord,
    Move,
    Player,
    Rating,
    RatingChange,
    ServerChannel,
    ServerSettings,
    StoredReview,
)
from bot.db.repository import Repository

__all__ = [
    "GLOBAL_SCOPE",
    "Arena",
    "ArenaPairing",
    "ArenaPlayer",
    "ArenaRound",
    "Base",
    "Database",
    "DatabaseUnavailableError",
    "Game",
    "GameRecord",
    "LostRaceError",
    "Move",
    "Player",
    "Rating",
    "RatingChange",
    "Repository",
    "ServerChannel",
    "ServerSettings",
    "StoredReview",
    "create_engine",
    "is_sqlite",
]
