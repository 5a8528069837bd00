from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from discord_emulator import DiscordEmulator, Perm
from discord_emulator.fixtures import discord_py_on_emulator, emulator, running
from tests.discord_emulator.sample_bot import Arena, ThrowawayBot

__all__ = ["arena", "discord_py_on_emulator", "emulator"]


@pytest.fixture
async def arena(discord_py_on_emulator: DiscordEmulator) -> AsyncIterator[Arena]:
    emu = discord_py_on_emulator
    guild = emu.create_guild("Arena")
    mods = emu.create_role(guild, "Mods", permissions=Perm.MANAGE_MESSAGES)
    alice = emu.create_member(guild, "alice")
    bob = emu.create_member(guild, "bob")
    carol = emu.create_member(guild, "carol", roles=[mods])
    bot = ThrowawayBot(sync_guild=guild)
    async with running(bot, emu.token):
        await emu.wait_until_ready()
        await emu.wait_for_commands(guild)
        yield Arena(emu, bot, guild, emu.channel(guild), alice, bob, carol)
