"""SIGTERM (a process manager) and SIGINT (Ctrl-C in a terminal) stop the bot cleanly.

Clicks in flight when the signal comes are finished and answered: a 5x5 click whose reply the
engine is still computing, and a click whose answer Discord is slow to take. Then the engine
pool and the database close, every engine worker is gone, and the exit status is 0. Ctrl-C
reaches the whole foreground process group, engine workers included, so SIGINT is sent to the
bot and every process it started.
"""

from __future__ import annotations

import os
import select
import signal
from pathlib import Path

import pytest

from tests.emulator import DiscordEmulator
from tests.exts.harness import Table, board, cells
from tests.reliability.conftest import bot_process, tracebacks
from tests.reliability.seats import ANSWER
from tests.reliability.store import problems_of, read_store

pytestmark = [pytest.mark.e2e]

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


def descendants(pid: int) -> set[int]:
    """The processes started by ``pid`` and by them, from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def outlives(pid: int, guard: float = 10.0) -> bool:
    """Whether process ``pid`` (not our child) is still running after ``guard`` seconds.

    Waits on a pidfd, which becomes readable when the process exits: no polling.
    """
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return False
    try:
        readable, _, _ = select.select([fd], [], [], guard)
        return not readable
    finally:
        os.close(fd)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_stop_signal_finishes_the_clicks_in_flight_then_closes_everything(
    tmp_path: Path, signum: signal.Signals
) -> None:
    async with DiscordEmulator() as emu:
        url = f"sqlite+aiosqlite:///{tmp_path / 'ttt.sqlite3'}"
        bot = bot_process(emu, tmp_path, url, ENGINE_BUDGET_MS="1500")
        await bot.start()
        await bot.wait_ready(timeout=60)
        try:
            solo = Table.create(emu, "alice")
            big = await (await solo.slash("alice", "ttt start", size=5)).wait_response(timeout=ANSWER)
            pair = Table.create(emu, "alice", "bob")
            small = await (await pair.slash("alice", "ttt start", opponent=pair["bob"])).wait_response()
            accept = small.button(label="Accept").custom_id or ""
            await (await pair.click(small, accept, "bob")).wait_response(timeout=ANSWER)

            thinking = await solo.click(big, cells(big)[12].custom_id or "", "alice")
            assert (await thinking.wait_callback(timeout=ANSWER)).type == 6, "the engine is still thinking"
            slow = emu.delay_next("POST", CALLBACK, 1.0)
            held = await pair.click(small, cells(small)[4].custom_id or "", "alice")
            await emu.wait_for(lambda: slow.hits, ANSWER, "the click's answer on its way to Discord")
            assert bot.pid is not None
            workers = descendants(bot.pid)
            assert workers, "the engine pool runs in worker processes"
            for pid in [bot.pid, *workers] if signum == signal.SIGINT else [bot.pid]:
                os.kill(pid, signum)
            code = await bot.wait_exit(timeout=30)
        finally:
            if bot.running:
                bot.kill()
                await bot.wait_exit()

        assert code == 0, "\n".join(bot.output[-60:])
        assert held.callback is not None and held.callback.type in (6, 7) and board(small) == "....X...."
        assert board(big)[12] == "X" and board(big).count("O") == 1, "the 5x5 reply was made and shown"
        assert thinking.ack_latency is not None and thinking.ack_latency < 3
        assert any("Closed the engine pool and the database" in line for line in bot.output)
        assert not [pid for pid in workers if outlives(pid)], "a process of the bot outlived it"
        assert not tracebacks(bot), "\n".join(bot.output[-80:])
        store = await read_store(url)
        assert not problems_of(store) and store.move_count == 3
