"""Discord failing under the bot in the middle of games: 5xx, 429, lost answers, gateway cuts, dead tokens.

Whatever Discord does, the move the user made is stored once, and the board message shows the
stored game once Discord answers again: through the click's own answer, or else the channel
API, retried by the deadline sweeper until Discord takes it.
"""

from __future__ import annotations

import pytest

from discord_emulator import DiscordEmulator, Message
from discord_emulator.process import BotProcess
from tests.support.store import read_store
from tests.support.tables import Table, answer, board, busy_engine, cells, game_of

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
CHANNEL_EDIT = "/channels/{channel_id}/messages/{message_id}"
WEBHOOK_EDIT = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
GUARD = 20.0


@pytest.fixture(scope="module")
def bot_settings() -> dict[str, str]:
    """A hint on a hard 5x5 position holds the engine 3 s: a bot reply asked for meanwhile is slow."""
    return {"SWEEP_INTERVAL_SECONDS": "1", "ENGINE_BUDGET_MS": "3000"}


async def human_game(emu: DiscordEmulator) -> tuple[Table, Message]:
    """A fresh channel where alice (X) and bob (O) have started a 3x3 game."""
    table = Table.create(emu, "alice", "bob")
    message = await answer(await table.slash("alice", "ttt start", opponent=table["bob"]))
    await answer(await table.click(message, message.button(label="Accept").custom_id or "", "bob"))
    return table, message


async def stored_board(bot: BotProcess, message: Message) -> str:
    game_id = game_of(message)
    assert game_id is not None
    return (await read_store(bot.env["DATABASE_URL"])).games[game_id].board


async def test_a_5xx_then_a_429_on_the_answer_are_retried_and_the_move_counts_once(
    emu: DiscordEmulator, bot: BotProcess
) -> None:
    table, message = await human_game(emu)
    failed = emu.fail_next("POST", CALLBACK, status=500)
    it = await table.click(message, cells(message)[4].custom_id or "", "alice")
    await answer(it)
    assert failed.hits and it.callback is not None and it.callback.type in (6, 7)
    limited = emu.rate_limit_next("POST", CALLBACK, retry_after=0.3)
    it = await table.click(message, cells(message)[0].custom_id or "", "bob")
    await answer(it)
    assert limited.hits and it.callback is not None and it.callback.type in (6, 7)
    assert board(message) == "O...X...." == await stored_board(bot, message)


async def test_an_answer_discord_refuses_or_loses_is_shown_through_the_channel_api(
    emu: DiscordEmulator, bot: BotProcess
) -> None:
    table, message = await human_game(emu)
    for player, cell, kind in (("alice", 4, "refused"), ("bob", 0, "lost")):
        if kind == "refused":  # retried after 1 s and 3 s: past Discord's 3 s, so the token is dead
            fault = emu.fail_next("POST", CALLBACK, status=500, times=2)
        else:  # the connection is cut: no answer at all
            fault = emu.drop_next("POST", CALLBACK)
        version = message.version
        await table.click(message, cells(message)[cell].custom_id or "", player)
        await emu.wait_for_edit(message, since=version, timeout=GUARD)
        assert fault.hits
    assert board(message) == "O...X...." == await stored_board(bot, message)


async def test_a_board_discord_keeps_refusing_is_brought_up_to_date_when_it_answers_again(
    emu: DiscordEmulator, bot: BotProcess
) -> None:
    table, message = await human_game(emu)
    answer_fault = emu.drop_next("POST", CALLBACK)
    edit_fault = emu.fail_next("PATCH", CHANNEL_EDIT, status=503, times=2)  # 503: not retried by discord.py
    await table.click(message, cells(message)[4].custom_id or "", "alice")
    await emu.wait_for(lambda: board(message) == "....X....", GUARD, "the board repaired by the sweeper")
    assert answer_fault.hits and edit_fault.used_up
    assert await stored_board(bot, message) == "....X...."
    again = await table.click(message, cells(message)[0].custom_id or "", "bob")
    await answer(again)
    assert board(message) == "O...X...."


async def test_the_gateway_reconnecting_or_dropping_mid_game_loses_no_click(
    emu: DiscordEmulator, bot: BotProcess
) -> None:
    table, message = await human_game(emu)
    await answer(await table.click(message, cells(message)[4].custom_id or "", "alice"))
    assert await emu.gateway_reconnect() == 1
    it = await table.click(message, cells(message)[0].custom_id or "", "bob")
    await answer(it)
    assert emu.gateway_drop() == 1
    it = await table.click(message, cells(message)[8].custom_id or "", "alice")
    await answer(it)
    assert it.callback is not None and it.callback.type in (6, 7)
    assert board(message) == "O...X...X" == await stored_board(bot, message)
    assert any(session.resumes for session in emu.sessions)


async def test_a_dead_token_at_the_edit_of_a_slow_reply_goes_through_the_channel_api(
    emu: DiscordEmulator, bot: BotProcess
) -> None:
    table = Table.create(emu, "alice")
    message = await answer(await table.slash("alice", "ttt start", size=5))
    await busy_engine(emu)
    it = await table.click(message, cells(message)[12].custom_id or "", "alice")
    callback = await it.wait_callback(timeout=GUARD)
    assert callback.type == 6, "the 5x5 reply waits for a busy engine, past a second: the click is deferred"
    emu.expire_interaction(it)
    await emu.wait_for(lambda: board(message).count("O") == 1, GUARD, "the bot's reply on the board")
    assert board(message)[12] == "X" and board(message) == await stored_board(bot, message)
    refused = [c for c in emu.calls("PATCH", WEBHOOK_EDIT) if c.params.get("webhook_token") == it.token]
    assert all(call.status == 404 for call in refused)
    assert emu.calls("PATCH", CHANNEL_EDIT)


async def test_a_lost_refusal_is_a_warning_and_the_next_click_works(
    emu: DiscordEmulator, bot: BotProcess
) -> None:
    """A refusal whose answer Discord drops is logged as Discord's failure, not a bug (see teardown)."""
    table, message = await human_game(emu)
    shown, outdated = message.version, cells(message)[0].custom_id or ""
    await answer(await table.click(message, cells(message)[4].custom_id or "", "alice"))
    lost = emu.drop_next("POST", CALLBACK)
    stale = await emu.click(message, outdated, table["alice"], version=shown)
    await stale.wait_for(lambda it: lost.hits and it.callback is not None, GUARD)
    assert stale.ephemeral, "after the lost answer the bot's apology still reaches the user"
    await answer(await table.click(message, cells(message)[0].custom_id or "", "bob"))
    assert board(message) == "O...X...." == await stored_board(bot, message)


async def test_a_timeout_after_every_token_expired_edits_the_board_through_the_channel_api(
    emu: DiscordEmulator, bot: BotProcess
) -> None:
    """Last in this module: it restarts the bot with a short turn clock."""
    await bot.restart(TURN_TIMEOUT_SECONDS="2", SYNC_COMMANDS="false")
    table, message = await human_game(emu)
    await answer(await table.click(message, cells(message)[4].custom_id or "", "alice"))
    emu.expire_all_interactions()
    before = len(emu.calls("PATCH", CHANNEL_EDIT))
    await emu.wait_for(lambda: "ran out of time" in message.text, GUARD, "bob's clock to run out")
    assert all(button.disabled for button in cells(message))
    assert len(emu.calls("PATCH", CHANNEL_EDIT)) > before
