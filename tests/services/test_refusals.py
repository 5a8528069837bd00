"""Everything a user can get wrong is refused with a friendly sentence and changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.errors import GameError
from bot.services import Actor, First, GameService, GameView, ServiceSettings
from tests.services.helpers import (
    ALICE,
    BOB,
    CAROL,
    ELSEWHERE,
    HERE,
    THERE,
    ManualClock,
    make_service,
    snapshot,
)

Attempt = Callable[[GameService, GameView], Awaitable[object]]


async def challenge_game(service: GameService) -> GameView:
    """A game between Alice (X) and Bob (O) in HERE, Alice has played b2; Bob is to move."""
    await service.challenge(HERE, ALICE, BOB, first=First.ME)
    await service.accept(HERE, BOB)
    return await service.move(HERE, ALICE, "b2")


REFUSALS: dict[str, tuple[str, Attempt]] = {
    "not your turn": ("not_your_turn", lambda s, g: s.move(HERE, ALICE, "a1")),
    "cell taken": ("cell_taken", lambda s, g: s.move(HERE, BOB, "b2")),
    "cell taken by index": ("cell_taken", lambda s, g: s.move(HERE, BOB, 4)),
    "cell name off the board": ("bad_cell", lambda s, g: s.move(HERE, BOB, "d4")),
    "cell number off the board": ("bad_cell", lambda s, g: s.move(HERE, BOB, "10")),
    "cell index off the board": ("bad_cell", lambda s, g: s.move(HERE, BOB, 9)),
    "negative cell index": ("bad_cell", lambda s, g: s.move(HERE, BOB, -1)),
    "nonsense cell": ("bad_cell", lambda s, g: s.move(HERE, BOB, "💣" * 500)),
    "empty cell": ("bad_cell", lambda s, g: s.move(HERE, BOB, "   ")),
    "not a player moves": ("not_a_player", lambda s, g: s.move(HERE, CAROL, "a1")),
    "stale board": ("stale", lambda s, g: s.move(HERE, BOB, "a1", game_id=g.id, expected_ply=0)),
    "future ply": ("stale", lambda s, g: s.move(HERE, BOB, "a1", game_id=g.id, expected_ply=7)),
    "no game in that channel": ("no_game", lambda s, g: s.move(THERE, BOB, "a1")),
    "game id from another channel": ("no_game", lambda s, g: s.move(THERE, BOB, "a1", game_id=g.id)),
    "game id from another guild": ("no_game", lambda s, g: s.move(ELSEWHERE, BOB, "a1", game_id=g.id)),
    "unknown game id": ("no_game", lambda s, g: s.move(HERE, BOB, "a1", game_id=g.id + 1000)),
    "start where a game runs": ("channel_busy", lambda s, g: s.start_vs_bot(HERE, CAROL)),
    "challenge where a game runs": ("channel_busy", lambda s, g: s.challenge(HERE, CAROL, ALICE)),
    "challenge yourself": ("self_challenge", lambda s, g: s.challenge(THERE, CAROL, CAROL)),
    "challenge a bot": (
        "bot_challenge",
        lambda s, g: s.challenge(THERE, CAROL, Actor(99, "Robot"), opponent_is_bot=True),
    ),
    "bad size": ("bad_size", lambda s, g: s.start_vs_bot(THERE, CAROL, size=6)),
    "accept a running game": ("not_pending", lambda s, g: s.accept(HERE, BOB)),
    "decline a running game": ("not_pending", lambda s, g: s.decline(HERE, BOB)),
    "resign by a stranger": ("not_a_player", lambda s, g: s.resign(HERE, CAROL)),
    "cancel by a stranger": ("not_allowed", lambda s, g: s.cancel(HERE, CAROL)),
    "rematch of a running game": ("not_finished", lambda s, g: s.rematch(HERE, ALICE, g.id)),
    "hint out of turn": ("not_your_turn", lambda s, g: s.hint(HERE, ALICE)),
    "hint for a stranger": ("not_a_player", lambda s, g: s.hint(HERE, CAROL)),
    "board of an empty channel": ("no_game", lambda s, g: s.board(THERE)),
    "resign in an empty channel": ("no_game", lambda s, g: s.resign(THERE, ALICE)),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
async def test_refusal_changes_nothing(service: GameService, database_url: str, case: str) -> None:
    game = await challenge_game(service)
    before = await snapshot(database_url)
    code, attempt = REFUSALS[case]
    with pytest.raises(GameError) as refused:
        await attempt(service, game)
    assert refused.value.code == code
    message = refused.value.message
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
        with pytest.raises(GameError) as refused:
            await attempt
        assert refused.value.code == "game_over"
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
            with pytest.raises(GameError) as refused:
                await attempt
            assert refused.value.code == "cooldown" and refused.value.retry_after == pytest.approx(20)
            assert "20 seconds" in refused.value.message
        assert await snapshot(database_url) == before
        await service.start_vs_bot(THERE, BOB)  # the cooldown is per user
        clock.advance(20)
        assert (await service.start_vs_bot(HERE, ALICE)).is_active
    finally:
        await service.close()
