"""Errors the engine raises for input it cannot accept.

They subclass ``ValueError`` and carry a message fit to show a user as is.
"""


class EngineInputError(ValueError):
    """Base class: the message is written for the person who typed the input."""


class InvalidBoardError(EngineInputError):
    """Board text that is not a position of the game."""


class InvalidCellError(EngineInputError):
    """Cell text that names no cell of the board.

    ``given`` is the text as read (trimmed, lower case; empty when nothing was given);
    ``off_board`` says it has the shape of a cell name but the board has no such cell.
    """

    def __init__(self, message: str, *, given: str = "", off_board: bool = False) -> None:
        super().__init__(message)
        self.given = given
        self.off_board = off_board


class IllegalMoveError(EngineInputError):
    """A move onto an occupied cell, or after the game has ended."""
