"""Answers to the one member who clicked or typed: refusals, apologies, a move's summary, the settings."""

from __future__ import annotations

from bot.engine import EngineInputError, format_cell, parse_cell
from bot.exts.games.render.board import status_sentence
from bot.exts.games.render.common import clean
from bot.i18n import N_, Texts, by_code, from_locale
from bot.services import NotDone
from bot.services.results import GameView

APOLOGY = N_("Sorry, something went wrong on my side. Please try again in a moment.")
SERVER_ONLY = N_("This command works only in a server.")
UNKNOWN_MEMBER = N_("I can't find that member in this server; pick someone from the list.")
NOT_ALLOWED_HERE = N_("You can't use this command here.")
COMMAND_CHANGED = N_("That command has just changed; please try again in a minute.")
UNAVAILABLE = N_("The game is not available right now; please try again in a moment.")
STALE_BUTTON = N_("That button belongs to an old board. Use /ttt board to see the current game.")
NOT_THIS_GAME = N_("That button is not part of this game.")


def not_understood_text(texts: Texts, value: object) -> str:
    """An option value Discord should have refused (a forged client), quoted safely."""
    return texts.gettext(
        "I couldn't understand {value}; please pick a value from the list.", value=clean(repr(value))
    )


def cooldown_text(texts: Texts, retry_after: float) -> str:
    """Too many starts or challenges in a row: when to try again, in whole seconds."""
    return texts.ngettext(
        "Slow down a little: try again in {count} second.",
        "Slow down a little: try again in {count} seconds.",
        max(1, round(retry_after)),
    )


def shown_param(value: object) -> object:
    """A refusal's param as a user sees it: text (a name, what they typed) loses markdown and mentions."""
    return clean(value) if isinstance(value, str) else value


def refusal_text(texts: Texts, refusal: NotDone) -> str:
    """A service's refusal in the reader's language, its text params escaped."""
    params = {name: shown_param(value) for name, value in refusal.params.items()}
    return texts.message(refusal.template, params, plural=refusal.plural, count=refusal.count)


def outdated_board_text(texts: Texts, refusal: NotDone) -> str:
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
    # Translators: a choice offered while typing /ttt move: a cell's name and its number.
    return texts.gettext("{name} (cell {number})", name=name, number=number)


def resigned_text(texts: Texts, game: GameView) -> str:
    """The answer to ``/ttt resign``, with how the game ended."""
    return texts.gettext("You resigned.") + " " + status_sentence(texts, game)


def cancelled_text(texts: Texts, game: GameView) -> str:
    """The answer to ``/ttt cancel``."""
    return texts.gettext("Game {game} is cancelled; it has no result.", game=game.id)


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
