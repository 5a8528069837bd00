"""3x3 checked exhaustively: every reachable position, every line of play."""

from __future__ import annotations

from bot.engine import Board, Level, Mark, Outcome, analyze, choose_move
from bot.engine.book import solved_table
from bot.engine.geometry import geometry
from tests.engine.conftest import OUTCOME, brute_force, brute_moves, rank, reachable


def test_reachable_positions_are_5478_and_765_up_to_symmetry() -> None:
    boards = list(reachable(3))
    assert len(boards) == 5478
    assert len({board.canonical()[0] for board in boards}) == 765
    assert sum(1 for board in boards if not board.is_over) == 4520


def test_solved_table_holds_each_position_once_up_to_symmetry() -> None:
    table = solved_table(3)
    g = geometry(3)
    assert len(table) == 765
    orbit_sizes = [len(set(g.key_images(*g.split(key)))) for key, _ in table.items()]
    assert sum(orbit_sizes) == 5478


def test_analysis_agrees_with_brute_force_minimax_everywhere() -> None:
    checked = 0
    for board in reachable(3):
        analysis = analyze(board)
        if board.is_over:
            assert (analysis.value, analysis.plies, analysis.moves, analysis.best) == (None, None, (), ())
            continue
        truth = brute_moves(board)
        value, plies = brute_force(board)
        assert analysis.exact
        assert (analysis.value, analysis.plies) == (OUTCOME[value], plies), board.text
        assert {m.cell: (m.value, m.plies) for m in analysis.moves} == {
            cell: (OUTCOME[r], p) for cell, (r, p) in truth.items()
        }, board.text
        top = max(truth.values(), key=rank)
        assert analysis.best == tuple(sorted(c for c, v in truth.items() if v == top)), board.text
        checked += 1
    assert checked == 4520


def _never_loses(board: Board, engine: Mark) -> int:
    """Walk every opponent reply and every best engine reply; return how many games ended."""
    if board.is_over:
        assert board.winner is not engine.other, f"the engine lost: {board.text}"
        return 1
    if board.turn is engine:
        best = analyze(board).best
        assert choose_move(board, Level.PERFECT, seed=board.x * 7 + board.o) in best
        return sum(_never_loses(board.play(cell), engine) for cell in best)
    return sum(_never_loses(board.play(cell), engine) for cell in board.legal_moves)


def test_perfect_never_loses_as_x_against_every_sequence_of_replies() -> None:
    assert _never_loses(Board.empty(3), Mark.X) > 100


def test_perfect_never_loses_as_o_against_every_sequence_of_replies() -> None:
    assert _never_loses(Board.empty(3), Mark.O) > 100


def test_perfect_play_against_itself_is_a_draw() -> None:
    for seed in range(30):
        board = Board.empty(3)
        while not board.is_over:
            board = board.play(choose_move(board, seed=seed * 10 + board.ply))
        assert board.winner is None
        assert analyze(Board.empty(3)).value is Outcome.DRAW
