"""``python -m bot play``: a whole game in the terminal, bad input, quitting and end of input.

The transcripts are the same with the database (the default; here the default
``ttt.sqlite3`` in the empty working directory, as a user's first run would make)
and without it (``--no-db``); only what becomes of a game left unfinished differs.
What the database holds afterwards is checked in ``test_play_recorded.py``.
"""

from __future__ import annotations

import asyncio
import io
import re
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cli.play import play_game, run_play
from bot.cli.session import (
    GameSession,
    LocalSession,
    MoveRejectedError,
    PlayOptions,
    SessionFactory,
    SessionUnavailableError,
)
from bot.cli.text_width import display_width
from bot.engine import SIZES, Board, Level, Mark
from bot.i18n import ENGLISH, TRANSLATED
from tests.cli.conftest import REPO, RunCli, clean_env

EVERY_CELL_IN_ORDER = "".join(f"{n}\n" for n in range(1, 10))
"""Plays the lowest free cell each turn: taken cells are refused and the next line is tried."""

ENGINE_MOVE = re.compile(r"The engine plays ([a-e][1-5])\.")


def final_board(transcript: str, size: int = 3) -> Board:
    """Read the last rendered board back from the transcript (rows start with their number)."""
    rows: dict[int, str] = {}
    for line in transcript.splitlines():
        line = line.ljust(4 + 3 * size)
        match = re.match(r"^\s*(\d)\s((?:[ \[(][XO.][ \])]){" + str(size) + "})", line)
        if match:
            rows[int(match.group(1))] = match.group(2)[1::3]
    return Board.parse("".join(rows[r] for r in range(1, size + 1)))


Mode = str
"""``"db"`` (the default session, through the game service) or ``"no-db"``."""

TAKEN_B2 = {"db": "That cell (b2) is already taken.", "no-db": "That cell (b2) is already taken."}
"""The service's refusal, or the in-memory session's."""
LEFT_AFTER_A_MOVE = {
    "db": "you resigned, so the engine wins (it counts as a loss)",
    "no-db": "the game is left unfinished",
}
LEFT_BEFORE_A_MOVE = {
    "db": "the game was cancelled before your first move, so it does not count",
    "no-db": "the game is left unfinished",
}


@pytest.fixture(params=["db", "no-db"])
def mode(request: pytest.FixtureRequest) -> Mode:
    return str(request.param)


@pytest.fixture
def play(run_cli: RunCli, mode: Mode) -> RunCli:
    """``play("--size", "4", input=...)``: ``python -m bot play`` in this test's mode."""

    def run(*args: str, input: str = "") -> subprocess.CompletedProcess[str]:
        return run_cli("play", *args, *(["--no-db"] if mode == "no-db" else []), input=input)

    return run


def assert_clean(done_stderr: str) -> None:
    assert "Traceback" not in done_stderr
    assert done_stderr == ""


def test_full_game_against_perfect_ends_with_a_result(play: RunCli) -> None:
    done = play(input=EVERY_CELL_IN_ORDER)
    assert done.returncode == 0
    assert_clean(done.stderr)
    out = done.stdout
    assert "You are X and you move first" in out
    assert "You win" not in out
    result = next(line for line in reversed(out.splitlines()) if not line.startswith("This was game"))
    assert result.startswith("The engine wins with") or result == "It's a draw."
    board = final_board(out)
    assert board.is_over and board.winner is not Mark.X
    assert len(ENGINE_MOVE.findall(out)) == board.ply // 2
    assert "is already taken. Try again." in out


def test_a_finished_game_marks_its_line_without_free_cells_and_names_the_stored_game(
    play: RunCli, run_cli: RunCli, mode: Mode
) -> None:
    done = play(input=EVERY_CELL_IN_ORDER)
    assert done.returncode == 0
    out = done.stdout
    board = final_board(out)
    last_board = out[out.rindex("a  b  c") :].splitlines()
    assert last_board[0] == "a  b  c"
    rows = last_board[1:4]
    marked = [
        cell
        for row, line in enumerate(rows)
        for cell, shown in zip(range(row * 3, row * 3 + 3), line[4:13:3], strict=True)
        if shown == "("
    ]
    assert tuple(marked) == board.winning_cells
    assert "free cells" not in out[out.rindex("a  b  c") :]
    ending = out.strip().splitlines()[-1]
    if mode == "no-db":
        assert ending.startswith("The engine wins with") or ending == "It's a draw."
        return
    stored = re.fullmatch(
        r"This was game (\d+): `python -m bot review \1` goes through it move by move, "
        r"`python -m bot replay \1 --out game-\1.gif` draws it.",
        ending,
    )
    assert stored is not None
    review = run_cli("review", stored[1], "--json")
    assert review.returncode == 0, review.stderr
    assert len(review.stdout.splitlines()) == board.ply


def test_human_playing_o_lets_the_engine_open(play: RunCli) -> None:
    done = play("--first", "o", input=EVERY_CELL_IN_ORDER)
    assert done.returncode == 0
    assert_clean(done.stderr)
    out = done.stdout
    assert "You are O and the engine moves first" in out
    assert out.index("The engine plays") < out.index("Your move (O)")
    board = final_board(out)
    assert board.is_over and board.winner is not Mark.O
    assert len(ENGINE_MOVE.findall(out)) == (board.ply + 1) // 2


def test_bad_input_is_explained_then_q_quits(play: RunCli, mode: Mode, tmp_path: Path) -> None:
    done = play("--seed", "7", input="zz\n5\nq\n")
    assert done.returncode == 0
    assert_clean(done.stderr)
    out = done.stdout
    assert "'zz' is not a cell. Name a cell as 1-9 or a1-c3. Try again." in out
    assert "The engine plays" in out
    lines = out.strip().splitlines()
    assert lines[-2 if mode == "db" else -1] == f"You quit; {LEFT_AFTER_A_MOVE[mode]}."
    board = final_board(out)
    assert board[4] is Mark.X and board.ply == 2
    assert (tmp_path / "ttt.sqlite3").exists() is (mode == "db")


def test_taken_cell_and_out_of_range_are_asked_again(play: RunCli, mode: Mode) -> None:
    done = play(input="b2\nB2\n0\nj9\n\n")
    assert done.returncode == 0
    assert_clean(done.stderr)
    out = done.stdout
    assert TAKEN_B2[mode] + " Try again." in out
    assert "There is no cell 0 on a 3x3 board" in out
    assert "There is no cell j9 on a 3x3 board" in out
    assert out.count("Your move (X)") == 6


def test_end_of_input_ends_cleanly(play: RunCli, mode: Mode) -> None:
    done = play(input="")
    assert done.returncode == 0
    assert_clean(done.stderr)
    assert done.stdout.strip().endswith(f"End of input: {LEFT_BEFORE_A_MOVE[mode]}.")


def test_larger_board_is_rendered_with_its_letters_and_numbers(play: RunCli) -> None:
    done = play("--size", "5", "--level", "easy", input="help\nq\n")
    assert done.returncode == 0
    assert_clean(done.stderr)
    out = done.stdout
    assert "Tic-tac-toe on 5x5: 4 in a row wins." in out
    assert "(1-25) or column and row (a1-e5)" in out
    header = next(line for line in out.splitlines() if "free cells" in line)
    assert header.split()[:5] == ["a", "b", "c", "d", "e"]
    assert "21 22 23 24 25" in out


def test_bad_options_are_usage_errors(run_cli: RunCli) -> None:
    for args in (("--size", "6"), ("--level", "godlike"), ("--first", "z")):
        done = run_cli("play", *args)
        assert done.returncode == 2
        assert "usage:" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("human", [Mark.X, Mark.O])
def test_perfect_engine_never_loses_a_scripted_game(human: Mark) -> None:
    """Many seeds in process: the lowest-free-cell player never beats the perfect engine."""
    for seed in range(25):
        out = io.StringIO()
        lines = io.StringIO(EVERY_CELL_IN_ORDER)
        options = PlayOptions(level=Level.PERFECT, human=human, seed=seed)
        asyncio.run(play_game(options, lines.readline, out))
        board = final_board(out.getvalue())
        assert board.is_over
        assert board.winner is not human


class RefusingSession(LocalSession):
    """A session that refuses the centre, as a service with its own rules might."""

    async def play(self, cell: int) -> None:
        if cell == 4:
            raise MoveRejectedError("The centre is closed today.")
        await super().play(cell)


def test_the_loop_goes_through_the_session_it_is_given() -> None:
    sessions: list[RefusingSession] = []

    @asynccontextmanager
    async def open_refusing(options: PlayOptions) -> AsyncIterator[GameSession]:
        session = RefusingSession(options)
        sessions.append(session)
        yield session

    out = io.StringIO()
    lines = io.StringIO("5\n1\nq\n")
    asyncio.run(play_game(PlayOptions(seed=1), lines.readline, out, open_session=open_refusing))
    transcript = out.getvalue()
    assert "The centre is closed today. Try again." in transcript
    [session] = sessions
    assert session.board[0] is Mark.X and session.board[4] is not Mark.X
    assert session.abandoned


def recording(kind: type[LocalSession], sessions: list[LocalSession]) -> SessionFactory:
    @asynccontextmanager
    async def open_session(options: PlayOptions) -> AsyncIterator[GameSession]:
        session = kind(options)
        sessions.append(session)
        yield session

    return open_session


def test_ctrl_c_at_the_prompt_leaves_the_game_then_interrupts() -> None:
    lines = ["5\n"]

    def read_line() -> str:
        if not lines:
            raise KeyboardInterrupt
        return lines.pop(0)

    sessions: list[LocalSession] = []
    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        asyncio.run(
            play_game(PlayOptions(seed=1), read_line, out, open_session=recording(LocalSession, sessions))
        )
    [session] = sessions
    assert session.abandoned and session.board.ply == 2
    assert out.getvalue().strip().endswith("Interrupted; the game is left unfinished.")


class EndsOnTimeSession(LocalSession):
    """A session whose game ends on time before the player's second move, as a bot's sweep would end it."""

    ended = False

    @property
    def is_over(self) -> bool:
        return self.ended or super().is_over

    @property
    def end_note(self) -> str | None:
        return "The engine wins on time." if self.ended else None

    async def play(self, cell: int) -> None:
        if self.board.ply >= 2:
            self.ended = True
            raise MoveRejectedError("This game is over.")
        await super().play(cell)


def test_a_game_that_ended_meanwhile_stops_asking_and_says_how_it_ended() -> None:
    sessions: list[LocalSession] = []
    out = io.StringIO()
    lines = io.StringIO("1\n2\n3\n")
    asyncio.run(
        play_game(
            PlayOptions(seed=1), lines.readline, out, open_session=recording(EndsOnTimeSession, sessions)
        )
    )
    transcript = out.getvalue()
    assert "This game is over.\n" in transcript and "Try again" not in transcript
    assert transcript.strip().endswith("The engine wins on time.")
    assert lines.readline() == "3\n"
    [session] = sessions
    assert not session.abandoned


class FailingSession(LocalSession):
    """A session whose back end breaks in a way nobody foresaw."""

    async def play(self, cell: int) -> None:
        raise RuntimeError("disk on fire\nlong detail")


class Unavailable(LocalSession):
    def __init__(self, options: PlayOptions) -> None:
        raise SessionUnavailableError("Could not open the database at nowhere: refused")


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        (FailingSession, "The game stopped: disk on fire"),
        (Unavailable, "Could not open the database at nowhere: refused"),
    ],
)
def test_a_session_that_fails_ends_play_with_one_line_and_status_1(
    kind: type[LocalSession], says: str
) -> None:
    stdin, out, err = io.StringIO("5\n"), io.StringIO(), io.StringIO()
    assert run_play(PlayOptions(), stdin, out, err, recording(kind, [])) == 1
    assert (
        err.getvalue().splitlines() == [says] if kind is FailingSession else err.getvalue().startswith(says)
    )


def test_the_introduction_fits_80_columns_in_every_language(monkeypatch: pytest.MonkeyPatch) -> None:
    for language in (*TRANSLATED, ENGLISH):
        monkeypatch.setenv("LC_ALL", f"{language.catalogue}.UTF-8")
        for size in SIZES:
            for human in Mark:
                out = io.StringIO()
                options = PlayOptions(size=size, human=human, level=Level.MEDIUM)
                asyncio.run(play_game(options, io.StringIO("q\n").readline, out))
                introduction = out.getvalue().split("\n\n")[0].splitlines()
                assert len(introduction) >= 3
                too_wide = [line for line in introduction if display_width(line) > 80]
                assert too_wide == [], language.code


def test_level_is_taken_in_any_case_as_first_is(run_cli: RunCli) -> None:
    done = run_cli("play", "--level", "Easy", "--first", "O", "--no-db", input="q\n")
    assert done.returncode == 0, done.stderr
    assert "You are O and the engine moves first; it plays X at level easy." in done.stdout


class InterruptedStdin(io.StringIO):
    """Standard input at which the player presses Ctrl-C."""

    def readline(self, size: int | None = -1) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_at_the_prompt_is_told_once_in_the_terminals_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    monkeypatch.setattr("sys.stdin", InterruptedStdin())
    assert main(["play", "--no-db"]) == 130
    out, err = capsys.readouterr()
    assert out.strip().endswith("Unterbrochen: das Spiel bleibt unvollendet.")
    assert err == ""


def test_make_play_passes_its_options_and_says_how(tmp_path: Path) -> None:
    done = subprocess.run(
        ["make", "--no-print-directory", "-s", "-o", ".venv/.installed", "play", "ARGS=--size 4 --no-db"],
        input="q\n",
        capture_output=True,
        text=True,
        cwd=REPO,
        env=clean_env(),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    hint, *game = done.stdout.splitlines()
    assert 'make play ARGS="--size 4' in hint and "--help" in hint
    assert "Tic-tac-toe on 4x4: 4 in a row wins." in game
