"""The review stays within Discord's limits, however long the game and the names."""

from __future__ import annotations

import dataclasses

from bot.engine import Mark, Outcome, format_cell
from bot.exts.games.render.common import card_of
from bot.exts.games.render.review import EMBED_TOTAL_LIMIT, FIELD_LIMIT, review_embed
from bot.i18n import ENGLISH, texts_for
from bot.services import GameReview, MoveReview, Verdict
from bot.states import GameStatus
from discord_emulator.validation import V2_TEXT_MAX
from tests.exts.factories import game_view

FULL_5X5 = "XOXOXOXOXOXOXOXXXOOXOOXXO"


def test_a_25_move_review_with_long_names_fits_in_one_embed() -> None:
    game = game_view("." * 25, vs_bot=False, status=GameStatus.CANCELLED)
    long_x = dataclasses.replace(game.x, display_name="*" * 100)
    long_o = dataclasses.replace(game.o, display_name="_" * 100)
    game = dataclasses.replace(game, x=long_x, o=long_o)
    every_cell = tuple(range(25))
    moves = tuple(
        MoveReview(
            ply=ply,
            cell=ply,
            name=format_cell(ply, 5),
            mark=Mark.X if ply % 2 == 0 else Mark.O,
            player=long_x if ply % 2 == 0 else long_o,
            before=Verdict(Outcome.WIN, 13),
            after=Verdict(Outcome.LOSS, 12),
            best=every_cell,
            best_names=tuple(format_cell(cell, 5) for cell in every_cell),
            exact=False,
        )
        for ply in range(25)
    )
    embed = review_embed(texts_for(ENGLISH), GameReview(game, moves))
    assert len(embed) <= EMBED_TOTAL_LIMIT
    card = card_of(embed)
    assert len(card.top) + len(card.bottom or "") <= V2_TEXT_MAX, "it fits in one card"
    assert all(len(field.value or "") <= FIELD_LIMIT for field in embed.fields)
    assert "mistake" in (embed.fields[0].value or "") and "(not proven)" in (embed.fields[0].value or "")
