"""Components V2 messages and application emoji, as a raw HTTP client sees them."""

from __future__ import annotations

import base64
from typing import Any

import discord

from discord_emulator import DiscordEmulator
from tests.discord_emulator.sample_bot import Arena
from tests.discord_emulator.test_rest_api import Call, api, board_rows

__all__ = ["api"]

V2 = 1 << 15
PNG = base64.b64encode(bytes.fromhex("89504e470d0a1a0a") + b"\0" * 64).decode()


def board_container(size: int, *, controls: int = 3, text: str = "Tic-tac-toe") -> dict[str, Any]:
    """A board as one container: a heading, the grid's rows, a separator and a controls row."""
    controls_row = {
        "type": 1,
        "components": [
            {"type": 2, "style": 4, "label": f"control {n}", "custom_id": f"k{n}"} for n in range(controls)
        ],
    }
    return {
        "type": 17,
        "accent_color": 0x5865F2,
        "components": [
            {"type": 10, "content": text},
            *board_rows(size),
            {"type": 14, "divider": True, "spacing": 1},
            controls_row,
        ],
    }


def error_codes(error: dict[str, Any]) -> set[str]:
    """Every ``_errors`` code anywhere in a 50035 answer."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "_errors":
                    found.update(item["code"] for item in value)
                else:
                    walk(value)

    walk(error.get("errors", {}))
    return found


async def test_a_5x5_board_with_its_controls_fits_in_one_components_v2_message(
    emulator: DiscordEmulator, api: Call
) -> None:
    channel = emulator.channel(emulator.create_guild())
    status, message = await api(
        "POST", f"/channels/{channel.id}/messages", {"flags": V2, "components": [board_container(5)]}
    )
    assert status == 200, message
    assert message["flags"] & V2
    grid = message["components"][0]["components"][1:6]
    assert [len(row["components"]) for row in grid] == [5] * 5
    [stored] = emulator.messages(channel)
    assert [len(row) for row in stored.rows] == [5, 5, 5, 5, 5, 3]
    assert stored.button("k0").row == 5 and stored.text == "Tic-tac-toe"


async def test_components_v2_limits_are_enforced(emulator: DiscordEmulator, api: Call) -> None:
    channel = emulator.channel(emulator.create_guild())
    path = f"/channels/{channel.id}/messages"

    async def refused(body: dict[str, Any]) -> set[str]:
        status, error = await api("POST", path, body)
        assert (status, error["code"]) == (400, 50035), error
        return error_codes(error)

    forty = [board_container(5, controls=5), {"type": 10, "content": "x"}]
    assert (await api("POST", path, {"flags": V2, "components": forty}))[0] == 200
    too_many = {"flags": V2, "components": [*forty, {"type": 14}]}
    assert await refused(too_many) == {"COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED"}
    with_content = {"flags": V2, "content": "hello", "components": [board_container(3)]}
    assert await refused(with_content) == {"MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"}
    long_text = [{"type": 10, "content": "x" * 2500}, {"type": 10, "content": "y" * 2500}]
    assert await refused({"flags": V2, "components": long_text}) == {"COMPONENT_MAX_TEXT_LENGTH_EXCEEDED"}
    duplicated = board_container(3)
    duplicated["components"][3]["components"][0]["custom_id"] = "c0"
    assert await refused({"flags": V2, "components": [duplicated]}) == {"COMPONENT_CUSTOM_ID_DUPLICATED"}
    nested = {"type": 17, "components": [board_container(3)]}
    assert await refused({"flags": V2, "components": [nested]}) & {"UNION_TYPE_CHOICES", "BASE_TYPE_CHOICES"}
    wide = board_container(3)
    wide["components"][1]["components"].extend(
        {"type": 2, "style": 2, "label": "x", "custom_id": f"w{n}"} for n in range(3)
    )
    assert "BASE_TYPE_MAX_LENGTH" in await refused({"flags": V2, "components": [wide]})
    assert len(emulator.messages(channel)) == 1
    emulator.take_spec_violations()


async def test_the_components_v2_flag_stays_on_an_edited_message(
    emulator: DiscordEmulator, api: Call
) -> None:
    channel = emulator.channel(emulator.create_guild())
    _, message = await api(
        "POST", f"/channels/{channel.id}/messages", {"flags": V2, "components": [board_container(3)]}
    )
    path = f"/channels/{channel.id}/messages/{message['id']}"
    status, edited = await api("PATCH", path, {"components": [board_container(3, text="Game over")]})
    assert status == 200 and edited["flags"] & V2
    assert edited["components"][0]["components"][0]["content"] == "Game over"
    status, error = await api("PATCH", path, {"flags": 0, "components": board_rows(3)})
    assert status == 400 and error_codes(error) == {"MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"}
    status, error = await api("PATCH", path, {"content": "plain text"})
    assert status == 400 and error_codes(error) == {"MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"}
    [stored] = emulator.messages(channel)
    assert stored.content == "" and stored.flags & V2


async def test_application_emoji_are_created_once_by_name_and_usable_in_buttons(
    emulator: DiscordEmulator, api: Call
) -> None:
    channel = emulator.channel(emulator.create_guild())
    base = f"/applications/{emulator.world.application.id}/emojis"
    status, created = await api("POST", base, {"name": "neon_x", "image": f"data:image/png;base64,{PNG}"})
    assert status == 201 and created["name"] == "neon_x" and not created["animated"]
    status, error = await api("POST", base, {"name": "neon_x", "image": f"data:image/png;base64,{PNG}"})
    assert status == 400 and error_codes(error) == {"APPLICATION_EMOJI_NAME_ALREADY_TAKEN"}
    status, error = await api("POST", base, {"name": "neon o", "image": "not an image"})
    assert status == 400 and error_codes(error) == {"BASE_TYPE_BAD_LENGTH", "IMAGE_INVALID"}
    assert await api("GET", base) == (200, {"items": [created]})
    assert emulator.world.application_emojis.uploads == 1

    def board_with(emoji_id: str) -> dict[str, Any]:
        rows = board_rows(3)
        cell = rows[0]["components"][0]
        cell.update(emoji={"id": emoji_id, "name": "neon_x"}, disabled=True)
        del cell["label"]
        return {"components": rows}

    path = f"/channels/{channel.id}/messages"
    assert (await api("POST", path, board_with(created["id"])))[0] == 200
    assert await api("DELETE", f"{base}/{created['id']}") == (204, None)
    status, error = await api("POST", path, board_with(created["id"]))
    assert status == 400 and error_codes(error) == {"COMPONENT_INVALID_EMOJI"}
    assert (await api("GET", f"{base}/{created['id']}"))[0] == 404
    emulator.take_spec_violations()


async def test_discord_py_uploads_an_application_emoji_and_sends_a_layout_view_with_it(arena: Arena) -> None:
    bot = arena.bot
    png = base64.b64decode(PNG)
    emoji = await bot.create_application_emoji(name="classic_x", image=png)
    assert [found.name for found in await bot.fetch_application_emojis()] == ["classic_x"]
    cell = discord.ui.Button[discord.ui.LayoutView](emoji=emoji, custom_id="a1", disabled=True)
    view = discord.ui.LayoutView()
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay("Tic-tac-toe (3x3)"),
            discord.ui.ActionRow(cell),
            discord.ui.Separator(),
            accent_colour=discord.Colour.blurple(),
        )
    )
    channel = bot.get_channel(arena.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send(view=view)
    [stored] = arena.emu.messages(arena.channel)
    assert stored.id == sent.id and stored.flags & V2 and stored.content == ""
    [container] = stored.components
    assert container["type"] == 17 and container["accent_color"] == discord.Colour.blurple().value
    assert int(container["components"][1]["components"][0]["emoji"]["id"]) == emoji.id
