"""Everything a user can get wrong is refused with a friendly sentence and changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.services import Actor, First, GameService, GameView, ServiceSettings, refusals
from tests.services.helpers import (
    ALICE,
    BOB,
    CAROL,
    ELSEWHERE,
    HERE,
    THERE,
    ManualClock,
    make_service,
)
from tests.support.store import snapshot

Attempt = Callable[[GameService, GameView], Awaitable[object]]


async def challenge_game(service: GameService) -> GameView:
    """A game between Alice (X) and Bob (O) in HERE, Alice has played b2; Bob is to move."""
    await service.challenge(HERE, ALICE, BOB, first=First.ME)
    await service.accept(HERE, BOB)
    return await service.move(HERE, ALICE, "b2")


REFUSALS: dict[str, tuple[type[refusals.Refusal], Attempt]] = {
    "not your turn": (refusals.NotYourTurn, lambda s, g: s.move(HERE, ALICE, "a1")),
    "cell taken": (refusals.CellTaken, lambda s, g: s.move(HERE, BOB, "b2")),
    "cell taken by index": (refusals.CellTaken, lambda s, g: s.move(HERE, BOB, 4)),
    "cell name off the board": (refusals.BadCell, lambda s, g: s.move(HERE, BOB, "d4")),
    "cell number off the board": (refusals.BadCell, lambda s, g: s.move(HERE, BOB, "10")),
    "cell index off the board": (refusals.BadCell, lambda s, g: s.move(HERE, BOB, 9)),
    "negative cell index": (refusals.BadCell, lambda s, g: s.move(HERE, BOB, -1)),
    "nonsense cell": (refusals.BadCell, lambda s, g: s.move(HERE, BOB, "💣" * 500)),
    "empty cell": (refusals.BadCell, lambda s, g: s.move(HERE, BOB, "   ")),
    "not a player moves": (refusals.NotAPlayer, lambda s, g: s.move(HERE, CAROL, "a1")),
    "stale board": (refusals.StaleBoard, lambda s, g: s.move(HERE, BOB, "a1", game_id=g.id, expected_ply=0)),
    "future ply": (refusals.StaleBoard, lambda s, g: s.move(HERE, BOB, "a1", game_id=g.id, expected_ply=7)),
    "no game in that channel": (refusals.NoGame, lambda s, g: s.move(THERE, BOB, "a1")),
    "game id from another channel": (refusals.NoGame, lambda s, g: s.move(THERE, BOB, "a1", game_id=g.id)),
    "game id from another guild": (refusals.NoGame, lambda s, g: s.move(ELSEWHERE, BOB, "a1", game_id=g.id)),
    "unknown game id": (refusals.NoGame, lambda s, g: s.move(HERE, BOB, "a1", game_id=g.id + 1000)),
    "start where a game runs": (refusals.GameRunning, lambda s, g: s.start_vs_bot(HERE, CAROL)),
    "challenge where a game runs": (refusals.GameRunning, lambda s, g: s.challenge(HERE, CAROL, ALICE)),
    "challenge yourself": (refusals.SelfChallenge, lambda s, g: s.challenge(THERE, CAROL, CAROL)),
    "challenge a bot": (
        refusals.BotChallenge,
        lambda s, g: s.challenge(THERE, CAROL, Actor(99, "Robot"), opponent_is_bot=True),
    ),
    "bad size": (refusals.BadSize, lambda s, g: s.start_vs_bot(THERE, CAROL, size=6)),
    "accept a running game": (refusals.NotPending, lambda s, g: s.accept(HERE, BOB)),
    "decline a running game": (refusals.NotPending, lambda s, g: s.decline(HERE, BOB)),
    "resign by a stranger": (refusals.NotAPlayer, lambda s, g: s.resign(HERE, CAROL)),
    "cancel by a stranger": (refusals.NotAllowed, lambda s, g: s.cancel(HERE, CAROL)),
    "rematch of a running game": (refusals.NotFinished, lambda s, g: s.rematch(HERE, ALICE, g.id)),
    "hint out of turn": (refusals.NotYourTurn, lambda s, g: s.hint(HERE, ALICE)),
    "hint for a stranger": (refusals.NotAPlayer, lambda s, g: s.hint(HERE, CAROL)),
    "board of an empty channel": (refusals.NoGame, lambda s, g: s.board(THERE)),
    "resign in an empty channel": (refusals.NoGame, lambda s, g: s.resign(THERE, ALICE)),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
async def test_refusal_changes_nothing(service: GameService, database_url: str, case: str) -> None:
    game = await challenge_game(service)
    before = await snapshot(database_url)
    kind, attempt = REFUSALS[case]
    with pytest.raises(kind) as refused:
        await attempt(service, game)
    message = str(refused.value)
    assert message and not message[0].islower() and message.endswith(".") and "\n" not in message
    assert len(message) < 200
    assert await snapshot(database_url) == before


async def test_moves_after_the_end_are_refused(service: GameService, database_url: str) -> None:
    game = await challenge_game(service)
    await service.resign(HERE, BOB)
    before = await snapshot(database_url)
    for attempt in (
        service.move(HERE, BOB, "a1", game_id=game.id),
        service.resign(HERE, ALICE, game.id),
        service.cancel(HERE, ALICE, game_id=game.id),
        service.hint(HERE, BOB, game.id),
    ):
        with pytest.raises(refusals.GameOver):
            await attempt
    assert await snapshot(database_url) == before


async def test_start_cooldown_says_when_to_try_again(
    database_url: str, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    service = make_service(database_url, ServiceSettings(start_cooldown_seconds=30), clock, executor)
    try:
        await service.start_vs_bot(HERE, ALICE)
        await service.cancel(HERE, ALICE)
        clock.advance(10)
        before = await snapshot(database_url)
        for attempt in (service.start_vs_bot(THERE, ALICE), service.challenge(THERE, ALICE, BOB)):
            with pytest.raises(refusals.Cooldown) as refused:
                await attempt
            assert refused.value.retry_after == pytest.approx(20)
            assert "20 seconds" in str(refused.value)
        assert await snapshot(database_url) == before
        await service.start_vs_bot(THERE, BOB)  # the cooldown is per user
        clock.advance(20)
        assert (await service.start_vs_bot(HERE, ALICE)).is_active
    finally:
        await service.close()


async def test_a_game_played_out_frees_its_player_from_the_start_cooldown(
    database_url: str, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    service = make_service(database_url, ServiceSettings(start_cooldown_seconds=30), clock, executor)
    try:
        game = await service.start_vs_bot(HERE, ALICE)
        while game.is_live:
            game = await service.move(HERE, ALICE, game.legal_moves[0])
        assert game.result is not None
        again = await service.start_vs_bot(HERE, ALICE)
        assert again.is_active and again.id != game.id
        await service.cancel(HERE, ALICE)
        with pytest.raises(refusals.Cooldown):
            await service.start_vs_bot(HERE, ALICE)
    finally:
        await service.close()


async def test_resigning_before_both_sides_moved_does_not_lift_the_start_cooldown(
    database_url: str, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    service = make_service(database_url, ServiceSettings(start_cooldown_seconds=30), clock, executor)
    try:
        game = await service.start_vs_bot(HERE, ALICE)
        assert game.ply == 0
        assert (await service.resign(HERE, ALICE)).result is not None
        with pytest.raises(refusals.Cooldown):
            await service.start_vs_bot(HERE, ALICE)
        clock.advance(30)
        assert (await service.start_vs_bot(HERE, ALICE)).is_active
    finally:
        await service.close()
