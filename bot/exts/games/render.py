"""What games look like on Discord: the text and embeds of boards, challenges, hints, leaderboards and stats.

Everything here is a pure function of the service's views, so it is easy to test and
never touches the network. The buttons live in :mod:`bot.exts.games.views`.

People are named by mention (``<@id>``): mentions render as the member's current
name, cannot carry markdown or ``@everyone``, and only ping when the message's
allowed mentions say so (:func:`players_only`). Stored display names (the bot's own,
the leaderboard's) are escaped before use.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import discord

from bot.engine import EngineInputError, Mark, Outcome, format_cell, parse_cell
from bot.i18n import N_, Texts, by_code, from_locale
from bot.services import EndReason, GameResult, GameStatus, Refusal
from bot.services.results import (
    GameView,
    HintView,
    Leaderboard,
    PlayerOutcome,
    PlayerStats,
    PlayerView,
    RatingView,
    RecentGame,
    Record,
)

MARK_EMOJI = {Mark.X: "❌", Mark.O: "⭕"}
EMPTY_CELL = "·"

COLOUR_ACTIVE = discord.Colour.blurple()
COLOUR_PENDING = discord.Colour.gold()
COLOUR_WON = discord.Colour.green()
COLOUR_DRAWN = discord.Colour.light_grey()
COLOUR_ENDED = discord.Colour.dark_grey()

BOARD_HELP = "Click a cell, or type /ttt move."


@dataclass(frozen=True, slots=True)
class MessageText:
    """The text parts of a message: its content, one embed and who may be pinged.

    None leaves a part out of a new message and removes it from an edited one.
    """

    content: str | None
    embed: discord.Embed | None
    allowed_mentions: discord.AllowedMentions


def players_only(game: GameView) -> discord.AllowedMentions:
    """Allowed mentions for a game's messages: its human players, never @everyone, @here or a role."""
    users = [discord.Object(id=side.user_id) for side in game.players if side.user_id is not None]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def nobody() -> discord.AllowedMentions:
    return discord.AllowedMentions.none()


def clean(text: str) -> str:
    """A stored name made safe to show: no markdown, no working mentions."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def who(side: PlayerView) -> str:
    """A player as shown in text: a mention for a person, the bot's name in bold."""
    if side.user_id is None:
        return f"**{clean(side.display_name)}**"
    return f"<@{side.user_id}>"


def mark_label(mark: Mark) -> str:
    return f"{MARK_EMOJI[mark]} {mark.value}"


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp that each reader sees in their own time zone (``R``: "in 2 minutes")."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def size_label(game: GameView) -> str:
    return f"{game.size}x{game.size}, {game.k} in a row"


# The board message


def _winner_sentence(game: GameView) -> str:
    winner, loser = game.winner, game.loser
    if game.result is GameResult.DRAW or winner is None or loser is None:
        return "It's a draw: the board is full."
    if game.end_reason is EndReason.RESIGN:
        return f"{who(loser)} resigned; {who(winner)} wins."
    if game.end_reason is EndReason.TIMEOUT:
        return f"{who(loser)} ran out of time; {who(winner)} wins."
    line = ", ".join(game.cell_name(cell) for cell in game.winning_cells)
    return f"{who(winner)} wins with {line}!" if line else f"{who(winner)} wins!"


def status_sentence(game: GameView) -> str:
    """One sentence on where the game stands: whose turn it is, or how it ended."""
    if game.status is GameStatus.PENDING:
        challenged = game.challenged
        name = "the challenged player" if challenged is None else who(challenged)
        return f"Waiting for {name} to accept."
    if game.status is GameStatus.ACTIVE:
        side = game.to_move
        if side is None:
            return "The game is running."
        if side.is_bot:
            return f"{who(side)} is thinking ({mark_label(side.mark)})."
        return f"{who(side)} to move ({mark_label(side.mark)})."
    if game.status is GameStatus.FINISHED:
        return _winner_sentence(game)
    if game.status is GameStatus.EXPIRED:
        return "The challenge expired without an answer."
    if game.end_reason is EndReason.DECLINED:
        return "The challenge was declined."
    return "The game was cancelled; it has no result."


def _colour(game: GameView) -> discord.Colour:
    if game.status is GameStatus.ACTIVE:
        return COLOUR_ACTIVE
    if game.status is GameStatus.PENDING:
        return COLOUR_PENDING
    if game.status is GameStatus.FINISHED:
        return COLOUR_DRAWN if game.result is GameResult.DRAW else COLOUR_WON
    return COLOUR_ENDED


def _side_line(game: GameView, side: PlayerView) -> str:
    line = f"{mark_label(side.mark)}: {who(side)}"
    if side.is_bot and game.level is not None:
        line += f" (level: {game.level.value})"
    return line


def board_text(game: GameView) -> MessageText:
    """The text of a game's board message; the buttons (``views.board_view``) are the board itself.

    Each fact is said once. The content holds what must ping or be read aloud first:
    whose turn it is, or the result. The embed holds the rest: the size, who plays
    which mark (and the bot's level), the last move in words, the turn clock and how to play.
    """
    embed = discord.Embed(title=f"Tic-tac-toe ({size_label(game)})", colour=_colour(game))
    lines = [_side_line(game, side) for side in game.players]
    if game.last_cell is not None:
        mark = game.cells[game.last_cell]
        shown = game.cell_name(game.last_cell)
        lines.append(f"Last move: {shown}" if mark is None else f"Last move: {mark_label(mark)} at {shown}")
    side = game.to_move
    if game.is_active and side is not None and not side.is_bot and game.deadline is not None:
        lines.append(f"Move {timestamp(game.deadline)} or lose on time.")
    embed.description = "\n".join(lines)
    footer = f"Game {game.id} · move {game.ply}"
    if game.is_active:
        footer += f" · {BOARD_HELP}"
        if game.size == 5:
            footer += " Resign with /ttt resign."
    embed.set_footer(text=footer)
    return MessageText(status_sentence(game), embed, players_only(game))


def challenge_text(game: GameView) -> MessageText:
    """A pending challenge, or how it ended (declined, expired, cancelled) once it did."""
    challenged = game.challenged
    challenger = game.player(game.challenger_id)
    invited = "someone" if challenged is None else who(challenged)
    inviter = "someone" if challenger is None else who(challenger)
    embed = discord.Embed(title=f"Tic-tac-toe challenge ({size_label(game)})", colour=_colour(game))
    embed.description = "\n".join(_side_line(game, side) for side in game.players)
    if game.is_pending:
        content = f"{invited}, {inviter} challenges you to tic-tac-toe."
        if game.deadline is not None:
            content += f" Answer {timestamp(game.deadline)}."
        embed.set_footer(text=f"Game {game.id} · only the challenged player can accept or decline.")
    else:
        if game.status is GameStatus.EXPIRED:
            content = f"The challenge from {inviter} to {invited} expired without an answer."
        elif game.end_reason is EndReason.DECLINED:
            content = f"{invited} declined the challenge from {inviter}."
        else:
            content = f"The challenge from {inviter} to {invited} was cancelled."
        embed.set_footer(text=f"Game {game.id}")
    pinged = [discord.Object(id=challenged.user_id)] if challenged and challenged.user_id else []
    return MessageText(content, embed, discord.AllowedMentions(everyone=False, roles=False, users=pinged))


def moved_text(board_url: str) -> MessageText:
    """An older board message of a game, once the game is shown on another one."""
    return MessageText(f"This game moved to a new message: {board_url}", None, nobody())


def is_challenge_message(game: GameView) -> bool:
    """Whether the game's message is a challenge (Accept/Decline) rather than a board.

    A challenge between people shows as one until accepted; one that ended
    unanswered (declined, expired, cancelled before a move) keeps that form.
    """
    if game.vs_bot:
        return False
    if game.is_pending or game.status is GameStatus.EXPIRED or game.end_reason is EndReason.DECLINED:
        return True
    return game.status is GameStatus.CANCELLED and game.ply == 0


def game_text(game: GameView) -> MessageText:
    return challenge_text(game) if is_challenge_message(game) else board_text(game)


# Answers to the one player who clicked or typed

APOLOGY = N_("Sorry, something went wrong on my side. Please try again in a moment.")
NOT_IN_DMS = N_("Tic-tac-toe is played in server channels, not in direct messages.")
UNKNOWN_MEMBER = N_("I can't find that member in this server; pick someone from the list.")
NOT_ALLOWED_HERE = N_("You can't use this command here.")
COMMAND_CHANGED = N_("That command has just changed; please try again in a minute.")
UNAVAILABLE = "The game is not available right now; please try again in a moment."
STALE_BUTTON = "That button belongs to an old board. Use /ttt board to see the current game."
NOT_THIS_GAME = "That button is not part of this game."
BROUGHT_UP_TO_DATE = "I've brought the board up to date."


def not_understood_text(texts: Texts, value: object) -> str:
    return texts.gettext(
        "I couldn't understand {value}; please pick a value from the list.", value=clean(repr(value))
    )


def cooldown_text(texts: Texts, retry_after: float) -> str:
    return texts.ngettext(
        "Slow down a little: try again in {count} second.",
        "Slow down a little: try again in {count} seconds.",
        max(1, round(retry_after)),
    )


def shown_param(value: object) -> object:
    """A refusal's param as a user sees it: text (a name, what they typed) loses markdown and mentions."""
    return clean(value) if isinstance(value, str) else value


def refusal_text(texts: Texts, refusal: Refusal) -> str:
    """A service's refusal in the reader's language, its text params escaped."""
    params = {name: shown_param(value) for name, value in refusal.params.items()}
    return texts.message(refusal.template, params, plural=refusal.plural, count=refusal.count)


def outdated_board_text(refusal: str) -> str:
    """Why a click on an outdated board did nothing, now that the board is redrawn."""
    return f"{refusal} {BROUGHT_UP_TO_DATE}"


def move_summary(game: GameView, cell: str, board_url: str | None) -> str:
    """The answer to ``/ttt move``: the move as played, the bot's reply, the result, where the board is."""
    try:
        played = format_cell(parse_cell(cell, game.size), game.size)
    except EngineInputError:
        played = cell
    text = f"You played {played}."
    if game.last_cell is not None and game.cell_name(game.last_cell) != played:
        text += f" I answered {game.cell_name(game.last_cell)}."
    if not game.is_live:
        text += " " + status_sentence(game)
    if board_url is not None:
        text += f" Board: {board_url}"
    return text


def cell_choice_name(name: str, number: str) -> str:
    """A cell as ``/ttt move``'s autocomplete offers it: ``b2 (cell 5)``."""
    return f"{name} (cell {number})"


def resigned_text(game: GameView) -> str:
    return f"You resigned. {status_sentence(game)}"


def cancelled_text(game: GameView) -> str:
    return f"Game {game.id} is cancelled; it has no result."


# /ttt hint


def verdict_words(value: Outcome, plies: int) -> str:
    if value is Outcome.WIN:
        return f"win in {plies}"
    if value is Outcome.LOSS:
        return f"loss in {plies}"
    return "draw"


def _verdict_code(value: Outcome, plies: int) -> str:
    return {Outcome.WIN: f"W{plies}", Outcome.LOSS: f"L{plies}", Outcome.DRAW: "D"}[value]


def hint_embed(hint: HintView) -> discord.Embed:
    """The engine's verdict on every empty cell, for the player on turn (shown only to them)."""
    game = hint.game
    verdicts = {move.cell: move for move in hint.moves}
    width = 4
    header = " " * 2 + "".join(chr(ord("a") + column).rjust(width) for column in range(game.size))
    rows = [header]
    for row in range(game.size):
        shown = []
        for column in range(game.size):
            cell = row * game.size + column
            mark = game.cells[cell]
            if mark is not None:
                shown.append(mark.value.rjust(width))
            elif cell in verdicts:
                shown.append(_verdict_code(verdicts[cell].value, verdicts[cell].plies).rjust(width))
            else:
                shown.append(EMPTY_CELL.rjust(width))
        rows.append(f"{row + 1} " + "".join(shown))
    embed = discord.Embed(title="Hint", colour=COLOUR_ACTIVE)
    embed.description = (
        f"With best play on both sides this is a **{verdict_words(hint.value, hint.plies)}** for you.\n"
        "```\n" + "\n".join(rows) + "\n```"
    )
    best = ", ".join(game.cell_name(cell) for cell in hint.best)
    embed.add_field(name="Best moves", value=best or "none", inline=False)
    lines = [
        f"{move.name}: {verdict_words(move.value, move.plies)}"
        for move in sorted(hint.moves, key=lambda m: _rank(m.value, m.plies))
    ]
    embed.add_field(name="Every cell", value=_fit("\n".join(lines)), inline=False)
    footer = "W3: you win in 3 moves, D: draw, L4: you lose in 4; moves of both players, yours included."
    if not hint.exact:
        footer += " The search ran out of time, so these are estimates."
    embed.set_footer(text=footer)
    return embed


def _rank(value: Outcome, plies: int) -> tuple[int, int]:
    if value is Outcome.WIN:
        return (0, plies)
    if value is Outcome.DRAW:
        return (1, 0)
    return (2, -plies)


def _fit(text: str, limit: int = 1024) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# /ttt leaderboard and /ttt stats


def record_text(record: Record) -> str:
    return f"{record.wins}W {record.losses}L {record.draws}D"


def leaderboard_embed(board: Leaderboard, scope_name: str) -> discord.Embed:
    embed = discord.Embed(title=f"Leaderboard: {scope_name}", colour=COLOUR_ACTIVE)
    if not board.entries:
        embed.description = (
            "Nobody is ranked yet. Players appear here after "
            f"{board.min_games} rated games against other members."
        )
    else:
        lines = [
            f"**{entry.rank}.** <@{entry.user_id}> ({clean(entry.display_name)}): **{entry.rating}** · "
            f"{entry.games} games, {entry.wins}W {entry.losses}L {entry.draws}D"
            for entry in board.entries
        ]
        embed.description = _fit("\n".join(lines), 4096)
    embed.set_footer(
        text=f"Elo ratings from games between members; at least {board.min_games} rated games to be listed."
    )
    return embed


def _rating_line(name: str, rating: RatingView | None) -> str:
    if rating is None:
        return f"{name}: unrated"
    rank = f", rank #{rating.rank}" if rating.rank is not None else ", not ranked yet"
    return f"{name}: **{rating.rating}** (best {rating.best}, {rating.games} games{rank})"


def _recent_line(game: RecentGame) -> str:
    verb = {PlayerOutcome.WIN: "Won", PlayerOutcome.LOSS: "Lost", PlayerOutcome.DRAW: "Drew"}[game.outcome]
    opponent = (
        f"<@{game.opponent_id}>" if game.opponent_id is not None else f"**{clean(game.opponent_name)}**"
    )
    level = f" ({game.level.value})" if game.level is not None else ""
    how = ""
    if game.end_reason is EndReason.RESIGN:
        how = " by resignation"
    elif game.end_reason is EndReason.TIMEOUT:
        how = " on time"
    when = f" {timestamp(game.finished_at)}" if game.finished_at is not None else ""
    return f"{verb} against {opponent}{level}, {game.size}x{game.size}{how}{when}"


def stats_embed(stats: PlayerStats, user_id: int) -> discord.Embed:
    embed = discord.Embed(title="Tic-tac-toe stats", colour=COLOUR_ACTIVE)
    if stats.display_name is None:
        embed.description = f"<@{user_id}> has not played yet."
        return embed
    embed.description = f"<@{user_id}>"
    embed.add_field(name="Against members", value=record_text(stats.vs_humans), inline=True)
    embed.add_field(name="Against me", value=record_text(stats.vs_bot_total), inline=True)
    embed.add_field(name="Streak", value=f"{stats.current_streak} now, best {stats.best_streak}", inline=True)
    levels = "\n".join(f"{entry.level.value}: {record_text(entry.record)}" for entry in stats.vs_bot)
    embed.add_field(name="Against me, by level", value=levels or "none", inline=False)
    ratings = [_rating_line("This server", stats.server_rating), _rating_line("Global", stats.global_rating)]
    embed.add_field(name="Rating", value="\n".join(ratings), inline=False)
    if stats.recent:
        embed.add_field(
            name="Recent games", value=_fit("\n".join(map(_recent_line, stats.recent))), inline=False
        )
    return embed


# /ttt settings


def settings_text(texts: Texts, language: str | None, guild_locale: str | None, *, changed: bool) -> str:
    """A server's settings as its manager sees them, after a change or when asked."""
    own = from_locale(guild_locale).native_name
    chosen = by_code(language)
    if chosen is None:
        if changed:
            return texts.gettext(
                "Done: boards, challenges and results here follow the server's language again "
                "(now {language}).",
                language=own,
            )
        shown = texts.gettext("automatic: the server's language, now {language}", language=own)
    else:
        if changed:
            return texts.gettext(
                "Done: boards, challenges and results here are now in **{language}**.",
                language=chosen.native_name,
            )
        shown = f"**{chosen.native_name}**"
    return texts.gettext(
        "Language of boards, challenges and results here: {language}.\n"
        "Change it with `/ttt settings language:`.",
        language=shown,
    )
