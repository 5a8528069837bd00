"""Shared pieces of the service tests: a clock moved by hand, players, engines that misbehave on purpose."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import Executor
from datetime import UTC, datetime, timedelta

from bot.db import Database
from bot.engine import Board, Level
from bot.services import Actor, EnginePool, First, GameService, GameView, Place, ServiceSettings

GUILD = 1_000_000_000_000_001
OTHER_GUILD = 1_000_000_000_000_002
HERE = Place(GUILD, 2_000_000_000_000_001)
THERE = Place(GUILD, 2_000_000_000_000_002)
ELSEWHERE = Place(OTHER_GUILD, 2_000_000_000_000_003)
ALICE = Actor(3_000_000_000_000_001, "Alice")
BOB = Actor(3_000_000_000_000_002, "Bob")
CAROL = Actor(3_000_000_000_000_003, "Carol")
DAVE = Actor(3_000_000_000_000_004, "Dave")


class ManualClock:
    """A clock that stands still until a test moves it."""

    def __init__(self, start: datetime = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def make_service(url: str, settings: ServiceSettings, clock: ManualClock, executor: Executor) -> GameService:
    engine = EnginePool(settings.engine_workers, settings.engine_budget_ms, executor=executor)
    return GameService(Database(url), settings, engine=engine, clock=clock, rng=random.Random(7))


class LowestCellEngine(EnginePool):
    """A bot that always plays its lowest empty cell, so a test can beat it on purpose."""

    def move_at_once(self, board: Board, level: Level, seed: int) -> int | None:
        return board.legal_moves[0]

    async def choose_move(self, board: Board, level: Level, seed: int) -> int:
        return board.legal_moves[0]


class BrokenEngine(EnginePool):
    """A bot whose engine fails, as a crashed worker would (and answers nothing inline)."""

    def move_at_once(self, board: Board, level: Level, seed: int) -> int | None:
        return None

    async def choose_move(self, board: Board, level: Level, seed: int) -> int:
        raise RuntimeError("engine down")


class FailingEngine(EnginePool):
    """A bot whose searches fail the first ``failures`` times (and answers nothing inline), then
    play the lowest empty cell."""

    def __init__(self, failures: int, executor: Executor) -> None:
        super().__init__(executor=executor)
        self.failures_left = failures

    def move_at_once(self, board: Board, level: Level, seed: int) -> int | None:
        return None

    async def choose_move(self, board: Board, level: Level, seed: int) -> int:
        if self.failures_left > 0:
            self.failures_left -= 1
            raise RuntimeError("engine down")
        return board.legal_moves[0]


class HeldEngine(EnginePool):
    """A bot whose searches wait until the test lets them go on (and answers nothing inline)."""

    def __init__(self, executor: Executor) -> None:
        super().__init__(executor=executor)
        self.searching = asyncio.Event()
        self.go_on = asyncio.Event()

    def move_at_once(self, board: Board, level: Level, seed: int) -> int | None:
        return None

    async def choose_move(self, board: Board, level: Level, seed: int) -> int:
        self.searching.set()
        await self.go_on.wait()
        return board.legal_moves[0]


async def play_game(
    service: GameService, x: Actor, o: Actor, cells: list[str], place: Place = HERE
) -> GameView:
    """Challenge, accept and play ``cells`` in order (X first); returns the last view."""
    game = await service.challenge(place, x, o, first=First.ME)
    game = await service.accept(place, o, game.id)
    for ply, cell in enumerate(cells):
        game = await service.move(place, x if ply % 2 == 0 else o, cell)
    return game


X_WINS = ["a1", "b1", "a2", "b2", "a3"]
O_WINS = ["c3", "a1", "b3", "a2", "c1", "a3"]
DRAW = ["b2", "a1", "c1", "a3", "a2", "c2", "b3", "b1", "c3"]
