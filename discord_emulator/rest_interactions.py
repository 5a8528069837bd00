"""REST routes an interaction's token opens: the initial callback and the webhook follow-ups and edits.

Discord's rules kept here: one callback per interaction, within ``callback_deadline`` (3 s) of its
creation; the token works for ``interaction_token_ttl`` (15 min) and then answers 10062 (callback) or
10015 (webhook); follow-ups need an acknowledged interaction; the first follow-up after a "thinking"
defer fills the deferred message instead of posting a new one. Where only a user install authorised
the interaction (the bot is not in the conversation), follow-ups stop at 5 (400 40094), and in a server
without the bot whose member may not send messages or use external apps, every answer is ephemeral.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from .errors import (
    ALREADY_ACKNOWLEDGED,
    MAX_FOLLOWUP_MESSAGES,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    DiscordHTTPError,
    FormErrors,
    not_found,
)
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    PING,
    PONG,
    UPDATE_MESSAGE,
    USER_INSTALL_FOLLOWUP_LIMIT,
    Callback,
    Interaction,
)
from .models import EPHEMERAL, Message
from .payloads import message_payload
from .rest import ApiRequest, ApiResponse, Route, no_content, ok
from .validation import check_autocomplete_choices

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

CHAT_INPUT_COMMAND_MESSAGE = 20

ALLOWED_CALLBACKS = {
    PING: {PONG},
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE},
}


def wants_ephemeral(it: Interaction, data: dict[str, Any] | None) -> bool:
    """Whether a new answer message is ephemeral: asked for (flag 64), or forced where Discord forbids
    the app a public answer."""
    return bool(int((data or {}).get("flags") or 0) & EPHEMERAL) or not it.public_replies_allowed


def routes(emu: DiscordEmulator) -> list[Route]:
    world = emu.world

    def refuse(it: Interaction, kind: Any, status: int, code: int, message: str) -> DiscordHTTPError:
        it.refused_callbacks.append((int(kind) if isinstance(kind, int) else -1, code))
        emu.notifier.notify()
        return DiscordHTTPError(status, code, message)

    async def callback(req: ApiRequest) -> ApiResponse:
        it = emu.interaction_by_id(req.param("webhook_id"))
        if it is None or it.token != req.param("webhook_token"):
            raise not_found(UNKNOWN_INTERACTION, "interaction")
        body: dict[str, Any] = req.body or {}
        kind: Any = body.get("type")
        data: dict[str, Any] | None = body.get("data")
        now = time.monotonic()
        late = emu.callback_deadline is not None and now - it.created_at > emu.callback_deadline
        if emu.token_expired(it) or (it.callback is None and late):
            raise refuse(it, kind, 404, UNKNOWN_INTERACTION, "Unknown interaction")
        if it.callback is not None:
            raise refuse(it, kind, 400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        if kind not in ALLOWED_CALLBACKS[it.type] or (kind in (6, 7) and it.message is None):
            errors = FormErrors()
            errors.add(("type",), "INTERACTION_RESPONSE_TYPE_INVALID", "Interaction response type is invalid")
            it.refused_callbacks.append((int(kind) if isinstance(kind, int) else -1, 50035))
            errors.raise_if_any()

        resource: dict[str, Any] = {"type": kind}
        message: Message | None = None
        if kind == CHANNEL_MESSAGE:
            ephemeral = wants_ephemeral(it, data)
            message = world.post_message(
                it.channel,
                data or {},
                attachments=req.attachments,
                interaction=it,
                ephemeral_to=it.user if ephemeral else None,
                message_type=CHAT_INPUT_COMMAND_MESSAGE if it.type == APPLICATION_COMMAND else 0,
            )
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            ephemeral = wants_ephemeral(it, data)
            message = world.post_message(
                it.channel,
                {},
                interaction=it,
                ephemeral_to=it.user if ephemeral else None,
                message_type=CHAT_INPUT_COMMAND_MESSAGE if it.type == APPLICATION_COMMAND else 0,
                loading=True,
            )
        elif kind == DEFERRED_UPDATE_MESSAGE:
            message = it.message
            it.original_version_at_callback = 0 if message is None else message.version
        elif kind == UPDATE_MESSAGE:
            assert it.message is not None
            message = world.edit_message(it.message, data or {}, attachments=req.attachments)
        elif kind == AUTOCOMPLETE_RESULT:
            errors = FormErrors()
            check_autocomplete_choices(data or {}, errors)
            errors.raise_if_any()
        elif kind == MODAL:
            errors = FormErrors()
            for key in ("custom_id", "title", "components"):
                if not (data or {}).get(key):
                    errors.add(("data", key), "BASE_TYPE_REQUIRED", "This field is required")
            errors.raise_if_any()

        it.callback = Callback(type=int(kind), data=data, at=now)
        if message is not None:
            it.original = message
            resource["message"] = message_payload(message)
        emu.notifier.notify()
        if not req.flag("with_response"):
            return no_content()
        summary: dict[str, Any] = {"id": str(it.id), "type": it.type}
        if message is not None and kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            summary.update(
                {
                    "response_message_id": str(message.id),
                    "response_message_loading": message.loading,
                    "response_message_ephemeral": message.ephemeral,
                }
            )
        answer: dict[str, Any] = {"interaction": summary}
        if kind not in (DEFERRED_UPDATE_MESSAGE, PONG):
            answer["resource"] = resource
        return ok(answer)

    def webhook_interaction(req: ApiRequest) -> Interaction:
        it = emu.interaction_by_token(req.param("webhook_token"))
        if (
            req.param("webhook_id") != str(world.application.id)
            or it is None
            or emu.token_expired(it)
            or it.callback is None
            or it.callback.type in (PONG, AUTOCOMPLETE_RESULT)
        ):
            raise not_found(UNKNOWN_WEBHOOK, "Webhook")
        return it

    def target(it: Interaction, req: ApiRequest) -> Message:
        message_id = req.params.get("message_id", "@original")
        candidates = [it.original] if message_id == "@original" else [it.original, *it.followups]
        for message in candidates:
            if (
                message is not None
                and not message.deleted
                and (message_id == "@original" or str(message.id) == message_id)
            ):
                return message
        raise not_found(UNKNOWN_MESSAGE, "Message")

    async def follow_up(req: ApiRequest) -> ApiResponse:
        it = webhook_interaction(req)
        body: dict[str, Any] = req.body or {}
        original = it.original
        if original is not None and original.loading and not original.deleted and original.interaction is it:
            message = world.edit_message(original, body, attachments=req.attachments)
        else:
            if it.user_install_only and len(it.followups) >= USER_INSTALL_FOLLOWUP_LIMIT:
                raise DiscordHTTPError(
                    400,
                    MAX_FOLLOWUP_MESSAGES,
                    "This interaction has hit the maximum number of follow up messages",
                )
            ephemeral = wants_ephemeral(it, body)
            message = world.post_message(
                it.channel,
                body,
                attachments=req.attachments,
                interaction=it,
                ephemeral_to=it.user if ephemeral else None,
            )
        it.followups.append(message)
        emu.notifier.notify()
        return ok(message_payload(message)) if req.flag("wait") else no_content()

    async def get_message(req: ApiRequest) -> ApiResponse:
        return ok(message_payload(target(webhook_interaction(req), req)))

    async def edit_message(req: ApiRequest) -> ApiResponse:
        it = webhook_interaction(req)
        message = target(it, req)
        edited = world.edit_message(message, req.body or {}, attachments=req.attachments)
        if message is it.original:
            it.token_edits += 1
        return ok(message_payload(edited))

    async def delete_message(req: ApiRequest) -> ApiResponse:
        world.delete_message(target(webhook_interaction(req), req))
        return no_content()

    hook = "/webhooks/{webhook_id}/{webhook_token}"
    result = [
        Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback", callback, auth=False),
        Route("POST", hook, follow_up, auth=False),
    ]
    for suffix in ("/messages/@original", "/messages/{message_id}"):
        result += [
            Route("GET", hook + suffix, get_message, auth=False),
            Route("PATCH", hook + suffix, edit_message, auth=False),
            Route("DELETE", hook + suffix, delete_message, auth=False),
        ]
    return result
