"""The seam between the terminal game loop and whatever runs the game.

The loop in :mod:`bot.cli.play` only talks to a :class:`GameSession`, opened by a
factory of the :data:`SessionFactory` shape. :func:`local_session` plays straight
against the engine with no database (``play --no-db``); the default session, in
:mod:`bot.cli.service_session`, goes through the game service and records the game.
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Protocol

from bot.engine import DEFAULT_BUDGET_MS, Board, IllegalMoveError, Level, Mark, choose_move, format_cell
from bot.i18n import terminal_texts


class MoveRejectedError(Exception):
    """The human's move was refused; the message is written for the player."""


class SessionUnavailableError(Exception):
    """The game could not be opened or carried on (say, no database); the message is one line to show."""


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """What the player chose on the command line."""

    size: int = 3
    level: Level = Level.PERFECT
    human: Mark = Mark.X
    seed: int | None = None
    budget_ms: int = DEFAULT_BUDGET_MS


class GameSession(Protocol):
    """One game of a human against the engine, as the terminal loop sees it."""

    @property
    def board(self) -> Board:
        """The current position."""
        ...

    @property
    def human(self) -> Mark:
        """The human's mark; the engine has the other one."""
        ...

    @property
    def level(self) -> Level:
        """The engine's level."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the game has ended, on the board or otherwise."""
        ...

    @property
    def end_note(self) -> str | None:
        """Once over: a sentence for an ending the board does not show (a timeout), else None."""
        ...

    @property
    def recorded_game(self) -> int | None:
        """The stored game's number once it has ended with a result (for review and replay), else None."""
        ...

    async def play(self, cell: int) -> None:
        """Make the human's move on ``cell``; raise :class:`MoveRejectedError` when it is not allowed."""
        ...

    async def reply(self) -> int:
        """Make the engine's move and return its cell."""
        ...

    async def abandon(self) -> str:
        """The human left (``q`` or end of input) before the game ended; say what became of the game.

        The answer completes a sentence: "You quit; <answer>."
        """
        ...


SessionFactory = Callable[[PlayOptions], AbstractAsyncContextManager[GameSession]]
"""Opens a session for the given options and closes it (and anything it holds) at the end."""


class LocalSession:
    """A game held in memory and played directly against the engine."""

    def __init__(self, options: PlayOptions) -> None:
        self._board = Board.empty(options.size)
        self._human = options.human
        self._level = options.level
        self._budget_ms = options.budget_ms
        self._rng = random.Random(options.seed)
        self.abandoned = False

    @property
    def board(self) -> Board:
        """The current position."""
        return self._board

    @property
    def human(self) -> Mark:
        """The human's mark; the engine has the other one."""
        return self._human

    @property
    def level(self) -> Level:
        """The engine's level."""
        return self._level

    @property
    def is_over(self) -> bool:
        """True once the board shows a win or a draw."""
        return self._board.is_over

    @property
    def end_note(self) -> str | None:
        """Always None: a game that is not stored ends only on the board."""
        return None

    @property
    def recorded_game(self) -> int | None:
        """Always None: this game is not stored."""
        return None

    async def play(self, cell: int) -> None:
        """Play the human's move on ``cell``; raise :class:`MoveRejectedError` when it is not allowed."""
        texts = terminal_texts()
        if self._board.turn is not self._human:
            raise MoveRejectedError(texts.gettext("It is the engine's turn."))
        if self._board[cell] is not None:
            taken = format_cell(cell, self._board.size)
            raise MoveRejectedError(texts.gettext("That cell ({cell}) is already taken.", cell=taken))
        try:
            self._board = self._board.play(cell)
        except IllegalMoveError:
            raise MoveRejectedError(texts.gettext("This game is over.")) from None

    async def reply(self) -> int:
        """The engine's move, played on the board; searched on a thread, so Ctrl-C is heard meanwhile."""
        seed = self._rng.getrandbits(64)
        search = functools.partial(
            choose_move, self._board, self._level, seed=seed, budget_ms=self._budget_ms
        )
        cell = await asyncio.to_thread(search)
        self._board = self._board.play(cell)
        return cell

    async def abandon(self) -> str:
        """Leave the game unfinished; the sentence saying so."""
        self.abandoned = True
        return terminal_texts().gettext("the game is left unfinished")


@asynccontextmanager
async def local_session(options: PlayOptions) -> AsyncIterator[GameSession]:
    """A :data:`SessionFactory` for an in-memory game without a database."""
    yield LocalSession(options)
