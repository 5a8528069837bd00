"""The pictures benchmark's harness: every picture is drawn and every click is timed, in both conditions.

Functional only: the timings are reported by ``python -m bench.pictures``, never asserted here.
"""

from __future__ import annotations

import io

from PIL import Image

from bench.pictures import click_latency, full_game, picture_rows
from bot.pictures import render_replay


def test_every_picture_is_drawn_and_measured() -> None:
    rows = picture_rows(1)
    assert len(rows) == 6
    assert all(ms > 0 and size > 0 for _, ms, size in rows)


def test_the_random_games_are_played_to_their_end() -> None:
    for size in (3, 4, 5):
        moves, lines, winner = full_game(size, seed=size)
        assert (winner is None) == (lines == ())
        assert Image.open(io.BytesIO(render_replay(size, moves, lines, winner))).n_frames == len(moves) + 1


async def test_clicks_are_timed_with_and_without_pictures_rendering() -> None:
    latencies = await click_latency(rounds=1, clicks=4)
    assert len(latencies["idle"]) == len(latencies["pictures"]) == len(latencies["drawing"]) == 4
    assert latencies["drawn"][0] >= 4
