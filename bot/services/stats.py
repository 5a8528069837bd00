"""Stats and leaderboards: records against humans and per bot level, streaks, ratings, recent games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.db import GLOBAL_SCOPE, GameRecord, Repository
from bot.engine import Level
from bot.services.arena_history import load_arena_record
from bot.services.results import (
    ArenaRecord,
    Leaderboard,
    LeaderboardEntry,
    LevelRecord,
    PlayerOutcome,
    PlayerStats,
    RatingView,
    RecentGame,
    Record,
)
from bot.services.settings import ServiceSettings
from bot.states import GameResult


def outcome_for(game: GameRecord, user_id: int) -> PlayerOutcome | None:
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
    games: Sequence[GameRecord],
    names: Mapping[int, str],
    *,
    bot_name: str,
    recent: int,
    server_rating: RatingView | None,
    global_rating: RatingView | None,
    arenas: ArenaRecord | None = None,
) -> PlayerStats:
    """Aggregate ``games`` (finished, oldest first) from ``user_id``'s side."""
    vs_humans = Record()
    vs_bot = {level: Record() for level in Level}
    streak = best = 0
    played: list[tuple[GameRecord, PlayerOutcome]] = []
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
        arenas=arenas or ArenaRecord(),
    )


async def rating_view(repo: Repository, user_id: int, scope: int, min_games: int) -> RatingView | None:
    """A player's rating in ``scope``, or None before ``min_games`` rated games."""
    row = await repo.rating(user_id, scope)
    if row is None:
        return None
    rank = await repo.rank(user_id, scope, min_games)
    return RatingView(round(row.rating), round(row.best_rating), row.games, rank)


async def load_stats(
    repo: Repository, user_id: int, guild_id: int | None, settings: ServiceSettings
) -> PlayerStats:
    """A player's stats, with their ratings in ``guild_id`` (if any) and globally."""
    games = await repo.finished_games_of(user_id)
    people = {user_id}
    for game in games:
        people.update(i for i in (game.x_player_id, game.o_player_id) if i is not None)
    names = await repo.display_names(people)
    min_games = settings.ratings.min_games
    server = None if guild_id is None else await rating_view(repo, user_id, guild_id, min_games)
    world = await rating_view(repo, user_id, GLOBAL_SCOPE, min_games)
    return build_stats(
        user_id,
        games,
        names,
        bot_name=settings.bot_name,
        recent=settings.recent_games,
        server_rating=server,
        global_rating=world,
        arenas=await load_arena_record(repo, user_id),
    )


async def load_leaderboard(repo: Repository, guild_id: int | None, min_games: int, limit: int) -> Leaderboard:
    """The best rated players of a server, or of everywhere when ``guild_id`` is None."""
    scope = GLOBAL_SCOPE if guild_id is None else guild_id
    rows = await repo.leaderboard(scope, min_games, limit)
    entries = tuple(
        LeaderboardEntry(
            rank=place,
            user_id=row.player_id,
            display_name=name,
            rating=round(row.rating),
            games=row.games,
            wins=row.wins,
            losses=row.losses,
            draws=row.draws,
        )
        for place, (row, name) in enumerate(rows, start=1)
    )
    return Leaderboard(guild_id, min_games, entries)
