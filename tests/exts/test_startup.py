"""Starting the real bot process wrongly: it says why in one line and exits, without a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from discord_emulator import DiscordEmulator
from discord_emulator.process import BotProcess

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


async def test_a_token_discord_refuses_ends_the_bot_with_a_clear_message(
    emu: DiscordEmulator, tmp_path: Path
) -> None:
    wrong = "MTIz.not-the-token.abcdefghijklmnopqrstuvwxyz"
    process = BotProcess(
        emu,
        env={"DISCORD_TOKEN": wrong, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'ttt.sqlite3'}"},
        cwd=tmp_path,
    )
    await process.start()
    assert await process.wait_exit(timeout=60) == 1
    assert "Discord refused DISCORD_TOKEN" in process.text
    assert "Traceback" not in process.text and wrong not in process.text
    assert emu.sessions == [], "no gateway connection without a valid token"
