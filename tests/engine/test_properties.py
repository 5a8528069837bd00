"""Properties that hold for every position: symmetry, legality of best moves, round trips, rejections."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    Board,
    IllegalMoveError,
    InvalidBoardError,
    InvalidCellError,
    Outcome,
    analyze,
    format_cell,
    parse_cell,
)

OPPOSITE = {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN, Outcome.DRAW: Outcome.DRAW}


@st.composite
def positions(draw: st.DrawFn, size: int, max_marks: int | None = None, min_marks: int = 0) -> Board:
    """A position reached by a random sequence of legal moves."""
    limit = size * size if max_marks is None else max_marks
    target = draw(st.integers(min_marks, limit))
    board = Board.empty(size)
    while board.ply < target and not board.is_over:
        board = board.play(draw(st.sampled_from(board.legal_moves)))
    return board


def _verdicts(board: Board) -> dict[int, tuple[Outcome, int]]:
    return {m.cell: (m.value, m.plies) for m in analyze(board).moves}


@given(positions(3))
def test_3x3_analysis_is_invariant_under_the_8_symmetries(board: Board) -> None:
    _assert_symmetric(board)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(4, min_marks=5))
def test_4x4_analysis_is_invariant_under_the_8_symmetries(board: Board) -> None:
    _assert_symmetric(board)


def _assert_symmetric(board: Board) -> None:
    base = analyze(board)
    for symmetry in range(8):
        image = board.transform(symmetry)
        other = analyze(image)
        assert (other.value, other.plies, other.exact) == (base.value, base.plies, base.exact)
        moved = {board.geometry.permutations[symmetry][c]: v for c, v in _verdicts(board).items()}
        assert _verdicts(image) == moved
        assert sorted(board.geometry.permutations[symmetry][c] for c in base.best) == list(other.best)


@settings(max_examples=60, deadline=None)
@given(st.one_of(positions(3), positions(4, min_marks=6)))
def test_best_moves_are_legal_and_keep_the_value(board: Board) -> None:
    analysis = analyze(board)
    if board.is_over:
        assert analysis.best == () and analysis.value is None
        return
    assert analysis.exact
    assert analysis.best
    assert {m.cell for m in analysis.moves} == set(board.legal_moves)
    for cell in analysis.best:
        assert cell in board.legal_moves
        after = board.play(cell)
        verdict = analysis.verdict(cell)
        assert verdict is not None and (verdict.value, verdict.plies) == (analysis.value, analysis.plies)
        if after.is_over:
            assert analysis.plies == 1
            assert analysis.value is (Outcome.WIN if after.winner else Outcome.DRAW)
        else:
            reply = analyze(after)
            assert reply.value is OPPOSITE[analysis.value]
            assert reply.plies == analysis.plies - 1
    # No move is better than a best one.
    order = {Outcome.LOSS: 0, Outcome.DRAW: 1, Outcome.WIN: 2}
    assert all(order[m.value] <= order[analysis.value] for m in analysis.moves)


@given(st.one_of(positions(3), positions(4), positions(5)))
def test_board_text_round_trips(board: Board) -> None:
    assert Board.parse(board.text) == board
    assert Board.parse(board.compact) == board
    assert Board.parse(board.text.lower()) == board
    assert Board.parse(f"  {board.compact}\n") == board
    assert len(board.compact) == board.cells
    assert board.text.count("/") == board.size - 1


@given(st.one_of(positions(3), positions(4), positions(5)))
def test_canonical_form_is_shared_by_all_8_images(board: Board) -> None:
    canonical, symmetry = board.canonical()
    assert board.transform(symmetry) == canonical
    assert all(image.canonical()[0] == canonical for image in board.symmetries())


@given(st.sampled_from([3, 4, 5]).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n * n - 1))))
def test_cell_notation_round_trips(size_cell: tuple[int, int]) -> None:
    size, cell = size_cell
    name = format_cell(cell, size)
    assert parse_cell(name, size) == cell
    assert parse_cell(f" {name.upper()} ", size) == cell
    assert parse_cell(str(cell + 1), size) == cell


def test_cell_notation_examples() -> None:
    assert parse_cell("b2", 3) == 4
    assert parse_cell("5", 3) == 4
    assert parse_cell("A1", 4) == 0
    assert parse_cell("e5", 5) == 24
    assert format_cell(4, 3) == "b2"


@pytest.mark.parametrize("text", ["", "0", "10", "d1", "a4", "b", "22b", "x", "1.5", "-1", "aa1"])
def test_bad_cells_are_rejected_with_a_clear_message(text: str) -> None:
    with pytest.raises(InvalidCellError) as error:
        parse_cell(text, 3)
    assert "1-9" in str(error.value) and "a1-c3" in str(error.value)


@given(st.text(alphabet="XOxo./ -1", max_size=30))
def test_arbitrary_text_parses_or_is_rejected_with_a_message(text: str) -> None:
    try:
        board = Board.parse(text)
    except InvalidBoardError as error:
        assert str(error)
        assert "Traceback" not in str(error)
    else:
        board.validate()
        assert Board.parse(board.text) == board


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("XO", "9, 16 or 25 cells"),
        ("X" * 10, "9, 16 or 25 cells"),
        ("XOXOXOXOZ", "'Z'"),
        ("XX.......", "X has 2 and O has 0"),
        ("OO.X.....", "X has 1 and O has 2"),
        ("XXXOOO...", "Both X and O have a line"),
        ("XXXOO.O..", "X has a line, but O has moved"),
        ("OOOXX.XX.", "O has a line, but X has moved"),
        ("XOOX/OXXO/OXXO/XO.X", "no single last move"),  # both diagonals, no shared cell
    ],
)
def test_invalid_boards_are_rejected_with_a_clear_message(text: str, reason: str) -> None:
    with pytest.raises(InvalidBoardError, match=reason):
        Board.parse(text)


@given(st.text(alphabet=string.ascii_letters + string.digits, min_size=9, max_size=9))
def test_letters_other_than_x_and_o_are_rejected(text: str) -> None:
    if set(text.upper()) <= {"X", "O"}:
        return
    with pytest.raises(InvalidBoardError, match="only X, O"):
        Board.parse(text)


def test_illegal_moves_are_refused_and_change_nothing() -> None:
    board = Board.parse("X........")
    with pytest.raises(IllegalMoveError, match="taken"):
        board.play(0)
    with pytest.raises(IllegalMoveError, match="no cell 10"):
        board.play(9)
    won = Board.parse("XXXOO....")
    with pytest.raises(IllegalMoveError, match="over"):
        won.play(8)
    assert board == Board.parse("X........")
