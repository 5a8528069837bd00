"""Answering in time and showing errors, with a stand-in for discord.py's interaction (no Discord)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from bot.exts.games import respond
from bot.exts.games.messages import EditOrder
from bot.notice import Notice
from bot.services import refusals
from tests.support.layouts import accent, shown_text


@dataclass
class FakeResponse:
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    type: discord.InteractionResponseType | None = None
    deferred: asyncio.Event = field(default_factory=asyncio.Event)

    def is_done(self) -> bool:
        return self.type is not None

    async def defer(self, *, thinking: bool = False, ephemeral: bool = False) -> None:
        self.calls.append(("defer", {"thinking": thinking, "ephemeral": ephemeral}))
        self.deferred.set()
        self.type = (
            discord.InteractionResponseType.deferred_channel_message
            if thinking
            else discord.InteractionResponseType.deferred_message_update
        )

    async def send_message(self, *, view: discord.ui.LayoutView, ephemeral: bool = False) -> None:
        self.calls.append(("send_message", {**card(view), "ephemeral": ephemeral}))
        self.type = discord.InteractionResponseType.channel_message


def card(view: discord.ui.LayoutView) -> dict[str, Any]:
    """What a private answer shows: its text and the accent colour that says its kind."""
    return {"text": shown_text(view), "kind": Notice(accent(view))}


@dataclass
class FakeFollowup:
    sent: list[tuple[dict[str, Any], bool]] = field(default_factory=list)

    async def send(self, *, view: discord.ui.LayoutView, ephemeral: bool = False) -> None:
        self.sent.append((card(view), ephemeral))


@dataclass
class FakeUser:
    id: int = 5


@dataclass
class FakeInteraction:
    response: FakeResponse = field(default_factory=FakeResponse)
    followup: FakeFollowup = field(default_factory=FakeFollowup)
    extras: dict[str, Any] = field(default_factory=dict)
    edits: list[dict[str, Any]] = field(default_factory=list)
    deleted: int = 0
    id: int = 1
    user: FakeUser = field(default_factory=FakeUser)
    guild_id: int = 2
    channel_id: int = 3
    command: Any = None
    data: dict[str, Any] = field(default_factory=lambda: {"custom_id": "ttt:resign:9"})
    type: discord.InteractionType = discord.InteractionType.component
    locale: discord.Locale = discord.Locale.american_english

    async def edit_original_response(self, *, view: discord.ui.LayoutView, **fields: Any) -> None:
        self.edits.append({**fields, **card(view)})

    async def delete_original_response(self) -> None:
        self.deleted += 1


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(respond, "FAST_REPLY_SECONDS", 0.01)


async def test_a_fast_result_is_returned_without_deferring() -> None:
    interaction = FakeInteraction()
    assert await respond.within_deadline(interaction, asyncio.sleep(0, "done"), thinking=True) == "done"
    assert interaction.response.calls == []


async def test_slow_work_is_deferred_once_and_still_returns(quick: None) -> None:
    interaction = FakeInteraction()
    release = asyncio.Event()

    async def slow() -> str:
        await release.wait()
        return "late"

    task = asyncio.ensure_future(respond.within_deadline(interaction, slow(), thinking=False))
    await asyncio.wait_for(interaction.response.deferred.wait(), 10)
    release.set()
    assert await task == "late"
    assert interaction.response.calls == [("defer", {"thinking": False, "ephemeral": False})]


async def test_an_error_after_a_public_thinking_defer_is_shown_privately(quick: None) -> None:
    interaction = FakeInteraction()
    await interaction.response.defer(thinking=True)
    await respond.report(interaction, refusals.CellTaken("b2"))
    assert interaction.deleted == 1
    refused = {"text": "That cell (b2) is already taken.", "kind": Notice.REFUSAL}
    assert interaction.followup.sent == [(refused, True)]


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (discord.Locale.german, r"Du bist nicht dran: \*\*Ålice\*\* \_\_the\_\_ (X) ist am Zug."),
        (
            discord.Locale.japanese,
            "あなたの番ではありません。\\*\\*Ålice\\*\\* \\_\\_the\\_\\_（X）の番です。",
        ),
        (discord.Locale.swedish, r"It is not your turn: \*\*Ålice\*\* \_\_the\_\_ (X) is to move."),
    ],
)
async def test_a_refusal_speaks_the_users_language_and_shows_names_without_their_markdown(
    locale: discord.Locale, expected: str
) -> None:
    interaction = FakeInteraction(locale=locale)
    await respond.report(interaction, refusals.NotYourTurn("**Ålice** __the__", "X"))
    refused = {"text": expected, "kind": Notice.REFUSAL, "ephemeral": True}
    assert interaction.response.calls == [("send_message", refused)]


async def test_a_counted_refusal_takes_the_plural_form_of_the_users_language() -> None:
    for seconds, expected in ((1, "1 Sekunde starten."), (5, "5 Sekunden starten.")):
        interaction = FakeInteraction(locale=discord.Locale.german)
        await respond.report(interaction, refusals.Cooldown(seconds - 0.5))
        assert interaction.response.calls[0][1]["text"].endswith(expected)


async def test_an_error_after_a_private_defer_edits_the_private_answer() -> None:
    interaction = FakeInteraction()
    await interaction.response.defer(thinking=True, ephemeral=True)
    interaction.extras["ttt_ephemeral_defer"] = True
    await respond.report(interaction, refusals.BotToMove())
    assert interaction.edits == [
        {
            "content": None,
            "embed": None,
            "text": "Wait for my move; it is not your turn yet.",
            "kind": Notice.REFUSAL,
        }
    ]


async def test_a_game_error_is_one_private_sentence_and_logs_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    interaction = FakeInteraction()
    with caplog.at_level(logging.DEBUG, logger="bot.exts.games.respond"):
        await respond.report(interaction, refusals.GameOver())
    refused = {"text": "This game is over.", "kind": Notice.REFUSAL, "ephemeral": True}
    assert interaction.response.calls == [("send_message", refused)]
    assert caplog.records == []


async def test_an_unexpected_error_is_logged_with_context_and_the_user_gets_an_apology(
    caplog: pytest.LogCaptureFixture,
) -> None:
    interaction = FakeInteraction()
    with caplog.at_level(logging.ERROR, logger="bot.exts.games.respond"):
        await respond.report(interaction, KeyError("boom"), game_id=9)
    (record,) = caplog.records
    message = record.getMessage()
    assert "button 'ttt:resign:9'" in message and "user 5" in message and "game 9" in message
    assert record.exc_info is not None
    (call,) = interaction.response.calls
    assert call[1] == {"text": respond.APOLOGY, "kind": Notice.OUTAGE, "ephemeral": True}
    assert "boom" not in respond.APOLOGY and "Traceback" not in respond.APOLOGY


async def test_edits_of_one_message_never_go_back_to_an_older_game_version() -> None:
    order = EditOrder(capacity=2)
    sent: list[tuple[int, int]] = []
    for message_id, version in ((1, 3), (1, 2), (1, 3), (1, 5), (2, 1), (1, 4)):
        async with order.edit(message_id, version) as newest:
            if newest:
                sent.append((message_id, version))
    assert sent == [(1, 3), (1, 3), (1, 5), (2, 1)]


async def test_a_failed_edit_does_not_count_as_shown() -> None:
    order = EditOrder()
    with pytest.raises(RuntimeError):
        async with order.edit(1, 7) as newest:
            assert newest
            raise RuntimeError("Discord is down")
    async with order.edit(1, 6) as newest:
        assert newest, "version 7 never reached Discord, so 6 may still be shown"


async def test_a_redraw_is_skipped_when_the_message_already_shows_that_version() -> None:
    order = EditOrder()
    async with order.edit(1, 4) as newest:
        assert newest
    async with order.edit(1, 4, newer_only=True) as newest:
        assert not newest
    async with order.edit(1, 5, newer_only=True) as newest:
        assert newest


async def test_a_click_done_in_time_is_answered_in_one_go_however_busy_the_bot_is() -> None:
    """No defer: the board edit is the click's only request, even with many clicks waiting on commits."""
    interactions = [FakeInteraction(id=i) for i in range(50)]
    release = asyncio.Event()

    async def held(i: int) -> int:
        await release.wait()
        return i

    tasks = [
        asyncio.ensure_future(respond.within_deadline(interaction, held(i), thinking=False))
        for i, interaction in enumerate(interactions)
    ]
    await asyncio.sleep(0)
    release.set()
    assert await asyncio.gather(*tasks) == list(range(50))
    assert all(interaction.response.calls == [] for interaction in interactions)


async def test_a_private_answer_is_a_card_whose_colour_says_confirmed_refused_or_unavailable() -> None:
    kinds = []
    for tell in (
        respond.tell(confirmed := FakeInteraction(), "You resigned."),
        respond.report(refused := FakeInteraction(), refusals.GameOver()),
        respond.report(unavailable := FakeInteraction(), refusals.Unavailable()),
    ):
        await tell
    for interaction in (confirmed, refused, unavailable):
        (call,) = interaction.response.calls
        kinds.append(call[1]["kind"])
    assert kinds == [Notice.CONFIRMATION, Notice.REFUSAL, Notice.OUTAGE]
