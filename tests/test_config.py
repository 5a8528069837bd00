"""Settings: defaults, parsing, the .env file, errors that name the variable, and a secret token."""

from __future__ import annotations

from pathlib import Path

import pytest
from dotenv import dotenv_values
from pydantic import SecretStr, ValidationError

from bot.config import ConfigError, Settings

REPO = Path(__file__).resolve().parents[1]
NAMES = {name.upper() for name in Settings.model_fields}


@pytest.fixture(autouse=True)
def no_settings_around(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Neither the environment nor a ``.env`` of the developer's reaches these tests."""
    monkeypatch.chdir(tmp_path)
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)


def settings_from(monkeypatch: pytest.MonkeyPatch, **values: str) -> Settings:
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return Settings.load()


def test_defaults_are_the_documented_ones() -> None:
    settings = Settings.load()
    assert settings.discord_token is None
    assert settings.database_url == "sqlite+aiosqlite:///ttt.sqlite3"
    assert settings.discord_api_base == "https://discord.com/api/v10"
    assert not settings.uses_custom_api_base
    assert settings.dev_guild_id is None
    assert settings.sync_commands is True and settings.auto_migrate is True
    assert settings.turn_timeout_seconds == 600 and settings.challenge_timeout_seconds == 120
    assert settings.engine_workers == 1 and settings.engine_budget_ms == 1500
    assert settings.start_cooldown_seconds == 10 and settings.sweep_interval_seconds == 5
    assert settings.sqlite_busy_timeout_ms == 10_000
    assert settings.shard_count is None and settings.shard_ids is None
    assert settings.log_level == "INFO" and settings.log_format == "text"
    assert settings.health_port is None and settings.health_host == "127.0.0.1"


def test_every_setting_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = settings_from(
        monkeypatch,
        DISCORD_TOKEN="abc.def",
        DATABASE_URL="postgresql+asyncpg://postgres@127.0.0.1:5432/test",
        DISCORD_API_BASE="http://127.0.0.1:8080/api/v10/",
        DEV_GUILD_ID="123456789012345678",
        SYNC_COMMANDS="False",
        AUTO_MIGRATE="no",
        TURN_TIMEOUT_SECONDS="30",
        CHALLENGE_TIMEOUT_SECONDS="0.5",
        ENGINE_WORKERS="2",
        ENGINE_BUDGET_MS="200",
        START_COOLDOWN_SECONDS="0",
        SWEEP_INTERVAL_SECONDS="0.1",
        SQLITE_BUSY_TIMEOUT_MS="250",
        SHARD_COUNT="4",
        SHARD_IDS=" 0, 2 ",
        LOG_LEVEL="debug",
        LOG_FORMAT="json",
        HEALTH_PORT="8080",
        HEALTH_HOST="0.0.0.0",
    )
    assert settings.discord_token == SecretStr("abc.def")
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
    assert settings.log_level == "DEBUG" and settings.log_format == "json"
    assert settings.health_port == 8080 and settings.health_host == "0.0.0.0"


@pytest.mark.parametrize("text", ["1", "true", "TRUE", "yes", "on"])
def test_true_spellings(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings_from(monkeypatch, SYNC_COMMANDS=text).sync_commands is True


@pytest.mark.parametrize("text", ["0", "false", "False", "no", "off"])
def test_false_spellings(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings_from(monkeypatch, AUTO_MIGRATE=text).auto_migrate is False


def test_empty_values_mean_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings_from(monkeypatch, **dict.fromkeys(NAMES, "")) == Settings.load()


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
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT"),
        ({"HEALTH_PORT": "65536"}, "HEALTH_PORT"),
        ({"DISCORD_API_BASE": "discord.com/api"}, "DISCORD_API_BASE"),
        ({"DATABASE_URL": "not a url"}, "DATABASE_URL"),
        ({"DATABASE_URL": "postgresql+asyncpg://db:54x/ttt"}, "DATABASE_URL"),
        ({"DATABASE_URL": "nosuchdb://db/ttt"}, "DATABASE_URL"),
    ],
)
def test_bad_values_name_their_variable(
    values: dict[str, str], named: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ConfigError) as raised:
        settings_from(monkeypatch, **values)
    assert str(raised.value).startswith(named)
    assert len(str(raised.value).splitlines()) == 1


@pytest.mark.parametrize(
    ("url", "form"),
    [
        ("postgresql://bot:hunter2@db/ttt", "postgresql+asyncpg://"),
        ("postgresql+psycopg2://bot:hunter2@db/ttt", "postgresql+asyncpg://"),
        ("sqlite:///hunter2.db", "sqlite+aiosqlite:///"),
    ],
)
def test_a_url_without_an_async_driver_is_told_the_form_to_use(
    url: str, form: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ConfigError) as raised:
        settings_from(monkeypatch, DATABASE_URL=url)
    assert str(raised.value).startswith("DATABASE_URL is not valid:")
    assert f"use the form {form}" in str(raised.value)
    assert "hunter2" not in str(raised.value)


def test_a_missing_driver_is_named_with_the_extra_that_brings_it(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = settings_from(monkeypatch, DATABASE_URL="postgresql+asyncpg://db/ttt")
    settings.check_database_driver()  # installed here
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None if name == "asyncpg" else object())
    with pytest.raises(ConfigError) as raised:
        settings.check_database_driver()
    assert str(raised.value) == (
        "DATABASE_URL needs the driver asyncpg, which is not installed: pip install 'ttt-bot[postgres]'"
    )


def test_the_token_never_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    token = "MTIzNDU2.super-secret-token"
    settings = settings_from(monkeypatch, DISCORD_TOKEN=token)
    for shown in (repr(settings), str(settings), repr(settings.discord_token), str(settings.discord_token)):
        assert token not in shown
    assert settings.discord_token is not None and settings.discord_token.get_secret_value() == token


def test_database_password_stays_out_of_repr_errors_and_logs(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = settings_from(monkeypatch, DATABASE_URL="postgresql+asyncpg://bot:hunter2@db:5432/ttt")
    assert "hunter2" not in repr(settings)
    assert "hunter2" not in settings.database_url_display
    assert settings.database_url_display.startswith("postgresql+asyncpg://bot:")
    with pytest.raises(ConfigError) as raised:
        settings_from(monkeypatch, DATABASE_URL="hunter2 is my password")
    assert "hunter2" not in str(raised.value)


def test_settings_are_frozen() -> None:
    settings = Settings.load()
    with pytest.raises(ValidationError):
        settings.engine_workers = 3  # type: ignore[misc]


def test_load_reads_dotenv_and_the_environment_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_file = tmp_path / "settings.env"
    env_file.write_text("DISCORD_TOKEN=from-file\nENGINE_WORKERS=3\nLOG_LEVEL=warning\n# a comment\n")
    monkeypatch.setenv("ENGINE_WORKERS", "2")
    settings = Settings.load(env_file)
    assert settings.discord_token == SecretStr("from-file")
    assert settings.engine_workers == 2
    assert settings.log_level == "WARNING"


def test_load_uses_dotenv_in_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings.load().turn_timeout_seconds == 600
    (tmp_path / ".env").write_text("TURN_TIMEOUT_SECONDS=42\n")
    assert Settings.load().turn_timeout_seconds == 42
    monkeypatch.setenv("TURN_TIMEOUT_SECONDS", "43")
    assert Settings.load().turn_timeout_seconds == 43
    assert Settings.load(env_file=None).turn_timeout_seconds == 43


def test_a_missing_dotenv_is_fine(tmp_path: Path) -> None:
    assert Settings.load(tmp_path / "absent.env") == Settings.load()


def test_env_example_lists_every_setting_with_its_default() -> None:
    """Each variable of ``.env.example`` is a setting, set to its default (or empty when it has none)."""
    example = dotenv_values(REPO / ".env.example")
    assert set(example) == NAMES
    for name, field in Settings.model_fields.items():
        default = field.default
        shown = "" if default is None else str(default).lower() if isinstance(default, bool) else str(default)
        assert example[name.upper()] in {shown, shown.removesuffix(".0")}, name
    lines = (REPO / ".env.example").read_text().splitlines()
    for name in NAMES:
        above = lines[: next(i for i, line in enumerate(lines) if line.startswith(f"{name}="))]
        explained = [line for line in above if line.split("=")[0] not in NAMES]
        assert explained and explained[-1].startswith("#"), f"{name} has no comment above it"
