"""``python -m bot run`` and ``migrate``: the missing-token message, configuration errors, and the wiring.

The real ``bot.db.migrate`` and ``bot.bot`` belong to other layers; here stand-ins in
``sys.modules`` record how the CLI calls them.
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cli.wiring import PrepareDatabase
from bot.config import Settings
from tests.cli.conftest import REPO, SETTING_NAMES, RunCli, clean_env


@pytest.mark.parametrize("args", [(), ("run",)])
def test_run_without_token_exits_2_and_points_to_play(run_cli: RunCli, args: tuple[str, ...]) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    message = done.stderr.strip()
    assert len(message.splitlines()) == 1
    for words in ("DISCORD_TOKEN", ".env.example", "python -m bot play"):
        assert words in message


def test_blank_token_in_dotenv_counts_as_missing(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\nAUTO_MIGRATE=false\n")
    done = run_cli("run")
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"ENGINE_WORKERS": "abc"}, "ENGINE_WORKERS"),
        ({"SHARD_IDS": "0,1"}, "SHARD_IDS"),
        ({"AUTO_MIGRATE": "sometimes"}, "AUTO_MIGRATE"),
    ],
)
def test_configuration_errors_are_one_line_and_exit_2(
    run_cli: RunCli, env: dict[str, str], named: str
) -> None:
    for command in ("run", "migrate", "play"):
        done = run_cli(command, env={"DISCORD_TOKEN": "t", **env})
        assert done.returncode == 2, command
        message = done.stderr.strip()
        assert len(message.splitlines()) == 1 and "Traceback" not in message
        assert message.startswith("Configuration error:") and named in message


def test_configuration_error_in_dotenv(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("TURN_TIMEOUT_SECONDS=soon\n")
    done = run_cli("run")
    assert done.returncode == 2
    assert "TURN_TIMEOUT_SECONDS" in done.stderr


class Recorder:
    """Stand-ins for ``upgrade_to_head`` and ``run_bot`` that log their calls in order.

    The stand-in bot prepares the database as the real one does before its service opens, and
    returns what the preparation said.
    """

    def __init__(self, fail_upgrade: bool = False) -> None:
        self.calls: list[tuple[str, object]] = []
        self.fail_upgrade = fail_upgrade
        self.sqlite_busy_timeout_ms: int | None = None

    async def upgrade_to_head(
        self, database_url: str, sqlite_busy_timeout_ms: int
    ) -> tuple[str | None, str | None]:
        self.calls.append(("upgrade", database_url))
        self.sqlite_busy_timeout_ms = sqlite_busy_timeout_ms
        if self.fail_upgrade:
            raise ConnectionRefusedError("connection refused\nlong driver detail")
        return ("0001", "0001")

    def run_bot(self, settings: Settings, prepare_database: PrepareDatabase | None) -> str | None:
        self.calls.append(("run_bot", settings))
        return None if prepare_database is None else asyncio.run(prepare_database())


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Recorder:
    recorder = Recorder()
    migrate = types.ModuleType("bot.db.migrate")
    migrate.upgrade_to_head = recorder.upgrade_to_head  # type: ignore[attr-defined]
    bot_module = types.ModuleType("bot.bot")
    bot_module.run_bot = recorder.run_bot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.db.migrate", migrate)
    monkeypatch.setitem(sys.modules, "bot.bot", bot_module)
    monkeypatch.chdir(tmp_path)
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    return recorder


def test_run_starts_the_bot_which_migrates_before_its_service_opens(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token")
    monkeypatch.setenv("DATABASE_URL", "sqlite+aiosqlite:///x.sqlite3")
    monkeypatch.setenv("SQLITE_BUSY_TIMEOUT_MS", "2500")
    assert main(["run"]) == 0
    assert [name for name, _ in recorder.calls] == ["run_bot", "upgrade"]
    assert recorder.calls[1][1] == "sqlite+aiosqlite:///x.sqlite3"
    assert recorder.sqlite_busy_timeout_ms == 2500
    settings = recorder.calls[0][1]
    assert isinstance(settings, Settings)
    assert settings.discord_token is not None and settings.discord_token.get_secret_value() == "secret-token"


def test_run_skips_the_upgrade_when_auto_migrate_is_off(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-dotenv\nAUTO_MIGRATE=false\n")
    assert main([]) == 0
    assert [name for name, _ in recorder.calls] == ["run_bot"]


def test_failed_upgrade_stops_run_with_one_line(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    recorder.fail_upgrade = True
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token")
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://user:hunter2@db/ttt")
    assert main(["run"]) == 1
    assert [name for name, _ in recorder.calls] == ["run_bot", "upgrade"]
    err = capsys.readouterr().err
    assert (
        err.strip()
        == "Could not upgrade the database at postgresql+asyncpg://user:***@db/ttt: connection refused"
    )


def test_migrate_upgrades_and_exits_0(recorder: Recorder, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate"]) == 0
    assert recorder.calls == [("upgrade", "sqlite+aiosqlite:///ttt.sqlite3")]
    out = capsys.readouterr().out
    url = "sqlite+aiosqlite:///ttt.sqlite3"
    assert out == f"The database at {url} is already on the newest schema (revision 0001).\n"


INSTALLED = Path(sys.executable).with_name("ttt-bot")
"""The console script ``pip install`` made for this environment."""


def run_installed(
    *args: str, cwd: Path, env: dict[str, str] | None = None, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(INSTALLED), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=clean_env(env),
        input=input,
        timeout=120,
    )


def test_the_installed_command_names_itself_in_its_help(tmp_path: Path) -> None:
    done = run_installed("--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: ttt-bot ")
    assert "python -m bot" not in done.stdout


def test_the_installed_command_without_token_points_to_what_it_has(tmp_path: Path) -> None:
    done = run_installed("run", cwd=tmp_path)
    assert done.returncode == 2
    [message] = done.stderr.splitlines()
    assert "DISCORD_TOKEN" in message and "`ttt-bot play`" in message
    assert ".env.example" not in message and "python -m bot" not in message
    assert all(name in message for name in SETTING_NAMES)


def test_the_installed_command_names_itself_in_the_migration_hint(tmp_path: Path) -> None:
    empty = {"DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'empty.sqlite3'}", "AUTO_MIGRATE": "false"}
    done = run_installed("play", cwd=tmp_path, env=empty, input="5\n")
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert "run `ttt-bot migrate`" in line and "python -m bot" not in line


def test_version_names_the_distribution_and_its_version(run_cli: RunCli) -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    done = run_cli("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{project['name']} {project['version']}\n"


def test_run_without_a_reachable_discord_says_so_in_one_line_and_exits_1(
    run_cli: RunCli, tmp_path: Path
) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        host, port = closed.getsockname()
        base = f"http://{host}:{port}/api/v10"
        done = run_cli(
            "run",
            env={
                "DISCORD_TOKEN": "MTIz.some-token.abcdefghijklmnopqrstuvwxyz",
                "DISCORD_API_BASE": base,
                "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'ttt.sqlite3'}",
            },
        )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    [error] = [line for line in done.stderr.splitlines() if "ERROR" in line]
    assert f"Cannot reach Discord at {base}" in error and "DISCORD_API_BASE" in error
    assert len(done.stderr.splitlines()) <= 2
