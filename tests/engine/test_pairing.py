"""Pairings: the defender's answer that proves an attacker's lines can never be completed."""

from __future__ import annotations

import random

from bot.engine.book import ExactTable, opening_book
from bot.engine.geometry import geometry
from bot.engine.prover import paired


def _mask(*cells: int) -> int:
    return sum(1 << cell for cell in cells)


def test_no_lines_need_no_pairs() -> None:
    assert paired([])


def test_lines_sharing_two_empty_cells_share_one_pair() -> None:
    assert paired([_mask(0, 1), _mask(0, 1, 2)])


def test_a_line_one_cell_from_complete_cannot_be_paired() -> None:
    assert not paired([_mask(3)])


def test_three_lines_through_three_cells_need_more_pairs_than_there_are() -> None:
    """Each of the lines {a,b}, {b,c}, {a,c} needs its own pair, and any two of them share a cell."""
    assert not paired([_mask(0, 1), _mask(1, 2), _mask(0, 2)])


def test_disjoint_pairs_found_where_the_lines_overlap() -> None:
    """{0,1,2} and {2,3,4} must not both take cell 2."""
    assert paired([_mask(0, 1, 2), _mask(2, 3, 4), _mask(1, 2)])


def _check_against_book(book: ExactTable, sample: int) -> tuple[int, int]:
    """Wherever a pairing stops a side's lines, the book (solved independently) says that side cannot win."""
    g = geometry(book.size)
    keys = list(book.keys)
    rng = random.Random(book.size)
    stopped_mover = stopped_other = 0
    for key in rng.sample(keys, min(sample, len(keys))):
        x, o = g.split(key)
        mover, other = (x, o) if (x | o).bit_count() % 2 == 0 else (o, x)
        empty = g.full & ~(x | o)
        score = book.lookup(key)
        assert score is not None
        if paired([line & empty for line in g.lines if not line & other]):
            stopped_mover += 1
            assert score <= 0, (key, score)
        if paired([line & empty for line in g.lines if not line & mover]):
            stopped_other += 1
            assert score >= 0, (key, score)
    return stopped_mover, stopped_other


def test_pairings_agree_with_the_4x4_book() -> None:
    """The 4x4 book was solved backwards, sharing nothing with the pairing."""
    book = opening_book(4)
    assert book is not None
    stopped_mover, stopped_other = _check_against_book(book, 20_000)
    assert stopped_mover > 1_000 and stopped_other > 1_000


def test_pairings_agree_with_the_5x5_book() -> None:
    """The 5x5 book's deepest layer is the C solver's."""
    book = opening_book(5)
    assert book is not None
    stopped_mover, stopped_other = _check_against_book(book, 20_000)
    assert stopped_mover > 100 and stopped_other > 100
