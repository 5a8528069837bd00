"""The post-game review: the perfect engine's verdict on every move of a stored game.

A review is asked for many times and a game is finished once, so each finished
game's review is computed once, kept in the store (:func:`stored_moves`), and the
recent ones also in memory (:class:`ReviewCache`). The positions are
analysed one at a time through the :class:`EnginePool`: table-answered positions
(3x3, the 4x4 opening) inline, deeper ones in the pool, so a long 5x5 review
never holds the pool for more than one position and bot moves interleave with it.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from bot.engine import Board, Mark, Outcome, format_cell
from bot.services.engine_pool import EnginePool
from bot.services.results import GameHistory, GameReview, GameView, MoveReview, Verdict

MIN_POSITION_BUDGET_MS = 100
"""The least search time a position of a big board gets, however long the game."""


def position_budget(total_ms: int, positions: int) -> int:
    """Each position's share of a review's time budget (which only 5x5 searches use up)."""
    return max(MIN_POSITION_BUDGET_MS, total_ms // max(1, positions))


async def review_moves(engine: EnginePool, history: GameHistory, budget_ms: int) -> GameReview:
    """Analyse the position before each move of ``history`` and judge the move played there."""
    game = history.game
    board = Board.empty(game.size)
    per_position = position_budget(budget_ms, len(history.moves))
    reviewed: list[MoveReview] = []
    for move in history.moves:
        analysis = await engine.analyze(board, per_position)
        played = analysis.verdict(move.cell)
        if analysis.value is None or analysis.plies is None or played is None:
            raise ValueError(f"game {game.id}: move {move.ply} ({move.name}) does not fit the stored board")
        reviewed.append(
            _move_review(
                game,
                move.ply,
                move.cell,
                move.mark,
                Verdict(analysis.value, analysis.plies),
                Verdict(played.value, played.plies),
                analysis.best,
                analysis.exact,
            )
        )
        board = board.play(move.cell)
    return GameReview(game, tuple(reviewed))


def _move_review(
    game: GameView,
    ply: int,
    cell: int,
    mark: Mark,
    before: Verdict,
    after: Verdict,
    best: tuple[int, ...],
    exact: bool,
) -> MoveReview:
    return MoveReview(
        ply=ply,
        cell=cell,
        name=format_cell(cell, game.size),
        mark=mark,
        player=game.x if mark is game.x.mark else game.o,
        before=before,
        after=after,
        best=best,
        best_names=tuple(format_cell(best_cell, game.size) for best_cell in best),
        exact=exact,
    )


def move_record(move: MoveReview) -> dict[str, Any]:
    """One move's verdict as ``review --json`` writes it, without the game id, keys in documented order."""
    return {
        "ply": move.ply,
        "cell": move.cell,
        "name": move.name,
        "mark": move.mark.value,
        "exact": move.exact,
        "before": {"value": move.before.value.value, "plies": move.before.plies},
        "after": {"value": move.after.value.value, "plies": move.after.plies},
        "mistake": move.mistake,
        "best": list(move.best),
    }


def stored_moves(review: GameReview) -> str:
    """A review's verdicts as kept in the store: one :func:`move_record` per move, as a JSON list."""
    return json.dumps([move_record(move) for move in review.moves])


def _verdict(stored: dict[str, Any]) -> Verdict:
    return Verdict(Outcome(stored["value"]), int(stored["plies"]))


def review_from_store(history: GameHistory, moves: str) -> GameReview:
    """The review of ``history``'s game from the verdicts kept in the store."""
    game = history.game
    reviewed = []
    for stored in json.loads(moves):
        reviewed.append(
            _move_review(
                game,
                int(stored["ply"]),
                int(stored["cell"]),
                Mark(stored["mark"]),
                _verdict(stored["before"]),
                _verdict(stored["after"]),
                tuple(int(cell) for cell in stored["best"]),
                bool(stored["exact"]),
            )
        )
    return GameReview(game, tuple(reviewed))


class ReviewCache:
    """Reviews of games that are over, by game id: each computed once, the most recent kept.

    Requests for a review still being computed wait for that computation rather
    than starting another.
    """

    def __init__(self, capacity: int = 2048) -> None:
        self.capacity = capacity
        self._done: OrderedDict[int, GameReview] = OrderedDict()
        self._running: dict[int, asyncio.Future[GameReview]] = {}

    def __len__(self) -> int:
        return len(self._done)

    async def get(self, game_id: int, compute: Callable[[], Awaitable[GameReview]]) -> GameReview:
        """The review of game ``game_id``: cached, awaited if being computed, else ``compute()``."""
        done = self._done.get(game_id)
        if done is not None:
            self._done.move_to_end(game_id)
            return done
        running = self._running.get(game_id)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[GameReview] = asyncio.get_running_loop().create_future()
        self._running[game_id] = future
        try:
            review = await compute()
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved here, so a future nobody else awaited logs nothing
            raise
        finally:
            del self._running[game_id]
        future.set_result(review)
        self._done[game_id] = review
        if len(self._done) > self.capacity:
            self._done.popitem(last=False)
        return review
