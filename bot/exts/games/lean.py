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


class LeanButton(discord.ui.Item[Any]):
    """A button sent as its payload, written at once from its fields, without the defaults.

    Not a :class:`discord.ui.Button`: a board edit writes up to 28 buttons and every click edits a
    board, and building discord.py's button (and its component) for each cost more than the rest
    of the board. discord.py never dispatches a click on it (it is not dispatchable, so the view
    that holds it is not kept either): the bot's own listener reads the click's custom id
    (:mod:`bot.exts.games.buttons`). The payload is the one discord.py writes for a button of the
    same fields, in the same order, less :data:`DEFAULTS`.
    """

    def __init__(
        self,
        *,
        label: str,
        custom_id: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: discord.PartialEmoji | None = None,
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # discord.py leaves it without type hints
        self.custom_id = custom_id
        payload: dict[str, Any] = {"type": discord.ComponentType.button.value, "style": style.value}
        if disabled:
            payload["disabled"] = True
        if label:
            payload["label"] = label
        payload["custom_id"] = custom_id
        if emoji is not None:
            payload["emoji"] = _emoji(emoji)
        self.payload = payload

    @property
    def type(self) -> discord.ComponentType:
        """A button."""
        return discord.ComponentType.button

    def to_component_dict(self) -> dict[str, Any]:
        """The button's payload."""
        return self.payload


def _emoji(emoji: discord.PartialEmoji) -> dict[str, Any]:
    """An emoji's payload: a Unicode one by its name alone, an application's by its id and name."""
    payload: dict[str, Any] = {"name": emoji.name}
    if emoji.id is not None:
        payload = {"id": emoji.id, **payload}
    if emoji.animated:
        payload["animated"] = True
    return payload


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
