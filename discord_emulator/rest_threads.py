"""REST routes for a thread's members: list, fetch, add and remove (another user, or the bot itself).

The rules are Discord's: a thread takes no member changes once archived; adding someone else
needs Send Messages in Threads; removing someone else needs Manage Threads (or having created
the private thread). Listing a thread's members takes the GUILD_MEMBERS privileged intent
enabled for the application (``emu.world.application.privileged_intents``); without it the
emulator answers 403 Missing Access, as Discord does for what an application may not reach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import MISSING_ACCESS, UNKNOWN_MEMBER, DiscordHTTPError, not_found
from .models import Channel
from .payloads import thread_member_payload
from .rest import ApiRequest, ApiResponse, Route, no_content, ok
from .world import GUILD_MEMBERS_INTENT

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

LIST_LIMIT = 100


def routes(emu: DiscordEmulator) -> list[Route]:
    world = emu.world

    def thread_of(req: ApiRequest) -> Channel:
        return world.get_visible_channel(req.param("channel_id"))

    def user_of(req: ApiRequest) -> int:
        user_id = req.params.get("user_id")  # absent on the routes of ``@me``, the bot itself
        return world.bot.id if user_id is None else world.get_user(user_id).id

    async def list_members(req: ApiRequest) -> ApiResponse:
        thread = thread_of(req)
        if not world.application.privileged_intents & GUILD_MEMBERS_INTENT:
            raise DiscordHTTPError(403, MISSING_ACCESS, "Missing Access")
        ids = sorted(thread.thread_members)
        with_member = req.flag("with_member")
        if with_member:
            after = int(req.query.get("after", "0"))
            limit = max(1, min(LIST_LIMIT, int(req.query.get("limit", str(LIST_LIMIT)))))
            ids = [user_id for user_id in ids if user_id > after][:limit]
        guild = world.guilds[thread.guild_id] if thread.guild_id is not None else None
        return ok(
            [
                thread_member_payload(
                    thread, user_id, guild.members.get(user_id) if with_member and guild is not None else None
                )
                for user_id in ids
            ]
        )

    async def get_member(req: ApiRequest) -> ApiResponse:
        thread = thread_of(req)
        user_id = user_of(req)
        if user_id not in thread.thread_members:
            raise not_found(UNKNOWN_MEMBER, "Member")
        guild = world.guilds[thread.guild_id] if thread.guild_id is not None else None
        member = guild.members.get(user_id) if guild is not None and req.flag("with_member") else None
        return ok(thread_member_payload(thread, user_id, member))

    async def add_member(req: ApiRequest) -> ApiResponse:
        world.add_thread_member(thread_of(req), user_of(req))
        return no_content()

    async def remove_member(req: ApiRequest) -> ApiResponse:
        world.remove_thread_member(thread_of(req), user_of(req))
        return no_content()

    base = "/channels/{channel_id}/thread-members"
    return [
        Route("GET", base, list_members),
        Route("PUT", base + "/@me", add_member),
        Route("DELETE", base + "/@me", remove_member),
        Route("GET", base + "/{user_id}", get_member),
        Route("PUT", base + "/{user_id}", add_member),
        Route("DELETE", base + "/{user_id}", remove_member),
    ]
