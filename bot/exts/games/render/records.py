"""``/ttt leaderboard`` and ``/ttt stats``: ratings, records, streaks and recent games."""

from __future__ import annotations

import discord

from bot.exts.games.render.arena_stats import arenas_field
from bot.exts.games.render.common import COLOUR_INFO, clean, fit, level_name, timestamp
from bot.i18n import N_, Texts
from bot.services import EndReason
from bot.services.results import Leaderboard, PlayerOutcome, PlayerStats, RatingView, RecentGame, Record


def record_text(texts: Texts, record: Record) -> str:
    """Wins, losses and draws in short (``3W 1L 0D``)."""
    # Translators: wins, losses and draws in short, one letter each: "3W 1L 0D".
    return texts.gettext(
        "{wins}W {losses}L {draws}D",
        wins=texts.number(record.wins),
        losses=texts.number(record.losses),
        draws=texts.number(record.draws),
    )


def leaderboard_embed(texts: Texts, board: Leaderboard, *, server: bool) -> discord.Embed:
    """``/ttt leaderboard``: the best rated players of the server, or of everywhere."""
    if server:
        scope = texts.pgettext("leaderboard scope", "this server")
    else:
        scope = texts.pgettext("leaderboard scope", "global")
    embed = discord.Embed(title=texts.gettext("Leaderboard: {scope}", scope=scope), colour=COLOUR_INFO)
    if not board.entries:
        embed.description = texts.ngettext(
            "Nobody is ranked yet. Players appear here after {count} rated game against other members.",
            "Nobody is ranked yet. Players appear here after {count} rated games against other members.",
            board.min_games,
        )
    else:
        lines = [
            f"**{entry.rank}.** <@{entry.user_id}> ({clean(entry.display_name)}): "
            f"**{texts.number(entry.rating, grouping=False)}** · "
            + texts.ngettext("{count} game", "{count} games", entry.games)
            + ", "
            + texts.gettext(
                "{wins}W {losses}L {draws}D",
                wins=texts.number(entry.wins),
                losses=texts.number(entry.losses),
                draws=texts.number(entry.draws),
            )
            for entry in board.entries
        ]
        embed.description = fit("\n".join(lines), 4096)
    footer = texts.ngettext(
        "Elo ratings from games between members; at least {count} rated game to be listed.",
        "Elo ratings from games between members; at least {count} rated games to be listed.",
        board.min_games,
    )
    embed.set_footer(text=footer)
    return embed


def _rating_line(texts: Texts, name: str, rating: RatingView | None) -> str:
    if rating is None:
        return texts.gettext("{scope}: unrated", scope=name)
    games = texts.ngettext("{count} game", "{count} games", rating.games)
    if rating.rank is None:
        return texts.gettext(
            "{scope}: **{rating}** (best {best}, {games}, not ranked yet)",
            scope=name,
            rating=texts.number(rating.rating, grouping=False),
            best=texts.number(rating.best, grouping=False),
            games=games,
        )
    return texts.gettext(
        "{scope}: **{rating}** (best {best}, {games}, rank #{rank})",
        scope=name,
        rating=texts.number(rating.rating, grouping=False),
        best=texts.number(rating.best, grouping=False),
        games=games,
        rank=texts.number(rating.rank),
    )


RECENT_LINES = {
    (PlayerOutcome.WIN, None): N_("Won against {opponent}{level}, {size}x{size}{when}"),
    (PlayerOutcome.LOSS, None): N_("Lost against {opponent}{level}, {size}x{size}{when}"),
    (PlayerOutcome.DRAW, None): N_("Drew against {opponent}{level}, {size}x{size}{when}"),
    (PlayerOutcome.WIN, EndReason.RESIGN): N_(
        "Won against {opponent}{level}, {size}x{size} by resignation{when}"
    ),
    (PlayerOutcome.LOSS, EndReason.RESIGN): N_(
        "Lost against {opponent}{level}, {size}x{size} by resignation{when}"
    ),
    (PlayerOutcome.WIN, EndReason.TIMEOUT): N_("Won against {opponent}{level}, {size}x{size} on time{when}"),
    (PlayerOutcome.LOSS, EndReason.TIMEOUT): N_(
        "Lost against {opponent}{level}, {size}x{size} on time{when}"
    ),
}
"""A finished game in a player's list, by its outcome for them and how it ended (None: on the board)."""


def _recent_line(texts: Texts, game: RecentGame) -> str:
    opponent = (
        f"<@{game.opponent_id}>" if game.opponent_id is not None else f"**{clean(game.opponent_name)}**"
    )
    level = f" ({level_name(texts, game.level)})" if game.level is not None else ""
    how = game.end_reason if game.end_reason in (EndReason.RESIGN, EndReason.TIMEOUT) else None
    template = RECENT_LINES.get((game.outcome, how), RECENT_LINES[(game.outcome, None)])
    when = f" {timestamp(game.finished_at)}" if game.finished_at is not None else ""
    return texts.gettext(template, opponent=opponent, level=level, size=game.size, when=when)


def stats_embed(texts: Texts, stats: PlayerStats, user_id: int) -> discord.Embed:
    """``/ttt stats``: a player's records, streaks, ratings and latest games."""
    embed = discord.Embed(title=texts.gettext("Tic-tac-toe stats"), colour=COLOUR_INFO)
    if stats.display_name is None:
        embed.description = texts.gettext("{player} has not played yet.", player=f"<@{user_id}>")
        return embed
    embed.description = f"<@{user_id}>"
    embed.add_field(
        # Translators: a heading of /ttt stats: the record in games against other members.
        name=texts.gettext("Against members"),
        value=record_text(texts, stats.vs_humans),
        inline=True,
    )
    embed.add_field(
        # Translators: a heading of /ttt stats: the record in games against the bot ("me").
        name=texts.gettext("Against me"),
        value=record_text(texts, stats.vs_bot_total),
        inline=True,
    )
    streak = texts.gettext(
        "{current} now, best {best}",
        current=texts.number(stats.current_streak),
        best=texts.number(stats.best_streak),
    )
    # Translators: a heading of /ttt stats: the current and the best run of wins in a row.
    embed.add_field(name=texts.gettext("Streak"), value=streak, inline=True)
    levels = "\n".join(
        f"{level_name(texts, entry.level)}: {record_text(texts, entry.record)}" for entry in stats.vs_bot
    )
    embed.add_field(
        name=texts.gettext("Against me, by level"),
        value=levels or texts.pgettext("no games against me by level", "none"),
        inline=False,
    )
    ratings = [
        # Translators: in /ttt stats, before the player's Elo rating in this server.
        _rating_line(texts, texts.gettext("This server"), stats.server_rating),
        # Translators: in /ttt stats, before the player's Elo rating across all servers.
        _rating_line(texts, texts.gettext("Global"), stats.global_rating),
    ]
    # Translators: a heading of /ttt stats: the player's Elo ratings (not the leaderboard).
    embed.add_field(name=texts.gettext("Rating"), value="\n".join(ratings), inline=False)
    arenas = arenas_field(texts, stats.arenas)
    if arenas is not None:
        embed.add_field(name=arenas[0], value=arenas[1], inline=False)
    if stats.recent:
        recent = "\n".join(_recent_line(texts, game) for game in stats.recent)
        # Translators: a heading of /ttt stats: the player's last few finished games.
        embed.add_field(name=texts.gettext("Recent games"), value=fit(recent), inline=False)
    return embed
