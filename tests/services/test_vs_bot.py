"""Games against the bot, played through the service to the end."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.engine import Board, Level, Mark
from bot.services import EndReason, First, GameResult, GameService, GameStatus, GameView
from tests.services.helpers import ALICE, HERE, ManualClock

Policy = Callable[[GameView], int]

POLICIES: dict[str, Policy] = {
    "lowest": lambda view: view.legal_moves[0],
    "highest": lambda view: view.legal_moves[-1],
    "centre_then_lowest": lambda view: 4 if 4 in view.legal_moves else view.legal_moves[0],
    "corners": lambda view: next((c for c in (0, 8, 2, 6) if c in view.legal_moves), view.legal_moves[0]),
}


async def play_out(service: GameService, view: GameView, policy: Policy) -> GameView:
    while view.is_active:
        assert view.to_move is not None and view.to_move.user_id == ALICE.user_id
        view = await service.move(HERE, ALICE, policy(view), game_id=view.id, expected_ply=view.ply)
    return view


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("first", [First.ME, First.OPPONENT])
async def test_perfect_bot_never_loses(service: GameService, policy: str, first: First) -> None:
    view = await service.start_vs_bot(HERE, ALICE, level=Level.PERFECT, first=first)
    human = Mark.X if first is First.ME else Mark.O
    assert view.player(ALICE.user_id) is not None
    assert view.player(ALICE.user_id).mark is human  # type: ignore[union-attr]
    final = await play_out(service, view, POLICIES[policy])

    assert final.status is GameStatus.FINISHED
    human_won = GameResult.X_WON if human is Mark.X else GameResult.O_WON
    assert final.result is not None and final.result is not human_won
    assert final.end_reason is (EndReason.FULL if final.result is GameResult.DRAW else EndReason.LINE)
    assert not final.legal_moves and final.turn is None and final.deadline is None
    history = await service.history(final.id)
    board = Board.empty(3)
    for ply, move in enumerate(history.moves):
        assert move.ply == ply and move.mark is board.turn
        assert (move.user_id is None) == (move.mark is not human)
        board = board.play(move.cell)
    assert board.text == final.board and board.ply == final.ply


async def test_bot_opens_when_it_plays_x(service: GameService, clock: ManualClock) -> None:
    view = await service.start_vs_bot(HERE, ALICE, level=Level.EASY, first=First.OPPONENT)
    assert view.x.is_bot and view.o.user_id == ALICE.user_id
    assert view.ply == 1 and view.turn is Mark.O and view.last_cell is not None
    assert view.level is Level.EASY and view.is_active and not view.rated
    assert view.deadline is not None and (view.deadline - clock.now).total_seconds() == 600


async def test_bot_replies_in_the_same_call(service: GameService) -> None:
    view = await service.start_vs_bot(HERE, ALICE, level=Level.EASY)
    assert view.ply == 0 and view.to_move is not None and view.to_move.user_id == ALICE.user_id
    after = await service.move(HERE, ALICE, "a1")
    assert after.ply == 2 and after.cells[0] is Mark.X and after.cells[after.last_cell or 0] is Mark.O
    assert after.turn is Mark.X and not after.bot_to_move


async def test_board_shows_the_channel_game(service: GameService) -> None:
    started = await service.start_vs_bot(HERE, ALICE, size=3)
    await service.move(HERE, ALICE, "b2")
    shown = await service.board(HERE)
    assert shown.id == started.id and shown.ply == 2 and shown.cells[4] is Mark.X
    assert shown.x.display_name == "Alice" and shown.o.display_name == service.settings.bot_name


async def test_hint_values_every_empty_cell_for_the_player_on_turn(service: GameService) -> None:
    await service.start_vs_bot(HERE, ALICE)
    hint = await service.hint(HERE, ALICE)
    assert [verdict.cell for verdict in hint.moves] == list(range(9))
    assert hint.exact and hint.value.value == "draw" and hint.plies == 9
    assert {verdict.name for verdict in hint.moves} >= {"a1", "b2", "c3"}
    assert set(hint.best) == {verdict.cell for verdict in hint.moves if verdict.value.value == "draw"}


async def test_resign_against_the_bot_gives_it_the_win(service: GameService) -> None:
    view = await service.start_vs_bot(HERE, ALICE, level=Level.MEDIUM)
    ended = await service.resign(HERE, ALICE)
    assert ended.id == view.id and ended.status is GameStatus.FINISHED
    assert ended.end_reason is EndReason.RESIGN and ended.winner is not None and ended.winner.is_bot
    stats = await service.stats(ALICE.user_id, HERE.guild_id)
    medium = next(entry.record for entry in stats.vs_bot if entry.level is Level.MEDIUM)
    assert (medium.wins, medium.losses, medium.draws) == (0, 1, 0)
    assert stats.server_rating is None and stats.global_rating is None


async def test_rematch_against_the_bot_swaps_marks(service: GameService) -> None:
    first = await service.start_vs_bot(HERE, ALICE, level=Level.HARD)
    await service.resign(HERE, ALICE)
    second = await service.rematch(HERE, ALICE, first.id)
    assert second.id != first.id and second.level is Level.HARD
    assert second.o.user_id == ALICE.user_id and second.x.is_bot and second.ply == 1


async def test_random_first_gives_both_marks(service: GameService) -> None:
    marks = set()
    for _ in range(12):
        game = await service.start_vs_bot(HERE, ALICE, level=Level.EASY, first=First.RANDOM)
        side = game.player(ALICE.user_id)
        assert side is not None
        marks.add(side.mark)
        await service.cancel(HERE, ALICE)
    assert marks == {Mark.X, Mark.O}
