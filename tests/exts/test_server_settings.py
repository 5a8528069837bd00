"""``/ttt settings`` end to end: a server's managers choose where, by whom, how long and how well games
are played, and the bot holds everyone to it; members without Manage Server change nothing."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

import pytest

from discord_emulator import Channel, DiscordEmulator, Member, Message, Perm, Role
from tests.support.bot import BotUnderTest
from tests.support.tables import Table, answer, cells, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

CLOCK_SLACK = 15
"""Seconds a deadline may differ from the one expected: the time between the test's clock reading
and the bot's (a slow machine), and Discord timestamps' whole seconds."""


@dataclass
class Server:
    """A server of its own for each test: an admin with Manage Server, members with and without the
    role ``players``, and a second channel."""

    table: Table
    players: Role
    lounge: Channel

    @property
    def admin(self) -> Member:
        return self.table["admin"]

    async def settings(self, who: str = "admin", *, where: Channel | None = None, **options: object) -> str:
        return await private_answer(await self.table.slash(who, "ttt settings", where=where, **options))


@pytest.fixture
def server(emu: DiscordEmulator) -> Server:
    table = Table.create(emu, "ann", "ben")
    guild = table.guild
    managers = emu.create_role(guild, "Managers", permissions=Perm.MANAGE_GUILD)
    players = emu.create_role(guild, "Players")
    table.members["admin"] = emu.create_member(guild, f"admin-{guild.id}", roles=[managers])
    table.members["pia"] = emu.create_member(guild, f"pia-{guild.id}", roles=[players])
    return Server(table, players, table.new_channel("lounge"))


def deadline_in(message: Message) -> float:
    """Seconds from now to the deadline the message shows (as a Discord timestamp)."""
    found = re.search(r"<t:(\d+):R>", message.text)
    assert found is not None, message.text
    return int(found.group(1)) - time.time()


async def test_a_manager_sees_every_setting_with_its_default(
    emu: DiscordEmulator, bot: BotUnderTest, server: Server
) -> None:
    shown = await server.settings()
    assert shown.splitlines() == [
        "Language of boards, challenges and results here: automatic: the server's language, now English.",
        "Change it with `/ttt settings language:`.",
        "Channels where games can be started: all of them.",
        "Role needed to start or accept a game: none.",
        "Time for each move: 10 minutes (the default).",
        "Time to answer a challenge: 2 minutes (the default).",
        "Level of games against me started without one: **perfect**.",
        "Pieces on the boards: **classic**.",
        "Change them with the options of `/ttt settings`: a channel or role given again is taken off,"
        " a time of 0 puts the default back.",
    ]
    german = await private_answer(await server.table.slash("admin", "ttt settings", locale="de"))
    assert "Zeit für jeden Zug: 10 Minuten (Standard)." in german.splitlines()


async def test_without_manage_server_nothing_is_shown_or_changed(
    emu: DiscordEmulator, bot: BotUnderTest, server: Server
) -> None:
    manage = "Only members with the Manage Server permission can see and change the settings."
    assert await server.settings("ann") == manage
    assert await server.settings("ann", turn_timeout=60) == manage
    assert await server.settings("pia", channel=server.lounge, role=server.players) == manage
    refused = await private_answer(
        await server.table.slash("ann", "ttt settings", default_level="easy", locale="fr")
    )
    assert refused.startswith("Seuls les membres ayant la permission « Gérer le serveur »")
    shown = await server.settings()
    assert "Channels where games can be started: all of them." in shown
    assert "Time for each move: 10 minutes (the default)." in shown
    assert "**perfect**" in shown


async def test_games_start_only_in_the_servers_channels_for_games(
    emu: DiscordEmulator, bot: BotUnderTest, server: Server
) -> None:
    table, lounge = server.table, server.lounge
    done = await server.settings(channel=lounge)
    assert done == f"Done: games can now be started in <#{lounge.id}>."
    assert (
        f"Channels where games can be started: <#{lounge.id}> (and their threads)." in await server.settings()
    )

    refused = await private_answer(await table.slash("ann", "ttt start", level="easy"))
    assert refused == f"Games aren't played in this channel; go to <#{lounge.id}>."
    refused = await private_answer(await table.slash("ann", "ttt start", opponent=table["ben"], locale="ja"))
    assert refused == f"このチャンネルでは対局できません。<#{lounge.id}>へどうぞ。"
    assert emu.messages(table.channel) == [], "nothing was posted where games are not played"

    board = await answer(await table.slash("ann", "ttt start", level="easy", where=lounge))
    assert not board.ephemeral and len(cells(board)) == 9
    thread = emu.create_thread(lounge, "side game")
    challenge = await answer(await table.slash("ben", "ttt start", opponent=table["ann"], where=thread))
    assert [button.label for button in challenge.buttons] == ["Accept", "Decline"], challenge.text

    done = await server.settings(channel=lounge)
    assert done == (
        f"Done: <#{lounge.id}> is off the list, which is now empty:"
        " games can be started in every channel again."
    )
    board = await answer(await table.slash("ann", "ttt start", level="easy"))
    assert len(cells(board)) == 9


async def test_a_challenge_cannot_be_accepted_where_games_are_no_longer_played(
    emu: DiscordEmulator, bot: BotUnderTest, server: Server
) -> None:
    table = server.table
    challenge = await answer(await table.slash("ann", "ttt start", opponent=table["ben"]))
    await server.settings(channel=server.lounge)
    accept = challenge.button(label="Accept").custom_id or ""
    refused = await private_answer(await table.click(challenge, accept, "ben"))
    assert refused == f"Games aren't played in this channel; go to <#{server.lounge.id}>."
    assert [button.label for button in challenge.buttons] == ["Accept", "Decline"], "still waiting"


async def test_the_role_is_needed_to_start_and_to_accept(
    emu: DiscordEmulator, bot: BotUnderTest, server: Server
) -> None:
    table, role = server.table, server.players
    done = await server.settings(role=role)
    assert done == f"Done: only members with <@&{role.id}> can now start or accept a game."
    assert f"Role needed to start or accept a game: <@&{role.id}>." in await server.settings()

    refused = await private_answer(await table.slash("ann", "ttt start", level="easy"))
    assert refused == f"You need the <@&{role.id}> role to start or accept a game here."
    refused = await private_answer(await table.slash("ann", "ttt start", level="easy", locale="pt-BR"))
    assert refused == f"Você precisa do cargo <@&{role.id}> para começar ou aceitar uma partida aqui."

    challenge = await answer(await table.slash("pia", "ttt start", opponent=table["ben"]))
    accept = challenge.button(label="Accept").custom_id or ""
    refused = await private_answer(await table.click(challenge, accept, "ben"))
    assert refused == f"You need the <@&{role.id}> role to start or accept a game here."
    await answer(await table.click(challenge, challenge.button(label="Decline").custom_id or "", "ben"))

    everyone = table.guild.roles[table.guild.id]
    assert await server.settings(role=everyone) == "Done: anyone can start or accept a game again."
    board = await answer(await table.slash("ann", "ttt start", level="easy"))
    assert len(cells(board)) == 9


async def test_the_servers_timeouts_set_the_deadlines_shown(
    emu: DiscordEmulator, bot: BotUnderTest, server: Server
) -> None:
    table = server.table
    done = await server.settings(turn_timeout=45, challenge_timeout=3600)
    assert done.splitlines() == [
        "Done: each move now has **45 seconds**.",
        "Done: a challenge now waits **1 hour** for its answer.",
    ]
    board = await answer(await table.slash("ann", "ttt start", level="easy"))
    assert abs(deadline_in(board) - 45) < CLOCK_SLACK, board.text
    challenge = await answer(
        await table.slash("ben", "ttt start", opponent=table["pia"], where=server.lounge)
    )
    assert abs(deadline_in(challenge) - 3600) < CLOCK_SLACK, challenge.text
    await answer(await table.click(challenge, challenge.button(label="Accept").custom_id or "", "pia"))
    assert abs(deadline_in(challenge) - 45) < CLOCK_SLACK, "the accepted game's first turn"

    done = await server.settings(turn_timeout=0)
    assert done == "Done: each move now has 10 minutes (the default)."
    shown = await server.settings()
    assert "Time for each move: 10 minutes (the default)." in shown
    assert "Time to answer a challenge: **1 hour**." in shown


async def test_a_start_without_a_level_uses_the_servers_default_level(
    emu: DiscordEmulator, bot: BotUnderTest, server: Server
) -> None:
    done = await server.settings(default_level="easy", locale="es-ES")
    assert done == "Listo: las partidas contra mí empezadas sin nivel se juegan ahora en nivel **fácil**."
    board = await answer(await server.table.slash("ann", "ttt start"))
    assert "(level: easy)" in board.text
    board = await answer(await server.table.slash("ben", "ttt start", level="hard", where=server.lounge))
    assert "(level: hard)" in board.text


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        (
            {"turn_timeout": 5},
            "The time for each move must be from 30 to 86400 seconds (0 puts the default back); 5 is not."
            " Nothing was changed.",
        ),
        (
            {"turn_timeout": -60},
            "The time for each move must be from 30 to 86400 seconds (0 puts the default back); -60 is not."
            " Nothing was changed.",
        ),
        (
            {"challenge_timeout": 86401},
            "The time to answer a challenge must be from 30 to 86400 seconds (0 puts the default back);"
            " 86401 is not. Nothing was changed.",
        ),
    ],
)
async def test_a_time_out_of_bounds_is_refused_and_changes_nothing(
    emu: DiscordEmulator, bot: BotUnderTest, server: Server, options: dict[str, int], refusal: str
) -> None:
    await server.settings(turn_timeout=120)
    before = await server.settings()
    assert await server.settings(channel=server.lounge, role=server.players, **options) == refusal
    assert await server.settings() == before, "not even the other options given with it"
    board = await answer(await server.table.slash("ann", "ttt start", level="easy"))
    assert abs(deadline_in(board) - 120) < CLOCK_SLACK


async def test_the_bounds_are_explained_in_the_managers_language(
    emu: DiscordEmulator, bot: BotUnderTest, server: Server
) -> None:
    refused = await private_answer(
        await server.table.slash("admin", "ttt settings", challenge_timeout=10, locale="de")
    )
    assert refused == (
        "Die Zeit für die Antwort auf eine Herausforderung muss zwischen 30 und 86400 Sekunden liegen"
        " (0 stellt den Standard wieder her). 10 geht nicht. Es wurde nichts geändert."
    )
