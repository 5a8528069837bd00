"""Ending games: resignation, cancel, and the deadlines that end turns and challenges.

Deadlines are kept by :meth:`Endings.sweep`, which the adapter calls every few
seconds: a move or an answer that arrives after its deadline but before the next
sweep still counts.
"""

from __future__ import annotations

import functools
from datetime import datetime

from bot.db import GameRecord, Repository
from bot.engine import Board
from bot.services import metrics, refusals, rules
from bot.services.core import ServiceCore
from bot.services.rating_updates import apply_ratings, rating_weight
from bot.services.ratings import RatingRules
from bot.services.results import Actor, GameView, Place
from bot.states import Ended, Ending, EndReason, GameResult, GameStatus


async def finishing(
    repo: Repository,
    game: GameRecord,
    result: GameResult,
    reason: EndReason,
    now: datetime,
    plies: int,
    ratings: RatingRules,
) -> Ending:
    """The ending of ``game`` with ``result`` after ``plies`` plies, weighed for the ratings."""
    weight = await rating_weight(repo, game, reason, now, plies, ratings)
    return Ending(GameStatus.FINISHED, reason, result, weight)


async def end(
    core: ServiceCore,
    repo: Repository,
    game: GameRecord,
    status: GameStatus,
    result: GameResult | None,
    reason: EndReason,
    now: datetime,
) -> GameRecord:
    """End a game other than by a move (resignation, timeout, cancel, decline, expiry); the game as ended."""
    ratings = core.settings.ratings
    if status is GameStatus.FINISHED:
        assert result is not None
        ending = await finishing(repo, game, result, reason, now, game.ply, ratings)
    else:
        ending = Ending(status, reason)
    game = await repo.apply(game, Ended(ending, now))
    if ending.status is GameStatus.FINISHED:
        await apply_ratings(repo, game, now, ratings)
        core.after_commit(functools.partial(metrics.game_finished, game.size, game.level))
    return game


class Endings:
    """Resign, cancel and the deadline sweep."""

    def __init__(self, core: ServiceCore) -> None:
        self._core = core

    async def resign(self, place: Place, user: Actor, game_id: int | None) -> GameView:
        """``user`` resigns the game here: the opponent wins."""
        core = self._core
        now = core.clock()
        async with core.write() as repo:
            game = await core.game_here(repo, place, game_id)
            mine = rules.mark_of(game, user.user_id)
            if mine is None:
                raise refusals.NotAPlayer()
            if game.status is GameStatus.PENDING:
                raise refusals.ResignBeforeStart()
            if game.status is not GameStatus.ACTIVE:
                raise refusals.GameOver()
            winner = rules.RESULT_OF_WINNER[mine.other]
            game = await end(core, repo, game, GameStatus.FINISHED, winner, EndReason.RESIGN, now)
            await core.save_players(repo, now, user)
            return await core.view(repo, game)

    async def cancel(self, place: Place, user: Actor, is_moderator: bool, game_id: int | None) -> GameView:
        """End the game here without a result (by one of its players, or a moderator)."""
        core = self._core
        now = core.clock()
        async with core.write() as repo:
            game = await core.game_here(repo, place, game_id)
            if not game.status.is_live:
                raise refusals.AlreadyOver()
            if not is_moderator:
                if rules.mark_of(game, user.user_id) is None:
                    raise refusals.NotAllowed()
                if game.arena_id is not None:
                    raise refusals.ArenaGameCancel()
            game = await end(core, repo, game, GameStatus.CANCELLED, None, EndReason.CANCEL, now)
            return await core.view(repo, game)

    async def sweep(self) -> tuple[list[GameView], list[int]]:
        """End every game whose deadline passed: a challenge expires, a player out of time loses.

        Returns the ended games, and the games of this process's shards whose bot turn ran out (for
        their move to be made again, see :meth:`Moves.retry_overdue`); another shard's process makes
        the moves in its own guilds.
        """
        core = self._core
        now = core.clock()
        async with core.read() as repo:
            due = await repo.due_games(now)
        bot_turns = {game.id for game in due if rules.bot_on_turn(game)}
        shards = core.settings.shards
        overdue_bot_turns = [
            game.id
            for game in due
            if game.id in bot_turns and (shards is None or shards.serve(game.guild_id))
        ]
        ended = []
        for game_id in (game.id for game in due if game.id not in bot_turns):
            try:
                async with core.write() as repo:
                    game = await repo.game(game_id)
                    if (
                        game is None
                        or not game.status.is_live
                        or game.deadline is None
                        or game.deadline > now
                        or rules.bot_on_turn(game)
                    ):
                        continue
                    board = Board.parse(game.board)
                    if game.status is GameStatus.PENDING:
                        game = await end(core, repo, game, GameStatus.EXPIRED, None, EndReason.TIMEOUT, now)
                    else:
                        winner = rules.RESULT_OF_WINNER[board.turn.other]
                        game = await end(
                            core, repo, game, GameStatus.FINISHED, winner, EndReason.TIMEOUT, now
                        )
                    view = await core.view(repo, game, board)
            except refusals.StaleBoard:
                continue
            ended.append(view)
        return ended, overdue_bot_turns

    async def next_deadline(self) -> datetime | None:
        """The earliest deadline of a live game, if any."""
        async with self._core.read() as repo:
            return await repo.next_deadline()
