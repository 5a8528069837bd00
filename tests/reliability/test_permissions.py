"""Who may act on a game: the two players move, resign and ask for a rematch; cancel is for
participants and members with Manage Messages; nobody reaches another channel's or server's
game with a crafted button id. Every refusal is private and leaves the database unchanged."""

from __future__ import annotations

import pytest

from discord_emulator import DiscordEmulator, Message, Perm
from tests.support.bot import BotUnderTest
from tests.support.store import boards_recorded, changes, query, snapshot
from tests.support.tables import Table, answer, board, cells, click_cell, duel, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


def status_of(bot: BotUnderTest, message: Message) -> str:
    rows = query(bot, "SELECT status FROM games WHERE channel_id = ? ORDER BY id DESC", (message.channel.id,))
    return str(rows[0][0])


def game_id(bot: BotUnderTest, message: Message) -> int:
    rows = query(bot, "SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC", (message.channel.id,))
    return int(rows[0][0])


def table_with_roles(emu: DiscordEmulator) -> Table:
    """alice and bob play; carol is nobody; dave's role has Manage Messages; erin's role has other rights."""
    table = Table.create(emu, "alice", "bob", "carol", moderators=("dave",))
    helpers = emu.create_role(
        table.guild, "Helpers", permissions=Perm.MANAGE_CHANNELS | Perm.KICK_MEMBERS | Perm.MENTION_EVERYONE
    )
    table.members["erin"] = emu.create_member(table.guild, "erin", roles=[helpers])
    return table


async def test_only_the_players_move_and_resign(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = table_with_roles(emu)
    message = await duel(table, "alice", "bob")
    await click_cell(table, message, 4, "alice")
    await boards_recorded(bot)
    before = await snapshot(bot.env["DATABASE_URL"])
    for outsider in ("carol", "dave", "erin"):
        refused = await private_answer(
            await table.click(message, cells(message)[0].custom_id or "", outsider)
        )
        assert "not playing" in refused
        refused = await private_answer(
            await table.click(message, message.button(label="Resign").custom_id or "", outsider)
        )
        assert "not playing" in refused
        assert "not playing" in await private_answer(await table.slash(outsider, "ttt move", cell="a1"))
        assert "not playing" in await private_answer(await table.slash(outsider, "ttt resign"))
    assert (
        "not your turn" in (await private_answer(await table.slash("alice", "ttt move", cell="a1"))).lower()
    )
    assert not changes(before, await snapshot(bot.env["DATABASE_URL"])) and board(message) == "....X...."

    await answer(await table.click(message, message.button(label="Resign").custom_id or "", "bob"))
    assert status_of(bot, message) == "finished" and "resigned" in message.text.lower()


async def test_cancel_needs_a_participant_or_manage_messages(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = table_with_roles(emu)
    message = await duel(table, "alice", "bob")
    await boards_recorded(bot)
    before = await snapshot(bot.env["DATABASE_URL"])
    for member in ("carol", "erin"):
        refused = await private_answer(await table.slash(member, "ttt cancel"))
        assert "Only the players or a moderator" in refused, member
    assert (
        not changes(before, await snapshot(bot.env["DATABASE_URL"])) and status_of(bot, message) == "active"
    )
    done = await private_answer(await table.slash("dave", "ttt cancel"))
    assert "cancelled" in done and status_of(bot, message) == "cancelled"

    again = await duel(table, "bob", "alice", channel=table.new_channel("second"))
    done = await private_answer(await table.slash("alice", "ttt cancel", where=again.channel))
    assert "cancelled" in done and status_of(bot, again) == "cancelled"


async def test_only_the_players_ask_for_a_rematch(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = table_with_roles(emu)
    message = await duel(table, "alice", "bob")
    await answer(await table.click(message, message.button(label="Resign").custom_id or "", "alice"))
    rematch = message.button(label="Rematch").custom_id or ""
    await boards_recorded(bot)
    before = await snapshot(bot.env["DATABASE_URL"])
    for outsider in ("carol", "dave", "erin"):
        refused = await private_answer(await table.click(message, rematch, outsider))
        assert "Only the players of that game" in refused
    assert not changes(before, await snapshot(bot.env["DATABASE_URL"]))
    challenge = await answer(await table.click(message, rematch, "bob"))
    assert not challenge.ephemeral and challenge.button(label="Accept")
    assert status_of(bot, challenge) == "pending"


async def test_crafted_ids_do_not_reach_another_channels_or_servers_game(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = table_with_roles(emu)
    target = await duel(table, "alice", "bob")
    target_id = game_id(bot, target)
    decoy = await duel(table, "carol", "dave", channel=table.new_channel("decoy"))
    other = Table.create(emu, "mallory")
    foreign = await answer(await other.slash("mallory", "ttt start", level="easy"))
    forged = [
        f"ttt:cell:{target_id}:0:0",
        f"ttt:cell:{target_id}:0:4",
        f"ttt:resign:{target_id}",
        f"ttt:rematch:{target_id}",
        f"ttt:accept:{target_id}",
        f"ttt:decline:{target_id}",
    ]
    await boards_recorded(bot)
    before = await snapshot(bot.env["DATABASE_URL"])
    refusals = []
    for custom_id in forged:
        for message, who in ((decoy, table["alice"]), (decoy, table["carol"]), (foreign, other["mallory"])):
            # alice is a player of the target game, but clicks it on a board in another channel
            it = await emu.click(message, custom_id, who, force=True)
            refusals.append(await private_answer(it))
    assert all(text == "That button is not part of this game." for text in refusals), refusals
    assert not changes(before, await snapshot(bot.env["DATABASE_URL"]))
    assert board(target) == "." * 9 and status_of(bot, target) == "active"
