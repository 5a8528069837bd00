"""The board message, challenge, hint and leaderboard rendering, and the buttons' custom ids (no Discord)."""

from __future__ import annotations

import re

import discord

from bot.engine import Level, Outcome
from bot.exts.games.custom_ids import Action, Click, parse_custom_id
from bot.exts.games.messages import GameMessage, compose
from bot.exts.games.render.board import board_text, moved_text
from bot.exts.games.render.common import MessageText, clean, players_only
from bot.exts.games.render.hint import hint_embed
from bot.exts.games.render.records import leaderboard_embed
from bot.exts.games.views import board_view
from bot.i18n import texts_for_locale
from bot.services.results import CellVerdict, HintView, Leaderboard, LeaderboardEntry
from bot.states import EndReason, GameResult, GameStatus
from tests.exts.factories import ALICE, BOB, game_view

ENGLISH = texts_for_locale("en-US")


def grid(view: discord.ui.View) -> list[dict[str, object]]:
    return [item.to_component_dict() for item in view.children]


def test_custom_ids_fit_discord_and_round_trip_through_the_parser() -> None:
    biggest = Click(Action.CELL, 10**18 - 1, 24, 24)
    assert len(biggest.custom_id) <= 100
    controls = [Click(action, 7) for action in Action if action is not Action.CELL]
    for click in (biggest, Click(Action.CELL, 1, 0, 0), *controls):
        assert parse_custom_id(click.custom_id) == click
    for junk in (
        "ttt:cell:0:0:0",
        "ttt:cell:1:2",
        "ttt:cell:x:1:1",
        "ttt:resign:",
        "x" * 100,
        "ttt:cell:1:2:3:4",
    ):
        assert parse_custom_id(junk) is None, junk


def test_the_grid_has_one_button_per_cell_in_reading_order_then_the_controls() -> None:
    game = game_view("X.O/.X./...", last_cell=4)
    view = board_view(game, ENGLISH)
    components = grid(view)
    cells = components[:9]
    assert [c["label"] for c in cells] == ["X", "b1", "O", "a2", "X", "c2", "a3", "b3", "c3"]
    assert [bool(c.get("disabled")) for c in cells] == [
        True,
        False,
        True,
        False,
        True,
        False,
        False,
        False,
        False,
    ]
    assert [item.row for item in view.children[:9]] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert cells[4]["style"] == discord.ButtonStyle.primary.value, "the last move is highlighted"
    assert re.fullmatch(r"ttt:cell:42:3:1", str(cells[1]["custom_id"]))
    assert [c["label"] for c in components[9:]] == ["Resign"] and view.children[9].row == 3


def test_a_won_board_is_disabled_with_the_line_highlighted_and_offers_a_rematch() -> None:
    game = game_view("XXX/OO./...", last_cell=2)
    components = grid(board_view(game, ENGLISH))
    assert all(c.get("disabled") for c in components[:9])
    styles = [c["style"] for c in components[:9]]
    assert [i for i, s in enumerate(styles) if s == discord.ButtonStyle.success.value] == [0, 1, 2]
    assert [c["label"] for c in components[9:]] == ["Rematch", "Review"]
    text = board_text(ENGLISH, game)
    assert f"<@{ALICE}> wins with a1, b1, c1!" in text.content


def test_a_5x5_board_fills_the_five_rows_and_4x4_keeps_a_controls_row() -> None:
    five = board_view(game_view("." * 25), ENGLISH)
    assert len(five.children) == 25 and max(item.row or 0 for item in five.children) == 4
    four = board_view(game_view("." * 16), ENGLISH)
    assert len(four.children) == 17 and four.children[-1].row == 4


def test_a_pending_challenge_shows_accept_and_decline_and_its_end_shows_none() -> None:
    pending = compose(game_view(vs_bot=False, status=GameStatus.PENDING), ENGLISH)
    assert pending.view is not None
    assert [c["label"] for c in grid(pending.view)] == ["Accept", "Decline"]
    assert pending.text.content.startswith(f"<@{BOB}>, <@{ALICE}> challenges you")
    assert pending.text.allowed_mentions.to_dict()["users"] == [BOB]
    expired = compose(
        game_view(vs_bot=False, status=GameStatus.EXPIRED, end_reason=EndReason.TIMEOUT), ENGLISH
    )
    assert expired.view is None and "expired" in expired.text.content
    declined = compose(
        game_view(vs_bot=False, status=GameStatus.CANCELLED, end_reason=EndReason.DECLINED), ENGLISH
    )
    assert declined.view is None and "declined" in declined.text.content


def test_results_by_resignation_timeout_and_cancel_are_stated() -> None:
    resigned = game_view(
        "X........", result=GameResult.O_WON, end_reason=EndReason.RESIGN, status=GameStatus.FINISHED
    )
    assert f"<@{ALICE}> resigned; **TicTacToe** wins." in board_text(ENGLISH, resigned).content
    late = game_view(
        "X...O....",
        vs_bot=False,
        result=GameResult.O_WON,
        end_reason=EndReason.TIMEOUT,
        status=GameStatus.FINISHED,
    )
    assert f"<@{ALICE}> ran out of time; <@{BOB}> wins." in board_text(ENGLISH, late).content
    cancelled = game_view("X...O....", status=GameStatus.CANCELLED, end_reason=EndReason.CANCEL)
    assert "cancelled" in board_text(ENGLISH, cancelled).content
    drawn = board_text(ENGLISH, game_view("XOX/XOO/OXX"))
    assert drawn.content is not None and "draw" in drawn.content
    assert drawn.embed is not None and drawn.embed.colour == discord.Colour.light_grey()


def test_mentions_are_limited_to_the_players_and_names_cannot_inject_markdown_or_pings() -> None:
    allowed = players_only(game_view(vs_bot=False)).to_dict()
    assert allowed["parse"] == [] and sorted(allowed["users"]) == [ALICE, BOB]
    assert clean("@everyone **bold**") != "@everyone **bold**"
    assert "@everyone" not in clean("@everyone")
    evil = board_text(ENGLISH, game_view(bot_name="@here *x*"))
    assert "@here" not in everything(evil)


def everything(text: MessageText) -> str:
    embed = text.embed.to_dict() if text.embed is not None else {}
    parts = [text.content or "", embed.get("title", ""), embed.get("description", "")]
    parts += [f"{field['name']} {field['value']}" for field in embed.get("fields", [])]
    return "\n".join([*parts, embed.get("footer", {}).get("text", "")])


def test_the_board_message_says_each_thing_once() -> None:
    running = board_text(ENGLISH, game_view("X.O/.X./..O", last_cell=8))
    assert running.content == f"<@{ALICE}> to move (❌ X)."
    shown = everything(running)
    assert shown.count("to move") == 1 and shown.count(f"<@{ALICE}>") == 2, "the turn, and who plays X"
    assert shown.count("Last move") == 1 and "⭕ O at c3" in shown
    assert shown.count("Your time runs out") == 1 and shown.count("3x3") == 1
    assert "```" not in shown, "the buttons are the board"
    won = board_text(ENGLISH, game_view("XXX/OO./...", last_cell=2))
    assert won.content == f"<@{ALICE}> wins with a1, b1, c1!"
    assert everything(won).count("wins") == 1 and "Your time runs out" not in everything(won)


def test_a_challenge_says_each_thing_once() -> None:
    pending = compose(game_view(vs_bot=False, status=GameStatus.PENDING), ENGLISH).text
    shown = everything(pending)
    assert shown.count("<t:") == 1 and shown.count("3x3") == 1 and shown.count("challenges you") == 1
    declined = compose(
        game_view(vs_bot=False, status=GameStatus.CANCELLED, end_reason=EndReason.DECLINED), ENGLISH
    )
    assert everything(declined.text).count("declined") == 1


def test_the_players_and_the_bots_level_are_named() -> None:
    embed = board_text(ENGLISH, game_view(level=Level.EASY)).embed
    assert embed is not None and "level: easy" in str(embed.description)
    assert f"❌ X: <@{ALICE}>" in str(embed.description)


def test_a_hint_names_every_free_cell_with_its_verdict() -> None:
    game = game_view("X........")
    moves = (
        CellVerdict(4, "b2", Outcome.DRAW, 8),
        CellVerdict(1, "b1", Outcome.LOSS, 4),
        CellVerdict(8, "c3", Outcome.LOSS, 6),
    )
    embed = hint_embed(ENGLISH, HintView(game, Outcome.DRAW, 8, True, moves, (4,)))
    fields = {field.name: field.value for field in embed.fields}
    assert fields["Best moves"] == "b2"
    assert fields["Every cell"].splitlines() == ["b2: draw", "c3: loss in 6 moves", "b1: loss in 4 moves"]
    assert "D" in str(embed.description) and "L4" in str(embed.description)


def test_a_hints_codes_are_in_the_readers_language_and_line_up() -> None:
    game = game_view("X........")
    moves = (CellVerdict(4, "b2", Outcome.DRAW, 8), CellVerdict(1, "b1", Outcome.LOSS, 4))
    hint = HintView(game, Outcome.DRAW, 8, True, moves, (4,))
    german = hint_embed(texts_for_locale("de"), hint)
    assert " N4 " in str(german.description)
    assert str(german.footer.text).startswith("S3: du gewinnst in 3 Zügen")
    japanese = str(hint_embed(texts_for_locale("ja"), hint).description).splitlines()
    rows = [line for line in japanese if line.startswith("1 ")]
    assert rows == ["1    X 負4   ·"], "負 takes two columns, so one space less before it"


def test_the_leaderboard_lists_ranks_and_escapes_names() -> None:
    entry = LeaderboardEntry(1, ALICE, "**al**", 1232, 5, 5, 0, 0)
    embed = leaderboard_embed(ENGLISH, Leaderboard(1, 5, (entry,)), server=True)
    assert str(embed.description).startswith(f"**1.** <@{ALICE}> (\\*\\*al\\*\\*): **1232**")
    empty = leaderboard_embed(ENGLISH, Leaderboard(1, 5, ()), server=False)
    assert "Nobody is ranked yet" in str(empty.description) and "5 rated games" in str(empty.description)


def test_a_message_sends_only_its_parts_and_an_edit_removes_the_others() -> None:
    board = compose(game_view(), ENGLISH)
    assert set(board.send_args()) == {"content", "embed", "view", "allowed_mentions"}
    assert board.edit_args()["view"] is board.view is not None
    url = "https://discord.com/channels/1/2/3"
    moved = GameMessage(moved_text(ENGLISH, url))
    assert set(moved.send_args()) == {"content", "allowed_mentions"}
    edit = moved.edit_args()
    assert edit["embed"] is None and edit["view"] is None, "an old board loses its card and buttons"
    assert url in str(edit["content"]) and edit["allowed_mentions"].to_dict()["parse"] == []
