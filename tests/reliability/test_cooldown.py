"""The per-user cooldown on starting games and challenges (``START_COOLDOWN_SECONDS``), end to end.

One member cannot flood channels with games or another member with challenges: after a
start, their next start (a game against me, a challenge, a rematch) is refused, privately,
with the time left, and nothing is stored, unless their last game was played out (both sides
moved and it ended with a result). Other members are not held back.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from discord_emulator import Channel, DiscordEmulator
from tests.support.bot import BotUnderTest
from tests.support.store import boards_recorded, changes, query, snapshot
from tests.support.tables import Table, answer, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

COOLDOWN = 600


@pytest.fixture(scope="module")
def bot_settings() -> dict[str, str]:
    return {"START_COOLDOWN_SECONDS": str(COOLDOWN)}


def seconds_left(text: str) -> int:
    found = re.search(r"in (\d+) seconds?", text)
    assert found is not None, f"the refusal does not say when to try again: {text!r}"
    return int(found.group(1))


async def test_a_member_who_just_started_must_wait_and_is_told_how_long(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice", "bob", "carol")
    first = await answer(await table.slash("alice", "ttt start", level="easy"))
    assert not first.ephemeral
    await private_answer(await table.slash("alice", "ttt cancel"))
    await boards_recorded(bot)
    before = await snapshot(bot.env["DATABASE_URL"])

    attempts: list[tuple[str, Channel, dict[str, Any]]] = [
        ("ttt start", table.new_channel("again"), {"level": "easy"}),
        ("ttt start", table.new_channel("challenge"), {"opponent": table["bob"]}),
        ("ttt start", table.channel, {"opponent": table["carol"], "size": 4}),
    ]
    for command, channel, options in attempts:
        refused = await private_answer(await table.slash("alice", command, where=channel, **options))
        assert 0 < seconds_left(refused) <= COOLDOWN, refused
    assert not changes(before, await snapshot(bot.env["DATABASE_URL"]))

    other = await answer(await table.slash("bob", "ttt start", where=table.new_channel("bob"), level="easy"))
    assert not other.ephemeral, "the cooldown is per member"
    games = query(bot, "SELECT created_by FROM games WHERE guild_id = ?", (table.guild.id,))
    assert sorted(row[0] for row in games) == sorted([table["alice"].id, table["bob"].id])


async def test_a_rematch_after_resigning_at_once_counts_as_a_start(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "dora")
    board = await answer(await table.slash("dora", "ttt start", level="easy"))
    await answer(await table.click(board, board.button(label="Resign").custom_id or "", "dora"))
    refused = await private_answer(
        await table.click(board, board.button(label="Rematch").custom_id or "", "dora")
    )
    assert 0 < seconds_left(refused) <= COOLDOWN
    assert len(query(bot, "SELECT id FROM games WHERE channel_id = ?", (table.channel.id,))) == 1
