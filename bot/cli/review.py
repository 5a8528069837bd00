"""``python -m bot review GAME_ID [--json]`` and ``python -m bot replay GAME_ID --out FILE``.

Both read a stored game through the game service; the review is the same object
``/ttt review`` renders, the GIF the same picture ``/ttt replay`` posts.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TextIO

from bot.cli.service_session import terminal_service
from bot.cli.session import SessionUnavailable
from bot.config import Settings
from bot.engine import Outcome
from bot.services import EnginePool, GameReview, GameService, GameView, MoveReview, Refusal, Replay, Verdict
from bot.services.picture_pool import PicturePool


def review_record(game_id: int, move: MoveReview) -> dict[str, Any]:
    """One line of ``review --json``, keys in their documented order."""
    return {
        "game": game_id,
        "ply": move.ply,
        "cell": move.cell,
        "name": move.name,
        "mark": move.mark.value,
        "exact": move.exact,
        "before": {"value": move.before.value.value, "plies": move.before.plies},
        "after": {"value": move.after.value.value, "plies": move.after.plies},
        "mistake": move.mistake,
        "best": list(move.best),
    }


def verdict_words(verdict: Verdict) -> str:
    if verdict.value is Outcome.DRAW:
        return "a draw"
    return f"a {verdict.value.value} in {verdict.plies}"


_KEPT = {Outcome.WIN: "kept the win", Outcome.DRAW: "held the draw"}


def _either(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def mistake_sentence(move: MoveReview) -> str:
    """``move 5 (c3) turned a draw into a loss in 4; b3 or a2 held the draw``."""
    kept = _KEPT.get(move.before.value, "was best")
    return (
        f"move {move.number} ({move.name}) turned {verdict_words(move.before)} into "
        f"{verdict_words(move.after)}; {_either(move.best_names)} {kept}"
    )


def summary_lines(review: GameReview) -> list[str]:
    """The facts at the top of a review: each side's mistakes, the worst first-hand."""
    if not review.mistakes:
        return ["No mistakes: every move kept the value of the position."]
    lines = []
    for side in review.game.players:
        mistakes = review.mistakes_of(side.mark)
        if not mistakes:
            lines.append(f"{side.display_name} made no mistake.")
        elif len(mistakes) == 1:
            lines.append(f"{side.display_name}'s only mistake: {mistake_sentence(mistakes[0])}.")
        else:
            first = mistake_sentence(mistakes[0])
            lines.append(f"{side.display_name} made {len(mistakes)} mistakes; the first: {first}.")
    return lines


def _result(game: GameView) -> str:
    winner = game.winner
    if winner is not None:
        return f"{winner.display_name} ({winner.mark.value}) won."
    if game.result is not None:
        return "A draw."
    return "It ended without a result." if not game.is_live else "It is still going on."


def move_line(move: MoveReview) -> str:
    line = (
        f"{move.number:>3}. {move.mark.value} {move.name:<3} {move.player.display_name}: "
        f"{verdict_words(move.before)} before, {verdict_words(move.after)} after"
    )
    if move.mistake:
        line += f"  mistake (best: {_either(move.best_names)})"
    if not move.exact:
        line += "  (not proven: the search hit its time limit)"
    return line


def review_lines(review: GameReview) -> list[str]:
    game = review.game
    header = (
        f"Game {game.id} ({game.size}x{game.size}): {game.x.display_name} (X) against "
        f"{game.o.display_name} (O). {_result(game)}"
    )
    lines = [header, *summary_lines(review)]
    if not review.exact:
        lines.append("Some verdicts are estimates: on this board the search stops at a time limit.")
    return lines + [move_line(move) for move in review.moves]


async def _with_service(settings: Settings, game_id: int, replay: bool) -> GameReview | Replay:
    """Ask the service on a worker thread of this process: one question, no worker process to start."""
    thread = ThreadPoolExecutor(1, thread_name_prefix="terminal")
    engine = EnginePool(1, settings.engine_budget_ms, executor=thread)
    pictures = PicturePool(thread)
    try:
        async with terminal_service(
            settings, budget_ms=settings.engine_budget_ms, engine=engine, pictures=pictures
        ) as service:
            return await _ask(service, game_id, replay)
    finally:
        thread.shutdown(wait=True, cancel_futures=True)


async def _ask(service: GameService, game_id: int, replay: bool) -> GameReview | Replay:
    return await (service.replay(game_id) if replay else service.review(game_id))


def run_review(settings: Settings, game_id: int, as_json: bool, stdout: TextIO, stderr: TextIO) -> int:
    """Print the review of ``game_id``; exit 1 with one line when it cannot."""
    try:
        review = asyncio.run(_with_service(settings, game_id, replay=False))
    except (SessionUnavailable, Refusal) as error:
        stderr.write(f"{error}\n")
        return 1
    assert isinstance(review, GameReview)
    if as_json:
        stdout.writelines(json.dumps(review_record(game_id, move)) + "\n" for move in review.moves)
    else:
        stdout.write("\n".join(review_lines(review)) + "\n")
    return 0


def run_replay(settings: Settings, game_id: int, out: Path, stdout: TextIO, stderr: TextIO) -> int:
    """Write the GIF of ``game_id`` to ``out``; exit 1 with one line when it cannot."""
    try:
        replay = asyncio.run(_with_service(settings, game_id, replay=True))
    except (SessionUnavailable, Refusal) as error:
        stderr.write(f"{error}\n")
        return 1
    assert isinstance(replay, Replay)
    try:
        out.write_bytes(replay.gif)
    except OSError as error:
        stderr.write(f"Cannot write {out}: {error.strerror or error}\n")
        return 1
    moves = len(replay.history.moves)
    stdout.write(f"Wrote game {game_id} ({moves} moves, {len(replay.gif)} bytes) to {out}.\n")
    return 0
