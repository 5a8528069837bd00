"""An immutable tic-tac-toe board on n x n with k in a row, stored as two bitboards.

>>> board = Board.empty(3).play(4).play(0)
>>> board.turn
<Mark.X: 'X'>
>>> board.text
'O../.X./...'
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

from bot.engine.errors import IllegalMoveError, InvalidBoardError
from bot.engine.geometry import SIZES, Geometry, geometry


class Mark(enum.Enum):
    """A player's mark. X always moves first."""

    X = "X"
    O = "O"  # noqa: E741

    @property
    def other(self) -> Mark:
        """The opponent's mark."""
        return Mark.O if self is Mark.X else Mark.X


class Status(enum.Enum):
    """Where a game stands; the values are the ``status`` strings of ``python -m bot analyze``."""

    ONGOING = "ongoing"
    X_WON = "x_won"
    O_WON = "o_won"
    DRAW = "draw"


def _popcount(bits: int) -> int:
    return bits.bit_count()


@dataclass(frozen=True, slots=True)
class Board:
    """A position: the size and the cells held by X and by O.

    Boards are values: ``play`` returns a new board, equal positions compare
    and hash equal, and a board pickles cheaply (three ints), so it can be
    sent to a worker process.
    """

    size: int
    x: int = 0
    o: int = 0

    def __post_init__(self) -> None:
        if self.size not in SIZES:
            raise InvalidBoardError(f"A board is 3x3, 4x4 or 5x5, not {self.size}x{self.size}.")

    @classmethod
    def empty(cls, size: int = 3) -> Board:
        """The board of ``size`` with no mark on it."""
        return cls(size)

    @classmethod
    def parse(cls, text: str) -> Board:
        """Read a board text (``X.O/.../...``); raise ``InvalidBoardError`` with the reason.

        The reason quotes the text as given: its characters keep their case, and rows
        separated by ``/`` must all be as wide as the board.
        """
        given = text.strip()
        cells = given.replace("/", "")
        sizes = {n * n: n for n in SIZES}
        if not given:
            raise InvalidBoardError("The board text is empty; a board has 9, 16 or 25 cells (X, O or .).")
        if len(cells) not in sizes:
            raise InvalidBoardError(
                f"A board has 9, 16 or 25 cells (X, O or .), but this one has {len(cells)}."
            )
        size = sizes[len(cells)]
        widths = [len(row) for row in given.split("/")]
        if len(widths) > 1 and any(width != size for width in widths):
            shown = ", ".join(str(width) for width in widths)
            raise InvalidBoardError(
                f"Rows separated by '/' each have {size} cells on a {size}x{size} board; these have {shown}."
            )
        bad = [ch for ch in dict.fromkeys(given) if ch != "/" and ch.upper() not in ("X", "O", ".")]
        if bad:
            shown = ", ".join(repr(ch) for ch in bad)
            raise InvalidBoardError(f"A board holds only X, O and '.'; it has {shown}.")
        x = o = 0
        for cell, ch in enumerate(cells.upper()):
            if ch == "X":
                x |= 1 << cell
            elif ch == "O":
                o |= 1 << cell
        board = cls(size, x, o)
        board.validate()
        return board

    def validate(self) -> None:
        """Raise ``InvalidBoardError`` unless this position can arise in a game."""
        if self.x & self.o:
            raise InvalidBoardError("A cell cannot hold both X and O.")
        xs, os = _popcount(self.x), _popcount(self.o)
        if xs not in (os, os + 1):
            raise InvalidBoardError(
                f"X moves first, so X has as many marks as O or one more; here X has {xs} and O has {os}."
            )
        x_lines = self._lines_of(self.x)
        o_lines = self._lines_of(self.o)
        if x_lines and o_lines:
            raise InvalidBoardError("Both X and O have a line; the game ends at the first one.")
        if x_lines and xs != os + 1:
            raise InvalidBoardError("X has a line, but O has moved since: the game ended when X won.")
        if o_lines and xs != os:
            raise InvalidBoardError("O has a line, but X has moved since: the game ended when O won.")
        won = x_lines or o_lines
        if won:
            common = self.geometry.full
            for line in won:
                common &= line
            if not common:
                raise InvalidBoardError("The winner has lines that no single last move could make.")

    @property
    def geometry(self) -> Geometry:
        """The lines, masks and symmetries of this board size."""
        return geometry(self.size)

    @property
    def k(self) -> int:
        """How many in a row win."""
        return self.geometry.k

    @property
    def cells(self) -> int:
        """How many cells the board has."""
        return self.size * self.size

    @property
    def ply(self) -> int:
        """How many moves have been played."""
        return _popcount(self.x | self.o)

    @property
    def turn(self) -> Mark:
        """The side to move (also defined on a finished board)."""
        return Mark.X if _popcount(self.x) == _popcount(self.o) else Mark.O

    @property
    def empty_mask(self) -> int:
        """A bit per empty cell."""
        return self.geometry.full & ~(self.x | self.o)

    @property
    def legal_moves(self) -> tuple[int, ...]:
        """Empty cells in reading order; none once the game is over."""
        if self.winner is not None:
            return ()
        empty = self.empty_mask
        return tuple(c for c in range(self.cells) if empty >> c & 1)

    def __getitem__(self, cell: int) -> Mark | None:
        if self.x >> cell & 1:
            return Mark.X
        if self.o >> cell & 1:
            return Mark.O
        return None

    def __iter__(self) -> Iterator[Mark | None]:
        return (self[c] for c in range(self.cells))

    def play(self, cell: int) -> Board:
        """The board after the side to move marks ``cell``."""
        if not 0 <= cell < self.cells:
            raise IllegalMoveError(f"There is no cell {cell + 1} on a {self.size}x{self.size} board.")
        if (self.x | self.o) >> cell & 1:
            raise IllegalMoveError("That cell is already taken.")
        if self.is_over:
            raise IllegalMoveError("The game is already over.")
        bit = 1 << cell
        if self.turn is Mark.X:
            return Board(self.size, self.x | bit, self.o)
        return Board(self.size, self.x, self.o | bit)

    def _lines_of(self, bits: int) -> list[int]:
        return [line for line in self.geometry.lines if bits & line == line]

    @property
    def winner(self) -> Mark | None:
        """The mark that holds a whole line, if any."""
        for line in self.geometry.lines:
            if self.x & line == line:
                return Mark.X
            if self.o & line == line:
                return Mark.O
        return None

    @property
    def winning_lines(self) -> tuple[tuple[int, ...], ...]:
        """Each completed line as its cells in reading order (empty while nobody has won)."""
        lines = [line for bits in (self.x, self.o) for line in self._lines_of(bits)]
        return tuple(tuple(c for c in range(self.cells) if line >> c & 1) for line in lines)

    @property
    def winning_cells(self) -> tuple[int, ...]:
        """Every cell on a completed line, in reading order (empty while nobody has won)."""
        cells = 0
        for bits in (self.x, self.o):
            for line in self._lines_of(bits):
                cells |= line
        return tuple(c for c in range(self.cells) if cells >> c & 1)

    @property
    def is_full(self) -> bool:
        """Whether every cell is taken."""
        return not self.empty_mask

    @property
    def is_over(self) -> bool:
        """Whether the game is decided: a line is complete or the board is full."""
        return self.winner is not None or self.is_full

    @property
    def status(self) -> Status:
        """Where the game stands: ongoing, won by X or O, or drawn."""
        winner = self.winner
        if winner is Mark.X:
            return Status.X_WON
        if winner is Mark.O:
            return Status.O_WON
        return Status.DRAW if self.is_full else Status.ONGOING

    @property
    def text(self) -> str:
        """The board text with ``/`` between rows, e.g. ``X.O/.../...``."""
        rows = []
        for r in range(self.size):
            row = ""
            for c in range(self.size):
                mark = self[r * self.size + c]
                row += mark.value if mark else "."
            rows.append(row)
        return "/".join(rows)

    @property
    def compact(self) -> str:
        """The board text without separators, e.g. ``X.O......``."""
        return self.text.replace("/", "")

    def __str__(self) -> str:
        return self.text

    def transform(self, symmetry: int) -> Board:
        """This board under one of the 8 symmetries (0 is the identity)."""
        g = self.geometry
        return Board(self.size, g.transform(self.x, symmetry), g.transform(self.o, symmetry))

    def symmetries(self) -> tuple[Board, ...]:
        """The 8 images of this board (some may be equal)."""
        return tuple(self.transform(s) for s in range(8))

    def canonical(self) -> tuple[Board, int]:
        """The least image of this board under the 8 symmetries, and the symmetry that gives it."""
        x, o, sym = canonical_key(self.size, self.x, self.o)
        return Board(self.size, x, o), sym


def canonical_key(size: int, x: int, o: int) -> tuple[int, int, int]:
    """The least ``(x, o)`` image among the 8 symmetries, and which symmetry gives it."""
    g = geometry(size)
    best_x, best_o, best_sym = x, o, 0
    transform = g.transform
    for s in range(1, 8):
        tx = transform(x, s)
        if tx > best_x:
            continue
        to = transform(o, s)
        if tx < best_x or to < best_o:
            best_x, best_o, best_sym = tx, to, s
    return best_x, best_o, best_sym
