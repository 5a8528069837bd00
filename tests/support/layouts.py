"""What a Components V2 view shows, read from its payload as Discord would get it: its text displays,
its buttons (in containers too) and its container's accent colour."""

from __future__ import annotations

from typing import Any

import discord

from discord_emulator.models import action_rows, text_displays

COMPONENTS_V2 = 1 << 15


def payload(view: discord.ui.LayoutView | discord.ui.View | None) -> list[dict[str, Any]]:
    return [] if view is None else list(view.to_components())


def shown_text(view: discord.ui.LayoutView | discord.ui.View | None) -> str:
    """Every text display, one per line."""
    return "\n".join(text_displays(payload(view)))


def buttons(view: discord.ui.LayoutView | discord.ui.View | None) -> list[dict[str, Any]]:
    """Every button in order, top-level or nested."""
    return [
        item for row in action_rows(payload(view)) for item in row.get("components", []) if item["type"] == 2
    ]


def rows(view: discord.ui.LayoutView | discord.ui.View | None) -> list[list[dict[str, Any]]]:
    """The buttons of each action row, in order."""
    return [
        [item for item in row.get("components", []) if item["type"] == 2]
        for row in action_rows(payload(view))
    ]


def accent(view: discord.ui.LayoutView) -> int | None:
    """The accent colour of the view's container."""
    container = next(item for item in payload(view) if item["type"] == 17)
    colour = container.get("accent_color")
    return None if colour is None else int(colour)


def body(view: discord.ui.LayoutView | discord.ui.View | None, **extra: Any) -> dict[str, Any]:
    """The message body that sends ``view``: flagged Components V2 when it is a layout."""
    result: dict[str, Any] = dict(extra)
    if view is not None:
        result["components"] = payload(view)
        if isinstance(view, discord.ui.LayoutView):
            result["flags"] = COMPONENTS_V2
    return result
