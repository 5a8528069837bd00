"""The websocket gateway: HELLO, heartbeats, IDENTIFY/READY, RESUME, shard routing and dispatches.

Events live in a per-session buffer with sequence numbers, so a session that loses its socket gets
what it missed when it RESUMEs, as on Discord. Compression: ``zlib-stream`` (what discord.py asks
for without a zstd library); other values are answered uncompressed, which discord.py accepts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .models import Guild
from .payloads import current_user_payload, guild_create_payload, member_payload
from .records import GatewayRecord
from .snowflakes import shard_for
from .waiting import Notifier
from .world import GUILD_MEMBERS_INTENT, World

DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE = 3
VOICE = 4
RESUME = 6
RECONNECT = 7
REQUEST_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

CLOSE_UNKNOWN_OPCODE = 4001
CLOSE_DECODE_ERROR = 4002
CLOSE_NOT_AUTHENTICATED = 4003
CLOSE_AUTHENTICATION_FAILED = 4004
CLOSE_ALREADY_AUTHENTICATED = 4005
CLOSE_INVALID_SHARD = 4010
CLOSE_INVALID_API_VERSION = 4012
CLOSE_DISALLOWED_INTENTS = 4014

MESSAGE_CONTENT_INTENT = 1 << 15
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | MESSAGE_CONTENT_INTENT
BUFFER_SIZE = 20_000


@dataclass(eq=False)
class GatewaySession:
    """A gateway session (what READY's ``session_id`` names); it outlives its sockets until invalidated."""

    session_id: str
    shard: tuple[int, int] | None
    intents: int
    seq: int = 0
    buffer: deque[tuple[int, str, dict[str, Any]]] = field(default_factory=lambda: deque(maxlen=BUFFER_SIZE))
    connection: GatewayConnection | None = None
    ready_seq: int = 0
    """Sequence of the last GUILD_CREATE sent after READY: the session is ready once it is written."""
    resumes: int = 0
    invalidated: bool = False
    presence: dict[str, Any] | None = None
    disconnected_at: float | None = None

    @property
    def shard_id(self) -> int | None:
        return None if self.shard is None else self.shard[0]

    @property
    def live(self) -> bool:
        return self.connection is not None and not self.connection.closed

    @property
    def ready(self) -> bool:
        connection = self.connection
        return (
            not self.invalidated
            and connection is not None
            and not connection.closed
            and (connection.sent_seq >= self.ready_seq > 0)
        )

    def covers(self, guild_id: int | None) -> bool:
        """Whether this session receives the guild's events (DMs go to shard 0)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_for(guild_id, count) == shard_id

    def dispatch(self, event: str, data: dict[str, Any]) -> int:
        self.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.buffer.append((self.seq, json.dumps(payload, separators=(",", ":")), payload))
        if self.connection is not None:
            self.connection.wake()
        return self.seq

    def events_after(self, seq: int) -> Iterator[tuple[int, str, dict[str, Any]]]:
        for item in self.buffer:
            if item[0] > seq:
                yield item

    def can_resume_from(self, seq: int) -> bool:
        if self.invalidated or seq > self.seq:
            return False
        return not self.buffer or self.buffer[0][0] <= seq + 1


class GatewayConnection:
    """One websocket. Dispatches are written by a single writer task, in sequence order."""

    def __init__(self, server: GatewayServer, request: web.Request, ws: web.WebSocketResponse) -> None:
        self.server = server
        self.request = request
        self.ws = ws
        self.path = request.path
        self.session: GatewaySession | None = None
        self.sent_seq = 0
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        compress = request.query.get("compress")
        self.compression = compress if compress == "zlib-stream" else None
        self._zlib = zlib.compressobj() if self.compression else None
        self.closed = False
        self._writer: asyncio.Task[None] | None = None

    def wake(self) -> None:
        self._wake.set()

    async def _send_text(self, text: str) -> None:
        if self._zlib is not None:
            await self.ws.send_bytes(self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH))
        else:
            await self.ws.send_str(text)

    async def send_op(self, op: int, data: Any) -> None:
        payload = {"op": op, "d": data, "s": None, "t": None}
        async with self._lock:
            if self.closed:
                return
            try:
                await self._send_text(json.dumps(payload, separators=(",", ":")))
            except (ConnectionError, RuntimeError):
                self.closed = True
                return
        self.server.record("send", self.session, op, None, None, data)

    def start_writer(self) -> None:
        self._writer = asyncio.create_task(self._write_loop(), name="emulator-gateway-writer")

    async def _write_loop(self) -> None:
        while not self.closed:
            await self._wake.wait()
            self._wake.clear()
            session = self.session
            if session is None:
                continue
            async with self._lock:
                for seq, text, payload in list(session.events_after(self.sent_seq)):
                    if self.closed:
                        return
                    try:
                        await self._send_text(text)
                    except (ConnectionError, RuntimeError):
                        return
                    self.sent_seq = seq
                    self.server.on_sent(session, payload)

    async def close(self, code: int = 1000, message: str = "") -> None:
        if self.closed:
            return
        self.closed = True
        self.wake()
        with contextlib.suppress(Exception):
            await self.ws.close(code=code, message=message.encode())

    def abort(self) -> None:
        """Drop the TCP connection without a close frame, like a network failure."""
        self.closed = True
        self.wake()
        transport = self.request.transport
        if transport is not None:
            transport.abort()

    async def stop_writer(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer


class GatewayServer:
    def __init__(self, world: World, notifier: Notifier, *, token: str) -> None:
        self.world = world
        self.notifier = notifier
        self.token = token
        self.heartbeat_interval_ms = 41_250
        self.ack_heartbeats = True
        self.up = asyncio.Event()
        """Cleared during an outage: new sockets are accepted but hear nothing (no HELLO) until it is set."""
        self.up.set()
        self.held = 0
        """Sockets that were held by an outage."""
        self.sessions: list[GatewaySession] = []
        self.connections: list[GatewayConnection] = []
        self.log: list[GatewayRecord] = []
        self.base_url = ""
        """``ws://host:port``, set by the emulator once it listens."""
        self.on_dispatch_sent: Callable[[GatewaySession, dict[str, Any]], None] = lambda session, payload: (
            None
        )
        self.identifies = 0

    @property
    def url(self) -> str:
        return f"{self.base_url}/gateway"

    @property
    def resume_url(self) -> str:
        return f"{self.base_url}/gateway-resume"

    # ------------------------------------------------------------------------------ recording

    def record(
        self, direction: str, session: GatewaySession | None, op: int, t: str | None, s: int | None, d: Any
    ) -> None:
        self.log.append(
            GatewayRecord(
                direction="send" if direction == "send" else "receive",
                session_id=None if session is None else session.session_id,
                shard=None if session is None else session.shard,
                op=op,
                t=t,
                s=s,
                d=d,
                at=time.monotonic(),
            )
        )
        self.notifier.notify()

    def on_sent(self, session: GatewaySession, payload: dict[str, Any]) -> None:
        self.record("send", session, DISPATCH, payload["t"], payload["s"], payload["d"])
        self.on_dispatch_sent(session, payload)

    # ------------------------------------------------------------------------------ routing

    def active_sessions(self) -> list[GatewaySession]:
        return [session for session in self.sessions if not session.invalidated]

    def sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        return [session for session in self.active_sessions() if session.covers(guild_id)]

    def dispatch(self, guild_id: int | None, event: str, data: dict[str, Any], intent: int = 0) -> int:
        """Send an event to every session that covers the guild and has the intent; returns how many."""
        count = 0
        for session in self.sessions_for(guild_id):
            if intent and not session.intents & intent:
                continue
            payload = data
            if event == "GUILD_CREATE":
                payload = self._guild_create(self.world.guilds[int(data["id"])], session)
            elif event in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
                payload = self._strip_content(session, data)
            session.dispatch(event, payload)
            count += 1
        self.notifier.notify()
        return count

    def route(self, guild_id: int | None, event: str, data: dict[str, Any], intent: int) -> None:
        """The world's dispatch hook."""
        self.dispatch(guild_id, event, data, intent)

    def _guild_create(self, guild: Guild, session: GatewaySession) -> dict[str, Any]:
        return guild_create_payload(
            guild, self.world.application, all_members=bool(session.intents & GUILD_MEMBERS_INTENT)
        )

    def _strip_content(self, session: GatewaySession, data: dict[str, Any]) -> dict[str, Any]:
        if session.intents & MESSAGE_CONTENT_INTENT or "guild_id" not in data:
            return data
        bot_id = str(self.world.bot.id)
        if data["author"]["id"] == bot_id or any(user["id"] == bot_id for user in data.get("mentions", [])):
            return data
        return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

    # ------------------------------------------------------------------------------ faults

    def _live_connections(self, shard_id: int | None) -> list[GatewayConnection]:
        return [
            session.connection
            for session in self.active_sessions()
            if session.connection is not None
            and not session.connection.closed
            and (shard_id is None or session.shard_id == shard_id)
        ]

    async def reconnect(self, shard_id: int | None = None) -> int:
        """Send op 7 RECONNECT; the client closes and RESUMEs. Returns how many sockets got it."""
        connections = self._live_connections(shard_id)
        for connection in connections:
            await connection.send_op(RECONNECT, None)
        return len(connections)

    def drop(self, shard_id: int | None = None) -> int:
        """Cut the sockets without a close frame (network failure); the sessions stay resumable."""
        connections = self._live_connections(shard_id)
        for connection in connections:
            connection.abort()
        return len(connections)

    async def close(self, shard_id: int | None = None, code: int = 4000) -> int:
        """Close the sockets with a close code (4000 unknown error is resumable for discord.py)."""
        connections = self._live_connections(shard_id)
        for connection in connections:
            await connection.close(code)
        return len(connections)

    async def invalidate(self, shard_id: int | None = None, *, resumable: bool = False) -> int:
        """Send op 9 INVALID_SESSION; unless ``resumable``, the session ends and the client re-IDENTIFYs."""
        connections = self._live_connections(shard_id)
        for connection in connections:
            if not resumable and connection.session is not None:
                connection.session.invalidated = True
            await connection.send_op(INVALID_SESSION, resumable)
        return len(connections)

    async def shutdown(self) -> None:
        for connection in list(self.connections):
            await connection.close(1001)
            await connection.stop_writer()

    # ------------------------------------------------------------------------------ socket

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        if not self.up.is_set():
            self.held += 1
            self.notifier.notify()
            await self.up.wait()
            if ws.closed:
                return ws
        connection = GatewayConnection(self, request, ws)
        self.connections.append(connection)
        connection.start_writer()
        try:
            if request.query.get("encoding", "json") != "json":
                await connection.close(CLOSE_DECODE_ERROR, "Only JSON encoding is emulated")
                return ws
            if request.query.get("v", "10") not in ("9", "10"):
                await connection.close(CLOSE_INVALID_API_VERSION, "Invalid API version")
                return ws
            await connection.send_op(
                HELLO, {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["emu"]}
            )
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    if message.type == WSMsgType.BINARY:
                        await connection.close(CLOSE_DECODE_ERROR, "Binary frames are not emulated")
                    break
                try:
                    frame = json.loads(message.data)
                except ValueError:
                    await connection.close(CLOSE_DECODE_ERROR, "Error while decoding payload")
                    break
                await self._on_frame(connection, frame)
                if connection.closed:
                    break
        finally:
            connection.closed = True
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
                session.disconnected_at = time.monotonic()
            await connection.stop_writer()
            with contextlib.suppress(ValueError):
                self.connections.remove(connection)
            self.notifier.notify()
        return ws

    async def _on_frame(self, connection: GatewayConnection, frame: dict[str, Any]) -> None:
        op = frame.get("op")
        data = frame.get("d")
        logged = data
        if op in (IDENTIFY, RESUME) and isinstance(data, dict):
            logged = {**data, "token": "<redacted>" if data.get("token") == self.token else "<wrong token>"}
        self.record("receive", connection.session, int(op) if isinstance(op, int) else -1, None, None, logged)
        if op == HEARTBEAT:
            if self.ack_heartbeats:
                await connection.send_op(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:
            await self._resume(connection, data or {})
        elif connection.session is None:
            await connection.close(CLOSE_NOT_AUTHENTICATED, "Not authenticated")
        elif op == PRESENCE:
            connection.session.presence = data
        elif op == VOICE:
            pass
        elif op == REQUEST_MEMBERS:
            self._request_members(connection.session, data or {})
        else:
            await connection.close(CLOSE_UNKNOWN_OPCODE, "Unknown opcode")

    async def _identify(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        if connection.session is not None:
            await connection.close(CLOSE_ALREADY_AUTHENTICATED, "Already authenticated")
            return
        if data.get("token") != self.token:
            await connection.close(CLOSE_AUTHENTICATION_FAILED, "Authentication failed")
            return
        shard = data.get("shard")
        shard_tuple: tuple[int, int] | None = None
        if shard is not None:
            if not (isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]):
                await connection.close(CLOSE_INVALID_SHARD, "Invalid shard")
                return
            shard_tuple = (int(shard[0]), int(shard[1]))
        intents = int(data.get("intents", 0))
        disallowed = intents & PRIVILEGED_INTENTS & ~self.world.application.privileged_intents
        if disallowed:
            await connection.close(CLOSE_DISALLOWED_INTENTS, "Disallowed intent(s)")
            return
        self.identifies += 1
        session = GatewaySession(session_id=secrets.token_hex(16), shard=shard_tuple, intents=intents)
        session.presence = data.get("presence")
        guilds = [g for g in self.world.guilds.values() if g.with_bot and session.covers(g.id)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**current_user_payload(self.world.bot), "bot": True},
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_url,
            "application": {"id": str(self.world.application.id), "flags": self.world.application.flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["emu-gateway"],
        }
        if shard_tuple is not None:
            ready["shard"] = list(shard_tuple)
        session.dispatch("READY", ready)
        for guild in guilds:
            session.dispatch("GUILD_CREATE", self._guild_create(guild, session))
        session.ready_seq = session.seq
        connection.session = session
        session.connection = connection
        self.sessions.append(session)
        connection.wake()
        self.notifier.notify()

    async def _resume(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        if connection.session is not None:
            await connection.close(CLOSE_ALREADY_AUTHENTICATED, "Already authenticated")
            return
        if data.get("token") != self.token:
            await connection.close(CLOSE_AUTHENTICATION_FAILED, "Authentication failed")
            return
        session = next((s for s in self.sessions if s.session_id == data.get("session_id")), None)
        seq = data.get("seq")
        if session is None or not isinstance(seq, int) or not session.can_resume_from(seq):
            await connection.send_op(INVALID_SESSION, False)
            return
        old = session.connection
        if old is not None and old is not connection:
            await old.close(4000, "Session resumed elsewhere")
        session.resumes += 1
        session.disconnected_at = None
        connection.session = session
        connection.sent_seq = seq
        session.connection = connection
        session.dispatch("RESUMED", {"_trace": ["emu-gateway"]})
        self.notifier.notify()

    def _request_members(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None or not guild.with_bot or not session.covers(guild.id):
            return
        query = str(data.get("query") or "").lower()
        user_ids = {int(user_id) for user_id in data.get("user_ids") or []}
        limit = int(data.get("limit") or 0) or len(guild.members)
        members = [
            member
            for member in guild.members.values()
            if (member.user.id in user_ids)
            or (not user_ids and member.user.username.lower().startswith(query))
        ][:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [member_payload(member) for member in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if data.get("presences"):
            chunk["presences"] = []
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
