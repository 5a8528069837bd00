"""The REST API as a raw HTTP client sees it: auth, shapes, Discord's limits, permissions, pings, faults."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest

from discord_emulator import DiscordEmulator, Perm, shard_for
from discord_emulator.snowflakes import SnowflakeFactory

Call = Callable[..., Awaitable[tuple[int, Any]]]


@pytest.fixture
async def api(emulator: DiscordEmulator) -> AsyncIterator[Call]:
    async with aiohttp.ClientSession() as session:

        async def call(method: str, path: str, json: Any = None, *, auth: bool = True) -> tuple[int, Any]:
            headers = {"Authorization": f"Bot {emulator.token}"} if auth else {}
            async with session.request(
                method, emulator.api_base + path, json=json, headers=headers
            ) as response:
                if response.status == 204:
                    return 204, None
                if response.headers.get("Content-Type") == "application/json":
                    return response.status, await response.json()
                return response.status, await response.text()

        yield call


def board_rows(size: int) -> list[dict[str, Any]]:
    return [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 2, "label": "\u200b", "custom_id": f"c{row * size + col}"}
                for col in range(size)
            ],
        }
        for row in range(size)
    ]


async def test_requests_need_the_bot_token(emulator: DiscordEmulator, api: Call) -> None:
    assert await api("GET", "/users/@me", auth=False) == (401, {"message": "401: Unauthorized", "code": 0})
    status, me = await api("GET", "/users/@me")
    assert status == 200 and me["id"] == str(emulator.bot.id) and me["bot"] is True
    status, gateway = await api("GET", "/gateway/bot")
    assert gateway["url"] == emulator.gateway_url and gateway["shards"] == 1
    assert [call.status for call in emulator.calls("GET", "/users/@me")] == [401, 200]


async def test_unknown_routes_are_404_and_recorded(emulator: DiscordEmulator, api: Call) -> None:
    assert (await api("POST", "/guilds/1/bans/2"))[0] == 404
    assert emulator.calls(route="<unknown>")[0].path == "/guilds/1/bans/2"


async def test_discord_limits_on_messages(emulator: DiscordEmulator, api: Call) -> None:
    channel = emulator.channel(emulator.create_guild())
    path = f"/channels/{channel.id}/messages"
    assert (await api("POST", path, {"components": board_rows(3)}))[0] == 200
    assert (await api("POST", path, {"components": board_rows(5)}))[0] == 200
    status, error = await api("POST", path, {"components": [*board_rows(5), board_rows(1)[0]]})
    assert (status, error["code"]) == (400, 50035)
    assert error["errors"]["components"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    duplicated = board_rows(2)
    duplicated[1]["components"][0]["custom_id"] = "c0"
    status, error = await api("POST", path, {"components": duplicated})
    assert error["errors"]["components"]["1"]["components"]["0"]["custom_id"]["_errors"][0]["code"] == (
        "COMPONENT_CUSTOM_ID_DUPLICATED"
    )
    long_id = board_rows(1)
    long_id[0]["components"][0]["custom_id"] = "x" * 101
    assert (await api("POST", path, {"components": long_id}))[1]["code"] == 50035
    assert len(emulator.take_spec_violations()) == (emulator.api_spec is not None)
    assert (await api("POST", path, {"content": "x" * 2001}))[1]["code"] == 50035
    assert await api("POST", path, {"content": ""}) == (
        400,
        {"message": "Cannot send an empty message", "code": 50006},
    )
    assert len(emulator.messages(channel)) == 2


async def test_allowed_mentions_decide_who_is_pinged(emulator: DiscordEmulator, api: Call) -> None:
    guild = emulator.create_guild()
    channel = emulator.channel(guild)
    alice = emulator.create_member(guild, "alice")
    bob = emulator.create_member(guild, "bob")
    role = emulator.create_role(guild, "pingable", mentionable=True)
    content = f"@everyone {alice.mention} {bob.mention} {role.mention}"
    path = f"/channels/{channel.id}/messages"

    _, default = await api("POST", path, {"content": content})
    assert default["mention_everyone"] is True
    assert {user["id"] for user in default["mentions"]} == {str(alice.id), str(bob.id)}
    assert default["mention_roles"] == [str(role.id)]

    _, none = await api("POST", path, {"content": content, "allowed_mentions": {"parse": []}})
    assert (none["mention_everyone"], none["mentions"], none["mention_roles"]) == (False, [], [])

    only_alice = {"parse": [], "users": [str(alice.id)]}
    _, limited = await api("POST", path, {"content": content, "allowed_mentions": only_alice})
    assert [user["id"] for user in limited["mentions"]] == [str(alice.id)]
    assert limited["mention_everyone"] is False

    conflicting = {"parse": ["users"], "users": [str(alice.id)]}
    assert (await api("POST", path, {"content": content, "allowed_mentions": conflicting}))[1][
        "code"
    ] == 50035


async def test_channel_permissions_apply_to_the_bot(emulator: DiscordEmulator, api: Call) -> None:
    guild = emulator.create_guild()
    channel = emulator.channel(guild)
    emulator.set_overwrite(channel, guild.everyone, deny=Perm.SEND_MESSAGES)
    assert await api("POST", f"/channels/{channel.id}/messages", {"content": "hi"}) == (
        403,
        {"message": "Missing Permissions", "code": 50013},
    )
    emulator.set_overwrite(channel, emulator.bot_member(guild), allow=Perm.SEND_MESSAGES)
    assert (await api("POST", f"/channels/{channel.id}/messages", {"content": "hi"}))[0] == 200
    emulator.set_overwrite(channel, guild.everyone, deny=Perm.VIEW_CHANNEL)
    assert (await api("GET", f"/channels/{channel.id}/messages"))[1]["code"] == 50001


async def test_messages_list_edit_and_delete(emulator: DiscordEmulator, api: Call) -> None:
    channel = emulator.channel(emulator.create_guild())
    path = f"/channels/{channel.id}/messages"
    ids = [
        (await api("POST", path, {"content": f"m{n}", "components": board_rows(1)}))[1]["id"]
        for n in range(3)
    ]
    _, newest = await api("GET", path + "?limit=2")
    assert [message["id"] for message in newest] == [ids[2], ids[1]]
    _, edited = await api("PATCH", f"{path}/{ids[0]}", {"content": "changed"})
    assert edited["content"] == "changed" and edited["components"][0]["components"][0]["custom_id"] == "c0"
    assert edited["edited_timestamp"] is not None
    assert (await api("DELETE", f"{path}/{ids[0]}"))[0] == 204
    assert (await api("GET", f"{path}/{ids[0]}"))[1]["code"] == 10008
    assert [message.content for message in emulator.messages(channel)] == ["m1", "m2"]
    assert emulator.message(int(ids[0])).history[-1].content == "changed"


async def test_command_sync_keeps_ids_and_enforces_discord_rules(
    emulator: DiscordEmulator, api: Call
) -> None:
    guild = emulator.create_guild()
    path = f"/applications/{emulator.application_id}/guilds/{guild.id}/commands"
    command = {
        "name": "ttt",
        "description": "Play",
        "options": [{"type": 1, "name": "start", "description": "go"}],
    }
    status, first = await api("PUT", path, [command])
    status, second = await api("PUT", path, [command])
    assert status == 200 and first[0]["id"] == second[0]["id"] and second[0]["guild_id"] == str(guild.id)
    assert (await api("GET", path))[1] == second
    assert emulator.command("ttt", guild)["options"][0]["name"] == "start"
    bad = {"name": "TTT", "description": "", "options": []}
    status, error = await api("PUT", path, [bad])
    assert (status, error["code"]) == (400, 50035)
    assert set(error["errors"]["0"]) == {"name", "description"}
    assert (await api("PUT", f"/applications/{emulator.application_id}/guilds/1/commands", []))[1][
        "code"
    ] == 10004


async def test_injected_faults_answer_like_discord(emulator: DiscordEmulator, api: Call) -> None:
    emulator.rate_limit_next("GET", "/users/@me", retry_after=1.5, is_global=True)
    async with aiohttp.ClientSession() as session:
        headers = {"Authorization": f"Bot {emulator.token}"}
        async with session.get(emulator.api_base + "/users/@me", headers=headers) as response:
            assert response.status == 429
            assert response.headers["Retry-After"] == "2"
            assert response.headers["X-RateLimit-Global"] == "true"
            assert response.headers["X-RateLimit-Scope"] == "global"
            assert "Via" in response.headers
            assert (await response.json())["retry_after"] == 1.5
    emulator.fail_next("*", "/channels/*", status=502, times=2)
    channel = emulator.channel(emulator.create_guild())
    assert (await api("GET", f"/channels/{channel.id}"))[0] == 502
    assert (await api("GET", f"/channels/{channel.id}/messages"))[0] == 502
    assert (await api("GET", f"/channels/{channel.id}"))[0] == 200
    assert [call.fault for call in emulator.calls("GET", "/channels/{channel_id}")] == ["502", None]

    path = f"/channels/{channel.id}/messages"
    emulator.drop_next("POST", "/channels/{channel_id}/messages")
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await api("POST", path, {"content": "lost"})
    assert emulator.messages(channel) == []
    emulator.drop_next("POST", "/channels/{channel_id}/messages", handled=True)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await api("POST", path, {"content": "sent, answer lost"})
    assert [message.content for message in emulator.messages(channel)] == ["sent, answer lost"]


def test_snowflakes_increase_and_land_on_the_asked_shard() -> None:
    factory = SnowflakeFactory()
    ids = [factory.next() for _ in range(5000)]
    assert ids == sorted(set(ids))
    for shard_id in range(4):
        assert shard_for(factory.next(shard=(shard_id, 4)), 4) == shard_id
