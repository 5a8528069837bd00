"""Pictures of real boards for the README, drawn from the messages the bot sends.

    python -m bench.board_picture [--out docs]

Starts the real bot (``python -m bot``, SQLite in a temporary directory) against the Discord
emulator, then plays: a 3x3 game against the bot with the default pieces, stopped while it runs;
and a 5x5 game between two members on a server whose admin chose the high-contrast theme, won by
X along the top row. Each board message, as the emulator holds it (components, the application's
emoji), is drawn by :mod:`bench.v2_picture` and written as ``board-3x3.png`` and ``board-5x5.png``.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PIL import Image

from bench.v2_picture import render
from discord_emulator import DiscordEmulator, Member, Message, Perm
from discord_emulator.process import BotProcess

TIMEOUT = 30.0


def _cell(message: Message, index: int) -> str:
    size = len(message.rows[0])
    return message.rows[index // size][index % size].custom_id or ""


async def _answer(emu: DiscordEmulator, it: Any) -> Message:
    message: Message = await it.wait_response(timeout=TIMEOUT)
    return message


async def _vs_bot(emu: DiscordEmulator, channel: Any, alice: Member) -> Message:
    board = await _answer(emu, await emu.slash(channel, alice, "ttt start", level="easy"))
    for _ in range(2):
        # The centre first, then the first free cell; on 3x3 the bot's reply comes in the same edit.
        free = [button for row in board.rows[:3] for button in row if not button.disabled]
        choice = next((button for button in free if button.label == "b2"), free[0])
        await _answer(emu, await emu.click(board, choice.custom_id or "", alice))
    return board


async def _duel_5x5(emu: DiscordEmulator, channel: Any, alice: Member, bob: Member) -> Message:
    await _answer(emu, await emu.slash(channel, alice, "ttt settings", theme="contrast"))
    board = await _answer(emu, await emu.slash(channel, alice, "ttt start", opponent=bob, size=5))
    await _answer(emu, await emu.click(board, board.button(label="Accept").custom_id or "", bob))
    for ply, cell in enumerate((0, 5, 1, 6, 2, 12, 3)):
        await _answer(emu, await emu.click(board, _cell(board, cell), (alice, bob)[ply % 2]))
    return board


def _picture(emu: DiscordEmulator, message: Message, names: Mapping[int, str]) -> Image.Image:
    def emoji_image(emoji: Mapping[str, Any]) -> Image.Image | None:
        found = emu.world.application_emojis.by_id.get(int(emoji.get("id") or 0))
        return None if found is None else Image.open(io.BytesIO(found.image))

    return render(message.components, names, emoji_image)


async def draw_boards(out: Path) -> list[Path]:
    """Play both games and write their boards' pictures into ``out``."""
    async with DiscordEmulator() as emu:
        guild = emu.create_guild("Game night", channels=("tic-tac-toe",))
        channel = emu.channel(guild, "tic-tac-toe")
        admins = emu.create_role(guild, "Admins", permissions=Perm.MANAGE_GUILD)
        alice = emu.create_member(guild, "alice", roles=[admins])
        bob = emu.create_member(guild, "bob")
        names = {alice.id: "alice", bob.id: "bob"}
        with tempfile.TemporaryDirectory() as workdir:
            env = {
                "DATABASE_URL": f"sqlite+aiosqlite:///{workdir}/ttt.sqlite3",
                "START_COOLDOWN_SECONDS": "0",
            }
            async with BotProcess(emu, env=env) as process:
                await process.wait_ready(timeout=TIMEOUT)
                await emu.wait_for_commands(timeout=TIMEOUT)
                await emu.wait_for(
                    lambda: emu.world.application_emojis.named("contrast_o") is not None, TIMEOUT
                )
                small = await _vs_bot(emu, channel, alice)
                other = emu.create_channel(guild, "five-by-five")
                big = await _duel_5x5(emu, other, alice, bob)
                await process.terminate()
        written = []
        for name, message in (("board-3x3.png", small), ("board-5x5.png", big)):
            path = out / name
            _picture(emu, message, names).save(path, optimize=True)
            written.append(path)
        return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs"), help="where to write the pictures")
    args = parser.parse_args(argv)
    for path in asyncio.run(draw_boards(args.out)):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
