"""REST routes for the bot's identity, the gateway address, guilds, members, roles and channels."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import UNKNOWN_USER, not_found
from .payloads import (
    application_payload,
    channel_payload,
    current_user_payload,
    guild_payload,
    member_payload,
    role_payload,
    user_payload,
)
from .rest import ApiRequest, ApiResponse, Route, ok

if TYPE_CHECKING:
    from .emulator import DiscordEmulator


def routes(emu: DiscordEmulator) -> list[Route]:
    world = emu.world

    async def get_me(req: ApiRequest) -> ApiResponse:
        return ok({**current_user_payload(world.bot), "bot": True})

    async def get_user(req: ApiRequest) -> ApiResponse:
        return ok(user_payload(world.get_user(req.param("user_id"))))

    async def get_gateway(req: ApiRequest) -> ApiResponse:
        return ok({"url": emu.gateway.url})

    async def get_gateway_bot(req: ApiRequest) -> ApiResponse:
        emu.session_starts_remaining = max(0, emu.session_starts_remaining - 1)
        return ok(
            {
                "url": emu.gateway.url,
                "shards": emu.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": emu.session_starts_remaining,
                    "reset_after": 14_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    async def get_application(req: ApiRequest) -> ApiResponse:
        return ok(application_payload(world.application))

    async def get_guild(req: ApiRequest) -> ApiResponse:
        guild = world.get_guild(req.param("guild_id"))
        return ok(guild_payload(guild))

    async def get_guild_channels(req: ApiRequest) -> ApiResponse:
        guild = world.get_guild(req.param("guild_id"))
        return ok([channel_payload(channel) for channel in guild.channels.values() if not channel.is_thread])

    async def get_roles(req: ApiRequest) -> ApiResponse:
        guild = world.get_guild(req.param("guild_id"))
        return ok([role_payload(role) for role in guild.roles.values()])

    async def get_member(req: ApiRequest) -> ApiResponse:
        guild = world.get_guild(req.param("guild_id"))
        return ok(member_payload(world.get_member(guild, req.param("user_id"))))

    async def list_members(req: ApiRequest) -> ApiResponse:
        guild = world.get_guild(req.param("guild_id"))
        limit = max(1, min(1000, int(req.query.get("limit", "1"))))
        after = int(req.query.get("after", "0"))
        members = sorted((m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id)
        return ok([member_payload(member) for member in members[:limit]])

    async def get_channel(req: ApiRequest) -> ApiResponse:
        return ok(channel_payload(world.get_visible_channel(req.param("channel_id"))))

    async def create_dm(req: ApiRequest) -> ApiResponse:
        recipient = str((req.body or {}).get("recipient_id"))
        user = world.users.get(int(recipient)) if recipient.isdigit() else None
        if user is None:
            raise not_found(UNKNOWN_USER, "User")
        return ok(channel_payload(world.dm_channel(user)))

    async def typing(req: ApiRequest) -> ApiResponse:
        world.get_visible_channel(req.param("channel_id"))
        return ApiResponse(204)

    return [
        Route("GET", "/users/@me", get_me),
        Route("GET", "/users/{user_id}", get_user),
        Route("POST", "/users/@me/channels", create_dm),
        Route("GET", "/gateway", get_gateway, auth=False),
        Route("GET", "/gateway/bot", get_gateway_bot),
        Route("GET", "/oauth2/applications/@me", get_application),
        Route("GET", "/applications/@me", get_application),
        Route("GET", "/guilds/{guild_id}", get_guild),
        Route("GET", "/guilds/{guild_id}/channels", get_guild_channels),
        Route("GET", "/guilds/{guild_id}/roles", get_roles),
        Route("GET", "/guilds/{guild_id}/members", list_members),
        Route("GET", "/guilds/{guild_id}/members/{user_id}", get_member),
        Route("GET", "/channels/{channel_id}", get_channel),
        Route("POST", "/channels/{channel_id}/typing", typing),
    ]
