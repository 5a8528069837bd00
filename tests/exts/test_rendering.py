"""The board message, challenge, hint and leaderboard rendering, and the buttons' custom ids (no Discord)."""

from __future__ import annotations

import json
import re

import discord

from bot.engine import Level, Outcome
from bot.exts.games.custom_ids import Action, Click, parse_custom_id
from bot.exts.games.messages import GameMessage, compose
from bot.exts.games.render.board import board_text, challenge_text, moved_text
from bot.exts.games.render.common import Card, clean, players_only
from bot.exts.games.render.hint import hint_embed
from bot.exts.games.render.records import leaderboard_embed
from bot.exts.games.views import board_view
from bot.i18n import texts_for_locale
from bot.services.results import CellVerdict, HintView, Leaderboard, LeaderboardEntry
from bot.states import EndReason, GameResult, GameStatus
from tests.exts.factories import ALICE, BOB, game_view
from tests.support import layouts

ENGLISH = texts_for_locale("en-US")


def grid(view: discord.ui.LayoutView) -> list[dict[str, object]]:
    return layouts.buttons(view)


def test_custom_ids_fit_discord_and_round_trip_through_the_parser() -> None:
    biggest = Click(Action.CELL, 10**18 - 1, 24, 24)
    assert len(biggest.custom_id) <= 100
    controls = [Click(action, 7) for action in Action if action is not Action.CELL]
    for click in (biggest, Click(Action.CELL, 1, 0, 0), *controls):
        assert parse_custom_id(click.custom_id) == click
    assert parse_custom_id("ttt:cell:42:3:1") == Click(Action.CELL, 42, 3, 1), "the ids of older boards"
    for junk in (
        "ttt:cell:0:0:0",
        "ttt:0:0:0",
        "ttt:cell:1:2",
        "ttt:1:2",
        "ttt:cell:x:1:1",
        "ttt:resign:",
        "x" * 100,
        "ttt:cell:1:2:3:4",
        "ttt:1:2:3:4",
        "ttt:cell:cell:1:2:3",
    ):
        assert parse_custom_id(junk) is None, junk


def test_the_grid_has_one_button_per_cell_in_reading_order_then_the_controls() -> None:
    game = game_view("X.O/.X./...", last_cell=4)
    view = board_view(game, ENGLISH)
    rows = layouts.rows(view)
    assert [len(row) for row in rows] == [3, 3, 3, 2], "three rows of cells, then the controls"
    cells = [button for row in rows[:3] for button in row]
    assert [c["label"] for c in cells] == ["a1", "b1", "c1", "a2", "b2 •", "c2", "a3", "b3", "c3"]
    assert [(c.get("emoji") or {}).get("name") for c in cells[:3]] == ["❌", None, "⭕"]
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
    assert cells[4]["style"] == discord.ButtonStyle.primary.value, "the last move is highlighted"
    assert re.fullmatch(r"ttt:42:3:1", str(cells[1]["custom_id"]))
    assert [c["label"] for c in rows[3]] == ["Resign", "Hint"]
    assert layouts.accent(view) == discord.Colour.orange().value, "O to move"
    assert layouts.accent(board_view(game_view(), ENGLISH)) == discord.Colour.blurple().value, "X to move"


def test_a_won_board_is_disabled_with_the_line_marked_and_offers_a_rematch_review_and_replay() -> None:
    game = game_view("XXX/OO./...", last_cell=2)
    view = board_view(game, ENGLISH)
    components = grid(view)
    assert all(c.get("disabled") for c in components[:9])
    styles = [c["style"] for c in components[:9]]
    assert [i for i, s in enumerate(styles) if s == discord.ButtonStyle.success.value] == [0, 1, 2]
    assert [c["label"] for c in components[:3]] == ["a1 ★", "b1 ★", "c1 ★"], "marked without colour too"
    assert [c["label"] for c in components[9:]] == ["Rematch", "Review", "Replay"]
    assert f"<@{ALICE}> wins with a1, b1, c1!" in layouts.shown_text(view)
    assert layouts.accent(view) == discord.Colour.green().value


def test_every_size_has_a_controls_row_within_discords_forty_components() -> None:
    for text in ("." * 25, "XXXX./OOO../...../...../.....", "." * 16, "." * 9):
        view = board_view(game_view(text, last_cell=3 if "X" in text else None), ENGLISH)
        size = round(len(text.replace("/", "")) ** 0.5)
        rows = layouts.rows(view)
        assert len(rows) == size + 1 and all(len(row) == size for row in rows[:size])
        assert rows[-1] and view.total_children_count <= 40, (text, view.total_children_count)
        assert layouts.body(view) and "content" not in layouts.body(view)


def test_a_pending_challenge_shows_accept_and_decline_and_its_end_shows_none() -> None:
    pending = compose(game_view(vs_bot=False, status=GameStatus.PENDING), ENGLISH)
    assert [c["label"] for c in grid(pending.layout)] == ["Accept", "Decline"]
    assert pending.text.content is None and pending.text.embed is None
    assert f"<@{BOB}>, <@{ALICE}> challenges you" in layouts.shown_text(pending.view)
    assert pending.text.allowed_mentions.to_dict()["users"] == [BOB]
    expired = compose(
        game_view(vs_bot=False, status=GameStatus.EXPIRED, end_reason=EndReason.TIMEOUT), ENGLISH
    )
    assert grid(expired.layout) == [] and "expired" in layouts.shown_text(expired.view)
    declined = compose(
        game_view(vs_bot=False, status=GameStatus.CANCELLED, end_reason=EndReason.DECLINED), ENGLISH
    )
    assert grid(declined.layout) == [] and "declined" in layouts.shown_text(declined.view)


def shown(card: Card) -> str:
    return "\n".join(part for part in (card.top, card.bottom) if part)


def test_results_by_resignation_timeout_and_cancel_are_stated() -> None:
    resigned = game_view(
        "X........", result=GameResult.O_WON, end_reason=EndReason.RESIGN, status=GameStatus.FINISHED
    )
    assert f"<@{ALICE}> resigned; **TicTacToe** wins." in board_text(ENGLISH, resigned).top
    late = game_view(
        "X...O....",
        vs_bot=False,
        result=GameResult.O_WON,
        end_reason=EndReason.TIMEOUT,
        status=GameStatus.FINISHED,
    )
    assert f"<@{ALICE}> ran out of time; <@{BOB}> wins." in board_text(ENGLISH, late).top
    cancelled = game_view("X...O....", status=GameStatus.CANCELLED, end_reason=EndReason.CANCEL)
    assert "cancelled" in board_text(ENGLISH, cancelled).top
    drawn = board_text(ENGLISH, game_view("XOX/XOO/OXX"))
    assert "draw" in drawn.top and drawn.colour == discord.Colour.light_grey()


def test_mentions_are_limited_to_the_players_and_names_cannot_inject_markdown_or_pings() -> None:
    allowed = players_only(game_view(vs_bot=False)).to_dict()
    assert allowed["parse"] == [] and sorted(allowed["users"]) == [ALICE, BOB]
    assert clean("@everyone **bold**") != "@everyone **bold**"
    assert "@everyone" not in clean("@everyone")
    evil = board_text(ENGLISH, game_view(bot_name="@here *x*"))
    assert "@here" not in shown(evil)


def test_the_board_message_says_each_thing_once() -> None:
    running = board_text(ENGLISH, game_view("X.O/.X./..O", last_cell=8))
    assert running.top.splitlines()[:2] == [
        "### Tic-tac-toe (3x3, 3 in a row)",
        f"<@{ALICE}> to move (❌ X).",
    ]
    text = shown(running)
    assert text.count("to move") == 1 and text.count(f"<@{ALICE}>") == 2, "the turn, and who plays X"
    assert text.count("Last move") == 1 and "⭕ O at c3" in str(running.bottom)
    assert text.count("Your time runs out") == 1 and text.count("3x3") == 1
    assert "```" not in text, "the buttons are the board"
    won = board_text(ENGLISH, game_view("XXX/OO./...", last_cell=2))
    assert won.top.splitlines()[1] == f"<@{ALICE}> wins with a1, b1, c1!"
    assert shown(won).count("wins") == 1 and "Your time runs out" not in shown(won)


def test_a_challenge_says_each_thing_once() -> None:
    pending = shown(challenge_text(ENGLISH, game_view(vs_bot=False, status=GameStatus.PENDING)))
    assert pending.count("<t:") == 1 and pending.count("3x3") == 1 and pending.count("challenges you") == 1
    declined = game_view(vs_bot=False, status=GameStatus.CANCELLED, end_reason=EndReason.DECLINED)
    assert shown(challenge_text(ENGLISH, declined)).count("declined") == 1


def test_the_players_and_the_bots_level_are_named() -> None:
    top = board_text(ENGLISH, game_view(level=Level.EASY)).top
    assert "level: easy" in top and f"❌ X: <@{ALICE}>" in top


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
    assert board.layout is board.view is not None and set(board.send_args()) == {"allowed_mentions"}
    edit = board.edit_args()
    assert edit["content"] is None and edit["embed"] is None, "an embed board turns into a V2 one"
    url = "https://discord.com/channels/1/2/3"
    moved = GameMessage.of_card(moved_text(ENGLISH, url))
    assert grid(moved.layout) == [] and url in layouts.shown_text(moved.view)
    assert moved.edit_args()["allowed_mentions"].to_dict()["parse"] == []


def test_a_board_is_sent_without_the_fields_discord_assumes_anyway() -> None:
    game = game_view("X.O/.X./...", last_cell=4)
    sent = json.dumps(layouts.payload(board_view(game, ENGLISH)))
    for default in ('"disabled": false', '"spoiler": false', '"id": null', '"divider": true', '"spacing": 1'):
        assert default not in sent, default
    cells = layouts.buttons(board_view(game, ENGLISH))
    assert cells[0]["emoji"] == {"name": "❌"} and cells[0]["disabled"] is True
    assert "disabled" not in cells[1], "an empty cell is enabled, as Discord assumes"
    assert '{"type": 14}' in sent, "the separator is Discord's default one: a thin line"
