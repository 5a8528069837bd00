"""Games between two members: challenge, accept or decline, expiry, and play to the end."""

from __future__ import annotations

import pytest

from bot.engine import Mark
from bot.services import Actor, EndReason, First, GameResult, GameService, GameStatus, refusals
from tests.services.helpers import ALICE, BOB, CAROL, HERE, ManualClock


async def test_challenge_accepted_and_played_to_a_win(service: GameService, clock: ManualClock) -> None:
    pending = await service.challenge(HERE, ALICE, BOB, first=First.ME)
    assert pending.status is GameStatus.PENDING and pending.challenger_id == ALICE.user_id
    assert pending.challenged is not None and pending.challenged.user_id == BOB.user_id
    assert pending.x.user_id == ALICE.user_id and pending.o.user_id == BOB.user_id
    assert pending.deadline is not None and (pending.deadline - clock.now).total_seconds() == 120
    assert pending.turn is None and pending.legal_moves == ()

    clock.advance(30)
    game = await service.accept(HERE, BOB, pending.id)
    assert game.status is GameStatus.ACTIVE and game.turn is Mark.X and len(game.legal_moves) == 9
    assert game.deadline is not None and (game.deadline - clock.now).total_seconds() == 600

    # X takes the left column: a1, a2, a3 (O plays b1, b2 in between).
    for user, cell in ((ALICE, "a1"), (BOB, "b1"), (ALICE, "a2"), (BOB, "5"), (ALICE, "a3")):
        clock.advance(5)
        game = await service.move(HERE, user, cell)
    assert game.status is GameStatus.FINISHED and game.result is GameResult.X_WON
    assert game.end_reason is EndReason.LINE and game.winning_cells == (0, 3, 6)
    assert game.winner is not None and game.winner.user_id == ALICE.user_id
    assert game.loser is not None and game.loser.user_id == BOB.user_id
    assert game.rated and game.finished_at == clock.now and game.last_cell == 6


async def test_full_board_is_a_draw(service: GameService) -> None:
    game = await service.challenge(HERE, ALICE, BOB, first=First.OPPONENT)
    assert game.x.user_id == BOB.user_id
    await service.accept(HERE, BOB)
    # X: b2 a1 c2 b3 a3 ... a drawn game: X b2, O a1, X c1, O a3, X a2, O c2, X b3, O b1, X c3
    moves = [(BOB, "b2"), (ALICE, "a1"), (BOB, "c1"), (ALICE, "a3"), (BOB, "a2"), (ALICE, "c2"), (BOB, "b3")]
    moves += [(ALICE, "b1"), (BOB, "c3")]
    for user, cell in moves:
        game = await service.move(HERE, user, cell)
    assert game.status is GameStatus.FINISHED and game.result is GameResult.DRAW
    assert game.end_reason is EndReason.FULL and game.winning_cells == () and game.winner is None


async def test_decline_ends_the_challenge(service: GameService) -> None:
    pending = await service.challenge(HERE, ALICE, BOB)
    with pytest.raises(refusals.NotChallenged) as refused:
        await service.decline(HERE, ALICE, pending.id)
    assert "Bob" in str(refused.value)
    declined = await service.decline(HERE, BOB, pending.id)
    assert declined.status is GameStatus.CANCELLED and declined.end_reason is EndReason.DECLINED
    assert declined.result is None and declined.deadline is None
    with pytest.raises(refusals.NotPending):
        await service.accept(HERE, BOB, pending.id)
    again = await service.challenge(HERE, ALICE, CAROL)
    assert again.is_pending


async def test_only_the_challenged_member_accepts(service: GameService) -> None:
    pending = await service.challenge(HERE, ALICE, BOB)
    for user in (ALICE, CAROL):
        with pytest.raises(refusals.NotChallenged):
            await service.accept(HERE, user, pending.id)
    with pytest.raises(refusals.NotStarted):
        await service.move(HERE, ALICE, "b2")


async def test_challenge_expires_through_the_sweep(service: GameService, clock: ManualClock) -> None:
    pending = await service.challenge(HERE, ALICE, BOB)
    clock.advance(119)
    assert await service.sweep() == []
    assert await service.next_deadline() == pending.deadline
    clock.advance(1)
    [expired] = await service.sweep()
    assert expired.id == pending.id and expired.status is GameStatus.EXPIRED
    assert expired.end_reason is EndReason.TIMEOUT and expired.result is None
    assert await service.sweep() == []
    assert await service.next_deadline() is None
    with pytest.raises(refusals.NotPending):
        await service.accept(HERE, BOB, pending.id)


async def test_rematch_between_members_is_a_new_challenge_with_sides_swapped(service: GameService) -> None:
    first = await service.challenge(HERE, ALICE, BOB)
    await service.accept(HERE, BOB)
    await service.move(HERE, ALICE, "b2")
    await service.resign(HERE, BOB)
    rematch = await service.rematch(HERE, BOB, first.id)
    assert rematch.is_pending and rematch.challenger_id == BOB.user_id
    assert rematch.x.user_id == BOB.user_id and rematch.o.user_id == ALICE.user_id
    assert rematch.challenged is not None and rematch.challenged.user_id == ALICE.user_id
    active = await service.accept(HERE, ALICE)
    assert active.to_move is not None and active.to_move.user_id == BOB.user_id


async def test_cancel_by_a_player_or_a_moderator(service: GameService) -> None:
    await service.challenge(HERE, ALICE, BOB)
    await service.accept(HERE, BOB)
    with pytest.raises(refusals.NotAllowed):
        await service.cancel(HERE, CAROL)
    cancelled = await service.cancel(HERE, CAROL, is_moderator=True)
    assert cancelled.status is GameStatus.CANCELLED and cancelled.end_reason is EndReason.CANCEL
    assert not cancelled.rated and cancelled.result is None
    await service.start_vs_bot(HERE, BOB)
    by_player = await service.cancel(HERE, BOB)
    assert by_player.status is GameStatus.CANCELLED


async def test_a_new_display_name_is_remembered(service: GameService) -> None:
    await service.challenge(HERE, ALICE, BOB)
    await service.accept(HERE, BOB)
    await service.move(HERE, ALICE, "b2")
    renamed = await service.move(HERE, Actor(BOB.user_id, "Bobby"), "a1")
    assert renamed.o.display_name == "Bobby"
    assert (await service.board(HERE)).o.display_name == "Bobby"
    assert (await service.stats(BOB.user_id)).display_name == "Bobby"
