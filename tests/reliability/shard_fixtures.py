"""Shared pieces of the multi-process tests: a PostgreSQL database of their own, bot processes that
share it, and an emulator that hands each interaction to one chosen process.

Every wait is on the emulator's state or the database; timeouts are failure guards only. What the
processes stored is read and checked with :mod:`tests.support.store`.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from sqlalchemy.engine import URL

from bot.db.migrate import upgrade_to_head
from discord_emulator import Channel, DiscordEmulator, GatewaySession, Guild, Interaction, Member
from tests.databases import create_database, drop_database, postgres_server, run_aside
from tests.support.bot import BotUnderTest

__all__ = ["postgres_server"]

_numbers = itertools.count(1)


@pytest.fixture(scope="module")
def shared_postgres_url(postgres_server: URL) -> Iterator[str]:
    """A migrated PostgreSQL database for one module's bot processes, dropped at the end.

    Not the session's shared test database: these bots sweep and resume every game they
    find, so they must not see other tests' rows.
    """
    url = run_aside(create_database(postgres_server))
    try:
        run_aside(upgrade_to_head(url.render_as_string(hide_password=False)))
        yield url.render_as_string(hide_password=False)
    finally:
        run_aside(drop_database(postgres_server, url))


def new_session(emu: DiscordEmulator, known: set[str]) -> GatewaySession:
    """The one ready session that is not in ``known`` (the one a bot start just opened)."""
    fresh = [s for s in emu.sessions if s.ready and s.session_id not in known]
    assert len(fresh) == 1, f"expected one new gateway session, got {len(fresh)}"
    return fresh[0]


async def start_process(process: BotUnderTest, **settings: str) -> GatewaySession:
    """Start ``process`` and return the gateway session it opened."""
    known = {session.session_id for session in process.emu.sessions}
    await process.start(**settings)
    return new_session(process.emu, known)


async def stop_quietly(process: BotUnderTest) -> None:
    if process.process.running:
        await process.stop()


def starts(process: BotUnderTest) -> int:
    """How many times ``process`` was started."""
    return len(process.exit_codes) + int(process.process.running)


@dataclass
class Place:
    """A guild (on a chosen shard, if any) with one channel and two members."""

    guild: Guild
    channel: Channel
    alice: Member
    bob: Member
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def create(cls, emu: DiscordEmulator, shard: tuple[int, int] | None = None) -> Place:
        number = next(_numbers)
        guild = emu.create_guild(f"Shard server {number}", shard=shard, channels=(f"play-{number}",))
        return cls(
            guild,
            emu.channel(guild, f"play-{number}"),
            emu.create_member(guild, f"alice{number}"),
            emu.create_member(guild, f"bob{number}"),
        )


class PinnedEmulator(DiscordEmulator):
    """Several bot processes connected for the same guilds, and each interaction delivered to the one
    session a test picks, so two clicks on one game are handled by two processes sharing a database.

    (Discord gives every interaction to one session; this is the overlap of two deployments, or two
    processes behind one shard, which only the shared database can keep consistent.)
    """

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._pinned: GatewaySession | None = None
        every = self.gateway.sessions_for

        def sessions_for(guild_id: int | None) -> list[GatewaySession]:
            sessions = every(guild_id)
            return sessions if self._pinned is None else [s for s in sessions if s is self._pinned]

        self.gateway.sessions_for = sessions_for  # type: ignore[method-assign]

    async def via(
        self, session: GatewaySession, send: Callable[..., Awaitable[Interaction]], *args: Any, **options: Any
    ) -> Interaction:
        """``await send(*args, **options)`` (``self.click``, ``self.slash``) delivered to ``session`` only."""
        self._pinned = session
        try:
            it = await send(*args, **options)
        finally:
            self._pinned = None
        assert it.dispatched_to == 1, f"the interaction reached {it.dispatched_to} sessions"
        return it


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pinned_emu() -> AsyncIterator[PinnedEmulator]:
    async with PinnedEmulator() as emulator:
        yield emulator


def shared_database_bot(
    emu: DiscordEmulator, workdir: Path, database_url: str, **settings: str
) -> BotUnderTest:
    """``python -m bot`` on the shared database; the schema is migrated beforehand (AUTO_MIGRATE off)."""
    return BotUnderTest(emu, workdir, {"DATABASE_URL": database_url, "AUTO_MIGRATE": "false", **settings})
