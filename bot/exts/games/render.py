"""What games look like on Discord: the text and embeds of boards, challenges, hints, leaderboards and stats.

Everything here is a pure function of the service's views and the reader's language
(:class:`bot.i18n.Texts`: every sentence is a gettext message), so it is easy to test and
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

from bot.engine import EngineInputError, Level, Mark, Outcome, format_cell, parse_cell
from bot.exts.games.custom_ids import Action
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
    """A Discord timestamp each reader sees in their own language and time zone (``R``: "in 2 minutes")."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """The link that opens a message in Discord (``@me`` outside servers)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


LEVEL_NAMES = {
    Level.EASY: N_("easy"),
    Level.MEDIUM: N_("medium"),
    Level.HARD: N_("hard"),
    Level.PERFECT: N_("perfect"),
}


def level_name(texts: Texts, level: Level) -> str:
    return texts.gettext(LEVEL_NAMES[level])


def size_label(texts: Texts, game: GameView) -> str:
    return texts.gettext("{size}x{size}, {k} in a row", size=game.size, k=game.k)


# The board message


def _winner_sentence(texts: Texts, game: GameView) -> str:
    winner, loser = game.winner, game.loser
    if game.result is GameResult.DRAW or winner is None or loser is None:
        return texts.gettext("It's a draw: the board is full.")
    if game.end_reason is EndReason.RESIGN:
        return texts.gettext("{loser} resigned; {winner} wins.", loser=who(loser), winner=who(winner))
    if game.end_reason is EndReason.TIMEOUT:
        return texts.gettext("{loser} ran out of time; {winner} wins.", loser=who(loser), winner=who(winner))
    line = ", ".join(game.cell_name(cell) for cell in game.winning_cells)
    if line:
        return texts.gettext("{winner} wins with {line}!", winner=who(winner), line=line)
    return texts.gettext("{winner} wins!", winner=who(winner))


def status_sentence(texts: Texts, game: GameView) -> str:
    """One sentence on where the game stands: whose turn it is, or how it ended."""
    if game.status is GameStatus.PENDING:
        challenged = game.challenged
        if challenged is None:
            return texts.gettext("Waiting for the challenged player to accept.")
        return texts.gettext("Waiting for {name} to accept.", name=who(challenged))
    if game.status is GameStatus.ACTIVE:
        side = game.to_move
        if side is None:
            return texts.gettext("The game is running.")
        if side.is_bot:
            return texts.gettext("{name} is thinking ({mark}).", name=who(side), mark=mark_label(side.mark))
        return texts.gettext("{name} to move ({mark}).", name=who(side), mark=mark_label(side.mark))
    if game.status is GameStatus.FINISHED:
        return _winner_sentence(texts, game)
    if game.status is GameStatus.EXPIRED:
        return texts.gettext("The challenge expired without an answer.")
    if game.end_reason is EndReason.DECLINED:
        return texts.gettext("The challenge was declined.")
    return texts.gettext("The game was cancelled; it has no result.")


def _colour(game: GameView) -> discord.Colour:
    if game.status is GameStatus.ACTIVE:
        return COLOUR_ACTIVE
    if game.status is GameStatus.PENDING:
        return COLOUR_PENDING
    if game.status is GameStatus.FINISHED:
        return COLOUR_DRAWN if game.result is GameResult.DRAW else COLOUR_WON
    return COLOUR_ENDED


def _side_line(texts: Texts, game: GameView, side: PlayerView) -> str:
    line = f"{mark_label(side.mark)}: {who(side)}"
    if side.is_bot and game.level is not None:
        line += " " + texts.gettext("(level: {level})", level=level_name(texts, game.level))
    return line


def board_text(texts: Texts, game: GameView) -> MessageText:
    """The text of a game's board message; the buttons (``views.board_view``) are the board itself.

    Each fact is said once. The content holds what must ping or be read aloud first:
    whose turn it is, or the result. The embed holds the rest: the size, who plays
    which mark (and the bot's level), the last move in words, the turn clock and how to play.
    """
    title = texts.gettext("Tic-tac-toe ({size})", size=size_label(texts, game))
    embed = discord.Embed(title=title, colour=_colour(game))
    lines = [_side_line(texts, game, side) for side in game.players]
    if game.last_cell is not None:
        mark = game.cells[game.last_cell]
        shown = game.cell_name(game.last_cell)
        if mark is None:
            lines.append(texts.gettext("Last move: {cell}", cell=shown))
        else:
            lines.append(texts.gettext("Last move: {mark} at {cell}", mark=mark_label(mark), cell=shown))
    side = game.to_move
    if game.is_active and side is not None and not side.is_bot and game.deadline is not None:
        lines.append(texts.gettext("Move {when} or lose on time.", when=timestamp(game.deadline)))
    embed.description = "\n".join(lines)
    footer = texts.gettext("Game {game} · move {ply}", game=game.id, ply=game.ply)
    if game.is_active:
        footer += " · " + texts.gettext("Click a cell, or type /ttt move.")
        if game.size == 5:
            footer += " " + texts.gettext("Resign with /ttt resign.")
    embed.set_footer(text=footer)
    return MessageText(status_sentence(texts, game), embed, players_only(game))


def challenge_text(texts: Texts, game: GameView) -> MessageText:
    """A pending challenge, or how it ended (declined, expired, cancelled) once it did."""
    challenged = game.challenged
    challenger = game.player(game.challenger_id)
    someone = texts.gettext("someone")
    invited = someone if challenged is None else who(challenged)
    inviter = someone if challenger is None else who(challenger)
    title = texts.gettext("Tic-tac-toe challenge ({size})", size=size_label(texts, game))
    embed = discord.Embed(title=title, colour=_colour(game))
    embed.description = "\n".join(_side_line(texts, game, side) for side in game.players)
    if game.is_pending:
        content = texts.gettext(
            "{invited}, {inviter} challenges you to tic-tac-toe.", invited=invited, inviter=inviter
        )
        if game.deadline is not None:
            content += " " + texts.gettext("Answer {when}.", when=timestamp(game.deadline))
        footer = texts.gettext(
            "Game {game} · only the challenged player can accept or decline.", game=game.id
        )
        embed.set_footer(text=footer)
    else:
        if game.status is GameStatus.EXPIRED:
            content = texts.gettext(
                "The challenge from {inviter} to {invited} expired without an answer.",
                inviter=inviter,
                invited=invited,
            )
        elif game.end_reason is EndReason.DECLINED:
            content = texts.gettext(
                "{invited} declined the challenge from {inviter}.", invited=invited, inviter=inviter
            )
        else:
            content = texts.gettext(
                "The challenge from {inviter} to {invited} was cancelled.", inviter=inviter, invited=invited
            )
        embed.set_footer(text=texts.gettext("Game {game}", game=game.id))
    pinged = [discord.Object(id=challenged.user_id)] if challenged and challenged.user_id else []
    return MessageText(content, embed, discord.AllowedMentions(everyone=False, roles=False, users=pinged))


def moved_text(texts: Texts, board_url: str) -> MessageText:
    """An older board message of a game, once the game is shown on another one."""
    return MessageText(
        texts.gettext("This game moved to a new message: {url}", url=board_url), None, nobody()
    )


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


def game_text(texts: Texts, game: GameView) -> MessageText:
    return challenge_text(texts, game) if is_challenge_message(game) else board_text(texts, game)


BUTTON_LABELS = {
    Action.RESIGN: N_("Resign"),
    Action.REMATCH: N_("Rematch"),
    Action.REVIEW: N_("Review"),
    Action.ACCEPT: N_("Accept"),
    Action.DECLINE: N_("Decline"),
}
"""The labels of the buttons that act on a whole game."""


def button_label(texts: Texts, action: Action) -> str:
    return texts.gettext(BUTTON_LABELS[action])


# Answers to the one player who clicked or typed

APOLOGY = N_("Sorry, something went wrong on my side. Please try again in a moment.")
NOT_IN_DMS = N_("Tic-tac-toe is played in server channels, not in direct messages.")
UNKNOWN_MEMBER = N_("I can't find that member in this server; pick someone from the list.")
NOT_ALLOWED_HERE = N_("You can't use this command here.")
COMMAND_CHANGED = N_("That command has just changed; please try again in a minute.")
UNAVAILABLE = N_("The game is not available right now; please try again in a moment.")
STALE_BUTTON = N_("That button belongs to an old board. Use /ttt board to see the current game.")
NOT_THIS_GAME = N_("That button is not part of this game.")


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


def outdated_board_text(texts: Texts, refusal: Refusal) -> str:
    """Why a click on an outdated board did nothing, now that the board is redrawn."""
    return refusal_text(texts, refusal) + " " + texts.gettext("I've brought the board up to date.")


def move_summary(texts: Texts, game: GameView, cell: str, board_url: str | None) -> str:
    """The answer to ``/ttt move``: the move as played, the bot's reply, the result, where the board is."""
    try:
        played = format_cell(parse_cell(cell, game.size), game.size)
    except EngineInputError:
        played = clean(cell)
    parts = [texts.gettext("You played {cell}.", cell=played)]
    if game.last_cell is not None and game.cell_name(game.last_cell) != played:
        parts.append(texts.gettext("I answered {cell}.", cell=game.cell_name(game.last_cell)))
    if not game.is_live:
        parts.append(status_sentence(texts, game))
    if board_url is not None:
        parts.append(texts.gettext("Board: {url}", url=board_url))
    return " ".join(parts)


def cell_choice_name(texts: Texts, name: str, number: str) -> str:
    """A cell as ``/ttt move``'s autocomplete offers it: ``b2 (cell 5)``."""
    return texts.gettext("{name} (cell {number})", name=name, number=number)


def resigned_text(texts: Texts, game: GameView) -> str:
    return texts.gettext("You resigned.") + " " + status_sentence(texts, game)


def cancelled_text(texts: Texts, game: GameView) -> str:
    return texts.gettext("Game {game} is cancelled; it has no result.", game=game.id)


# /ttt hint


def verdict_words(texts: Texts, value: Outcome, plies: int) -> str:
    if value is Outcome.WIN:
        return texts.ngettext("win in {count} move", "win in {count} moves", plies)
    if value is Outcome.LOSS:
        return texts.ngettext("loss in {count} move", "loss in {count} moves", plies)
    return texts.gettext("draw")


def _verdict_code(value: Outcome, plies: int) -> str:
    return {Outcome.WIN: f"W{plies}", Outcome.LOSS: f"L{plies}", Outcome.DRAW: "D"}[value]


def hint_embed(texts: Texts, hint: HintView) -> discord.Embed:
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
    embed = discord.Embed(title=texts.gettext("Hint"), colour=COLOUR_ACTIVE)
    verdict = texts.gettext(
        "With best play on both sides this is a **{verdict}** for you.",
        verdict=verdict_words(texts, hint.value, hint.plies),
    )
    embed.description = verdict + "\n```\n" + "\n".join(rows) + "\n```"
    best = ", ".join(game.cell_name(cell) for cell in hint.best)
    embed.add_field(name=texts.gettext("Best moves"), value=best or texts.gettext("none"), inline=False)
    lines = [
        f"{move.name}: {verdict_words(texts, move.value, move.plies)}"
        for move in sorted(hint.moves, key=lambda m: _rank(m.value, m.plies))
    ]
    embed.add_field(name=texts.gettext("Every cell"), value=_fit("\n".join(lines)), inline=False)
    footer = texts.gettext(
        "W3: you win in 3 moves, D: draw, L4: you lose in 4; moves of both players, yours included."
    )
    if not hint.exact:
        footer += " " + texts.gettext("The search ran out of time, so these are estimates.")
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


def record_text(texts: Texts, record: Record) -> str:
    return texts.gettext(
        "{wins}W {losses}L {draws}D",
        wins=texts.number(record.wins),
        losses=texts.number(record.losses),
        draws=texts.number(record.draws),
    )


def leaderboard_embed(texts: Texts, board: Leaderboard, *, server: bool) -> discord.Embed:
    scope = texts.gettext("this server") if server else texts.gettext("global")
    embed = discord.Embed(title=texts.gettext("Leaderboard: {scope}", scope=scope), colour=COLOUR_ACTIVE)
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
        embed.description = _fit("\n".join(lines), 4096)
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
    embed = discord.Embed(title=texts.gettext("Tic-tac-toe stats"), colour=COLOUR_ACTIVE)
    if stats.display_name is None:
        embed.description = texts.gettext("{player} has not played yet.", player=f"<@{user_id}>")
        return embed
    embed.description = f"<@{user_id}>"
    embed.add_field(
        name=texts.gettext("Against members"), value=record_text(texts, stats.vs_humans), inline=True
    )
    embed.add_field(
        name=texts.gettext("Against me"), value=record_text(texts, stats.vs_bot_total), inline=True
    )
    streak = texts.gettext(
        "{current} now, best {best}",
        current=texts.number(stats.current_streak),
        best=texts.number(stats.best_streak),
    )
    embed.add_field(name=texts.gettext("Streak"), value=streak, inline=True)
    levels = "\n".join(
        f"{level_name(texts, entry.level)}: {record_text(texts, entry.record)}" for entry in stats.vs_bot
    )
    embed.add_field(
        name=texts.gettext("Against me, by level"), value=levels or texts.gettext("none"), inline=False
    )
    ratings = [
        _rating_line(texts, texts.gettext("This server"), stats.server_rating),
        _rating_line(texts, texts.gettext("Global"), stats.global_rating),
    ]
    embed.add_field(name=texts.gettext("Rating"), value="\n".join(ratings), inline=False)
    if stats.recent:
        recent = "\n".join(_recent_line(texts, game) for game in stats.recent)
        embed.add_field(name=texts.gettext("Recent games"), value=_fit(recent), inline=False)
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
