"""The real bot as a subprocess (``python -m bot``) pointed at the emulator, with its log checked.

Each bot runs in a directory of its own, so no ``.env`` of the repository is read; its settings
are environment variables on top of :data:`DEFAULT_SETTINGS`.
"""

from __future__ import annotations

import signal
from collections.abc import Mapping
from pathlib import Path

from discord_emulator import DiscordEmulator
from discord_emulator.process import BotProcess

START_TIMEOUT = 60.0
"""Failure guard for a bot start (imports, migration, engine pool, login, command sync, gateway)."""
STOP_TIMEOUT = 30.0
ANSWER_TIMEOUT = 15.0
"""Failure guard for one answer of the bot; generous, as CI machines are slow, never slept."""
LOG_PROBLEMS = ("Traceback", "Unexpected error")
"""What never belongs in the bot's log: a traceback, or an error the bot did not expect."""


def default_settings(workdir: Path) -> dict[str, str]:
    """A SQLite database in ``workdir``, no start cooldown, and none of a developer's own settings."""
    return {
        "DATABASE_URL": f"sqlite+aiosqlite:///{workdir / 'ttt.sqlite3'}",
        "LOG_LEVEL": "INFO",
        "START_COOLDOWN_SECONDS": "0",
        **{
            name: "" for name in ("DEV_GUILD_ID", "SHARD_COUNT", "SHARD_IDS", "SYNC_COMMANDS", "AUTO_MIGRATE")
        },
    }


class BotUnderTest:
    """``python -m bot`` (the emulator's :class:`BotProcess`) with a database and settings of its own."""

    def __init__(self, emu: DiscordEmulator, workdir: Path, settings: Mapping[str, str]) -> None:
        self.emu = emu
        env = {**default_settings(workdir), **settings}
        self.process = BotProcess(emu, env=env, cwd=workdir, log_path=workdir / "bot.log")

    @property
    def exit_codes(self) -> list[int]:
        return self.process.returncodes

    @property
    def env(self) -> dict[str, str]:
        """The settings the bot runs with (its environment on top of the emulator's)."""
        return self.process.env

    def log_text(self) -> str:
        return self.process.text

    async def start(self, **settings: str) -> None:
        """Start the bot (with ``settings`` changed) and wait until its new gateway session is ready."""
        self.process.env.update(settings)
        await self.process.start()
        await self.process.wait_ready(timeout=START_TIMEOUT)

    async def stop(self, signum: int = signal.SIGTERM) -> int:
        """Signal the bot and wait for it to exit; return its exit status."""
        self.process.send_signal(signum)
        return await self.process.wait_exit(timeout=STOP_TIMEOUT)

    async def restart(self, **settings: str) -> None:
        """Stop the bot cleanly (exit 0) and start it again with ``settings`` changed."""
        code = await self.stop()
        assert code == 0, f"the bot exited with {code}:\n{self.log_text()[-4000:]}"
        await self.start(**settings)

    async def close(self) -> None:
        """Stop the bot if it runs (SIGTERM, SIGKILL if it hangs) and check it exited cleanly."""
        if self.process.running:
            code = await self.process.terminate(timeout=STOP_TIMEOUT)
            assert code == 0, f"the bot exited with {code}:\n{self.log_text()[-4000:]}"

    def check_log(self) -> None:
        """No traceback, no unexpected error, and never the token, in everything the bot logged."""
        text = self.log_text()
        assert self.emu.token not in text, "the bot logged its token"
        assert not tracebacks(self.process), f"the bot logged a traceback or an error:\n{text[-6000:]}"


def bot_process(emu: DiscordEmulator, workdir: Path, database_url: str, **settings: str) -> BotProcess:
    """The process of a :class:`BotUnderTest` on ``database_url``, for tests that signal it themselves."""
    return BotUnderTest(emu, workdir, {"DATABASE_URL": database_url, **settings}).process


async def kill9(process: BotProcess) -> None:
    """SIGKILL the bot and wait until it is gone."""
    process.kill()
    code = await process.wait_exit(timeout=20)
    assert code == -signal.SIGKILL, f"the bot exited with {code} instead of being killed"


def tracebacks(process: BotProcess, *, killed: bool = False) -> list[str]:
    """Lines of the bot's output that start a traceback or log an unexpected error.

    With ``killed`` (the bot was killed with SIGKILL, which nothing can catch), the traceback of a
    worker process that was being started at that moment is left out: Python's multiprocessing
    prints it in the orphaned child when the parent dies before handing it its start-up data
    (``EOFError: Ran out of input`` in ``multiprocessing/spawn.py``); no code of the bot ran there.
    """
    lines = process.output
    found = []
    for index, line in enumerate(lines):
        if not any(problem in line for problem in LOG_PROBLEMS):
            continue
        if killed and line.startswith("Traceback") and _orphaned_worker_start(lines[index + 1 :]):
            continue
        found.append(line)
    return found


def _orphaned_worker_start(after: list[str]) -> bool:
    """Whether the traceback whose lines follow is a worker's start-up cut off by its parent's death."""
    body = []
    for line in after:
        body.append(line)
        if not line.startswith(" "):
            break
    return body[-1:] == ["EOFError: Ran out of input"] and any(
        "multiprocessing/spawn.py" in line for line in body
    )
