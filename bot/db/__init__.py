"""Persistence: SQLAlchemy models, the repository (every query), engine set-up and migrations."""

from bot.db.database import Database, create_engine
from bot.db.errors import DatabaseUnavailableError, LostRaceError
from bot.db.models import GLOBAL_SCOPE, GameRecord
from bot.db.repository import Repository

__all__ = [
    "GLOBAL_SCOPE",
    "Database",
    "DatabaseUnavailableError",
    "GameRecord",
    "LostRaceError",
    "Repository",
    "create_engine",
]
