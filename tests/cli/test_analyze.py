"""``python -m bot analyze``: the JSON lines, exit statuses and streaming."""

from __future__ import annotations

import io
import json
import select
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from tests.cli.conftest import RunCli, bot_command, clean_env

KEYS = ["board", "size", "k", "to_move", "status", "value", "plies", "exact", "best", "moves"]


def analyze_in_process(capsys: pytest.CaptureFixture[str], *boards: str) -> tuple[int, list[dict[str, Any]]]:
    status = main(["analyze", *boards])
    lines = capsys.readouterr().out.splitlines()
    return status, [json.loads(line) for line in lines]


def test_the_documented_example(run_cli: RunCli) -> None:
    done = run_cli("analyze", "X.O......")
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    record = json.loads(line)
    assert list(record) == KEYS
    assert record["board"] == "X.O......"
    assert (record["size"], record["k"], record["to_move"], record["status"]) == (3, 3, "X", "ongoing")
    assert (record["value"], record["plies"], record["exact"]) == ("win", 5, True)
    assert record["best"] == [3, 6, 8]
    moves = record["moves"]
    assert [m["cell"] for m in moves] == [1, 3, 4, 5, 6, 7, 8]
    assert all(list(m) == ["cell", "value", "plies"] for m in moves)
    assert moves[:3] == [
        {"cell": 1, "value": "loss", "plies": 6},
        {"cell": 3, "value": "win", "plies": 5},
        {"cell": 4, "value": "draw", "plies": 7},
    ]


def test_board_is_echoed_upper_case_and_compact(capsys: pytest.CaptureFixture[str]) -> None:
    status, [record] = analyze_in_process(capsys, " x.o/.../... ")
    assert status == 0
    assert record["board"] == "X.O......"
    assert record["best"] == [3, 6, 8]


@pytest.mark.parametrize(
    ("board", "status"),
    [("XXXOO....", "x_won"), ("OOOXX.X..", "o_won"), ("XOXXOOOXX", "draw"), ("XXXXOOO.........", "x_won")],
)
def test_finished_boards_have_nulls_and_empty_lists(
    capsys: pytest.CaptureFixture[str], board: str, status: str
) -> None:
    code, [record] = analyze_in_process(capsys, board)
    assert code == 0
    assert list(record) == KEYS
    assert record["status"] == status
    assert record["to_move"] is None and record["value"] is None and record["plies"] is None
    assert record["best"] == [] and record["moves"] == []


def test_four_by_four_reports_its_size_and_k(capsys: pytest.CaptureFixture[str]) -> None:
    code, [record] = analyze_in_process(capsys, "XXX./OOO./XOXO/OXOX")
    assert code == 0
    assert (record["size"], record["k"], record["to_move"]) == (4, 4, "X")
    assert record["best"] == [3]
    assert {"cell": 3, "value": "win", "plies": 1} in record["moves"]
    assert {"cell": 7, "value": "loss", "plies": 2} in record["moves"]


def test_invalid_boards_get_an_error_line_and_exit_1(run_cli: RunCli) -> None:
    done = run_cli("analyze", "X.O......", "XXX......", "x.o.?....", "XO")
    assert done.returncode == 1
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["board"] for r in records] == ["X.O......", "XXX......", "x.o.?....", "XO"]
    assert records[0]["value"] == "win"
    for record in records[1:]:
        assert list(record) == ["board", "error"]
        assert record["error"]
    assert "X has 3 and O has 0" in records[1]["error"]
    assert "'?'" in records[2]["error"]
    assert "9, 16 or 25 cells" in records[3]["error"]
    assert "Traceback" not in done.stderr


def test_both_sides_with_a_line_is_invalid(capsys: pytest.CaptureFixture[str]) -> None:
    code, [record] = analyze_in_process(capsys, "XXXOOO...")
    assert code == 1
    assert "error" in record


def test_stdin_answers_every_line_a_blank_one_with_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\nX.O......\n   \n.........\n"))
    code, records = analyze_in_process(capsys, "-")
    assert code == 1
    assert [r["board"] for r in records] == ["", "X.O......", "", "........."]
    assert list(records[0]) == ["board", "error"] and "empty" in records[0]["error"]
    assert records[2] == records[0]


def test_bad_characters_are_quoted_as_given_and_all_of_them(capsys: pytest.CaptureFixture[str]) -> None:
    code, [record] = analyze_in_process(capsys, "abcdefghi")
    assert code == 1
    assert record == {
        "board": "abcdefghi",
        "error": "A board holds only X, O and '.'; it has 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'.",
    }


@pytest.mark.parametrize("board", ["X.O/..../..", "X.O/.../.../", "X.O....../", "X.O./.../.."])
def test_uneven_rows_are_refused(capsys: pytest.CaptureFixture[str], board: str) -> None:
    code, [record] = analyze_in_process(capsys, board)
    assert code == 1
    assert record["board"] == board
    assert record["error"].startswith("Rows separated by '/' each have 3 cells on a 3x3 board; these have ")


def test_usage_errors_exit_2(run_cli: RunCli) -> None:
    assert run_cli("analyze").returncode == 2
    done = run_cli("analyze", "--budget-ms", "0", "X........")
    assert done.returncode == 2
    assert "--budget-ms" in done.stderr


def _read_line(stream: Any, timeout: float = 30) -> str:
    """One line from the child, with select only as a guard against hanging forever."""
    ready, _, _ = select.select([stream], [], [], timeout)
    assert ready, "analyze - did not answer the board before stdin was closed"
    return str(stream.readline().decode())


def test_stdin_streams_one_line_per_board(tmp_path: Path) -> None:
    """Each board is answered while stdin is still open, with stdout a pipe and no PYTHONUNBUFFERED."""
    with subprocess.Popen(
        bot_command("analyze", "-"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=clean_env(),
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(b"X.O......\n")
        proc.stdin.flush()
        first = json.loads(_read_line(proc.stdout))
        assert first["board"] == "X.O......" and first["best"] == [3, 6, 8]
        proc.stdin.write(b"\n")
        proc.stdin.flush()
        blank = json.loads(_read_line(proc.stdout))
        assert blank["board"] == "" and "error" in blank
        proc.stdin.write(b"not a board\n")
        proc.stdin.flush()
        second = json.loads(_read_line(proc.stdout))
        assert second["board"] == "not a board" and "error" in second
        proc.stdin.close()
        assert proc.stdout.read() == b""
        assert proc.wait(timeout=60) == 1
