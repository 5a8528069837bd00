"""Where the bot's time goes under one load: py-spy on the bot process while the load driver plays.

    pip install py-spy
    python -m bench.load_profile [--bot sqlite|postgresql|baseline|sqlite-COMMIT] [--mode vs-human|vs-bot]
                                 [--games 50] [--seconds 12] [--think 0] [--wall]
                                 [--rate 200] [--out /tmp/ttt-profile.txt]

Writes py-spy's collapsed stacks of the bot's threads (open them in speedscope or any
flame graph tool) and prints the bot's CPU per interaction and the functions that were
most often on top of the main thread's stack.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.load import LoadResult, measure_load, milliseconds, running_bots
from bench.load_driver import Mode, percentile

WARM_UP = 1.0
"""Seconds py-spy gets to attach before the load starts."""


def top_frames(collapsed: Path, thread: str = "MainThread", count: int = 20) -> list[tuple[int, str]]:
    """The innermost frames most often sampled on ``thread``, with their sample counts."""
    counter: collections.Counter[str] = collections.Counter()
    for line in collapsed.read_text(encoding="utf-8").splitlines():
        stack, _, samples = line.rpartition(" ")
        if thread in stack and samples.isdigit():
            counter[stack.split(";")[-1]] += int(samples)
    return [(samples, frame) for frame, samples in counter.most_common(count)]


async def profile(
    spy: str,
    bot_name: str,
    mode: Mode,
    games: int,
    seconds: float,
    out: Path,
    *,
    think: float = 0.0,
    gil_only: bool = True,
    rate: int = 200,
) -> tuple[str, LoadResult]:
    """Play the load against the bot while ``spy`` (py-spy) records it into ``out``.

    ``gil_only`` samples only the thread holding the GIL: the Python CPU that bounds the bot's
    throughput (a thread waiting in ``select`` or on a queue is not counted).
    """
    with tempfile.TemporaryDirectory(prefix="ttt-profile-") as workdir:
        async with running_bots([bot_name], Path(workdir)) as bots:
            if not bots:
                raise SystemExit(f"could not start the {bot_name} bot")
            bot = bots[0]
            recorder = await asyncio.create_subprocess_exec(
                spy,
                "record",
                "--pid",
                str(bot.process.pid),
                "--duration",
                str(round(seconds + 2 * WARM_UP)),
                "--rate",
                str(rate),
                "--threads",
                "--nonblocking",
                *(["--gil"] if gil_only else []),
                "--format",
                "raw",
                "--output",
                str(out),
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
            )
            await asyncio.sleep(WARM_UP)
            result = await measure_load(bot, mode, games, seconds, think)
            await recorder.wait()
    return bot.label, result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load_profile", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--bot",
        default="sqlite",
        help="sqlite, postgresql, baseline, or sqlite-COMMIT (our bot of that commit, as bench.load --old)",
    )
    parser.add_argument("--mode", choices=("vs-human", "vs-bot"), default="vs-human")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--think", type=float, default=0.0, help="players' pause before acting (0: flat out)")
    parser.add_argument(
        "--wall",
        action="store_true",
        help="sample every thread all the time (default: only the thread holding the GIL, i.e. Python CPU)",
    )
    parser.add_argument("--rate", type=int, default=200, help="py-spy's samples per second")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "ttt-profile.txt")
    args = parser.parse_args(argv)
    mode = Mode.VS_HUMAN if args.mode == "vs-human" else Mode.VS_BOT
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        print("py-spy is not installed: pip install py-spy", file=sys.stderr)
        return 2
    label, result = asyncio.run(
        profile(
            spy,
            args.bot,
            mode,
            args.games,
            args.seconds,
            args.out,
            think=args.think,
            gil_only=not args.wall,
            rate=args.rate,
        )
    )
    print(
        f"{label}, {args.games} games {mode.value}: {result.interactions} interactions, "
        f"{result.per_second:.1f} interactions/s, "
        f"bot CPU {result.cpu_ms:.1f} ms per interaction, "
        f"ack p50 {milliseconds(percentile(result.acks, 50))} ms, "
        f"p99 {milliseconds(percentile(result.acks, 99))} ms"
    )
    if args.out.exists():
        print(f"collapsed stacks: {args.out}\nmost sampled frames on the main thread:")
        for samples, frame in top_frames(args.out):
            print(f"{samples:7}  {frame}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
