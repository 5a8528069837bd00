"""Games between members, end to end: challenges, turns, results, rematches and ratings."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence

import pytest

from discord_emulator import DiscordEmulator, Message
from tests.support.bot import BotUnderTest
from tests.support.tables import (
    SUCCESS,
    Table,
    answer,
    board,
    cells,
    click_cell,
    controls,
    duel,
    headline,
    private_answer,
)

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

UPDATE_MESSAGE = 7
"""The interaction callback that answers a click by editing its message."""

X_WINS_TOP_ROW = (0, 3, 1, 4, 2)
"""X a1, O a2, X b1, O b2, X c1: X completes the top row on the fifth move."""


async def challenge(table: Table, challenger: str, opponent: str, **options: object) -> Message:
    message = await answer(await table.slash(challenger, "ttt start", opponent=table[opponent], **options))
    assert not message.ephemeral
    return message


async def accept(table: Table, message: Message, who: str) -> None:
    await answer(await table.click(message, message.button(label="Accept").custom_id or "", who))


async def play(table: Table, message: Message, players: tuple[str, str], moves: Sequence[int]) -> None:
    """Play ``moves`` alternately by ``players`` (X first) on the board ``message``."""
    for ply, cell in enumerate(moves):
        await click_cell(table, message, cell, players[ply % 2])
        assert board(message)[cell] == "XO"[ply % 2]


async def test_a_challenge_accepted_and_played_to_a_win(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice", "bob", "carol")
    alice, bob = table["alice"], table["bob"]
    message = await challenge(table, "alice", "bob", size=3)
    assert [button.label for button in message.buttons] == ["Accept", "Decline"]
    assert headline(message).startswith(f"<@{bob.id}>") and "challenges you" in headline(message)
    assert [user.id for user in message.mentions] == [bob.id], (
        "the challenge pings the challenged member only"
    )
    assert not message.mention_everyone and message.mention_roles == []

    for outsider in ("alice", "carol"):
        refused = await private_answer(
            await table.click(message, message.button(label="Accept").custom_id or "", outsider)
        )
        assert refused.startswith("Only ") and "can answer this challenge" in refused
    assert message.button(label="Accept")

    await accept(table, message, "bob")
    assert board(message) == "." * 9, "the challenge message becomes the board"
    assert f"<@{alice.id}> to move" in headline(message)

    not_yet = await private_answer(await table.click(message, cells(message)[4].custom_id or "", "bob"))
    assert "not your turn" in not_yet.lower()
    assert board(message) == "." * 9

    await play(table, message, ("alice", "bob"), X_WINS_TOP_ROW)
    assert f"<@{alice.id}> wins" in message.text
    assert all(button.disabled for button in cells(message))
    assert [index for index, button in enumerate(cells(message)) if button.style == SUCCESS] == [0, 1, 2]
    assert controls(message) == ["Rematch", "Review", "Replay"]

    stats = await answer(await table.slash("carol", "ttt stats", user=bob))
    assert "Against members" in stats.text and "0W 1L 0D" in stats.text


async def test_a_declined_challenge_says_so_and_loses_its_buttons(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "dave", "erin")
    message = await challenge(table, "dave", "erin", size=4, first="opponent")
    await answer(await table.click(message, message.button(label="Decline").custom_id or "", "erin"))
    assert "declined" in message.text
    assert message.buttons == []

    again = await challenge(table, "dave", "erin")
    assert again.id != message.id, "the channel is free again after a decline"


async def test_nobody_can_challenge_themselves_or_another_bot(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice")
    robot = emu.create_member(table.guild, "robot", bot=True)
    refused = await private_answer(await table.slash("alice", "ttt start", opponent=table["alice"]))
    assert "challenge yourself" in refused
    refused = await private_answer(await table.slash("alice", "ttt start", opponent=robot))
    assert "Bots can't play" in refused
    refused = await private_answer(await table.slash("alice", "ttt start", opponent=robot, level="easy"))
    assert "level" in refused.lower() or "Bots" in refused

    vs_me = await answer(await table.slash("alice", "ttt start", opponent=emu.bot_member(table.guild)))
    assert board(vs_me) == "." * 9 and controls(vs_me) == ["Resign", "Hint"], (
        "picking the bot itself plays the bot"
    )


async def test_one_game_per_channel_and_threads_are_channels(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice", "bob")
    await challenge(table, "alice", "bob")
    busy = await private_answer(await table.slash("bob", "ttt start"))
    assert "already waiting" in busy
    thread = emu.create_thread(table.channel, "side game")
    in_thread = await answer(await table.slash("bob", "ttt start", where=thread))
    assert board(in_thread) == "." * 9


async def test_a_rematch_between_members_is_a_new_challenge_with_marks_swapped(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice", "bob")
    message = await challenge(table, "alice", "bob")
    await accept(table, message, "bob")
    await play(table, message, ("alice", "bob"), X_WINS_TOP_ROW)

    rematch = await answer(await table.click(message, message.button(label="Rematch").custom_id or "", "bob"))
    assert rematch.id != message.id and [b.label for b in rematch.buttons] == ["Accept", "Decline"]
    await accept(table, rematch, "alice")
    assert f"<@{table['bob'].id}> to move" in headline(rematch), "bob plays X in the rematch"


async def test_leaderboard_and_stats_after_rated_games(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice", "bob", "erin")
    empty = await answer(await table.slash("alice", "ttt leaderboard"))
    assert "Nobody is ranked yet" in empty.text

    for opponent in ("bob", "bob", "bob", "erin", "erin"):
        message = await challenge(table, "alice", opponent)
        await accept(table, message, opponent)
        await play(table, message, ("alice", opponent), X_WINS_TOP_ROW)

    shown = await answer(await table.slash("bob", "ttt leaderboard", scope="server"))
    lines = [line for line in shown.text.splitlines() if line.startswith("**")]
    assert len(lines) == 1, "only players with 5 rated games are listed"
    assert lines[0].startswith(f"**1.** <@{table['alice'].id}>")
    rating = int(re.findall(r"\*\*(\d+)\*\*", lines[0])[-1])
    assert rating > 1200
    assert "5 games, 5W 0L 0D" in lines[0]
    assert not shown.mention_everyone and shown.mentions == []

    everywhere = await answer(await table.slash("bob", "ttt leaderboard", scope="global"))
    assert f"<@{table['alice'].id}>" in everywhere.text and "global" in everywhere.text

    stats = (await answer(await table.slash("erin", "ttt stats", user=table["alice"]))).text
    assert "Against members" in stats and "5W 0L 0D" in stats
    assert "Streak" in stats and "5 now, best 5" in stats
    assert f"**{rating}**" in stats and "rank #1" in stats


async def test_a_member_who_left_cannot_be_challenged(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice", "bob")
    emu.remove_member(table.guild, table["bob"])
    refused = await private_answer(
        await table.slash("alice", "ttt start", opponent=table["bob"].user, force=True)
    )
    assert "member" in refused.lower() and "\n" not in refused


async def test_clicks_arriving_together_are_each_answered_by_the_board_edit_alone(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    """However many clicks are in flight, a click whose move is committed in time gets one answer: the
    edited board as the interaction's response (callback 7), with no silent acknowledgement first."""
    tables = [Table.create(emu, "xena", "omar") for _ in range(12)]
    boards = [await duel(table, "xena", "omar") for table in tables]
    clicks = await asyncio.gather(
        *(
            table.click(message, cells(message)[4].custom_id or "", "xena")
            for table, message in zip(tables, boards, strict=True)
        )
    )
    await asyncio.gather(*(answer(it) for it in clicks))
    for it, message in zip(clicks, boards, strict=True):
        assert it.callback is not None and it.callback.type == UPDATE_MESSAGE
        assert it.token_edits == 0 and it.followups == []
        assert board(message)[4] == "X"
