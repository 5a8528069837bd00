"""The review: each verdict agrees with an independent exact solver; computed once per game; who sees it."""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from bot.db import Database
from bot.engine import Analysis, Board, Level, Mark, Outcome
from bot.services import Actor, EnginePool, First, GameReview, GameService, Place, ServiceSettings
from bot.services.refusals import NoFinishedGame, NoGameNumbered, PlayedElsewhere, PrivateGame, StillPlaying
from tests.engine.conftest import OUTCOME, brute_force, brute_moves, rank
from tests.services.helpers import (
    ALICE,
    BOB,
    CAROL,
    DRAW,
    ELSEWHERE,
    HERE,
    O_WINS,
    THERE,
    X_WINS,
    ManualClock,
    make_service,
    play_game,
)


def best_cells(board: Board) -> set[int]:
    """The best moves by brute force: keep the value; fastest win, slowest loss."""
    moves = brute_moves(board)
    top = max(moves.values(), key=rank)
    return {cell for cell, verdict in moves.items() if rank(verdict) == rank(top)}


def check_against_solver(review: GameReview) -> None:
    board = Board.empty(review.game.size)
    for move in review.moves:
        result, plies = brute_force(board)
        played = brute_moves(board)[move.cell]
        assert move.exact, move
        assert (move.before.value, move.before.plies) == (OUTCOME[result], plies), move
        assert (move.after.value, move.after.plies) == (OUTCOME[played[0]], played[1]), move
        assert move.mistake == (played[0] < result), move
        assert set(move.best) == best_cells(board), move
        assert move.mark is board.turn
        board = board.play(move.cell)


async def random_game_vs_bot(service: GameService, level: Level, seed: int, place: Place) -> int:
    rng = random.Random(seed)
    view = await service.start_vs_bot(place, ALICE, level=level, first=First.RANDOM)
    while view.is_active:
        view = await service.move(place, ALICE, rng.choice(view.legal_moves))
    return view.id


@pytest.mark.parametrize("cells", [X_WINS, O_WINS, DRAW], ids=["x-wins", "o-wins", "draw"])
async def test_the_verdicts_of_the_test_games_agree_with_the_solver(
    service: GameService, cells: list[str]
) -> None:
    game = await play_game(service, ALICE, BOB, cells)
    review = await service.review(game.id, place=HERE, user_id=CAROL.user_id)
    assert [move.name for move in review.moves] == cells
    assert [move.player.user_id for move in review.moves[:2]] == [ALICE.user_id, BOB.user_id]
    check_against_solver(review)


async def test_games_against_every_level_agree_with_the_solver(
    service: GameService, clock: ManualClock
) -> None:
    for seed, level in enumerate(Level):
        clock.advance(60)
        game_id = await random_game_vs_bot(service, level, seed, HERE)
        check_against_solver(await service.review(game_id, place=HERE, user_id=ALICE.user_id))


async def test_a_mistake_is_named_with_the_cells_that_kept_the_value(service: GameService) -> None:
    game = await play_game(service, ALICE, BOB, X_WINS)  # a1 b1 a2 b2 a3: after a1, only b2 holds for O
    review = await service.review(game.id, place=HERE, user_id=ALICE.user_id)
    assert review.mistakes_of(Mark.X) == ()
    (mistake,) = review.mistakes_of(Mark.O)
    assert (mistake.number, mistake.name, mistake.player.user_id) == (2, "b1", BOB.user_id)
    assert (mistake.before.value, mistake.after.value) == (Outcome.DRAW, Outcome.LOSS)
    assert mistake.best_names == ("b2",)


async def test_4x4_verdicts_proven_by_search_agree_with_the_solver(service: GameService) -> None:
    cells = ["a1", "b2", "c3", "d4", "a2", "a3", "b1", "c1", "d1", "b3", "c2", "d2", "b4", "a4", "c4", "d3"]
    rng = random.Random(4)
    game = await service.challenge(HERE, ALICE, BOB, size=4)
    game = await service.accept(HERE, BOB, game.id)
    ply = 0
    while game.is_active:
        cell = cells[ply] if ply < 6 else rng.choice(game.legal_moves)
        game = await service.move(HERE, ALICE if ply % 2 == 0 else BOB, cell)
        ply += 1
    review = await service.review(game.id, place=HERE, user_id=ALICE.user_id)
    assert review.exact and len(review.moves) == ply
    board = Board.empty(4)
    for move in review.moves:
        if move.ply >= 6:  # the position is past the opening book: the search proved it
            result, plies = brute_force(board)
            played = brute_moves(board)[move.cell]
            assert (move.before.value, move.before.plies) == (OUTCOME[result], plies)
            assert (move.after.value, move.after.plies) == (OUTCOME[played[0]], played[1])
            assert set(move.best) == best_cells(board)
        board = board.play(move.cell)


async def test_5x5_verdicts_cut_by_the_time_budget_say_so(
    database_url: str, settings: ServiceSettings, clock: ManualClock
) -> None:
    """Up to 5 marks the 5x5 book answers; the 7th move's position (``...../...../..O../OX.XO/..X..``)
    takes the prover about 2 s to settle from an empty table, far past the 200 ms budget.

    The prover's table lives as long as its process, and other tests prove parts of this
    position, so the engine here runs in a new process of its own, which starts empty.
    """
    settings = dataclasses.replace(settings, review_budget_ms=200)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as fresh_process:
        service = make_service(database_url, settings, clock, fresh_process)
        try:
            await check_5x5_verdicts_cut_by_the_budget(service)
        finally:
            await service.close()


async def check_5x5_verdicts_cut_by_the_budget(service: GameService) -> None:
    game = await service.challenge(HERE, ALICE, BOB, size=5)
    await service.accept(HERE, BOB, game.id)
    names = ["b4", "c3", "d4", "a4", "c5", "e4", "a1"]
    for index, name in enumerate(names):
        await service.move(HERE, ALICE if index % 2 == 0 else BOB, name)
    await service.resign(HERE, BOB)
    review = await service.review(game.id, place=HERE, user_id=ALICE.user_id)
    assert [move.name for move in review.moves] == names
    assert all(move.exact for move in review.moves[:6]), "positions of up to 5 marks are in the book"
    assert not review.moves[6].exact and not review.exact


async def test_a_review_is_computed_once_per_game(service: GameService) -> None:
    game = await play_game(service, ALICE, BOB, DRAW)
    first = await service.review(game.id, place=HERE, user_id=ALICE.user_id)
    again = await service.review(game.id, place=THERE, user_id=CAROL.user_id)
    assert again is first


async def test_the_default_is_the_askers_latest_finished_game_here(
    service: GameService, clock: ManualClock
) -> None:
    older = await play_game(service, ALICE, BOB, DRAW)
    clock.advance(60)
    newer = await play_game(service, ALICE, BOB, X_WINS)
    clock.advance(60)
    await play_game(service, ALICE, BOB, O_WINS, place=ELSEWHERE)
    review = await service.review(place=HERE, user_id=ALICE.user_id)
    assert review.game.id == newer.id != older.id
    with pytest.raises(NoFinishedGame):
        await service.review(place=HERE, user_id=CAROL.user_id)


async def test_games_of_another_server_and_live_games_are_refused(service: GameService) -> None:
    elsewhere = await play_game(service, ALICE, BOB, X_WINS, place=ELSEWHERE)
    with pytest.raises(PlayedElsewhere):
        await service.review(elsewhere.id, place=HERE, user_id=ALICE.user_id)
    with pytest.raises(PlayedElsewhere):
        await service.replay(elsewhere.id, place=HERE, user_id=ALICE.user_id)
    live = await service.start_vs_bot(HERE, CAROL)
    with pytest.raises(StillPlaying):
        await service.review(live.id, place=HERE, user_id=CAROL.user_id)
    with pytest.raises(NoGameNumbered):
        await service.review(10_000, place=HERE, user_id=CAROL.user_id)


async def test_a_game_outside_servers_is_seen_by_its_players_and_its_conversation(
    service: GameService,
) -> None:
    dm = Place(None, 5_000_000_000_000_001)
    other_dm = Place(None, 5_000_000_000_000_002)
    game = await play_game(service, ALICE, BOB, DRAW, place=dm)
    assert (await service.review(game.id, place=other_dm, user_id=BOB.user_id)).game.id == game.id
    assert (await service.review(game.id, place=dm, user_id=CAROL.user_id)).game.id == game.id
    for place in (other_dm, HERE):
        with pytest.raises(PrivateGame):
            await service.review(game.id, place=place, user_id=CAROL.user_id)


async def test_the_terminal_reviews_any_game_even_one_going_on(service: GameService) -> None:
    game = await service.challenge(ELSEWHERE, ALICE, Actor(BOB.user_id, "Bob"))
    await service.accept(ELSEWHERE, BOB, game.id)
    await service.move(ELSEWHERE, ALICE, "b2")
    review = await service.review(game.id)
    assert [move.name for move in review.moves] == ["b2"]


class NoAnalysis(EnginePool):
    """An engine that cannot analyse: a review it is asked for must come from the store."""

    async def analyze(self, board: Board, budget_ms: int | None = None) -> Analysis:
        raise AssertionError("the engine was asked to analyse a position")


async def test_a_review_is_kept_in_the_store_for_every_process(
    service: GameService, database_url: str, settings: ServiceSettings, clock: ManualClock
) -> None:
    game = await play_game(service, ALICE, BOB, O_WINS)
    first = await service.review(game.id, place=HERE, user_id=ALICE.user_id)
    other_process = GameService(Database(database_url), settings, engine=NoAnalysis(), clock=clock)
    try:
        again = await other_process.review(game.id, place=THERE, user_id=CAROL.user_id)
    finally:
        await other_process.close()
    assert again is not first and again == first
    async with service.database.read() as repo:
        stored = await repo.stored_review(game.id)
    assert stored is not None
    assert [move["cell"] for move in json.loads(stored)] == [move.cell for move in first.moves]
