"""``python -m bot review`` and ``replay`` on a stored game, run as a user runs them (a fresh process)."""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from bot.db import Database
from bot.db.migrate import upgrade_to_head
from bot.services import Actor, First, GameService, Place
from tests.cli.conftest import RunCli, bot_command, clean_env

HERE = Place(1_000_000_000_000_001, 2_000_000_000_000_001)
ALICE = Actor(3_000_000_000_000_001, "Alice")
BOB = Actor(3_000_000_000_000_002, "Bob")
CELLS = ["a1", "b1", "a2", "b2", "a3"]
"""X wins down column a; O's b1 (move 2) was the mistake: only b2 would have held the draw."""

REVIEW_KEYS = ["game", "ply", "cell", "name", "mark", "exact", "before", "after", "mistake", "best"]


def stored_game(url: str) -> int:
    async def play() -> int:
        await upgrade_to_head(url)
        service = GameService(Database(url))
        try:
            game = await service.challenge(HERE, ALICE, BOB, first=First.ME)
            await service.accept(HERE, BOB, game.id)
            for ply, cell in enumerate(CELLS):
                game = await service.move(HERE, ALICE if ply % 2 == 0 else BOB, cell)
            return game.id
        finally:
            await service.close()

    return asyncio.run(play())


def test_review_json_is_one_object_per_move(run_cli: RunCli, tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    game_id = stored_game(url)
    done = run_cli("review", str(game_id), "--json", env={"DATABASE_URL": url})
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [list(line) for line in lines] == [REVIEW_KEYS] * len(CELLS)
    assert [line["name"] for line in lines] == CELLS
    assert [line["ply"] for line in lines] == list(range(len(CELLS)))
    assert [line["mark"] for line in lines] == ["X", "O", "X", "O", "X"]
    assert {line["game"] for line in lines} == {game_id}
    assert all(line["exact"] for line in lines)
    assert [line["mistake"] for line in lines] == [False, True, False, False, False]
    second = lines[1]
    assert second["before"] == {"value": "draw", "plies": 8}
    assert second["after"]["value"] == "loss" and second["best"] == [4]
    assert lines[-1]["after"] == {"value": "win", "plies": 1}


def test_review_text_states_the_mistake_and_the_best_cell(run_cli: RunCli, tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    game_id = stored_game(url)
    done = run_cli("review", str(game_id), env={"DATABASE_URL": url})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("Bob's only mistake: move 2 (b1) turned a draw into a loss") for line in lines)
    assert any("b2 would have held the draw" in line for line in lines)
    moves = [line for line in lines if line.lstrip()[:2].rstrip(".").isdigit()]
    assert len(moves) == len(CELLS)
    assert "mistake" in moves[1] and "mistake" not in moves[0]


def test_replay_writes_the_gif(run_cli: RunCli, tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    game_id = stored_game(url)
    out = tmp_path / "game.gif"
    done = run_cli("replay", str(game_id), "--out", str(out), env={"DATABASE_URL": url})
    assert done.returncode == 0, done.stderr
    image = Image.open(io.BytesIO(out.read_bytes()))
    assert image.format == "GIF" and image.n_frames == len(CELLS) + 1


def test_an_unknown_game_exits_1_with_one_line(run_cli: RunCli, tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    stored_game(url)
    for args in (("review", "999"), ("review", "999", "--json"), ("replay", "999", "--out", "x.gif")):
        done = run_cli(*args, env={"DATABASE_URL": url})
        assert done.returncode == 1
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1 and "999" in done.stderr
    assert not (tmp_path / "x.gif").exists()


def test_replay_to_dash_writes_the_gif_to_standard_output(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    game_id = stored_game(url)
    done = subprocess.run(
        bot_command("replay", str(game_id), "--out", "-"),
        capture_output=True,
        cwd=tmp_path,
        env=clean_env({"DATABASE_URL": url}),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    image = Image.open(io.BytesIO(done.stdout))
    assert image.format == "GIF" and image.n_frames == len(CELLS) + 1
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("name", ["game.png", "game.webp", "game.gif.txt"])
def test_replay_refuses_a_file_of_another_format(run_cli: RunCli, tmp_path: Path, name: str) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    game_id = stored_game(url)
    done = run_cli("replay", str(game_id), "--out", name, env={"DATABASE_URL": url})
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert "GIF" in line and ".gif" in line
    assert not (tmp_path / name).exists()


@pytest.mark.parametrize("name", ["GAME.GIF", "game"])
def test_replay_takes_a_gif_name_in_any_case_or_without_a_suffix(
    run_cli: RunCli, tmp_path: Path, name: str
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    game_id = stored_game(url)
    done = run_cli("replay", str(game_id), "--out", name, env={"DATABASE_URL": url})
    assert done.returncode == 0, done.stderr
    assert Image.open(tmp_path / name).format == "GIF"
