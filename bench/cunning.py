"""A model player against the engine: ``python -m bench.cunning [--games N] [--sizes 3 4 5] [--levels]``.

The model player plays as many people do: it takes a win in one, blocks a line the
engine is about to complete, and otherwise plays the centre when it is free, else a
random cell. It plays ``--games`` games per board size against ``perfect`` (half of them
opening, half second) twice in the same run:

- baseline: ``perfect`` as it chose before, at random among its best moves;
- cunning: ``perfect`` as it plays now (:mod:`bot.engine.cunning`).

It reports how often ``perfect`` wins, the ratio cunning / baseline, and that it never
loses. With ``--levels`` it also plays the model against every level and prints the
model's results, the table in the README that tells players which level to pick.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from bot.engine import Board, Level, Mark, choose_move
from bot.engine.cunning import SEES_FORKS, model_replies
from bot.engine.levels import DEFAULT_BUDGET_MS
from bot.engine.oracle import score_moves, table_scores


def model_move(board: Board, rng: random.Random) -> int:
    """The model player's move: a win, else a block of a single threat, else the centre, else at random.

    On the boards of :data:`~bot.engine.cunning.SEES_FORKS` it also makes and blocks double threats
    (:func:`~bot.engine.cunning.model_replies`) before it falls back on the centre.
    """
    if board.size in SEES_FORKS:
        replies = model_replies(board)
        if replies != board.legal_moves:
            return rng.choice(replies)
    me, them = (board.x, board.o) if board.turn is Mark.X else (board.o, board.x)
    near = board.k - 1
    for mover, other in ((me, them), (them, me)):
        cells = sorted(
            (line ^ (mover & line)).bit_length() - 1
            for line in board.geometry.lines
            if not other & line and (mover & line).bit_count() == near
        )
        if cells:
            return rng.choice(cells)
    centre = board.cells // 2
    if board.size % 2 and board[centre] is None:
        return centre
    return rng.choice(board.legal_moves)


def plain_perfect(board: Board, rng: random.Random, budget_ms: int) -> int:
    """``perfect`` without cunning: a random one of the best moves."""
    known = table_scores(board)
    best = known.best if known is not None else score_moves(board, budget_ms, all_values=False).best
    return rng.choice(best)


def play(size: int, engine_first: bool, engine: object, seed: int) -> str:
    """One game; the result for the engine: ``win``, ``draw`` or ``loss``."""
    rng = random.Random(seed)
    board = Board.empty(size)
    engine_mark = Mark.X if engine_first else Mark.O
    while not board.is_over:
        mine = board.turn is engine_mark
        cell = engine(board, rng) if mine else model_move(board, rng)  # type: ignore[operator]
        board = board.play(cell)
    winner = board.winner
    if winner is None:
        return "draw"
    return "win" if winner is engine_mark else "loss"


def match(size: int, games: int, engine: object, seed: int) -> Counter[str]:
    """``games`` games, the engine opening every other one."""
    return Counter(play(size, i % 2 == 0, engine, seed * 100_003 + i) for i in range(games))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cunning", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[400, 200, 60], help="games per size")
    parser.add_argument("--sizes", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--budget-ms", type=int, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--levels", action="store_true")
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args(argv)
    counts = dict(zip(args.sizes, args.games + [args.games[-1]] * len(args.sizes), strict=False))
    budget = args.budget_ms
    print(f"The model player against perfect (budget {budget} ms; seed {args.seed})")
    print()
    print("| board | games | baseline: wins / draws / losses | cunning: wins / draws / losses | ratio |")
    print("|---|---|---|---|---|")
    failed = False
    for size in args.sizes:
        games = counts[size]
        started = time.perf_counter()
        base = match(size, games, lambda b, r: plain_perfect(b, r, budget), args.seed)
        cunning = match(
            size, games, lambda b, r: choose_move(b, Level.PERFECT, r.randrange(1 << 30), budget), args.seed
        )
        ratio = cunning["win"] / base["win"] if base["win"] else float("inf")
        failed |= bool(base["loss"] or cunning["loss"])
        print(
            f"| {size}x{size} | {games} | {base['win']} / {base['draw']} / {base['loss']} "
            f"| {cunning['win']} / {cunning['draw']} / {cunning['loss']} | {ratio:.2f}x |"
        )
        print(f"<!-- {size}x{size}: {time.perf_counter() - started:.0f} s -->", file=sys.stderr)
    if args.levels:
        print()
        print("The model player's results against each level (its wins / draws / losses)")
        print()
        print("| board | " + " | ".join(level.value for level in Level) + " |")
        print("|---|" + "---|" * len(Level))
        for size in args.sizes:
            cells = []
            for level in Level:
                result = match(
                    size,
                    counts[size],
                    lambda b, r, lv=level: choose_move(b, lv, r.randrange(1 << 30), budget),  # type: ignore[misc]
                    args.seed + 1,
                )
                games = sum(result.values())
                cells.append(
                    f"{100 * result['loss'] / games:.0f}% / {100 * result['draw'] / games:.0f}% / "
                    f"{100 * result['win'] / games:.0f}%"
                )
            print(f"| {size}x{size} | " + " | ".join(cells) + " |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
