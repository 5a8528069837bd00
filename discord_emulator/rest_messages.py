"""REST routes for channel messages: list, fetch, send, edit and delete, with Discord's permission checks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import INVALID_FORM_BODY, MISSING_PERMISSIONS, DiscordHTTPError, FormErrors
from .models import Message
from .payloads import channel_payload, message_payload
from .permissions import Perm
from .rest import ApiRequest, ApiResponse, Route, no_content, ok

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

REPLY = 19
THREAD_NAME_MAX = 100
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


def routes(emu: DiscordEmulator) -> list[Route]:
    world = emu.world

    async def list_messages(req: ApiRequest) -> ApiResponse:
        channel = world.get_visible_channel(req.param("channel_id"))
        world.require_bot_permissions(channel, Perm.READ_MESSAGE_HISTORY)
        limit = max(1, min(100, int(req.query.get("limit", "50"))))
        newest_first = sorted(world.messages_in(channel), key=lambda message: message.id, reverse=True)
        if "before" in req.query:
            newest_first = [m for m in newest_first if m.id < int(req.query["before"])]
        if "after" in req.query:
            newest_first = [m for m in newest_first if m.id > int(req.query["after"])][-limit:]
        if "around" in req.query:
            around = int(req.query["around"])
            older = [m for m in newest_first if m.id <= around][: (limit + 1) // 2]
            newer = [m for m in newest_first if m.id > around][-(limit // 2) :] if limit > 1 else []
            newest_first = newer + older
        return ok([message_payload(message) for message in newest_first[:limit]])

    async def get_message(req: ApiRequest) -> ApiResponse:
        channel = world.get_visible_channel(req.param("channel_id"))
        world.require_bot_permissions(channel, Perm.READ_MESSAGE_HISTORY)
        return ok(message_payload(world.get_channel_message(channel, req.param("message_id"))))

    async def send(req: ApiRequest) -> ApiResponse:
        channel = world.get_visible_channel(req.param("channel_id"))
        needed = Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
        world.require_bot_permissions(channel, needed)
        body: dict[str, Any] = dict(req.body or {})
        body["flags"] = int(body.get("flags") or 0)
        message_type = 0
        reference = body.get("message_reference")
        if reference:
            target_id = int(reference.get("message_id", 0))
            target = world.messages.get(target_id)
            if target is None or target.deleted or target.channel is not channel:
                errors = {
                    "message_reference": {
                        "_errors": [
                            {"code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "message": "Unknown message"}
                        ]
                    }
                }
                raise DiscordHTTPError(400, INVALID_FORM_BODY, "Invalid Form Body", errors)
            message_type = REPLY
        message = world.post_message(channel, body, attachments=req.attachments, message_type=message_type)
        return ok(message_payload(message))

    async def edit(req: ApiRequest) -> ApiResponse:
        channel = world.get_visible_channel(req.param("channel_id"))
        message = world.get_channel_message(channel, req.param("message_id"))
        return ok(message_payload(world.edit_message(message, req.body or {}, attachments=req.attachments)))

    async def delete(req: ApiRequest) -> ApiResponse:
        channel = world.get_visible_channel(req.param("channel_id"))
        message: Message = world.get_channel_message(channel, req.param("message_id"))
        if message.author is not world.bot and not world.bot_permissions(channel) & Perm.MANAGE_MESSAGES:
            raise DiscordHTTPError(403, MISSING_PERMISSIONS, "Missing Permissions")
        world.delete_message(message)
        return no_content()

    async def start_thread(req: ApiRequest) -> ApiResponse:
        channel = world.get_visible_channel(req.param("channel_id"))
        message = world.get_channel_message(channel, req.param("message_id"))
        body = req.body or {}
        errors = FormErrors()
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= THREAD_NAME_MAX:
            errors.add(
                ("name",), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {THREAD_NAME_MAX} in length."
            )
        archive = body.get("auto_archive_duration") or 1440
        if archive not in ARCHIVE_DURATIONS:
            errors.add(
                ("auto_archive_duration",),
                "BASE_TYPE_CHOICES",
                "Value must be one of {60, 1440, 4320, 10080}.",
            )
        errors.raise_if_any()
        thread = world.start_thread(message, str(name).strip(), auto_archive_duration=int(archive))
        return ok(channel_payload(thread, with_guild_id=True), status=201)

    base = "/channels/{channel_id}/messages"
    return [
        Route("GET", base, list_messages),
        Route("POST", base, send),
        Route("GET", base + "/{message_id}", get_message),
        Route("PATCH", base + "/{message_id}", edit),
        Route("DELETE", base + "/{message_id}", delete),
        Route("POST", base + "/{message_id}/threads", start_thread),
    ]
