"""The lean components send what discord.py sends, less the fields Discord assumes when left out."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from bot.exts.games.lean import LeanButton, without_defaults


def discord_py_payload(fields: dict[str, Any]) -> Any:
    """What discord.py's own button of these fields sends, less the defaults."""
    return without_defaults(dict(discord.ui.Button[discord.ui.View](**fields).to_component_dict()))


@pytest.mark.parametrize(
    "fields",
    [
        {"label": "a1", "custom_id": "ttt:1:0:0"},
        {
            "label": "b2 •",
            "custom_id": "ttt:1:2:4",
            "disabled": True,
            "emoji": discord.PartialEmoji(name="❌"),
        },
        {"label": "c3 ★", "custom_id": "ttt:1:5:8", "style": discord.ButtonStyle.success, "disabled": True},
        {"label": "a1", "custom_id": "ttt:1:1:0", "emoji": discord.PartialEmoji(name="neon_x", id=123)},
        {
            "label": "",
            "custom_id": "ttt:1:1:0",
            "emoji": discord.PartialEmoji(name="spin_o", id=456, animated=True),
        },
        {"label": "Resign", "custom_id": "ttt:resign:1", "style": discord.ButtonStyle.danger},
    ],
)
def test_a_lean_button_sends_discord_pys_fields_less_the_defaults(fields: dict[str, Any]) -> None:
    button = LeanButton(**fields)
    sent = button.to_component_dict()
    assert json.dumps(sent) == json.dumps(discord_py_payload(fields))
    assert "disabled" not in sent or sent["disabled"] is True
    assert "id" not in sent.get("emoji", {}) or sent["emoji"]["id"] is not None


def test_discord_py_does_not_dispatch_a_lean_button_nor_keep_its_view() -> None:
    view = discord.ui.LayoutView(timeout=None)
    row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
    row.add_item(LeanButton(label="a1", custom_id="ttt:1:0:0"))
    view.add_item(row)
    assert not view.is_dispatchable(), "its clicks are the bot's listener's (bot.exts.games.buttons)"
    assert view.to_components() == [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "a1", "custom_id": "ttt:1:0:0"}]}
    ]
