"""``python -m bench.board_pictures``: pictures of real boards for the README, drawn from the bot's messages.

The real bot runs against the Discord emulator with a SQLite database of its own; members play
a 3x3 game against the engine and a 5x5 game against each other to a position in the middle;
each board is then drawn from its message as Discord would show it
(:mod:`bench.message_picture`), with the application's own emoji where the bot uses them. Then an
admin picks each theme in turn with ``/ttt settings theme``, ``/ttt board`` shows the 3x3 game
in it, and the boards are put side by side in one picture of the themes.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from bench.message_picture import BACKGROUND, HEADER, font, render_message
from bot.services import THEMES
from discord_emulator import Channel, DiscordEmulator, Interaction, Member, Message, Perm
from discord_emulator.payloads import message_payload
from discord_emulator.process import BotProcess

ANSWER_TIMEOUT = 30.0
START_TIMEOUT = 120.0
OUT = Path("docs")

VS_ENGINE = ("b2", "a1", "c3", "a3", "c1")
"""Alice's cells against the engine on 3x3, the first free one each turn (the engine answers each)."""
DUEL = ("c3", "b2", "d4", "b4", "b3", "d3", "c2", "c4")
"""The 5x5 game's cells, alice and bob in turn (alice has X)."""


async def _answered(it: Interaction) -> Message:
    await it.wait_response(timeout=ANSWER_TIMEOUT)
    assert it.original is not None, "the bot answered without a message"
    return it.original


def _cell(message: Message, name: str) -> str:
    """The custom id of the board's free cell ``name`` (its label starts with the name)."""
    for row in message.rows:
        for button in row:
            if (button.label or "").split(" ")[0] == name and button.custom_id and not button.disabled:
                return button.custom_id
    raise LookupError(f"no free cell {name} on the board: {[[b.label for b in row] for row in message.rows]}")


def _first_free(message: Message, names: Sequence[str]) -> str:
    for name in names:
        try:
            return _cell(message, name)
        except LookupError:
            continue
    raise LookupError(f"none of {names} is free")


async def _board_after(
    emu: DiscordEmulator, channel: Channel, moves: Sequence[tuple[Member, str]]
) -> Message:
    """The channel's board once each ``(member, cell)`` was clicked and the bot answered."""
    board = _latest(emu, channel)
    for member, name in moves:
        click = await emu.click(board, _cell(board, name), member)
        await _answered(click)
        board = await emu.wait_for(lambda: _latest(emu, channel), ANSWER_TIMEOUT, "the board")
    return board


def _latest(emu: DiscordEmulator, channel: Channel) -> Message:
    return emu.messages(channel)[-1]


async def _wait_turn(emu: DiscordEmulator, channel: Channel, marks: int) -> Message:
    """The board once it shows ``marks`` pieces (the engine's reply is on it)."""

    def shown() -> Message | None:
        board = _latest(emu, channel)
        played = sum(1 for row in board.rows for button in row if button.emoji)
        return board if played >= marks else None

    return await emu.wait_for(shown, ANSWER_TIMEOUT, f"{marks} pieces on the board")


def _picture(emu: DiscordEmulator, message: Message) -> Image.Image:
    world = emu.world
    names = {str(user.id): user.global_name or user.username for user in world.users.values()}
    names |= {str(channel.id): channel.name or "" for channel in world.channels.values()}
    emoji = {str(found.id): found.image for found in world.application_emojis.by_id.values()}
    return render_message(message_payload(message), names=names, emoji_images=emoji)


async def draw_boards(out: Path, workdir: Path) -> list[Path]:
    """Play the two games and write their boards' pictures to ``out``; the files written."""
    async with DiscordEmulator() as emu:
        guild = emu.create_guild("Pictures", channels=["three", "five"])
        alice, bob = emu.create_member(guild, "alice"), emu.create_member(guild, "bob")
        env = {
            "DATABASE_URL": f"sqlite+aiosqlite:///{workdir / 'pictures.sqlite3'}",
            "START_COOLDOWN_SECONDS": "0",
        }
        async with BotProcess(emu, ["-m", "bot"], env=env, log_path=workdir / "bot.log") as bot:
            await bot.wait_ready(timeout=START_TIMEOUT)
            await emu.wait_for_commands(timeout=START_TIMEOUT)
            three, five = emu.channel(guild, "three"), emu.channel(guild, "five")

            await _answered(await emu.slash(three, alice, "ttt start", size=3, level="perfect"))
            for turn in range(2):
                board = await _wait_turn(emu, three, 2 * turn)
                await _answered(await emu.click(board, _first_free(board, VS_ENGINE), alice))
            small = await _wait_turn(emu, three, 4)

            challenge = await _answered(await emu.slash(five, alice, "ttt start", opponent=bob, size=5))
            await _answered(await emu.click(challenge, challenge.button(label="Accept").custom_id or "", bob))
            players = [alice, bob]
            big = await _board_after(emu, five, [(players[i % 2], cell) for i, cell in enumerate(DUEL)])

            written = []
            for name, message in (("board-3x3.png", small), ("board-5x5.png", big)):
                path = out / name
                _picture(emu, message).save(path, optimize=True)
                written.append(path)

            admins = emu.create_role(guild, "Admins", permissions=Perm.MANAGE_GUILD)
            admin = emu.create_member(guild, "carol", roles=[admins])
            themed = []
            for theme in THEMES:
                await _answered(await emu.slash(three, admin, "ttt settings", theme=theme))
                themed.append(_picture(emu, await _answered(await emu.slash(three, alice, "ttt board"))))
            path = out / "themes.png"
            side_by_side(themed, THEMES).save(path, optimize=True)
            written.append(path)
            await bot.terminate()
    return written


def side_by_side(
    pictures: Sequence[Image.Image], captions: Sequence[str], columns: int = 3, scale: float = 0.6
) -> Image.Image:
    """The pictures in a grid of ``columns``, each shrunk by ``scale`` under its caption, in reading order."""
    small = [
        p.resize((round(p.width * scale), round(p.height * scale)), Image.Resampling.LANCZOS)
        for p in pictures
    ]
    caption_height = 24
    width, height = max(p.width for p in small), max(p.height for p in small) + caption_height
    rows = -(-len(small) // columns)
    sheet = Image.new("RGB", (width * min(columns, len(small)), height * rows), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    for index, (picture, caption) in enumerate(zip(small, captions, strict=True)):
        left, top = (index % columns) * width, (index // columns) * height
        draw.text((left + 16, top + 6), caption, font=font(bold=True, size=14), fill=HEADER)
        sheet.paste(picture, (left, top + caption_height))
    return sheet


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--out", type=Path, default=OUT, help="folder for board-3x3.png, board-5x5.png, themes.png"
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as workdir:
        for path in asyncio.run(draw_boards(args.out, Path(workdir))):
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
