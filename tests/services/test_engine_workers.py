"""An engine worker starts light: it imports the engine, not the service, the database layer or discord.py.

Every bot start (and every restart after a crash) spawns the workers; each one that
imported the game service would load SQLAlchemy for nothing, costing it about half a
second of CPU on every start.
"""

from __future__ import annotations

from bot.engine import Board, Level
from bot.services import EnginePool
from tests.services import worker_probe


async def test_a_worker_imports_the_engine_only() -> None:
    pool = EnginePool(1, budget_ms=500)
    try:
        await pool.warm_up()
        assert await pool.choose_move(Board.parse("XX.OO...."), Level.PERFECT, seed=1) == 2
        loaded = await pool._run(worker_probe.heavy_modules)
    finally:
        pool.close()
    assert loaded == []
