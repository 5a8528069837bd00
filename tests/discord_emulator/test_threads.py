"""Threads the bot starts from its own messages, as discord.py starts them."""

from __future__ import annotations

import discord
import pytest

from discord_emulator import Perm
from discord_emulator.world import GUILD_MEMBERS_INTENT
from tests.discord_emulator.sample_bot import Arena


async def test_a_thread_started_from_a_message_is_a_channel_for_messages(arena: Arena) -> None:
    emu, bot = arena.emu, arena.bot
    channel = bot.get_channel(arena.channel.id)
    assert isinstance(channel, discord.TextChannel)
    round_message = await channel.send("Round 1")
    thread = await round_message.create_thread(name="Round 1: alice vs bob", auto_archive_duration=60)
    assert thread.id == round_message.id and thread.parent_id == channel.id
    assert thread.name == "Round 1: alice vs bob" and thread.auto_archive_duration == 60
    await thread.send("Board")
    stored = emu.world.channels[thread.id]
    assert stored.is_thread and [message.content for message in emu.messages(stored)] == ["Board"]
    assert any(record.t == "THREAD_CREATE" for record in emu.dispatches())
    [first, *_] = emu.messages(arena.channel)
    assert first.thread is stored
    with pytest.raises(discord.HTTPException) as again:
        await round_message.create_thread(name="again")
    assert again.value.code == 160004
    with pytest.raises(discord.HTTPException) as nested:
        await (await thread.send("in the thread")).create_thread(name="nested")
    assert nested.value.code == 50024


async def test_starting_a_thread_needs_the_permission(arena: Arena) -> None:
    emu, bot = arena.emu, arena.bot
    emu.set_overwrite(arena.channel, arena.guild.everyone, deny=Perm.CREATE_PUBLIC_THREADS)
    channel = bot.get_channel(arena.channel.id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("Round 1")
    with pytest.raises(discord.Forbidden):
        await message.create_thread(name="Round 1")
    assert not any(found.is_thread for found in emu.world.channels.values())


async def _round_thread(arena: Arena) -> discord.Thread:
    channel = arena.bot.get_channel(arena.channel.id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("Round 1")
    return await message.create_thread(name="Round 1: alice vs bob")


async def test_thread_members_are_added_listed_and_removed(arena: Arena) -> None:
    emu = arena.emu
    thread = await _round_thread(arena)
    stored = emu.world.channels[thread.id]
    assert list(stored.thread_members) == [emu.world.bot.id], "who starts a thread is its first member"
    await thread.add_user(discord.Object(arena.alice.user.id))
    await thread.add_user(discord.Object(arena.alice.user.id))
    with pytest.raises(discord.Forbidden):
        await thread.fetch_members()
    emu.world.application.privileged_intents = GUILD_MEMBERS_INTENT
    listed = await thread.fetch_members()
    assert sorted(member.id for member in listed) == sorted([emu.world.bot.id, arena.alice.user.id])
    assert (await thread.fetch_member(arena.alice.user.id)).thread_id == thread.id
    assert not emu.dispatches("THREAD_MEMBERS_UPDATE"), "another's joining needs the GUILD_MEMBERS intent"

    with pytest.raises(discord.Forbidden):
        await thread.remove_user(discord.Object(arena.alice.user.id))
    emu.set_overwrite(arena.channel, emu.world.bot_member(arena.guild), allow=Perm.MANAGE_THREADS)
    await thread.remove_user(discord.Object(arena.alice.user.id))
    with pytest.raises(discord.NotFound) as gone:
        await thread.fetch_member(arena.alice.user.id)
    assert gone.value.code == 10007

    await thread.leave()
    await thread.join()
    [left, joined] = [record.d for record in emu.dispatches("THREAD_MEMBERS_UPDATE")]
    assert left["removed_member_ids"] == [str(emu.world.bot.id)] and left["member_count"] == 0
    assert joined["added_members"][0]["user_id"] == str(emu.world.bot.id) and joined["member_count"] == 1


async def test_members_are_added_only_to_an_open_thread_where_the_bot_may_send(arena: Arena) -> None:
    emu = arena.emu
    thread = await _round_thread(arena)
    stored = emu.world.channels[thread.id]
    stranger = emu.world.create_user("stranger")
    with pytest.raises(discord.NotFound):
        await thread.add_user(discord.Object(stranger.id))
    emu.set_overwrite(arena.channel, arena.guild.everyone, deny=Perm.SEND_MESSAGES_IN_THREADS)
    emu.set_overwrite(arena.channel, emu.world.bot_member(arena.guild), deny=Perm.SEND_MESSAGES_IN_THREADS)
    with pytest.raises(discord.Forbidden):
        await thread.add_user(discord.Object(arena.bob.user.id))
    emu.set_overwrite(arena.channel, emu.world.bot_member(arena.guild))
    emu.set_overwrite(arena.channel, arena.guild.everyone)
    emu.world.archive_thread(stored)
    with pytest.raises(discord.HTTPException) as archived:
        await thread.add_user(discord.Object(arena.bob.user.id))
    assert archived.value.code == 50083
    assert list(stored.thread_members) == [emu.world.bot.id]
