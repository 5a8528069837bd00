"""Cunning perfect: among equally good moves, those a person is likeliest to answer with a losing move."""

from __future__ import annotations

import pytest

from bot.engine import Board, Level, analyze, choose_move
from bot.engine.cunning import cunning_from_tables, cunning_moves, model_replies
from tests.engine.conftest import reachable


def test_on_the_empty_3x3_board_perfect_opens_in_a_corner() -> None:
    """After a corner only the centre draws (7 of 8 replies lose); after the centre or an edge, more hold."""
    board = Board.empty(3)
    assert set(analyze(board).best) == set(range(9))
    chosen = {choose_move(board, Level.PERFECT, seed) for seed in range(40)}
    assert chosen == {0, 2, 6, 8}


def test_cunning_keeps_only_best_moves_on_every_3x3_position() -> None:
    for board in reachable(3):
        if board.is_over:
            continue
        best = analyze(board).best
        kept = cunning_from_tables(board, best)
        assert kept and set(kept) <= set(best), board.text


@pytest.mark.parametrize(
    ("text", "replies"),
    [
        ("XX./OO./...", (2,)),  # X takes its win
        ("XX./O../...", (2,)),  # O blocks the one threat
        ("X../.O./...", (1, 2, 3, 5, 6, 7, 8)),  # nothing to take or block: any cell
    ],
)
def test_the_model_takes_wins_and_blocks_single_threats(text: str, replies: tuple[int, ...]) -> None:
    assert model_replies(Board.parse(text)) == replies


@pytest.mark.parametrize(
    ("text", "replies"),
    [
        ("O...O/...../.XXX./...../.....", (10, 14)),  # two threats: O blocks one of them
        ("O...O/...../.XX../...../.....", (13,)),  # X makes an open three: two threats at once
        ("O...O/...../.XX../...../X....", (13,)),  # O takes the cell of X's open three
        ("O...O/...../.X.../...../X....", tuple(c for c in range(25) if c not in (0, 4, 11, 20))),
    ],
)
def test_on_5x5_the_model_also_makes_and_stops_double_threats(text: str, replies: tuple[int, ...]) -> None:
    assert model_replies(Board.parse(text)) == replies


def test_on_3x3_the_model_misses_forks() -> None:
    """O to move; X would make two threats on 2 or 6, which the 3x3 model does not see coming."""
    assert model_replies(Board.parse("X../.O./..X")) == (1, 2, 3, 5, 6, 7)


def test_out_of_time_every_best_move_stays_a_candidate() -> None:
    board = Board.parse("...../...../..O../OX.XO/..X..")
    best = (0, 1, 2)
    assert cunning_moves(board, best, budget_ms=0) == best
