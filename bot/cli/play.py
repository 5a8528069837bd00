"""``python -m bot play``: one game against the engine in the terminal (contract section 1).

The loop reads one move per line, shows the board after every move, and ends cleanly on
``q``, on end of input, or when the game is over. It owns no rules: moves go through a
:class:`~bot.cli.session.GameSession`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TextIO

from bot.cli.render import describe_cells, render_board
from bot.cli.session import GameSession, MoveRejected, PlayOptions, SessionFactory, local_session
from bot.engine import Board, InvalidCell, Mark, format_cell, parse_cell

QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "h", "help"})
_K_WORDS = {3: "three", 4: "four", 5: "five"}


class TerminalGame:
    """Talks to the player through ``read_line``/``out`` and to the game through ``session``."""

    def __init__(self, session: GameSession, read_line: Callable[[], str], out: TextIO, echo: bool) -> None:
        self.session = session
        self.read_line = read_line
        self.out = out
        self.echo = echo

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def cell_hint(self) -> str:
        size = self.session.board.size
        last = format_cell(size * size - 1, size)
        return f"Type a cell as its number (1-{size * size}) or column and row (a1-{last}); q quits."

    def introduce(self) -> None:
        board, human = self.session.board, self.session.human
        engine = human.other
        order = "you move first" if human is Mark.X else "the engine moves first"
        self.say(
            f"Tic-tac-toe on {board.size}x{board.size}: {_K_WORDS.get(board.k, str(board.k))} in a row wins. "
            f"You are {human.value} and {order}; the engine plays {engine.value} at level "
            f"{self.session.level.value}."
        )
        self.say(self.cell_hint())
        self.say()
        self.say(render_board(board))

    async def run(self) -> None:
        self.introduce()
        last: int | None = None
        while not self.session.board.is_over:
            if self.session.board.turn is self.session.human:
                move = await self.human_move()
                if move is None:
                    await self.session.abandon()
                    return
                last = move
            else:
                if self.session.board.size > 3:
                    self.say("The engine is thinking...")
                last = await self.session.reply()
                self.say(f"The engine plays {format_cell(last, self.session.board.size)}.")
            self.say()
            self.say(render_board(self.session.board, last))
        self.say()
        self.say(self.result(self.session.board))

    async def human_move(self) -> int | None:
        """Ask until a move is made; None when the player quits or input ends."""
        board = self.session.board
        while True:
            self.out.write(f"Your move ({self.session.human.value}): ")
            self.out.flush()
            line = self.read_line()
            if not line:
                self.say()
                self.say("End of input: the game is left unfinished.")
                return None
            text = line.strip()
            if self.echo:
                self.say(text)
            if text.lower() in QUIT_WORDS:
                self.say("You quit; the game is left unfinished.")
                return None
            if text.lower() in HELP_WORDS:
                self.say(self.cell_hint())
                continue
            try:
                cell = parse_cell(text, board.size)
                await self.session.play(cell)
            except (InvalidCell, MoveRejected) as error:
                self.say(f"{error} Try again.")
                continue
            return cell

    def result(self, board: Board) -> str:
        winner = board.winner
        line = describe_cells(board.winning_cells, board.size)
        if winner is None:
            return "It's a draw."
        if winner is self.session.human:
            return f"You win with {line}!"
        return f"The engine wins with {line}."


async def play_game(
    options: PlayOptions,
    read_line: Callable[[], str],
    out: TextIO,
    echo: bool = False,
    open_session: SessionFactory = local_session,
) -> None:
    async with open_session(options) as session:
        await TerminalGame(session, read_line, out, echo).run()


def run_play(
    options: PlayOptions, stdin: TextIO, stdout: TextIO, open_session: SessionFactory = local_session
) -> int:
    """Play one game on the terminal; inputs that are not a terminal are echoed so transcripts read well."""
    echo = not stdin.isatty()
    asyncio.run(play_game(options, stdin.readline, stdout, echo=echo, open_session=open_session))
    return 0
