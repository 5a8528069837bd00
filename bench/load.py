"""Load benchmark: the real bot process driven through the Discord emulator, against an in-memory baseline.

    python -m bench.load [--quick] [--bots baseline,sqlite,postgresql] [--seconds 6] [--out FILE]
                         [--games 1,10,50] [--paced 50:2] [--analyses 5] [--rounds 1] [--old COMMIT]

Every bot runs as its own process, as users start it, against a Discord emulator of its
own inside this process: ``python -m bot`` on SQLite (a temporary file) and on
PostgreSQL (a database of its own on ``TEST_POSTGRES_URL``, created and dropped), and
``python -m bench.load_baseline_bot``, a discord.py bot that keeps its games in memory
and answers with the first empty cell (no database, no engine); with ``--old COMMIT``, also our bot
of that commit on SQLite (from ``git archive``), to compare two versions in one run. All bots are started
first and then measured one after another for each load, so the ratios compare runs
made within seconds of each other on the same, possibly busy, machine.

For 1, 10 and 50 concurrent games, games against the bot and games between two members
(challenge, Accept, then both click): each table plays games one after another, random
free cells, until the load's time is up (the game in progress is finished). Reported:
interactions per second (slash commands and clicks, all answered), the p50/p99 of a
click's acknowledgement (the emulator receiving the interaction callback) and of its
board edit, both timed from the click as the emulator records them, and our throughput
as a ratio of the baseline's at the same load.

Then, on our bot only, the engine-pool probe: one member asks ``/ttt hint`` on a 5x5
game again and again (each one a full-budget analysis in the engine pool) while ten other
tables keep playing; the acknowledgement of every click made while an analysis was running
is reported (Discord's limit is 3 s).

Loopback only, bounded in games and time (about three minutes in full, under a minute
with ``--quick``). Results go to ``bench/RESULTS-load.md`` with the machine's load average.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import os
import platform
import random
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from bench.board_payload import old_checkout
from bench.load_driver import (
    ANSWER_TIMEOUT,
    GameRecord,
    Mode,
    ack_seconds,
    edit_seconds,
    percentile,
    play_until,
    set_tables,
)
from bench.service import postgres_database
from discord_emulator import DiscordEmulator, Interaction
from discord_emulator.process import BotProcess

BOTS = ("baseline", "sqlite", "postgresql")
LEVELS = (1, 10, 50)
QUICK_LEVELS = (1, 10)
START_TIMEOUT = 90.0
GOAL_RATIO = 0.5
"""Clicking flat out: at least this share of the baseline's interactions per second."""
GOAL_PACED_RATIO = 0.95
GOAL_ACK_P99 = 0.050
"""Paced: the p99 of a click's acknowledgement, and of its board edit, below these."""
GOAL_EDIT_P99 = 0.100
GOAL_CPU_MS = 2.0
"""The bot's CPU per interaction (engine workers included), in milliseconds."""
GOAL_POSTGRES_SHARE = 0.8
"""Clicking flat out, PostgreSQL's interactions per second as a share of SQLite's."""
DISCORD_DEADLINE = 3.0
PROBE_TABLES = 10
OUR_SETTINGS = {
    "START_COOLDOWN_SECONDS": "0",
    "TURN_TIMEOUT_SECONDS": "86400",
    "CHALLENGE_TIMEOUT_SECONDS": "86400",
    "LOG_LEVEL": "INFO",
}
"""The bot's defaults, except no start cooldown (one member starts game after game) and no timeouts."""


@dataclass
class RunningBot:
    name: str
    """``baseline``, ``sqlite`` or ``postgresql`` (our bot on that database), or ``sqlite-COMMIT`` (our
    bot of that commit, ``--old``)."""
    emu: DiscordEmulator
    process: BotProcess

    @property
    def label(self) -> str:
        return "baseline (in memory)" if self.name == "baseline" else f"ours, {self.name}"


@dataclass
class LoadResult:
    bot: str
    mode: Mode
    concurrency: int
    elapsed: float
    games: list[GameRecord]
    think: float = 0.0
    cpu: float = 0.0
    """CPU seconds the bot process (with its engine workers) used during the run."""
    interactions: int = 0
    acks: list[float] = field(default_factory=list)
    edits: list[float] = field(default_factory=list)
    refused: int = 0
    unanswered: int = 0
    failed_games: int = 0
    failures: list[str] = field(default_factory=list)

    @classmethod
    def of(
        cls,
        bot: str,
        mode: Mode,
        concurrency: int,
        elapsed: float,
        games: list[GameRecord],
        think: float,
        cpu: float,
    ) -> LoadResult:
        result = cls(bot, mode, concurrency, elapsed, games, think, cpu)
        for game in games:
            result.interactions += len(game.interactions)
            result.refused += game.refused
            if game.failure is not None:
                result.failed_games += 1
                result.failures.append(game.failure)
            for click in game.clicks:
                ack, edit = ack_seconds(click), edit_seconds(click)
                if ack is None or edit is None:
                    result.unanswered += 1
                else:
                    result.acks.append(ack)
                    result.edits.append(edit)
        return result

    @classmethod
    def merged(cls, rounds: Sequence[LoadResult]) -> LoadResult:
        """One result of the rounds of one bot under one load: their games, time and CPU added up."""
        first = rounds[0]
        games = [game for result in rounds for game in result.games]
        elapsed = sum(result.elapsed for result in rounds)
        cpu = sum(result.cpu for result in rounds)
        return cls.of(first.bot, first.mode, first.concurrency, elapsed, games, first.think, cpu)

    @property
    def per_second(self) -> float:
        return self.interactions / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def cpu_ms(self) -> float:
        """The bot's CPU milliseconds per interaction: less sensitive than rates to a busy machine."""
        return 1000 * self.cpu / self.interactions if self.interactions else math.nan


def process_cpu(pid: int | None) -> float:
    """CPU seconds (user + system) of process ``pid`` and its live descendants (Linux ``/proc``; else 0)."""
    if pid is None:
        return 0.0
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as children:
            kids = [int(kid) for kid in children.read().split()]
    except OSError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(process_cpu(kid) for kid in kids)


@dataclass
class ProbeResult:
    """Clicks in other games while a 5x5 analysis ran in the engine pool."""

    analyses: list[float]
    """How long each ``/ttt hint`` took, from the command to its answer."""
    acks_vs_human: list[float]
    acks_vs_bot: list[float]
    clicks_outside: int


async def _start_bot(name: str, stack: contextlib.AsyncExitStack, workdir: Path) -> RunningBot | None:
    emu = await stack.enter_async_context(DiscordEmulator())
    base, _, revision = name.partition("-")
    cwd = None
    if name == "baseline":
        args, env = ["-m", "bench.load_baseline_bot"], {}
    else:
        if base == "sqlite":
            url = f"sqlite+aiosqlite:///{workdir / f'{name}.sqlite3'}"
        else:
            created = await postgres_database()
            if created is None:
                return None
            url, drop = created
            stack.push_async_callback(drop)
        args, env = ["-m", "bot"], {**OUR_SETTINGS, "DATABASE_URL": url}
        if revision:
            cwd = old_checkout(revision, workdir / revision)
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(cwd), os.environ.get("PYTHONPATH")]))
    process = BotProcess(emu, args, env=env, cwd=cwd, log_path=workdir / f"{name}.log")
    await stack.enter_async_context(process)
    stack.push_async_callback(process.terminate)
    await process.wait_ready(timeout=START_TIMEOUT)
    await emu.wait_for_commands(timeout=START_TIMEOUT)
    return RunningBot(name, emu, process)


@contextlib.asynccontextmanager
async def running_bots(names: Iterable[str], workdir: Path) -> AsyncIterator[list[RunningBot]]:
    """Start every bot in ``names`` (PostgreSQL is left out, with a note, when no server answers)."""
    async with contextlib.AsyncExitStack() as stack:
        bots = []
        for name in names:
            bot = await _start_bot(name, stack, workdir)
            if bot is not None:
                bots.append(bot)
        yield bots


async def measure_load(
    bot: RunningBot, mode: Mode, concurrency: int, seconds: float, think: float = 0.0, seed: int = 1
) -> LoadResult:
    """``concurrency`` tables playing ``mode`` games at once for about ``seconds``.

    ``think`` 0 clicks as soon as the board is back (the bot's capacity); otherwise players
    pause about ``think`` seconds before each click (latency at a steady load).
    """
    label = f"{bot.name}-{mode.name.lower()}-{concurrency}-{think:g}"
    _, tables = set_tables(bot.emu, concurrency, label)
    # The emulator times every answer: keep its own garbage collector's full passes (tens of ms
    # over what earlier rows left behind) out of the latencies it records for the bot.
    gc.collect()
    gc.freeze()
    cpu_before = process_cpu(bot.process.pid)
    started = time.monotonic()
    deadline = started + seconds
    per_table = await asyncio.gather(
        *(
            play_until(
                bot.emu, table, mode, lambda: time.monotonic() >= deadline, random.Random(seed + i), think
            )
            for i, table in enumerate(tables)
        )
    )
    elapsed = time.monotonic() - started
    cpu = process_cpu(bot.process.pid) - cpu_before
    games = [game for games in per_table for game in games]
    return LoadResult.of(bot.name, mode, concurrency, elapsed, games, think, cpu)


def _during(click: Interaction, windows: Sequence[tuple[float, float]]) -> bool:
    return any(start <= click.created_at <= end for start, end in windows)


async def probe_engine_pool(bot: RunningBot, analyses: int) -> ProbeResult:
    """Repeated 5x5 ``/ttt hint`` at one table while :data:`PROBE_TABLES` others keep playing."""
    emu = bot.emu
    _, tables = set_tables(emu, PROBE_TABLES + 1, f"{bot.name}-probe")
    analysis_table, others = tables[0], tables[1:]
    start = await emu.slash(analysis_table.channel, analysis_table.x_player, "ttt start", size=5)
    await start.wait_response(timeout=ANSWER_TIMEOUT)
    windows: list[tuple[float, float]] = []

    async def analyse() -> None:
        for _ in range(analyses):
            hint = await emu.slash(analysis_table.channel, analysis_table.x_player, "ttt hint")
            await hint.wait_response(timeout=ANSWER_TIMEOUT)
            windows.append((hint.created_at, time.monotonic()))

    analysing = asyncio.create_task(analyse())
    modes = [Mode.VS_HUMAN if i % 2 else Mode.VS_BOT for i in range(len(others))]
    per_table = await asyncio.gather(
        *(
            play_until(emu, table, mode, analysing.done, random.Random(100 + i))
            for i, (table, mode) in enumerate(zip(others, modes, strict=True))
        )
    )
    await analysing
    acks: dict[Mode, list[float]] = {Mode.VS_BOT: [], Mode.VS_HUMAN: []}
    outside = 0
    for games in per_table:
        for game in games:
            for click in game.clicks:
                ack = ack_seconds(click)
                if ack is not None and _during(click, windows):
                    acks[game.mode].append(ack)
                else:
                    outside += 1
    durations = [end - begin for begin, end in windows]
    return ProbeResult(durations, acks[Mode.VS_HUMAN], acks[Mode.VS_BOT], outside)


# Report


def milliseconds(seconds: float) -> str:
    return "n/a" if seconds != seconds else f"{seconds * 1000:.0f}"


def load_table(results: Sequence[LoadResult]) -> str:
    baseline = {(r.mode, r.concurrency, r.think): r for r in results if r.bot == "baseline"}
    lines = [
        "| bot | games | mode | think s | games played | interactions | per s | vs baseline | bot CPU ms/int "
        "| ack p50 ms | ack p99 ms | edit p50 ms | edit p99 ms | refused/unanswered/failed games |",
        "|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for r in results:
        base = baseline.get((r.mode, r.concurrency, r.think))
        ratio = f"{r.per_second / base.per_second:.2f}" if base and base.per_second else "-"
        label = "baseline" if r.bot == "baseline" else f"ours ({r.bot})"
        lines.append(
            f"| {label} | {r.concurrency} | {r.mode.value} | {r.think:g} | {len(r.games)} | {r.interactions} "
            f"| {r.per_second:.1f} | {ratio} | {r.cpu_ms:.1f} | {milliseconds(percentile(r.acks, 50))} "
            f"| {milliseconds(percentile(r.acks, 99))} | {milliseconds(percentile(r.edits, 50))} "
            f"| {milliseconds(percentile(r.edits, 99))} | {r.refused}/{r.unanswered}/{r.failed_games} |"
        )
    return "\n".join(lines)


def probe_table(bot: str, probe: ProbeResult) -> str:
    lines = [
        "| bot | analyses | analysis median s | clicks during | kind "
        "| ack p50 ms | ack p99 ms | ack max ms |",
        "|---|--:|--:|--:|---|--:|--:|--:|",
    ]
    median = percentile(probe.analyses, 50)
    for kind, acks in (("vs human", probe.acks_vs_human), ("vs bot", probe.acks_vs_bot)):
        lines.append(
            f"| ours ({bot}) | {len(probe.analyses)} | {median:.2f} | {len(acks)} | {kind} "
            f"| {milliseconds(percentile(acks, 50))} | {milliseconds(percentile(acks, 99))} "
            f"| {milliseconds(max(acks, default=float('nan')))} |"
        )
    return "\n".join(lines)


def _verdict(met: bool) -> str:
    return "meets" if met else "misses"


def goals(results: Sequence[LoadResult]) -> list[str]:
    """Our rows at the highest load against the goals: throughput, latency, CPU, PostgreSQL vs SQLite."""
    baseline = {(r.mode, r.concurrency, r.think): r.per_second for r in results if r.bot == "baseline"}
    top = max((r.concurrency for r in results), default=0)
    ours = [r for r in results if r.bot != "baseline" and r.concurrency == top]
    lines = []
    for r in ours:
        base = baseline.get((r.mode, r.concurrency, r.think))
        ratio = r.per_second / base if base else math.nan
        line = f"- ours ({r.bot}), {top} games {r.mode.value}, "
        cpu = f"CPU {r.cpu_ms:.1f} ms per interaction ({_verdict(r.cpu_ms < GOAL_CPU_MS)} < {GOAL_CPU_MS:g})"
        if r.think:
            ack, edit = percentile(r.acks, 99), percentile(r.edits, 99)
            paced = f"{_verdict(ratio >= GOAL_PACED_RATIO)} >= {GOAL_PACED_RATIO}"
            acked = f"{_verdict(ack < GOAL_ACK_P99)} < {milliseconds(GOAL_ACK_P99)}"
            edited = f"{_verdict(edit < GOAL_EDIT_P99)} < {milliseconds(GOAL_EDIT_P99)}"
            line += (
                f"players thinking ~{r.think:g} s: {ratio:.2f} of the baseline ({paced}); "
                f"ack p99 {milliseconds(ack)} ms ({acked}); "
                f"edit p99 {milliseconds(edit)} ms ({edited}); {cpu}"
            )
        else:
            line += (
                f"clicking flat out: {ratio:.2f} of the baseline "
                f"({_verdict(ratio >= GOAL_RATIO)} >= {GOAL_RATIO}); {cpu}"
            )
        lines.append(line)
    sqlite = {(r.mode, r.think): r.per_second for r in ours if r.bot == "sqlite" and not r.think}
    for r in ours:
        if r.bot == "postgresql" and not r.think and sqlite.get((r.mode, r.think)):
            share = r.per_second / sqlite[(r.mode, r.think)]
            lines.append(
                f"- PostgreSQL / SQLite, {top} games {r.mode.value}, flat out: {share:.2f} "
                f"({_verdict(share >= GOAL_POSTGRES_SHARE)} >= {GOAL_POSTGRES_SHARE})"
            )
    return lines


def machine() -> str:
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"discord.py {metadata.version('discord.py')}; load average (1/5/15 min) {load}"
    )


@dataclass
class Options:
    bots: Sequence[str] = BOTS
    levels: Sequence[int] = LEVELS
    modes: Sequence[Mode] = (Mode.VS_BOT, Mode.VS_HUMAN)
    seconds: float = 8.0
    paced: Sequence[tuple[int, float]] = ((50, 2.0),)
    """(games, think seconds) loads run after the flat-out ones, for latency at a steady load."""
    analyses: int = 5
    """``/ttt hint`` runs in the engine-pool probe; 0 skips the probe."""
    rounds: int = 1
    """Rounds of ``seconds`` per bot and load, the bots taking turns (each round starting with the
    next bot); a row adds its rounds up, so a machine slowing down for a while weighs on every bot."""


@dataclass
class Report:
    results: list[LoadResult]
    probes: dict[str, ProbeResult]
    load_before: str
    load_after: str
    missing: list[str]


async def _measure_rounds(
    bots: Sequence[RunningBot], mode: Mode, concurrency: int, think: float, options: Options
) -> list[LoadResult]:
    """One row per bot: ``options.rounds`` rounds each, the bots taking turns, added up."""
    rounds: dict[str, list[LoadResult]] = {bot.name: [] for bot in bots}
    for turn in range(options.rounds):
        for bot in [*bots[turn % len(bots) :], *bots[: turn % len(bots)]]:
            result = await measure_load(bot, mode, concurrency, options.seconds, think, seed=1 + turn)
            ack = milliseconds(percentile(result.acks, 99))
            print(
                f"{bot.label:22} {concurrency:3} {mode.value:9} think {think:g} round {turn + 1}: "
                f"{result.per_second:7.1f}/s ack p99 {ack} ms",
                file=sys.stderr,
            )
            rounds[bot.name].append(result)
    return [LoadResult.merged(rounds[bot.name]) for bot in bots]


async def run(options: Options, workdir: Path) -> Report:
    before = machine()
    async with running_bots(options.bots, workdir) as bots:
        missing = [name for name in options.bots if name not in {bot.name for bot in bots}]
        results = []
        loads = [(concurrency, 0.0) for concurrency in options.levels] + list(options.paced)
        for concurrency, think in loads:
            for mode in options.modes:
                results += await _measure_rounds(bots, mode, concurrency, think, options)
        probes = {}
        if options.analyses:
            for bot in bots:
                if bot.name != "baseline":
                    probes[bot.name] = await probe_engine_pool(bot, options.analyses)
    return Report(results, probes, before, machine(), missing)


def markdown(report: Report, options: Options, quick: bool) -> str:
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [
        "# Load benchmark results",
        "",
        f"`python -m bench.load{' --quick' if quick else ''}`, {when}. See `bench/load.py` for the method "
        "and `bench/RESULTS-throughput.md` for where the bot's time goes.",
        "",
        f"- Machine before: {report.load_before}",
        f"- Machine after: {report.load_after}",
        f"- {options.seconds:g} s of play per row{_rounds(options.rounds)} (the games in progress are then "
        "finished); latencies are per click (cells and Accept), timed by the emulator from the click.",
        "",
        load_table(report.results),
        "",
    ]
    failed = [r for r in report.results if r.failures]
    if failed:
        parts += ["Failed games (an interaction the bot did not answer in time, as Discord enforces):", ""]
        for r in failed:
            kinds = sorted({failure.split(":", 1)[-1].strip() for failure in r.failures})
            parts.append(f"- {r.bot}, {r.concurrency} games {r.mode.value}: {'; '.join(kinds[:3])}")
        parts.append("")
    goal_lines = goals(report.results)
    if goal_lines:
        parts += ["Goals at the highest load:", ""]
        parts += [*goal_lines, ""]
    for bot, probe in report.probes.items():
        parts += [
            "Engine pool probe: `/ttt hint` on a 5x5 game (a full-budget analysis) again and again while "
            f"{PROBE_TABLES} other tables play; the acknowledgement of the clicks made while an analysis ran "
            f"(Discord's limit: {DISCORD_DEADLINE:g} s):",
            "",
            probe_table(bot, probe),
            "",
        ]
    if report.missing:
        parts += [f"Not measured (no server): {', '.join(report.missing)}", ""]
    return "\n".join(parts)


def _rounds(rounds: int) -> str:
    if rounds == 1:
        return ""
    return f" in each of {rounds} rounds, the bots taking turns (a row adds its rounds up)"


def parse_args(argv: Sequence[str] | None) -> tuple[Options, bool, Path]:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1 and 10 games, 1 s each, 2 analyses")
    parser.add_argument("--bots", default=",".join(BOTS), help=f"comma-separated, from {', '.join(BOTS)}")
    parser.add_argument("--seconds", type=float, default=None, help="play per row (default 8, quick 1)")
    parser.add_argument("--games", default=None, help="comma-separated concurrent games, e.g. 50")
    parser.add_argument("--paced", default=None, help="GAMES:THINK_SECONDS,... (empty: none)")
    parser.add_argument("--analyses", type=int, default=None, help="engine-pool probe runs (0: skip)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds per row, the bots taking turns")
    parser.add_argument(
        "--old", default=None, help="also our bot of this commit, on SQLite (as sqlite-COMMIT), e.g. 2a3df00"
    )
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("RESULTS-load.md"))
    args = parser.parse_args(argv)
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    unknown = [name for name in bots if name not in BOTS]
    if unknown:
        parser.error(f"unknown bot {unknown[0]!r}; choose from {', '.join(BOTS)}")
    if args.old:
        bots.append(f"sqlite-{args.old}")
    if args.quick:
        options = Options(bots, QUICK_LEVELS, seconds=args.seconds or 1.0, paced=((10, 0.2),), analyses=2)
    else:
        options = Options(bots, LEVELS, seconds=args.seconds or 8.0)
    if args.games is not None:
        options.levels = [int(n) for n in args.games.split(",") if n.strip()]
    if args.paced is not None:
        options.paced = [
            (int(games), float(think))
            for games, think in (item.split(":") for item in args.paced.split(",") if item.strip())
        ]
    if args.analyses is not None:
        options.analyses = args.analyses
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    options.rounds = args.rounds
    return options, args.quick, args.out


def main(argv: Sequence[str] | None = None) -> int:
    options, quick, out = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ttt-load-") as workdir:
        report = asyncio.run(run(options, Path(workdir)))
    text = markdown(report, options, quick)
    print(text)
    out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
