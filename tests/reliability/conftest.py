"""The emulator and one real bot process per module, from ``tests.exts``."""

from tests.exts.conftest import bot, bot_settings, emu

__all__ = ["bot", "bot_settings", "emu"]
