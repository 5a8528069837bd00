"""Server settings: the language a server chose for its public messages."""

from __future__ import annotations

from bot.i18n import by_code
from bot.services import refusals
from bot.services.core import ServiceCore

_CACHE_SIZE = 50_000


class Servers:
    """Reads and changes a server's settings; remembers each server's language once read."""

    def __init__(self, core: ServiceCore) -> None:
        self._core = core
        self._languages: dict[int, str | None] = {}

    async def server_language(self, guild_id: int) -> str | None:
        """The language set for the server ``guild_id``, if any (cached)."""
        if guild_id in self._languages:
            return self._languages[guild_id]
        async with self._core.read() as repo:
            language = await repo.server_language(guild_id)
        if len(self._languages) > _CACHE_SIZE:
            self._languages.clear()
        self._languages[guild_id] = language
        return language

    @staticmethod
    def _check_may_manage(guild_id: int | None, may_manage: bool) -> int:
        if guild_id is None:
            raise refusals.SettingsOutsideServer()
        if not may_manage:
            raise refusals.NotManager()
        return guild_id

    async def server_settings(self, guild_id: int | None, may_manage: bool) -> str | None:
        """The server's settings, for a member who may manage them."""
        return await self.server_language(self._check_may_manage(guild_id, may_manage))

    async def set_server_language(
        self, guild_id: int | None, language: str | None, may_manage: bool
    ) -> str | None:
        """Set (None: clear) the server's language, for a member who may manage it."""
        server = self._check_may_manage(guild_id, may_manage)
        chosen = None if language is None else by_code(language)
        if language is not None and chosen is None:
            raise refusals.BadOption("language")
        code = None if chosen is None else chosen.code
        async with self._core.write() as repo:
            await repo.set_server_language(server, code, self._core.clock())
        self._languages[server] = code
        return code
