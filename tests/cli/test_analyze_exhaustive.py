"""``analyze -`` against a plain minimax written here, on every reachable non-terminal 3x3 position."""

from __future__ import annotations

import json
from functools import cache

from tests.cli.conftest import RunCli

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
NAMES = {1: "win", 0: "draw", -1: "loss"}


def has_line(cells: str, mark: str) -> bool:
    return any(all(cells[i] == mark for i in line) for line in LINES)


def to_move(cells: str) -> str:
    return "X" if cells.count("X") == cells.count("O") else "O"


def is_over(cells: str) -> bool:
    return has_line(cells, "X") or has_line(cells, "O") or "." not in cells


def move_result(cells: str, cell: int) -> tuple[int, int]:
    """(result for the mover: 1/0/-1, plies to the end including this move)."""
    mark = to_move(cells)
    child = cells[:cell] + mark + cells[cell + 1 :]
    if has_line(child, mark):
        return 1, 1
    if "." not in child:
        return 0, 1
    result, plies = solve(child)
    return -result, plies + 1


def preference(result: tuple[int, int]) -> tuple[int, int]:
    """Win fastest, lose slowest."""
    value, plies = result
    return value, -plies if value == 1 else plies


@cache
def solve(cells: str) -> tuple[int, int]:
    return max((move_result(cells, c) for c in range(9) if cells[c] == "."), key=preference)


def reachable() -> list[str]:
    seen = {"........."}
    frontier = ["........."]
    while frontier:
        cells = frontier.pop()
        if is_over(cells):
            continue
        for c in range(9):
            if cells[c] == ".":
                child = cells[:c] + to_move(cells) + cells[c + 1 :]
                if child not in seen:
                    seen.add(child)
                    frontier.append(child)
    return sorted(seen)


def expected(cells: str) -> dict[str, object]:
    moves = {c: move_result(cells, c) for c in range(9) if cells[c] == "."}
    top = max(preference(r) for r in moves.values())
    value, plies = solve(cells)
    return {
        "board": cells,
        "size": 3,
        "k": 3,
        "to_move": to_move(cells),
        "status": "ongoing",
        "value": NAMES[value],
        "plies": plies,
        "exact": True,
        "best": [c for c, r in moves.items() if preference(r) == top],
        "moves": [{"cell": c, "value": NAMES[v], "plies": p} for c, (v, p) in moves.items()],
    }


def test_analyze_agrees_with_brute_force_on_every_position(run_cli: RunCli) -> None:
    positions = reachable()
    ongoing = [cells for cells in positions if not is_over(cells)]
    assert (len(positions), len(ongoing)) == (5478, 4520)
    done = run_cli("analyze", "-", input="".join(cells + "\n" for cells in ongoing))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(ongoing)
    for cells, line in zip(ongoing, lines, strict=True):
        assert json.loads(line) == expected(cells), cells
