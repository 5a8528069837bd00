"""Server settings: the language of a server's public messages and its rules for games."""

from __future__ import annotations

from bot.services import refusals
from bot.services.core import ServiceCore
from bot.services.server_rules import (
    AUTO_LANGUAGE,
    DEFAULT_THEME,
    ServerRules,
    SettingsChange,
    SettingsView,
    changed,
    read_rules,
    write_rules,
)


class Servers:
    """Reads and changes a server's settings, for the members who may manage them."""

    def __init__(self, core: ServiceCore) -> None:
        self._core = core

    async def server_language(self, guild_id: int) -> str | None:
        """The language set for the server ``guild_id``, if any (kept in memory once read)."""
        return (await self._core.server_rules(guild_id)).language

    async def server_theme(self, guild_id: int) -> str:
        """The theme of the server ``guild_id``'s boards (kept in memory once read)."""
        return (await self._core.server_rules(guild_id)).theme or DEFAULT_THEME

    @staticmethod
    def _check_may_manage(guild_id: int | None, may_manage: bool) -> int:
        if guild_id is None:
            raise refusals.SettingsOutsideServer()
        if not may_manage:
            raise refusals.NotManager()
        return guild_id

    def _view(self, rules: ServerRules) -> SettingsView:
        settings = self._core.settings
        turn, challenge = rules.turn_timeout_seconds, rules.challenge_timeout_seconds
        return SettingsView(
            language=rules.language,
            channel_ids=rules.channel_ids,
            role_id=rules.role_id,
            turn_timeout_seconds=round(settings.turn_timeout_seconds) if turn is None else turn,
            turn_timeout_is_default=turn is None,
            challenge_timeout_seconds=round(settings.challenge_timeout_seconds)
            if challenge is None
            else challenge,
            challenge_timeout_is_default=challenge is None,
            default_level=rules.default_level or SettingsView.DEFAULT_LEVEL,
            theme=rules.theme or DEFAULT_THEME,
        )

    async def server_settings(self, guild_id: int | None, may_manage: bool) -> SettingsView:
        """The server's settings, for a member who may manage them (read afresh from the store)."""
        server = self._check_may_manage(guild_id, may_manage)
        async with self._core.read() as repo:
            rules = await read_rules(repo, server)
        self._core.keep_server_rules(server, rules)
        return self._view(rules)

    async def change_server_settings(
        self, guild_id: int | None, change: SettingsChange, may_manage: bool
    ) -> SettingsView:
        """Apply ``change`` to the server's settings, for a member who may manage them.

        Every value is checked before anything is stored: one refused value changes nothing.
        """
        server = self._check_may_manage(guild_id, may_manage)
        core = self._core
        async with core.write() as repo:
            old = await read_rules(repo, server)
            new = changed(old, change)
            await write_rules(repo, server, old, new, core.clock())
        core.keep_server_rules(server, new)
        return self._view(new)

    async def set_server_language(
        self, guild_id: int | None, language: str | None, may_manage: bool
    ) -> str | None:
        """Set (None: clear) the server's language, for a member who may manage it."""
        change = SettingsChange(language=AUTO_LANGUAGE if language is None else language)
        return (await self.change_server_settings(guild_id, change, may_manage)).language
