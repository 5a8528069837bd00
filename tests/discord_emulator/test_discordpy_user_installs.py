"""User installs: the app used where its bot is not (group DMs, DMs between users, servers without the
bot) and in a DM with the bot, as Discord sends those interactions to the real discord.py client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import pytest

from discord_emulator import Channel, DiscordEmulator, Guild, InteractionUsageError, Member, Perm, User
from discord_emulator.fixtures import running
from tests.discord_emulator.sample_bot import ThrowawayBot

pytestmark = pytest.mark.e2e

LIMITED = Perm.ATTACH_FILES | Perm.EMBED_LINKS | Perm.MENTION_EVERYONE


@dataclass
class Friends:
    emu: DiscordEmulator
    bot: ThrowawayBot
    home: Guild
    alice: Member
    bob: Member
    group: Channel
    """A group DM of alice, bob and carol; only alice installed the app to her account."""
    carol: User


@pytest.fixture
async def friends(discord_py_on_emulator: DiscordEmulator) -> AsyncIterator[Friends]:
    emu = discord_py_on_emulator
    home = emu.create_guild("Home")
    alice = emu.create_member(home, "alice")
    bob = emu.create_member(home, "bob")
    carol = emu.create_user("carol")
    emu.install_to_user(alice)
    group = emu.create_group_dm(alice, bob, carol, name="pals")
    bot = ThrowawayBot()
    async with running(bot, emu.token):
        await emu.wait_until_ready()
        await emu.wait_for_commands()
        yield Friends(emu, bot, home, alice, bob, group, carol)


async def test_the_synced_command_says_where_it_installs_and_works(friends: Friends) -> None:
    pocket = friends.emu.command("pocket")
    assert sorted(pocket["integration_types"]) == [0, 1]
    assert sorted(pocket["contexts"]) == [0, 1, 2]
    assert friends.emu.command("ttt")["integration_types"] == [0]


async def test_a_group_dm_interaction_has_a_user_a_private_channel_and_only_the_user_install(
    friends: Friends,
) -> None:
    emu, alice = friends.emu, friends.alice
    it = await emu.slash(friends.group, alice, "pocket where")
    answer = await it.wait_response()
    payload = it.payload
    assert payload["context"] == 2
    assert payload["authorizing_integration_owners"] == {"1": str(alice.id)}
    assert "guild_id" not in payload and "member" not in payload
    assert payload["user"]["id"] == str(alice.id)
    assert payload["channel"]["type"] == 3 and payload["channel"]["name"] == "pals"
    assert {user["username"] for user in payload["channel"]["recipients"]} == {"bob", "carol"}
    assert int(payload["app_permissions"]) == LIMITED

    seen = friends.bot.pocket.seen[-1]
    assert seen.guild_id is None and seen.context.private_channel
    assert isinstance(seen.channel, discord.GroupChannel)
    assert seen.app_permissions.value == LIMITED and not seen.app_permissions.view_channel
    assert seen.is_user_integration() and not seen.is_guild_integration()
    assert answer.channel is friends.group and not answer.ephemeral


async def test_commands_are_refused_where_no_install_of_the_user_covers_them(friends: Friends) -> None:
    emu = friends.emu
    with pytest.raises(InteractionUsageError, match="not available"):
        await emu.slash(friends.group, friends.alice, "ttt start")
    with pytest.raises(InteractionUsageError, match="not available"):
        await emu.slash(friends.group, friends.bob, "pocket where")
    between = emu.create_dm(friends.alice, friends.bob)
    it = await emu.slash(between, friends.alice, "pocket where")
    await it.wait_response()
    assert it.payload["context"] == 2 and it.payload["channel"]["type"] == 1
    assert [user["username"] for user in it.payload["channel"]["recipients"]] == ["bob"]


async def test_a_friend_without_the_app_plays_a_board_by_buttons_with_no_channel_api_call(
    friends: Friends,
) -> None:
    emu = friends.emu
    start = await emu.slash(friends.group, friends.alice, "pocket board")
    board = await start.wait_response()
    click = await emu.click(board, "cell:4", friends.carol)
    await click.wait_callback()
    assert click.payload["authorizing_integration_owners"] == {"1": str(friends.alice.id)}
    assert click.payload["context"] == 2 and click.payload["user"]["id"] == str(friends.carol.id)
    assert board.button("cell:4").label == "X" and board.content == "carol played 4"
    assert emu.channel_api_calls(friends.group) == []
    assert emu.dispatches("MESSAGE_CREATE") == []


async def test_the_channel_api_is_refused_with_missing_access_and_recorded(friends: Friends) -> None:
    emu = friends.emu
    it = await emu.slash(friends.group, friends.alice, "pocket note")
    await it.wait_response()
    refused = await emu.wait_for_call("POST", "/channels/{channel_id}/messages")
    assert (refused.status, refused.response["code"]) == (403, 50001)
    assert emu.channel_api_calls(friends.group) == [refused]
    assert isinstance(friends.bot.pocket.errors[-1], discord.Forbidden)
    assert emu.messages(friends.group) == []


async def test_follow_ups_stop_at_five_where_only_a_user_install_reaches_the_app(friends: Friends) -> None:
    emu, pocket = friends.emu, friends.bot.pocket
    in_group = await emu.slash(friends.group, friends.alice, "pocket burst")
    await in_group.wait_followups(5)
    await emu.wait_for(lambda: pocket.errors or None)
    assert len(in_group.followups) == 5
    assert [(error.status, error.code) for error in pocket.errors] == [(400, 40094)]

    in_home = await emu.slash(emu.channel(friends.home), friends.alice, "pocket burst")
    assert in_home.payload["authorizing_integration_owners"] == {
        "0": str(friends.home.id),
        "1": str(friends.alice.id),
    }
    assert len(await in_home.wait_followups(6)) == 6


async def test_a_server_without_the_bot_sends_a_member_and_only_the_user_install(friends: Friends) -> None:
    emu, alice = friends.emu, friends.alice
    elsewhere = emu.create_guild("Elsewhere", with_bot=False)
    emu.add_member(elsewhere, alice.user)
    muted = emu.create_role(elsewhere, "muted")
    dave = emu.create_member(elsewhere, "dave", roles=[muted])
    emu.install_to_user(dave)
    channel = emu.channel(elsewhere)
    emu.set_overwrite(channel, muted, deny=Perm.USE_EXTERNAL_APPS)

    it = await emu.slash(channel, alice, "pocket where")
    answer = await it.wait_response()
    payload = it.payload
    assert payload["context"] == 0 and payload["guild_id"] == str(elsewhere.id)
    assert payload["member"]["user"]["id"] == str(alice.id)
    assert payload["authorizing_integration_owners"] == {"1": str(alice.id)}
    assert int(payload["app_permissions"]) == LIMITED
    assert not answer.ephemeral
    assert friends.bot.get_guild(elsewhere.id) is None
    assert not [record for record in emu.dispatches("GUILD_CREATE") if record.d["id"] == str(elsewhere.id)]

    forced = await emu.slash(channel, dave, "pocket where")
    assert (await forced.wait_response()).ephemeral
    note = await emu.slash(channel, alice, "pocket note")
    await note.wait_response()
    refused = await emu.wait_for_call("POST", "/channels/{channel_id}/messages")
    assert (refused.status, refused.response["code"]) == (403, 50001)


async def test_a_dm_with_the_bot_carries_both_installs(friends: Friends) -> None:
    emu, alice = friends.emu, friends.alice
    dm = emu.dm_channel(alice)
    it = await emu.slash(dm, alice, "pocket where")
    await it.wait_response()
    assert it.payload["context"] == 1
    assert it.payload["authorizing_integration_owners"] == {"0": "0", "1": str(alice.id)}
    bob_in_dm = await emu.slash(emu.dm_channel(friends.bob), friends.bob, "pocket where")
    await bob_in_dm.wait_response()
    assert bob_in_dm.payload["authorizing_integration_owners"] == {"0": "0"}
