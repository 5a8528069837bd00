"""File uploads: multipart with ``payload_json`` and ``files[n]``, attachments as Discord returns them."""

from __future__ import annotations

import io
import json
from typing import Any

import aiohttp
import discord
from PIL import Image

from discord_emulator import DiscordEmulator


def png(width: int, height: int, colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, format="PNG")
    return out.getvalue()


async def post_files(
    emulator: DiscordEmulator, path: str, payload: dict[str, Any], files: list[tuple[str, bytes]]
) -> tuple[int, Any]:
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for index, (name, data) in enumerate(files):
        form.add_field(f"files[{index}]", data, filename=name, content_type="application/octet-stream")
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            emulator.api_base + path, data=form, headers={"Authorization": f"Bot {emulator.token}"}
        ) as response,
    ):
        return response.status, await response.json()


async def test_a_message_with_files_lists_them_as_attachments(emulator: DiscordEmulator) -> None:
    channel = emulator.channel(emulator.create_guild())
    picture = png(30, 20, (214, 48, 49))
    payload = {
        "content": "two files",
        "attachments": [
            {"id": 0, "filename": "chart.png", "description": "A red square"},
            {"id": 1, "filename": "notes.txt"},
        ],
        "embeds": [{"title": "chart", "image": {"url": "attachment://chart.png"}}],
    }
    status, message = await post_files(
        emulator, f"/channels/{channel.id}/messages", payload, [("upload.png", picture), ("n.txt", b"hi")]
    )
    assert status == 200, message
    chart, notes = message["attachments"]
    assert chart["filename"] == "chart.png" and chart["description"] == "A red square"
    assert (chart["content_type"], chart["size"], chart["width"], chart["height"]) == (
        "image/png",
        len(picture),
        30,
        20,
    )
    assert notes["filename"] == "notes.txt" and "width" not in notes and notes["size"] == 2
    assert int(chart["id"]) > 1 << 22 and chart["id"] != notes["id"]
    assert message["embeds"][0]["image"]["url"] == chart["url"]
    assert emulator.rest.uploads.data(chart) == picture
    async with aiohttp.ClientSession() as session, session.get(chart["url"]) as response:
        assert response.status == 200 and await response.read() == picture
    assert emulator.calls("POST")[-1].files == ["chart.png", "notes.txt"]


async def test_an_edit_keeps_the_attachments_it_lists_and_adds_new_ones(emulator: DiscordEmulator) -> None:
    channel = emulator.channel(emulator.create_guild())
    path = f"/channels/{channel.id}/messages"
    _, first = await post_files(emulator, path, {"content": "a"}, [("a.png", png(4, 4, (0, 0, 0)))])
    kept = first["attachments"][0]
    form = aiohttp.FormData()
    edit = {"attachments": [{"id": kept["id"]}, {"id": 0, "filename": "b.png"}]}
    form.add_field("payload_json", json.dumps(edit), content_type="application/json")
    form.add_field("files[0]", png(8, 8, (9, 9, 9)), filename="b.png")
    async with (
        aiohttp.ClientSession() as session,
        session.patch(
            f"{emulator.api_base}{path}/{first['id']}",
            data=form,
            headers={"Authorization": f"Bot {emulator.token}"},
        ) as response,
    ):
        edited = await response.json()
    assert [a["filename"] for a in edited["attachments"]] == ["a.png", "b.png"]
    assert edited["attachments"][0]["id"] == kept["id"]


async def test_discord_py_sends_a_file_with_alt_text_and_reads_it_back(
    discord_py_on_emulator: DiscordEmulator,
) -> None:
    emulator = discord_py_on_emulator
    channel_model = emulator.channel(emulator.create_guild())
    picture = png(12, 7, (9, 132, 227))
    client = discord.Client(intents=discord.Intents.none())
    await client.login(emulator.token)
    try:
        channel = await client.fetch_channel(channel_model.id)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send(
            "replay", file=discord.File(io.BytesIO(picture), "game.png", description="The game, move by move")
        )
    finally:
        await client.close()
    (attachment,) = sent.attachments
    assert (attachment.filename, attachment.description) == ("game.png", "The game, move by move")
    assert (attachment.width, attachment.height, attachment.content_type) == (12, 7, "image/png")
    assert emulator.rest.uploads.data({"id": attachment.id}) == picture
