"""Levels: perfect plays a best move, the others miss what people miss, more often the weaker they are."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from bot.engine import Board, IllegalMoveError, Level, Outcome, analyze, answers_at_once, choose_move
from bot.engine.levels import SIGHTS
from tests.engine.conftest import reachable


def _positions_with_a_worse_move() -> list[Board]:
    out = []
    for board in reachable(3):
        if not board.is_over and len(analyze(board).best) < len(board.legal_moves):
            out.append(board)
    return sorted(out, key=lambda b: (b.x, b.o))[:150]


def test_blunders_are_rarer_the_stronger_the_level() -> None:
    positions = _positions_with_a_worse_move()
    blunders = {}
    for level in Level:
        count = 0
        for index, board in enumerate(positions):
            for seed in range(4):
                if choose_move(board, level, seed=index * 10 + seed) not in analyze(board).best:
                    count += 1
        blunders[level] = count
    assert blunders[Level.PERFECT] == 0
    assert blunders[Level.HARD] < blunders[Level.MEDIUM] < blunders[Level.EASY]
    assert Level.PERFECT not in SIGHTS, "perfect sees everything the engine proves"


def test_perfect_varies_its_choice_among_equally_good_moves() -> None:
    board = Board.empty(3)
    choices = {choose_move(board, Level.PERFECT, seed=seed) for seed in range(40)}
    assert len(choices) > 3
    assert choices <= set(analyze(board).best)


@pytest.mark.parametrize("level", list(Level))
def test_a_seed_makes_the_choice_repeatable(level: Level) -> None:
    for text in ("X...O....", "X.../.O../..X./....", "X.O./..X./..O./...."):
        board = Board.parse(text)
        assert len({choose_move(board, level, seed=11) for _ in range(3)}) == 1


def test_a_finished_game_has_no_move() -> None:
    with pytest.raises(IllegalMoveError, match="over"):
        choose_move(Board.parse("XXXOO...."))


def test_engine_calls_work_in_a_process_pool() -> None:
    board = Board.parse("X.O......")
    assert pickle.loads(pickle.dumps(board)) == board
    with ProcessPoolExecutor(max_workers=1) as pool:
        move = pool.submit(choose_move, board, Level.PERFECT, 3, 500).result()
        analysis = pool.submit(analyze, board, 500).result()
    assert move in (3, 6, 8)
    assert analysis == analyze(board)


def test_every_3x3_position_still_going_on_is_answered_at_once() -> None:
    boards = reachable(3)
    assert all(answers_at_once(board) == (not board.is_over) for board in boards)


def test_4x4_is_answered_at_once_inside_the_book_only_and_5x5_never() -> None:
    board = Board.empty(4)
    for cell in (0, 5, 10, 15, 3, 12):
        assert answers_at_once(board), board.ply
        board = board.play(cell)
    # Six marks: the children have seven, past the six-mark book, so the reply needs a search.
    assert not answers_at_once(board)
    assert not answers_at_once(Board.empty(5))


@pytest.mark.parametrize(
    "text",
    [
        ".../.XO/XOX",  # O to move; X threatens a1 and c1
        ".X./.OX/OXO",  # X to move; O threatens a1 and c1
    ],
)
def test_a_lost_side_blocks_a_line_instead_of_giving_up(text: str) -> None:
    board = Board.parse(text)
    assert analyze(board).value is Outcome.LOSS
    chosen = {choose_move(board, Level.PERFECT, seed) for seed in range(40)}
    assert chosen and chosen <= {0, 2}
