"""Arenas end to end, the parts around the games: a round whose thread Discord refused is set up by
the sweep in the same messages, a player leaves from inside their game's thread, and a rated arena's
games change the players' ratings while an unrated arena's do not."""

from __future__ import annotations

import pytest

from discord_emulator import DiscordEmulator
from tests.support.arenas import SETUP_GUARD, X_WINS, name_of, play, round_games, round_messages
from tests.support.bot import BotUnderTest
from tests.support.tables import Table, answer, click_cell, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

RATED = ["r1", "r2", "r3", "r4"]
UNRATED = ["u1", "u2", "u3"]
START_THREAD = "/channels/{channel_id}/messages/{message_id}/threads"
ADD_MEMBER = "/channels/{channel_id}/thread-members/{user_id}"
RETRY_GUARD = 60.0
"""Failure guard for the sweep (every 5 s) to finish a round's set-up that Discord refused."""


@pytest.fixture(scope="module")
def table(emu: DiscordEmulator) -> Table:
    return Table.create(emu, *RATED, *UNRATED)


@pytest.fixture(scope="module")
def bot_settings(table: Table) -> dict[str, str]:
    return {"DEV_GUILD_ID": str(table.guild.id)}


async def stats(table: Table, name: str) -> str:
    return (await answer(await table.slash(name, "ttt stats"))).text


async def server_rating(table: Table, name: str) -> str:
    """The line of ``/ttt stats`` with the player's rating in this server."""
    return next(line for line in (await stats(table, name)).splitlines() if "This server" in line)


async def test_a_refused_thread_is_made_by_the_sweep_and_a_player_leaves_from_their_thread(
    emu: DiscordEmulator, bot: BotUnderTest, table: Table
) -> None:
    await emu.wait_for_commands(table.guild)
    await answer(await table.slash("r1", "ttt arena open", minutes=60))
    for name in RATED[1:]:
        await private_answer(await table.slash(name, "ttt arena join"))
    refused = emu.fail_next("POST", START_THREAD, status=503)
    await private_answer(await table.slash("r1", "ttt arena start"))

    games = await round_games(emu, table.channel, "Round 1 of 2", 2, RETRY_GUARD)
    assert len(refused.hits) == 1
    assert len(round_messages(emu, table.channel, "Round 1 of 2")) == 3, "a message per game, once"
    threads = [
        c for c in emu.world.guilds[table.guild.id].channels.values() if c.parent_id == table.channel.id
    ]
    assert len(threads) == 2, "a thread per game, once"
    for game in games:
        assert game.thread.id == game.starter.id
        assert {game.x, game.o} <= set(game.thread.thread_members)

    first, second = games
    await click_cell(table, first.board, 4, name_of(table, first.x))
    quitter = name_of(table, first.o)
    left = await private_answer(await table.slash(quitter, "ttt arena leave", where=first.thread))
    assert "left the arena" in left
    await emu.wait_for(lambda: "resigned" in first.board.text, SETUP_GUARD, "the forfeit on the board")

    assert "unrated" in await server_rating(table, name_of(table, second.x))
    await play(table, second, X_WINS)
    for player in (second.x, second.o):
        assert "unrated" not in await server_rating(table, name_of(table, player))
    await round_games(emu, table.channel, "Round 2 of 2", 1)


async def test_a_thread_whose_member_was_refused_is_reused_and_an_unrated_arena_leaves_ratings_alone(
    emu: DiscordEmulator, bot: BotUnderTest, table: Table
) -> None:
    hall = table.new_channel("unrated-hall")
    await answer(await table.slash("u1", "ttt arena open", where=hall, minutes=60, rated=False))
    for name in UNRATED[1:]:
        await private_answer(await table.slash(name, "ttt arena join", where=hall))
    refused = emu.fail_next("PUT", ADD_MEMBER, status=503)
    await private_answer(await table.slash("u1", "ttt arena start", where=hall))
    (game,) = await round_games(emu, hall, "Round 1 of 2", 1, RETRY_GUARD)
    assert len(refused.hits) == 1
    assert len(round_messages(emu, hall, "Round 1 of 2")) == 2, "the game's message, once"
    assert [c.id for c in emu.world.guilds[table.guild.id].channels.values() if c.parent_id == hall.id] == [
        game.thread.id
    ], "the thread made before the refusal, and no other"
    assert {game.x, game.o} <= set(game.thread.thread_members)
    await play(table, game, X_WINS)
    assert "1W 0L 0D" in await stats(table, name_of(table, game.x))
    for player in (game.x, game.o):
        assert "unrated" in await server_rating(table, name_of(table, player))
