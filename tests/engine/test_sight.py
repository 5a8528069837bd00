"""The weaker levels' blind spots: what a player seeing N plies ahead sees, and what it misses."""

from __future__ import annotations

import random

from bot.engine import Board, Level, Outcome, analyze, choose_move
from bot.engine.scores import plies_left
from bot.engine.sight import Sight, choose_as_seen, seen_scores
from tests.engine.conftest import reachable

SEES_TWO = Sight(plies=2, notices_threats=1.0, budget_share=1.0, focus=1)
SEES_FOUR = Sight(plies=4, notices_threats=1.0, budget_share=1.0, focus=1)
NEVER_NOTICES = Sight(plies=4, notices_threats=0.0, budget_share=1.0, focus=1)


def _going_on() -> list[Board]:
    return sorted((b for b in reachable(3) if not b.is_over), key=lambda b: (b.x, b.o))


def _loses_within(board: Board, cell: int, plies: int) -> bool:
    verdict = analyze(board).verdict(cell)
    assert verdict is not None
    return verdict.value is Outcome.LOSS and verdict.plies <= plies


def test_every_level_takes_a_win_in_one() -> None:
    for board in _going_on():
        wins = {m.cell for m in analyze(board).moves if m.value is Outcome.WIN and m.plies == 1}
        if wins:
            for level in (Level.EASY, Level.MEDIUM, Level.HARD):
                assert choose_move(board, level, seed=board.x ^ board.o) in wins, (level, board.text)


def test_seeing_two_plies_it_always_blocks_but_walks_into_forks() -> None:
    walked_into_a_fork = 0
    for board in _going_on():
        for seed in range(3):
            cell = choose_as_seen(board, SEES_TWO, 100, random.Random(seed))
            saving = [c for c in board.legal_moves if not _loses_within(board, c, 2)]
            if saving:
                assert not _loses_within(board, cell, 2), ("it missed a block", board.text)
            if _loses_within(board, cell, 4) and any(
                not _loses_within(board, c, 4) for c in board.legal_moves
            ):
                walked_into_a_fork += 1
    assert walked_into_a_fork > 0, "a player seeing two plies does not see a fork coming"


def test_seeing_four_plies_it_sees_forks_but_not_slower_threats() -> None:
    missed_a_slower_threat = 0
    for board in _going_on():
        cell = choose_as_seen(board, SEES_FOUR, 100, random.Random(1))
        if any(not _loses_within(board, c, 4) for c in board.legal_moves):
            assert not _loses_within(board, cell, 4), ("it walked into a fork", board.text)
        if analyze(board).value is not Outcome.LOSS and _loses_within(board, cell, 9):
            missed_a_slower_threat += 1
    assert missed_a_slower_threat > 0, "a threat six plies away is beyond its sight"


def test_a_threat_it_does_not_notice_leaves_only_its_own_win_in_one_in_sight() -> None:
    board = Board.parse("XX./.O./...")  # O to move: X completes the top row at c1
    seen = seen_scores(board, NEVER_NOTICES, 100, random.Random(0))
    assert set(seen.values()) == {0}, "the loss in two is not seen"
    assert seen_scores(board, SEES_TWO, 100, random.Random(0))[2] == 0
    assert all(
        score < 0 for cell, score in seen_scores(board, SEES_TWO, 100, random.Random(0)).items() if cell != 2
    )


def test_on_5x5_past_the_book_it_sees_what_a_search_as_deep_finds() -> None:
    board = Board.parse("XXX../OO.../...../...../O....")  # X to move, b1..: a win in one at d1
    seen = seen_scores(board, SEES_TWO, 300, random.Random(0))
    assert seen[3] > 0 and max(seen, key=lambda c: seen[c]) == 3
    assert choose_move(board, Level.EASY, seed=3) == 3
    quiet = Board.parse("X..../.O.../..X../...O./.X..O")
    marks = quiet.ply
    for cell, score in seen_scores(quiet, SEES_TWO, 300, random.Random(0)).items():
        assert score == 0 or plies_left(score, marks, 25) <= 2, cell
