"""Application-owned emoji: uploaded by the app itself, usable in every server, DM and group DM.

Discord's rules kept here: a name of 2-32 letters, digits or underscores, unique within the
application; an image given as a data URI (PNG, JPEG, GIF or WebP) of at most 256 KiB; at most
2,000 emoji per application. A message component may name a custom emoji by ``id`` only when
that emoji exists (here: one of the application's); otherwise the message is refused.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Any

from .errors import FormErrors

NAME = re.compile(r"^\w{2,32}$", re.ASCII)
IMAGE_MAX = 256 * 1024
EMOJI_MAX = 2000
_DATA_URI = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,(.*)$", re.DOTALL)


@dataclass
class ApplicationEmoji:
    id: int
    name: str
    animated: bool
    image: bytes


class ApplicationEmojis:
    """The application's emoji, by id."""

    def __init__(self) -> None:
        self.by_id: dict[int, ApplicationEmoji] = {}
        self.uploads = 0
        """How many emoji were created, so tests can tell an idempotent start-up from a repeated upload."""

    def named(self, name: str) -> ApplicationEmoji | None:
        return next((emoji for emoji in self.by_id.values() if emoji.name == name), None)

    def check_name(self, name: Any, errors: FormErrors, *, keeping: int | None = None) -> None:
        if not isinstance(name, str) or not NAME.match(name):
            errors.add(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.")
            return
        taken = self.named(name)
        if taken is not None and taken.id != keeping:
            errors.add(("name",), "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken.")

    @staticmethod
    def decode_image(image: Any, errors: FormErrors) -> tuple[bytes, bool] | None:
        """The image's bytes and whether it is animated (a GIF), or None with the error added."""
        match = _DATA_URI.match(image) if isinstance(image, str) else None
        if match is None:
            errors.add(("image",), "IMAGE_INVALID", "Invalid image data")
            return None
        try:
            data = base64.b64decode(match.group(2), validate=True)
        except binascii.Error:
            errors.add(("image",), "IMAGE_INVALID", "Invalid image data")
            return None
        if len(data) > IMAGE_MAX:
            errors.add(
                ("image",), "BINARY_TYPE_MAX_SIZE", f"File cannot be larger than {IMAGE_MAX // 1024} kb."
            )
            return None
        return data, match.group(1) == "gif"


def unknown_component_emoji(components: list[dict[str, Any]], known: set[int]) -> list[tuple[str | int, ...]]:
    """Paths of every component emoji that names a custom emoji id not in ``known``."""
    found: list[tuple[str | int, ...]] = []

    def walk(item: Any, path: tuple[str | int, ...]) -> None:
        if not isinstance(item, dict):
            return
        emoji = item.get("emoji")
        if isinstance(emoji, dict) and emoji.get("id") is not None:
            try:
                emoji_id = int(emoji["id"])
            except (TypeError, ValueError):
                emoji_id = -1
            if emoji_id not in known:
                found.append((*path, "emoji", "id"))
        for index, child in enumerate(item.get("components") or []):
            walk(child, (*path, "components", index))
        if "accessory" in item:
            walk(item["accessory"], (*path, "accessory"))

    for index, item in enumerate(components):
        walk(item, ("components", index))
    return found
