"""Settings: defaults, parsing, the .env file, errors that name the variable, and a secret token."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from dotenv import dotenv_values

from bot.config import ConfigError, Secret, Settings
from bot.db.database import SQLITE_BUSY_TIMEOUT_MS

REPO = Path(__file__).resolve().parents[1]
NAMES = {field.name.upper() for field in dataclasses.fields(Settings)}


def test_defaults_are_the_documented_ones() -> None:
    settings = Settings.from_mapping({})
    assert settings == Settings()
    assert settings.discord_token is None
    assert settings.database_url == "sqlite+aiosqlite:///ttt.sqlite3"
    assert settings.discord_api_base == "https://discord.com/api/v10"
    assert not settings.uses_custom_api_base
    assert settings.dev_guild_id is None
    assert settings.sync_commands is True and settings.auto_migrate is True
    assert settings.turn_timeout_seconds == 600 and settings.challenge_timeout_seconds == 120
    assert settings.engine_workers == 1 and settings.engine_budget_ms == 1500
    assert settings.start_cooldown_seconds == 10 and settings.sweep_interval_seconds == 5
    assert settings.sqlite_busy_timeout_ms == SQLITE_BUSY_TIMEOUT_MS == 10_000
    assert settings.shard_count is None and settings.shard_ids is None
    assert settings.log_level == "INFO"


def test_every_setting_is_read() -> None:
    settings = Settings.from_mapping(
        {
            "DISCORD_TOKEN": "abc.def",
            "DATABASE_URL": "postgresql+asyncpg://postgres@127.0.0.1:5432/test",
            "DISCORD_API_BASE": "http://127.0.0.1:8080/api/v10/",
            "DEV_GUILD_ID": "123456789012345678",
            "SYNC_COMMANDS": "False",
            "AUTO_MIGRATE": "no",
            "TURN_TIMEOUT_SECONDS": "30",
            "CHALLENGE_TIMEOUT_SECONDS": "0.5",
            "ENGINE_WORKERS": "2",
            "ENGINE_BUDGET_MS": "200",
            "START_COOLDOWN_SECONDS": "0",
            "SWEEP_INTERVAL_SECONDS": "0.1",
            "SQLITE_BUSY_TIMEOUT_MS": "250",
            "SHARD_COUNT": "4",
            "SHARD_IDS": " 0, 2 ",
            "LOG_LEVEL": "debug",
        }
    )
    assert settings.discord_token == Secret("abc.def")
    assert settings.database_url == "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
    assert settings.discord_api_base == "http://127.0.0.1:8080/api/v10"
    assert settings.uses_custom_api_base
    assert settings.dev_guild_id == 123456789012345678
    assert settings.sync_commands is False and settings.auto_migrate is False
    assert settings.turn_timeout_seconds == 30 and settings.challenge_timeout_seconds == 0.5
    assert settings.engine_workers == 2 and settings.engine_budget_ms == 200
    assert settings.start_cooldown_seconds == 0 and settings.sweep_interval_seconds == 0.1
    assert settings.sqlite_busy_timeout_ms == 250
    assert settings.shard_count == 4 and settings.shard_ids == (0, 2)
    assert settings.log_level == "DEBUG"


@pytest.mark.parametrize("text", ["1", "true", "TRUE", "yes", "on"])
def test_true_spellings(text: str) -> None:
    assert Settings.from_mapping({"SYNC_COMMANDS": text}).sync_commands is True


@pytest.mark.parametrize("text", ["0", "false", "False", "no", "off"])
def test_false_spellings(text: str) -> None:
    assert Settings.from_mapping({"AUTO_MIGRATE": text}).auto_migrate is False


def test_blank_values_mean_the_default() -> None:
    settings = Settings.from_mapping({name: "  " for name in NAMES})
    assert settings == Settings()


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"ENGINE_WORKERS": "abc"}, "ENGINE_WORKERS"),
        ({"ENGINE_WORKERS": "0"}, "ENGINE_WORKERS"),
        ({"ENGINE_BUDGET_MS": "-5"}, "ENGINE_BUDGET_MS"),
        ({"DEV_GUILD_ID": "my-server"}, "DEV_GUILD_ID"),
        ({"SYNC_COMMANDS": "maybe"}, "SYNC_COMMANDS"),
        ({"TURN_TIMEOUT_SECONDS": "0"}, "TURN_TIMEOUT_SECONDS"),
        ({"CHALLENGE_TIMEOUT_SECONDS": "nan"}, "CHALLENGE_TIMEOUT_SECONDS"),
        ({"START_COOLDOWN_SECONDS": "-1"}, "START_COOLDOWN_SECONDS"),
        ({"SWEEP_INTERVAL_SECONDS": "inf"}, "SWEEP_INTERVAL_SECONDS"),
        ({"SQLITE_BUSY_TIMEOUT_MS": "-1"}, "SQLITE_BUSY_TIMEOUT_MS"),
        ({"SQLITE_BUSY_TIMEOUT_MS": "1.5"}, "SQLITE_BUSY_TIMEOUT_MS"),
        ({"SQLITE_BUSY_TIMEOUT_MS": "2147483648"}, "SQLITE_BUSY_TIMEOUT_MS"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,,1"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"}, "SHARD_IDS"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"DISCORD_API_BASE": "discord.com/api"}, "DISCORD_API_BASE"),
        ({"DATABASE_URL": "not a url"}, "DATABASE_URL"),
    ],
)
def test_bad_values_name_their_variable(values: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError) as raised:
        Settings.from_mapping(values)
    assert str(raised.value).startswith(named)
    assert isinstance(raised.value, ValueError)


def test_database_url_errors_do_not_echo_the_value() -> None:
    with pytest.raises(ConfigError) as raised:
        Settings.from_mapping({"DATABASE_URL": "hunter2 is my password"})
    assert "hunter2" not in str(raised.value)


def test_the_token_never_shows() -> None:
    token = "MTIzNDU2.super-secret-token"
    settings = Settings.from_mapping({"DISCORD_TOKEN": token})
    for shown in (repr(settings), str(settings), repr(settings.discord_token), str(settings.discord_token)):
        assert token not in shown
        assert "secret" not in shown.replace("Secret", "")
    assert f"{settings.discord_token}" != token
    assert settings.discord_token is not None and settings.discord_token.get() == token


def test_database_password_stays_out_of_repr_and_logs() -> None:
    settings = Settings.from_mapping({"DATABASE_URL": "postgresql+asyncpg://bot:hunter2@db:5432/ttt"})
    assert "hunter2" not in repr(settings)
    assert "hunter2" not in settings.database_url_display
    assert settings.database_url_display.startswith("postgresql+asyncpg://bot:")


def test_settings_are_frozen() -> None:
    settings = Settings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.engine_workers = 3  # type: ignore[misc]


def test_load_reads_dotenv_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nENGINE_WORKERS=3\nLOG_LEVEL=warning\n# a comment\n")
    settings = Settings.load({"ENGINE_WORKERS": "2"}, env_file)
    assert settings.discord_token == Secret("from-file")
    assert settings.engine_workers == 2
    assert settings.log_level == "WARNING"


def test_load_uses_dotenv_in_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    assert Settings.load() == Settings()
    (tmp_path / ".env").write_text("TURN_TIMEOUT_SECONDS=42\n")
    assert Settings.load().turn_timeout_seconds == 42
    monkeypatch.setenv("TURN_TIMEOUT_SECONDS", "43")
    assert Settings.load().turn_timeout_seconds == 43
    assert Settings.load(env_file=None).turn_timeout_seconds == 43


def test_a_missing_dotenv_is_fine(tmp_path: Path) -> None:
    assert Settings.load({}, tmp_path / "absent.env") == Settings()


def test_env_example_lists_every_setting_with_its_default() -> None:
    example = dotenv_values(REPO / ".env.example")
    assert set(example) == NAMES
    assert Settings.from_mapping({k: v or "" for k, v in example.items()}) == Settings()
    lines = (REPO / ".env.example").read_text().splitlines()
    for name in NAMES:
        above = lines[: next(i for i, line in enumerate(lines) if line.startswith(f"{name}="))]
        explained = [line for line in above if line.split("=")[0] not in NAMES]
        assert explained and explained[-1].startswith("#"), f"{name} has no comment above it"


@pytest.mark.parametrize(
    "url",
    [
        "sqlite+aiosqlite:///ttt.sqlite3",
        "sqlite+aiosqlite://",
        "sqlite+aiosqlite:////abs/path/ttt.sqlite3?mode=ro",
        "postgresql+asyncpg://bot:p%40ss:word@db:5432/ttt",
        "postgresql+asyncpg://bot@[::1]:5432/ttt",
        "postgresql+asyncpg://db/ttt?ssl=require",
        "postgresql+asyncpg://db:/ttt",
        "postgresql+asyncpg://db:54x/ttt",
        "postgresql+asyncpg://bot:pw@db:port/ttt",
        "postgresql+asyncpg://[::1]:x/ttt",
        "postgres ql://db/ttt",
        "not a url",
        "://db/ttt",
        "sqlite+aiosqlite:/ttt.sqlite3",
    ],
)
def test_database_urls_are_checked_as_sqlalchemy_reads_them(url: str) -> None:
    """The check runs without SQLAlchemy (it costs a fifth of a second at start-up), and agrees with it."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        make_url(url)
        readable = True
    except (ArgumentError, ValueError):
        readable = False
    try:
        Settings.from_mapping({"DATABASE_URL": url})
        accepted = True
    except ConfigError:
        accepted = False
    assert accepted == readable
