"""The shipped 4x4 opening book, checked against the search and against itself."""

from __future__ import annotations

import random

from bot.engine import Board, Outcome, analyze
from bot.engine.book import ExactTable, book_resource_name, opening_book
from bot.engine.geometry import geometry
from bot.engine.oracle import from_table
from bot.engine.scores import to_code
from bot.engine.search import Searcher
from bot.engine.solver import reachable_layers


def _book() -> ExactTable:
    book = opening_book(4)
    assert book is not None, f"bot/engine/data/{book_resource_name(4)} is missing: run python -m bench.book"
    return book


def test_book_holds_exactly_the_reachable_positions_up_to_its_depth() -> None:
    book = _book()
    layers = reachable_layers(4, book.max_marks)
    expected = set().union(*layers[: book.max_marks + 1])
    assert set(book.keys) == expected
    assert list(book.keys) == sorted(book.keys)


def test_book_file_round_trips_byte_for_byte() -> None:
    book = _book()
    again = ExactTable.decode(book.encode())
    assert again == book
    assert again.encode() == book.encode()


def test_book_says_the_empty_board_is_a_draw() -> None:
    assert _book().lookup(0) == 0
    analysis = analyze(Board.empty(4))
    assert (analysis.value, analysis.plies, analysis.exact) == (Outcome.DRAW, 16, True)
    assert analysis.best == tuple(range(16))


def test_search_alone_proves_the_empty_4x4_board_a_draw() -> None:
    result = Searcher(4).search(Board.empty(4), budget_ms=10**7, all_values=False, first_depth=16)
    assert result.complete and result.top == 0
    assert set(result.best) == set(range(16))


def _sample(book: ExactTable, per_layer: dict[int, int], seed: int) -> list[tuple[Board, int]]:
    rng = random.Random(seed)
    g = geometry(4)
    by_layer: dict[int, list[tuple[int, int]]] = {}
    for key, score in book.items():
        by_layer.setdefault(key.bit_count(), []).append((key, score))
    out = []
    for marks, count in per_layer.items():
        for key, score in rng.sample(by_layer[marks], count):
            out.append((Board(4, *g.split(key)), score))
    return out


def test_sampled_book_entries_match_an_independent_exact_search() -> None:
    book = _book()
    searcher = Searcher(4)
    for board, score in _sample(book, {3: 2, 4: 4, 5: 8, 6: 16}, seed=2024):
        result = searcher.search(
            board, budget_ms=10**7, all_values=False, first_depth=board.cells - board.ply
        )
        assert result.complete, board.text
        assert result.top == score, board.text


def test_sampled_book_entries_agree_with_their_children_in_the_book() -> None:
    """Each score is the best of its children's (the backward step of the solver, redone)."""
    book = _book()
    for board, score in _sample(book, {1: 3, 2: 20, 3: 60, 4: 120, 5: 200}, seed=7):
        children = from_table(board, book)
        assert children is not None, board.text
        assert max(children.values()) == score, board.text


def test_book_holds_only_draws_up_to_five_marks_and_some_decided_positions_at_six() -> None:
    codes = {}
    for key, score in _book().items():
        codes.setdefault(key.bit_count(), set()).add(to_code(score))
    assert all(codes[marks] == {0} for marks in range(6))
    assert codes[6] - {0}
