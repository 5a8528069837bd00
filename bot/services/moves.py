"""Playing: a human's move, and the bot's reply.

When a table answers the position (every 3x3 game, the 4x4 opening), the bot's
reply is looked up and stored in the same transaction as the human's move.
Otherwise the engine searches in a process pool (:class:`EnginePool`), outside any
transaction: the bot's reply is computed from the state the service saw and stored
only if the game has not changed since.

The board is parsed once per request and travels parsed: from the rules' check to
the move, to the reply and to the view.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from bot.db import Game, Repository
from bot.engine import Board, Level, Status
from bot.services import refusals, rules
from bot.services.core import NAME_LENGTH, ServiceCore
from bot.services.endings import finishing
from bot.services.rating_updates import apply_ratings
from bot.services.results import Actor, GameView, Place
from bot.states import EndReason, GameResult, Moved

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A position where the bot is to move, as the service saw it at ``version``."""

    game_id: int
    version: int
    seed: int
    level: Level
    board: Board


def bot_seed(game_seed: int, ply: int) -> int:
    """The engine's seed for the bot's move at ``ply`` (replays choose alike)."""
    return (game_seed + ply) % (1 << 62)


class Moves:
    """Moves by people and by the bot."""

    def __init__(self, core: ServiceCore) -> None:
        self._core = core

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
            after = await self.play(repo, game, board, index, user.user_id, now)
            await core.save_players(repo, now, user, known=names)
            view = await core.view(
                repo, game, after, {**names, user.user_id: user.display_name[:NAME_LENGTH]}
            )
            turn = self.bot_turn(game, view, after)
        return await self.after_human_turn(view, turn)

    async def play(
        self, repo: Repository, game: Game, board: Board, cell: int, player_id: int | None, now: datetime
    ) -> Board:
        """Store a move and, when a table answers it, the bot's reply: one compare-and-set, one insert.

        Ends the game if it is decided; returns the board as it then stands. A reply that
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
            deadline = self._core.turn_deadline(rules.player_of(game, after.turn), now)
        else:
            winner = after.winner
            result = GameResult.DRAW if winner is None else rules.RESULT_OF_WINNER[winner]
            reason = EndReason.FULL if winner is None else EndReason.LINE
            ending = await finishing(repo, game, result, reason, now, after.ply, self._core.settings.ratings)
        await repo.apply(game, Moved(after.compact, after.ply, plays[-1][1], deadline, now, ending))
        await repo.add_moves(
            game.id, [(before.ply, move, before.turn.value, who) for before, move, who in plays], now
        )
        if ending is not None:
            await apply_ratings(repo, game, now, self._core.settings.ratings)
        return after

    def reply_at_once(self, game: Game, board: Board) -> int | None:
        """The bot's move on ``board`` if the bot is on turn there and a table answers it, else None."""
        if game.level is None or board.is_over or rules.player_of(game, board.turn) is not None:
            return None
        try:
            return self._core.engine.move_at_once(board, Level(game.level), bot_seed(game.seed, board.ply))
        except Exception:
            log.exception("The engine failed on game %s; its move is left to the pool", game.id)
            return None

    @staticmethod
    def bot_turn(game: Game, view: GameView, board: Board) -> BotTurn | None:
        """The bot's turn in ``game`` as ``view`` shows it, or None when a person is to move."""
        if not view.bot_to_move or view.level is None:
            return None
        return BotTurn(game.id, view.version, game.seed, view.level, board)

    async def after_human_turn(self, view: GameView, turn: BotTurn | None) -> GameView:
        """Make the bot's reply if it is on turn; if the engine fails, :meth:`resume_bot_turns` retries."""
        if turn is None:
            return view
        try:
            return await self.reply(turn)
        except refusals.Refusal:
            raise
        except Exception:
            log.exception("The engine failed on game %s; the bot's move is left for a later retry", view.id)
            return view

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
        return await self.reply(turn)

    async def reply(self, turn: BotTurn) -> GameView:
        """Search the bot's move in ``turn`` and store it if the game is still as it was seen."""
        core = self._core
        board = turn.board
        cell = await core.engine.choose_move(board, turn.level, bot_seed(turn.seed, board.ply))
        now = core.clock()
        try:
            async with core.write() as repo:
                current = await core.game_by_id(repo, turn.game_id)
                if current.version != turn.version:
                    return await core.view(repo, current)
                after = await self.play(repo, current, board, cell, None, now)
                return await core.view(repo, current, after)
        except refusals.StaleBoard:  # the game changed since it was read: show what won
            async with core.read() as repo:
                return await core.view(repo, await core.game_by_id(repo, turn.game_id))

    async def resume_bot_turns(self) -> list[GameView]:
        """Make the bot's moves left pending (by a restart) in the games of this process's shards."""
        shards = self._core.settings.shards
        async with self._core.read() as repo:
            owned = None if shards is None else (shards.count, shards.ids)
            waiting = [game.id for game in await repo.games_awaiting_bot(shards=owned)]
        views = []
        for game_id in waiting:
            try:
                views.append(await self.play_bot_turn(game_id))
            except refusals.Refusal:
                continue
        return views
