"""The payload benchmark plays the same games on two bots and counts what each click sends."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.board_payload import SIZES, measure, report

pytestmark = [pytest.mark.e2e]


async def test_two_checkouts_of_the_same_bot_send_the_same_bytes_for_the_same_game(tmp_path: Path) -> None:
    results = await measure("HEAD", tmp_path)
    assert [(clicks.size, clicks.mode) for clicks in results] == 2 * [
        (size, mode) for size in SIZES for mode in ("vs member", "vs engine")
    ]
    old, new = results[: len(results) // 2], results[len(results) // 2 :]
    for before, after in zip(old, new, strict=True):
        assert all(count >= 1 for count in after.requests), "every click is answered with a request"
        assert min(after.bytes) > 1000, "a board edit carries the whole board"
        if before.mode == "vs member":
            assert before.bytes == after.bytes, "the members play the same game on both bots"
    assert "| board of this checkout | 5x5 | vs member | 16 |" in report(results, "HEAD")
