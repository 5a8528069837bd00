"""5x5 proven: the shipped book and the prover, checked against independent searches."""

from __future__ import annotations

import random

import pytest

from bot.engine import Board, Level, Outcome, analyze, answers_at_once, choose_move
from bot.engine.book import ExactTable, book_resource_name, opening_book
from bot.engine.geometry import geometry
from bot.engine.oracle import from_table
from bot.engine.prover import Prover
from bot.engine.scores import to_code
from bot.engine.search import Searcher
from bot.engine.solver import reachable_layers


def _book() -> ExactTable:
    book = opening_book(5)
    missing = f"bot/engine/data/{book_resource_name(5)} is missing: python -m bench.book --size 5"
    assert book is not None, missing
    return book


def random_position(rng: random.Random, marks: int) -> Board:
    """A position reached by ``marks`` random moves where the game goes on."""
    while True:
        board = Board.empty(5)
        for _ in range(marks):
            if board.is_over:
                break
            board = board.play(rng.choice(board.legal_moves))
        if not board.is_over and board.ply == marks:
            return board


def test_book_holds_exactly_the_reachable_positions_up_to_its_depth() -> None:
    book = _book()
    layers = reachable_layers(5, book.max_marks)
    assert book.max_marks == 6
    assert list(book.keys) == sorted(set().union(*layers[: book.max_marks + 1]))


def test_book_file_round_trips_byte_for_byte() -> None:
    book = _book()
    again = ExactTable.decode(book.encode())
    assert again == book and again.encode() == book.encode()


def test_the_empty_board_draws_and_after_a_diagonal_neighbour_of_the_centre_only_the_centre_saves() -> None:
    empty = analyze(Board.empty(5))
    assert (empty.value, empty.plies, empty.exact, empty.depth) == (Outcome.DRAW, 25, True, 0)
    assert empty.best == tuple(range(25))
    after = analyze(Board.empty(5).play(6))
    assert after.exact and after.value is Outcome.DRAW and after.best == (12,)
    assert all(m.value is Outcome.LOSS for m in after.moves if m.cell != 12)


def test_analyses_of_up_to_five_marks_come_from_the_book_and_moves_are_still_searched() -> None:
    rng = random.Random(55)
    for marks in range(6):
        board = random_position(rng, marks)
        analysis = analyze(board, budget_ms=1)
        assert analysis.exact and analysis.depth == 0, board.text
        assert not answers_at_once(board), "5x5 moves are chosen in the pool"


def test_perfect_answers_a_diagonal_neighbour_of_the_centre_with_the_only_saving_move() -> None:
    for seed in range(5):
        assert choose_move(Board.empty(5).play(6), Level.PERFECT, seed=seed, budget_ms=200) == 12


@pytest.mark.parametrize("marks", [3, 5, 7, 9, 12])
def test_perfect_plays_a_proven_best_move_from_the_book_and_the_prover(marks: int) -> None:
    rng = random.Random(marks)
    checked = 0
    while checked < 3:
        board = random_position(rng, marks)
        analysis = analyze(board)
        if analysis.exact:
            assert choose_move(board, Level.PERFECT, seed=marks) in analysis.best, board.text
            checked += 1


@pytest.mark.parametrize("marks", [10, 12, 14])
def test_prover_agrees_with_the_full_depth_search_on_every_move(marks: int) -> None:
    """The search of ``bot.engine.search`` run to the end of the game shares no pruning with the prover."""
    rng = random.Random(marks)
    for _ in range(4):
        board = random_position(rng, marks)
        scores, exact = Prover(5).root(board, float("inf"), all_values=True)
        reference = Searcher(5).search(board, 10**9, all_values=True, first_depth=25 - marks)
        assert reference.all_exact and exact == set(scores)
        assert scores == reference.scores, board.text


def test_prover_agrees_with_the_c_solver_on_positions_of_six_marks() -> None:
    """The book's 6-mark layer is the C solver's (``bench/solver5.c``) answer, position by position."""
    book = _book()
    g = geometry(5)
    rng = random.Random(6)
    for _ in range(6):
        board = random_position(rng, 6)
        images = g.key_images(board.x, board.o)
        me, them = (board.x, board.o) if board.ply % 2 == 0 else (board.o, board.x)
        stored = book.lookup(min(images))
        assert stored is not None
        assert to_code(Prover(5).exact(me, them, images, board.ply)) == to_code(stored), board.text


def test_prover_bounds_moves_worse_than_the_best_when_it_only_chooses() -> None:
    board = random_position(random.Random(9), 9)
    full, _ = Prover(5).root(board, float("inf"), all_values=True)
    chosen, exact = Prover(5).root(board, float("inf"), all_values=False)
    top = max(full.values())
    assert {c for c in exact if chosen[c] == top} == {c for c, s in full.items() if s == top}
    assert all(chosen[c] == full[c] for c in exact)
    assert all(chosen[c] < top and full[c] < top for c in set(chosen) - exact)


def test_analysis_of_deeper_positions_is_proven() -> None:
    """Proven when time allows; how often the default budget suffices is measured by ``bench.proof5``."""
    rng = random.Random(7)
    for marks in (8, 11, 13):
        analysis = analyze(random_position(rng, marks), budget_ms=10**9)
        assert analysis.exact
        assert geometry(5).cells - marks == len(analysis.moves)


def test_prover_agrees_with_the_4x4_book() -> None:
    """Cunning proves 4x4 positions too; the 4x4 book was solved backwards, sharing nothing with it."""
    book = opening_book(4)
    assert book is not None
    rng = random.Random(4)
    for _ in range(10):
        board = Board.empty(4)
        for _ in range(rng.randint(2, 5)):
            if not board.is_over:
                board = board.play(rng.choice(board.legal_moves))
        if board.is_over:
            continue
        scores, _ = Prover(4).root(board, float("inf"), all_values=True)
        assert scores == from_table(board, book), board.text
