"""``python -m bot play`` records its games: what the database holds afterwards, read through the service.

Subprocess tests run the command as a user would, with ``DATABASE_URL`` pointing at
a test database (SQLite, and PostgreSQL where the fixture offers it) and the OS user
name set through ``LOGNAME``; in-process tests drive the service session directly.
"""

from __future__ import annotations

import asyncio
import io
import signal
import subprocess
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.cli import service_session
from bot.cli.local_ids import local_player_id
from bot.cli.play import play_game
from bot.cli.service_session import ServiceSession, service_sessions
from bot.cli.session import MoveRejectedError, PlayOptions, SessionFactory
from bot.cli.stats import run_stats
from bot.config import Settings
from bot.db import Database
from bot.engine import Board, Level, Mark
from bot.services import Actor, GameService, Place, PlayerOutcome, PlayerStats, ServiceSettings, utc_now
from bot.states import EndReason
from tests.cli.conftest import RunCli, bot_command, clean_env
from tests.cli.test_play import EVERY_CELL_IN_ORDER, final_board


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A database file that does not exist yet: ``play`` creates it and brings it to the newest schema."""
    return f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"


ALICE = "alice"
BOB = "bob"
GAME_COLUMNS = "id, channel_id, guild_id, status, end_reason, x_player_id, o_player_id"


def as_user(name: str, database_url: str, **settings: str) -> dict[str, str]:
    """The environment of ``name`` playing against ``database_url``."""
    return {"LOGNAME": name, "USER": name, "DATABASE_URL": database_url, **settings}


def stats_of(database_url: str, name: str) -> PlayerStats:
    async def load() -> PlayerStats:
        service = GameService(Database(database_url))
        try:
            return await service.stats(local_player_id(name))
        finally:
            await service.close()

    return asyncio.run(load())


async def load_games(database_url: str) -> list[dict[str, Any]]:
    """Every stored game, oldest first, as plain rows."""
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as connection:
            rows = await connection.execute(text(f"SELECT {GAME_COLUMNS} FROM games"))
            return sorted((dict(row._mapping) for row in rows), key=lambda row: int(row["id"]))
    finally:
        await engine.dispose()


def games_in(database_url: str) -> list[dict[str, Any]]:
    return asyncio.run(load_games(database_url))


def live_games(database_url: str) -> list[dict[str, Any]]:
    return [row for row in games_in(database_url) if row["status"] in ("pending", "active")]


def replayed(database_url: str, game_id: int) -> tuple[Board, list[int | None]]:
    """The final board of a stored game, replayed from its moves, and who made each move."""

    async def load() -> tuple[Board, list[int | None]]:
        service = GameService(Database(database_url))
        try:
            history = await service.history(game_id)
        finally:
            await service.close()
        board = Board.empty(history.game.size)
        for move in history.moves:
            assert move.mark is board.turn
            board = board.play(move.cell)
        return board, [move.user_id for move in history.moves]

    return asyncio.run(load())


def perfect_record(stats: PlayerStats) -> tuple[int, int, int]:
    [record] = [entry.record for entry in stats.vs_bot if entry.level is Level.PERFECT]
    return record.wins, record.losses, record.draws


@pytest.mark.parametrize("human", [Mark.X, Mark.O])
def test_a_full_game_is_stored_and_counts_in_the_players_stats(
    run_cli: RunCli, database_url: str, human: Mark
) -> None:
    done = run_cli(
        "play", "--first", human.value.lower(), input=EVERY_CELL_IN_ORDER, env=as_user(ALICE, database_url)
    )
    assert done.returncode == 0 and done.stderr == ""
    shown = final_board(done.stdout)
    assert shown.is_over and shown.winner is not human

    me = local_player_id(ALICE)
    [game] = games_in(database_url)
    assert game["status"] == "finished" and game["guild_id"] is None
    assert game["end_reason"] == ("full" if shown.winner is None else "line")
    assert (game["x_player_id"], game["o_player_id"]) == ((me, None) if human is Mark.X else (None, me))
    stored, movers = replayed(database_url, game["id"])
    assert stored == shown
    assert movers == [me if ply % 2 == (human is Mark.O) else None for ply in range(len(movers))]

    stats = stats_of(database_url, ALICE)
    assert stats.display_name == ALICE
    draws = int(shown.winner is None)
    assert perfect_record(stats) == (0, 1 - draws, draws)
    assert stats.vs_humans.games == 0
    [recent] = stats.recent
    assert recent.game_id == game["id"] and recent.level is Level.PERFECT and recent.opponent_id is None
    assert live_games(database_url) == []


def test_end_of_input_after_a_move_resigns_and_counts_as_a_loss(run_cli: RunCli, sqlite_url: str) -> None:
    database_url = sqlite_url
    done = run_cli("play", input="5\n", env=as_user(ALICE, database_url))
    assert done.returncode == 0 and done.stderr == ""
    *_, left, stored = done.stdout.strip().splitlines()
    assert left.startswith("End of input: you resigned") and stored.startswith("This was game ")
    [game] = games_in(database_url)
    assert (game["status"], game["end_reason"]) == ("finished", "resign")
    stats = stats_of(database_url, ALICE)
    assert perfect_record(stats) == (0, 1, 0)
    assert stats.recent[0].outcome is PlayerOutcome.LOSS and stats.recent[0].end_reason is EndReason.RESIGN
    assert live_games(database_url) == []


def test_quitting_before_the_first_move_cancels_and_does_not_count(run_cli: RunCli, sqlite_url: str) -> None:
    database_url = sqlite_url
    done = run_cli("play", "--first", "o", input="q\n", env=as_user(ALICE, database_url))
    assert done.returncode == 0 and done.stderr == ""
    assert "The engine plays" in done.stdout
    [game] = games_in(database_url)
    assert (game["status"], game["end_reason"]) == ("cancelled", "cancel")
    stats = stats_of(database_url, ALICE)
    assert perfect_record(stats) == (0, 0, 0) and stats.recent == ()
    assert live_games(database_url) == []


def test_runs_of_the_same_user_accumulate_and_other_users_keep_their_own(
    run_cli: RunCli, sqlite_url: str
) -> None:
    """Each run quits after one move, so each is a loss by resignation."""
    database_url = sqlite_url
    for name in (ALICE, BOB, ALICE):
        done = run_cli("play", input="5\nq\n", env=as_user(name, database_url))
        assert done.returncode == 0 and done.stderr == ""
    assert perfect_record(stats_of(database_url, ALICE)) == (0, 2, 0)
    assert perfect_record(stats_of(database_url, BOB)) == (0, 1, 0)
    games = games_in(database_url)
    assert [game["x_player_id"] for game in games] == [local_player_id(n) for n in (ALICE, BOB, ALICE)]
    assert len({game["channel_id"] for game in games}) == 3

    shown = run_cli("stats", env=as_user(ALICE, database_url))
    assert shown.returncode == 0 and shown.stderr == ""
    lines = shown.stdout.splitlines()
    assert lines[0] == f"{ALICE} (player {local_player_id(ALICE)})"
    assert "  perfect 0 won, 2 lost, 0 drawn" in lines
    assert sum("loss by resignation" in line for line in lines) == 2


def test_stats_of_someone_who_never_played(sqlite_url: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_stats(Settings(database_url=sqlite_url), "nobody", out, err) == 0
    assert out.getvalue() == "nobody has not played yet; play with `python -m bot play`.\n"
    assert err.getvalue() == ""


def test_stats_with_an_unusable_database_gives_one_line(run_cli: RunCli) -> None:
    done = run_cli("stats", env=as_user(ALICE, "sqlite+aiosqlite:////nonexistent/dir/ttt.sqlite3"))
    assert done.returncode == 1 and done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("Could not upgrade the database at")


@pytest.mark.parametrize(
    ("url", "settings", "says"),
    [
        ("sqlite+aiosqlite:////nonexistent/dir/ttt.sqlite3", {}, "Could not upgrade the database at"),
        ("postgresql+asyncpg://postgres@127.0.0.1:9/ttt", {}, "Could not upgrade the database at"),
        ("sqlite+aiosqlite:////nonexistent/dir/ttt.sqlite3", {"AUTO_MIGRATE": "false"}, "Could not open"),
        ("empty", {"AUTO_MIGRATE": "false"}, "is not on the newest schema; run `python -m bot migrate`"),
    ],
)
def test_a_database_that_cannot_be_used_gives_one_line_and_exit_1(
    run_cli: RunCli, sqlite_url: str, url: str, settings: dict[str, str], says: str
) -> None:
    database_url = sqlite_url if url == "empty" else url
    done = run_cli("play", input="5\n", env=as_user(ALICE, database_url, **settings))
    assert done.returncode == 1
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert says in line and "Traceback" not in line


# In process: the session itself.


@pytest.fixture
def open_session(database_url: str, monkeypatch: pytest.MonkeyPatch) -> SessionFactory:
    monkeypatch.setenv("LOGNAME", ALICE)
    return service_sessions(Settings(database_url=database_url))


def test_two_terminals_play_at_once_and_unfinished_games_are_cancelled_at_exit(
    open_session: SessionFactory, database_url: str
) -> None:
    async def both() -> list[int | None]:
        options = PlayOptions(seed=1)
        async with open_session(options) as first, open_session(options) as second:
            assert isinstance(first, ServiceSession) and isinstance(second, ServiceSession)
            for session in (first, second):
                await session.play(4)
                await session.reply()
                assert not session.is_over
            live = [game for game in await load_games(database_url) if game["status"] == "active"]
            assert len(live) == 2
            return [first.game_id, second.game_id]

    ids = asyncio.run(both())
    games = games_in(database_url)
    assert [game["id"] for game in games] == ids
    assert [(game["status"], game["end_reason"]) for game in games] == [("cancelled", "cancel")] * 2


def test_a_channel_holding_a_live_game_is_skipped(
    open_session: SessionFactory, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken, free = 1234, 5678
    drawn = iter([taken, taken, free])
    monkeypatch.setattr(service_session, "terminal_channel_id", lambda: next(drawn))

    async def run() -> None:
        service = GameService(Database(database_url), ServiceSettings(start_cooldown_seconds=0))
        try:
            await service.start_vs_bot(Place(None, taken), Actor(local_player_id(BOB), BOB))
        finally:
            await service.close()
        async with open_session(PlayOptions()) as session:
            await session.play(0)

    asyncio.run(run())
    assert sorted(game["channel_id"] for game in live_games(database_url)) == [taken]
    assert [game["channel_id"] for game in games_in(database_url)] == [taken, free]


def test_a_game_ended_on_time_elsewhere_refuses_the_next_move_and_says_so(
    open_session: SessionFactory, database_url: str
) -> None:
    async def run() -> tuple[str, bool, str | None]:
        async with open_session(PlayOptions(seed=3)) as session:
            assert isinstance(session, ServiceSession)
            await session.play(4)
            await session.reply()
            later = utc_now() + timedelta(hours=1)
            sweeper = GameService(Database(database_url), clock=lambda: later)
            try:
                [ended] = await sweeper.sweep()
            finally:
                await sweeper.close()
            assert ended.id == session.game_id
            with pytest.raises(MoveRejectedError) as refused:
                await session.play(next(iter(session.board.legal_moves)))
            return str(refused.value), session.is_over, session.end_note

    message, over, note = asyncio.run(run())
    assert message == "This game is over."
    assert over and note == "The engine wins on time."
    [game] = games_in(database_url)
    assert (game["status"], game["end_reason"]) == ("finished", "timeout")


def test_ctrl_c_at_the_prompt_resigns_a_started_game(open_session: SessionFactory, database_url: str) -> None:
    lines = ["5\n"]

    def read_line() -> str:
        if not lines:
            raise KeyboardInterrupt
        return lines.pop(0)

    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        asyncio.run(play_game(PlayOptions(seed=1), read_line, out, open_session=open_session))
    said = out.getvalue().strip().splitlines()
    assert said[-2] == "Interrupted; you resigned, so the engine wins (it counts as a loss)."
    assert said[-1].startswith("This was game ")
    [game] = games_in(database_url)
    assert (game["status"], game["end_reason"]) == ("finished", "resign")


def test_an_interrupt_while_the_engine_thinks_leaves_no_live_game(
    open_session: SessionFactory, database_url: str
) -> None:
    """Cancelled as asyncio cancels the main task on Ctrl-C: before the first move, the game is cancelled."""

    async def run() -> None:
        async with open_session(PlayOptions(human=Mark.O, seed=2)) as session:
            assert session.board.ply == 0
            raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(run())
    [game] = games_in(database_url)
    assert (game["status"], game["end_reason"]) == ("cancelled", "cancel")


def test_ctrl_c_while_the_engine_thinks_says_the_game_is_resigned(sqlite_url: str, tmp_path: Path) -> None:
    """A real SIGINT while a 5x5 reply is searched: the player is told, once, what became of the game."""
    with subprocess.Popen(
        bot_command("play", "--size", "5"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=clean_env(as_user(ALICE, sqlite_url, ENGINE_BUDGET_MS="4000")),
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("c3\n")
        proc.stdin.flush()
        for line in proc.stdout:
            if line.startswith("The engine is thinking"):
                break
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert err == ""
    said = rest.strip().splitlines()
    assert "The engine plays" not in rest
    assert said[0] == "Interrupted; you resigned, so the engine wins (it counts as a loss)."
    [game] = games_in(sqlite_url)
    assert (game["status"], game["end_reason"]) == ("finished", "resign")
    assert said[1].startswith(f"This was game {game['id']}: ")
