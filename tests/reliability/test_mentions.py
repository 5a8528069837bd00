"""No message of the bot can ping @everyone, @here or a role, whatever names and inputs contain.

Members whose display names are mentions play, refuse, win, ask for stats and rematches;
then every message the bot made (public and private, after every edit) is checked with
the pings the emulator computes as Discord would (content filtered by ``allowed_mentions``;
the bot may mention everyone here, so only ``allowed_mentions`` stops it), and every
request that carried content is checked to have sent an ``allowed_mentions`` that
excludes everyone and roles.
"""

from __future__ import annotations

from typing import Any

import pytest

from discord_emulator import DiscordEmulator
from tests.support.bot import BotUnderTest
from tests.support.tables import Table, answer, cells, click_cell, duel, free_cells, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


def bodies(emu: DiscordEmulator, since: int) -> list[dict[str, Any]]:
    """Every message body the bot sent (new messages, edits, interaction answers, follow-ups)."""
    found = []
    for call in emu.rest_log[since:]:
        body = call.json
        if not isinstance(body, dict):
            continue
        if call.route.endswith("/callback"):
            body = body.get("data")
        if isinstance(body, dict) and ("content" in body or "embeds" in body):
            found.append(body)
    return found


async def test_hostile_names_and_inputs_never_ping_everyone_or_roles(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    since = len(emu.rest_log)
    table = Table.create(emu, "alice", "bob", "carol")
    team = emu.create_role(table.guild, "Team", mentionable=True)
    guild = table.guild
    names = {
        "alice": "@everyone",
        "bob": f"@here <@&{team.id}>",
        "carol": f"<@&{guild.id}> <@!1> @everyone",
    }
    for key, nick in names.items():
        table[key].nick = nick
        table[key].role_ids.append(team.id)

    challenge = await answer(await table.slash("alice", "ttt start", opponent=table["bob"]))
    assert [user.id for user in challenge.mentions] == [table["bob"].id]
    await answer(await table.click(challenge, challenge.button(label="Accept").custom_id or "", "bob"))
    await private_answer(await table.click(challenge, cells(challenge)[0].custom_id or "", "bob"))
    for text in ("@everyone", "@here", f"<@&{team.id}>", f"<@&{guild.id}>", "<@!1>"):
        refused = await private_answer(await table.slash("alice", "ttt move", cell=text, force=True))
        assert "not a cell" in refused
    await private_answer(await table.slash("carol", "ttt move", cell="a1"))
    await answer(await table.slash("carol", "ttt stats", user=table["alice"]))
    await answer(await table.slash("carol", "ttt leaderboard"))
    for ply, cell in enumerate((0, 3, 1, 4, 2)):
        await click_cell(table, challenge, cell, ("alice", "bob")[ply % 2])
    rematch = await answer(
        await table.click(challenge, challenge.button(label="Rematch").custom_id or "", "bob")
    )
    await answer(await table.click(rematch, rematch.button(label="Decline").custom_id or "", "alice"))

    vs_bot = await answer(
        await table.slash("carol", "ttt start", where=table.new_channel("bot"), level="easy")
    )
    await private_answer(await table.slash("carol", "ttt hint", where=vs_bot.channel))
    await click_cell(table, vs_bot, free_cells(vs_bot)[0], "carol")
    await private_answer(await table.slash("carol", "ttt resign", where=vs_bot.channel))
    second = await duel(table, "bob", "carol", channel=table.new_channel("cancelled"))
    await private_answer(await table.slash("carol", "ttt cancel", where=second.channel))

    messages = [
        message
        for channel in (table.channel, vs_bot.channel, second.channel)
        for message in emu.messages(channel, include_ephemeral=True)
    ]
    assert len(messages) >= 15
    players = {table[name].id for name in names}
    for message in messages:
        assert not message.mention_everyone, message.text
        assert message.mention_roles == [], message.text
        assert {user.id for user in message.mentions} <= players, message.text
    sent = bodies(emu, since)
    assert len(sent) >= len(messages)
    for body in sent:
        allowed = body.get("allowed_mentions")
        assert allowed is not None, f"no allowed_mentions (Discord would parse everything): {body}"
        assert not {"everyone", "roles"} & set(allowed.get("parse", [])), body
        assert not allowed.get("roles"), body
