"""``python -m bot play``: one game against the engine in the terminal (docs/terminal.md).

The loop reads one move per line, shows the board after every move, and ends cleanly on
``q``, on end of input, or when the game is over. It owns no rules: moves go through a
:class:`~bot.cli.session.GameSession`.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from bot.cli.exits import EXIT_INTERRUPTED
from bot.cli.logs import first_line
from bot.cli.program import program_name
from bot.cli.render import LEVEL_NAMES, cell_error_text, describe_cells, render_board
from bot.cli.session import (
    GameSession,
    MoveRejectedError,
    PlayOptions,
    SessionFactory,
    SessionUnavailableError,
    local_session,
)
from bot.engine import Board, InvalidCellError, Mark, format_cell, parse_cell
from bot.i18n import N_, terminal_texts

log = logging.getLogger(__name__)

QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "h", "help"})


class GameInterruptedError(KeyboardInterrupt):
    """Ctrl-C ended the game, and the player was told what became of it."""


def _stop_cancelling() -> None:
    """The cancellation asyncio sends for Ctrl-C is handled here: later awaits of this task may run."""
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()


class _Stop(enum.Enum):
    """Why the player's turn ended without a move; a leaving player's value frames what the session says."""

    QUIT = N_("You quit; {outcome}.")
    END_OF_INPUT = N_("End of input: {outcome}.")
    INTERRUPTED = N_("Interrupted; {outcome}.")
    ENDED = "ended"
    """The game ended meanwhile (say, on time), and the refusal of the move said so."""


@contextmanager
def _interruptible() -> Iterator[None]:
    """Let Ctrl-C interrupt the blocking read of a line at once.

    ``asyncio.run`` answers Ctrl-C by cancelling the main task, which cannot happen
    while the loop is blocked reading: the player would have to press Enter first.
    While reading, nothing else runs, so Python's own handler (raise
    KeyboardInterrupt here) is safe; asyncio's handler is back for everything else.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class TerminalGame:
    """Talks to the player through ``read_line``/``out`` and to the game through ``session``."""

    def __init__(self, session: GameSession, read_line: Callable[[], str], out: TextIO, echo: bool) -> None:
        self.session = session
        self.read_line = read_line
        self.out = out
        self.echo = echo
        self.texts = terminal_texts()

    def say(self, text: str = "") -> None:
        """Write a line to the player."""
        self.out.write(text + "\n")
        self.out.flush()

    def cell_hint(self) -> str:
        """How to name a cell on this board, for the prompt."""
        size = self.session.board.size
        last = format_cell(size * size - 1, size)
        return self.texts.gettext(
            "Type a cell as its number (1-{cells}) or column and row (a1-{last}); q quits.",
            cells=size * size,
            last=last,
        )

    def introduce(self) -> None:
        """Tell the player the rules, the level and who opens."""
        board, human, texts = self.session.board, self.session.human, self.texts
        engine = human.other
        rules = texts.gettext("Tic-tac-toe on {size}x{size}: {k} in a row wins.", size=board.size, k=board.k)
        if human is Mark.X:
            sides = texts.gettext(
                "You are {mark} and you move first; the engine plays {engine} at level {level}.",
                mark=human.value,
                engine=engine.value,
                level=texts.gettext(LEVEL_NAMES[self.session.level]),
            )
        else:
            sides = texts.gettext(
                "You are {mark} and the engine moves first; it plays {engine} at level {level}.",
                mark=human.value,
                engine=engine.value,
                level=texts.gettext(LEVEL_NAMES[self.session.level]),
            )
        self.say(rules)
        self.say(sides)
        self.say(self.cell_hint())
        self.say()
        self.say(render_board(board, texts=texts))

    async def run(self) -> None:
        """Play the game to its end: the human's moves from the input, the engine's replies."""
        self.introduce()
        last: int | None = None
        while not self.session.is_over:
            if self.session.board.turn is self.session.human:
                move = await self.human_move()
                if move is _Stop.ENDED:
                    break
                if isinstance(move, _Stop):
                    await self.leave(move)
                    if move is _Stop.INTERRUPTED:
                        raise GameInterruptedError
                    return
                last = move
            else:
                last = await self.engine_move()
            self.say()
            self.say(render_board(self.session.board, last, self.texts))
        self.say()
        self.say(self.result(self.session.board))
        self.name_the_game()

    async def engine_move(self) -> int:
        """The engine's reply, said once it is made; Ctrl-C while it thinks leaves the game."""
        if self.session.board.size > 3:
            self.say(self.texts.gettext("The engine is thinking..."))
        try:
            cell = await self.session.reply()
        except asyncio.CancelledError:
            _stop_cancelling()
            self.say()
            await self.leave(_Stop.INTERRUPTED)
            raise GameInterruptedError from None
        self.say(
            self.texts.gettext("The engine plays {cell}.", cell=format_cell(cell, self.session.board.size))
        )
        return cell

    async def leave(self, stop: _Stop) -> None:
        """The player left before the end: close the game and say what became of it."""
        outcome = await self.session.abandon()
        self.say(self.texts.gettext(stop.value, outcome=outcome))
        self.name_the_game()

    def name_the_game(self) -> None:
        """Say the number of a game that was stored with a result, and how to look at it again."""
        game = self.session.recorded_game
        if game is None:
            return
        program = program_name()
        self.say(
            self.texts.gettext(
                "This was game {game}: `{review}` goes through it move by move, `{replay}` draws it.",
                game=game,
                review=f"{program} review {game}",
                replay=f"{program} replay {game} --out game-{game}.gif",
            )
        )

    async def human_move(self) -> int | _Stop:
        """Ask until a move is made, the player leaves, or the game ends some other way."""
        while True:
            # Translators: the terminal's prompt for the player's move; keep the space at the end.
            self.out.write(self.texts.gettext("Your move ({mark}): ", mark=self.session.human.value))
            self.out.flush()
            try:
                with _interruptible():
                    line = self.read_line()
            except KeyboardInterrupt:
                self.say()
                return _Stop.INTERRUPTED
            if not line:
                self.say()
                return _Stop.END_OF_INPUT
            text = line.strip()
            if self.echo:
                self.say(text)
            if text.lower() in QUIT_WORDS:
                return _Stop.QUIT
            if text.lower() in HELP_WORDS:
                self.say(self.cell_hint())
                continue
            try:
                cell = parse_cell(text, self.session.board.size)
                await self.session.play(cell)
            except InvalidCellError as error:
                self.say(self.try_again(cell_error_text(self.texts, error, self.session.board.size)))
                continue
            except MoveRejectedError as error:
                if self.session.is_over:
                    self.say(str(error))
                    return _Stop.ENDED
                self.say(self.try_again(str(error)))
                continue
            return cell

    def try_again(self, problem: str) -> str:
        """The sentence after a rejected input: the problem, then an invitation to try again."""
        return self.texts.gettext("{problem} Try again.", problem=problem)

    def result(self, board: Board) -> str:
        """The sentence that ends the game: who won, a draw, or how it ended otherwise."""
        if self.session.end_note is not None:
            return self.session.end_note
        winner = board.winner
        line = describe_cells(board.winning_cells, board.size)
        if winner is None:
            return self.texts.gettext("It's a draw.")
        if winner is self.session.human:
            return self.texts.gettext("You win with {line}!", line=line)
        return self.texts.gettext("The engine wins with {line}.", line=line)


async def play_game(
    options: PlayOptions,
    read_line: Callable[[], str],
    out: TextIO,
    echo: bool = False,
    open_session: SessionFactory = local_session,
) -> None:
    """Play one game in the terminal with ``options``, reading lines with ``read_line``; the exit status."""
    async with open_session(options) as session:
        await TerminalGame(session, read_line, out, echo).run()


def run_play(
    options: PlayOptions,
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
    open_session: SessionFactory = local_session,
) -> int:
    """Play one game on the terminal; inputs that are not a terminal are echoed so transcripts read well.

    Exit status 1, with one line on ``stderr``, when the game cannot be opened or carried on;
    anything unforeseen is told the same way (its traceback goes to the DEBUG log).
    """
    echo = not stdin.isatty()
    try:
        asyncio.run(play_game(options, stdin.readline, stdout, echo=echo, open_session=open_session))
    except GameInterruptedError:
        return EXIT_INTERRUPTED
    except SessionUnavailableError as error:
        problem = str(error)
    except Exception as error:
        log.debug("The game stopped", exc_info=True)
        problem = terminal_texts().gettext("The game stopped: {problem}", problem=first_line(error))
    else:
        return 0
    stdout.flush()
    stderr.write(problem + "\n")
    return 1
