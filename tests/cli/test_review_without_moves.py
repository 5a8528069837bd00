"""``python -m bot review`` and ``replay`` of a game that has no moves: one line, and exit 1."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.db import Database
from bot.db.migrate import upgrade_to_head
from bot.services import Actor, GameService, Place
from tests.cli.conftest import RunCli

HERE = Place(1_000_000_000_000_001, 2_000_000_000_000_001)
ALICE = Actor(3_000_000_000_000_001, "Alice")


def resigned_before_a_move(url: str) -> int:
    async def play() -> int:
        await upgrade_to_head(url)
        service = GameService(Database(url))
        try:
            game = await service.start_vs_bot(HERE, ALICE)
            await service.resign(HERE, ALICE)
            return game.id
        finally:
            await service.close()

    return asyncio.run(play())


def test_a_game_without_moves_has_nothing_to_review_or_replay(run_cli: RunCli, tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    game = resigned_before_a_move(url)
    for args, nothing in (
        (("review", str(game)), "review"),
        (("review", str(game), "--json"), "review"),
        (("replay", str(game), "--out", "x.gif"), "replay"),
    ):
        done = run_cli(*args, env={"DATABASE_URL": url})
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr == f"Game {game} has no moves, so there is nothing to {nothing}.\n"
    assert not (tmp_path / "x.gif").exists()
