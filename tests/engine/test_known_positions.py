"""Positions every tic-tac-toe engine must get right: wins in one, forced blocks, planning ahead,
and a doomed side that still blocks."""

from __future__ import annotations

import pytest

from bot.engine import Board, Level, Mark, Outcome, analyze, choose_move


def test_win_in_one_is_cell_6() -> None:
    board = Board.parse("XOX/X.O/..O")
    assert board.turn is Mark.X
    analysis = analyze(board)
    assert analysis.best == (6,)
    assert analysis.value is Outcome.WIN
    assert analysis.plies == 1
    assert all(choose_move(board, seed=seed) == 6 for seed in range(20))


def test_must_block_at_cell_2() -> None:
    board = Board.parse("X../..O/.XO")
    analysis = analyze(board)
    assert analysis.best == (2,)
    assert all(choose_move(board, seed=seed) == 2 for seed in range(20))
    # Every other move lets O complete the right-hand column at once.
    for move in analysis.moves:
        if move.cell != 2:
            assert (move.value, move.plies) == (Outcome.LOSS, 2)


def test_planning_ahead_finds_cell_1_among_the_best() -> None:
    board = Board.parse("X../..O/OX.")
    analysis = analyze(board)
    assert analysis.value is Outcome.WIN
    assert 1 in analysis.best
    assert analysis.verdict(1) is not None
    assert analysis.verdict(1) == analysis.verdict(analysis.best[0])


def test_doomed_side_still_blocks() -> None:
    """O cannot be saved, but losing slowest means blocking X's column at cell 2 (index 2)."""
    board = Board.parse(".X./..X/OOX")
    assert board.turn is Mark.O
    analysis = analyze(board)
    assert analysis.value is Outcome.LOSS
    assert analysis.best == (2,)
    assert analysis.plies == 4
    for move in analysis.moves:
        expected = (Outcome.LOSS, 4) if move.cell == 2 else (Outcome.LOSS, 2)
        assert (move.value, move.plies) == expected
    for level_seed in range(20):
        assert choose_move(board, Level.PERFECT, seed=level_seed) == 2


@pytest.mark.parametrize(
    ("text", "value", "plies", "best"),
    [
        ("X.O......", Outcome.WIN, 5, (3, 6, 8)),  # the README's example
        (".........", Outcome.DRAW, 9, tuple(range(9))),
        ("X........", Outcome.DRAW, 8, (4,)),  # after a corner, only the centre holds the draw
    ],
)
def test_known_verdicts(text: str, value: Outcome, plies: int, best: tuple[int, ...]) -> None:
    analysis = analyze(Board.parse(text))
    assert (analysis.value, analysis.plies, analysis.best, analysis.exact) == (value, plies, best, True)


def test_analysis_as_the_documented_json_object() -> None:
    assert analyze(Board.parse("X.O......")).as_dict() == {
        "board": "X.O......",
        "size": 3,
        "k": 3,
        "to_move": "X",
        "status": "ongoing",
        "value": "win",
        "plies": 5,
        "exact": True,
        "best": [3, 6, 8],
        "moves": [
            {"cell": 1, "value": "loss", "plies": 6},
            {"cell": 3, "value": "win", "plies": 5},
            {"cell": 4, "value": "draw", "plies": 7},
            {"cell": 5, "value": "draw", "plies": 7},
            {"cell": 6, "value": "win", "plies": 5},
            {"cell": 7, "value": "draw", "plies": 7},
            {"cell": 8, "value": "win", "plies": 5},
        ],
    }
    finished = analyze(Board.parse("XXX/OO./...")).as_dict()
    assert finished["status"] == "x_won"
    assert (finished["to_move"], finished["value"], finished["plies"]) == (None, None, None)
    assert (finished["moves"], finished["best"]) == ([], [])
