"""Where the Alembic migration scripts are, in a source checkout and in an installed bot alike.

The scripts live in the top-level ``migrations/`` folder of the repository, and
``pyproject.toml`` ships that folder inside the distribution as the package
``bot.migrations``, so ``pip install .`` (not only ``pip install -e .``) can migrate.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

MIGRATIONS_PACKAGE = "bot.migrations"
SOURCE_MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
"""The folder in a source checkout that runs without installing the project."""


def migrations_dir() -> Path:
    """The folder holding ``env.py`` and ``versions/``, found through the import system."""
    try:
        return Path(str(files(MIGRATIONS_PACKAGE)))
    except ModuleNotFoundError:
        return SOURCE_MIGRATIONS
