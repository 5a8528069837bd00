"""Threads the bot starts from its own messages, as discord.py starts them."""

from __future__ import annotations

import discord
import pytest

from discord_emulator import Perm
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
