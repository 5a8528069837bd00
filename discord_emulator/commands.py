"""Application commands as the bot registered them (global and per guild), kept like Discord keeps them."""

from __future__ import annotations

import copy
from typing import Any

from .snowflakes import SnowflakeFactory

CHAT_INPUT = 1


def _key(payload: dict[str, Any]) -> tuple[int, str]:
    return int(payload.get("type", CHAT_INPUT)), str(payload["name"])


class CommandRegistry:
    """Stores synced commands. A command keeps its id across syncs while its (type, name) stays."""

    def __init__(self, snowflakes: SnowflakeFactory, application_id: int) -> None:
        self._snowflakes = snowflakes
        self._application_id = application_id
        self._scopes: dict[int | None, dict[tuple[int, str], dict[str, Any]]] = {}
        self.bulk_syncs: list[int | None] = []
        """The scope (None = global, else guild id) of every bulk overwrite, in order."""

    def scope(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        return [copy.deepcopy(command) for command in self._scopes.get(guild_id, {}).values()]

    def names(self, guild_id: int | None = None) -> list[str]:
        return [command["name"] for command in self._scopes.get(guild_id, {}).values()]

    def _stored(
        self, payload: dict[str, Any], guild_id: int | None, previous: dict[str, Any] | None
    ) -> dict[str, Any]:
        kind = int(payload.get("type", CHAT_INPUT))
        stored: dict[str, Any] = {
            "id": previous["id"] if previous else str(self._snowflakes.next()),
            "application_id": str(self._application_id),
            "version": str(self._snowflakes.next()),
            "type": kind,
            "name": payload["name"],
            "name_localizations": payload.get("name_localizations"),
            "description": payload.get("description", "") if kind == CHAT_INPUT else "",
            "description_localizations": payload.get("description_localizations"),
            "default_member_permissions": _permissions_text(payload.get("default_member_permissions")),
            "dm_permission": payload.get("dm_permission", True),
            "contexts": payload.get("contexts"),
            "integration_types": payload.get("integration_types") or [0],
            "nsfw": bool(payload.get("nsfw", False)),
        }
        if payload.get("options"):
            stored["options"] = copy.deepcopy(payload["options"])
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        return stored

    def bulk_overwrite(self, guild_id: int | None, payloads: list[dict[str, Any]]) -> list[dict[str, Any]]:
        old = self._scopes.get(guild_id, {})
        new: dict[tuple[int, str], dict[str, Any]] = {}
        for payload in payloads:
            key = _key(payload)
            new[key] = self._stored(payload, guild_id, old.get(key))
        self._scopes[guild_id] = new
        self.bulk_syncs.append(guild_id)
        return self.scope(guild_id)

    def upsert(self, guild_id: int | None, payload: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """Create or replace one command; the flag says whether it was new."""
        scope = self._scopes.setdefault(guild_id, {})
        key = _key(payload)
        previous = scope.get(key)
        scope[key] = self._stored(payload, guild_id, previous)
        return copy.deepcopy(scope[key]), previous is None

    def get(self, guild_id: int | None, command_id: str) -> dict[str, Any] | None:
        for command in self._scopes.get(guild_id, {}).values():
            if command["id"] == command_id:
                return command
        return None

    def edit(self, guild_id: int | None, command_id: str, changes: dict[str, Any]) -> dict[str, Any] | None:
        scope = self._scopes.get(guild_id, {})
        for key, command in list(scope.items()):
            if command["id"] == command_id:
                merged = {**command, **changes}
                del scope[key]
                scope[_key(merged)] = self._stored(merged, guild_id, command)
                return copy.deepcopy(scope[_key(merged)])
        return None

    def delete(self, guild_id: int | None, command_id: str) -> bool:
        scope = self._scopes.get(guild_id, {})
        for key, command in list(scope.items()):
            if command["id"] == command_id:
                del scope[key]
                return True
        return False

    def resolve(self, name: str, guild_id: int | None, kind: int = CHAT_INPUT) -> dict[str, Any] | None:
        """The command a user in this guild (or a DM, when None) would invoke: guild commands first."""
        if guild_id is not None:
            found = self._scopes.get(guild_id, {}).get((kind, name))
            if found is not None:
                return found
        return self._scopes.get(None, {}).get((kind, name))


def _permissions_text(value: Any) -> str | None:
    """Discord answers a permission set as a decimal string, whichever way it was sent."""
    return None if value is None else str(int(value))
