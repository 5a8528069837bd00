"""Settings from the environment and from ``.env`` in the working directory (README: Configuration).

The environment wins over ``.env``; an empty value counts as unset. Every value is checked
when the settings are loaded, so a typo fails at start-up with a message that names the
variable instead of surfacing later as an odd crash.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from bot.engine import DEFAULT_BUDGET_MS

DISCORD_API = "https://discord.com/api/v10"
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
MAX_MILLISECONDS = 2**31 - 1
"""SQLite keeps its busy timeout in a C int."""
ASYNC_URL_FORMS = {
    "sqlite": "sqlite+aiosqlite:///ttt.sqlite3",
    "postgresql": "postgresql+asyncpg://user:password@host:5432/dbname",
}
"""The URL form to suggest for a database whose URL names no async driver."""
DRIVER_EXTRAS = {"asyncpg": "postgres"}
"""The install extra that brings each optional database driver."""
Seconds = Annotated[float, Field(gt=0, allow_inf_nan=False)]


class ConfigError(ValueError):
    """A setting with a value the bot cannot use; the message names the variable."""


class Settings(BaseSettings):
    """Every setting of the bot, checked; field ``x`` is the variable ``X``.

    ``Settings()`` reads the environment and ``.env``; :meth:`load` does the same and turns a bad
    value into a one-line :class:`ConfigError`.
    """

    model_config = SettingsConfigDict(
        env_file=".env", env_ignore_empty=True, extra="ignore", frozen=True, hide_input_in_errors=True
    )

    discord_token: SecretStr | None = None
    database_url: str = Field(default=ASYNC_URL_FORMS["sqlite"], repr=False)
    discord_api_base: str = DISCORD_API
    dev_guild_id: int | None = Field(default=None, ge=1)
    sync_commands: bool = True
    auto_migrate: bool = True
    turn_timeout_seconds: Seconds = 600.0
    challenge_timeout_seconds: Seconds = 120.0
    engine_workers: int = Field(default=1, ge=1)
    engine_budget_ms: int = Field(default=DEFAULT_BUDGET_MS, ge=1)
    start_cooldown_seconds: float = Field(default=10.0, ge=0, allow_inf_nan=False)
    sweep_interval_seconds: Seconds = 5.0
    sqlite_busy_timeout_ms: int = Field(default=10_000, ge=0, le=MAX_MILLISECONDS)
    shard_count: int | None = Field(default=None, ge=1)
    shard_ids: Annotated[tuple[Annotated[int, Field(ge=0)], ...] | None, NoDecode] = None
    log_level: LogLevel = "INFO"
    log_format: Literal["text", "json"] = "text"
    health_port: int | None = Field(default=None, ge=0, le=65535)
    """0: any free port, named in the log."""
    health_host: str = "127.0.0.1"

    @classmethod
    def load(cls, env_file: str | Path | None = ".env") -> Settings:
        """The settings from the environment and ``env_file``; :class:`ConfigError` names a bad one."""
        try:
            return cls(_env_file=env_file)  # type: ignore[call-arg]
        except ValidationError as error:
            raise ConfigError(_first_problem(error)) from None

    @field_validator("database_url")
    @classmethod
    def _async_url(cls, url: str) -> str:
        try:
            parsed = make_url(url)
            is_async = parsed.get_dialect().is_async
        except NoSuchModuleError:
            raise ValueError(f"SQLAlchemy knows no database {parsed.drivername!r}") from None
        except (ArgumentError, ValueError):
            raise ValueError("expected a SQLAlchemy URL such as sqlite+aiosqlite:///ttt.sqlite3") from None
        if not is_async:
            form = ASYNC_URL_FORMS.get(parsed.get_backend_name(), "dialect+asyncdriver://...")
            raise ValueError(f"{parsed.drivername}:// has no async driver; use the form {form}")
        return url

    @field_validator("discord_api_base")
    @classmethod
    def _http_url(cls, url: str) -> str:
        if not url.startswith(("http://", "https://")) or not url.split("://", 1)[1].strip("/"):
            raise ValueError("expected an http:// or https:// URL such as https://discord.com/api/v10")
        return url.rstrip("/")

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, raw: Any) -> Any:
        if not isinstance(raw, str):
            return raw
        parts = [part.strip() for part in raw.split(",")]
        if not all(part.lstrip("-").isdigit() for part in parts):
            raise ValueError("expected whole numbers separated by commas, e.g. 0,1,2")
        return tuple(int(part) for part in parts)

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, raw: Any) -> Any:
        return raw.upper() if isinstance(raw, str) else raw

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the total number of shards")
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError("SHARD_IDS lists a shard id twice")
        outside = [i for i in self.shard_ids if i >= self.shard_count]
        if outside:
            raise ValueError(
                f"SHARD_IDS has {outside[0]}, but shard ids run from 0 to {self.shard_count - 1} "
                f"with SHARD_COUNT={self.shard_count}"
            )
        return self

    @property
    def database_url_display(self) -> str:
        """The database URL with any password masked, fit for logs (``repr`` leaves the URL out)."""
        return make_url(self.database_url).render_as_string(hide_password=True)

    @property
    def uses_custom_api_base(self) -> bool:
        """True when ``DISCORD_API_BASE`` points somewhere other than Discord itself."""
        return self.discord_api_base != DISCORD_API

    def check_database_driver(self) -> None:
        """Raise :class:`ConfigError` when the driver ``DATABASE_URL`` names is not installed, saying
        what to install (run by the commands that open the database, at start)."""
        driver = make_url(self.database_url).get_driver_name()
        if importlib.util.find_spec(driver) is not None:
            return
        extra = DRIVER_EXTRAS.get(driver)
        install = f"pip install 'ttt-bot[{extra}]'" if extra else f"pip install {driver}"
        raise ConfigError(f"DATABASE_URL needs the driver {driver}, which is not installed: {install}")


def _first_problem(error: ValidationError) -> str:
    """One line about the first bad value: the variable, the value unless it may be secret, and why."""
    problem = error.errors(include_input=True, include_url=False)[0]
    why = str(problem["msg"]).removeprefix("Value error, ")
    if not problem["loc"]:
        return why + "."
    name = str(problem["loc"][0]).upper()
    value = problem.get("input")
    shown = (
        name
        if name in {"DISCORD_TOKEN", "DATABASE_URL"} or not isinstance(value, str)
        else f"{name}={value!r}"
    )
    return f"{shown} is not valid: {why}."
