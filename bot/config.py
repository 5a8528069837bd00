"""Settings from the environment and from ``.env`` in the working directory (README: Configuration).

The environment wins over ``.env``; an empty value counts as unset. Every value is checked
when the settings are loaded, so a typo fails at start-up with a message that names the
variable instead of surfacing later as an odd crash.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from dotenv import dotenv_values

from bot.engine import DEFAULT_BUDGET_MS

T = TypeVar("T")

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///ttt.sqlite3"
DEFAULT_DISCORD_API_BASE = "https://discord.com/api/v10"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


class ConfigError(ValueError):
    """A setting with a value the bot cannot use; the message names the variable."""


class Secret:
    """A string that never shows itself in ``repr``, ``str``, logs or tracebacks; read it with ``get()``."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get(self) -> str:
        """The secret itself (never shown by ``repr``)."""
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting of the bot, checked; build one with :meth:`load` (or directly in tests)."""

    discord_token: Secret | None = None
    database_url: str = field(default=DEFAULT_DATABASE_URL, repr=False)
    discord_api_base: str = DEFAULT_DISCORD_API_BASE
    dev_guild_id: int | None = None
    sync_commands: bool = True
    auto_migrate: bool = True
    turn_timeout_seconds: float = 600.0
    challenge_timeout_seconds: float = 120.0
    engine_workers: int = 1
    engine_budget_ms: int = DEFAULT_BUDGET_MS
    start_cooldown_seconds: float = 10.0
    sweep_interval_seconds: float = 5.0
    sqlite_busy_timeout_ms: int = 10_000
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    log_level: str = "INFO"

    @property
    def database_url_display(self) -> str:
        """The database URL with any password masked, fit for logs (``repr`` leaves the URL out)."""
        from sqlalchemy.engine import make_url  # imported on use: SQLAlchemy adds 0.2 s to every start

        return make_url(self.database_url).render_as_string(hide_password=True)

    @property
    def uses_custom_api_base(self) -> bool:
        """True when ``DISCORD_API_BASE`` points somewhere other than Discord itself."""
        return self.discord_api_base != DEFAULT_DISCORD_API_BASE

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None, env_file: str | Path | None = ".env") -> Settings:
        """Read ``env_file`` if it exists, overlay ``environ`` (default ``os.environ``), check every value."""
        values: dict[str, str] = {}
        if env_file is not None and Path(env_file).is_file():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)
        return cls.from_mapping(values)

    @classmethod
    def from_mapping(cls, values: Mapping[str, str]) -> Settings:
        """Build settings from already merged variables; raise :class:`ConfigError` on a bad value."""
        env = _Reader(values)
        token = env.get("DISCORD_TOKEN", str, None)
        shard_count = env.get("SHARD_COUNT", _positive_int, None)
        shard_ids = env.get("SHARD_IDS", _int_list, None)
        if shard_ids is not None:
            if shard_count is None:
                raise ConfigError("SHARD_IDS needs SHARD_COUNT, the total number of shards.")
            outside = [i for i in shard_ids if i >= shard_count]
            if outside:
                raise ConfigError(
                    f"SHARD_IDS has {outside[0]}, but shard ids run from 0 to {shard_count - 1} "
                    f"with SHARD_COUNT={shard_count}."
                )
        return cls(
            discord_token=Secret(token) if token is not None else None,
            database_url=env.get("DATABASE_URL", _database_url, DEFAULT_DATABASE_URL, echo=False),
            discord_api_base=env.get("DISCORD_API_BASE", _http_url, DEFAULT_DISCORD_API_BASE),
            dev_guild_id=env.get("DEV_GUILD_ID", _positive_int, None),
            sync_commands=env.get("SYNC_COMMANDS", _boolean, True),
            auto_migrate=env.get("AUTO_MIGRATE", _boolean, True),
            turn_timeout_seconds=env.get("TURN_TIMEOUT_SECONDS", _positive_seconds, 600.0),
            challenge_timeout_seconds=env.get("CHALLENGE_TIMEOUT_SECONDS", _positive_seconds, 120.0),
            engine_workers=env.get("ENGINE_WORKERS", _positive_int, 1),
            engine_budget_ms=env.get("ENGINE_BUDGET_MS", _positive_int, DEFAULT_BUDGET_MS),
            start_cooldown_seconds=env.get("START_COOLDOWN_SECONDS", _seconds, 10.0),
            sweep_interval_seconds=env.get("SWEEP_INTERVAL_SECONDS", _positive_seconds, 5.0),
            sqlite_busy_timeout_ms=env.get("SQLITE_BUSY_TIMEOUT_MS", _milliseconds, 10_000),
            shard_count=shard_count,
            shard_ids=shard_ids,
            log_level=env.get("LOG_LEVEL", _log_level, "INFO"),
        )


class _Reader:
    """Looks variables up, treating blank values as unset and naming the variable in every error."""

    def __init__(self, values: Mapping[str, str]) -> None:
        self._values = values

    def get(self, name: str, convert: Callable[[str], T], default: T, *, echo: bool = True) -> T:
        """The converted value of ``name``; ``echo=False`` keeps a value that may hold a password out."""
        raw = self._values.get(name, "").strip()
        if not raw:
            return default
        try:
            return convert(raw)
        except ValueError as error:
            shown = f"{name}={_shown(raw)}" if echo else name
            raise ConfigError(f"{shown} is not valid: {error}") from None


def _shown(raw: str) -> str:
    return repr(raw if len(raw) <= 40 else raw[:40] + "...")


def _boolean(raw: str) -> bool:
    lowered = raw.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError("use true or false.")


def _integer(raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise ValueError("expected a whole number.") from None


def _positive_int(raw: str) -> int:
    value = _integer(raw)
    if value < 1:
        raise ValueError("expected a whole number of at least 1.")
    return value


MAX_MILLISECONDS = 2**31 - 1
"""SQLite keeps its busy timeout in a C int."""


def _milliseconds(raw: str) -> int:
    value = _integer(raw)
    if not 0 <= value <= MAX_MILLISECONDS:
        raise ValueError(f"expected a whole number of milliseconds from 0 to {MAX_MILLISECONDS}.")
    return value


def _seconds(raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ValueError("expected a number of seconds.") from None
    if not 0 <= value < float("inf"):
        raise ValueError("expected a number of seconds, 0 or more.")
    return value


def _positive_seconds(raw: str) -> float:
    value = _seconds(raw)
    if value == 0:
        raise ValueError("expected a number of seconds above 0.")
    return value


def _int_list(raw: str) -> tuple[int, ...]:
    parts = [part.strip() for part in raw.split(",")]
    if any(not part for part in parts):
        raise ValueError("expected whole numbers separated by commas, e.g. 0,1,2.")
    try:
        values = tuple(int(part) for part in parts)
    except ValueError:
        raise ValueError("expected whole numbers separated by commas, e.g. 0,1,2.") from None
    if any(value < 0 for value in values):
        raise ValueError("shard ids are 0 or more.")
    if len(set(values)) != len(values):
        raise ValueError("a shard id is listed twice.")
    return values


_SQLALCHEMY_URL = re.compile(
    r"""
        [\w+]+://
        (?:[^:/]*(?::[^@]*)?@)?
        (?:(?:\[[^/?]+\]|[^/:?]+)?(?::(?P<port>[^/?]*))?)?
    """,
    re.X,
)
"""The start of a URL as SQLAlchemy's ``make_url`` reads it (the rest, database and query, is free)."""


def _database_url(raw: str) -> str:
    """A URL SQLAlchemy can read: ``dialect+driver://...`` with a whole-number port, if any.

    Checked as ``make_url`` checks it, without importing SQLAlchemy: that takes a fifth of a
    second, and the bot connects to Discord before it opens the database.
    """
    match = _SQLALCHEMY_URL.match(raw)
    try:
        if match is None:
            raise ValueError
        if match["port"] is not None:
            int(match["port"])
    except ValueError:
        raise ValueError("expected a SQLAlchemy URL such as sqlite+aiosqlite:///ttt.sqlite3.") from None
    return raw


def _http_url(raw: str) -> str:
    if not raw.startswith(("http://", "https://")) or len(raw.split("://", 1)[1].strip("/")) == 0:
        raise ValueError("expected an http:// or https:// URL such as https://discord.com/api/v10.")
    return raw.rstrip("/")


def _log_level(raw: str) -> str:
    level = raw.upper()
    if level not in LOG_LEVELS:
        raise ValueError(f"use one of {', '.join(LOG_LEVELS)}.")
    return level
