"""REST routes for application command sync: global and per-guild, bulk and one by one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import UNKNOWN_APPLICATION_COMMAND, DiscordHTTPError, FormErrors, not_found
from .rest import ApiRequest, ApiResponse, Route, no_content, ok
from .validation import check_commands

if TYPE_CHECKING:
    from .emulator import DiscordEmulator


def routes(emu: DiscordEmulator) -> list[Route]:
    world = emu.world
    registry = world.commands

    def scope(req: ApiRequest) -> int | None:
        if req.param("application_id") != str(world.application.id):
            raise DiscordHTTPError(403, 50001, "Missing Access")
        if "guild_id" not in req.params:
            return None
        return world.get_guild(req.param("guild_id")).id

    async def list_commands(req: ApiRequest) -> ApiResponse:
        return ok(registry.scope(scope(req)))

    async def bulk_overwrite(req: ApiRequest) -> ApiResponse:
        guild_id = scope(req)
        errors = FormErrors()
        check_commands(req.body, errors)
        errors.raise_if_any()
        return ok(registry.bulk_overwrite(guild_id, req.body))

    async def create(req: ApiRequest) -> ApiResponse:
        guild_id = scope(req)
        errors = FormErrors()
        check_commands([req.body], errors)
        errors.raise_if_any()
        command, created = registry.upsert(guild_id, req.body)
        return ok(command, 201 if created else 200)

    async def get(req: ApiRequest) -> ApiResponse:
        command = registry.get(scope(req), req.param("command_id"))
        if command is None:
            raise not_found(UNKNOWN_APPLICATION_COMMAND, "application command")
        return ok(command)

    async def edit(req: ApiRequest) -> ApiResponse:
        command = registry.edit(scope(req), req.param("command_id"), req.body or {})
        if command is None:
            raise not_found(UNKNOWN_APPLICATION_COMMAND, "application command")
        return ok(command)

    async def delete(req: ApiRequest) -> ApiResponse:
        if not registry.delete(scope(req), req.param("command_id")):
            raise not_found(UNKNOWN_APPLICATION_COMMAND, "application command")
        return no_content()

    result: list[Route] = []
    for base in ("/applications/{application_id}", "/applications/{application_id}/guilds/{guild_id}"):
        result += [
            Route("GET", base + "/commands", list_commands),
            Route("PUT", base + "/commands", bulk_overwrite),
            Route("POST", base + "/commands", create),
            Route("GET", base + "/commands/{command_id}", get),
            Route("PATCH", base + "/commands/{command_id}", edit),
            Route("DELETE", base + "/commands/{command_id}", delete),
        ]
    return result
