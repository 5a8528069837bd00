"""Looking back at games that are over: reviews, replays, game lists and rating charts."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.db import GLOBAL_SCOPE, GameRecord, Repository
from bot.engine import Board
from bot.pictures import (
    GLOBAL_COLOUR,
    SERVER_COLOUR,
    RatingPoint,
    RatingSeries,
    render_rating_chart,
    render_replay,
)
from bot.services import refusals
from bot.services.core import ServiceCore
from bot.services.looking_back import check_visible, replay_moves, visible_from
from bot.services.picture_pool import PicturePool
from bot.services.queries import history_of
from bot.services.results import FinishedGames, GameHistory, GameReview, Place, RatingChart, Replay
from bot.services.review import ReviewCache, review_from_store, review_moves, stored_moves

log = logging.getLogger(__name__)

_LOOK_BACK_SCAN = 50
"""How many of a player's latest games are read to find those visible from where they ask."""


def _ready(review: GameReview) -> Callable[[], Awaitable[GameReview]]:
    async def ready() -> GameReview:
        return review

    return ready


class Reviewing:
    """Reviews (computed once per game), replays and charts (drawn by the pictures worker)."""

    def __init__(self, core: ServiceCore, pictures: PicturePool) -> None:
        self._core = core
        self._pictures = pictures
        self._reviews = ReviewCache()

    async def _finished_game(
        self, repo: Repository, place: Place | None, user_id: int | None, game_id: int | None
    ) -> GameRecord:
        """``game_id`` if the asker may look at it, else the asker's latest finished game visible here.

        From a place, a game still going on is refused (a review would coach it);
        the terminal, which owns its database, may look at any game.
        """
        if game_id is None:
            if user_id is not None and place is not None:
                for game in await repo.latest_finished_games(user_id, place.guild_id, _LOOK_BACK_SCAN):
                    if visible_from(game, place, user_id):
                        return game
            raise refusals.NoFinishedGame()
        found = await repo.game(game_id)
        if found is None:
            raise refusals.NoGameNumbered(game_id)
        check_visible(found, place, user_id)
        if found.status.is_live and place is not None:
            raise refusals.StillPlaying(game_id)
        return found

    async def review(self, game_id: int | None, place: Place | None, user_id: int | None) -> GameReview:
        """Every move of a finished game judged by the engine (the latest here when ``game_id`` is None)."""
        core = self._core
        async with core.read() as repo:
            game = await self._finished_game(repo, place, user_id, game_id)
            history = await history_of(core, repo, game)
            if not history.moves:
                raise refusals.NothingToReview(game.id)
            stored = None if game.status.is_live else await repo.stored_review(game.id)
        budget = core.settings.review_budget_ms
        if history.game.is_live:
            return await review_moves(core.engine, history, budget)
        if stored is not None:
            return await self._reviews.get(game.id, _ready(review_from_store(history, stored)))
        return await self._reviews.get(game.id, lambda: self._compute_and_store(history))

    async def _compute_and_store(self, history: GameHistory) -> GameReview:
        """Review a game that is over and keep the review; one that cannot be kept is still shown."""
        core = self._core
        review = await review_moves(core.engine, history, core.settings.review_budget_ms)
        try:
            async with core.write() as repo:
                await repo.store_review(history.game.id, stored_moves(review), core.clock())
        except refusals.Unavailable:
            log.warning("Could not keep the review of game %s; it will be computed again", history.game.id)
        return review

    async def replay(self, game_id: int | None, place: Place | None, user_id: int | None) -> Replay:
        """A finished game's moves for its replay picture (the latest here when ``game_id`` is None)."""
        core = self._core
        async with core.read() as repo:
            history = await history_of(core, repo, await self._finished_game(repo, place, user_id, game_id))
        game = history.game
        if not history.moves:
            raise refusals.NothingToReplay(game.id)
        winner = game.winner
        gif = await self._pictures.draw(
            render_replay,
            game.size,
            replay_moves(history),
            Board.parse(game.board).winning_lines,
            None if winner is None else winner.mark.value,
        )
        return Replay(history, gif)

    async def finished_games(self, place: Place, asker_id: int, user_id: int) -> FinishedGames:
        """A player's finished games that ``asker_id`` may look at from ``place``."""
        core = self._core
        async with core.read() as repo:
            latest = await repo.latest_finished_games(user_id, place.guild_id, _LOOK_BACK_SCAN)
            shown = [game for game in latest if visible_from(game, place, asker_id)]
            shown = shown[: core.settings.history_size]
            views = [await core.view(repo, game) for game in shown]
        return FinishedGames(user_id, tuple(views))

    async def rating_chart(self, user_id: int, guild_id: int | None) -> RatingChart | None:
        """A player's ratings over time, or None before any rated game."""
        async with self._core.read() as repo:
            world = await repo.rating_changes(user_id, GLOBAL_SCOPE)
            server = [] if guild_id is None else await repo.rating_changes(user_id, guild_id)
        if not world and not server:
            return None
        series = [
            RatingSeries(colour, tuple(RatingPoint(change.played_at, change.rating) for change in changes))
            for colour, changes in ((SERVER_COLOUR, server), (GLOBAL_COLOUR, world))
            if changes
        ]
        png = await self._pictures.draw(render_rating_chart, series)
        return RatingChart(png, server_games=len(server), global_games=len(world))
