"""A PostgreSQL server that goes away is an outage to the store at every step of a connection:
:class:`DatabaseUnavailableError` (the bot answers "busy"), never a raw driver error."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import URL

from bot.db import Database, DatabaseUnavailableError
from tests.reliability.tcp_proxy import TcpProxy

pytestmark = pytest.mark.postgres


@pytest.mark.parametrize(
    "needle",
    [
        pytest.param(b"database", id="while the connection is opened (its start-up message)"),
        pytest.param(b"SELECT 1", id="during a query"),
    ],
)
async def test_a_server_that_goes_away_is_an_outage_and_the_store_recovers(
    postgres_server: URL, needle: bytes
) -> None:
    async with TcpProxy(postgres_server.host or "127.0.0.1", postgres_server.port or 5432) as proxy:
        database = Database(postgres_server.set(host="127.0.0.1", port=proxy.port))
        try:
            await database.ping()
            await database.engine.dispose()  # the next ping opens a connection of its own
            cut = proxy.cut_at(needle, forward_first=True)
            with pytest.raises(DatabaseUnavailableError):
                await database.ping()
            assert cut.is_set()
            proxy.restore()
            await database.ping()
        finally:
            await database.close()
