"""Run a bot as its own process against the emulator, as users start it, and stop, kill or restart it.

The emulator stays in the test process and outlives the bot: a restarted bot IDENTIFYs anew and
finds the same guilds, messages and synced commands.
"""

# The waiting API takes ``timeout=`` as a failure guard on purpose, so tests read as one call.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

from .emulator import DiscordEmulator
from .gateway import GatewaySession

REPO_ROOT = Path(__file__).resolve().parents[1]
OUTPUT_LINE_LIMIT = 4 * 1024 * 1024
"""The longest output line read whole: at DEBUG, discord.py logs each request's body on one line,
and the command sync's (every description in every language) is far past asyncio's 64 KiB."""


class BotProcess:
    """``python <args>`` (default ``-m bot``) with ``DISCORD_TOKEN`` and ``DISCORD_API_BASE`` set for
    the emulator, its output captured line by line (and optionally appended to ``log_path``)."""

    def __init__(
        self,
        emulator: DiscordEmulator,
        args: Sequence[str] = ("-m", "bot"),
        *,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        log_path: Path | None = None,
    ) -> None:
        self.emulator = emulator
        self.args = list(args)
        self.env = dict(env or {})
        self.cwd = cwd or REPO_ROOT
        self.log_path = log_path
        self.output: list[str] = []
        """Every line the process wrote (stdout and stderr), over all its runs."""
        self.returncodes: list[int] = []
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._sessions_before: set[int] = set()

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.returncode is None

    @property
    def text(self) -> str:
        return "\n".join(self.output)

    async def start(self) -> None:
        if self.running:
            raise RuntimeError("the bot process is already running")
        self._sessions_before = {id(session) for session in self.emulator.sessions}
        env = {**os.environ, **self.emulator.env(), "PYTHONUNBUFFERED": "1", **self.env}
        self._process = await asyncio.create_subprocess_exec(
            sys.executable,
            *self.args,
            cwd=self.cwd,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            limit=OUTPUT_LINE_LIMIT,
        )
        self._reader = asyncio.create_task(self._read(self._process), name=f"bot-output-{self._process.pid}")

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        log = self.log_path.open("a", encoding="utf-8") if self.log_path else None
        try:
            async for raw in process.stdout:
                line = raw.decode(errors="replace").rstrip("\n")
                self.output.append(line)
                if log is not None:
                    log.write(line + "\n")
                self.emulator.notifier.notify()
            self.returncodes.append(await process.wait())
        finally:
            if log is not None:
                log.close()
            self.emulator.notifier.notify()

    async def wait_ready(self, shard_id: int | None = None, *, timeout: float = 20.0) -> GatewaySession:
        """A gateway session opened by this run is ready (READY and GUILD_CREATEs written)."""

        def ready() -> GatewaySession | None:
            if not self.running:
                raise RuntimeError(f"the bot exited with {self.returncodes[-1:]}:\n{self.text[-3000:]}")
            for session in self.emulator.sessions:
                new = id(session) not in self._sessions_before
                if new and session.ready and (shard_id is None or session.shard_id == shard_id):
                    return session
            return None

        return await self.emulator.wait_for(ready, timeout, "the bot process's gateway session")

    async def wait_for_output(self, text: str, *, timeout: float = 10.0) -> str:
        """The first output line containing ``text``."""
        return await self.emulator.wait_for(
            lambda: next((line for line in self.output if text in line), None), timeout, f"output {text!r}"
        )

    async def wait_exit(self, *, timeout: float = 20.0) -> int:
        if self._process is None:
            raise RuntimeError("the bot process was never started")
        process = self._process
        await self.emulator.wait_for(
            lambda: process.returncode is not None, timeout, "the bot process to exit"
        )
        if self._reader is not None:
            await self._reader
        return int(process.returncode or 0)

    def send_signal(self, signum: int) -> None:
        if self.running and self._process is not None:
            self._process.send_signal(signum)

    def kill(self) -> None:
        """SIGKILL: no cleanup, sockets cut by the OS."""
        self.send_signal(signal.SIGKILL)

    async def terminate(self, *, timeout: float = 20.0) -> int:
        """SIGTERM and wait; SIGKILL if it does not exit in time."""
        self.send_signal(signal.SIGTERM)
        try:
            return await self.wait_exit(timeout=timeout)
        except TimeoutError:
            self.kill()
            return await self.wait_exit(timeout=5.0)

    async def restart(self) -> None:
        if self.running:
            await self.terminate()
        await self.start()

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.running:
            self.kill()
        if self._process is not None:
            with contextlib.suppress(TimeoutError):
                await self.wait_exit(timeout=10.0)
