"""The level round-robin: every level plays every other (and itself) as X and as O.

``python -m bench.roundrobin [--size 3] [--games 200] [--budget-ms 100]``

Each ordered pairing plays ``--games`` games (so every unordered pair meets twice
that, half with each side opening). A game is deterministic given its seeds; the
games are spread over the machine's cores. A win scores 1, a draw 1/2.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bot.engine import Board, Level, Mark, choose_move

LEVELS: tuple[Level, ...] = (Level.PERFECT, Level.HARD, Level.MEDIUM, Level.EASY)


def play_game(size: int, x_level: Level, o_level: Level, game_seed: int, budget_ms: int) -> Mark | None:
    """Play one game; the winner's mark, or None for a draw."""
    board = Board.empty(size)
    while not board.is_over:
        level = x_level if board.turn is Mark.X else o_level
        board = board.play(choose_move(board, level, seed=game_seed * 1_000 + board.ply, budget_ms=budget_ms))
    return board.winner


def _play_batch(args: tuple[int, Level, Level, Sequence[int], int]) -> tuple[Level, Level, list[Mark | None]]:
    size, x_level, o_level, seeds, budget_ms = args
    return x_level, o_level, [play_game(size, x_level, o_level, seed, budget_ms) for seed in seeds]


@dataclass
class Table:
    """Results of a round-robin: ``points[(a, b)]`` is what ``a`` scored against ``b`` (both colours)."""

    size: int
    games_per_pairing: int
    points: dict[tuple[Level, Level], float] = field(default_factory=dict)
    games: dict[tuple[Level, Level], int] = field(default_factory=dict)
    wins: dict[tuple[Level, Level], int] = field(default_factory=dict)
    losses: dict[tuple[Level, Level], int] = field(default_factory=dict)
    seconds: float = 0.0

    def record(self, x_level: Level, o_level: Level, winner: Mark | None) -> None:
        for me, them, mark in ((x_level, o_level, Mark.X), (o_level, x_level, Mark.O)):
            key = (me, them)
            self.games[key] = self.games.get(key, 0) + 1
            if winner is None:
                self.points[key] = self.points.get(key, 0.0) + 0.5
            elif winner is mark:
                self.points[key] = self.points.get(key, 0.0) + 1.0
                self.wins[key] = self.wins.get(key, 0) + 1
            else:
                self.losses[key] = self.losses.get(key, 0) + 1

    def share(self, me: Level, them: Level) -> float:
        """The share of points ``me`` took from its games against ``them``."""
        return self.points.get((me, them), 0.0) / max(1, self.games.get((me, them), 0))

    def total(self, me: Level) -> float:
        """The share of points ``me`` took over all its games against the other levels."""
        points = sum(self.points.get((me, them), 0.0) for them in LEVELS if them is not me)
        games = sum(self.games.get((me, them), 0) for them in LEVELS if them is not me)
        return points / max(1, games)

    def losses_of(self, me: Level) -> int:
        """Games ``me`` lost to the other levels (not counting games against itself)."""
        return sum(self.losses.get((me, them), 0) for them in LEVELS if them is not me)

    def order_holds(self) -> bool:
        """True when each level beats the next weaker one head to head and ranks above it overall."""
        return all(
            self.share(strong, weak) > 0.5 and self.total(strong) > self.total(weak)
            for strong, weak in itertools.pairwise(LEVELS)
        )

    def markdown(self) -> str:
        head = (
            "| row vs column | "
            + " | ".join(level.value for level in LEVELS)
            + " | overall | lost to others |"
        )
        rule = "|---" * (len(LEVELS) + 3) + "|"
        rows = [head, rule]
        for me in LEVELS:
            cells = [f"{self.share(me, them):.0%}" for them in LEVELS]
            rows.append(
                f"| **{me.value}** | "
                + " | ".join(cells)
                + f" | {self.total(me):.0%} | {self.losses_of(me)} |"
            )
        return "\n".join(rows)


def run(size: int, games: int, budget_ms: int, workers: int | None = None) -> Table:
    """Play the round-robin on ``size``; ``games`` per ordered pairing of levels."""
    table = Table(size, games)
    started = time.perf_counter()
    jobs = []
    chunk = max(1, games // 4)
    for pair_index, (x_level, o_level) in enumerate(itertools.product(LEVELS, repeat=2)):
        seeds = [pair_index * 100_000 + g for g in range(games)]
        for start in range(0, games, chunk):
            jobs.append((size, x_level, o_level, seeds[start : start + chunk], budget_ms))
    with ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        for x_level, o_level, winners in pool.map(_play_batch, jobs):
            for winner in winners:
                table.record(x_level, o_level, winner)
    table.seconds = time.perf_counter() - started
    return table


def _play_match_game(args: tuple[int, Level, Level, int, int]) -> tuple[bool, Mark | None]:
    size, engine, opponent, seed, budget_ms = args
    engine_is_x = seed % 2 == 0
    x_level, o_level = (engine, opponent) if engine_is_x else (opponent, engine)
    return engine_is_x, play_game(size, x_level, o_level, seed, budget_ms)


def match(size: int, engine: Level, opponent: Level, games: int, budget_ms: int) -> tuple[int, int, int]:
    """``engine`` against ``opponent``, alternating who opens: ``(wins, draws, losses)`` of ``engine``."""
    wins = draws = losses = 0
    jobs = [(size, engine, opponent, seed, budget_ms) for seed in range(games)]
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for engine_is_x, winner in pool.map(_play_match_game, jobs):
            if winner is None:
                draws += 1
            elif (winner is Mark.X) == engine_is_x:
                wins += 1
            else:
                losses += 1
    return wins, draws, losses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.roundrobin")
    parser.add_argument("--size", type=int, default=3, choices=(3, 4, 5))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--budget-ms", type=int, default=100)
    args = parser.parse_args(argv)
    table = run(args.size, args.games, args.budget_ms)
    print(f"{args.size}x{args.size}, {args.games} games per ordered pairing, {table.seconds:.0f} s")
    print(table.markdown())
    print("order perfect > hard > medium > easy holds:", table.order_holds())
    return 0


if __name__ == "__main__":
    sys.exit(main())
