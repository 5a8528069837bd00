"""Arenas end to end: a Swiss tournament of nine members played in threads on the normal boards.

The lobby takes joins (buttons and the command) and a leave; the opener starts it. Each round is
posted in the channel, each game in a thread of its own made from its pairing's message; the games
are won, drawn, resigned, forfeited by a player who leaves and lost on time, with a restart of the
bot in the middle of a round. The final standings on the arena's message must be the Swiss rules'
(:mod:`bot.services.arena`) for the results the test played, and no two players meet twice.
"""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.exts.games.render.arena import points_text
from bot.pictures import cross_table_size
from bot.services.arena import Entrant, PlayedGame, Result, RoundRecord, standings
from discord_emulator import DiscordEmulator, Perm
from tests.support.arenas import DRAW, O_WINS, SETUP_GUARD, X_WINS, ArenaGame, name_of, play
from tests.support.arenas import round_games as arena_round_games
from tests.support.bot import BotUnderTest
from tests.support.tables import Table, answer, click_cell, pictures, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

TIMEOUT_GUARD = 60.0
"""Failure guard for a game to be lost on time with the server's shortest turn clock (30 s)."""
PLAYERS = [f"p{n}" for n in range(1, 10)]
STANDING = re.compile(r"(\d+)\. <@(\d+)>(?: \(left\))?: (\S+) points · Buchholz (\S+) · SB (\S+)")


@pytest.fixture(scope="module")
def table(emu: DiscordEmulator) -> Table:
    table = Table.create(emu, *PLAYERS, "late")
    admins = emu.create_role(table.guild, "Admins", permissions=Perm.MANAGE_GUILD)
    table.members["admin"] = emu.create_member(table.guild, "arena-admin", roles=[admins])
    return table


@pytest.fixture(scope="module")
def bot_settings(table: Table) -> dict[str, str]:
    return {"DEV_GUILD_ID": str(table.guild.id)}


async def round_games(emu: DiscordEmulator, table: Table, number: int, games: int) -> list[ArenaGame]:
    return await arena_round_games(emu, table.channel, f"Round {number} of 3", games)


def results_of(moves: tuple[int, ...]) -> Result:
    return {X_WINS: Result.X_WON, O_WINS: Result.O_WON, DRAW: Result.DRAW}[moves]


async def test_an_arena_of_nine_plays_out_in_threads(
    emu: DiscordEmulator, bot: BotUnderTest, table: Table
) -> None:
    await emu.wait_for_commands(table.guild)
    lobby = await answer(await table.slash("p1", "ttt arena open", rounds=3, minutes=60))
    assert [button.label for button in lobby.buttons] == ["Join", "Leave", "Start"]
    join = lobby.button(label="Join").custom_id or ""
    leave = lobby.button(label="Leave").custom_id or ""
    start = lobby.button(label="Start").custom_id or ""

    for name in PLAYERS[1:8]:
        await answer(await table.click(lobby, join, name))
    assert "already in" in await private_answer(await table.click(lobby, join, "p2"))
    await answer(await table.click(lobby, join, "late"))
    assert f"<@{table['late'].id}>" in lobby.text
    await answer(await table.click(lobby, leave, "late"))
    assert f"<@{table['late'].id}>" not in lobby.text
    assert "joined" in await private_answer(await table.slash("p9", "ttt arena join"))
    assert "Players (9)" in lobby.text
    assert "Only the member who opened" in await private_answer(await table.click(lobby, start, "p2"))
    assert "open" in await private_answer(await table.slash("p2", "ttt arena open"))

    await answer(await table.click(lobby, start, "p1"))
    seeds = {table[name].id: seed for seed, name in enumerate(PLAYERS)}
    records: list[RoundRecord] = []
    met: set[frozenset[int]] = set()

    def note(number: int, games: list[ArenaGame], results: list[Result]) -> None:
        playing = {player for game in games for player in (game.x, game.o)}
        byes = [player for player in seeds if player not in playing and player not in left]
        assert len(byes) == len(seeds) - len(left) - 2 * len(games)
        for game in games:
            pair = frozenset((game.x, game.o))
            assert pair not in met, "two players met twice"
            met.add(pair)
        played = tuple(PlayedGame(g.x, g.o, r) for g, r in zip(games, results, strict=True))
        records.append(RoundRecord(number, played, byes[0] if byes else None))

    left: dict[int, int] = {}

    # Round 1: a win, a draw, a resignation; the bot restarts; a win for O ends the round.
    first = await round_games(emu, table, 1, 4)
    for game in first:
        assert {game.x, game.o} <= set(game.thread.thread_members)
        assert game.thread.name.startswith("Round 1: ")
    await play(table, first[0], X_WINS)
    await play(table, first[1], DRAW)
    await click_cell(table, first[2].board, 0, name_of(table, first[2].x))
    resign = first[2].board.button(label="Resign").custom_id or ""
    await answer(await table.click(first[2].board, resign, name_of(table, first[2].o)))
    assert "resigned" in first[2].board.text
    await bot.restart()
    await play(table, first[3], O_WINS)
    note(1, first, [Result.X_WON, Result.DRAW, Result.X_WON, Result.O_WON])

    # Round 2: three games played, then a player of the fourth leaves the arena and forfeits it.
    second = await round_games(emu, table, 2, 4)
    outcomes = [X_WINS, DRAW, O_WINS]
    for game, moves in zip(second, outcomes, strict=False):
        await play(table, game, moves)
    await private_answer(await table.slash("admin", "ttt settings", turn_timeout=30))
    await click_cell(table, second[3].board, 4, name_of(table, second[3].x))
    quitter = second[3].o
    assert "left" in await private_answer(await table.slash(name_of(table, quitter), "ttt arena leave"))
    await emu.wait_for(lambda: "resigned" in second[3].board.text, SETUP_GUARD, "the forfeit on the board")
    note(2, second, [*map(results_of, outcomes), Result.X_WON])
    left[quitter] = 2

    # Round 3 (eight players, no bye): a win, a draw, a resignation, and a game lost on time.
    third = await round_games(emu, table, 3, 4)
    await play(table, third[0], X_WINS)
    await play(table, third[1], DRAW)
    await play(table, third[2], O_WINS)
    await emu.wait_for(lambda: "Final standings" in lobby.text, TIMEOUT_GUARD, "the last game lost on time")
    assert "ran out of time" in third[3].board.text
    note(3, third, [Result.X_WON, Result.DRAW, Result.O_WON, Result.O_WON])

    entrants = [Entrant(player, seed, left.get(player)) for player, seed in seeds.items()]
    expected = {
        line.player: (
            line.rank,
            points_text(line.points),
            points_text(line.buchholz),
            points_text(line.sonneborn_berger),
        )
        for line in standings(entrants, records)
    }
    shown = {
        int(user): (int(rank), points, buchholz, sb)
        for rank, user, points, buchholz, sb in STANDING.findall(lobby.text)
    }
    assert shown == expected
    assert "🥇 1." in lobby.text
    assert lobby.buttons == []
    (attachment,) = lobby.attachments
    assert pictures(lobby) == [attachment["url"]], "the cross table shown in the arena's card"
    assert "cross table" in attachment["description"]
    picture = Image.open(io.BytesIO(emu.rest.uploads.data(attachment)))
    assert picture.size == cross_table_size(len(seeds), 3)
    champion = next(player for player, (rank, *_) in expected.items() if rank == 1)
    stats = await answer(await table.slash("p5", "ttt stats", user=table[name_of(table, champion)]))
    assert "1 arena: 1 won, 1 on the podium, best place 1" in stats.text
    assert "Latest: place 1 of 9" in stats.text
    assert "Final standings" in await private_answer(await table.slash("p5", "ttt arena standings"))
    assert len(met) == 12


async def test_arena_requests_are_refused_politely_and_change_nothing(
    emu: DiscordEmulator, bot: BotUnderTest, table: Table
) -> None:
    closed = table.new_channel("no-threads")
    emu.set_overwrite(closed, emu.bot_member(table.guild), deny=Perm.CREATE_PUBLIC_THREADS)
    refusal = await private_answer(await table.slash("p1", "ttt arena open", where=closed))
    assert "Create Public Threads" in refusal
    assert "Open an arena" not in refusal
    assert emu.messages(closed) == []
    french = await private_answer(await table.slash("p1", "ttt arena open", where=closed, locale="fr"))
    assert "Créer des fils publics" in french

    hall = table.new_channel("hall")
    lobby = await answer(await table.slash("p3", "ttt arena open", where=hall))
    assert "Players (1)" in lobby.text
    assert "no arena" in await private_answer(await table.slash("p4", "ttt arena join", where=closed))
    assert "Only the member who opened" in await private_answer(
        await table.slash("p4", "ttt arena cancel", where=hall)
    )
    assert "at least 3 players" in await private_answer(
        await table.slash("p3", "ttt arena start", where=hall)
    )
    assert "not in this arena" in await private_answer(await table.slash("p4", "ttt arena leave", where=hall))
    assert "cancelled" in await private_answer(await table.slash("admin", "ttt arena cancel", where=hall))
    await emu.wait_for(lambda: "This arena was cancelled." in lobby.text, SETUP_GUARD, "the lobby to say so")
    assert lobby.buttons == []
