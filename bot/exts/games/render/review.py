"""The words of looking back on Discord: reviews, replays' alt text, game lists, the rating chart's caption.

Reviews and game lists are for one reader (ephemeral, in their language); a replay's
message and alt text are public, in the audience's language. Every sentence goes
through :class:`bot.i18n.Texts`.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.exts.games.render.common import clean, jump_url, level_name, timestamp
from bot.i18n import Texts
from bot.review_words import cells_text, estimates_note, header_text, result_text, summary_lines, verdict_text
from bot.services import FinishedGames, GameHistory, GameReview, GameView, MoveReview, PlayerView, RatingChart
from bot.states import GameResult

COLOUR_REVIEW = discord.Colour.blurple()
EMBED_DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 1024
EMBED_TOTAL_LIMIT = 3800
"""How much text a review may hold: Discord's 4,000 characters for all the text of a Components V2
message, less room for the card's markup (its heading and the bold names of its parts)."""
REPLAY_FILENAME = "replay.gif"
CHART_FILENAME = "rating.png"


def _name(side: PlayerView) -> str:
    return clean(side.display_name)


def _plain(side: PlayerView) -> str:
    return side.display_name


def move_line(texts: Texts, move: MoveReview) -> str:
    """One move of a review: who played where, the position's value before and after, any mistake."""
    line = texts.gettext(
        "`{number}.` {mark} **{cell}** {name}: {before} → {after}",
        number=move.number,
        mark=move.mark.value,
        cell=move.name,
        name=_name(move.player),
        before=verdict_text(texts, move.before),
        after=verdict_text(texts, move.after),
    )
    if move.mistake:
        line += " " + texts.gettext("— **mistake**; best: {best}", best=cells_text(texts, move.best_names))
    if not move.exact:
        line += " " + texts.gettext("(not proven)")
    return line


def _chunks(lines: Sequence[str], limit: int) -> list[str]:
    chunks: list[str] = []
    current = ""
    for line in lines:
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks


def review_embed(texts: Texts, review: GameReview) -> discord.Embed:
    """The review of ``/ttt review`` and the Review button: a summary, then every move."""
    game = review.game
    lines = [header_text(texts, game, _name), "", *summary_lines(texts, review, _name)]
    if not review.exact:
        lines.append(estimates_note(texts))
    embed = discord.Embed(
        title=texts.gettext("Review of game {game}", game=game.id),
        description="\n".join(lines)[:EMBED_DESCRIPTION_LIMIT],
        colour=COLOUR_REVIEW,
    )
    moves = [move_line(texts, move) for move in review.moves]
    if not moves:
        embed.add_field(name=texts.gettext("Moves"), value=texts.gettext("No move was played."), inline=False)
    for index, chunk in enumerate(_chunks(moves, FIELD_LIMIT)):
        if len(embed) + len(chunk) > EMBED_TOTAL_LIMIT - 10:  # very long names: the rest is cut, not refused
            embed.add_field(name="\u200b", value="…", inline=False)
            break
        embed.add_field(name=texts.gettext("Moves") if index == 0 else "\u200b", value=chunk, inline=False)
    return embed


def replay_alt_text(texts: Texts, history: GameHistory) -> str:
    """What the replay GIF shows, for screen readers: who played, every move, the result."""
    game = history.game
    moves = ", ".join(f"{move.mark.value} {move.name}" for move in history.moves) or texts.pgettext(
        "no moves played", "none"
    )
    text = texts.gettext(
        "Replay of tic-tac-toe game {game} on {size}x{size}, {x} (X) against {o} (O). Moves: {moves}. "
        "Result: {result}.",
        game=game.id,
        size=game.size,
        x=game.x.display_name,
        o=game.o.display_name,
        moves=moves,
        result=result_text(texts, game, _plain),
    )
    return text[:1024]


def replay_content(texts: Texts, history: GameHistory) -> str:
    """A replay's message: the game's number, its players and its result."""
    game = history.game
    return texts.gettext(
        "Game {game}: {x} (X) against {o} (O), {result}.",
        game=game.id,
        x=_name(game.x),
        o=_name(game.o),
        result=result_text(texts, game, _name),
    )


def _opponent(texts: Texts, game: GameView, user_id: int) -> str:
    mine = game.player(user_id)
    other = game.o if mine is not None and mine.mark is game.x.mark else game.x
    if other.is_bot:
        level = level_name(texts, game.level) if game.level is not None else "?"
        # Translators: the bot as the opponent in /ttt history: "against me (level easy)".
        return texts.gettext("me (level {level})", level=level)
    return f"<@{other.user_id}>"


def _outcome(texts: Texts, game: GameView, user_id: int) -> str:
    if game.result is GameResult.DRAW:
        return texts.pgettext("game outcome", "draw")
    winner = game.winner
    if winner is not None and winner.user_id == user_id:
        # Translators: the outcome in /ttt history: "#12 3x3 against @bob: won 2 hours ago".
        return texts.gettext("won")
    # Translators: the outcome in /ttt history: "#12 3x3 against @bob: lost 2 hours ago".
    return texts.gettext("lost")


def history_line(texts: Texts, game: GameView, user_id: int) -> str:
    """One finished game in ``/ttt history``, from ``user_id``'s side, with a link to its board."""
    when = timestamp(game.finished_at, "R") if game.finished_at is not None else ""
    line = texts.gettext(
        "**#{game}** {size}x{size} against {opponent}: {outcome} {when}",
        game=game.id,
        size=game.size,
        opponent=_opponent(texts, game, user_id),
        outcome=_outcome(texts, game, user_id),
        when=when,
    ).rstrip()
    if game.message_id is not None and game.message_channel_id is not None:
        url = jump_url(game.guild_id, game.message_channel_id, game.message_id)
        # Translators: a link to the game's board message in /ttt history; keep [ ] and ( ).
        line += " · " + texts.gettext("[board]({url})", url=url)
    return line


def history_embed(texts: Texts, games: FinishedGames) -> discord.Embed:
    """``/ttt history``: the latest finished games, newest first."""
    # Translators: the title of /ttt history.
    embed = discord.Embed(title=texts.gettext("Latest games"), colour=COLOUR_REVIEW)
    if not games.games:
        embed.description = texts.gettext("<@{user}> has no finished game here yet.", user=games.user_id)
        return embed
    lines = [history_line(texts, game, games.user_id) for game in games.games]
    embed.description = (
        f"<@{games.user_id}>\n"
        + "\n".join(lines)
        + "\n\n"
        + texts.gettext("See a game again with /ttt review or /ttt replay and its number.")
    )[:EMBED_DESCRIPTION_LIMIT]
    return embed


def chart_caption(texts: Texts, chart: RatingChart) -> str:
    """What the rating chart's colours mean (the picture itself has no words)."""
    if chart.server_games:
        return texts.gettext("Rating after each rated game: blue in this server, red across all servers.")
    return texts.gettext("Rating after each rated game, across all servers (red).")
