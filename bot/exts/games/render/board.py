"""A game's public message: its board, or its challenge, or a link to the board that replaced it.

The buttons themselves are built in :mod:`bot.exts.games.views`; their labels are here.
"""

from __future__ import annotations

import discord

from bot.engine import Mark
from bot.exts.games.custom_ids import Action
from bot.exts.games.render.common import (
    COLOUR_DRAWN,
    COLOUR_ENDED,
    COLOUR_O_TO_MOVE,
    COLOUR_PENDING,
    COLOUR_WON,
    COLOUR_X_TO_MOVE,
    Card,
    heading,
    level_name,
    nobody,
    players_only,
    size_label,
    small_print,
    timestamp,
    who,
)
from bot.exts.games.render.pieces import UNICODE_PIECES, Pieces
from bot.i18n import N_, Texts
from bot.services import EndReason, GameResult, GameStatus
from bot.services.results import GameView, PlayerView


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


def status_sentence(texts: Texts, game: GameView, pieces: Pieces = UNICODE_PIECES) -> str:
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
            return texts.gettext("{name} is thinking ({mark}).", name=who(side), mark=pieces.text(side.mark))
        return texts.gettext("{name} to move ({mark}).", name=who(side), mark=pieces.text(side.mark))
    if game.status is GameStatus.FINISHED:
        return _winner_sentence(texts, game)
    if game.status is GameStatus.EXPIRED:
        return texts.gettext("The challenge expired without an answer.")
    if game.end_reason is EndReason.DECLINED:
        return texts.gettext("The challenge was declined.")
    if game.bot_gave_up:
        return texts.gettext(
            "I could not make my move: my engine failed again and again. "
            "The game ends without a result and does not count."
        )
    return texts.gettext("The game was cancelled; it has no result.")


def colour_of(game: GameView) -> discord.Colour:
    """The accent colour of a game's messages: X to move blurple, O to move orange, a challenge gold,
    a win green, a draw grey, a game that ended without a result dark grey."""
    if game.status is GameStatus.ACTIVE:
        side = game.to_move
        return COLOUR_O_TO_MOVE if side is not None and side.mark is Mark.O else COLOUR_X_TO_MOVE
    if game.status is GameStatus.PENDING:
        return COLOUR_PENDING
    if game.status is GameStatus.FINISHED:
        return COLOUR_DRAWN if game.result is GameResult.DRAW else COLOUR_WON
    return COLOUR_ENDED


def _side_line(texts: Texts, game: GameView, side: PlayerView, pieces: Pieces) -> str:
    line = f"{pieces.text(side.mark)}: {who(side)}"
    if side.is_bot and game.level is not None:
        # Translators: after the bot's name on a board: its playing level (easy, medium, hard, perfect).
        line += " " + texts.gettext("(level: {level})", level=level_name(texts, game.level))
    return line


def board_text(texts: Texts, game: GameView, pieces: Pieces = UNICODE_PIECES) -> Card:
    """The words of a game's board message; the buttons (``views.board_view``) are the board itself.

    Each fact is said once. The top says what must ping or be read aloud first (whose turn it
    is, or the result) under the size, then who plays which mark (and the bot's level). The
    bottom, under the buttons, holds the last move in words, the turn clock and, until both players have
    moved, how to play.
    """
    title = texts.gettext("Tic-tac-toe ({size})", size=size_label(texts, game))
    top = [heading(title), status_sentence(texts, game, pieces)]
    top += [_side_line(texts, game, side, pieces) for side in game.players]
    bottom = []
    if game.last_cell is not None:
        mark = game.cells[game.last_cell]
        shown = game.cell_name(game.last_cell)
        if mark is None:
            bottom.append(texts.gettext("Last move: {cell}", cell=shown))
        else:
            bottom.append(texts.gettext("Last move: {mark} at {cell}", mark=pieces.text(mark), cell=shown))
    side = game.to_move
    if game.is_active and side is not None and not side.is_bot and game.deadline is not None:
        bottom.append(texts.gettext("Your time runs out {when}.", when=timestamp(game.deadline)))
    # Translators: the board's footer: the game's number and the number of moves played so far.
    footer = texts.gettext("Game {game} · move {number}", game=game.id, number=game.ply)
    if game.is_active and game.ply <= 1:
        # How to play, on the boards each player sees before their first move: not in every edit.
        footer += " · " + texts.gettext("Click a cell, or type /ttt move.")
    bottom.append(small_print(footer))
    return Card(colour_of(game), "\n".join(top), "\n".join(bottom), players_only(game))


def challenge_text(texts: Texts, game: GameView, pieces: Pieces = UNICODE_PIECES) -> Card:
    """A pending challenge, or how it ended (declined, expired, cancelled) once it did."""
    challenged = game.challenged
    challenger = game.player(game.challenger_id)
    # Translators: a challenger or challenged player whose name is unknown.
    someone = texts.gettext("someone")
    invited = someone if challenged is None else who(challenged)
    inviter = someone if challenger is None else who(challenger)
    title = texts.gettext("Tic-tac-toe challenge ({size})", size=size_label(texts, game))
    if game.is_pending:
        lead = texts.gettext(
            "{invited}, {inviter} challenges you to tic-tac-toe.", invited=invited, inviter=inviter
        )
        if game.deadline is not None:
            lead += " " + texts.gettext("This challenge expires {when}.", when=timestamp(game.deadline))
        footer = texts.gettext(
            "Game {game} · only the challenged player can accept or decline.", game=game.id
        )
    else:
        if game.status is GameStatus.EXPIRED:
            lead = texts.gettext(
                "The challenge from {inviter} to {invited} expired without an answer.",
                inviter=inviter,
                invited=invited,
            )
        elif game.end_reason is EndReason.DECLINED:
            lead = texts.gettext(
                "{invited} declined the challenge from {inviter}.", invited=invited, inviter=inviter
            )
        else:
            lead = texts.gettext(
                "The challenge from {inviter} to {invited} was cancelled.", inviter=inviter, invited=invited
            )
        # Translators: a challenge's footer: the number the game will have.
        footer = texts.gettext("Game {game}", game=game.id)
    top = [heading(title), lead, *(_side_line(texts, game, side, pieces) for side in game.players)]
    pinged = [discord.Object(id=challenged.user_id)] if challenged and challenged.user_id else []
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=pinged)
    return Card(colour_of(game), "\n".join(top), small_print(footer), mentions)


def moved_text(texts: Texts, board_url: str) -> Card:
    """An older board message of a game, once the game is shown on another one."""
    text = texts.gettext("This game moved to a new message: {url}", url=board_url)
    return Card(COLOUR_ENDED, text, None, nobody())


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


def game_text(texts: Texts, game: GameView, pieces: Pieces = UNICODE_PIECES) -> Card:
    """The text of the game's public message: its challenge or its board."""
    if is_challenge_message(game):
        return challenge_text(texts, game, pieces)
    return board_text(texts, game, pieces)


BUTTON_LABELS = {
    # Translators: a button under a running game's board, at most 80 characters.
    Action.RESIGN: N_("Resign"),
    # Translators: a button under a finished game, to play again, at most 80 characters.
    Action.REMATCH: N_("Rematch"),
    # Translators: a button under a finished game, to see my verdict on every move, at most 80 characters.
    Action.REVIEW: N_("Review"),
    # Translators: a button under a running game: my verdict on every free cell, shown only to the
    # player on turn; at most 80 characters.
    Action.HINT: N_("Hint"),
    # Translators: a button under a finished game: post it as an animated picture; at most 80 characters.
    Action.REPLAY: N_("Replay"),
    # Translators: a button under a challenge, at most 80 characters.
    Action.ACCEPT: N_("Accept"),
    # Translators: a button under a challenge, at most 80 characters.
    Action.DECLINE: N_("Decline"),
}
"""The labels of the buttons that act on a whole game."""


def button_label(texts: Texts, action: Action) -> str:
    """The label of a button that acts on the whole game."""
    return texts.gettext(BUTTON_LABELS[action])
