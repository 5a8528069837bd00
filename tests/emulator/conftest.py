from tests.emulator.fixtures import discord_py_on_emulator, emulator

__all__ = ["discord_py_on_emulator", "emulator"]
