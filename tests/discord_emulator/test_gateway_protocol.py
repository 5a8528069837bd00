"""The gateway protocol as a raw websocket client sees it: HELLO, heartbeats, IDENTIFY checks, compression."""

from __future__ import annotations

import json
import zlib
from collections.abc import AsyncIterator
from typing import Any, cast

import aiohttp
import pytest

from discord_emulator import DiscordEmulator

DEFAULT_INTENTS = 53575421  # discord.Intents.default(): no privileged intent
MEMBERS_INTENT = 1 << 1


class Socket:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse, compressed: bool) -> None:
        self.ws = ws
        self.inflate = zlib.decompressobj() if compressed else None

    async def receive(self) -> dict[str, Any] | int:
        """The next frame as JSON, or the close code when the server closed."""
        message = await self.ws.receive(timeout=5)
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
            return int(self.ws.close_code or 0)
        if message.type == aiohttp.WSMsgType.BINARY:
            assert self.inflate is not None and message.data.endswith(b"\x00\x00\xff\xff")
            frame: dict[str, Any] = json.loads(self.inflate.decompress(message.data))
            return frame
        return cast(dict[str, Any], json.loads(message.data))

    async def send(self, op: int, data: Any) -> None:
        await self.ws.send_json({"op": op, "d": data})

    async def identify(
        self, token: str, intents: int = DEFAULT_INTENTS, shard: list[int] | None = None
    ) -> None:
        data: dict[str, Any] = {"token": token, "intents": intents, "properties": {"os": "linux"}}
        if shard is not None:
            data["shard"] = shard
        await self.send(2, data)


@pytest.fixture
async def connect(emulator: DiscordEmulator) -> AsyncIterator[Any]:
    async with aiohttp.ClientSession() as session:

        async def open_socket(query: str = "?v=10&encoding=json") -> Socket:
            ws = await session.ws_connect(emulator.gateway_url + query)
            return Socket(ws, "compress=zlib-stream" in query)

        yield open_socket


async def test_hello_heartbeat_identify_ready(emulator: DiscordEmulator, connect: Any) -> None:
    guild = emulator.create_guild()
    socket = await connect("?v=10&encoding=json&compress=zlib-stream")
    hello = await socket.receive()
    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 41_250
    await socket.send(1, None)
    assert (await socket.receive())["op"] == 11
    await socket.identify(emulator.token)
    ready = await socket.receive()
    assert (ready["op"], ready["t"], ready["s"]) == (0, "READY", 1)
    assert ready["d"]["application"]["id"] == str(emulator.application_id)
    assert ready["d"]["guilds"] == [{"id": str(guild.id), "unavailable": True}]
    assert ready["d"]["resume_gateway_url"].endswith("/gateway-resume")
    created = await socket.receive()
    assert (created["t"], created["s"]) == ("GUILD_CREATE", 2)
    assert [member["user"]["id"] for member in created["d"]["members"]] == [str(emulator.bot.id)]
    assert created["d"]["member_count"] == 2
    await emulator.wait_until_ready()


@pytest.mark.parametrize(
    ("identify", "close_code"),
    [
        ({"token": "wrong"}, 4004),
        ({"intents": DEFAULT_INTENTS | MEMBERS_INTENT}, 4014),
        ({"shard": [2, 2]}, 4010),
    ],
)
async def test_identify_refusals_close_with_discord_codes(
    emulator: DiscordEmulator, connect: Any, identify: dict[str, Any], close_code: int
) -> None:
    socket = await connect()
    await socket.receive()
    options = {"token": emulator.token, **identify}
    await socket.identify(options.pop("token"), **options)
    assert await socket.receive() == close_code


async def test_members_intent_once_enabled_sends_every_member(
    emulator: DiscordEmulator, connect: Any
) -> None:
    guild = emulator.create_guild()
    emulator.create_member(guild, "alice")
    emulator.world.application.privileged_intents = MEMBERS_INTENT
    socket = await connect()
    await socket.receive()
    await socket.identify(emulator.token, DEFAULT_INTENTS | MEMBERS_INTENT)
    await socket.receive()
    created = await socket.receive()
    assert len(created["d"]["members"]) == 3


async def test_commands_before_identify_and_bad_resumes(emulator: DiscordEmulator, connect: Any) -> None:
    socket = await connect()
    await socket.receive()
    await socket.send(3, {"status": "online"})
    assert await socket.receive() == 4003
    socket = await connect()
    await socket.receive()
    await socket.send(6, {"token": emulator.token, "session_id": "nope", "seq": 1})
    assert await socket.receive() == {"op": 9, "d": False, "s": None, "t": None}
