"""Reading: the channel's game, a game by id, hints, a game's moves, leaderboards and stats."""

from __future__ import annotations

from bot.db import GameRecord, Repository
from bot.engine import Mark, format_cell
from bot.services import refusals, rules
from bot.services.core import ServiceCore
from bot.services.results import (
    Actor,
    CellVerdict,
    GameHistory,
    GameView,
    HintView,
    Leaderboard,
    MoveView,
    Place,
    PlayerStats,
)
from bot.services.stats import load_leaderboard, load_stats


async def history_of(core: ServiceCore, repo: Repository, game: GameRecord) -> GameHistory:
    """``game`` with all its moves."""
    view = await core.view(repo, game)
    moves = await repo.moves(game.id)
    return GameHistory(
        view,
        tuple(
            MoveView(m.ply, m.cell, format_cell(m.cell, game.size), Mark(m.mark), m.player_id, m.played_at)
            for m in moves
        ),
    )


class Queries:
    """Requests that read and change no game."""

    def __init__(self, core: ServiceCore) -> None:
        self._core = core

    async def board(self, place: Place) -> GameView:
        """The game running in ``place``."""
        core = self._core
        async with core.read() as repo:
            return await core.view(repo, await core.game_here(repo, place, None))

    async def latest(self, place: Place) -> GameView:
        """The game running in ``place``, or else the last one played there."""
        core = self._core
        async with core.read() as repo:
            game = await repo.live_game(place.channel_id) or await repo.latest_game(place.channel_id)
            if game is None or game.guild_id != place.guild_id:
                raise refusals.NoGame()
            return await core.view(repo, game)

    async def game(self, game_id: int, place: Place | None) -> GameView:
        """The game ``game_id``, refused when it is not in ``place`` (None: anywhere)."""
        core = self._core
        async with core.read() as repo:
            if place is not None:
                return await core.view(repo, await core.game_here(repo, place, game_id))
            return await core.view(repo, await core.game_by_id(repo, game_id))

    async def set_message(self, game_id: int, channel_id: int, message_id: int) -> int:
        """Record the message that shows game ``game_id``: the game's version."""
        async with self._core.write() as repo:
            version = await repo.set_message(game_id, channel_id, message_id)
        if version is None:
            raise refusals.UnknownGame()
        return version

    async def hint(self, place: Place, user: Actor, game_id: int | None) -> HintView:
        """The engine's verdict on every free cell of the game here, for a player on turn."""
        core = self._core
        async with core.read() as repo:
            game = await core.game_here(repo, place, game_id)
            names = await core.names(repo, game)
            board = rules.check_turn(game, user.user_id, None, names)
            view = await core.view(repo, game, board, names)
        analysis = await core.engine.analyze(board)
        if analysis.value is None or analysis.plies is None:
            raise refusals.GameOver()
        moves = tuple(
            CellVerdict(m.cell, format_cell(m.cell, board.size), m.value, m.plies) for m in analysis.moves
        )
        return HintView(view, analysis.value, analysis.plies, analysis.exact, moves, analysis.best)

    async def history(self, game_id: int, place: Place | None) -> GameHistory:
        """The game ``game_id`` with its moves."""
        core = self._core
        async with core.read() as repo:
            game = await repo.game(game_id)
            if game is None or (place is not None and game.guild_id != place.guild_id):
                raise refusals.UnknownGame()
            return await history_of(core, repo, game)

    async def leaderboard(self, guild_id: int | None, limit: int | None) -> Leaderboard:
        """The best rated players of a server (None: everywhere)."""
        settings = self._core.settings
        async with self._core.read() as repo:
            return await load_leaderboard(
                repo, guild_id, settings.ratings.min_games, limit or settings.leaderboard_size
            )

    async def stats(self, user_id: int, guild_id: int | None) -> PlayerStats:
        """A player's statistics in a server (None: everywhere)."""
        async with self._core.read() as repo:
            return await load_stats(repo, user_id, guild_id, self._core.settings)
