"""Deadlines, end to end: challenges expire and slow players lose on time, shown by editing the board.

The bot here runs with second-long timeouts and a sweep interval far longer than any test,
so the edits prove the sweeper wakes at the deadlines themselves. Commands are synced to a
development server only (``DEV_GUILD_ID``).
"""

from __future__ import annotations

import pytest

from discord_emulator import DiscordEmulator, Message, Perm
from tests.support.bot import BotUnderTest
from tests.support.tables import Table, answer, cells, controls, headline, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

DEADLINE_GUARD = 20.0
"""Failure guard for an edit that a deadline of a second or two should cause."""


@pytest.fixture(scope="module")
def dev_table(emu: DiscordEmulator) -> Table:
    return Table.create(emu, "alice", "bob")


@pytest.fixture(scope="module")
def bot_settings(dev_table: Table) -> dict[str, str]:
    return {
        "DEV_GUILD_ID": str(dev_table.guild.id),
        "CHALLENGE_TIMEOUT_SECONDS": "1",
        "TURN_TIMEOUT_SECONDS": "1.5",
        "SWEEP_INTERVAL_SECONDS": "600",
    }


def edited_by_channel_api(emu: DiscordEmulator, message: Message) -> bool:
    path = f"/channels/{message.channel.id}/messages/{message.id}"
    return any(
        call.path == path for call in emu.calls("PATCH", "/channels/{channel_id}/messages/{message_id}")
    )


async def test_commands_are_synced_to_the_development_server_only(
    emu: DiscordEmulator, bot: BotUnderTest, dev_table: Table
) -> None:
    synced = await emu.wait_for_commands(dev_table.guild)
    assert [command["name"] for command in synced] == ["ttt"]
    assert emu.commands() == []


async def test_an_unanswered_challenge_expires_and_says_so(
    emu: DiscordEmulator, bot: BotUnderTest, dev_table: Table
) -> None:
    channel = dev_table.new_channel("expiry")
    message = await answer(
        await dev_table.slash("alice", "ttt start", opponent=dev_table["bob"], where=channel)
    )
    assert [button.label for button in message.buttons] == ["Accept", "Decline"]
    accept_id = message.button(label="Accept").custom_id or ""

    await emu.wait_for(lambda: "expired" in message.text, DEADLINE_GUARD, "the challenge to expire")
    assert message.buttons == []
    assert edited_by_channel_api(emu, message), "expiry edits through the channel API, not a token"

    late = await private_answer(await dev_table.click(message, accept_id, "bob", force=True))
    assert "/ttt board" in late
    fresh = await answer(await dev_table.slash("alice", "ttt start", where=channel, level="easy"))
    assert len(cells(fresh)) == 9, "the channel is free once the challenge expired"


async def test_a_player_who_does_not_move_loses_on_time(
    emu: DiscordEmulator, bot: BotUnderTest, dev_table: Table
) -> None:
    channel = dev_table.new_channel("clock")
    message = await answer(await dev_table.slash("bob", "ttt start", where=channel, level="easy"))
    assert any(not button.disabled for button in cells(message))

    await emu.wait_for(lambda: "ran out of time" in message.text, DEADLINE_GUARD, "the turn clock to run out")
    assert f"<@{dev_table['bob'].id}> ran out of time" in message.text
    assert all(button.disabled for button in cells(message))
    assert controls(message) == ["Rematch", "Review", "Replay"]
    assert edited_by_channel_api(emu, message)


async def test_between_members_the_player_on_turn_loses_on_time(
    emu: DiscordEmulator, bot: BotUnderTest, dev_table: Table
) -> None:
    channel = dev_table.new_channel("clock-2")
    message = await answer(
        await dev_table.slash("alice", "ttt start", opponent=dev_table["bob"], where=channel)
    )
    await answer(await dev_table.click(message, message.button(label="Accept").custom_id or "", "bob"))
    await answer(await dev_table.click(message, cells(message)[4].custom_id or "", "alice"))

    await emu.wait_for(lambda: "ran out of time" in message.text, DEADLINE_GUARD, "bob's clock to run out")
    assert f"<@{dev_table['bob'].id}> ran out of time; <@{dev_table['alice'].id}> wins" in message.text


async def test_a_timeout_shown_by_the_bot_alone_speaks_the_servers_language(
    emu: DiscordEmulator, bot: BotUnderTest, dev_table: Table
) -> None:
    """The sweeper has no interaction to take a language from: it reads the server's setting."""
    admins = emu.create_role(dev_table.guild, "Admins", permissions=Perm.MANAGE_GUILD)
    dev_table.members["admin"] = emu.create_member(dev_table.guild, "admin-clock", roles=[admins])
    await private_answer(await dev_table.slash("admin", "ttt settings", language="fr"))
    try:
        channel = dev_table.new_channel("horloge")
        message = await answer(await dev_table.slash("bob", "ttt start", where=channel, level="easy"))
        assert headline(message).startswith(f"À <@{dev_table['bob'].id}> de jouer")
        await emu.wait_for(lambda: "dépassé son temps" in message.text, DEADLINE_GUARD, "time to run out")
        assert f"<@{dev_table['bob'].id}> a dépassé son temps, **" in message.text
        assert controls(message) == ["Revanche", "Analyse", "Rediffusion"]
        assert edited_by_channel_api(emu, message)
    finally:
        await private_answer(await dev_table.slash("admin", "ttt settings", language="auto"))
