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

from bot.cli.render import refusal_text
from bot.cli.service_session import terminal_service
from bot.cli.session import SessionUnavailable
from bot.config import Settings
from bot.engine import Outcome
from bot.i18n import Texts, terminal_texts
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


def verdict_words(texts: Texts, verdict: Verdict) -> str:
    if verdict.value is Outcome.WIN:
        return texts.ngettext("a win in {count} move", "a win in {count} moves", verdict.plies)
    if verdict.value is Outcome.LOSS:
        return texts.ngettext("a loss in {count} move", "a loss in {count} moves", verdict.plies)
    return texts.gettext("a draw")


def _either(texts: Texts, names: tuple[str, ...]) -> str:
    if len(names) == 1:
        return names[0]
    return texts.gettext("{some} or {last}", some=", ".join(names[:-1]), last=names[-1])


def mistake_sentence(texts: Texts, move: MoveReview) -> str:
    """``move 5 (c3) turned a draw into a loss in 4 moves; b3 or a2 held the draw``."""
    params = {
        "number": move.number,
        "cell": move.name,
        "before": verdict_words(texts, move.before),
        "after": verdict_words(texts, move.after),
        "best": _either(texts, move.best_names),
    }
    if move.before.value is Outcome.WIN:
        return texts.gettext(
            "move {number} ({cell}) turned {before} into {after}; {best} kept the win", **params
        )
    if move.before.value is Outcome.DRAW:
        return texts.gettext(
            "move {number} ({cell}) turned {before} into {after}; {best} held the draw", **params
        )
    return texts.gettext("move {number} ({cell}) turned {before} into {after}; {best} was best", **params)


def summary_lines(texts: Texts, review: GameReview) -> list[str]:
    """The facts at the top of a review: each side's mistakes, the worst first-hand."""
    if not review.mistakes:
        return [texts.gettext("No mistakes: every move kept the value of the position.")]
    lines = []
    for side in review.game.players:
        mistakes = review.mistakes_of(side.mark)
        name = side.display_name
        if not mistakes:
            lines.append(texts.gettext("{name} made no mistake.", name=name))
        elif len(mistakes) == 1:
            first = mistake_sentence(texts, mistakes[0])
            lines.append(texts.gettext("{name}'s only mistake: {mistake}.", name=name, mistake=first))
        else:
            first = mistake_sentence(texts, mistakes[0])
            lines.append(
                texts.ngettext(
                    "{name} made {count} mistake; the first: {mistake}.",
                    "{name} made {count} mistakes; the first: {mistake}.",
                    len(mistakes),
                    name=name,
                    mistake=first,
                )
            )
    return lines


def _result(texts: Texts, game: GameView) -> str:
    winner = game.winner
    if winner is not None:
        return texts.gettext("{name} ({mark}) won.", name=winner.display_name, mark=winner.mark.value)
    if game.result is not None:
        return texts.gettext("A draw.")
    if not game.is_live:
        return texts.gettext("It ended without a result.")
    return texts.gettext("It is still going on.")


def move_line(texts: Texts, move: MoveReview) -> str:
    line = f"{move.number:>3}. {move.mark.value} {move.name:<3} " + texts.gettext(
        "{name}: {before} before, {after} after",
        name=move.player.display_name,
        before=verdict_words(texts, move.before),
        after=verdict_words(texts, move.after),
    )
    if move.mistake:
        line += "  " + texts.gettext("mistake (best: {best})", best=_either(texts, move.best_names))
    if not move.exact:
        line += "  " + texts.gettext("(not proven: the search hit its time limit)")
    return line


def review_lines(review: GameReview, texts: Texts | None = None) -> list[str]:
    """The review as the terminal prints it, in the terminal's language."""
    texts = texts or terminal_texts()
    game = review.game
    header = texts.gettext(
        "Game {game} ({size}x{size}): {x} (X) against {o} (O). {result}",
        game=game.id,
        size=game.size,
        x=game.x.display_name,
        o=game.o.display_name,
        result=_result(texts, game),
    )
    lines = [header, *summary_lines(texts, review)]
    if not review.exact:
        lines.append(
            texts.gettext("Some verdicts are estimates: on this board the search stops at a time limit.")
        )
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


def run_review(settings: Settings, game_id: int, as_json: bool, stdout: TextIO, stderr: TextIO) -> int:
    """Print the review of ``game_id``; exit 1 with one line when it cannot."""
    try:
        review = asyncio.run(_with_service(settings, game_id, replay=False))
    except SessionUnavailable as error:
        stderr.write(f"{error}\n")
        return 1
    except Refusal as error:
        stderr.write(refusal_text(terminal_texts(), error) + "\n")
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
    except SessionUnavailable as error:
        stderr.write(f"{error}\n")
        return 1
    except Refusal as error:
        stderr.write(refusal_text(terminal_texts(), error) + "\n")
        return 1
    assert isinstance(replay, Replay)
    texts = terminal_texts()
    try:
        out.write_bytes(replay.gif)
    except OSError as error:
        problem = error.strerror or str(error)
        stderr.write(texts.gettext("Cannot write {path}: {problem}", path=out, problem=problem) + "\n")
        return 1
    written = texts.ngettext(
        "Wrote game {game} ({count} move, {size} bytes) to {path}.",
        "Wrote game {game} ({count} moves, {size} bytes) to {path}.",
        len(replay.history.moves),
        game=game_id,
        size=texts.number(len(replay.gif)),
        path=out,
    )
    stdout.write(written + "\n")
    return 0
