"""Starts by players whose names are stored: the channel's live-game index refuses a busy channel.

A start that has no name to store writes nothing before the new game's insert, so the
insert itself finds out whether the channel is busy (one round trip fewer per start);
the refusals stay what they were and still change nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event

from bot.services import GameService, ServiceSettings, refusals
from tests.services.helpers import ALICE, BOB, CAROL, HERE, THERE, ManualClock, make_service
from tests.support.store import snapshot


@contextmanager
def channel_reads(service: GameService) -> Iterator[list[str]]:
    """The reads of a channel's live game the service sends while the block runs."""
    reads: list[str] = []

    def note(*args: Any) -> None:
        statement = " ".join(args[2].split())
        if statement.startswith("SELECT") and "WHERE games.channel_id =" in statement:
            reads.append(statement)

    engine = service.database.engine.sync_engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield reads
    finally:
        event.remove(engine, "before_cursor_execute", note)


async def test_a_known_players_start_reads_no_channel(service: GameService) -> None:
    await service.start_vs_bot(THERE, ALICE)  # Alice's name is stored (and known) from now on
    with channel_reads(service) as reads:
        game = await service.start_vs_bot(HERE, ALICE)
    assert game.is_active
    assert reads == []


@pytest.mark.parametrize(
    ("running", "refusal"),
    [("game", refusals.GameRunning), ("challenge", refusals.ChallengeWaiting)],
)
async def test_a_known_players_start_in_a_busy_channel_is_refused_and_changes_nothing(
    service: GameService, database_url: str, running: str, refusal: type[refusals.Refusal]
) -> None:
    await service.start_vs_bot(THERE, CAROL)
    await service.cancel(THERE, CAROL)
    if running == "game":
        await service.start_vs_bot(HERE, ALICE)
    else:
        await service.challenge(HERE, ALICE, BOB)
    before = await snapshot(database_url)
    for attempt in (service.start_vs_bot(HERE, CAROL), service.challenge(HERE, CAROL, ALICE)):
        with pytest.raises(refusal):
            await attempt
    assert await snapshot(database_url) == before
    assert (await service.start_vs_bot(THERE, CAROL)).is_active  # the refused starts left nothing behind


async def test_a_busy_channel_is_refused_before_a_cooldown(
    database_url: str, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    service = make_service(database_url, ServiceSettings(start_cooldown_seconds=30), clock, executor)
    try:
        await service.start_vs_bot(THERE, ALICE)
        await service.cancel(THERE, ALICE)  # Alice is known, and within her cooldown
        await service.start_vs_bot(HERE, BOB)
        with pytest.raises(refusals.GameRunning):
            await service.start_vs_bot(HERE, ALICE)
        with pytest.raises(refusals.Cooldown):
            await service.start_vs_bot(THERE, ALICE)
    finally:
        await service.close()
