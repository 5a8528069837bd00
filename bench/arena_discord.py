"""Arenas on Discord: the real bot runs a Swiss arena through the Discord emulator, every game played by
its players' clicks, against the same number of games at once with no arena running.

    python -m bench.arena_discord [--players 64] [--runs 3] [--seed 1] [--out bench/RESULTS-arena.md]

One bot process (``python -m bot`` on SQLite, a temporary file, no start cooldown, no turn clock)
and one emulator. After a batch of games that warms it up (not counted), the baseline: as many
tables as a round has games (a channel and two members each) play one game each at once, a
challenge, its Accept and then clicks on random free cells in turn. Then the arena: the first
member opens it with ``/ttt arena open``, everyone else joins with ``/ttt arena join`` and the
opener starts it; each round, once every pairing's message has its thread and its board, all games
are played at once by their players' clicks (random free cells in turn) until the last one ends;
the next round follows. Then the baseline again, so that the two sides of each ratio are measured
within minutes of each other on the same machine.

Reported, all times as the emulator records them (a click is timed from its creation):

- **turnover**: from the round's last move to the next round's message posted in the channel (its
  pairings), timed from the click that ended the round's last game, and from the bot's answer to it
  (the move stored: a click waits behind the others of its round while the bot is busy); and from
  that click to the last of the new round's boards posted in their threads (the round set up: a
  message, a thread, two members added and a board per game, one game after the other);
- **clicks**: the p50 and p99 of a click's acknowledgement and of its board edit while the round's
  games run at once, against the baseline's cell clicks; the ratio (arena / baseline) is the result.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import platform
import random
import re
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.load_driver import (
    ANSWER_TIMEOUT,
    GameFailedError,
    Mode,
    ack_seconds,
    cells_of,
    check_finished,
    edit_seconds,
    marks_of,
    percentile,
    play_game,
    set_tables,
)
from bot.services.arena import default_rounds, max_rounds
from discord_emulator import Channel, DiscordEmulator, Guild, Interaction, Member, Message
from discord_emulator.process import BotProcess

START_TIMEOUT = 90.0
SETUP_TIMEOUT = 120.0
"""Failure guard for a round of up to 32 games to be set up (messages, threads, members, boards)."""
SETTINGS = {
    "START_COOLDOWN_SECONDS": "0",
    "TURN_TIMEOUT_SECONDS": "86400",
    "CHALLENGE_TIMEOUT_SECONDS": "86400",
    "LOG_LEVEL": "INFO",
}
PAIRING = re.compile(r"Game (\d+): <@(\d+)> plays ❌ X, <@(\d+)> plays ⭕ O")
SECTION = "# Arenas on Discord"


@dataclass
class ArenaGame:
    """A game of a round as the players see it: its board (in its thread) and who plays X and O."""

    board: Message
    x: Member
    o: Member
    clicks: list[Interaction] = field(default_factory=list)
    result: str = ""


@dataclass
class RoundRecord:
    """A round as the driver saw it: its games, and when its message and its last board were posted."""

    number: int
    games: list[ArenaGame]
    posted: float
    """When the round's message (its pairings) was posted (monotonic, the emulator's clock)."""
    ready: float
    """When the last of its boards was posted."""
    last_move: float | None = None
    """When the click that ended the round's last game was made."""
    last_answer: float | None = None
    """When the bot answered the last of the clicks that ended the round's games (the move stored)."""


@dataclass
class Clicks:
    acks: list[float] = field(default_factory=list)
    edits: list[float] = field(default_factory=list)

    def add(self, clicks: Sequence[Interaction]) -> None:
        for click in clicks:
            ack, edit = ack_seconds(click), edit_seconds(click)
            if ack is None or edit is None:
                raise GameFailedError(f"click {click.id} got no answer")
            self.acks.append(ack)
            self.edits.append(edit)


@dataclass
class ArenaRun:
    players: int
    rounds: list[RoundRecord]
    arena: Clicks
    baseline: Clicks
    baseline_games: int
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """The machine's load average at the end of the run (1, 5 and 15 minutes)."""

    def turnovers(self) -> list[tuple[int, float, float, float]]:
        """For every round that followed another: its number, and from the last move's click to its
        message, from that click's answer to its message, and from the click to its last board."""
        found = []
        for before, after in zip(self.rounds, self.rounds[1:], strict=False):
            assert before.last_move is not None and before.last_answer is not None
            found.append(
                (
                    after.number,
                    after.posted - before.last_move,
                    after.posted - before.last_answer,
                    after.ready - before.last_move,
                )
            )
        return found


def _round_heading(number: int, rounds: int) -> str:
    return f"Round {number} of {rounds}"


def _games_of_round(
    emu: DiscordEmulator, channel: Channel, heading: str, members: dict[int, Member], games: int
) -> tuple[Message, list[tuple[Message, ArenaGame]]] | None:
    messages = emu.messages(channel)
    starts = [i for i, m in enumerate(messages) if heading in m.text and "Game" in m.text]
    if not starts:
        return None
    found = []
    for message in messages[starts[-1] + 1 :]:
        match = PAIRING.fullmatch(message.text.strip())
        if match is None or message.thread is None:
            continue
        boards = [m for m in emu.messages(message.thread) if cells_of(m, 3) is not None]
        if not boards:
            return None
        found.append((boards[0], ArenaGame(boards[0], members[int(match[2])], members[int(match[3])])))
    return (messages[starts[-1]], found) if len(found) == games else None


async def _round(
    emu: DiscordEmulator, channel: Channel, number: int, rounds: int, members: dict[int, Member], games: int
) -> RoundRecord:
    heading = _round_heading(number, rounds)
    message, found = await emu.wait_for(
        lambda: _games_of_round(emu, channel, heading, members, games), SETUP_TIMEOUT, heading
    )
    ready = max(board.history[0].at for board, _ in found)
    return RoundRecord(number, [game for _, game in found], message.history[0].at, ready)


async def _play(emu: DiscordEmulator, game: ArenaGame, rng: random.Random) -> None:
    """Random free cells in turn, X first, until the board is over."""
    board = game.board
    while True:
        cells = cells_of(board, 3)
        if cells is None:
            raise GameFailedError(f"the board lost its grid: {board.text!r}")
        free = [i for i, button in enumerate(cells) if not button.disabled]
        if not free:
            break
        marks = marks_of(cells)
        player = game.x if marks.count("X") == marks.count("O") else game.o
        click = await emu.click(board, cells[rng.choice(free)].custom_id or "", player)
        game.clicks.append(click)
        if await click.wait_response(timeout=ANSWER_TIMEOUT) is not board:
            raise GameFailedError(f"a click on the board of {board.channel.name} was refused")
    game.result = check_finished(marks_of(cells_of(board, 3) or []), 3)


def _answered_at(click: Interaction) -> float:
    if click.callback is None:
        raise GameFailedError(f"click {click.id} got no answer")
    return click.callback.at


async def _baseline(emu: DiscordEmulator, tables: int, rng: random.Random, label: str) -> Clicks:
    _, seats = set_tables(emu, tables, label)
    records = await asyncio.gather(*(play_game(emu, seat, Mode.VS_HUMAN, rng) for seat in seats))
    clicks = Clicks()
    for record in records:
        if record.failure is not None:
            raise GameFailedError(record.failure)
        clicks.add(record.clicks[1:])  # the cells only: the first click is the challenge's Accept
    return clicks


async def run_arena(players: int, workdir: Path, seed: int = 1) -> ArenaRun:
    """Start the bot, play the baseline, the arena of ``players``, and the baseline again."""
    rng = random.Random(seed)
    tables = players // 2
    url = f"sqlite+aiosqlite:///{workdir / 'arena.sqlite3'}"
    async with contextlib.AsyncExitStack() as stack:
        emu = await stack.enter_async_context(DiscordEmulator())
        process = BotProcess(
            emu, ["-m", "bot"], env={**SETTINGS, "DATABASE_URL": url}, log_path=workdir / "bot.log"
        )
        await stack.enter_async_context(process)
        stack.push_async_callback(process.terminate)
        await process.wait_ready(timeout=START_TIMEOUT)
        await emu.wait_for_commands(timeout=START_TIMEOUT)
        gc.collect()
        gc.freeze()

        await _baseline(emu, tables, rng, "warm-up")  # not counted: the first games warm the caches
        baseline = await _baseline(emu, tables, rng, "before")
        guild: Guild = emu.create_guild("arena", channels=["arena"])
        channel = emu.channel(guild, "arena")
        members = [emu.create_member(guild, f"player-{n}") for n in range(players)]
        by_id = {member.id: member for member in members}
        opened = await emu.slash(channel, members[0], "ttt arena open", minutes=60)
        await opened.wait_response(timeout=ANSWER_TIMEOUT)
        for member in members[1:]:
            joined = await emu.slash(channel, member, "ttt arena join")
            await joined.wait_response(timeout=ANSWER_TIMEOUT)
        started = await emu.slash(channel, members[0], "ttt arena start")
        await started.wait_response(timeout=ANSWER_TIMEOUT)

        rounds = min(default_rounds(players), max_rounds(players))
        records: list[RoundRecord] = []
        arena = Clicks()
        for number in range(1, rounds + 1):
            record = await _round(emu, channel, number, rounds, by_id, tables)
            await asyncio.gather(*(_play(emu, game, rng) for game in record.games))
            record.last_move = max(game.clicks[-1].created_at for game in record.games)
            record.last_answer = max(_answered_at(game.clicks[-1]) for game in record.games)
            for game in record.games:
                arena.add(game.clicks)
            records.append(record)
        after = await _baseline(emu, tables, rng, "after")
        baseline.acks += after.acks
        baseline.edits += after.edits
        return ArenaRun(players, records, arena, baseline, 2 * tables, os.getloadavg())


def _ratios(run: ArenaRun) -> list[float]:
    """Arena over baseline: ack p50, ack p99, edit p50, edit p99."""
    return [
        percentile(run.arena.acks, 50) / percentile(run.baseline.acks, 50),
        percentile(run.arena.acks, 99) / percentile(run.baseline.acks, 99),
        percentile(run.arena.edits, 50) / percentile(run.baseline.edits, 50),
        percentile(run.arena.edits, 99) / percentile(run.baseline.edits, 99),
    ]


def report(runs: Sequence[ArenaRun]) -> str:
    """The Markdown section of ``bench/RESULTS-arena.md``: the first run in full, then every run's
    medians and ratios (the machine is shared, so one run alone says little)."""

    def ms(seconds: float) -> str:
        return f"{seconds * 1000:.1f}"

    run = runs[0]
    lines = [
        SECTION,
        "",
        f"`python -m bench.arena_discord --players {run.players} --runs {len(runs)}` on CPython"
        f" {platform.python_version()}, the bot on SQLite, one emulator; times in milliseconds."
        f" Load average at the end of the first run: {run.load[0]:.2f}, {run.load[1]:.2f},"
        f" {run.load[2]:.2f} ({os.cpu_count()} CPUs, shared with other work).",
        "",
        "## From a round's last move to the next round (first run)",
        "",
        "| round | games | click to its pairings | answer to its pairings | click to its last board |",
        "|---:|---:|---:|---:|---:|",
    ]
    for number, posted, answered, ready in run.turnovers():
        games = len(run.rounds[number - 1].games)
        lines.append(f"| {number} | {games} | {ms(posted)} | {ms(answered)} | {ms(ready)} |")
    lines += [
        "",
        f"## Clicks: {len(run.rounds[0].games)} arena games at once, and as many with no arena (first run)",
        "",
        "| clicks | n | ack p50 | ack p99 | edit p50 | edit p99 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, clicks in (("arena", run.arena), ("baseline (no arena)", run.baseline)):
        lines.append(
            f"| {label} | {len(clicks.acks)} | {ms(percentile(clicks.acks, 50))} |"
            f" {ms(percentile(clicks.acks, 99))} | {ms(percentile(clicks.edits, 50))} |"
            f" {ms(percentile(clicks.edits, 99))} |"
        )
    lines.append("| ratio (arena / baseline) | | " + " | ".join(f"{r:.2f}" for r in _ratios(run)) + " |")
    lines += [
        "",
        "## Every run",
        "",
        "Turnovers: the median over the run's rounds. Ratios: arena / baseline of the same run.",
        "",
        "| run | click to pairings | answer to pairings | click to last board | ack p50 | ack p99 |"
        " edit p50 | edit p99 |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for index, each in enumerate(runs, 1):
        turnovers = each.turnovers()
        medians = [statistics.median(t[column] for t in turnovers) for column in (1, 2, 3)]
        ratios = _ratios(each)
        lines.append(
            f"| {index} | "
            + " | ".join(ms(m) for m in medians)
            + " | "
            + " | ".join(f"{r:.2f}" for r in ratios)
            + " |"
        )
    doc = (__doc__ or "").split("\n\n", 2)[2]
    return "\n".join(lines) + "\n\n" + doc.strip() + "\n"


def write_section(path: Path, section: str) -> None:
    """Put ``section`` into ``path`` in place of an earlier one (the file's other sections stay)."""
    text = path.read_text() if path.exists() else ""
    kept = text.split(SECTION, 1)[0].rstrip()
    path.write_text((kept + "\n\n" if kept else "") + section)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.arena_discord", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--players", type=int, default=64, help="players in the arena (default 64, even)")
    parser.add_argument("--seed", type=int, default=1, help="the random clicks' seed (run n: seed + n - 1)")
    parser.add_argument("--runs", type=int, default=3, help="arenas played, each by a new bot (default 3)")
    parser.add_argument("--out", type=Path, help="also write the section into this Markdown file")
    args = parser.parse_args(argv)
    runs = []
    for index in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            runs.append(asyncio.run(run_arena(args.players, Path(folder), args.seed + index)))
    text = report(runs)
    print(text)
    if args.out is not None:
        write_section(args.out, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
