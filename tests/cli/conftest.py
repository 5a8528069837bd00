"""Runs ``python -m bot`` as users do: a fresh process, in an empty directory, without bot settings."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from bot.config import Settings
from tests.databases import backend_url, database_url, postgres_server, postgres_session_url

__all__ = ["backend_url", "database_url", "postgres_server", "postgres_session_url"]

REPO = Path(__file__).resolve().parents[2]
SETTING_NAMES = tuple(name.upper() for name in Settings.model_fields)

RunCli = Callable[..., subprocess.CompletedProcess[str]]


TERMINAL_LANGUAGE = ("LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal speaks English in these tests whatever the machine's locale (a test may change it)."""
    for name in TERMINAL_LANGUAGE:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The current environment without any bot setting and without PYTHONUNBUFFERED; English messages."""
    env = {k: v for k, v in os.environ.items() if k not in SETTING_NAMES and k != "PYTHONUNBUFFERED"}
    env["LC_ALL"] = "C.UTF-8"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.update(extra or {})
    return env


def bot_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "bot", *args]


@pytest.fixture
def run_cli(tmp_path: Path) -> RunCli:
    """``run_cli("analyze", "X........", input="...", env={...})`` -> the finished process."""

    def run(
        *args: str, input: str = "", env: Mapping[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            bot_command(*args),
            input=input,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=clean_env(env),
            timeout=120,
        )

    return run
