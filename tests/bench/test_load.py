"""The load benchmark's harness still plays whole games (against the in-memory baseline bot).

Functional only: the benchmark's timings are reported by ``python -m bench.load``, never asserted here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.load import Options, markdown, run
from bench.load_driver import Mode, check_finished

pytestmark = [pytest.mark.e2e]


async def test_quick_run_against_the_baseline_plays_every_game_to_a_legal_end(tmp_path: Path) -> None:
    options = Options(bots=["baseline"], levels=(1, 3), seconds=0.2, paced=(), analyses=0)
    report = await run(options, tmp_path)

    assert not report.missing
    assert [(r.concurrency, r.mode) for r in report.results] == [
        (1, Mode.VS_BOT),
        (1, Mode.VS_HUMAN),
        (3, Mode.VS_BOT),
        (3, Mode.VS_HUMAN),
    ]
    for result in report.results:
        assert len(result.games) >= result.concurrency
        assert result.refused == result.unanswered == result.failed_games == 0
        clicks = sum(len(game.clicks) for game in result.games)
        assert len(result.acks) == len(result.edits) == clicks > 0
        assert all(0 <= ack <= edit for ack, edit in zip(result.acks, result.edits, strict=True))
        for game in result.games:
            assert game.failure is None
            assert check_finished(game.final_board, game.size) == game.result
            marks = game.final_board.count("X") + game.final_board.count("O")
            if game.mode is Mode.VS_BOT:
                # One slash command, then one click per X move; each answer carries the bot's O.
                assert len(game.clicks) == game.final_board.count("X")
            else:
                # The Accept click, then one click per mark.
                assert len(game.clicks) == 1 + marks
            assert len(game.interactions) == 1 + len(game.clicks)

    text = markdown(report, options, quick=True)
    assert text.count("| baseline |") == 4


async def test_rounds_add_up_into_one_row_per_bot_and_load(tmp_path: Path) -> None:
    options = Options(bots=["baseline"], levels=(2,), modes=(Mode.VS_BOT,), seconds=0.2, paced=(), analyses=0)
    options.rounds = 3
    report = await run(options, tmp_path)

    (row,) = report.results
    assert row.elapsed >= 3 * options.seconds
    assert row.interactions == sum(len(game.interactions) for game in row.games)
    assert len(row.games) >= 3 * options.levels[0], "every round's tables played"
    assert all(game.failure is None for game in row.games)
    assert "in each of 3 rounds" in markdown(report, options, quick=False)
