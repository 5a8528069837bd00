"""Discord failures the real discord.py client must live through, injected by the emulator."""

from __future__ import annotations

import pytest

from tests.discord_emulator.sample_bot import Arena

pytestmark = pytest.mark.e2e

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
CHANNEL_MESSAGE = "/channels/{channel_id}/messages/{message_id}"


async def test_op7_reconnect_resumes_the_session(arena: Arena) -> None:
    emu = arena.emu
    session = emu.sessions[0]
    assert await emu.gateway_reconnect() == 1
    await emu.wait_for(lambda: session.resumes == 1 and session.live)
    assert len(emu.sessions) == 1 and emu.gateway.identifies == 1
    assert session.connection is not None and session.connection.path == "/gateway-resume"
    it = await emu.slash(arena.channel, arena.alice, "ttt mod")
    assert (await it.wait_response()).content == "manage_messages=False"


async def test_events_sent_while_the_socket_is_down_arrive_after_resume(arena: Arena) -> None:
    emu = arena.emu
    session = emu.sessions[0]
    assert emu.gateway_drop() == 1
    await emu.wait_for(lambda: not session.live)
    it = await emu.slash(arena.channel, arena.alice, "ttt mod")
    await emu.wait_for(lambda: session.resumes == 1)
    assert (await it.wait_response()).content == "manage_messages=False"
    assert emu.gateway.identifies == 1
    resumed = emu.dispatches("RESUMED")[0]
    delivered = next(r for r in emu.dispatches("INTERACTION_CREATE") if r.d["id"] == str(it.id))
    assert delivered.s is not None and resumed.s is not None and delivered.s < resumed.s


async def test_invalid_session_makes_the_client_identify_again(arena: Arena) -> None:
    emu = arena.emu
    await emu.gateway_invalidate(resumable=False)
    await emu.wait_for(lambda: emu.gateway.identifies == 2)
    await emu.wait_until_ready()
    it = await emu.slash(arena.channel, arena.carol, "ttt mod")
    assert (await it.wait_response()).content == "manage_messages=True"


async def test_rate_limited_callback_is_retried_after_retry_after(arena: Arena) -> None:
    emu = arena.emu
    rule = emu.rate_limit_next("POST", CALLBACK, retry_after=0.05)
    it = await emu.slash(arena.channel, arena.alice, "ttt mod")
    await it.wait_response()
    calls = emu.calls("POST", CALLBACK)
    assert [call.status for call in calls] == [429, 200]
    assert calls[0].response["retry_after"] == 0.05
    assert calls[1].received_at - calls[0].responded_at >= 0.05  # type: ignore[operator]
    assert rule.used_up


async def test_a_held_callback_takes_effect_only_when_the_test_releases_it(arena: Arena) -> None:
    emu = arena.emu
    rule = emu.hold_next("POST", CALLBACK)
    it = await emu.slash(arena.channel, arena.alice, "ttt mod")
    await emu.wait_for(lambda: rule.hits)
    (call,) = emu.calls("POST", CALLBACK)
    assert call.status is None and it.callback is None, "held: not answered, no effect yet"
    assert rule.release is not None
    rule.release.set()
    assert (await it.wait_response()).content == "manage_messages=False"
    assert call.status == 200 and rule.used_up


async def test_server_error_on_edit_is_retried(arena: Arena) -> None:
    emu = arena.emu
    emu.fail_next("PATCH", CHANNEL_MESSAGE, status=500)
    await emu.slash(arena.channel, arena.alice, "ttt note")
    posted = await emu.wait_for_message(arena.channel, lambda m: m.content == "final text")
    assert [call.status for call in emu.calls("PATCH", CHANNEL_MESSAGE)] == [500, 200]
    assert posted.version == 1


async def test_expired_token_makes_edits_fail_like_discord(arena: Arena) -> None:
    emu, bot = arena.emu, arena.bot
    it = await emu.slash(arena.channel, arena.alice, "ttt slow")
    assert (await it.wait_callback()).type == 5
    emu.expire_interaction(it)
    bot.release.set()
    await emu.wait_for_message(arena.channel, lambda m: m.content == "the board moved on")
    assert [(error.status, error.code) for error in bot.errors] == [(404, 10015)]
    assert it.original is not None and it.original.loading


async def test_late_callback_is_refused_as_unknown_interaction(arena: Arena) -> None:
    emu = arena.emu
    emu.callback_deadline = 0.0
    it = await emu.slash(arena.channel, arena.alice, "ttt mod")
    await emu.wait_for(lambda: it.refused_callbacks)
    assert it.refused_callbacks == [(4, 10062)]
    assert not it.acknowledged
