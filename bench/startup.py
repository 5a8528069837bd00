"""Start-up benchmark: how long ``python -m bot`` takes from exec to playing, against a bare discord.py bot.

    python -m bench.startup [--starts 8] [--out FILE]

Each bot runs as its own process against a Discord emulator of its own inside this
process, and is started ``--starts`` times in a row, SIGKILLed after each start as the
kill -9 test does: our bot on one SQLite file (its first start creates the schema and finds
no command registered, so it opens the service and syncs the commands before IDENTIFY; it is
reported apart; the others find the schema at head and connect while the service opens) and
``python -m bench.load_baseline_bot``, the load benchmark's in-memory discord.py bot (no
database, no engine), as the floor.

Every time comes from the emulator's own records, measured from the exec:

- ``login``: the first REST request (imports and settings done);
- ``identify``: the gateway IDENTIFY (``setup_hook`` done: the gateway's address and the
  registered commands asked for; on a first start also the service opened and the commands synced);
- ``ready``: the emulator wrote READY and the GUILD_CREATEs (the kill test waits for this);
- ``answer``: a ``/ttt start`` against the bot sent right after READY is answered (it waits
  for the service: database layer imported, schema checked, games loaded);
- ``move``: a click on that board then shows the bot's reply.

Reported: the median of each phase per bot, and the ratio of our medians to the baseline's,
so runs on a busy machine stay comparable. Nothing is asserted. Results go to
``bench/RESULTS-startup.md`` with the machine's load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bench.load_driver import ANSWER_TIMEOUT, cells_of, marks_of
from discord_emulator import DiscordEmulator, Message
from discord_emulator.process import BotProcess

START_TIMEOUT = 90.0
"""Failure guard for one start; far above anything a working bot needs."""
PHASES = ("login", "identify", "ready", "answer", "move")
IDENTIFY = 2


@dataclass
class Start:
    """The phases of one start, in seconds from the exec."""

    login: float
    identify: float
    ready: float
    answer: float
    move: float


def _board_in(messages: list[Message]) -> Message | None:
    return next((message for message in reversed(messages) if cells_of(message, 3) is not None), None)


def _bot_reply_shown(board: Message) -> bool:
    cells = cells_of(board, 3)
    return cells is not None and marks_of(cells).count("O") == 1


async def _one_start(emu: DiscordEmulator, process: BotProcess, number: int) -> Start:
    rest_seen, gateway_seen = len(emu.rest_log), len(emu.gateway_log)
    started = time.monotonic()
    await process.start()
    await process.wait_ready(timeout=START_TIMEOUT)
    ready = time.monotonic()
    login = emu.rest_log[rest_seen].received_at
    identify = next(
        r.at for r in emu.gateway_log[gateway_seen:] if r.direction == "receive" and r.op == IDENTIFY
    )
    guild = emu.create_guild(f"start {number}", channels=("games",))
    channel = emu.channel(guild, "games")
    member = emu.create_member(guild, f"player{number}")
    slash = await emu.slash(channel, member, "ttt start")
    await slash.wait_response(timeout=ANSWER_TIMEOUT)
    answered = time.monotonic()
    board = await emu.wait_for(lambda: _board_in(emu.messages(channel)), ANSWER_TIMEOUT, "the board")
    cells = cells_of(board, 3) or []
    await emu.click(board, cells[0].custom_id or "", member)
    await emu.wait_for(lambda: _bot_reply_shown(board), ANSWER_TIMEOUT, "the bot's first move")
    move = time.monotonic() - started
    process.kill()
    await process.wait_exit(timeout=20)
    return Start(login - started, identify - started, ready - started, answered - started, move)


async def _measure(args: list[str], env: dict[str, str], workdir: Path, starts: int) -> list[Start]:
    """``starts`` starts of ``python <args>``; our bot runs in ``workdir`` so that no ``.env`` is read."""
    cwd = workdir if args == ["-m", "bot"] else None
    async with DiscordEmulator() as emu:
        process = BotProcess(emu, args, env=env, cwd=cwd, log_path=workdir / f"{args[-1]}.log")
        return [await _one_start(emu, process, number) for number in range(starts)]


def _median(starts: list[Start], phase: str) -> float:
    return statistics.median(float(getattr(start, phase)) for start in starts)


def markdown(ours: list[Start], baseline: list[Start], starts: int) -> str:
    first, later = ours[0], ours[1:]
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    lines = [
        f"# Start-up: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        "",
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load average {load}; "
        f"{starts} starts per bot, SIGKILLed after each. Seconds from the exec (medians).",
        "",
        "| phase | baseline | ours, schema at head | ratio | ours, first start (creates the schema) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for phase in PHASES:
        base, at_head = _median(baseline, phase), _median(later, phase)
        fresh = float(getattr(first, phase))
        lines.append(f"| {phase} | {base:.2f} | {at_head:.2f} | {at_head / base:.2f} | {fresh:.2f} |")
    return "\n".join(lines) + "\n"


async def run(starts: int, workdir: Path) -> tuple[list[Start], list[Start]]:
    """Our bot's starts (the first on an empty database, then ``starts`` more) and the baseline's."""
    baseline = await _measure(["-m", "bench.load_baseline_bot"], {}, workdir, starts)
    env = {
        "DATABASE_URL": f"sqlite+aiosqlite:///{workdir / 'startup.sqlite3'}",
        "START_COOLDOWN_SECONDS": "0",
        "LOG_LEVEL": "INFO",
    }
    ours = await _measure(["-m", "bot"], env, workdir, starts + 1)
    return ours, baseline


async def _main(starts: int) -> str:
    with tempfile.TemporaryDirectory(prefix="ttt-startup-") as tmp:
        ours, baseline = await run(starts, Path(tmp))
    return markdown(ours, baseline, starts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.startup", description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=8, help="starts per bot (default 8)")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("RESULTS-startup.md"))
    args = parser.parse_args(argv)
    report = asyncio.run(_main(max(1, args.starts)))
    print(report, end="")
    args.out.write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
