"""``/ttt hint``: the engine's verdict on every free cell, for the player on turn."""

from __future__ import annotations

import discord

from bot.engine import Outcome
from bot.exts.games.render.common import COLOUR_ACTIVE, EMPTY_CELL, fit
from bot.i18n import Texts
from bot.services.results import HintView


def verdict_words(texts: Texts, value: Outcome, plies: int) -> str:
    """A cell's value for the player on turn in words: "win in 3 moves", "draw"."""
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
    embed.add_field(name=texts.gettext("Every cell"), value=fit("\n".join(lines)), inline=False)
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
