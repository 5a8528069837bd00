"""Games against the bot, end to end: the real bot process, driven through the Discord emulator."""

from __future__ import annotations

import pytest

from bot.exts.games.custom_ids import parse_custom_id
from bot.notice import Notice
from discord_emulator import DiscordEmulator, Message
from tests.support.bot import BotUnderTest
from tests.support.layouts import COMPONENTS_V2
from tests.support.store import boards_recorded
from tests.support.tables import (
    DANGER,
    PRIMARY,
    SUCCESS,
    Table,
    answer,
    board,
    busy_engine,
    cells,
    click_cell,
    controls,
    free_cells,
    headline,
    mark_shown,
    private_answer,
)

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


@pytest.fixture(scope="module")
def bot_settings() -> dict[str, str]:
    """A hint on a hard 5x5 position then holds the engine 3 s, longer than a click waits to be deferred."""
    return {"ENGINE_BUDGET_MS": "3000"}


CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2


def card_colour(message: Message) -> int | None:
    """The accent colour of a Components V2 message's one container (an answer's kind)."""
    assert message.flags & COMPONENTS_V2 and message.content == "" and message.embeds == []
    (container,) = message.components
    assert container["type"] == 17
    colour = container.get("accent_color")
    return None if colour is None else int(colour)


def game_of(message: Message) -> int:
    click = parse_custom_id(message.buttons[0].custom_id or "")
    assert click is not None
    return click.game_id


async def test_commands_are_synced_with_descriptions_choices_and_installable_everywhere(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    (ttt,) = [command for command in emu.commands() if command["name"] == "ttt"]
    assert sorted(ttt["contexts"]) == [0, 1, 2] and sorted(ttt["integration_types"]) == [0, 1]
    subcommands = {option["name"]: option for option in ttt["options"]}
    assert set(subcommands) == {
        "start",
        "move",
        "board",
        "resign",
        "hint",
        "leaderboard",
        "stats",
        "cancel",
        "settings",
        "history",
        "review",
        "replay",
        "arena",
    }
    arena = subcommands.pop("arena")
    assert arena["type"] == SUB_COMMAND_GROUP and arena["description"]
    arena_commands = {option["name"]: option for option in arena["options"]}
    assert set(arena_commands) == {"open", "join", "leave", "start", "cancel", "standings"}
    for sub in [*subcommands.values(), *arena_commands.values()]:
        assert sub["type"] == SUB_COMMAND and sub["description"]
        for option in sub.get("options", []):
            assert option["description"], f"/ttt {sub['name']} {option['name']} has no description"
    start = {option["name"]: option for option in subcommands["start"]["options"]}
    assert [choice["value"] for choice in start["size"]["choices"]] == [3, 4, 5]
    assert [choice["value"] for choice in start["level"]["choices"]] == ["easy", "medium", "hard", "perfect"]
    assert [choice["value"] for choice in start["first"]["choices"]] == ["me", "opponent", "random"]
    assert not any(option.get("required") for option in start.values())
    (cell,) = subcommands["move"]["options"]
    assert cell["name"] == "cell" and cell["autocomplete"] is True and cell["required"] is True
    (scope,) = subcommands["leaderboard"]["options"]
    assert [choice["value"] for choice in scope["choices"]] == ["server", "global"]


async def test_a_full_game_against_the_perfect_bot_ends_in_a_draw_or_a_bot_win(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice")
    start = await table.slash("alice", "ttt start")
    message = await answer(start)
    assert not message.ephemeral
    assert start.callback is not None and start.callback.type == 4
    assert board(message) == "." * 9 and free_cells(message) == list(range(9))
    assert controls(message) == ["Resign", "Hint"]
    assert message.flags & COMPONENTS_V2 and message.content == "" and message.embeds == []
    assert f"<@{table['alice'].id}>" in message.text and "perfect" in message.text.lower()
    assert "to move" in headline(message) and "X" in headline(message)

    moves = 0
    while free_cells(message):
        before = board(message).count(".")
        click = await click_cell(table, message, free_cells(message)[0], "alice")
        moves += 1
        assert click.callback is not None and click.callback.type in (6, 7)
        after = board(message).count(".")
        assert after == before - 2 or (after == before - 1 and not free_cells(message))

    assert moves >= 3
    final = board(message)
    assert all(button.disabled for button in cells(message))
    text = message.text.lower()
    assert "draw" in text or "wins" in text
    assert f"<@{table['alice'].id}> wins" not in message.text
    if "wins" in text:
        winning = [button for button in cells(message) if button.style == SUCCESS]
        assert len(winning) == 3 and all(mark_shown(button.label, button.emoji) == "O" for button in winning)
        assert all((button.label or "").endswith("★") for button in winning), "marked without colour too"
    else:
        assert "." not in final
    assert controls(message) == ["Rematch", "Review", "Replay"]


async def test_the_board_message_says_each_thing_once(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice")
    alice = f"<@{table['alice'].id}>"
    message = await answer(await table.slash("alice", "ttt start", level="easy"))
    assert headline(message) == f"{alice} to move (❌ X).", "first, only whose turn it is"
    assert "```" not in message.text, "the buttons are the board"
    assert [button.label for button in cells(message)] == [
        "a1",
        "b1",
        "c1",
        "a2",
        "b2",
        "c2",
        "a3",
        "b3",
        "c3",
    ]

    await click_cell(table, message, 4, "alice")
    text = message.text
    assert headline(message) == f"{alice} to move (❌ X)."
    for fact in ("to move", "Last move", "Your time runs out", "3x3", "level: easy"):
        assert text.count(fact) == 1, f"{fact!r} said {text.count(fact)} times:\n{text}"
    assert "Last move: ⭕ O at" in message.display_text and "X at b2" not in text
    assert cells(message)[4].emoji == {"name": "❌"} and cells(message)[4].label == "b2", (
        "a cell keeps its name"
    )

    await answer(await table.click(message, message.button(label="Resign").custom_id or "", "alice"))
    assert headline(message).startswith(f"{alice} resigned; ") and headline(message).endswith(" wins.")
    assert message.text.count("resigned") == 1 and "to move" not in message.text


async def test_the_bot_opens_when_the_player_lets_it_move_first(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice")
    message = await answer(await table.slash("alice", "ttt start", first="opponent", level="easy", size=4))
    assert len(cells(message)) == 16
    assert board(message).count("X") == 1 and board(message).count("O") == 0
    (last,) = [button for button in cells(message) if button.style == PRIMARY]
    assert mark_shown(last.label, last.emoji) == "X" and last.disabled and (last.label or "").endswith("•")
    assert "easy" in message.text.lower() and "4 in a row" in message.text
    assert f"<@{table['alice'].id}> to move" in headline(message)


async def test_a_5x5_board_has_its_controls_row_and_hint_answers_the_player_on_turn_alone(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice", "bob")
    await busy_engine(emu)
    start = await table.slash("alice", "ttt start", size=5, first="opponent")
    message = await answer(start)
    assert start.callback is not None and start.callback.type == 5, (
        "the opening, waiting for the engine, is deferred"
    )
    assert not message.ephemeral and len(message.rows) == 6 and len(cells(message)) == 25
    assert board(message).count("X") == 1 and len(free_cells(message)) == 24
    assert controls(message) == ["Resign", "Hint"] and "/ttt resign" not in message.text
    hint = message.button(label="Hint").custom_id or ""
    shown = await answer(await table.click(message, hint, "alice"))
    assert shown.ephemeral and "Best moves" in shown.text
    assert "not playing" in (await private_answer(await table.click(message, hint, "bob"))).lower()
    await answer(await table.click(message, message.button(label="Resign").custom_id or "", "alice"))
    assert "resigned" in headline(message) and controls(message) == ["Rematch", "Review", "Replay"]
    replay = await answer(await table.click(message, message.button(label="Replay").custom_id or "", "bob"))
    assert not replay.ephemeral and replay.attachments[0]["filename"].endswith(".gif")


async def test_move_command_autocomplete_and_bad_cells(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice", "bob")
    message = await answer(await table.slash("alice", "ttt start", level="easy"))

    offered = await table.emu.autocomplete(table.channel, table["alice"], "ttt move", focused="cell", cell="")
    await offered.wait_callback()
    assert [choice["value"] for choice in offered.choices] == [
        "a1",
        "b1",
        "c1",
        "a2",
        "b2",
        "c2",
        "a3",
        "b3",
        "c3",
    ]

    moved = await table.slash("alice", "ttt move", cell=" B2 ")
    reply = await private_answer(moved)
    assert "b2" in reply
    assert card_colour(await answer(moved)) == Notice.CONFIRMATION.value, "a confirmation's card"
    assert board(message)[4] == "X" and board(message).count("O") == 1

    offered = await table.emu.autocomplete(
        table.channel, table["alice"], "ttt move", focused="cell", cell="b"
    )
    await offered.wait_callback()
    names = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    free = {names[index] for index in free_cells(message)}
    assert [choice["value"] for choice in offered.choices] == [n for n in ("b1", "b3") if n in free]

    outsider = await table.emu.autocomplete(table.channel, table["bob"], "ttt move", focused="cell", cell="")
    await outsider.wait_callback()
    assert outsider.choices == []

    shown = board(message)
    for bad, words in (
        ("hello", "not a cell"),
        ("z9", "no cell z9"),
        ("10", "no cell 10"),
        ("b2", "already taken"),
    ):
        asked = await table.slash("alice", "ttt move", cell=bad)
        refused = await private_answer(asked)
        assert words in refused.lower() and "\n" not in refused
        assert card_colour(await answer(asked)) == Notice.REFUSAL.value, "a refusal's card"
    assert board(message) == shown

    not_playing = await private_answer(await table.slash("bob", "ttt move", cell="a1"))
    assert "not playing" in not_playing.lower()
    assert board(message) == shown


async def test_hint_gives_a_verdict_for_every_free_cell_privately(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice")
    message = await answer(await table.slash("alice", "ttt start"))
    await click_cell(table, message, 0, "alice")
    hint = await table.slash("alice", "ttt hint")
    shown = await answer(hint)
    assert shown.ephemeral
    text = shown.text
    free = [button.label for button in cells(message) if not button.disabled]
    for name in free:
        assert any(line.startswith(f"{name}: ") for line in text.splitlines()), name
    assert "draw" in text
    assert "Best moves" in text


async def test_board_command_moves_the_game_to_a_new_message_and_the_old_one_links_to_it(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice")
    first = await answer(await table.slash("alice", "ttt start", level="easy"))
    await boards_recorded(bot)
    second = await answer(await table.slash("alice", "ttt board"))
    assert second.id != first.id and board(second) == "." * 9
    link = f"https://discord.com/channels/{table.guild.id}/{table.channel.id}/{second.id}"
    await emu.wait_for(lambda: link in first.text, timeout=15, description="old board links to the new")
    assert first.buttons == [] and first.embeds == [] and first.mentions == []

    await click_cell(table, second, 4, "alice")
    assert board(second)[4] == "X" and board(second).count("O") == 1
    assert first.buttons == [] and link in first.text


async def test_a_click_on_an_outdated_view_of_the_board_is_refused_politely(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice")
    message = await answer(await table.slash("alice", "ttt start", level="easy"))
    first_view = message.version
    old_id = cells(message)[8].custom_id or ""
    await click_cell(table, message, 0, "alice")
    assert cells(message)[8].custom_id != old_id and board(message).count("X") == 1

    refused = await private_answer(await table.click(message, old_id, "alice", version=first_view))
    assert "out of date" in refused
    assert board(message).count("X") == 1


async def test_forged_button_ids_are_refused_politely(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice")
    message = await answer(await table.slash("alice", "ttt start", level="easy"))
    own = game_of(message)
    for custom_id in (f"ttt:cell:{own + 10**6}:0:0", f"ttt:resign:{own + 10**6}"):
        refused = await private_answer(await table.click(message, custom_id, "alice", force=True))
        assert refused == "That button is not part of this game."
    for custom_id in ("junk" * 25, "ttt:cell:1:0", f"ttt:cell:{own}:7:0"):
        refused = await private_answer(await table.click(message, custom_id, "alice", force=True))
        assert "/ttt board" in refused
    assert board(message) == "." * 9 and message.version == 0


async def test_a_crafted_id_of_another_game_never_acts_on_or_redraws_the_clicked_board(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice")
    old = await answer(await table.slash("alice", "ttt start", level="easy"))
    await answer(await table.click(old, old.button(label="Resign").custom_id or "", "alice"))
    current = await answer(await table.slash("alice", "ttt start", level="easy"))
    old_game, shown = game_of(old), current.version
    assert old_game != game_of(current)
    for custom_id in (f"ttt:cell:{old_game}:0:4", f"ttt:rematch:{old_game}", f"ttt:resign:{old_game}"):
        refused = await private_answer(await table.click(current, custom_id, "alice", force=True))
        assert refused == "That button is not part of this game."
    assert current.version == shown and board(current) == "." * 9
    assert game_of(current) != old_game and controls(current) == ["Resign", "Hint"]


async def test_wrong_user_clicks_are_refused_privately(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice", "bob")
    message = await answer(await table.slash("alice", "ttt start"))
    refused = await private_answer(await table.click(message, cells(message)[4].custom_id or "", "bob"))
    assert "not playing" in refused.lower()
    refused = await private_answer(
        await table.click(message, message.button(label="Resign").custom_id or "", "bob")
    )
    assert "not playing" in refused.lower()
    assert board(message) == "." * 9


async def test_resign_by_button_and_by_command(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice")
    message = await answer(await table.slash("alice", "ttt start"))
    resign = await table.click(message, message.button(label="Resign").custom_id or "", "alice")
    await answer(resign)
    assert "resigned" in message.text and all(button.disabled for button in cells(message))
    assert controls(message) == ["Rematch", "Review", "Replay"]

    again = await private_answer(await table.slash("alice", "ttt resign"))
    assert "no game" in again.lower()

    rematch = await table.click(message, message.button(label="Rematch").custom_id or "", "alice")
    fresh = await answer(rematch)
    assert fresh.id != message.id and not fresh.ephemeral
    assert board(fresh).count("X") == 1, "after a rematch the marks swap, so the bot opens"

    confirmed = await private_answer(await table.slash("alice", "ttt resign"))
    assert "resigned" in confirmed.lower()
    await emu.wait_for(
        lambda: "resigned" in fresh.text, timeout=15, description="board shows the resignation"
    )
    assert all(button.disabled for button in cells(fresh))


async def test_cancel_by_a_moderator_and_refusal_for_others(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice", "dave", moderators=("carol",))
    message = await answer(await table.slash("alice", "ttt start", level="easy"))
    await click_cell(table, message, 0, "alice")

    refused = await private_answer(await table.slash("dave", "ttt cancel"))
    assert "only the players or a moderator" in refused.lower()
    assert any(not button.disabled for button in cells(message))

    done = await private_answer(await table.slash("carol", "ttt cancel"))
    assert "cancelled" in done.lower()
    assert "cancelled" in message.text.lower()
    assert all(button.disabled for button in cells(message)) and controls(message) == []


async def test_stats_after_games_against_the_bot(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice", "bob")
    message = await answer(await table.slash("alice", "ttt start", level="hard"))
    await answer(await table.click(message, message.button(label="Resign").custom_id or "", "alice"))

    stats = await answer(await table.slash("bob", "ttt stats", user=table["alice"]))
    assert stats.ephemeral, "one member's question, answered to them alone"
    text = stats.text
    assert f"<@{table['alice'].id}>" in text
    assert "0W 1L 0D" in text and "hard: 0W 1L 0D" in text
    assert "Lost against" in text

    nobody = await answer(await table.slash("bob", "ttt stats"))
    assert "has not played yet" in nobody.text
    assert not stats.mention_everyone and stats.mentions == []


async def test_a_direct_message_without_a_game_gets_a_sentence(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice")
    dm = emu.dm_channel(table["alice"])
    refused = await private_answer(await emu.slash(dm, table["alice"].user, "ttt board"))
    assert "no game" in refused and "\n" not in refused


async def test_shutdown_finishes_a_move_in_flight_and_the_game_survives_a_restart(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice")
    message = await answer(await table.slash("alice", "ttt start", size=5))
    await busy_engine(emu)
    click = await table.click(message, cells(message)[12].custom_id or "", "alice")
    callback = await click.wait_callback(timeout=15)
    assert callback.type == 6, "a reply slower than a second is deferred, then the board is edited"
    syncs = len(emu.calls("PUT"))

    assert await bot.stop() == 0
    assert board(message)[12] == "X" and board(message).count("O") == 1, "the move in flight was finished"
    assert click.ack_latency is not None and click.ack_latency < 3

    await bot.start(SYNC_COMMANDS="false")
    again = await click_cell(table, message, free_cells(message)[0], "alice")
    assert again.callback is not None and again.callback.type in (6, 7)
    assert board(message).count("X") == 2 and board(message).count("O") == 2
    assert len(emu.calls("PUT")) == syncs, "SYNC_COMMANDS=false must not sync"


async def test_no_message_can_ping_anyone_but_the_players(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice")
    table.members["alice"].nick = "@everyone"
    message = await answer(await table.slash("alice", "ttt start", level="easy"))
    assert not message.mention_everyone and message.mention_roles == []
    assert {user.id for user in message.mentions} <= {table["alice"].id}
    assert message.allowed_mentions is not None and message.allowed_mentions.get("parse") == []
    assert message.button(label="Resign").style == DANGER


async def test_an_embed_board_posted_before_components_v2_turns_into_one_at_its_next_click(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice")
    alice = table["alice"]
    current = await answer(await table.slash("alice", "ttt start", level="easy"))
    await boards_recorded(bot)
    game = game_of(current)
    grid = [
        {
            "type": 1,
            "components": [
                {
                    "type": 2,
                    "style": 2,
                    "label": f"{'abc'[column]}{row + 1}",
                    "custom_id": f"ttt:cell:{game}:0:{row * 3 + column}",
                }
                for column in range(3)
            ],
        }
        for row in range(3)
    ]
    resign = {"type": 2, "style": 4, "label": "Resign", "custom_id": f"ttt:resign:{game}"}
    old = emu.world.post_message(
        table.channel,
        {
            "content": f"<@{alice.id}> to move (❌ X).",
            "embeds": [{"title": "Tic-tac-toe (3x3, 3 in a row)", "description": "❌ X"}],
            "components": [*grid, {"type": 1, "components": [resign]}],
        },
    )
    assert not old.flags & COMPONENTS_V2 and board(old) == "." * 9

    click = await click_cell(table, old, 4, "alice")
    assert click.callback is not None and click.callback.type == 7, "one answer: the board edited in place"
    assert old.flags & COMPONENTS_V2 and old.content == "" and old.embeds == []
    assert board(old)[4] == "X" and board(old).count("O") == 1 and controls(old) == ["Resign", "Hint"]
    link = f"https://discord.com/channels/{table.guild.id}/{table.channel.id}/{old.id}"
    await emu.wait_for(lambda: link in current.text, timeout=15, description="the newer board links to it")
    assert current.buttons == [] and emu.spec_violations == []
    await click_cell(table, old, free_cells(old)[0], "alice")
    assert board(old).count("X") == 2


async def test_a_resignation_made_before_the_board_is_posted_shows_on_the_board(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    """The board's message is stored only once Discord has posted it; a change made in between
    cannot edit it, so the board, once posted, is brought up to date."""
    table = Table.create(emu, "alice")
    held = emu.hold_next("POST", CALLBACK)
    try:
        start = await table.slash("alice", "ttt start")
        await emu.wait_for(lambda: held.hits, timeout=15, description="the board's answer, held")
        assert held.hits[0].params["webhook_id"] == str(start.id)
        resigned = await private_answer(await table.slash("alice", "ttt resign"))
        assert "resigned" in resigned.lower()
    finally:
        assert held.release is not None
        held.release.set()
    message = await answer(start)
    await emu.wait_for(lambda: "resigned" in message.text, timeout=15, description="the board shows it")
    assert all(button.disabled for button in cells(message))
