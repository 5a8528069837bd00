"""How many terminal columns a text takes: East Asian wide and full-width characters take two."""

from __future__ import annotations

import unicodedata

WIDE = frozenset({"W", "F"})


def display_width(text: str) -> int:
    """The columns ``text`` fills in a terminal (combining marks take none)."""
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in WIDE else 1
        for ch in text
    )


def pad_to(text: str, columns: int) -> str:
    """``text`` followed by the spaces that make it ``columns`` wide on screen (none if wider)."""
    return text + " " * max(0, columns - display_width(text))
