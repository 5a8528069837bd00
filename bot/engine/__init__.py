"""The pure game engine: boards, search and evaluation. Standard library only, no I/O
beyond reading its own packaged data files (the 4x4 and 5x5 opening books).

The public surface, importable from here:

- :class:`Board`, :class:`Mark`, :class:`Status`: immutable positions.
- :func:`parse_cell`, :func:`format_cell`: the cell notation (``5`` or ``b2``).
- :func:`analyze` -> :class:`Analysis`: every move's value and plies (``as_dict`` gives
  the JSON object of ``python -m bot analyze``).
- :func:`choose_move` at a :class:`Level`: the engine's reply.
- :func:`answers_at_once`: whether that reply is a table look-up (cheap enough to run inline).

How it plays and analyses: 3x3 is solved once per process and every reply is a look-up;
4x4 is perfect, from a shipped opening book plus exact search; 5x5 from a shipped book up
to 5 marks, deeper positions proven (:mod:`bot.engine.prover`), estimating only what it
cannot prove within the time budget. Among equally good moves ``perfect`` prefers those a
person is likeliest to answer wrongly (:mod:`bot.engine.cunning`). ``analyze`` and ``choose_move`` are
plain top-level functions of picklable values, meant to run in a process pool. Each
process keeps caches (solved tables, transposition tables) that are not thread-safe:
use processes, not threads.
"""

from bot.engine.analysis import ANALYSIS_BUDGET_MS, Analysis, MoveVerdict, Outcome, analyze
from bot.engine.board import Board, Mark, Status
from bot.engine.errors import EngineInputError, IllegalMoveError, InvalidBoardError, InvalidCellError
from bot.engine.geometry import SIZES, WIN_LENGTH
from bot.engine.levels import DEFAULT_BUDGET_MS, Level, answers_at_once, choose_move
from bot.engine.notation import format_cell, parse_cell

__all__ = [
    "ANALYSIS_BUDGET_MS",
    "DEFAULT_BUDGET_MS",
    "SIZES",
    "WIN_LENGTH",
    "Analysis",
    "Board",
    "EngineInputError",
    "IllegalMoveError",
    "InvalidBoardError",
    "InvalidCellError",
    "Level",
    "Mark",
    "MoveVerdict",
    "Outcome",
    "Status",
    "analyze",
    "answers_at_once",
    "choose_move",
    "format_cell",
    "parse_cell",
]
