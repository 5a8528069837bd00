"""``python -m bench.board_payload``: the bytes and requests a click on a board costs, today's board
against the board of an older commit (by default the last embed board), in the same run.

Both bots run as real processes against one Discord emulator, each with a SQLite database of
its own: today's from this checkout, the older one from ``git archive`` of ``--old`` (its
catalogues compiled). On each size (3x3, 4x4, 5x5) two members play each other, each clicking the
first free cell (the same game for both bots), then a member plays the perfect engine the same way,
until the game ends. For every click the emulator's record gives the requests the bot sent in answer
to it (on the interaction, webhook and channel routes) until the board showed it (and the engine's
reply), and the bytes of their JSON bodies as discord.py writes them (compact, ASCII). Reported per
size, game and bot: clicks, requests per click, and bytes per click (mean, and the largest).

Then the CPU a board edit costs the bot to build: each checkout, in a process of its own, turns a
game in the middle into its message and that into the JSON discord.py sends (best of 5 runs of 300).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from discord_emulator import Channel, DiscordEmulator, Member, Message
from discord_emulator.process import REPO_ROOT, BotProcess
from discord_emulator.records import RestCall

OLD = "2a3df00"
"""The last commit whose board is an embed above rows of buttons."""
SIZES = (3, 4, 5)
ANSWER_TIMEOUT = 30.0
START_TIMEOUT = 120.0
PIECES = {"X", "O"}
CLICK_ROUTES = ("/interactions/", "/webhooks/", "/channels/")
"""The routes a click's answer takes; the start-up's own requests (the themes' emoji uploads) may
overlap the first clicks and are not counted."""
LEVEL = "perfect"
"""The engine's level: it answers the same cells every time, so both bots play the same games."""


@dataclass(frozen=True)
class Clicks:
    """What one bot's clicks on one size cost."""

    bot: str
    size: int
    mode: str
    requests: list[int]
    bytes: list[int]
    last: list[Any]
    """The JSON bodies of the last click's requests (the game's end), to see where the bytes go."""

    def row(self) -> str:
        count = len(self.requests)
        per_click = sum(self.requests) / count
        mean = sum(self.bytes) / count
        return (
            f"| {self.bot} | {self.size}x{self.size} | {self.mode} | {count} | {per_click:.2f} |"
            f" {mean:,.0f} | {max(self.bytes):,} |"
        )


def wire_bytes(body: Any) -> int:
    """The size of a JSON body as discord.py sends it with orjson (which the bot installs): compact, UTF-8."""
    return 0 if body is None else len(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())


def played(message: Message, size: int) -> int:
    """How many cells of the board show a piece (a label ``X``/``O`` or an emoji)."""
    return sum(
        1 for row in message.rows[:size] for button in row if button.emoji or (button.label or "") in PIECES
    )


def free_cell(message: Message, size: int) -> str | None:
    """The custom id of the board's first enabled cell, if the game still runs."""
    for row in message.rows[:size]:
        for button in row:
            if not button.disabled and button.custom_id:
                return button.custom_id
    return None


RENDER = """
import orjson, sys, timeit
from discord.webhook.async_ import interaction_message_response_params
from bot.exts.games.messages import compose
from bot.i18n import texts_for_locale
from tests.exts.factories import game_view
texts = texts_for_locale("en-US")
boards = ((3, "XO./.X./..O", 8), (4, "XO../.X../..O./....", 10), (5, "XO.../.X.../..O../...X./....O", 24))
for size, text, last in boards:
    game = game_view(text, last_cell=last)
    def once():
        message = compose(game, texts)
        body = interaction_message_response_params(type=7, **message.edit_args()).payload
        orjson.dumps(body)
    once()
    print(size, min(timeit.repeat(once, number=300, repeat=5)) / 300 * 1e6)
"""
"""Builds a board edit again and again in a checkout: ``size microseconds`` per size."""


def render_microseconds(checkout: Path) -> dict[int, float]:
    """What building a board edit costs in ``checkout``: microseconds per size (the best run)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(checkout), os.environ.get("PYTHONPATH")])),
    }
    out = subprocess.run(
        [sys.executable, "-c", RENDER], cwd=checkout, env=env, check=True, capture_output=True, text=True
    ).stdout
    return {int(size): float(micro) for size, micro in (line.split() for line in out.splitlines())}


def old_checkout(revision: str, into: Path) -> Path:
    """The bot of ``revision`` (its package and migrations), runnable with ``python -m bot`` in it."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision, "bot", "migrations", "tests/__init__.py", "tests/exts"],
        cwd=REPO_ROOT,
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run(
        [str(pybabel), "compile", "-d", str(into / "bot" / "locales"), "-D", "messages"],
        check=True,
        capture_output=True,
    )
    return into


async def play(
    emu: DiscordEmulator, channel: Channel, players: Sequence[Member], size: int, bot: str
) -> Clicks:
    """One game on ``size``, every click's requests and bytes: against the engine with one player,
    else a challenge accepted and the players in turn."""
    member = players[0]
    if len(players) == 1:
        started = await emu.slash(channel, member, "ttt start", size=size, level=LEVEL)
        await started.wait_response(timeout=ANSWER_TIMEOUT)
    else:
        started = await emu.slash(channel, member, "ttt start", opponent=players[1], size=size)
        await started.wait_response(timeout=ANSWER_TIMEOUT)
        challenge = emu.messages(channel)[-1]
        accepted = await emu.click(challenge, challenge.button(label="Accept").custom_id or "", players[1])
        await accepted.wait_response(timeout=ANSWER_TIMEOUT)
    requests: list[int] = []
    sizes: list[int] = []
    calls: list[RestCall] = []
    board = emu.messages(channel)[-1]
    reply = 2 if len(players) == 1 else 1
    while (custom_id := free_cell(board, size)) is not None:
        before = played(board, size)
        mark = len(emu.rest.log)
        click = await emu.click(board, custom_id, players[before % len(players)])
        await click.wait_response(timeout=ANSWER_TIMEOUT)

        def answered(before: int = before) -> Message | None:
            shown = emu.messages(channel)[-1]
            over = free_cell(shown, size) is None
            return shown if over or played(shown, size) >= before + reply else None

        board = await emu.wait_for(answered, ANSWER_TIMEOUT, "the engine's reply on the board")
        calls = [call for call in emu.rest.log[mark:] if call.route.startswith(CLICK_ROUTES)]
        requests.append(len(calls))
        sizes.append(sum(wire_bytes(call.json) for call in calls))
    mode = "vs engine" if len(players) == 1 else "vs member"
    return Clicks(bot, size, mode, requests, sizes, [call.json for call in calls])


async def measure(old: str, workdir: Path) -> list[Clicks]:
    """Both bots' clicks on every size, the old bot's first on each."""
    checkout = old_checkout(old, workdir / "old")
    results: list[Clicks] = []
    async with DiscordEmulator() as emu:
        for name, cwd in ((f"board of {old}", checkout), ("board of this checkout", None)):
            guild = emu.create_guild(
                f"Payload {len(results)}", channels=[f"s{size}{n}" for size in SIZES for n in (1, 2)]
            )
            alice, bob = emu.create_member(guild, "alice"), emu.create_member(guild, "bob")
            env = {
                "DATABASE_URL": f"sqlite+aiosqlite:///{workdir / f'bot{len(results)}.sqlite3'}",
                "START_COOLDOWN_SECONDS": "0",
                "DEV_GUILD_ID": str(guild.id),
            }
            if cwd is not None:
                env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(cwd), os.environ.get("PYTHONPATH")]))
            log_path = workdir / f"bot{len(results)}.log"
            async with BotProcess(emu, ["-m", "bot"], env=env, cwd=cwd, log_path=log_path) as bot:
                await bot.wait_ready(timeout=START_TIMEOUT)
                await emu.wait_for_commands(guild=guild, timeout=START_TIMEOUT)
                for size in SIZES:
                    for players in ([alice, bob], [alice]):
                        channel = emu.channel(guild, f"s{size}{len(players)}")
                        results.append(await play(emu, channel, players, size, name))
                await bot.terminate()
    return results


def render_costs(old: str, checkout: Path, rounds: int = 2) -> dict[str, dict[int, float]]:
    """Microseconds per board edit built, per bot and size: the best of ``rounds`` turns each, taken
    in turn so that both meet the same machine."""
    costs: dict[str, dict[int, float]] = {}
    for _ in range(rounds):
        for name, where in ((f"board of {old}", checkout), ("board of this checkout", REPO_ROOT)):
            for size, micro in render_microseconds(where).items():
                best = costs.setdefault(name, {})
                best[size] = min(best.get(size, micro), micro)
    return costs


def report(results: Sequence[Clicks], old: str, costs: dict[str, dict[int, float]] | None = None) -> str:
    machine = f"{platform.platform()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"
    lines = [
        "# Board payload per click",
        "",
        f"`python -m bench.board_payload --old {old}`, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {machine}.",
        "On each size, two members play each other (the same game for both bots: each clicks the first"
        " free cell) and a member plays the perfect engine; per click: every request the bot sent until"
        " the click (and the engine's reply) was on the board, and their JSON bodies' bytes as sent.",
        "",
        "| bot | size | game | clicks | requests per click | bytes per click | largest |",
        "|---|---|---|--:|--:|--:|--:|",
        *(clicks.row() for clicks in results),
    ]
    if costs:
        first = next(iter(costs.values()))
        lines += [
            "",
            "Building a board edit in mid-game (its message, then its JSON), microseconds of CPU:",
            "",
            "| bot | " + " | ".join(f"{size}x{size}" for size in SIZES) + " |",
            "|---|" + "--:|" * len(SIZES),
        ]
        for name, sizes in costs.items():
            cells = [f"{sizes[size]:,.0f} ({sizes[size] / first[size]:.2f}x)" for size in SIZES]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--old", default=OLD, help="the commit of the board to compare with")
    parser.add_argument("--out", type=Path, default=None, help="also write the report to this file")
    parser.add_argument("--show", action="store_true", help="print the last click's JSON bodies too")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir:
        results = asyncio.run(measure(args.old, Path(workdir)))
        costs = render_costs(args.old, Path(workdir) / "old")
    text = report(results, args.old, costs)
    print(text, end="")
    if args.show:
        for clicks in results:
            print(f"\n{clicks.bot}, {clicks.size}x{clicks.size} {clicks.mode}: bytes {clicks.bytes}")
            print("the last click's bodies:")
            for body in clicks.last:
                print(json.dumps(body, separators=(",", ":"), ensure_ascii=True))
    if args.out is not None:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
