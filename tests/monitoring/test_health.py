"""The health and metrics endpoint, end to end: the real bot process against the emulator.

``/healthz`` is 200 once every shard is connected and the database answers, and 503 naming what
fails while the bot starts, while its gateway stays down past the grace period, and while its
database is down (PostgreSQL behind a proxy the test cuts); ``/metrics`` counts what was played.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy.engine import URL

from bot.monitoring.shards import RECONNECT_GRACE_SECONDS
from discord_emulator import DiscordEmulator
from tests.databases import create_database, drop_database
from tests.monitoring.health import endpoint_of, health, metrics, sample, until_health
from tests.reliability.tcp_proxy import TcpProxy
from tests.support.bot import START_TIMEOUT, BotUnderTest, bot_process, tracebacks
from tests.support.tables import Table, answer, click_cell, free_cells, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

HEARTBEAT_MS = 200
"""Heartbeats this often, so the gateway latency is known soon after the bot connects."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def emu() -> AsyncIterator[DiscordEmulator]:
    async with DiscordEmulator(heartbeat_interval_ms=HEARTBEAT_MS) as emulator:
        yield emulator


@pytest.fixture(scope="module")
def bot_settings() -> dict[str, str]:
    return {"HEALTH_PORT": "0", "ENGINE_BUDGET_MS": "200"}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def base(bot: BotUnderTest) -> str:
    return await endpoint_of(bot.process)


@pytest_asyncio.fixture(loop_scope="module")
async def own_emu() -> AsyncIterator[DiscordEmulator]:
    """An emulator for one test, whose gateway can go down without touching the module's bot."""
    async with DiscordEmulator(heartbeat_interval_ms=HEARTBEAT_MS) as emulator:
        yield emulator


async def test_health_is_ok_with_each_part_shown(bot: BotUnderTest, base: str) -> None:
    status, body = await until_health(base, lambda _, body: body["shards"]["0"]["latency_ms"] is not None)
    assert status == 200 and body["status"] == "ok" and body["problems"] == []
    assert body["shards"]["0"]["state"] == "connected" and body["shards"]["0"]["latency_ms"] >= 0
    assert body["database"] == {"reachable": True}
    assert body["engine_pool"]["alive"] is True and body["engine_pool"]["workers"] == 1
    assert body["version"] == "0.1.0"


async def test_metrics_count_what_was_played(emu: DiscordEmulator, bot: BotUnderTest, base: str) -> None:
    table = Table.create(emu, "alice")
    message = await answer(await table.slash("alice", "ttt start", level="perfect"))
    during = await metrics(base)
    assert sample(during, "ttt_live_games") == 1
    moves = 0
    while free_cells(message):
        await click_cell(table, message, free_cells(message)[0], "alice")
        moves += 1
    said = await private_answer(await table.slash("alice", "ttt resign"))
    assert "no game" in said.lower()

    bigger = await answer(await table.slash("alice", "ttt start", size=5, level="easy"))
    await click_cell(table, bigger, 12, "alice")  # the bot's reply on 5x5 is a search in the pool
    await answer(await table.slash("alice", "ttt resign"))

    found = await metrics(base)
    assert sample(found, "ttt_interactions_total", kind="/ttt start", outcome="answered") == 2
    assert sample(found, "ttt_interactions_total", kind="button:cell", outcome="answered") == moves + 1
    assert sample(found, "ttt_interactions_total", kind="/ttt resign", outcome="refused") == 1
    assert sample(found, "ttt_interactions_total", kind="/ttt resign", outcome="answered") == 1
    assert sample(found, "ttt_interaction_seconds_count", kind="button:cell") == moves + 1
    assert 0 < sample(found, "ttt_interaction_seconds_sum", kind="button:cell") < 15 * (moves + 1)
    assert sample(found, "ttt_games_started_total", size="3", opponent="bot") == 1
    assert sample(found, "ttt_games_finished_total", size="3", opponent="bot") == 1
    assert sample(found, "ttt_games_started_total", size="5", opponent="bot") == 1
    assert sample(found, "ttt_games_finished_total", size="5", opponent="bot") == 1
    assert sample(found, "ttt_live_games") == 0
    assert sample(found, "ttt_engine_searches_total", kind="move") >= 1
    assert sample(found, "ttt_engine_search_seconds_count", kind="move") >= 1
    assert sample(found, "ttt_engine_pool_jobs") == 0
    assert sample(found, "ttt_write_batches_total") >= moves + 3
    assert sample(found, "ttt_commit_seconds_count") == sample(found, "ttt_write_batches_total")
    assert sample(found, "ttt_gateway_latency_seconds", shard="0") >= 0
    assert ("ttt_event_loop_lag_seconds", ()) in found
    assert ("process_resident_memory_bytes", ()) in found


async def test_health_waits_for_the_gateway_at_start_and_after_a_lasting_outage(
    own_emu: DiscordEmulator, tmp_path: Path
) -> None:
    emu = own_emu
    emu.gateway_outage()
    process = bot_process(emu, tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'ttt.sqlite3'}", HEALTH_PORT="0")
    async with process:
        base = await endpoint_of(process)
        await emu.wait_for(lambda: emu.gateway.held == 1, START_TIMEOUT, "the bot's first connection, held")
        status, body = await until_health(
            base, lambda status, body: body["database"]["reachable"] is True, guard=START_TIMEOUT
        )
        assert status == 503 and body["status"] == "failing: shard 0 connecting"
        assert body["shards"]["0"] == {"state": "connecting", "latency_ms": None}
        emu.gateway_restore()
        await process.wait_ready(timeout=START_TIMEOUT)
        status, body = await until_health(base, lambda status, body: status == 200)
        assert body["status"] == "ok"

        emu.gateway_outage()
        status, body = await until_health(base, lambda status, body: status == 503)
        assert body["shards"]["0"]["state"] in ("reconnecting", "disconnected")
        status, body = await until_health(
            base,
            lambda status, body: body["shards"]["0"]["state"] != "reconnecting",
            guard=RECONNECT_GRACE_SECONDS + 20,
        )
        assert status == 503 and body["status"] == "failing: shard 0 disconnected"
        await emu.wait_for(lambda: emu.gateway.held == 2, START_TIMEOUT, "the bot's reconnection, held")
        emu.gateway_restore()
        status, body = await until_health(base, lambda status, body: status == 200, guard=60)
        assert body["shards"]["0"]["state"] == "connected"
        assert await process.terminate(timeout=30) == 0
    assert not tracebacks(process), process.text[-6000:]


@pytest.mark.postgres
async def test_a_database_outage_turns_health_to_503_and_back(
    own_emu: DiscordEmulator, tmp_path: Path, postgres_server: URL
) -> None:
    emu = own_emu
    database = await create_database(postgres_server)
    try:
        async with TcpProxy(database.host or "127.0.0.1", database.port or 5432) as proxy:
            url = database.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
            process = bot_process(emu, tmp_path, url, HEALTH_PORT="0")
            async with process:
                await process.wait_ready(timeout=START_TIMEOUT)
                base = await endpoint_of(process)
                status, body = await until_health(base, lambda status, body: status == 200)
                assert body["database"] == {"reachable": True}

                proxy.cut()
                status, body = await health(base)
                assert status == 503 and body["status"] == "failing: database unreachable"
                assert body["database"] == {"reachable": False}
                assert body["shards"]["0"]["state"] == "connected"
                assert sample(await metrics(base), "ttt_live_games") == 0, "metrics answer without a database"

                proxy.restore()
                status, body = await health(base)
                assert status == 200 and body["status"] == "ok"
                assert await process.terminate(timeout=30) == 0
            assert not [line for line in process.output if "Unexpected error" in line]
    finally:
        await drop_database(postgres_server, database)
