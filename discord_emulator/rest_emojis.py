"""REST routes for the application's own emoji: list, fetch, create, rename and delete."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .emojis import EMOJI_MAX, ApplicationEmoji
from .errors import MISSING_ACCESS, DiscordHTTPError, FormErrors, not_found
from .payloads import user_payload
from .rest import ApiRequest, ApiResponse, Route, no_content, ok

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

UNKNOWN_EMOJI = 10014
MAX_EMOJIS = 30008


def routes(emu: DiscordEmulator) -> list[Route]:
    world = emu.world
    emojis = world.application_emojis

    def payload(emoji: ApplicationEmoji) -> dict[str, Any]:
        return {
            "id": str(emoji.id),
            "name": emoji.name,
            "roles": [],
            "user": user_payload(world.application.owner),
            "require_colons": True,
            "managed": False,
            "animated": emoji.animated,
            "available": True,
        }

    def own_application(req: ApiRequest) -> None:
        if req.param("application_id") != str(world.application.id):
            raise DiscordHTTPError(403, MISSING_ACCESS, "Missing Access")

    def find(req: ApiRequest) -> ApplicationEmoji:
        emoji_id = req.param("emoji_id")
        emoji = emojis.by_id.get(int(emoji_id)) if emoji_id.isdigit() else None
        if emoji is None:
            raise not_found(UNKNOWN_EMOJI, "Emoji")
        return emoji

    async def list_emojis(req: ApiRequest) -> ApiResponse:
        own_application(req)
        return ok({"items": [payload(emoji) for emoji in emojis.by_id.values()]})

    async def get_emoji(req: ApiRequest) -> ApiResponse:
        own_application(req)
        return ok(payload(find(req)))

    async def create(req: ApiRequest) -> ApiResponse:
        own_application(req)
        body = req.body or {}
        errors = FormErrors()
        emojis.check_name(body.get("name"), errors)
        image = emojis.decode_image(body.get("image"), errors)
        errors.raise_if_any()
        assert image is not None
        if len(emojis.by_id) >= EMOJI_MAX:
            raise DiscordHTTPError(400, MAX_EMOJIS, f"Maximum number of emojis reached ({EMOJI_MAX})")
        data, animated = image
        emoji = ApplicationEmoji(world.snowflakes.next(), str(body["name"]), animated, data)
        emojis.by_id[emoji.id] = emoji
        emojis.uploads += 1
        return ok(payload(emoji), status=201)

    async def rename(req: ApiRequest) -> ApiResponse:
        own_application(req)
        emoji = find(req)
        errors = FormErrors()
        name = (req.body or {}).get("name")
        emojis.check_name(name, errors, keeping=emoji.id)
        errors.raise_if_any()
        emoji.name = str(name)
        return ok(payload(emoji))

    async def delete(req: ApiRequest) -> ApiResponse:
        own_application(req)
        del emojis.by_id[find(req).id]
        return no_content()

    base = "/applications/{application_id}/emojis"
    return [
        Route("GET", base, list_emojis),
        Route("POST", base, create),
        Route("GET", base + "/{emoji_id}", get_emoji),
        Route("PATCH", base + "/{emoji_id}", rename),
        Route("DELETE", base + "/{emoji_id}", delete),
    ]
