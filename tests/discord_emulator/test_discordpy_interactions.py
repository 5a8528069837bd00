"""The throwaway discord.py bot played through the emulator: sync, commands, autocomplete, clicks."""

from __future__ import annotations

import discord
import pytest

from discord_emulator import InteractionUsageError
from tests.discord_emulator.sample_bot import Arena

pytestmark = pytest.mark.e2e


async def test_connects_and_syncs_commands(arena: Arena) -> None:
    emu, guild = arena.emu, arena.guild
    synced = emu.commands(guild)
    assert [command["name"] for command in synced] == ["ttt", "pocket"]
    subcommands = {option["name"]: option for option in synced[0]["options"]}
    assert set(subcommands) == {"start", "move", "note", "mod", "slow"}
    assert [option["name"] for option in subcommands["start"]["options"]] == ["opponent", "size"]
    assert subcommands["start"]["options"][0]["description"] == "Who to play"
    assert subcommands["move"]["options"][0]["autocomplete"] is True
    assert emu.commands() == []
    assert [record.t for record in emu.dispatches()][:2] == ["READY", "GUILD_CREATE"]
    assert emu.sessions[0].shard is None
    identify = next(record for record in emu.gateway_log if record.op == 2)
    assert identify.d["token"] == "<redacted>"
    assert identify.d["intents"] == discord.Intents.default().value
    # The bot reads its socket in order: once it has answered, it has processed GUILD_CREATE.
    await (await emu.slash(arena.channel, arena.alice, "ttt mod")).wait_response()
    cached = arena.bot.get_guild(guild.id)
    assert cached is not None and cached.name == "Arena"
    assert cached.me is not None and cached.me.id == emu.bot.id


async def test_slash_command_response_followup_and_edit(arena: Arena) -> None:
    emu = arena.emu
    it = await emu.slash(arena.channel, arena.alice, "ttt start", opponent=arena.bob, size=4)
    callback = await it.wait_callback()
    assert callback.type == 4
    assert not it.ephemeral
    note = (await it.wait_followups(1))[0]
    assert note.ephemeral and note.visible_to == arena.alice.id
    assert note.content == "size 4"
    board = await it.wait_for(lambda it: it.original if it.original and it.original.version == 1 else None)
    assert board.content == "Your move"
    assert board.history[0].content == ""
    assert f"<@{arena.alice.id}> vs <@{arena.bob.id}>" in board.embed_text
    assert [[button.custom_id for button in row] for row in board.rows] == [
        ["cell:0", "cell:1", "cell:2"],
        ["cell:3", "cell:4", "cell:5"],
        ["cell:6", "cell:7", "cell:8"],
    ]
    assert board.allowed_mentions is not None
    assert board.allowed_mentions["parse"] == []
    assert board.allowed_mentions["users"] == [arena.alice.id]
    assert emu.messages(arena.channel) == [board]
    assert emu.messages(arena.channel, include_ephemeral=True) == [board, note]


async def test_autocomplete_returns_choices(arena: Arena) -> None:
    it = await arena.emu.autocomplete(arena.channel, arena.alice, "ttt move", focused="cell", cell="B")
    await it.wait_callback()
    assert it.callback is not None and it.callback.type == 8
    assert [choice["value"] for choice in it.choices] == ["b1", "b2", "b3"]


async def test_thinking_defer_then_followup_fills_the_ephemeral_response(arena: Arena) -> None:
    it = await arena.emu.slash(arena.channel, arena.alice, "ttt move", cell="b2")
    response = await it.wait_response()
    assert it.callback is not None and it.callback.type == 5
    assert response.content == "moved b2"
    assert response.ephemeral and not response.loading
    assert it.followups == [response]
    assert arena.emu.messages(arena.channel) == []


async def test_click_edits_the_board_and_persistent_buttons_answer(arena: Arena) -> None:
    emu = arena.emu
    start = await emu.slash(arena.channel, arena.alice, "ttt start")
    board = await start.wait_for(lambda it: it.original if it.original and it.original.version == 1 else None)
    before = board.version
    click = await emu.click(board, "cell:4", arena.bob)
    assert await emu.wait_for_edit(board, since=before) is board
    assert click.callback is not None and click.callback.type == 7
    assert click.original is board
    assert board.content == "bob played 4"
    centre = board.button("cell:4")
    assert centre.label == "X" and centre.disabled
    assert not board.button("cell:0").disabled
    with pytest.raises(InteractionUsageError):
        await emu.click(board, "cell:4", arena.alice)
    stale = await emu.click(board, "cell:4", arena.alice, version=before)
    assert stale.payload["message"]["components"] == board.history[before].components
    await stale.wait_callback()

    note = await emu.slash(arena.channel, arena.alice, "ttt note")
    posted = await emu.wait_for_message(arena.channel, lambda m: m.content == "final text")
    assert [version.content for version in posted.history] == ["first draft", "final text"]
    assert posted.interaction is None and (await note.wait_callback()).ephemeral
    ping = await emu.click(posted, "persistent:ping", arena.carol)
    pong = await ping.wait_response()
    assert pong.content == "pong" and pong.ephemeral


async def test_member_permissions_reach_the_bot(arena: Arena) -> None:
    for member, expected in ((arena.carol, "True"), (arena.alice, "False")):
        it = await arena.emu.slash(arena.channel, member, "ttt mod")
        assert (await it.wait_response()).content == f"manage_messages={expected}"
