"""The pure game engine: boards, search and evaluation. Standard library only, no I/O.

The public surface, importable from here:

- :class:`Board`, :class:`Mark`, :class:`Status`: immutable positions.
- :func:`parse_cell`, :func:`format_cell`: the contract's cell notation.
- :func:`analyze` -> :class:`Analysis`: every move's value and plies.
- :func:`choose_move` at a :class:`Level`: the engine's reply.
"""

from bot.engine.analysis import Analysis, MoveVerdict, Outcome, analyze
from bot.engine.board import Board, Mark, Status
from bot.engine.errors import EngineInputError, IllegalMove, InvalidBoard, InvalidCell
from bot.engine.levels import Level, choose_move
from bot.engine.notation import format_cell, parse_cell

__all__ = [
    "Analysis",
    "Board",
    "EngineInputError",
    "IllegalMove",
    "InvalidBoard",
    "InvalidCell",
    "Level",
    "Mark",
    "MoveVerdict",
    "Outcome",
    "Status",
    "analyze",
    "choose_move",
    "format_cell",
    "parse_cell",
]
