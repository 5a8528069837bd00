"""``/ttt hint``: the engine's verdict on every free cell, for the player on turn."""

from __future__ import annotations

import unicodedata

import discord

from bot.engine import Outcome
from bot.exts.games.render.common import COLOUR_INFO, EMPTY_CELL, fit
from bot.i18n import Texts
from bot.services.results import HintView


def verdict_words(texts: Texts, value: Outcome, plies: int) -> str:
    """A cell's value for the player on turn in words: "win in 3 moves", "draw"."""
    if value is Outcome.WIN:
        return texts.ngettext("win in {count} move", "win in {count} moves", plies)
    if value is Outcome.LOSS:
        return texts.ngettext("loss in {count} move", "loss in {count} moves", plies)
    return texts.pgettext("hint verdict", "draw")


def verdict_code(texts: Texts, value: Outcome, plies: int) -> str:
    """A cell's value in the board's few characters: ``W3`` (a win in 3 moves), ``D``, ``L4``."""
    if value is Outcome.WIN:
        # Translators: a win in {count} moves on a hint's board: at most 2 characters and the number ("W3").
        return texts.pgettext("hint code", "W{count}", count=plies)
    if value is Outcome.LOSS:
        # Translators: a loss in {count} moves on a hint's board: at most 2 characters and the number ("L4").
        return texts.pgettext("hint code", "L{count}", count=plies)
    # Translators: a draw on a hint's board: at most 2 characters ("D").
    return texts.pgettext("hint code", "D")


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
                shown.append(
                    _right_aligned(verdict_code(texts, verdicts[cell].value, verdicts[cell].plies), width)
                )
            else:
                shown.append(EMPTY_CELL.rjust(width))
        rows.append(f"{row + 1} " + "".join(shown))
    # Translators: the title of the private answer to /ttt hint.
    embed = discord.Embed(title=texts.gettext("Hint"), colour=COLOUR_INFO)
    verdict = texts.gettext(
        # Translators: {verdict} is "win in 3 moves", "draw" or "loss in 4 moves" (the hint verdicts).
        "With best play on both sides this is a **{verdict}** for you.",
        verdict=verdict_words(texts, hint.value, hint.plies),
    )
    embed.description = verdict + "\n```\n" + "\n".join(rows) + "\n```"
    best = ", ".join(game.cell_name(cell) for cell in hint.best)
    embed.add_field(
        # Translators: a heading of /ttt hint: the free cells that keep the best result.
        name=texts.gettext("Best moves"),
        value=best or texts.pgettext("no best moves", "none"),
        inline=False,
    )
    lines = [
        f"{move.name}: {verdict_words(texts, move.value, move.plies)}"
        for move in sorted(hint.moves, key=lambda m: _rank(m.value, m.plies))
    ]
    # Translators: a heading of /ttt hint: every free cell with its value.
    embed.add_field(name=texts.gettext("Every cell"), value=fit("\n".join(lines)), inline=False)
    footer = texts.gettext(
        "{win}: you win in 3 moves, {draw}: a draw, {loss}: you lose in 4 moves"
        " (counting the moves of both players, yours included).",
        win=verdict_code(texts, Outcome.WIN, 3),
        draw=verdict_code(texts, Outcome.DRAW, 0),
        loss=verdict_code(texts, Outcome.LOSS, 4),
    )
    if not hint.exact:
        footer += " " + texts.gettext("The search ran out of time, so these are estimates.")
    embed.set_footer(text=footer)
    return embed


def _right_aligned(text: str, columns: int) -> str:
    """``text`` after the spaces that make it ``columns`` wide in a code block (勝 takes two columns)."""
    width = sum(2 if unicodedata.east_asian_width(character) in ("W", "F") else 1 for character in text)
    return " " * max(0, columns - width) + text


def _rank(value: Outcome, plies: int) -> tuple[int, int]:
    if value is Outcome.WIN:
        return (0, plies)
    if value is Outcome.DRAW:
        return (1, 0)
    return (2, -plies)
