"""Playing: a human's move, and the bot's reply.

When a table answers the position (every 3x3 game, the 4x4 opening), the bot's
reply is looked up and stored in the same transaction as the human's move.
Otherwise the engine searches in a process pool (:class:`EnginePool`), outside any
transaction: the bot's reply is computed from the position the service saw and stored
only if no move was played since.

The bot's turn has a deadline, as a person's has. A reply that failed (a worker died, a
search raised) is tried again soon after; one whose deadline passed for any other reason
(the process stopped while searching) is tried again by the deadline sweep. After
``bot_turn_attempts`` failures in a row the game is cancelled, without a result.

The board is parsed once per request and travels parsed: from the rules' check to
the move, to the reply and to the view.
"""

from __future__ import annotations

import functools
import logging
from collections import Counter
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.db import GameRecord, Repository
from bot.engine import Board, Level, Status
from bot.services import metrics, refusals, rules
from bot.services.core import NAME_LENGTH, ServiceCore
from bot.services.endings import end, finishing
from bot.services.rating_updates import apply_ratings
from bot.services.results import Actor, GameView, Place
from bot.states import EndReason, GameResult, GameStatus, Moved, Rescheduled

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A position where the bot is to move."""

    game_id: int
    seed: int
    level: Level
    board: Board

    def stands_in(self, game: GameRecord) -> bool:
        """Whether ``game`` still stands at this position: running, and no move played since (a new
        deadline for the bot's turn changes nothing)."""
        return game.status is GameStatus.ACTIVE and game.ply == self.board.ply


def bot_seed(game_seed: int, ply: int) -> int:
    """The engine's seed for the bot's move at ``ply`` (replays choose alike)."""
    return (game_seed + ply) % (1 << 62)


class Moves:
    """Moves by people and by the bot."""

    def __init__(self, core: ServiceCore) -> None:
        self._core = core
        self._replying: set[int] = set()
        """The games whose bot move this process is making right now."""
        self._failures: Counter[int] = Counter()
        """Failed attempts at the bot's move in a row, by game."""

    async def move(
        self, place: Place, user: Actor, cell: str | int, game_id: int | None, expected_ply: int | None
    ) -> GameView:
        """A human's move. A button's (``game_id`` given) is first decided on this process's
        cached copy of the game, with no read from the database; a refusal is decided again on
        a fresh read, since another process may have changed the game since this one saw it."""
        if game_id is None:
            return await self._move(place, user, cell, None, expected_ply, cached=False)
        return await self._core.cached_first(
            lambda cached: self._move(place, user, cell, game_id, expected_ply, cached=cached)
        )

    async def _move(
        self,
        place: Place,
        user: Actor,
        cell: str | int,
        game_id: int | None,
        expected_ply: int | None,
        *,
        cached: bool,
    ) -> GameView:
        core = self._core
        now = core.clock()
        async with core.write() as repo:
            game = await core.game_here(repo, place, game_id, cached=cached)
            names = await core.names(repo, game)
            board = rules.check_turn(game, user.user_id, expected_ply, names)
            index = rules.cell_index(cell, board)
            game, after = await self.play(repo, game, board, index, user.user_id, now)
            await core.save_players(repo, now, user, known=names)
            view = await core.view(
                repo, game, after, {**names, user.user_id: user.display_name[:NAME_LENGTH]}
            )
            turn = self.bot_turn(game, view, after)
        return await self.after_human_turn(view, turn)

    async def play(
        self,
        repo: Repository,
        game: GameRecord,
        board: Board,
        cell: int,
        player_id: int | None,
        now: datetime,
    ) -> tuple[GameRecord, Board]:
        """Store a move and, when a table answers it, the bot's reply: one compare-and-set, one insert.

        Ends the game if it is decided; returns the game and its board as they then stand. A reply that
        needs a search is left to :meth:`reply`, after the commit (see :meth:`after_human_turn`).
        """
        plays = [(board, cell, player_id)]
        after = board.play(cell)
        reply = self.reply_at_once(game, after)
        if reply is not None:
            plays.append((after, reply, None))
            after = after.play(reply)
        ending = None
        deadline = None
        if after.status is Status.ONGOING:
            deadline = await self._core.turn_deadline(
                repo, game.guild_id, rules.player_of(game, after.turn), now
            )
        else:
            winner = after.winner
            result = GameResult.DRAW if winner is None else rules.RESULT_OF_WINNER[winner]
            reason = EndReason.FULL if winner is None else EndReason.LINE
            ending = await finishing(repo, game, result, reason, now, after.ply, self._core.settings.ratings)
        stored = [(before.ply, move, before.turn.value, who) for before, move, who in plays]
        game = await repo.apply(
            game, Moved(after.compact, after.ply, plays[-1][1], deadline, now, ending), stored
        )
        if ending is not None:
            await apply_ratings(repo, game, now, self._core.settings.ratings)
            self._core.after_commit(functools.partial(metrics.game_finished, game.size, game.level))
        return game, after

    def reply_at_once(self, game: GameRecord, board: Board) -> int | None:
        """The bot's move on ``board`` if the bot is on turn there and a table answers it, else None."""
        if game.level is None or board.is_over or rules.player_of(game, board.turn) is not None:
            return None
        try:
            return self._core.engine.move_at_once(board, Level(game.level), bot_seed(game.seed, board.ply))
        except Exception:
            log.exception("The engine failed on game %s; its move is left to the pool", game.id)
            return None

    @staticmethod
    def bot_turn(game: GameRecord, view: GameView, board: Board) -> BotTurn | None:
        """The bot's turn in ``game`` as ``view`` shows it, or None when a person is to move."""
        if not view.bot_to_move or view.level is None:
            return None
        return BotTurn(game.id, game.seed, view.level, board)

    async def after_human_turn(self, view: GameView, turn: BotTurn | None) -> GameView:
        """Make the bot's reply if it is on turn; if the engine fails, it is tried again later."""
        if turn is None:
            return view
        return await self._attempt(turn, view)

    async def play_bot_turn(self, game_id: int) -> GameView:
        """Make the bot's move in game ``game_id`` if it is on turn."""
        core = self._core
        async with core.read() as repo:
            game = await core.game_by_id(repo, game_id)
            board = Board.parse(game.board)
            seen = await core.view(repo, game, board)
            turn = self.bot_turn(game, seen, board)
        if turn is None:
            return seen
        return await self._attempt(turn, seen)

    async def _attempt(self, turn: BotTurn, seen: GameView) -> GameView:
        """Make the bot's move in ``turn`` (``seen`` shows it); a failure is counted (:meth:`_failed`)."""
        game_id = turn.game_id
        if game_id in self._replying:
            return seen
        self._replying.add(game_id)
        try:
            moved = await self.reply(turn)
        except refusals.NotDone:
            raise
        except Exception as error:
            return await self._failed(turn, error)
        finally:
            self._replying.discard(game_id)
        self._failures.pop(game_id, None)
        return moved

    async def _failed(self, turn: BotTurn, error: Exception) -> GameView:
        """The bot's move in ``turn`` failed: try it again in a moment, or after too many failures
        in a row, cancel the game (it has no result and does not count)."""
        core = self._core
        game_id = turn.game_id
        self._failures[game_id] += 1
        failures = self._failures[game_id]
        if isinstance(error, BrokenProcessPool):
            log.warning("Game %s: an engine worker died during my move (failure %d)", game_id, failures)
        else:
            log.error("Game %s: the engine failed on my move (failure %d)", game_id, failures, exc_info=error)
        now = core.clock()
        try:
            async with core.write() as repo:
                game = await core.game_by_id(repo, game_id)
                if not turn.stands_in(game):
                    self._failures.pop(game_id, None)
                elif failures >= core.settings.bot_turn_attempts:
                    self._failures.pop(game_id, None)
                    log.warning(
                        "Game %s: cancelled, as the engine failed %d times in a row", game_id, failures
                    )
                    game = await end(core, repo, game, GameStatus.CANCELLED, None, EndReason.TIMEOUT, now)
                else:
                    retry = now + timedelta(seconds=core.settings.bot_retry_seconds)
                    game = await repo.apply(game, Rescheduled(retry, now))
                return await core.view(repo, game)
        except refusals.StaleBoard:
            return await self._fresh_view(game_id)

    async def retry_overdue(self, game_ids: Sequence[int]) -> list[GameView]:
        """Make the bot's moves whose turn ran out (see :meth:`Endings.sweep`); return the games
        that changed: the bot moved, or the game was cancelled after too many failures."""
        changed = []
        for game_id in game_ids:
            try:
                view = await self._retry(game_id)
            except refusals.NotDone:
                continue
            if view is not None and not view.bot_to_move:
                changed.append(view)
        return changed

    async def _retry(self, game_id: int) -> GameView | None:
        """Give the bot's turn in game ``game_id`` a new deadline and make its move, if the turn ran
        out and this process is not making that move already."""
        core = self._core
        now = core.clock()
        async with core.write() as repo:
            game = await repo.game(game_id)
            if game is None or game.deadline is None or game.deadline > now or not rules.bot_on_turn(game):
                return None
            board = Board.parse(game.board)
            game = await repo.apply(
                game, Rescheduled(now + timedelta(seconds=core.settings.bot_turn_seconds), now)
            )
            view = await core.view(repo, game, board)
        turn = self.bot_turn(game, view, board)
        if turn is None or game_id in self._replying:
            return None
        log.info("Game %s: my move is overdue; making it again", game_id)
        return await self._attempt(turn, view)

    async def _fresh_view(self, game_id: int) -> GameView:
        async with self._core.read() as repo:
            return await self._core.view(repo, await self._core.game_by_id(repo, game_id))

    async def reply(self, turn: BotTurn) -> GameView:
        """Search the bot's move in ``turn`` and store it if the game still stands there."""
        core = self._core
        board = turn.board
        cell = await core.engine.choose_move(board, turn.level, bot_seed(turn.seed, board.ply))
        now = core.clock()
        try:
            async with core.write() as repo:
                current = await core.game_by_id(repo, turn.game_id)
                if not turn.stands_in(current):
                    return await core.view(repo, current)
                current, after = await self.play(repo, current, board, cell, None, now)
                return await core.view(repo, current, after)
        except refusals.StaleBoard:  # the game changed since it was read: show what won
            return await self._fresh_view(turn.game_id)

    async def resume_bot_turns(self) -> list[GameView]:
        """Make the bot's moves left pending (by a restart) in the games of this process's shards;
        return the games in which the bot moved (a move under way elsewhere in this process, or one
        that failed and waits for its retry, is shown by whoever makes it)."""
        shards = self._core.settings.shards
        async with self._core.read() as repo:
            owned = None if shards is None else (shards.count, shards.ids)
            waiting = [game.id for game in await repo.games_awaiting_bot(shards=owned)]
        views = []
        for game_id in waiting:
            try:
                view = await self.play_bot_turn(game_id)
            except refusals.NotDone:
                continue
            if not view.bot_to_move:
                views.append(view)
        return views
