"""Turn timeouts from stored deadlines: the player who did not move loses, also after a restart."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from bot.services import EndReason, First, GameResult, GameService, GameStatus, ServiceSettings
from tests.services.helpers import ALICE, BOB, HERE, THERE, ManualClock, make_service


async def test_player_on_turn_loses_on_time(service: GameService, clock: ManualClock) -> None:
    await service.challenge(HERE, ALICE, BOB)
    await service.accept(HERE, BOB)
    await service.move(HERE, ALICE, "b2")
    clock.advance(599)
    assert await service.sweep() == []
    await service.move(HERE, BOB, "a1")  # Bob moves in time; now Alice's clock runs
    clock.advance(599)
    assert await service.sweep() == []
    clock.advance(1)
    [ended] = await service.sweep()
    assert ended.status is GameStatus.FINISHED and ended.end_reason is EndReason.TIMEOUT
    assert (
        ended.result is GameResult.O_WON and ended.winner is not None and ended.winner.user_id == BOB.user_id
    )
    assert ended.rated


async def test_timeout_against_the_bot_is_a_bot_win(service: GameService, clock: ManualClock) -> None:
    game = await service.start_vs_bot(HERE, ALICE, first=First.OPPONENT)
    clock.advance(601)
    [ended] = await service.sweep()
    assert ended.id == game.id and ended.winner is not None and ended.winner.is_bot
    assert not ended.rated


async def test_sweep_works_from_stored_deadlines_after_a_restart(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    before = make_service(database_url, settings, clock, executor)
    game = await before.challenge(HERE, ALICE, BOB)
    await before.accept(HERE, BOB)
    await before.start_vs_bot(THERE, ALICE)
    await before.close()

    clock.advance(3600)
    after = make_service(database_url, settings, clock, executor)
    try:
        ended = {view.channel_id: view for view in await after.sweep()}
        assert set(ended) == {HERE.channel_id, THERE.channel_id}
        assert ended[HERE.channel_id].id == game.id
        assert ended[HERE.channel_id].result is GameResult.O_WON  # X (Alice) never moved
        assert not ended[HERE.channel_id].rated  # ended before both had moved
        assert ended[THERE.channel_id].winner is not None and ended[THERE.channel_id].winner.is_bot
    finally:
        await after.close()


async def test_after_the_bots_reply_the_deadline_is_the_players(service: GameService) -> None:
    game = await service.start_vs_bot(HERE, ALICE)
    assert game.deadline is not None
    assert await service.next_deadline() == game.deadline
