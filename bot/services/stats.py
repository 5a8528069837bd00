"""Stats from a player's finished games: records against humans and per bot level, streaks, recent games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.db.enums import GameResult
from bot.db.models import Game
from bot.engine import Level
from bot.services.views import LevelRecord, PlayerOutcome, PlayerStats, RatingView, RecentGame, Record


def outcome_for(game: Game, user_id: int) -> PlayerOutcome | None:
    """How a finished game ended for ``user_id`` (None when they did not play in it)."""
    if game.result is None:
        return None
    if game.result is GameResult.DRAW:
        return PlayerOutcome.DRAW
    if user_id == game.x_player_id:
        return PlayerOutcome.WIN if game.result is GameResult.X_WON else PlayerOutcome.LOSS
    if user_id == game.o_player_id:
        return PlayerOutcome.WIN if game.result is GameResult.O_WON else PlayerOutcome.LOSS
    return None


def _add(record: Record, outcome: PlayerOutcome) -> Record:
    return Record(
        record.wins + (outcome is PlayerOutcome.WIN),
        record.losses + (outcome is PlayerOutcome.LOSS),
        record.draws + (outcome is PlayerOutcome.DRAW),
    )


def build_stats(
    user_id: int,
    games: Sequence[Game],
    names: Mapping[int, str],
    *,
    bot_name: str,
    recent: int,
    server_rating: RatingView | None,
    global_rating: RatingView | None,
) -> PlayerStats:
    """Aggregate ``games`` (finished, oldest first) from ``user_id``'s side."""
    vs_humans = Record()
    vs_bot = {level: Record() for level in Level}
    streak = best = 0
    played: list[tuple[Game, PlayerOutcome]] = []
    for game in games:
        outcome = outcome_for(game, user_id)
        if outcome is None:
            continue
        played.append((game, outcome))
        if game.level is None:
            vs_humans = _add(vs_humans, outcome)
        else:
            level = Level(game.level)
            vs_bot[level] = _add(vs_bot[level], outcome)
        streak = streak + 1 if outcome is PlayerOutcome.WIN else 0
        best = max(best, streak)
    latest = []
    for game, outcome in reversed(played[-recent:] if recent > 0 else []):
        opponent_id = game.o_player_id if game.x_player_id == user_id else game.x_player_id
        latest.append(
            RecentGame(
                game_id=game.id,
                opponent_id=opponent_id,
                opponent_name=bot_name if opponent_id is None else names.get(opponent_id, str(opponent_id)),
                level=None if game.level is None else Level(game.level),
                outcome=outcome,
                end_reason=game.end_reason,
                size=game.size,
                rated=game.rated,
                finished_at=game.finished_at,
            )
        )
    return PlayerStats(
        user_id=user_id,
        display_name=names.get(user_id),
        vs_humans=vs_humans,
        vs_bot=tuple(LevelRecord(level, vs_bot[level]) for level in Level),
        current_streak=streak,
        best_streak=best,
        server_rating=server_rating,
        global_rating=global_rating,
        recent=tuple(latest),
    )
