"""discord.py's components without the fields Discord fills in by default, so each board edit is smaller.

discord.py writes every field of a button (``"disabled": false``), of an emoji (``"id": null`` for a
Unicode one), of a container (``"spoiler": false``) and of a separator (``"divider": true,
"spacing": 1``). Discord's API description makes all of them optional and takes the same values
when they are left out; a 5x5 board has up to 28 buttons, so each field left out counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import discord

DEFAULTS: dict[str, Any] = {"disabled": False, "spoiler": False, "divider": True, "spacing": 1}
"""A component's fields whose value here is the one Discord assumes when the field is absent."""


def without_defaults(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` without the fields that say what Discord assumes anyway (a Unicode emoji's null id
    too)."""
    lean = {key: value for key, value in payload.items() if key not in DEFAULTS or DEFAULTS[key] != value}
    if lean.get("accent_color", 0) is None:
        del lean["accent_color"]
    emoji = lean.get("emoji")
    if isinstance(emoji, dict) and emoji.get("id", 0) is None:
        lean["emoji"] = {key: value for key, value in emoji.items() if key != "id"}
    return lean


class LeanButton(discord.ui.Button[Any]):
    """A button sent without its default fields."""

    def to_component_dict(self) -> Any:
        """The button's payload (see :func:`without_defaults`)."""
        return without_defaults(dict(super().to_component_dict()))


class LeanContainer(discord.ui.Container[Any]):
    """A container sent without its default fields."""

    def to_component_dict(self) -> dict[str, Any]:
        """The container's payload (see :func:`without_defaults`)."""
        return without_defaults(super().to_component_dict())


class LeanSeparator(discord.ui.Separator[Any]):
    """A separator sent without its default fields (a thin line, small spacing)."""

    def to_component_dict(self) -> Any:
        """The separator's payload (see :func:`without_defaults`)."""
        # discord.py leaves this one method without type hints.
        payload = cast("Callable[[], dict[str, Any]]", super().to_component_dict)
        return without_defaults(payload())
