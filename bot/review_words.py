"""The sentences of a game review, shared by the Discord and terminal adapters, in the reader's language.

A review says the same in both places: each side's mistakes ("Alice's only mistake:
move 5 (c3) turned a draw into a loss in 4 moves; b3 or a2 would have held the draw."), the value
before and after each move. Only names are shown differently (escaped for Discord's
markdown), so each function takes the adapter's way of showing a player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine import Outcome
from bot.i18n import Texts
from bot.services import GameReview, GameView, MoveReview, PlayerView, Verdict
from bot.states import EndReason, GameResult

ShowName = Callable[[PlayerView], str]


def verdict_text(texts: Texts, verdict: Verdict) -> str:
    """``a win in 5 moves``, ``a draw``, ``a loss in 4 moves``."""
    if verdict.value is Outcome.WIN:
        return texts.ngettext("a win in {count} move", "a win in {count} moves", verdict.plies)
    if verdict.value is Outcome.LOSS:
        return texts.ngettext("a loss in {count} move", "a loss in {count} moves", verdict.plies)
    return texts.gettext("a draw")


def cells_text(texts: Texts, names: Sequence[str]) -> str:
    """``b3``, ``b3 or a2``, ``a1, b2 or c3``."""
    if len(names) == 1:
        return names[0]
    return texts.gettext("{cells} or {last}", cells=", ".join(names[:-1]), last=names[-1])


def mistake_text(texts: Texts, move: MoveReview) -> str:
    """``move 5 (c3) turned a draw into a loss in 4 moves; b3 or a2 would have held the draw``."""
    params = {
        "number": move.number,
        "cell": move.name,
        "before": verdict_text(texts, move.before),
        "after": verdict_text(texts, move.after),
        "best": cells_text(texts, move.best_names),
    }
    if move.before.value is Outcome.WIN:
        return texts.gettext(
            "move {number} ({cell}) turned {before} into {after}; {best} would have kept the win", **params
        )
    return texts.gettext(
        "move {number} ({cell}) turned {before} into {after}; {best} would have held the draw", **params
    )


def summary_lines(texts: Texts, review: GameReview, show: ShowName) -> list[str]:
    """Each side's mistakes in a sentence, or that nobody made one."""
    if not review.mistakes:
        return [texts.gettext("No mistakes: every move kept the value of the position.")]
    lines = []
    for side in review.game.players:
        mistakes = review.mistakes_of(side.mark)
        if not mistakes:
            lines.append(texts.gettext("{name} made no mistake.", name=show(side)))
        elif len(mistakes) == 1:
            mistake = mistake_text(texts, mistakes[0])
            lines.append(texts.gettext("{name}'s only mistake: {mistake}.", name=show(side), mistake=mistake))
        else:
            lines.append(
                texts.ngettext(
                    "{name} made {count} mistake; the first: {mistake}.",
                    "{name} made {count} mistakes; the first: {mistake}.",
                    len(mistakes),
                    name=show(side),
                    mistake=mistake_text(texts, mistakes[0]),
                )
            )
    return lines


def result_text(texts: Texts, game: GameView, show: ShowName) -> str:
    """How the game ended: ``Alice (X) won``, ``a draw``, ``ended without a result``."""
    winner = game.winner
    if winner is None:
        if game.result is GameResult.DRAW:
            return texts.gettext("a draw")
        if game.is_live:
            return texts.gettext("still going on")
        return texts.gettext("ended without a result")
    params = {"name": show(winner), "mark": winner.mark.value}
    if game.end_reason is EndReason.RESIGN:
        return texts.gettext("{name} ({mark}) won by resignation", **params)
    if game.end_reason is EndReason.TIMEOUT:
        return texts.gettext("{name} ({mark}) won on time", **params)
    return texts.gettext("{name} ({mark}) won", **params)


def header_text(texts: Texts, game: GameView, show: ShowName) -> str:
    """``Alice (X) against Bob (O) on 3x3: Bob (O) won.``"""
    return texts.gettext(
        "{x} (X) against {o} (O) on {size}x{size}: {result}.",
        x=show(game.x),
        o=show(game.o),
        size=game.size,
        result=result_text(texts, game, show),
    )


def estimates_note(texts: Texts) -> str:
    """The note that verdicts marked "not proven" are estimates."""
    return texts.gettext("Verdicts marked “not proven” are estimates: the search stopped at its time limit.")
