"""The bot's own traffic, end to end, conforms to Discord's API description: every request of a game
(commands sync, answers, edits, follow-ups, a challenge, the board shown again) is checked, none refused."""

from __future__ import annotations

import pytest

from discord_emulator import DiscordEmulator
from discord_emulator.openapi import ApiSpec
from tests.support.bot import BotUnderTest
from tests.support.tables import Table, answer, click_cell, free_cells, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


async def test_every_request_of_a_game_is_checked_and_accepted(
    api_spec: ApiSpec, emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice", "bob")
    message = await answer(await table.slash("alice", "ttt start", level="easy"))
    while free_cells(message):
        await click_cell(table, message, free_cells(message)[0], "alice")
    await answer(await table.slash("alice", "ttt stats"))
    await answer(await table.slash("alice", "ttt leaderboard"))

    challenge = await answer(await table.slash("alice", "ttt start", opponent=table["bob"], size=4))
    await answer(await table.click(challenge, challenge.button(label="Accept").custom_id or "", "bob"))
    await click_cell(table, challenge, free_cells(challenge)[0], "alice")
    await private_answer(await table.click(challenge, challenge.rows[0][1].custom_id or "", "alice"))
    await answer(await table.slash("bob", "ttt board"))
    await answer(await table.slash("bob", "ttt resign"))

    operations = {call.checked_as for call in emu.rest_log}
    assert None not in operations, [call for call in emu.rest_log if call.checked_as is None]
    assert {"bulk_set_application_commands", "create_interaction_response"} <= operations
    assert emu.spec_violations == []
