"""A user install, end to end: games in a group DM, a DM between users and a server without the bot,
played through interactions only (the bot never calls the channel API there), and in a DM with the bot.

The bot syncs ``/ttt`` globally (no ``DEV_GUILD_ID``), with second-long deadlines, so timeouts and
expiries happen within the tests; the sweeper's log line says when it ended a game.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.exts.games.custom_ids import parse_custom_id
from discord_emulator import Channel, DiscordEmulator, Interaction, InteractionUsageError, Message, Perm, User
from tests.support.bot import ANSWER_TIMEOUT, BotUnderTest
from tests.support.tables import answer, board, cells, controls, free_cells, heading, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

X_WINS_LEFT_COLUMN = (0, 1, 3, 4, 6)
"""X a1, O b1, X a2, O b2, X a3: X completes the left column on the fifth move."""

_numbers = itertools.count(1)


@pytest.fixture(scope="module")
def bot_settings() -> dict[str, str]:
    return {"CHALLENGE_TIMEOUT_SECONDS": "4", "TURN_TIMEOUT_SECONDS": "5", "SWEEP_INTERVAL_SECONDS": "600"}


@dataclass
class Conversation:
    """A group DM (or another place) of fresh users; only those named in ``installed`` have the app."""

    emu: DiscordEmulator
    channel: Channel
    users: dict[str, User] = field(default_factory=dict)

    @classmethod
    def group_dm(
        cls, emu: DiscordEmulator, *names: str, installed: Sequence[str] = ("alice",)
    ) -> Conversation:
        number = next(_numbers)
        users = {name: emu.create_user(f"{name}{number}") for name in names}
        for name in installed:
            emu.install_to_user(users[name])
        first, *others = users.values()
        return cls(emu, emu.create_group_dm(first, *others, name=f"friends {number}"), users)

    def __getitem__(self, name: str) -> User:
        return self.users[name]

    async def slash(self, who: str, command: str, /, **options: Any) -> Interaction:
        return await self.emu.slash(self.channel, self.users[who], command, **options)

    async def click(self, message: Message, custom_id: str, who: str) -> Interaction:
        return await self.emu.click(message, custom_id, self.users[who])

    async def click_cell(self, message: Message, index: int, who: str) -> Message:
        return await answer(await self.click(message, cells(message)[index].custom_id or "", who))

    def channel_api_calls(self) -> list[Any]:
        return self.emu.channel_api_calls(self.channel)


async def ended_on_time(bot: BotUnderTest, game_id: int) -> None:
    """Wait until the bot's sweeper has ended the game (it logs it)."""
    await bot.process.wait_for_output(f"Game {game_id} ended on time", timeout=ANSWER_TIMEOUT)


def game_id_of(message: Message) -> int:
    click = parse_custom_id(message.buttons[0].custom_id or "")
    assert click is not None
    return click.game_id


async def test_the_global_command_installs_to_users_and_works_in_every_context(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    (ttt,) = [command for command in await emu.wait_for_commands() if command["name"] == "ttt"]
    assert sorted(ttt["integration_types"]) == [0, 1]
    assert sorted(ttt["contexts"]) == [0, 1, 2]


async def test_a_challenge_in_a_group_dm_is_played_to_its_end_by_buttons(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    friends = Conversation.group_dm(emu, "alice", "bob")
    challenge = await answer(await friends.slash("alice", "ttt start", opponent=friends["bob"]))
    assert not challenge.ephemeral
    assert [button.label for button in challenge.buttons] == ["Accept", "Decline"]
    with pytest.raises(InteractionUsageError):
        await friends.slash("bob", "ttt board")  # bob has not installed the app: buttons only

    game = await answer(
        await friends.click(challenge, challenge.button(label="Accept").custom_id or "", "bob")
    )
    assert game is challenge and len(cells(game)) == 9
    for ply, cell in enumerate(X_WINS_LEFT_COLUMN):
        await friends.click_cell(game, cell, ("alice", "bob")[ply % 2])
        assert board(game)[cell] == "XO"[ply % 2]
    assert f"{friends['alice'].mention} wins" in game.text
    assert all(button.disabled for button in cells(game)) and controls(game) == [
        "Rematch",
        "Review",
        "Replay",
    ]
    review = await answer(await friends.click(game, game.button(label="Review").custom_id or "", "bob"))
    assert review.ephemeral and f"Review of game {game_id_of(game)}" in review.text
    strangers = Conversation.group_dm(emu, "alice", "carol", installed=("carol",))
    refused = await private_answer(await strangers.slash("carol", "ttt review", game=game_id_of(game)))
    assert refused == "That game was played in a conversation you were not part of."

    stats = await answer(await friends.slash("alice", "ttt stats"))
    fields = {item["name"]: item["value"] for item in stats.embeds[0]["fields"]}
    assert fields["Against members"] == "1W 0L 0D"
    assert "This server: unrated" in fields["Rating"] and "1 game," in fields["Rating"]
    leaders = await answer(await friends.slash("alice", "ttt leaderboard", scope="server"))
    assert heading(leaders) == "Leaderboard: global", "outside servers the ratings are global"
    assert friends.channel_api_calls() == []


async def test_a_game_against_the_bot_in_a_group_dm_with_a_rematch(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    friends = Conversation.group_dm(emu, "alice", "bob")
    game = await answer(await friends.slash("alice", "ttt start", level="perfect"))
    hint = await private_answer(await friends.slash("alice", "ttt hint"))
    assert "b2" in hint
    while free_cells(game) and "Resign" in controls(game):
        await friends.click_cell(game, free_cells(game)[0], "alice")
    assert "wins" in game.text or "draw" in game.text
    assert controls(game) == ["Rematch", "Review", "Replay"]

    rematch = await answer(await friends.click(game, game.button(label="Rematch").custom_id or "", "alice"))
    assert len(cells(rematch)) == 9 and game_id_of(rematch) != game_id_of(game)
    resigned = await answer(
        await friends.click(rematch, rematch.button(label="Resign").custom_id or "", "alice")
    )
    assert "resigned" in resigned.text
    assert friends.channel_api_calls() == []


async def test_commands_in_a_group_dm_answer_with_the_board_and_an_old_board_catches_up_when_clicked(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    friends = Conversation.group_dm(emu, "alice", "bob")
    first = await answer(await friends.slash("alice", "ttt start", level="easy"))
    moved = await answer(await friends.slash("alice", "ttt move", cell="b2"))
    assert not moved.ephemeral and moved is not first
    assert board(moved)[4] == "X" and board(moved).count("O") == 1
    assert board(first) == "." * 9, "the bot cannot edit the first board on its own"

    stale = await friends.click(first, cells(first)[0].custom_id or "", "alice")
    assert board(await answer(stale)) == board(moved), "the click redraws its own board"
    (why,) = await stale.wait_followups(1)
    assert why.ephemeral and "out of date" in why.text

    resigned = await answer(await friends.slash("alice", "ttt resign"))
    assert not resigned.ephemeral and "resigned" in resigned.text
    assert all(button.disabled for button in cells(resigned))
    assert friends.channel_api_calls() == []


async def test_a_turn_timeout_in_a_group_dm_shows_at_the_next_click(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    friends = Conversation.group_dm(emu, "alice", "bob")
    challenge = await answer(await friends.slash("alice", "ttt start", opponent=friends["bob"]))
    game = await answer(
        await friends.click(challenge, challenge.button(label="Accept").custom_id or "", "bob")
    )
    await friends.click_cell(game, 4, "alice")
    seen = game.version

    await ended_on_time(bot, game_id_of(game))
    assert game.version == seen, "the board cannot be edited without an interaction"
    late = await friends.click(game, cells(game)[0].custom_id or "", "bob")
    await answer(late)
    assert "ran out of time" in game.text and all(button.disabled for button in cells(game))
    shown = await answer(await friends.slash("alice", "ttt board"))
    assert "ran out of time" in shown.text
    assert friends.channel_api_calls() == []


async def test_an_expired_challenge_in_a_group_dm_shows_at_the_next_click(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    friends = Conversation.group_dm(emu, "alice", "bob")
    challenge = await answer(await friends.slash("alice", "ttt start", opponent=friends["bob"]))
    await ended_on_time(bot, game_id_of(challenge))
    await answer(await friends.click(challenge, challenge.button(label="Accept").custom_id or "", "bob"))
    assert "expired" in challenge.text and challenge.buttons == []
    fresh = await answer(await friends.slash("alice", "ttt start", level="easy"))
    assert len(cells(fresh)) == 9, "the conversation is free again"
    cancelled = await answer(await friends.slash("alice", "ttt cancel"))
    assert not cancelled.ephemeral and "cancelled" in cancelled.text.lower()
    assert all(button.disabled for button in cells(cancelled))
    assert friends.channel_api_calls() == []


async def test_a_dm_between_two_users_plays_by_interactions(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    number = next(_numbers)
    alice, bob = emu.create_user(f"alice{number}"), emu.create_user(f"bob{number}")
    emu.install_to_user(alice)
    dm = emu.create_dm(alice, bob)
    challenge = await answer(await emu.slash(dm, alice, "ttt start", opponent=bob, first="opponent"))
    game = await answer(await emu.click(challenge, challenge.button(label="Accept").custom_id or "", bob))
    await answer(await emu.click(game, cells(game)[4].custom_id or "", bob))
    assert board(game)[4] == "X"
    assert emu.channel_api_calls(dm) == []


async def test_a_dm_with_the_bot_works(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    alice = emu.create_user(f"alice{next(_numbers)}")
    dm = emu.dm_channel(alice)
    game = await answer(await emu.slash(dm, alice, "ttt start", level="easy"))
    await answer(await emu.click(game, cells(game)[4].custom_id or "", alice))
    assert board(game)[4] == "X" and board(game).count("O") == 1
    resigned = await private_answer(await emu.slash(dm, alice, "ttt resign"))
    assert "resigned" in resigned


async def test_a_server_without_the_bot_plays_by_interactions_or_says_why_it_cannot(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    number = next(_numbers)
    elsewhere = emu.create_guild(f"Elsewhere {number}", with_bot=False)
    quiet = emu.create_role(elsewhere, "quiet")
    alice = emu.create_member(elsewhere, f"alice{number}")
    bob = emu.create_member(elsewhere, f"bob{number}")
    dave = emu.create_member(elsewhere, f"dave{number}", roles=[quiet])
    for member in (alice, dave):
        emu.install_to_user(member)
    channel = emu.channel(elsewhere)
    emu.set_overwrite(channel, quiet, deny=Perm.USE_EXTERNAL_APPS)

    challenge = await answer(await emu.slash(channel, alice, "ttt start", opponent=bob))
    game = await answer(await emu.click(challenge, challenge.button(label="Accept").custom_id or "", bob))
    await answer(await emu.click(game, cells(game)[0].custom_id or "", alice))
    assert board(game)[0] == "X"

    other = emu.create_channel(elsewhere, f"side-{number}")
    emu.set_overwrite(other, quiet, deny=Perm.USE_EXTERNAL_APPS)
    refused = await private_answer(await emu.slash(other, dave, "ttt start", level="easy"))
    assert "only" in refused.lower()
    assert emu.channel_api_calls(channel) == [] and emu.channel_api_calls(other) == []
