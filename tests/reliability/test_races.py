"""Clicks racing on one game and ply, and starts racing in one channel, through the emulator.

Many games run side by side in their own channels (one bot process, no restart), so a
round costs one round trip of its game, not of the whole test. In each round several
clicks for the same ply of one game reach the bot in the same gateway read: from the
player on turn (a double click, or clicks on different cells), or from both players.
Exactly one must be applied, each other click answered with a private refusal, and the
stored moves must replay as a legal game whose board the message shows.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from discord_emulator import Channel, DiscordEmulator, Interaction, Message
from tests.support.bot import ANSWER_TIMEOUT, BotUnderTest
from tests.support.concurrency import env_count, gather_limited
from tests.support.store import problems_of, query, read_store
from tests.support.tables import (
    STALE_REFRESH,
    Answers,
    Table,
    board,
    boards_in_history,
    cells,
    duel,
    free_cells,
)

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

ROUNDS = {2: env_count("TTT_RACE_ROUNDS_2", 250), 10: env_count("TTT_RACE_ROUNDS_10", 60)}
"""Rounds of two and of ten racing clicks; each round is one ply of one game. CI runs these defaults;
``TTT_RACE_ROUNDS_2=1000 TTT_RACE_ROUNDS_10=1000`` is the full run (about four minutes on 2 cores)."""
IN_FLIGHT = env_count("TTT_RACE_IN_FLIGHT", 64)
"""Clicks in flight at once (games side by side x racers), well within what the bot answers in 3 s."""
SIZE = 4
"""4x4 games last longer (fewer challenges per round) than 3x3."""
REFUSALS = ("not your turn", STALE_REFRESH, "This game is over")
"""A click loses the race to the move, to the move that ended the game, or was not its turn."""


@dataclass
class Tally:
    rounds: int = 0
    clicks: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    games: set[int] = field(default_factory=set)


@dataclass
class Lane:
    """One channel where alice and bob play game after game (taking turns to open) while clicks race."""

    bot: BotUnderTest
    table: Table
    channel: Channel
    message: Message | None = None
    game_id: int = 0
    games: int = 0
    x: str = "alice"
    o: str = "bob"
    finished: list[Message] = field(default_factory=list)

    async def new_game(self) -> None:
        self.x, self.o = ("alice", "bob") if self.games % 2 == 0 else ("bob", "alice")
        self.games += 1
        self.message = await duel(self.table, self.x, self.o, size=SIZE, channel=self.channel)
        sql = "SELECT id FROM games WHERE channel_id = ? AND status = 'active'"
        ((self.game_id,),) = query(self.bot, sql, (self.channel.id,))


async def race_round(
    emu: DiscordEmulator, answers_to: Answers, lane: Lane, racers: int, rng: random.Random
) -> Tally:
    """One ply of ``lane``'s game, clicked ``racers`` times at once; checks that exactly one applied."""
    message = lane.message
    assert message is not None
    ply = SIZE * SIZE - len(free_cells(message))
    mover, waiter = (lane.x, lane.o) if ply % 2 == 0 else (lane.o, lane.x)
    mode = rng.choice(("double click", "same user, any cells", "both players"))
    free = free_cells(message)
    same_cell = rng.choice(free)
    version = message.version
    grid = cells(message)
    senders = [waiter if mode == "both players" and index % 2 else mover for index in range(racers)]
    rng.shuffle(senders)
    clicks: list[Interaction] = []
    for who in senders:
        cell = same_cell if mode == "double click" else rng.choice(free)
        custom_id = grid[cell].custom_id or ""
        clicks.append(await emu.click(message, custom_id, lane.table[who], version=version))
    answers = await asyncio.gather(*(answers_to.of(it) for it in clicks))
    public = [i for i, (ephemeral, _) in enumerate(answers) if not ephemeral]
    assert len(public) == 1, f"{mode}: {answers}"
    tally = Tally(rounds=1, clicks=racers, games={lane.game_id})
    stale = 0
    for ephemeral, text in answers:
        if ephemeral:
            kind = next((k for k in REFUSALS if k in text), None)
            assert kind is not None, f"{mode}: unexpected refusal {text!r}"
            tally.refused[kind] = tally.refused.get(kind, 0) + 1
            stale += kind == STALE_REFRESH
    (winner,) = public
    assert clicks[winner].user.id == lane.table[mover].id
    stored = query(lane.bot, "SELECT ply, board, status FROM games WHERE id = ?", (lane.game_id,))[0]
    moves = query(lane.bot, "SELECT ply FROM moves WHERE game_id = ?", (lane.game_id,))
    assert stored[0] == ply + 1 and len(moves) == ply + 1, f"{mode}: {stored}, {len(moves)} moves"
    # Outdated clicks may redraw the board after their refusal; it must come to show the stored game.
    await emu.wait_for(lambda: board(message) == stored[1], ANSWER_TIMEOUT, "the board shows the move")
    if stored[2] != "active":
        lane.finished.append(message)
        await lane.new_game()
    return tally


async def run_rounds(
    emu: DiscordEmulator, bot: BotUnderTest, racers: int, seed: int
) -> tuple[Tally, list[Message]]:
    """``ROUNDS[racers]`` rounds over games side by side; the tally and every board message used."""
    answers_to = Answers(emu)
    table = Table.create(emu, "alice", "bob")
    lanes = [
        Lane(bot, table, table.new_channel(f"race-{racers}-{n}")) for n in range(max(2, IN_FLIGHT // racers))
    ]
    await gather_limited((lane.new_game() for lane in lanes), 8)
    total = Tally()
    rng = random.Random(seed)
    remaining = ROUNDS[racers]

    async def drive(lane: Lane, lane_rng: random.Random) -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            tally = await race_round(emu, answers_to, lane, racers, lane_rng)
            total.rounds += tally.rounds
            total.clicks += tally.clicks
            total.games |= tally.games
            for kind, count in tally.refused.items():
                total.refused[kind] = total.refused.get(kind, 0) + count

    async with asyncio.TaskGroup() as group:  # a failure stops every lane
        for lane in lanes:
            group.create_task(drive(lane, random.Random(rng.random())))
    boards = [m for lane in lanes for m in (*lane.finished, lane.message) if m is not None]
    return total, boards


@pytest.mark.parametrize("racers", [2, 10])
async def test_racing_clicks_apply_exactly_one_move(
    emu: DiscordEmulator, bot: BotUnderTest, racers: int
) -> None:
    tally, boards = await run_rounds(emu, bot, racers, seed=racers)
    rounds = ROUNDS[racers]
    assert tally.rounds == rounds and tally.clicks == rounds * racers
    assert sum(tally.refused.values()) == rounds * (racers - 1)
    store = await read_store(bot.env["DATABASE_URL"])
    assert problems_of(store, tally.games, settled=False) == []
    moves = sum(len(store.moves[game_id]) for game_id in tally.games)
    for message in boards:
        shown = boards_in_history(message)
        for older, newer in itertools.pairwise(shown):
            assert all(a in (".", b) for a, b in zip(older, newer, strict=True)), (
                f"board message {message.id} went back from {older} to {newer}: {shown}"
            )
    print(
        f"{racers} racers: {tally.rounds} rounds, {tally.clicks} clicks, {len(tally.games)} games, "
        f"{moves} stored moves replayed, refusals {tally.refused}"
    )


async def test_racing_starts_in_one_channel_create_exactly_one_game(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    """Ten members start at once in each of many channels (against me, or challenging a neighbour)."""
    names = [f"p{n}" for n in range(10)]
    table = Table.create(emu, *names)
    channels = [table.new_channel(f"start-race-{n}") for n in range(env_count("TTT_START_RACES", 8))]
    rng = random.Random(7)
    starts: list[tuple[Channel, Interaction]] = []
    for channel in channels:
        for index, name in enumerate(names):
            options: dict[str, Any]
            if rng.random() < 0.5:
                options = {"size": rng.choice((3, 4)), "level": "easy"}
            else:
                options = {"opponent": table[names[(index + 1) % len(names)]]}
            starts.append((channel, await table.slash(name, "ttt start", where=channel, **options)))
    answers = Answers(emu)
    seen = await asyncio.gather(*(answers.of(it) for _, it in starts))
    for channel in channels:
        mine = [text for (where, _), (ephemeral, text) in zip(starts, seen, strict=True) if where is channel]
        public = [
            text
            for (where, _), (ephemeral, text) in zip(starts, seen, strict=True)
            if where is channel and not ephemeral
        ]
        assert len(public) == 1, mine
        refusals = [text for text in mine if text not in public]
        assert len(refusals) == len(names) - 1
        assert all("already" in text for text in refusals), refusals
        rows = query(bot, "SELECT status FROM games WHERE channel_id = ?", (channel.id,))
        assert len(rows) == 1 and rows[0][0] in ("active", "pending"), rows
