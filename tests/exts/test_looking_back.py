"""Looking back, end to end: /ttt review, replay and history, the Review button, the chart in /ttt stats."""

from __future__ import annotations

import io
import re

import aiohttp
import pytest
from PIL import Image, ImageColor

from bot.pictures import REPLAY_COLOURS, SERVER_COLOUR
from bot.pictures.replay import CELL_PX, MARGIN_PX
from discord_emulator import DiscordEmulator, Message
from tests.support.bot import BotUnderTest
from tests.support.tables import Table, answer, click_cell, controls, pictures, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

X_WINS_TOP_ROW = (0, 3, 1, 4, 2)
"""X a1, O a2, X b1, O b2, X c1: O's a2 (move 2) is the mistake; only b2 would have held the draw."""


async def finished_game(table: Table, x: str, o: str) -> tuple[Message, int]:
    """``x`` challenges ``o``, who accepts; X wins on the top row. The board and the game's number."""
    message = await answer(await table.slash(x, "ttt start", opponent=table[o]))
    await answer(await table.click(message, message.button(label="Accept").custom_id or "", o))
    for ply, cell in enumerate(X_WINS_TOP_ROW):
        await click_cell(table, message, cell, (x, o)[ply % 2])
    number = re.search(r"Game (\d+)", message.text)
    assert number is not None, message.text
    return message, int(number.group(1))


def centre(cell: int) -> tuple[int, int]:
    row, column = divmod(cell, 3)
    return MARGIN_PX + column * CELL_PX[3] + CELL_PX[3] // 2, MARGIN_PX + row * CELL_PX[3] + CELL_PX[3] // 2


async def download(url: str) -> bytes:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200
        return await response.read()


async def test_the_review_button_answers_the_clicker_privately(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice", "bob", "carol")
    message, _ = await finished_game(table, "alice", "bob")
    assert controls(message) == ["Rematch", "Review", "Replay"]
    review = await answer(await table.click(message, message.button(label="Review").custom_id or "", "carol"))
    assert review.ephemeral and review.id != message.id
    text = review.text
    bob = table["bob"].user.username
    assert re.search(
        rf"{bob}'s only mistake: move 2 \(a2\) turned a draw into a loss in \d+ moves;"
        r" b2 would have held the draw",
        text,
    )
    assert "made no mistake" in text
    lines = [line for line in text.splitlines() if line.startswith("`")]
    assert len(lines) == 5 and "**mistake**" in lines[1] and "mistake" not in lines[0]
    assert controls(message) == ["Rematch", "Review", "Replay"], "the board is left as it was"


async def test_review_command_defaults_to_the_latest_game_and_refuses_other_servers(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice", "bob")
    _, number = await finished_game(table, "alice", "bob")
    latest = await answer(await table.slash("bob", "ttt review"))
    assert latest.ephemeral and f"Review of game {number}" in latest.text
    elsewhere = Table.create(emu, "dave")
    refused = await private_answer(await elsewhere.slash("dave", "ttt review", game=number))
    assert refused == "That game was played in another server; look at it from there."
    missing = await private_answer(await table.slash("alice", "ttt review", game=number + 10_000))
    assert missing == f"There is no game {number + 10_000}."
    nothing = await private_answer(await elsewhere.slash("dave", "ttt replay"))
    assert nothing == "You have no finished game here yet."


async def test_a_game_with_no_moves_has_nothing_to_review_or_replay_in_the_askers_language(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice")
    message = await answer(await table.slash("alice", "ttt start"))
    await answer(await table.slash("alice", "ttt resign"))
    await emu.wait_for(lambda: "resigned" in message.text, description="the resignation on the board")
    number = re.search(r"Game (\d+)", message.text)
    assert number is not None, message.text
    game = int(number.group(1))
    review = await private_answer(await table.slash("alice", "ttt review", game=game))
    assert review == f"Game {game} has no moves, so there is nothing to review."
    replay = await private_answer(await table.slash("alice", "ttt replay"))
    assert replay == f"Game {game} has no moves, so there is nothing to replay."
    german = await private_answer(await table.slash("alice", "ttt replay", game=game, locale="de"))
    assert german == f"Spiel {game} hat keine Züge, also gibt es nichts nachzuspielen."


async def test_replay_posts_the_gif_with_alt_text(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice", "bob")
    _, number = await finished_game(table, "alice", "bob")
    posted = await answer(await table.slash("bob", "ttt replay", game=number))
    assert not posted.ephemeral and f"Game {number}" in posted.text
    (attachment,) = posted.attachments
    assert attachment["filename"] == "replay.gif" and attachment["content_type"] == "image/gif"
    assert pictures(posted) == [attachment["url"]], "the GIF shown inside the card"
    alt = attachment["description"]
    assert f"game {number}" in alt and "X a1, O a2, X b1, O b2, X c1" in alt and "(X) won" in alt
    gif = emu.rest.uploads.data(attachment)
    assert gif == await download(attachment["url"]) and len(gif) < 100_000
    image = Image.open(io.BytesIO(gif))
    assert image.n_frames == len(X_WINS_TOP_ROW) + 1
    assert (attachment["width"], attachment["height"]) == image.size
    image.seek(image.n_frames - 1)
    last = image.convert("RGB")
    for a, b in ((0, 1), (1, 2)):  # the grid lines between a1-b1 and b1-c1 are crossed by X's line only
        (ax, ay), (bx, by) = centre(a), centre(b)
        assert last.getpixel(((ax + bx) // 2, (ay + by) // 2)) == REPLAY_COLOURS["X"]


async def test_history_lists_the_latest_games_newest_first_with_links(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice", "bob")
    numbers = []
    for _ in range(2):
        message, number = await finished_game(table, "alice", "bob")
        numbers.append((number, message.id))
    listed = await answer(await table.slash("bob", "ttt history", user=table["alice"]))
    assert listed.ephemeral
    lines = [line for line in listed.text.splitlines() if line.startswith("**#")]
    assert [int(re.match(r"\*\*#(\d+)", line).group(1)) for line in lines] == [
        n for n, _ in reversed(numbers)
    ]  # type: ignore[union-attr]
    assert all(f"<@{table['bob'].id}>: won" in line and "<t:" in line for line in lines)
    assert f"/{table.channel.id}/{numbers[-1][1]})" in lines[0]


async def test_stats_show_the_rating_chart_once_there_are_rated_games(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice", "bob")
    before = await answer(await table.slash("alice", "ttt stats"))
    assert before.attachments == [] and not (before.embeds[0].get("image") or {}).get("url")
    await finished_game(table, "alice", "bob")
    after = await answer(await table.slash("alice", "ttt stats"))
    assert before.ephemeral and after.ephemeral
    (chart,) = after.attachments
    assert chart["filename"] == "rating.png" and chart["content_type"] == "image/png"
    assert after.embeds[0]["image"]["url"] == chart["url"], "the chart is the stats embed's image"
    picture = Image.open(io.BytesIO(emu.rest.uploads.data(chart)))
    assert picture.format == "PNG" and picture.size == (chart["width"], chart["height"])
    colours = {colour for _, colour in picture.convert("RGB").getcolors(maxcolors=1 << 16) or []}
    assert ImageColor.getrgb(SERVER_COLOUR) in colours, "the server's line"
    assert "blue in this server, red across all servers" in after.embeds[0]["footer"]["text"]


async def test_a_finished_5x5_board_offers_rematch_review_and_replay(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice")
    message = await answer(await table.slash("alice", "ttt start", size=5))
    since = message.version
    await answer(await table.slash("alice", "ttt resign"))
    await emu.wait_for(lambda: message.version > since and "resigned" in message.text)
    assert controls(message) == ["Rematch", "Review", "Replay"]
    button = await private_answer(
        await table.click(message, message.button(label="Review").custom_id or "", "alice")
    )
    assert button.endswith("has no moves, so there is nothing to review.")
    review = await private_answer(await table.slash("alice", "ttt review"))
    assert review.endswith("has no moves, so there is nothing to review.")
