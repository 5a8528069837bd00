"""The real bot as a subprocess (``python -m bot``) pointed at the emulator, and helpers to read its boards.

Tests build their own guild, channel and members (:class:`Table`), so they share one bot
process per module without seeing each other's games. Every wait is on the emulator's
state; the timeouts given are failure guards only.
"""

from __future__ import annotations

import itertools
import signal
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from discord_emulator import Button, Channel, DiscordEmulator, Guild, Interaction, Member, Message, Perm
from discord_emulator.process import BotProcess

START_TIMEOUT = 60.0
"""Failure guard for a bot start (imports, migration, engine pool, login, command sync, gateway)."""
STOP_TIMEOUT = 30.0
ANSWER_TIMEOUT = 15.0
"""Failure guard for one answer of the bot; generous, as CI machines are slow, never slept."""

# discord.py's button styles
PRIMARY, SECONDARY, SUCCESS, DANGER = 1, 2, 3, 4

_names = itertools.count(1)


class BotUnderTest:
    """``python -m bot`` (the emulator's :class:`BotProcess`) with a database and settings of its own.

    It runs in ``workdir``, so no ``.env`` of the repository is read; ``settings`` are
    environment variables on top of the harness's defaults.
    """

    def __init__(self, emu: DiscordEmulator, workdir: Path, settings: Mapping[str, str]) -> None:
        self.emu = emu
        env = {
            "DATABASE_URL": f"sqlite+aiosqlite:///{workdir / 'ttt.sqlite3'}",
            "LOG_LEVEL": "INFO",
            "START_COOLDOWN_SECONDS": "0",
            **{
                name: ""
                for name in ("DEV_GUILD_ID", "SHARD_COUNT", "SHARD_IDS", "SYNC_COMMANDS", "AUTO_MIGRATE")
            },
            **settings,
        }
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
        assert "Traceback" not in text, f"the bot logged a traceback:\n{text[-6000:]}"
        assert "Unexpected error" not in text, f"the bot logged an unexpected error:\n{text[-6000:]}"


@dataclass
class Table:
    """A fresh guild with a channel and members, for one test: no other test's games get in the way."""

    emu: DiscordEmulator
    guild: Guild
    channel: Channel
    members: dict[str, Member] = field(default_factory=dict)

    @classmethod
    def create(cls, emu: DiscordEmulator, *names: str, moderators: tuple[str, ...] = ()) -> Table:
        number = next(_names)
        guild = emu.create_guild(f"Server {number}", channels=(f"games-{number}",))
        table = cls(emu, guild, emu.channel(guild, f"games-{number}"))
        mods = emu.create_role(guild, "Mods", permissions=Perm.MANAGE_MESSAGES) if moderators else None
        for name in (*names, *moderators):
            roles = [mods] if mods is not None and name in moderators else []
            table.members[name] = emu.create_member(guild, f"{name}{number}", roles=roles)
        return table

    def __getitem__(self, name: str) -> Member:
        return self.members[name]

    def new_channel(self, name: str) -> Channel:
        return self.emu.create_channel(self.guild, name)

    async def slash(
        self, who: str | Member, command: str, /, *, where: Channel | None = None, **options: Any
    ) -> Interaction:
        member = self.members[who] if isinstance(who, str) else who
        return await self.emu.slash(where or self.channel, member, command, **options)

    async def click(
        self,
        message: Message,
        custom_id: str,
        user: str | Member,
        *,
        version: int | None = None,
        force: bool = False,
    ) -> Interaction:
        """``user`` clicks a button; ``version`` clicks the message as an earlier edit showed it."""
        member = self.members[user] if isinstance(user, str) else user
        return await self.emu.click(message, custom_id, member, version=version, force=force)


async def answer(it: Interaction) -> Message:
    """The message the user sees in answer to ``it`` (new, deferred then filled in, or the edited board)."""
    return await it.wait_response(timeout=ANSWER_TIMEOUT)


async def private_answer(it: Interaction) -> str:
    """The text of an ephemeral answer; fails if the answer is public."""
    message = await answer(it)
    assert message.ephemeral, f"expected an ephemeral answer, got {message.text!r}"
    return message.text


def size_of(message: Message) -> int:
    return len(message.rows[0])


def cells(message: Message) -> list[Button]:
    """The cell buttons, in reading order: the first ``size`` action rows."""
    size = size_of(message)
    grid = [button for row in message.rows[:size] for button in row]
    assert len(grid) == size * size, f"expected a {size}x{size} grid, got {[len(r) for r in message.rows]}"
    return grid


def board(message: Message) -> str:
    """The board as the buttons show it: X, O or . per cell."""
    return "".join(button.label if button.label in ("X", "O") else "." for button in cells(message))


def controls(message: Message) -> list[str]:
    size = size_of(message)
    return [button.label or "" for row in message.rows[size:] for button in row]


def free_cells(message: Message) -> list[int]:
    return [index for index, button in enumerate(cells(message)) if not button.disabled]


async def click_cell(table: Table, message: Message, index: int, user: str | Member) -> Interaction:
    """Click cell ``index`` (0-based) and wait until the bot has answered the click."""
    it = await table.click(message, cells(message)[index].custom_id or "", user)
    await answer(it)
    return it
