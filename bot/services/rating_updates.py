"""Applying :mod:`bot.services.ratings` to finished games: the weight of a game and the new ratings."""

from __future__ import annotations

from datetime import datetime

from bot.db import GLOBAL_SCOPE, GameRecord, Repository
from bot.services.ratings import RatingRules, elo_update
from bot.states import EndReason, GameResult

_SCORE_OF_X = {GameResult.X_WON: 1.0, GameResult.O_WON: 0.0, GameResult.DRAW: 0.5}


async def rating_weight(
    repo: Repository, game: GameRecord, reason: EndReason, now: datetime, plies: int, rules: RatingRules
) -> float:
    """How much a game ending now counts: 0 for bot games, aborted games, farmed pairs and the games of
    an unrated arena."""
    if game.x_player_id is None or game.o_player_id is None:
        return 0.0
    if game.arena_id is not None and not await repo.arena_rated(game.arena_id):
        return 0.0
    if reason in (EndReason.RESIGN, EndReason.TIMEOUT) and plies < rules.min_plies:
        return 0.0
    earlier = await repo.games_between_since(
        game.x_player_id, game.o_player_id, now - rules.pair_window, exclude_game_id=game.id
    )
    return rules.pair_weight(earlier)


async def apply_ratings(repo: Repository, game: GameRecord, now: datetime, rules: RatingRules) -> None:
    """Move both players' ratings, globally and in the game's server, by the finished, rated ``game``."""
    if not game.rated or game.result is None or game.x_player_id is None or game.o_player_id is None:
        return
    x, o = game.x_player_id, game.o_player_id
    scopes = [GLOBAL_SCOPE] if game.guild_id is None else [GLOBAL_SCOPE, game.guild_id]
    rows = await repo.lock_ratings([x, o], scopes, rules.initial, now)
    score_x = _SCORE_OF_X[game.result]
    changes = []
    for scope in scopes:
        rx, ro = rows[(x, scope)], rows[(o, scope)]
        new_x = elo_update(rx.rating, ro.rating, score_x, rules.k_factor, game.rating_weight)
        new_o = elo_update(ro.rating, rx.rating, 1.0 - score_x, rules.k_factor, game.rating_weight)
        for row, rating, score in ((rx, new_x, score_x), (ro, new_o, 1.0 - score_x)):
            row.rating = rating
            row.best_rating = max(row.best_rating, rating)
            row.games += 1
            row.wins += score == 1.0
            row.losses += score == 0.0
            row.draws += score == 0.5
            row.updated_at = now
            changes.append((row.player_id, scope, rating))
    await repo.record_ratings(rows.values(), game.id, changes, now)
