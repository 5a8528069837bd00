"""SIGTERM (a process manager) and SIGINT (Ctrl-C in a terminal) stop the bot cleanly.

Clicks in flight when the signal comes are finished and answered: a 5x5 click whose reply the
engine is still computing, and a click whose answer Discord is slow to take. Then the engine
pool and the database close, every engine worker is gone, and the exit status is 0. Ctrl-C
reaches the whole foreground process group, engine workers included, so SIGINT is sent to the
bot and every process it started.

Interactions that come once the stop has begun are never handled: while the clicks in flight
finish they are told to try again in a moment, and once the bot closes its connections they go
unanswered, so nothing runs on a closed HTTP session.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.shutdown import restarting
from discord_emulator import DiscordEmulator, Interaction
from discord_emulator.gateway import GatewaySession
from discord_emulator.models import text_displays
from discord_emulator.process import BotProcess
from tests.reliability.seats import EDIT_ROUTE
from tests.support.bot import ANSWER_TIMEOUT, bot_process, tracebacks
from tests.support.store import problems_of, read_store
from tests.support.tables import HARD_5X5, Table, answer, board, busy_engine, cells, moves_to

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


@contextlib.asynccontextmanager
async def ready_bot(
    tmp_path: Path, **settings: str
) -> AsyncIterator[tuple[DiscordEmulator, BotProcess, str, GatewaySession]]:
    """The emulator and a ready bot on a fresh SQLite file; killed at the end if still running."""
    async with DiscordEmulator() as emu:
        url = f"sqlite+aiosqlite:///{tmp_path / 'ttt.sqlite3'}"
        bot = bot_process(emu, tmp_path, url, **settings)
        await bot.start()
        session = await bot.wait_ready(timeout=60)
        try:
            yield emu, bot, url, session
        finally:
            if bot.running:
                bot.kill()
                await bot.wait_exit()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_stop_signal_finishes_the_clicks_in_flight_then_closes_everything(
    tmp_path: Path, signum: signal.Signals
) -> None:
    async with ready_bot(tmp_path, ENGINE_BUDGET_MS="3000") as (emu, bot, url, _):
        solo = Table.create(emu, "alice")
        big = await (await solo.slash("alice", "ttt start", size=5)).wait_response(timeout=ANSWER_TIMEOUT)
        pair = Table.create(emu, "alice", "bob")
        small = await (await pair.slash("alice", "ttt start", opponent=pair["bob"])).wait_response()
        accept = small.button(label="Accept").custom_id or ""
        await (await pair.click(small, accept, "bob")).wait_response(timeout=ANSWER_TIMEOUT)

        hint = await busy_engine(emu)
        thinking = await solo.click(big, cells(big)[12].custom_id or "", "alice")
        assert (await hint.wait_callback(timeout=ANSWER_TIMEOUT)).type == 5, "the hint is being searched"
        assert (await thinking.wait_callback(timeout=ANSWER_TIMEOUT)).type == 6, (
            "the engine is still thinking"
        )
        slow = emu.delay_next("POST", CALLBACK, 1.0)
        held = await pair.click(small, cells(small)[4].custom_id or "", "alice")
        await emu.wait_for(lambda: slow.hits, ANSWER_TIMEOUT, "the click's answer on its way to Discord")
        assert bot.pid is not None
        workers = descendants(bot.pid)
        assert workers, "the engine pool runs in worker processes"
        for pid in [bot.pid, *workers] if signum == signal.SIGINT else [bot.pid]:
            os.kill(pid, signum)
        code = await bot.wait_exit(timeout=30)

        assert code == 0, "\n".join(bot.output[-60:])
        assert held.callback is not None and held.callback.type in (6, 7) and board(small) == "....X...."
        assert board(big)[12] == "X" and board(big).count("O") == 1, "the 5x5 reply was made and shown"
        assert "Best moves" in (await answer(hint)).text, "the hint was searched and shown"
        assert thinking.ack_latency is not None and thinking.ack_latency < 3
        assert any("Closed the engine pool and the database" in line for line in bot.output)
        assert not [pid for pid in workers if outlives(pid)], "a process of the bot outlived it"
        assert not tracebacks(bot), "\n".join(bot.output[-80:])
        store = await read_store(url)
        assert not problems_of(store) and store.move_count == 3 + len(moves_to(HARD_5X5[0]))


async def test_interactions_that_arrive_while_the_bot_stops_are_told_to_retry_and_change_nothing(
    tmp_path: Path,
) -> None:
    """While a click in flight finishes, a new command, click or autocomplete gets "try again", nothing more.

    The click in flight is a 5x5 move, deferred while a hint keeps the engine busy, whose board
    edit Discord is slow to take (held 5 s), so the bot is still finishing it when the late
    interactions come.
    """
    async with ready_bot(tmp_path, ENGINE_BUDGET_MS="3000") as (emu, bot, url, _):
        solo = Table.create(emu, "alice")
        big = await (await solo.slash("alice", "ttt start", size=5)).wait_response(timeout=ANSWER_TIMEOUT)
        pair = Table.create(emu, "bob", "carol")
        challenge = await (await pair.slash("bob", "ttt start", opponent=pair["carol"])).wait_response()

        hint = await busy_engine(emu)
        held = await solo.click(big, cells(big)[12].custom_id or "", "alice")
        slow = emu.delay_next("PATCH", EDIT_ROUTE, 5.0, params={"webhook_token": held.token})
        await answer(hint)
        await emu.wait_for(lambda: slow.hits, ANSWER_TIMEOUT, "the 5x5 board's edit on its way to Discord")
        bot.send_signal(signal.SIGTERM)
        await bot.wait_for_output(
            "Shutting down: finishing 1 interaction(s) in flight", timeout=ANSWER_TIMEOUT
        )
        late = [
            await pair.slash("bob", "ttt board"),
            await pair.click(challenge, challenge.button(label="Accept").custom_id or "", "carol"),
            await emu.autocomplete(solo.channel, solo["alice"], "ttt move", focused="cell", cell=""),
        ]
        refusals = [await it.wait_callback(timeout=ANSWER_TIMEOUT) for it in late]
        code = await bot.wait_exit(timeout=30)

        assert code == 0, "\n".join(bot.output[-60:])
        assert held.callback is not None and held.callback.type == 6
        assert board(big)[12] == "X" and board(big).count("O") == 1, "the click in flight was played"
        for it, refusal in zip(late[:2], refusals[:2], strict=True):
            assert refusal.type == 4 and refusal.ephemeral, it
            assert "restarting" in "\n".join(text_displays((refusal.data or {}).get("components", []))), (
                refusal
            )
        assert refusals[2].type == 8 and late[2].choices == [], "autocomplete offers nothing"
        assert any("Told 3 late interaction(s) to try again" in line for line in bot.output)
        assert not tracebacks(bot), "\n".join(bot.output[-80:])
        store = await read_store(url)
        assert sorted(g.status.value for g in store.games.values()) == ["active", "active", "pending"], (
            "carol did not accept the challenge"
        )
        assert not problems_of(store) and store.move_count == 2 + len(moves_to(HARD_5X5[0])), (
            "only the click in flight and its reply, besides the moves to the hinted position"
        )


STREAM_LIMIT = 400
"""At most this many interactions in the stream across a shutdown (a bound: it ends with the bot)."""


def written(burst: list[Interaction], session: GatewaySession) -> Callable[[], bool]:
    """Whether every interaction of ``burst`` went out on the bot's gateway (or the gateway is gone)."""
    return lambda: all(it.delivered_at is not None for it in burst) or not session.live


def answered(burst: list[Interaction]) -> Callable[[], bool]:
    """Whether every interaction of ``burst`` has its callback.

    Before the stop the stream waits for answers, so that a slow machine builds no backlog
    that outlasts Discord's three seconds; from the stop on it no longer waits.
    """
    return lambda: all(it.callback is not None for it in burst)


async def stop_with_an_answer_in_flight(emu: DiscordEmulator, bot: BotProcess, table: Table) -> Interaction:
    """Send SIGTERM while the answer to one more command is held on its way to Discord.

    That answer keeps the bot finishing for a while, so some of the stream is sure to come
    meanwhile, however fast the rest is answered.
    """
    slow = emu.delay_next("POST", CALLBACK, 1.5)
    held = await table.slash("alice", "ttt board")
    await emu.wait_for(lambda: slow.hits, ANSWER_TIMEOUT, "an answer on its way to Discord")
    bot.send_signal(signal.SIGTERM)
    return held


async def test_a_stream_of_interactions_across_the_stop_is_answered_or_turned_away_without_errors(
    tmp_path: Path,
) -> None:
    """Commands keep coming until the bot is gone, from the stop on without waiting for answers.

    Each is answered in full (before the stop), told to try again (while the bot finishes),
    or left unanswered (once it closes its connections): never handled half-way, and the
    bot logs no error, such as a request on its already closed HTTP session.
    """
    async with ready_bot(tmp_path) as (emu, bot, _, session):
        tables = [Table.create(emu, "alice") for _ in range(4)]
        for table in tables:
            await (await table.slash("alice", "ttt start")).wait_response(timeout=ANSWER_TIMEOUT)
        sent: list[Interaction] = []
        stopped = False
        while bot.running and len(sent) < STREAM_LIMIT:
            if len(sent) == 40:
                sent.append(await stop_with_an_answer_in_flight(emu, bot, tables[0]))
                stopped = True
            burst = [await table.slash("alice", "ttt board") for table in tables]
            sent += burst
            if stopped:
                await emu.wait_for(
                    written(burst, session), ANSWER_TIMEOUT, "the burst written, or the gateway closed"
                )
            else:
                await emu.wait_for(answered(burst), ANSWER_TIMEOUT, "the burst answered")
        code = await bot.wait_exit(timeout=30)

        assert code == 0, "\n".join(bot.output[-60:])
        errors = [line for line in bot.output if "Traceback" in line or "ERROR" in line]
        assert not errors, "\n".join(bot.output[-80:])
        delivered = sorted(
            (it for it in sent if it.delivered_at is not None), key=lambda it: it.delivered_at or 0
        )
        kinds = [fate_of(it) for it in delivered]
        assert kinds == sorted(kinds, key=FATES.index), f"handled after being turned away: {kinds}"
        assert "retry" in kinds, "some command came while the bot was finishing"


FATES = ["answered", "retry", "unanswered"]


def fate_of(it: Interaction) -> str:
    """What became of a command: answered in full, told to try again, or left unanswered."""
    if it.callback is None:
        return "unanswered"
    shown = "\n".join(text_displays((it.callback.data or {}).get("components") or []))
    return "retry" if restarting("en-US") in shown else "answered"
