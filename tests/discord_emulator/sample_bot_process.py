"""``python -m tests.discord_emulator.sample_bot_process``: the throwaway bot as a process of its own.

It configures discord.py from the environment the way the real bot must to reach an emulator or a
proxy: ``Route.BASE`` from ``DISCORD_API_BASE`` before logging in, and the gateway address from that
API's ``/gateway/bot`` in ``setup_hook`` (discord.py's ``Client`` never asks for it by itself).
"""

from __future__ import annotations

import logging
import os

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .sample_bot import ThrowawayBot


class ProcessBot(ThrowawayBot):
    async def setup_hook(self) -> None:
        if os.environ.get("DISCORD_API_BASE"):
            _shards, url, _limits = await self.http.get_bot_gateway()
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await super().setup_hook()


def main() -> None:
    api_base = os.environ.get("DISCORD_API_BASE")
    if api_base:
        Route.BASE = api_base.rstrip("/")
    discord.utils.setup_logging(level=logging.INFO)
    guild_id = os.environ.get("SYNC_GUILD_ID")
    bot = ProcessBot(sync_guild=discord.Object(int(guild_id)) if guild_id else None)
    bot.run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
