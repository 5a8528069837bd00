"""Every message renders in every language with realistic arguments; what Discord shows stays in its limits.

Arguments are the longest a user can cause: display names of 32 characters full of markdown and
emoji (escaped, as the adapters show them), the largest board, game numbers of ten digits, counts
of 1, 2 and 5 for the plural forms.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import discord
import pytest

from bot.engine import Level, Outcome
from bot.exts.games.messages import compose
from bot.exts.games.render import answers, common, records, review
from bot.exts.games.render.hint import hint_embed
from bot.exts.games.views import card_view
from bot.i18n import LANGUAGES, TRANSLATED, Language, Texts, texts_for
from bot.i18n.tooling import placeholders, source_messages
from bot.services.results import (
    CellVerdict,
    FinishedGames,
    HintView,
    Leaderboard,
    LeaderboardEntry,
    LevelRecord,
    PlayerOutcome,
    PlayerStats,
    RatingView,
    RecentGame,
    Record,
)
from bot.states import EndReason, GameStatus
from discord_emulator.errors import FormErrors
from discord_emulator.validation import check_message_body
from tests.exts.factories import ALICE, NOW, game_view
from tests.support import layouts

LONG_NAME = "**Ålice** __the__ 🎲 ~~Große~~ ||x||"[:32]
SHOWN_NAME = common.clean(LONG_NAME)
MENTION = "<@123456789012345678>"
URL = "https://discord.com/channels/123456789012345678/123456789012345678/123456789012345678"

REALISTIC: dict[str, object] = {
    "name": SHOWN_NAME,
    "winner": MENTION,
    "loser": f"**{SHOWN_NAME}**",
    "invited": MENTION,
    "inviter": MENTION,
    "player": MENTION,
    "opponent": f"**{SHOWN_NAME}**",
    "x": SHOWN_NAME,
    "o": SHOWN_NAME,
    "mark": "❌ X",
    "engine": "O",
    "level": " (perfect)",
    "theme": "high contrast",
    "cell": "e5",
    "cells": 25,
    "last": "e5",
    "size": 5,
    "k": 4,
    "line": "a1, b2, c3, d4",
    "when": "<t:1893456000:R>",
    "url": URL,
    "game": 2147483647,
    "ply": 25,
    "number": 25,
    "seconds": 59,
    "rank": 1000,
    "rating": 2400,
    "best": "b3, d4 or e5",
    "games": "12,345 games",
    "scope": "This server",
    "wins": "12,345",
    "losses": "12,345",
    "draws": "12,345",
    "current": 12,
    "verdict": "loss in 24 moves",
    "language": "Español (Latinoamérica)",
    "value": "'" + "z" * 100 + "'",
    "problem": "database is locked; the game could not be saved",
    "outcome": "the game was cancelled before your first move, so it does not count",
    "id": 9223372036854775807,
    "record": "12,345 won, 12,345 lost, 12,345 drawn",
    "win": "W24",
    "draw": "D",
    "loss": "L24",
    "before": "a win in 24 moves",
    "after": "a loss in 24 moves",
    "mistake": (
        "move 24 (e5) turned a win in 24 moves into a loss in 24 moves; b3, d4 or e5 would have kept the win"
    ),
    "option": "first",
    "moves": ", ".join(f"X e{n}" for n in range(25)),
    "result": f"{SHOWN_NAME} (X) won.",
    "count": 5,
    "user": MENTION,
    "file": "/home/someone/replays/game-2147483647.gif",
    "command": "python -m bot play",
    "review": "python -m bot review 2147483647",
    "replay": "python -m bot replay 2147483647 --out game-2147483647.gif",
    "channel": 1234567890123456789,
    "channels": ", ".join(f"<#{1234567890123456789 + n}>" for n in range(25)),
    "role": 1234567890123456789,
    "duration": "**86,400 seconds**",
    "arenas": "12,345 arenas",
    "podiums": "12,345",
    "place": 64,
    "players": 64,
    "low": 30,
    "high": 86400,
    "given": -1234567890,
    "limit": 25,
    "rounds": 9,
    "board": 32,
    "opener": MENTION,
    "points": "8½",
    "buchholz": "40½",
    "sb": "32¼",
    "settings": "DATABASE_URL, DISCORD_API_BASE, DEV_GUILD_ID, SYNC_COMMANDS, AUTO_MIGRATE, LOG_LEVEL",
}
"""A realistic value for each placeholder name the messages use."""

CONTENT_LIMIT = 2000
UNFILLED = re.compile(r"\{[a-z_]+\}")
COUNTS = (1, 2, 5)


def test_every_placeholder_has_a_realistic_value() -> None:
    used = {name for forms in source_messages().values() for form in forms for name in placeholders(form)}
    assert used <= set(REALISTIC), f"give these a realistic value: {sorted(used - set(REALISTIC))}"


@pytest.mark.parametrize("language", LANGUAGES, ids=lambda language: language.code)
def test_every_message_renders_in_every_language(language: Language) -> None:
    texts = texts_for(language)
    for (message, context), forms in source_messages().items():
        if len(forms) == 2:
            shown = [texts.ngettext(forms[0], forms[1], count, **REALISTIC) for count in COUNTS]
        elif context is not None:
            shown = [texts.pgettext(context, message, **REALISTIC)]
        else:
            shown = [texts.gettext(message, **REALISTIC)]
        for text in shown:
            assert text.strip(), message
            assert len(text) <= CONTENT_LIMIT, (language.code, message)
            assert not UNFILLED.search(text), (language.code, text)
        if language.code != "en" and len(forms) == 1 and placeholders(message) == set() and len(message) > 12:
            assert shown[0] != message, f"{language.code} leaves {message!r} in English"


def within_limits(**body: Any) -> None:
    errors = FormErrors()
    check_message_body(body, errors)
    assert not errors, errors.errors


def embed_body(embed: discord.Embed) -> dict[str, Any]:
    """The answer as the bot sends it: the embed laid out as a card (Components V2)."""
    return layouts.body(card_view(common.card_of(embed)))


def message_body(message: common.MessageText, view: discord.ui.View | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if message.content is not None:
        body["content"] = message.content
    if message.embed is not None:
        body["embeds"] = [message.embed.to_dict()]
    if view is not None:
        body["components"] = view.to_components()
    return body


GAMES = {
    "5x5 running": dict(text="XO.XO/OX.OX/XO.../...../.....", last_cell=12),
    "4x4 won": dict(text="XXXX/OOO./..../....", last_cell=3),
    "drawn": dict(text="XOX/XOO/OXX"),
    "resigned": dict(text="X.O/.../...", status=GameStatus.FINISHED, end_reason=EndReason.RESIGN),
    "timeout": dict(text="X.O/.../...", status=GameStatus.FINISHED, end_reason=EndReason.TIMEOUT),
    "pending": dict(vs_bot=False, status=GameStatus.PENDING),
    "expired": dict(vs_bot=False, status=GameStatus.EXPIRED, end_reason=EndReason.TIMEOUT),
    "declined": dict(vs_bot=False, status=GameStatus.CANCELLED, end_reason=EndReason.DECLINED),
    "cancelled": dict(text="X.O/.../...", status=GameStatus.CANCELLED, end_reason=EndReason.CANCEL),
}


def stats(texts: Texts) -> PlayerStats:
    recent = tuple(
        RecentGame(
            game_id=2147483647 - n,
            opponent_id=None if n % 2 else ALICE,
            opponent_name=LONG_NAME,
            level=Level.PERFECT if n % 2 else None,
            outcome=list(PlayerOutcome)[n % 3],
            end_reason=[EndReason.RESIGN, EndReason.TIMEOUT, EndReason.LINE][n % 3],
            size=5,
            rated=True,
            finished_at=NOW - timedelta(days=n),
        )
        for n in range(10)
    )
    rating = RatingView(rating=2400, best=2450, games=12345, rank=1000)
    big = Record(12345, 12345, 12345)
    return PlayerStats(
        user_id=ALICE,
        display_name=LONG_NAME,
        vs_humans=big,
        vs_bot=tuple(LevelRecord(level, big) for level in Level),
        current_streak=123,
        best_streak=1234,
        server_rating=rating,
        global_rating=None,
        recent=recent,
    )


@pytest.mark.parametrize("language", LANGUAGES, ids=lambda language: language.code)
def test_what_discord_shows_stays_within_its_limits_in_every_language(language: Language) -> None:
    texts = texts_for(language)
    for options in GAMES.values():
        game = game_view(bot_name=LONG_NAME, game_id=2147483647, **options)  # type: ignore[arg-type]
        message = compose(game, texts)
        within_limits(**layouts.body(message.view, allowed_mentions=message.text.allowed_mentions.to_dict()))
        if game.vs_bot:
            assert SHOWN_NAME in layouts.shown_text(message.view), "the bot's name, escaped"
        for button in layouts.buttons(message.view):
            assert len(button.get("label") or "") <= 80
        within_limits(content=answers.move_summary(texts, game, "e5", URL))

    big = game_view("XO.XO/OX.OX/XO.../...../.....", bot_name=LONG_NAME)
    moves = tuple(
        CellVerdict(cell, big.cell_name(cell), [Outcome.WIN, Outcome.DRAW, Outcome.LOSS][cell % 3], 24)
        for cell in big.legal_moves
    )
    hint = HintView(big, Outcome.WIN, 24, False, moves, tuple(big.legal_moves))
    within_limits(**embed_body(hint_embed(texts, hint)))

    entries = tuple(LeaderboardEntry(n, ALICE, LONG_NAME, 2400, 12345, 12345, 0, 0) for n in range(1, 26))
    within_limits(**embed_body(records.leaderboard_embed(texts, Leaderboard(1, 25, entries), server=True)))
    within_limits(**embed_body(records.leaderboard_embed(texts, Leaderboard(1, 5, ()), server=False)))
    within_limits(**embed_body(records.stats_embed(texts, stats(texts), ALICE)))
    for language_code in (None, "es-419"):
        for changed in (False, True):
            within_limits(content=answers.settings_text(texts, language_code, "ja", changed=changed))
    for seconds in COUNTS:
        within_limits(content=answers.cooldown_text(texts, seconds))


ENGLISH_WORDS = re.compile(
    r"\b(the|to|move|wins?|game|challenge|you|your|level|last|resign|accept|decline)\b", re.IGNORECASE
)
COMMANDS = re.compile(r"/ttt [a-z]+")


@pytest.mark.parametrize("code", ["de", "ja"])
def test_no_english_is_left_on_a_translated_board(code: str) -> None:
    texts = texts_for(next(language for language in LANGUAGES if language.code == code))
    for options in GAMES.values():
        message = compose(game_view(bot_name="Robo", **options), texts)  # type: ignore[arg-type]
        parts = [layouts.shown_text(message.view)]
        parts += [str(item.get("label") or "") for item in layouts.buttons(message.view)]
        shown = COMMANDS.sub("", "\n".join(parts))
        assert not ENGLISH_WORDS.search(shown), (code, shown)


@pytest.mark.parametrize("language", TRANSLATED, ids=lambda language: language.code)
def test_the_history_names_the_bots_level_in_the_readers_language(language: Language) -> None:
    texts = texts_for(language)
    for level in Level:
        game = game_view("XXX/OO./...", level=level)
        shown = str(review.history_embed(texts, FinishedGames(ALICE, (game,))).description)
        name = common.level_name(texts, level)
        assert name in shown, (language.code, shown)
        if name != level.value:  # Dutch "perfect" is also the English word
            english = re.search(rf"\b{level.value}\b", shown)
            assert not english, f"{language.code} shows {level.value!r} in English"
