"""Hand-checked tactics on 4x4 and 5x5 (k=4): take a win in one, block a loss in one."""

from __future__ import annotations

import pytest

from bot.engine import Board, Level, Mark, Outcome, analyze, choose_move
from tests.engine.conftest import OUTCOME, brute_moves

SMALL_BUDGET_MS = 150


@pytest.mark.parametrize(
    ("text", "winning_cell"),
    [
        ("XXX./OO../O.../....", 3),  # 4x4: finish the top row
        ("X.O./XO../X.O./....", 12),  # 4x4: finish the left column
        ("XXX../OO.../O..../...../.....", 3),  # 5x5: four in the top row
        ("X..../.X.O./..XO./...../O....", 18),  # 5x5: down the long diagonal
    ],
)
def test_takes_a_win_in_one(text: str, winning_cell: int) -> None:
    board = Board.parse(text)
    assert board.turn is Mark.X
    for seed in range(3):
        assert choose_move(board, Level.PERFECT, seed=seed, budget_ms=SMALL_BUDGET_MS) == winning_cell
    analysis = analyze(board, budget_ms=SMALL_BUDGET_MS)
    assert (analysis.value, analysis.plies) == (Outcome.WIN, 1)
    assert winning_cell in analysis.best


@pytest.mark.parametrize(
    ("text", "blocking_cell"),
    [
        ("X.../OOO./XX../....", 7),  # 4x4: O threatens the second row
        ("XX.O/...O/.X.O/....", 15),  # 4x4: O threatens the right column
        ("XX.../OOO../X..../...../.....", 8),  # 5x5: O threatens 5-6-7-8
        ("X...X/.O.../..O../...O./X....", 24),  # 5x5: O threatens the diagonal 6-12-18-24
    ],
)
def test_blocks_a_loss_in_one(text: str, blocking_cell: int) -> None:
    board = Board.parse(text)
    assert board.turn is Mark.X
    for seed in range(3):
        assert choose_move(board, Level.PERFECT, seed=seed, budget_ms=SMALL_BUDGET_MS) == blocking_cell
    analysis = analyze(board, budget_ms=SMALL_BUDGET_MS)
    assert analysis.best == (blocking_cell,)
    for move in analysis.moves:
        if move.cell != blocking_cell:
            assert (move.value, move.plies) == (Outcome.LOSS, 2)


def test_facing_two_threats_still_blocks_one() -> None:
    board = Board.parse("X..../.OOO./...../...../X...X")  # O threatens both 5 and 9
    analysis = analyze(board, budget_ms=SMALL_BUDGET_MS)
    assert (analysis.value, analysis.plies, analysis.exact) == (Outcome.LOSS, 2, True)
    for seed in range(10):
        assert choose_move(board, Level.PERFECT, seed=seed, budget_ms=SMALL_BUDGET_MS) in (5, 9)


def test_4x4_fork_wins_in_three_plies() -> None:
    """X at 0 makes two threats (3 and 12); whichever O blocks, X completes the other."""
    board = Board.parse(".XX./XOO./XOO./....")
    analysis = analyze(board)
    assert (analysis.value, analysis.plies, analysis.exact) == (Outcome.WIN, 3, True)
    assert 0 in analysis.best
    truth = brute_moves(board)
    assert {m.cell: (m.value, m.plies) for m in analysis.moves} == {
        cell: (OUTCOME[r], p) for cell, (r, p) in truth.items()
    }


def test_4x4_perfect_play_against_itself_is_always_a_draw() -> None:
    for seed in range(6):
        board = Board.empty(4)
        while not board.is_over:
            board = board.play(choose_move(board, Level.PERFECT, seed=seed * 100 + board.ply))
        assert board.winner is None, board.text
