"""Log lines: ``LOG_FORMAT=json`` gives one JSON object per line with the ids of what was handled, and
the token is blanked out of every line in either format, whatever logged it."""

from __future__ import annotations

import io
import json
import logging

import pytest

from bot.cli.logs import TOKEN_SHOWN, log_handler
from bot.config import Settings
from bot.log_context import log_context
from discord_emulator import DiscordEmulator
from tests.support.bot import BotUnderTest
from tests.support.tables import Table, answer, click_cell, free_cells, game_of


@pytest.fixture(scope="module")
def bot_settings() -> dict[str, str]:
    return {"LOG_FORMAT": "json", "LOG_LEVEL": "DEBUG"}


def logged(settings: Settings, message: str, *args: object) -> str:
    stream = io.StringIO()
    logger = logging.Logger("test")
    logger.addHandler(log_handler(settings, stream))
    logger.warning(message, *args)
    return stream.getvalue()


@pytest.mark.parametrize("form", ["text", "json"])
def test_the_token_is_blanked_out_whatever_logs_it(form: str) -> None:
    settings = Settings(_env_file=None, discord_token="MTAx.secret.token", log_format=form)
    line = logged(settings, "connecting with %s", "MTAx.secret.token")
    assert "MTAx.secret.token" not in line and TOKEN_SHOWN in line


def test_json_lines_carry_the_ids_of_what_is_handled() -> None:
    settings = Settings(_env_file=None, log_format="json")
    with log_context(guild_id=1, channel_id=2, interaction_id=3, game_id=None):
        with log_context(game_id=4):
            inside = json.loads(logged(settings, "a %s", "move"))
        outside = json.loads(logged(settings, "later"))
    assert inside["message"] == "a move" and inside["level"] == "WARNING" and inside["logger"] == "test"
    assert (inside["guild_id"], inside["channel_id"], inside["interaction_id"], inside["game_id"]) == (
        1,
        2,
        3,
        4,
    )
    assert "game_id" not in outside and outside["interaction_id"] == 3
    assert inside["time"].endswith("+00:00")


@pytest.mark.e2e
@pytest.mark.asyncio(loop_scope="module")
async def test_the_bot_logs_json_lines_with_ids_and_never_the_token(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table = Table.create(emu, "alice")
    start = await table.slash("alice", "ttt start")
    message = await answer(start)
    click = await click_cell(table, message, free_cells(message)[0], "alice")
    await answer(await table.slash("alice", "ttt board"))  # answered after the click's records

    records = [json.loads(line) for line in bot.process.output if line.strip()]
    assert all({"time", "level", "logger", "message"} <= set(record) for record in records)
    about_start = [record for record in records if record.get("interaction_id") == start.id]
    assert about_start and all(
        (record["guild_id"], record["channel_id"]) == (table.guild.id, table.channel.id)
        for record in about_start
    )
    about_click = [record for record in records if record.get("interaction_id") == click.id]
    assert about_click and all(record["game_id"] == game_of(message) for record in about_click)
    assert emu.token not in bot.log_text()
