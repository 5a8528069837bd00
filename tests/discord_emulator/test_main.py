"""``python -m discord_emulator --help`` reads as plain text for a person trying the bot by hand."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_help_is_plain_text_and_says_how_to_point_the_bot_at_it() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "discord_emulator", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert shown.startswith("usage: python -m discord_emulator")
    assert "``" not in shown
    assert ":class:" not in shown
    assert "DISCORD_API_BASE" in shown
