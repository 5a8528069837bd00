"""Kill -9 at random points of real play, restart, and prove nothing answered was lost or doubled.

One round: a few ordinary actions on seeded random tables (games against the bot and between
members), then one action during which the bot is SIGKILLed at a point chosen (seeded) from:
right after Discord delivered the click (``dispatched``), while the click's answer is on its way
to Discord (``held``: it arrives after the kill), when that answer is lost (``lost``), right
after the answer (``answered``), during a ``/ttt start`` (``start``), while the bot computes a
5x5 reply after deferring the click (``deferred``), or with nothing in flight (``idle``). Then
``python -m bot`` starts again and must finish every bot reply that was due.

At the end, against the database: every move a user saw answered is stored, by that user, at
its ply; every stored human move was asked for by a click at that ply (so none is applied
twice); every game replays legally to its stored board; no game waits for the bot; and every
board message ever shown still plays: a click on it is answered and leaves it showing the game
as stored. ``TTT_KILL_ROUNDS`` (SQLite, default 100) and ``TTT_KILL_ROUNDS_PG`` (default 6) scale
the rounds, ``TTT_KILL_LANES`` runs that many independent bots (emulator, process, database) side
by side, ``TTT_KILL_SEED`` picks the seed. A restart takes about a second (the schema check skips
Alembic at head, READY does not wait for the engine workers), so 100 rounds on SQLite take about two
minutes on a 2-core machine.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy.engine import URL

from discord_emulator import DiscordEmulator, Message
from discord_emulator.process import BotProcess
from tests.databases import create_database, drop_database
from tests.reliability.seats import Seat
from tests.support.bot import ANSWER_TIMEOUT, bot_process, kill9, tracebacks
from tests.support.store import problems_of, read_store
from tests.support.tables import Table, board, cells, game_of, hard_position, is_live_board

pytestmark = [pytest.mark.e2e]

SQLITE_ROUNDS = int(os.environ.get("TTT_KILL_ROUNDS", "100"))
POSTGRES_ROUNDS = int(os.environ.get("TTT_KILL_ROUNDS_PG", "6"))
LANES = int(os.environ.get("TTT_KILL_LANES", "2"))
SEED = int(os.environ.get("TTT_KILL_SEED", "20261123"))
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
CHANNEL_EDIT = "/channels/{channel_id}/messages/{message_id}"
WEBHOOK_EDIT = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
MODES = {"dispatched": 5, "held": 3, "lost": 3, "answered": 2, "start": 2, "deferred": 2, "idle": 1}
BOT_SETTINGS = {"ENGINE_BUDGET_MS": "3000", "SWEEP_INTERVAL_SECONDS": "2"}
"""A hint on a hard 5x5 position then holds the engine 3 s: a 5x5 reply asked for meanwhile waits
longer than the second after which the bot defers a click."""


@dataclass
class KillLane:
    """One bot process with its own emulator and database, killed again and again."""

    emu: DiscordEmulator
    workdir: Path
    database_url: str
    seed: int
    rng: random.Random = field(init=False)
    bot: BotProcess = field(init=False)
    seats: list[Seat] = field(default_factory=list)
    big: Seat = field(init=False)
    hard: tuple[Table, Message] | None = None
    """Two members at the hard 5x5 position and its board: their hints keep the engine busy (made on
    first use, before any kill; their moves are the setup's, not the rounds')."""
    kills: Counter[str] = field(default_factory=Counter)
    old_boards_clicked: int = 0
    restart_seconds: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.bot = bot_process(self.emu, self.workdir, self.database_url, **BOT_SETTINGS)
        for vs in (None, None, "bob"):
            table = Table.create(self.emu, "alice", "bob")
            self.seats.append(Seat(table, self.database_url, self.rng, vs=vs))
        self.big = Seat(Table.create(self.emu, "alice"), self.database_url, self.rng, size=5)

    @property
    def bot_turns_resumed(self) -> int:
        """Bot replies the restarted bot made (it logs "Resumed N game(s) waiting for my move")."""
        lines = [line for line in self.bot.output if "Resumed " in line and "waiting for my move" in line]
        return sum(int(line.split("Resumed ")[1].split()[0]) for line in lines)

    @property
    def all_seats(self) -> list[Seat]:
        return [*self.seats, self.big]

    async def run(self, rounds: int) -> None:
        await self.bot.start()
        await self.bot.wait_ready(timeout=60)
        try:
            for _ in range(rounds):
                for _ in range(self.rng.randint(0, 2)):
                    await self.rng.choice(self.seats).step()
                mode = self.rng.choices(list(MODES), weights=list(MODES.values()))[0]
                deferred = await self.kill_during(mode)
                started = time.monotonic()
                await self.bot.start()
                await self.bot.wait_ready(timeout=60)
                self.restart_seconds.append(time.monotonic() - started)
                await self.bot_turns_done()
                if deferred is not None:
                    await self.board_shows_stored_game(self.big.board or deferred[0])
            await self.check_old_boards()
        finally:
            if self.bot.running:
                assert await self.bot.terminate(timeout=30) == 0

    async def kill_during(self, mode: str) -> tuple[object, int] | None:
        """Kill the bot at the point ``mode`` names; for ``deferred``, the board and version to see edited."""
        seat = self.rng.choice(self.seats)
        if mode == "start":
            fresh = [s for s in self.seats if s.board is None or not is_live_board(s.board)]
            if fresh:
                it = await self.rng.choice(fresh).start_command()
                await it.wait_for(lambda it: it.delivered_at, ANSWER_TIMEOUT)
                return await self._kill("start")
            mode = "dispatched"
        if mode == "deferred":
            seat = self.big
            if self.hard is None:
                self.hard = await hard_position(self.emu)
            hint = await self.hard[0].slash("hinter", "ttt hint")  # the 5x5 reply clicked below waits for it
            await hint.wait_callback(timeout=ANSWER_TIMEOUT)
        if seat.board is None or not is_live_board(seat.board):
            await seat.step()
        if mode in ("idle", "answered"):
            if mode == "answered":
                await seat.step()
            return await self._kill(mode)
        fault = None
        if mode == "held":
            fault = self.emu.delay_next("POST", CALLBACK, 0.2)
        elif mode == "lost":
            fault = self.emu.drop_next("POST", CALLBACK)
        clicked = await seat.click()
        if clicked is None:  # the board waits for the bot's reply: let it come, kill with nothing in flight
            self.emu.clear_faults()
            await seat.step()
            return await self._kill("idle")
        it, version = clicked
        if mode == "deferred":
            callback = await it.wait_callback(timeout=ANSWER_TIMEOUT)
            await self._kill("deferred" if callback.type == 6 else "answered")
            return (seat.board, version) if callback.type == 6 else None
        if fault is None:
            await it.wait_for(lambda it: it.delivered_at, ANSWER_TIMEOUT)
            return await self._kill(mode)
        await self.emu.wait_for(lambda: fault.hits, ANSWER_TIMEOUT, "the click's answer on its way")
        await self._kill(mode)
        await self.emu.wait_for(lambda: fault.hits[0].status is not None, ANSWER_TIMEOUT, "the held answer")
        self.emu.clear_faults()
        return None

    async def board_shows_stored_game(self, message: Message) -> None:
        """After a kill while a click was deferred, the board catches up with what was stored.

        A click is deferred when its answer is not ready within a second: here the 5x5 reply
        waits for a hint's search that outlasts that, so the kill comes after the human's move was
        committed, while the bot's reply was waiting or being searched (the restarted bot makes the
        reply and shows both), or, on a slow machine, before that commit (nothing to show; the user
        clicks again).
        """
        stored = (await read_store(self.database_url)).games[game_of(message) or 0]
        expected = stored.board.replace("/", "")
        await self.emu.wait_for(lambda: board(message) == expected, 30, "the board showing the stored game")

    async def _kill(self, mode: str) -> None:
        await kill9(self.bot)
        self.kills[mode] += 1

    async def bot_turns_done(self) -> None:
        """Wait (on the emulator's activity) until no game waits for the bot: the restart resumes them."""
        waiting = [g for g in (await read_store(self.database_url)).games.values() if g.bot_to_move]
        while waiting:
            seen = len(self.emu.rest_log)
            await self.emu.wait_for(
                lambda seen=seen: len(self.emu.rest_log) > seen, 30, "the bot's resumed replies"
            )
            waiting = [g for g in (await read_store(self.database_url)).games.values() if g.bot_to_move]

    async def check_old_boards(self) -> None:
        """Every board message that still offers a move answers a click and then shows the stored game."""
        for seat in self.all_seats:
            for message in list(seat.boards):
                if not is_live_board(message):
                    continue
                seat.board = message
                self.old_boards_clicked += 1
                game_id = game_of(message)
                assert game_id is not None
                clicked = await seat.click()
                if clicked is None:
                    await self.emu.wait_for_edit(message, timeout=ANSWER_TIMEOUT)
                else:
                    await seat.settle_click(*clicked)
                stored = (await read_store(self.database_url)).games[game_id]
                if game_of(message) is None:
                    # The game's board is another message now; this copy became a link to it.
                    assert stored.message_id != message.id, f"game {game_id}'s own board lost its buttons"
                elif stored.status.value != "pending":
                    assert board(message) == stored.board.replace("/", ""), (
                        f"board message {message.id} of game {game_id} shows {board(message)}, "
                        f"stored {stored.board}"
                    )

    async def check_store(self) -> dict[str, int]:
        store = await read_store(self.database_url)
        problems = problems_of(store)
        assert not problems, "\n".join(problems)
        stored = {(m.game_id, m.ply): m for moves in store.moves.values() for m in moves}
        clicks = [click for seat in self.all_seats for click in seat.clicks]
        answered = [click for click in clicks if click.answered_move(self.emu)]
        for click in answered:
            move = stored.get((click.game_id, click.ply))
            assert move is not None, f"the answered move {click} is not stored"
            assert (move.cell, move.player_id) == (click.cell, click.user_id), f"{click} stored as {move}"
        asked = {(c.game_id, c.ply, c.cell, c.user_id) for c in clicks}
        setup = game_of(self.hard[1]) if self.hard is not None else None
        for move in stored.values():
            if move.player_id is not None and move.game_id != setup:
                key = (move.game_id, move.ply, move.cell, move.player_id)
                assert key in asked, f"stored move {move} was never clicked"
        return {
            "games": len(store.games),
            "moves": store.move_count,
            "clicks": len(clicks),
            "answered": len(answered),
            "unanswered": sum(1 for c in clicks if c.it.callback is None),
        }


async def run_lanes(tmp_path: Path, urls: list[str], rounds: int) -> None:
    lanes: list[KillLane] = []
    emulators = [DiscordEmulator() for _ in urls]
    for emu in emulators:
        await emu.start()
    try:
        for index, (emu, url) in enumerate(zip(emulators, urls, strict=True)):
            workdir = tmp_path / f"lane{index}"
            workdir.mkdir()
            lanes.append(KillLane(emu, workdir, url, SEED + index))
        share = [rounds // len(lanes) + (i < rounds % len(lanes)) for i in range(len(lanes))]
        started = time.monotonic()
        await asyncio.gather(*(lane.run(n) for lane, n in zip(lanes, share, strict=True)))
        elapsed = time.monotonic() - started
        totals: Counter[str] = Counter()
        for lane in lanes:
            totals.update(await lane.check_store())
            assert not tracebacks(lane.bot, killed=True), "\n".join(lane.bot.output[-200:])
            assert all(emu.token not in line for line in lane.bot.output)
        kills = sum((lane.kills for lane in lanes), Counter())
        restarts = [s for lane in lanes for s in lane.restart_seconds]
        print(
            f"\n{sum(kills.values())} kills ({dict(kills)}) in {elapsed:.0f} s, "
            f"restart median {sorted(restarts)[len(restarts) // 2]:.2f} s; "
            f"bot turns resumed after a restart {sum(lane.bot_turns_resumed for lane in lanes)}, "
            f"old boards clicked {sum(lane.old_boards_clicked for lane in lanes)}; {dict(totals)}"
        )
        assert sum(kills.values()) == rounds
    finally:
        for emu in emulators:
            await emu.stop()


async def test_kill9_on_sqlite_loses_and_doubles_nothing(tmp_path: Path) -> None:
    lanes = max(1, min(LANES, SQLITE_ROUNDS))
    urls = [f"sqlite+aiosqlite:///{tmp_path / f'lane{i}.sqlite3'}" for i in range(lanes)]
    await run_lanes(tmp_path, urls, SQLITE_ROUNDS)


@pytest.mark.postgres
async def test_kill9_on_postgres_loses_and_doubles_nothing(tmp_path: Path, postgres_server: URL) -> None:
    lanes = max(1, min(LANES, POSTGRES_ROUNDS))
    databases = [await create_database(postgres_server) for _ in range(lanes)]
    try:
        urls = [url.render_as_string(hide_password=False) for url in databases]
        await run_lanes(tmp_path, urls, POSTGRES_ROUNDS)
    finally:
        for url in databases:
            await drop_database(postgres_server, url)


async def test_a_winning_move_whose_answer_died_with_the_bot_shows_on_its_old_board(tmp_path: Path) -> None:
    """The answer to the winning click is lost and the bot killed: the board still offers moves.

    After the restart, a click on that board must be refused and redraw it with the result,
    not leave a finished game looking playable forever.
    """
    async with DiscordEmulator() as emu:
        url = f"sqlite+aiosqlite:///{tmp_path / 'ttt.sqlite3'}"
        bot = bot_process(emu, tmp_path, url)
        await bot.start()
        await bot.wait_ready(timeout=60)
        try:
            table = Table.create(emu, "alice", "bob")
            message = await (await table.slash("alice", "ttt start", opponent=table["bob"])).wait_response()
            await (
                await table.click(message, message.button(label="Accept").custom_id or "", "bob")
            ).wait_response()
            for cell, player in ((0, "alice"), (3, "bob"), (1, "alice"), (4, "bob")):
                it = await table.click(message, cells(message)[cell].custom_id or "", player)
                await it.wait_response(timeout=ANSWER_TIMEOUT)
            # Every way the bot could show the win fails (the answer, a later edit of it, the channel
            # API); its try through the channel API comes after the commit, so the win is stored.
            emu.drop_next("POST", CALLBACK, times=2)
            emu.drop_next("PATCH", WEBHOOK_EDIT, times=5)
            shown = emu.fail_next("PATCH", CHANNEL_EDIT, status=503, times=100)
            await table.click(message, cells(message)[2].custom_id or "", "alice")
            await emu.wait_for(lambda: shown.hits, ANSWER_TIMEOUT, "the bot trying to show the win")
            await kill9(bot)
            emu.clear_faults()
            assert board(message) == "XX.OO....", "the win is not shown yet"
            await bot.start()
            await bot.wait_ready(timeout=60)

            version = message.version
            refused = await table.click(message, cells(message)[5].custom_id or "", "bob")
            text = (await refused.wait_response(timeout=ANSWER_TIMEOUT)).text
            assert refused.ephemeral and "over" in text
            await emu.wait_for_edit(message, since=version, timeout=ANSWER_TIMEOUT)
            assert board(message) == "XXXOO...." and all(button.disabled for button in cells(message))
            assert f"<@{table['alice'].id}> wins" in message.text
        finally:
            if bot.running:
                assert await bot.terminate(timeout=30) == 0
        assert not tracebacks(bot, killed=True), "\n".join(bot.output[-100:])
