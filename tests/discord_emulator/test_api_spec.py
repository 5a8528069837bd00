"""Every REST request is checked against Discord's own API description: a request Discord would refuse
is answered 400 (code 50035) and recorded, and a test that leaves such a request unclaimed fails."""

from __future__ import annotations

import discord
import pytest

from discord_emulator import DiscordEmulator
from discord_emulator.openapi import ApiSpec, SpecViolation
from tests.discord_emulator.sample_bot import Arena

pytestmark = pytest.mark.e2e


async def test_a_payload_discord_refuses_fails_the_discord_py_call(api_spec: ApiSpec, arena: Arena) -> None:
    emu = arena.emu
    channel = arena.bot.get_channel(arena.channel.id)
    assert isinstance(channel, discord.TextChannel)
    # discord.py sends any nonce; Discord's description allows at most 25 characters.
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("hello", nonce="n" * 26)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert emu.messages(arena.channel) == []
    (violation,) = emu.take_spec_violations()
    assert violation.operation == "create_message"
    assert [where for where, _, _ in violation.errors] == [("body", "nonce")]

    sent = await channel.send("hello", nonce="n" * 25)
    assert [message.id for message in emu.messages(arena.channel)] == [sent.id]
    assert emu.calls("POST", "/channels/{channel_id}/messages")[-1].checked_as == "create_message"
    assert emu.spec_violations == []


async def test_path_and_query_parameters_are_checked(api_spec: ApiSpec, arena: Arena) -> None:
    channel = arena.bot.get_channel(arena.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as refused:
        await arena.bot.http.logs_from(channel.id, limit=500)
    assert refused.value.code == 50035
    (violation,) = arena.emu.take_spec_violations()
    assert violation.operation == "list_messages"
    assert [where for where, _, _ in violation.errors] == [("query", "limit")]
    assert [message async for message in channel.history(limit=100)] == []
    assert arena.emu.spec_violations == []


def test_the_answer_names_the_refused_field(api_spec: ApiSpec) -> None:
    operation = api_spec.operation("POST", "/channels/{channel_id}/messages")
    assert operation is not None
    too_long = {"type": 2, "style": 1, "label": "x" * 81, "custom_id": "cell"}
    body = {"content": "hi", "components": [{"type": 1, "components": [too_long]}]}
    violation = operation.check("POST", "/channels/not-a-snowflake/messages", {}, body)
    assert isinstance(violation, SpecViolation)
    assert [(where, code) for where, code, _ in violation.errors] == [
        (("path", "channel_id"), "STRING_TYPE_REGEX"),
        (("body", "components", 0, "components", 0, "label"), "BASE_TYPE_MAX_LENGTH"),
    ]
    errors = violation.form_errors().errors
    assert errors["components"]["0"]["components"]["0"]["label"]["_errors"][0]["code"] == (
        "BASE_TYPE_MAX_LENGTH"
    )
    too_long["label"] = "x" * 80
    assert operation.check("POST", "/channels/123/messages", {}, body) is None


def test_an_unclaimed_violation_fails_the_test_that_caused_it(
    api_spec: ApiSpec, pytester: pytest.Pytester
) -> None:
    pytester.makeconftest(
        """
        import pytest
        from discord_emulator.fixtures import no_spec_violations

        @pytest.fixture(autouse=True)
        def guard(no_spec_violations):
            yield
        """
    )
    pytester.makepyfile(
        """
        import aiohttp
        from discord_emulator import DiscordEmulator

        async def post(emu, body):
            async with aiohttp.ClientSession() as session:
                channel = emu.channel(emu.create_guild())
                url = f"{emu.api_base}/channels/{channel.id}/messages"
                headers = {"Authorization": f"Bot {emu.token}"}
                async with session.post(url, json=body, headers=headers) as response:
                    return response.status

        async def test_refused_and_unclaimed():
            async with DiscordEmulator() as emu:
                assert await post(emu, {"content": "hi", "nonce": "n" * 26}) == 400

        async def test_refused_and_claimed():
            async with DiscordEmulator() as emu:
                assert await post(emu, {"content": "hi", "nonce": "n" * 26}) == 400
                assert len(emu.take_spec_violations()) == 1

        async def test_accepted():
            async with DiscordEmulator() as emu:
                assert await post(emu, {"content": "hi"}) == 200
        """
    )
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        "-o",
        "asyncio_mode=auto",
        "-o",
        "asyncio_default_fixture_loop_scope=function",
    )
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(["*ERROR at teardown of test_refused_and_unclaimed*", "*nonce*"])


async def test_without_a_description_nothing_is_checked() -> None:
    async with DiscordEmulator(api_spec=None) as emu:
        assert emu.api_spec is None
        assert emu.rest.spec is None
