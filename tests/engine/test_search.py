"""The search: proven results are never confused with estimates, and budgets cut it cleanly."""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.engine import Board, Outcome, analyze
from bot.engine.evaluation import LineEvaluator
from bot.engine.geometry import geometry
from bot.engine.scores import HEURISTIC_LIMIT, PROVEN, from_code, is_proven, loss_at, to_code, win_at
from bot.engine.search import Searcher, settled
from tests.engine.test_properties import positions


def _exact_scores(board: Board) -> dict[int, int]:
    result = Searcher(board.size).search(board, 10**7, all_values=True, first_depth=board.cells - board.ply)
    assert result.complete and result.all_exact
    return result.scores


@settings(max_examples=40, deadline=None)
@given(positions(4, min_marks=6), st.integers(1, 4))
@example(Board(size=4, x=39473, o=24782), 1)  # every move wins at once: one ply settles them
def test_a_shallow_search_proves_only_what_is_true(board: Board, depth: int) -> None:
    if board.is_over:
        return
    shallow = Searcher(4).search(board, 10**7, all_values=True, max_depth=depth)
    exact = _exact_scores(board)
    for cell, score in shallow.scores.items():
        if score >= PROVEN:  # a forced win: real, though a faster one may lie past the horizon
            assert exact[cell] >= score, (board.text, cell)
        elif score <= -PROVEN:  # a forced loss: real, though it may come even sooner
            assert exact[cell] <= score, (board.text, cell)
        else:
            assert -HEURISTIC_LIMIT < score < HEURISTIC_LIMIT
            assert cell not in shallow.exact or depth >= board.cells - board.ply
    for cell in shallow.exact:
        assert shallow.scores[cell] == exact[cell]
        assert settled(shallow.scores[cell], board.ply, shallow.depth) or depth >= board.cells - board.ply


def test_a_budget_cut_on_5x5_reports_an_estimate() -> None:
    board = Board.parse("...../...../..O../OX.XO/..X..")  # 6 marks: past the book; about 2 s to prove
    analysis = analyze(board, budget_ms=30)
    assert not analysis.exact
    assert analysis.depth >= 1
    assert len(analysis.moves) == 19
    for move in analysis.moves:
        if move.value is Outcome.DRAW:  # unproven values are estimated draws, lasting to a full board
            assert move.plies == 19
    assert analysis.best and set(analysis.best) <= set(board.legal_moves)


def test_a_budget_cut_on_4x4_keeps_proven_results_only() -> None:
    board = Board.parse("XOX./.X../..O./XO..")  # 7 marks: beyond the book, so it is searched
    cut = Searcher(4).search(board, 0, all_values=True, first_depth=board.cells - board.ply)
    exact = _exact_scores(board)
    assert not cut.complete and not cut.all_exact
    for cell, score in cut.scores.items():
        if is_proven(score) or cell in cut.exact:
            assert score == exact[cell]
        else:
            assert -HEURISTIC_LIMIT < score < HEURISTIC_LIMIT
    assert analyze(board).exact


@given(st.sampled_from([3, 4, 5]).flatmap(lambda n: positions(n)))
def test_the_line_heuristic_is_bounded_and_symmetric(board: Board) -> None:
    g = geometry(board.size)
    evaluate = LineEvaluator.for_geometry(g.lines, g.k)
    me, them = (board.x, board.o) if board.turn.value == "X" else (board.o, board.x)
    value = evaluate(me, them)
    assert -HEURISTIC_LIMIT < value < HEURISTIC_LIMIT
    for symmetry in range(8):
        assert evaluate(g.transform(me, symmetry), g.transform(them, symmetry)) == value


def test_the_heuristic_prefers_more_own_marks_on_open_lines() -> None:
    g = geometry(5)
    evaluate = LineEvaluator.for_geometry(g.lines, g.k)
    centre, corner = 1 << 12, 1 << 0
    assert evaluate(centre, 0) > evaluate(corner, 0) > 0
    assert evaluate(0, centre) < 0


def test_score_codes_round_trip() -> None:
    for marks in range(1, 26):
        for score in (win_at(marks), loss_at(marks)):
            assert from_code(to_code(score)) == score
            assert abs(score) >= PROVEN
    assert from_code(to_code(0)) == 0


def test_random_5x5_positions_never_report_a_false_win_in_one() -> None:
    rng = random.Random(5)
    for _ in range(20):
        board = Board.empty(5)
        for _ in range(rng.randrange(4, 12)):
            if board.is_over:
                break
            board = board.play(rng.choice(board.legal_moves))
        if board.is_over:
            continue
        analysis = analyze(board, budget_ms=40)
        for move in analysis.moves:
            wins_now = board.play(move.cell).winner is not None
            assert wins_now == (move.value is Outcome.WIN and move.plies == 1)
