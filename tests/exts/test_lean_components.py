"""The lean components send what discord.py sends, less the fields Discord assumes when left out."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from bot.exts.games.lean import LeanButton, without_defaults


def discord_py_payload(button: LeanButton) -> Any:
    return without_defaults(dict(discord.ui.Button.to_component_dict(button)))


@pytest.mark.parametrize(
    "fields",
    [
        {"label": "a1", "custom_id": "ttt:1:0:0"},
        {"label": "b2 •", "custom_id": "ttt:1:2:4", "disabled": True, "emoji": "❌"},
        {"label": "c3 ★", "custom_id": "ttt:1:5:8", "style": discord.ButtonStyle.success, "disabled": True},
        {"label": "a1", "custom_id": "ttt:1:1:0", "emoji": discord.PartialEmoji(name="neon_x", id=123)},
        {"custom_id": "ttt:1:1:0", "emoji": discord.PartialEmoji(name="spin_o", id=456, animated=True)},
        {"label": "Resign", "custom_id": "ttt:resign:1", "style": discord.ButtonStyle.danger, "id": 7},
        {"label": "Docs", "url": "https://example.com/ttt"},
        {"style": discord.ButtonStyle.premium, "sku_id": 99},
    ],
)
def test_a_lean_button_sends_discord_pys_fields_less_the_defaults(fields: dict[str, Any]) -> None:
    button = LeanButton(**fields)
    sent = button.to_component_dict()
    assert json.dumps(sent) == json.dumps(discord_py_payload(button))
    assert "disabled" not in sent or sent["disabled"] is True
    assert "id" not in sent.get("emoji", {}) or sent["emoji"]["id"] is not None
