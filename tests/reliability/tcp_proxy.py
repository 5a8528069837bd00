"""A TCP proxy the test controls, between the bot and PostgreSQL: a database restart on demand.

:meth:`TcpProxy.cut` closes every open connection and refuses new ones (accepts, then closes
at once), as a restarting server does; :meth:`TcpProxy.restore` lets connections through again.
:meth:`TcpProxy.cut_at` arms a cut at the moment the client sends given bytes (for example the
``COMMIT`` of a transaction), before or after they reach the server.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass


@dataclass
class _Trigger:
    needle: bytes
    forward_first: bool
    fired: asyncio.Event


class TcpProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self.open = True
        self.refused = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._trigger: _Trigger | None = None

    async def __aenter__(self) -> TcpProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def cut(self) -> None:
        """Drop every connection now; refuse new ones until :meth:`restore`."""
        self.open = False
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    def restore(self) -> None:
        self.open = True

    def cut_at(self, needle: bytes, *, forward_first: bool) -> asyncio.Event:
        """Cut everything when a client next sends ``needle`` (after passing it on, if ``forward_first``)."""
        self._trigger = _Trigger(needle, forward_first, asyncio.Event())
        return self._trigger.fired

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.open:
            self.refused += 1
            writer.transport.abort()
            return
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers |= {writer, upstream_writer}
        await asyncio.gather(
            self._pipe(reader, upstream_writer, watch=True),
            self._pipe(upstream_reader, writer, watch=False),
        )

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, watch: bool) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await reader.read(65536):
                trigger = self._trigger if watch else None
                if trigger is not None and trigger.needle in data:
                    self._trigger = None
                    if trigger.forward_first:
                        writer.write(data)
                        await writer.drain()
                    self.cut()
                    trigger.fired.set()
                    return
                writer.write(data)
                await writer.drain()
        writer.transport.abort()
        self._writers.discard(writer)
