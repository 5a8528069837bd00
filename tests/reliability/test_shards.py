"""Two bot processes, ``SHARD_COUNT=2`` with ``SHARD_IDS=0`` and ``1``, on one PostgreSQL database.

Discord (the emulator) sends each guild's events to shard ``(guild_id >> 22) % 2`` only, so each
process serves its own guilds; the database is the only thing they share. Checked here: both shards
serve games, a game survives its shard's process being killed and restarted, a restarted process
resumes the bot's pending moves in its own guilds only, every timeout is acted on exactly once
although both processes sweep deadlines, and concurrent schema upgrades at start-up are safe.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy.engine import URL

from bot.db import Database
from bot.db.migrate import current_revision, head_revision
from bot.engine import Level
from bot.services import Actor, First, GameService, ServiceSettings
from bot.services import Place as ServicePlace
from discord_emulator import DiscordEmulator, Interaction, Member, Message
from tests.databases import create_database, drop_database, postgres_session_url
from tests.reliability.shard_fixtures import (
    Place,
    postgres_server,
    shared_database_bot,
    shared_postgres_url,
    start_process,
    starts,
    stop_quietly,
)
from tests.services.helpers import BrokenEngine
from tests.support.bot import ANSWER_TIMEOUT, BotUnderTest
from tests.support.store import problems_of, read_store
from tests.support.tables import answer, board, cells

__all__ = ["postgres_server", "postgres_session_url", "shared_postgres_url"]

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.asyncio(loop_scope="module")]

SHARDS = 2
SYNC_ROUTE = "/applications/{application_id}/commands"
TIMEOUT_GAMES = int(os.environ.get("TTT_SHARD_TIMEOUT_GAMES", "6"))
MIGRATION_RACES = int(os.environ.get("TTT_MIGRATION_RACES", "1"))
FAST_CLOCKS = {"TURN_TIMEOUT_SECONDS": "5", "SWEEP_INTERVAL_SECONDS": "0.5"}
"""From the resume test on: turns time out soon, and every process looks at deadlines twice a second."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def emu() -> AsyncIterator[DiscordEmulator]:
    async with DiscordEmulator() as emulator:
        yield emulator


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shards(
    emu: DiscordEmulator, shared_postgres_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[list[BotUnderTest]]:
    """One process per shard, started in order (shard 0 first)."""
    processes = [
        shared_database_bot(
            emu,
            Path(tmp_path_factory.mktemp(f"shard{shard}")),
            shared_postgres_url,
            SHARD_COUNT=str(SHARDS),
            SHARD_IDS=str(shard),
        )
        for shard in range(SHARDS)
    ]
    try:
        for process in processes:
            await start_process(process)
        yield processes
    finally:
        for process in processes:
            print(f"----- {process.process.log_path} -----\n{process.log_text()[-6000:]}")
            await stop_quietly(process)
        for process in processes:
            process.check_log()


async def click(emu: DiscordEmulator, message: Message, cell: int, who: Member) -> Interaction:
    it = await emu.click(message, cells(message)[cell].custom_id or "", who)
    await answer(it)
    return it


def ended_on_time(process: BotUnderTest) -> set[int]:
    """The games this process's sweeper ended, from its log."""
    return {int(game_id) for game_id in re.findall(r"Game (\d+) ended on time", process.log_text())}


async def test_each_shard_serves_its_guilds_and_a_game_survives_a_restart_of_its_process(
    emu: DiscordEmulator, shards: list[BotUnderTest], shared_postgres_url: str
) -> None:
    ready = sorted(session.shard for session in emu.sessions if session.ready and session.shard)
    assert ready == [(0, SHARDS), (1, SHARDS)], "each process identified as its own shard of two"
    places = [Place.create(emu, shard=(shard, SHARDS)) for shard in range(SHARDS)]

    vs_bot: list[Message] = []
    for shard, place in enumerate(places):
        start = await emu.slash(place.channel, place.alice, "ttt start", level="easy")
        vs_bot.append(await answer(start))
        first = await click(emu, vs_bot[-1], 4, place.alice)
        assert (start.shard_id, first.shard_id) == (shard, shard)
        assert start.dispatched_to == first.dispatched_to == 1, "only the guild's shard sees its events"
        assert sorted(board(vs_bot[-1]).replace(".", "")) == ["O", "X"], "the bot answered on its shard"

    place = places[1]
    duel_channel = emu.create_channel(place.guild, "duel")
    duel = await answer(await emu.slash(duel_channel, place.alice, "ttt start", opponent=place.bob))
    await answer(await emu.click(duel, duel.button(label="Accept").custom_id or "", place.bob))
    await click(emu, duel, 0, place.alice)
    await click(emu, duel, 3, place.bob)

    assert await shards[1].stop(signal.SIGKILL) == -signal.SIGKILL
    still = await click(
        emu, vs_bot[0], next(i for i, b in enumerate(cells(vs_bot[0])) if not b.disabled), places[0].alice
    )
    assert still.shard_id == 0, "shard 0 keeps playing while shard 1 is down"

    await start_process(shards[1])
    for cell, who in ((1, place.alice), (4, place.bob), (2, place.alice)):
        it = await click(emu, duel, cell, who)
        assert it.shard_id == 1
    assert f"<@{place.alice.id}> wins" in duel.text, "the old board message plays on after the restart"
    free = next(i for i, b in enumerate(cells(vs_bot[1])) if not b.disabled)
    await click(emu, vs_bot[1], free, place.alice)
    assert len(board(vs_bot[1]).replace(".", "")) == 4, "the game against the bot goes on after the restart"

    for channel in (*(each.channel for each in places), duel_channel):
        store = await read_store(shared_postgres_url)
        assert problems_of(store, store.games_in(channel.id), settled=False) == []
    started = sum(starts(process) for process in shards)
    assert len(emu.calls("PUT", SYNC_ROUTE)) == started, "every process start syncs the commands once"


async def test_a_restarted_process_resumes_the_bots_pending_moves_in_its_own_guilds_only(
    emu: DiscordEmulator, shards: list[BotUnderTest], shared_postgres_url: str
) -> None:
    for process in shards:
        await stop_quietly(process)
    places = [Place.create(emu, shard=(shard, SHARDS)) for shard in range(SHARDS)]
    service = GameService(
        Database(shared_postgres_url), ServiceSettings(start_cooldown_seconds=0), engine=BrokenEngine()
    )
    try:
        pending = [
            await service.start_vs_bot(
                ServicePlace(place.guild.id, place.channel.id),
                Actor(place.alice.id, place.alice.user.username),
                level=Level.EASY,
                first=First.OPPONENT,
            )
            for place in places
        ]
    finally:
        await service.close()
    assert [game.bot_to_move for game in pending] == [True, True]

    await start_process(shards[1], **FAST_CLOCKS)
    posted = await emu.wait_for_message(
        places[1].channel, lambda m: bool(m.components), timeout=ANSWER_TIMEOUT
    )
    assert board(posted).count("X") == 1, "shard 1 made the bot's pending move in its guild and showed it"
    assert (await read_store(shared_postgres_url)).games[pending[1].id].ply == 1
    untouched = (await read_store(shared_postgres_url)).games[pending[0].id]
    assert untouched.ply == 0, "shard 1 left shard 0's game to shard 0"
    assert emu.messages(places[0].channel) == []

    await start_process(shards[0], **FAST_CLOCKS)
    posted = await emu.wait_for_message(
        places[0].channel, lambda m: bool(m.components), timeout=ANSWER_TIMEOUT
    )
    assert board(posted).count("X") == 1
    free = next(i for i, b in enumerate(cells(posted)) if not b.disabled)
    await click(emu, posted, free, places[0].alice)
    assert board(posted).count("O") == 1 and board(posted).count("X") == 2
    for game in pending:
        assert problems_of(await read_store(shared_postgres_url), [game.id], settled=False) == []


async def test_every_timeout_is_acted_on_once_although_both_processes_sweep(
    emu: DiscordEmulator, shards: list[BotUnderTest], shared_postgres_url: str
) -> None:
    """Runs after the test above, whose processes have the short clocks."""
    assert all(process.process.env.get("TURN_TIMEOUT_SECONDS") for process in shards)

    games: list[Message] = []
    game_ids: set[int] = set()
    for number in range(TIMEOUT_GAMES):
        place = Place.create(emu, shard=(number % SHARDS, SHARDS))
        games.append(await answer(await emu.slash(place.channel, place.alice, "ttt start", level="easy")))
        game_ids.update((await read_store(shared_postgres_url)).games_in(place.channel.id))
    for message in games:
        await emu.wait_for(lambda m=message: "ran out of time" in m.text, 30, "the turn clock to run out")

    for process in shards:
        assert await process.stop() == 0, "SIGTERM lets the sweepers finish their round"
    for message in games:
        path = f"/channels/{message.channel.id}/messages/{message.id}"
        timeout_edits = [
            call
            for call in emu.calls("PATCH", "/channels/{channel_id}/messages/{message_id}")
            if call.path == path and "ran out of time" in str(call.json)
        ]
        assert len(timeout_edits) == 1, f"{len(timeout_edits)} timeout edits of one board"
    ended = [sorted(ended_on_time(process) & game_ids) for process in shards]
    assert sorted(ended[0] + ended[1]) == sorted(game_ids), f"games ended on time per process: {ended}"
    print(f"timeouts ended per process (shard 0, shard 1): {[len(each) for each in ended]}")


async def test_processes_starting_together_upgrade_the_schema_once(postgres_server: URL) -> None:
    """Two ``python -m bot migrate`` at once on an empty database (as two units with AUTO_MIGRATE)."""
    for _ in range(MIGRATION_RACES):
        url = await create_database(postgres_server)
        plain = url.render_as_string(hide_password=False)
        env = {**os.environ, "DATABASE_URL": plain}
        try:
            runs = [
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "bot",
                    "migrate",
                    env=env,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.STDOUT,
                )
                for _ in range(2)
            ]
            outputs = await asyncio.gather(*(run.communicate() for run in runs))
            codes = [run.returncode for run in runs]
            assert codes == [0, 0], [out.decode()[-1000:] for out, _ in outputs]
            assert await current_revision(plain) == head_revision()
        finally:
            await drop_database(postgres_server, url)
