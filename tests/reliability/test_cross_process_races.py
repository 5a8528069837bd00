"""Races between two bot processes that share one PostgreSQL database.

Discord hands each interaction to one process; two processes meet on one game when two
interactions for it (a double click, or both players clicking) reach different processes, as
during the overlap of two deployments. Both processes here hold sessions for every guild, and
the emulator gives each click to the process the test picks: click A to one, click B to the
other, sent together. The database's compare-and-set on the game's version is the only guard.

Each round: exactly one move is stored, the other click gets a polite refusal, the board shows
the stored game, and the stored move list is a legal game. ``TTT_XPROC_RACE_ROUNDS`` scales it.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from discord_emulator import GatewaySession, Member, Message
from tests.reliability.shard_fixtures import (
    PinnedEmulator,
    Place,
    pinned_emu,
    postgres_server,
    shared_database_bot,
    shared_postgres_url,
    start_process,
    stop_quietly,
)
from tests.support.bot import ANSWER_TIMEOUT, BotUnderTest
from tests.support.store import problems_of, read_store
from tests.support.tables import answer, board, cells

__all__ = ["pinned_emu", "postgres_server", "shared_postgres_url"]

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.asyncio(loop_scope="module")]

ROUNDS = int(os.environ.get("TTT_XPROC_RACE_ROUNDS", "200"))
START_RACES = int(os.environ.get("TTT_XPROC_START_RACES", "10"))
SEED = int(os.environ.get("TTT_XPROC_SEED", "20261123"))
REFUSALS = ("out of date", "not your turn", "this game is over")


Pair = tuple[list[BotUnderTest], list[GatewaySession]]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pair(
    pinned_emu: PinnedEmulator, shared_postgres_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Pair]:
    """Two full bot processes (no shard settings: each sees every guild) on one database."""
    processes = [
        shared_database_bot(pinned_emu, Path(tmp_path_factory.mktemp(f"proc{n}")), shared_postgres_url)
        for n in range(2)
    ]
    try:
        sessions = [await start_process(process) for process in processes]
        yield processes, sessions
    finally:
        for process in processes:
            print(f"----- {process.process.log_path} -----\n{process.log_text()[-4000:]}")
            await stop_quietly(process)
        for process in processes:
            assert process.exit_codes == [0], f"exit codes {process.exit_codes}"
            process.check_log()


def cell_id(message: Message, cell: int) -> str:
    return cells(message)[cell].custom_id or ""


async def test_two_clicks_for_one_ply_through_two_processes_apply_exactly_one_move(
    pinned_emu: PinnedEmulator, pair: Pair, shared_postgres_url: str
) -> None:
    emu, (_, sessions), url = pinned_emu, pair, shared_postgres_url
    rng = random.Random(SEED)
    rounds = refused = games = 0
    wins_by_process = [0, 0]
    while rounds < ROUNDS:
        place = Place.create(emu)
        start = await emu.via(
            sessions[0], emu.slash, place.channel, place.alice, "ttt start", opponent=place.bob, size=5
        )
        message = await answer(start)
        accept = message.button(label="Accept").custom_id or ""
        await answer(await emu.via(sessions[1], emu.click, message, accept, place.bob))
        (game_id,) = (await read_store(url)).games_in(place.channel.id)
        games += 1
        players: tuple[Member, Member] = (place.alice, place.bob)
        ply = 0
        while rounds < ROUNDS:
            free = [i for i, button in enumerate(cells(message)) if not button.disabled]
            if not free:
                break
            kind = rounds % 3  # 0: double click on two cells, 1: on one cell, 2: both players at once
            on_turn, other = players[ply % 2], players[(ply + 1) % 2]
            one = rng.choice(free)
            two = one if kind == 1 or len(free) == 1 else rng.choice([c for c in free if c != one])
            clicks = [(one, on_turn), (two, other if kind == 2 else on_turn)]
            if rng.random() < 0.5:
                clicks.reverse()
            its = [
                await emu.via(session, emu.click, message, cell_id(message, cell), user)
                for session, (cell, user) in zip(sessions, clicks, strict=True)
            ]
            answers = await asyncio.gather(*(answer(it) for it in its))

            store = await read_store(url)
            stored = store.games[game_id]
            assert stored.ply == ply + 1, f"round {rounds}: {stored.ply - ply} moves stored for two clicks"
            assert problems_of(store, [game_id], settled=False) == []
            last_cell = store.moves[game_id][-1].cell
            winners = [n for n, (cell, user) in enumerate(clicks) if cell == last_cell and user == on_turn]
            assert winners, f"round {rounds}: stored cell {last_cell} was not clicked by the player on turn"
            losers = [n for n in range(2) if answers[n].ephemeral]
            assert len(losers) == 1, f"round {rounds}: {len(losers)} refusals: {[a.text for a in answers]}"
            text = answers[losers[0]].text.lower()
            assert any(reason in text for reason in REFUSALS), f"round {rounds}: refusal {text!r}"
            wins_by_process[1 - losers[0]] += 1
            refused += 1
            await emu.wait_for(
                lambda m=message, s=stored.board: board(m) == s,
                ANSWER_TIMEOUT,
                "the board to show the stored game",
            )
            ply += 1
            rounds += 1
            if stored.status != "active":
                break
    assert refused == rounds == ROUNDS
    print(
        f"cross-process click races: {rounds} rounds over {games} games; wins per process {wins_by_process}"
    )


async def test_two_starts_in_one_channel_through_two_processes_create_one_game(
    pinned_emu: PinnedEmulator, pair: Pair, shared_postgres_url: str
) -> None:
    emu, (_, sessions), url = pinned_emu, pair, shared_postgres_url
    for _ in range(START_RACES):
        place = Place.create(emu)
        its = [
            await emu.via(session, emu.slash, place.channel, user, "ttt start", level="easy")
            for session, user in zip(sessions, (place.alice, place.bob), strict=True)
        ]
        answers = await asyncio.gather(*(answer(it) for it in its))
        assert len((await read_store(url)).games_in(place.channel.id)) == 1
        assert sorted(a.ephemeral for a in answers) == [False, True]
        refusal = next(a for a in answers if a.ephemeral)
        assert "already" in refusal.text.lower(), refusal.text
