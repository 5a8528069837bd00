"""A committed move survives a killed process; an unreachable database gives a "try again"."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
import textwrap
from asyncio.subprocess import PIPE
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import bot.db.database as database_module
from bot.db import Database
from bot.db.migrate import upgrade_to_head
from bot.services import GameService, ServiceSettings, refusals
from tests.services.helpers import ALICE, BOB, HERE, ManualClock, make_service

ROOT = Path(__file__).resolve().parents[2]
KILLED_AFTER_MOVES = textwrap.dedent(
    """
    import asyncio, os, signal, sys
    from bot.db import Database
    from bot.services import Actor, GameService, Place, ServiceSettings

    async def main(url: str) -> None:
        service = GameService(Database(url), ServiceSettings(start_cooldown_seconds=0))
        here, alice, bob = Place(1, 2), Actor(3, "Alice"), Actor(4, "Bob")
        game = await service.challenge(here, alice, bob)
        await service.accept(here, bob)
        await service.move(here, alice, "b2")
        await service.move(here, bob, "a1")
        print(game.id, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # no close, no checkpoint, no clean exit

    asyncio.run(main(sys.argv[1]))
    """
)


async def test_committed_moves_survive_a_killed_process(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'killed.sqlite3'}"
    await upgrade_to_head(url)
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", KILLED_AFTER_MOVES, url, stdout=PIPE, stderr=PIPE, env=environment
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode == -signal.SIGKILL, stderr.decode()
    game_id = int(stdout.decode().strip())
    with ThreadPoolExecutor(1) as executor:
        service = make_service(url, ServiceSettings(), ManualClock(), executor)
        try:
            history = await service.history(game_id)
            assert [move.name for move in history.moves] == ["b2", "a1"]
            assert history.game.ply == 2 and history.game.is_active
        finally:
            await service.close()


async def test_an_unreachable_database_asks_to_try_again() -> None:
    service = GameService(
        Database("postgresql+asyncpg://postgres@127.0.0.1:9/nowhere"), ServiceSettings(), clock=ManualClock()
    )
    try:
        for attempt in (
            service.start_vs_bot(HERE, ALICE),
            service.board(HERE),
            service.challenge(HERE, ALICE, BOB),
        ):
            with pytest.raises(refusals.Unavailable) as refused:
                await attempt
            assert "try again" in str(refused.value)
    finally:
        await service.close()


async def test_a_locked_sqlite_database_asks_to_try_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "locked.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    await upgrade_to_head(url)
    monkeypatch.setattr(database_module, "SQLITE_BUSY_TIMEOUT_MS", 50)
    service = GameService(Database(url), ServiceSettings(), clock=ManualClock())
    other_writer = sqlite3.connect(path, isolation_level=None)
    try:
        other_writer.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        with pytest.raises(refusals.Unavailable):
            await service.start_vs_bot(HERE, ALICE)
        other_writer.execute("ROLLBACK")
        assert (await service.start_vs_bot(HERE, ALICE)).is_active  # recovers by itself
    finally:
        other_writer.close()
        await service.close()
