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

from bot.cli.exits import EXIT_USAGE
from bot.cli.service_session import terminal_service
from bot.cli.session import SessionUnavailableError
from bot.config import Settings
from bot.i18n import Texts, terminal_texts
from bot.review_words import cells_text, estimates_note, header_text, summary_lines, verdict_text
from bot.services import EnginePool, GameReview, GameService, MoveReview, NotDone, PlayerView, Replay
from bot.services.picture_pool import PicturePool
from bot.services.review import move_record

STDOUT = "-"
"""``--out -``: the GIF goes to standard output."""
GIF_SUFFIXES = frozenset({"", ".gif"})
"""The file names ``--out`` takes: ending in .gif (any case), or with no suffix at all."""


def review_record(game_id: int, move: MoveReview) -> dict[str, Any]:
    """One line of ``review --json``, keys in their documented order."""
    return {"game": game_id, **move_record(move)}


def _plain(side: PlayerView) -> str:
    return side.display_name


def move_line(texts: Texts, move: MoveReview) -> str:
    """``  5. X c3  Alice: a draw before, a loss in 4 moves after  mistake (best: b3 or a2)``."""
    line = texts.gettext(
        "{number}. {mark} {cell} {name}: {before} before, {after} after",
        number=f"{move.number:>3}",
        mark=move.mark.value,
        cell=f"{move.name:<3}",
        name=move.player.display_name,
        before=verdict_text(texts, move.before),
        after=verdict_text(texts, move.after),
    )
    if move.mistake:
        line += "  " + texts.gettext("mistake (best: {best})", best=cells_text(texts, move.best_names))
    if not move.exact:
        line += "  " + texts.gettext("(not proven)")
    return line


def review_lines(texts: Texts, review: GameReview) -> list[str]:
    """The review as the terminal prints it: the game, each side's mistakes, then every move."""
    game = review.game
    lines = [
        texts.gettext("Review of game {game}", game=game.id),
        header_text(texts, game, _plain),
        *summary_lines(texts, review, _plain),
    ]
    if not review.exact:
        lines.append(estimates_note(texts))
    return lines + [move_line(texts, move) for move in review.moves]


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


def _problem(error: Exception) -> str:
    """One line saying why: a refusal in the terminal's language, a database problem as it was put."""
    if isinstance(error, NotDone):
        return terminal_texts().message(error.template, error.params, plural=error.plural, count=error.count)
    return str(error)


def run_review(settings: Settings, game_id: int, as_json: bool, stdout: TextIO, stderr: TextIO) -> int:
    """Print the review of ``game_id``; exit 1 with one line when it cannot."""
    try:
        review = asyncio.run(_with_service(settings, game_id, replay=False))
    except (SessionUnavailableError, NotDone) as error:
        stderr.write(_problem(error) + "\n")
        return 1
    assert isinstance(review, GameReview)
    if as_json:
        stdout.writelines(json.dumps(review_record(game_id, move)) + "\n" for move in review.moves)
    else:
        stdout.write("\n".join(review_lines(terminal_texts(), review)) + "\n")
    return 0


def run_replay(settings: Settings, game_id: int, out: str, stdout: TextIO, stderr: TextIO) -> int:
    """Write the GIF of ``game_id`` to the file ``out`` (``-``: standard output).

    Exit status 2 when ``out`` names another picture format, 1 when the game cannot be
    replayed or the file written; each with one line on ``stderr``.
    """
    texts = terminal_texts()
    target = None if out == STDOUT else Path(out)
    if target is not None and target.suffix.lower() not in GIF_SUFFIXES:
        stderr.write(
            texts.gettext(
                "A replay is an animated GIF: name the file {file} with .gif at the end, "
                "or write - for standard output.",
                file=target.with_suffix(".gif").name,
            )
            + "\n"
        )
        return EXIT_USAGE
    try:
        replay = asyncio.run(_with_service(settings, game_id, replay=True))
    except (SessionUnavailableError, NotDone) as error:
        stderr.write(_problem(error) + "\n")
        return 1
    assert isinstance(replay, Replay)
    if target is None:
        stdout.flush()
        stdout.buffer.write(replay.gif)
        stdout.buffer.flush()
        return 0
    try:
        target.write_bytes(replay.gif)
    except OSError as error:
        problem = str(error.strerror or error)
        stderr.write(texts.gettext("Cannot write {file}: {problem}", file=target, problem=problem) + "\n")
        return 1
    written = texts.ngettext(
        "Wrote game {game} ({count} move, {size} bytes) to {file}.",
        "Wrote game {game} ({count} moves, {size} bytes) to {file}.",
        len(replay.history.moves),
        game=game_id,
        size=len(replay.gif),
        file=target,
    )
    stdout.write(written + "\n")
    return 0
