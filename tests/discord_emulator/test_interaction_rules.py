"""Discord's interaction rules, with the test playing the bot over raw HTTP: one callback, the right
callback types, follow-ups only after acknowledging, tokens that expire; and option checks on injection."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from discord_emulator import DiscordEmulator, InteractionUsageError, Perm

COMMANDS = [
    {
        "name": "ttt",
        "description": "Tic-tac-toe",
        "contexts": [0],
        "options": [
            {
                "type": 1,
                "name": "start",
                "description": "Start",
                "options": [
                    {"type": 6, "name": "opponent", "description": "Who"},
                    {
                        "type": 4,
                        "name": "size",
                        "description": "Size",
                        "choices": [{"name": str(n), "value": n} for n in (3, 4, 5)],
                    },
                ],
            },
            {
                "type": 1,
                "name": "move",
                "description": "Move",
                "options": [
                    {"type": 3, "name": "cell", "description": "Cell", "required": True, "autocomplete": True}
                ],
            },
        ],
    },
    {
        "name": "purge",
        "description": "Moderators only",
        "default_member_permissions": int(Perm.MANAGE_MESSAGES),
    },
]


class Bot:
    """The test acting as the bot: raw HTTP against the emulator."""

    def __init__(self, emu: DiscordEmulator, session: aiohttp.ClientSession) -> None:
        self.emu = emu
        self.session = session

    async def call(self, method: str, path: str, json: Any = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bot {self.emu.token}"}
        async with self.session.request(
            method, self.emu.api_base + path, json=json, headers=headers
        ) as response:
            body = await response.json() if response.status != 204 else None
            return response.status, body

    async def callback(
        self, it: Any, kind: int, data: dict[str, Any] | None = None, query: str = ""
    ) -> tuple[int, Any]:
        body: dict[str, Any] = {"type": kind}
        if data is not None:
            body["data"] = data
        return await self.call("POST", f"/interactions/{it.id}/{it.token}/callback{query}", body)

    def hook(self, it: Any) -> str:
        return f"/webhooks/{self.emu.application_id}/{it.token}"


@pytest.fixture
async def bot(emulator: DiscordEmulator) -> AsyncIterator[Bot]:
    async with aiohttp.ClientSession() as session:
        raw = Bot(emulator, session)
        status, _ = await raw.call("PUT", f"/applications/{emulator.application_id}/commands", COMMANDS)
        assert status == 200
        yield raw


async def test_one_callback_of_a_valid_type(emulator: DiscordEmulator, bot: Bot) -> None:
    guild = emulator.create_guild()
    alice = emulator.create_member(guild, "alice")
    it = await emulator.slash(emulator.channel(guild), alice, "ttt start", size=3)
    assert it.dispatched_to == 0
    assert (await bot.callback(it, 7, {"content": "no message to update"}))[1]["code"] == 50035
    assert (await bot.callback(it, 8, {"choices": []}))[1]["code"] == 50035
    status, answer = await bot.callback(it, 4, {"content": "hello", "flags": 64}, "?with_response=true")
    assert status == 200
    assert answer["interaction"]["response_message_ephemeral"] is True
    assert answer["resource"]["message"]["content"] == "hello"
    assert await bot.callback(it, 4, {"content": "again"}) == (
        400,
        {"message": "Interaction has already been acknowledged.", "code": 40060},
    )
    assert it.ephemeral and it.refused_callbacks == [(7, 50035), (8, 50035), (4, 40060)]

    status, edited = await bot.call("PATCH", bot.hook(it) + "/messages/@original", {"content": "edited"})
    assert edited["content"] == "edited" and edited["flags"] & 64
    status, followup = await bot.call("POST", bot.hook(it) + "?wait=true", {"content": "more"})
    assert status == 200 and it.followups[0].id == int(followup["id"])
    assert (await bot.call("DELETE", bot.hook(it) + f"/messages/{followup['id']}"))[0] == 204
    assert (await bot.call("GET", bot.hook(it) + f"/messages/{followup['id']}"))[1]["code"] == 10008


async def test_followups_need_an_acknowledged_live_token(emulator: DiscordEmulator, bot: Bot) -> None:
    guild = emulator.create_guild()
    alice = emulator.create_member(guild, "alice")
    channel = emulator.channel(guild)
    it = await emulator.slash(channel, alice, "ttt start")
    assert (await bot.call("POST", bot.hook(it), {"content": "too early"}))[1]["code"] == 10015
    assert (await bot.callback(it, 5))[0] == 204
    assert it.original is not None and it.original.loading
    emulator.expire_interaction(it)
    assert await bot.call("PATCH", bot.hook(it) + "/messages/@original", {"content": "late"}) == (
        404,
        {"message": "Unknown Webhook", "code": 10015},
    )
    other = await emulator.slash(channel, alice, "ttt start")
    emulator.expire_interaction(other)
    assert (await bot.callback(other, 4, {"content": "late"}))[1]["code"] == 10062


async def test_component_update_and_deferred_update(emulator: DiscordEmulator, bot: Bot) -> None:
    guild = emulator.create_guild()
    alice = emulator.create_member(guild, "alice")
    channel = emulator.channel(guild)
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    _, posted = await bot.call(
        "POST",
        f"/channels/{channel.id}/messages",
        {"content": "board", "components": [{"type": 1, "components": [button]}]},
    )
    board = emulator.message(int(posted["id"]))
    first = await emulator.click(board, "go", alice)
    assert first.payload["message"]["id"] == posted["id"] and first.payload["data"]["component_type"] == 2
    assert (await bot.callback(first, 7, {"content": "updated"}))[0] == 204
    assert board.content == "updated" and first.original is board
    second = await emulator.click(board, "go", alice)
    assert (await bot.callback(second, 6))[0] == 204
    await bot.call("PATCH", bot.hook(second) + "/messages/@original", {"content": "after defer"})
    assert (await second.wait_response()).content == "after defer"
    assert [version.content for version in board.history] == ["board", "updated", "after defer"]


async def test_injected_options_are_checked_like_the_discord_client(
    emulator: DiscordEmulator, bot: Bot
) -> None:
    guild = emulator.create_guild()
    alice = emulator.create_member(guild, "alice")
    bob = emulator.create_member(guild, "bob")
    channel = emulator.channel(guild)
    for path, options in (
        ("ttt start", {"size": 6}),
        ("ttt start", {"size": "3"}),
        ("ttt start", {"colour": "red"}),
        ("ttt move", {}),
        ("ttt", {}),
        ("chess start", {}),
    ):
        with pytest.raises(InteractionUsageError):
            await emulator.slash(channel, alice, path, **options)
    outsider = emulator.create_user("outsider")
    with pytest.raises(InteractionUsageError):
        await emulator.slash(channel, outsider, "ttt start")

    it = await emulator.slash(channel, alice, "ttt start", opponent=bob, size=4)
    start = it.data["options"][0]
    assert start == {
        "name": "start",
        "type": 1,
        "options": [
            {"name": "opponent", "type": 6, "value": str(bob.id)},
            {"name": "size", "type": 4, "value": 4},
        ],
    }
    assert it.data["resolved"]["users"][str(bob.id)]["username"] == "bob"
    assert "permissions" in it.data["resolved"]["members"][str(bob.id)]
    assert it.payload["member"]["user"]["id"] == str(alice.id)

    emulator.remove_member(guild, bob)
    left = await emulator.slash(channel, alice, "ttt start", opponent=bob)
    assert str(bob.id) in left.data["resolved"]["users"] and "members" not in left.data["resolved"]
    forged = await emulator.slash(channel, alice, "ttt start", size="x" * 300, force=True)
    assert forged.data["options"][0]["options"] == [{"name": "size", "type": 4, "value": "x" * 300}]
    with pytest.raises(InteractionUsageError, match="cannot be used in DMs with the bot"):
        await emulator.slash(emulator.dm_channel(alice), alice, "ttt start")
    emulator.install_to_user(alice)
    with pytest.raises(InteractionUsageError, match="cannot be used in private channels"):
        await emulator.slash(emulator.create_group_dm(alice, bob.user), alice, "ttt start")
    with pytest.raises(InteractionUsageError):
        await emulator.slash(channel, alice, "purge")
    moderator = emulator.create_member(
        guild, "mod", roles=[emulator.create_role(guild, "m", permissions=Perm.MANAGE_MESSAGES)]
    )
    assert (await emulator.slash(channel, moderator, "purge")).data["name"] == "purge"
    typing = await emulator.autocomplete(channel, alice, "ttt move", focused="cell", cell="b")
    assert typing.type == 4
    assert typing.data["options"][0]["options"] == [
        {"name": "cell", "type": 3, "value": "b", "focused": True}
    ]


async def test_select_menus_and_modals(emulator: DiscordEmulator, bot: Bot) -> None:
    guild = emulator.create_guild()
    alice = emulator.create_member(guild, "alice")
    channel = emulator.channel(guild)
    menu = {"type": 3, "custom_id": "level", "options": [{"label": "Easy", "value": "easy"}]}
    button = {"type": 2, "style": 1, "label": "Rename", "custom_id": "rename"}
    rows = [{"type": 1, "components": [menu]}, {"type": 1, "components": [button]}]
    _, posted = await bot.call(
        "POST", f"/channels/{channel.id}/messages", {"content": "menu", "components": rows}
    )
    message = emulator.message(int(posted["id"]))

    chosen = await emulator.select(message, "level", alice, ["easy"])
    assert chosen.data == {"custom_id": "level", "component_type": 3, "values": ["easy"]}
    assert (await bot.callback(chosen, 6))[0] == 204

    opening = await emulator.click(message, "rename", alice)
    text_input = {"type": 4, "custom_id": "name", "label": "Name", "style": 1}
    modal = {
        "custom_id": "rename-modal",
        "title": "Rename",
        "components": [{"type": 1, "components": [text_input]}],
    }
    assert (await bot.callback(opening, 9, modal))[0] == 204
    assert opening.modal == modal
    submitted = await emulator.submit_modal(opening, {"name": "Board 1"})
    assert submitted.type == 5 and submitted.data["custom_id"] == "rename-modal"
    assert submitted.data["components"][0]["components"][0] == {
        "type": 4,
        "custom_id": "name",
        "value": "Board 1",
    }
    assert (await bot.callback(submitted, 7, {"content": "Board 1"}))[0] == 204
    assert message.content == "Board 1"
