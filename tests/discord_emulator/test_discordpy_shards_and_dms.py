"""Sharded IDENTIFY with guild routing by ``(guild_id >> 22) % shard_count``, and interactions from DMs."""

from __future__ import annotations

import pytest

from discord_emulator import DiscordEmulator, shard_for
from discord_emulator.fixtures import running
from tests.discord_emulator.sample_bot import ShardedThrowawayBot, ThrowawayBot

pytestmark = pytest.mark.e2e


async def test_two_shard_processes_each_serve_only_their_guilds(
    discord_py_on_emulator: DiscordEmulator,
) -> None:
    emu = discord_py_on_emulator
    zero = emu.create_guild("Zero", shard=(0, 2))
    one = emu.create_guild("One", shard=(1, 2))
    assert (shard_for(zero.id, 2), shard_for(one.id, 2)) == (0, 1)
    alice = emu.create_member(zero, "alice")
    emu.add_member(one, alice.user)
    bots = [ShardedThrowawayBot(shard_ids=[shard], shard_count=2) for shard in (0, 1)]
    async with running(bots[0], emu.token), running(bots[1], emu.token):
        sessions = [await emu.wait_until_ready(shard) for shard in (0, 1)]
        assert [session.shard for session in sessions] == [(0, 2), (1, 2)]
        ready_guilds = [[guild["id"] for guild in record.d["guilds"]] for record in emu.dispatches("READY")]
        assert sorted(ready_guilds) == sorted([[str(zero.id)], [str(one.id)]])
        await emu.wait_for(lambda: len(emu.calls("PUT", "/applications/{application_id}/commands")) == 2)

        in_zero = await emu.slash(emu.channel(zero), alice, "ttt mod")
        in_one = await emu.slash(emu.channel(one), alice, "ttt mod")
        await in_zero.wait_response()
        await in_one.wait_response()
        assert (in_zero.shard_id, in_one.shard_id) == (0, 1)
        assert bots[0].handled == [in_zero.id]
        assert bots[1].handled == [in_one.id]

        late = emu.create_guild("Late", shard=(1, 2))
        emu.add_member(late, alice.user)
        in_late = await emu.slash(emu.channel(late), alice, "ttt mod")
        await in_late.wait_response()
        assert bots[1].get_guild(late.id) is not None
        assert bots[0].get_guild(late.id) is None


async def test_dm_interactions_have_a_user_and_no_guild(discord_py_on_emulator: DiscordEmulator) -> None:
    emu = discord_py_on_emulator
    guild = emu.create_guild("Home")
    alice = emu.create_member(guild, "alice")
    bot = ThrowawayBot()
    async with running(bot, emu.token):
        await emu.wait_until_ready()
        await emu.wait_for_commands()
        dm = emu.dm_channel(alice)
        start = await emu.slash(dm, alice, "ttt start")
        assert "member" not in start.payload and start.payload["user"]["id"] == str(alice.id)
        board = await start.wait_for(
            lambda it: it.original if it.original and it.original.version == 1 else None
        )
        assert board.channel is dm and board.guild_id is None
        click = await emu.click(board, "cell:0", alice)
        await click.wait_callback()
        assert board.button("cell:0").label == "X"
        assert board.content == "alice played 0"
