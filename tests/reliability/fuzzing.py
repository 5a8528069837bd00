"""Seeded generators of hostile input: cell strings, option values and button custom ids.

Each generator returns plain values; the tests decide who sends them where. The seed
makes a failing input reproducible (it is printed with the failure).
"""

from __future__ import annotations

import random
import string

ASCII_JUNK = string.ascii_letters + string.digits + string.punctuation + " \t\n"
UNICODE_SAMPLES = (
    "١",  # Arabic-Indic digit one
    "５",  # fullwidth digit
    "Ｂ２",  # fullwidth letter and digit
    "ⅱ",  # roman numeral
    "²",
    "b\u200b2",  # zero-width space inside
    "\u202eb2",  # right-to-left override
    "🙂",
    "👨‍👩‍👧",
    "é",
    "ß",
    "İ",  # lower() makes it two characters
    "\x00",
    "\ufeff",
    "@everyone",
    "<@&123456789012345678>",
    "<@!1>",
    "```",
    "||b2||",
    "**5**",
    "b2; DROP TABLE games; --",
    "' OR 1=1 --",
    "%s%s%n",
    "{0}",
    "${jndi:ldap://x}",
)


def char(rng: random.Random, low: int = 0x20) -> str:
    """Any character from ``low`` up to the supplementary planes, but not a lone surrogate (not UTF-8)."""
    code = rng.randrange(low, 0x30000)
    return "?" if 0xD800 <= code <= 0xDFFF else chr(code)


def cell_text(rng: random.Random) -> str:
    """A string someone might type (or a forged client might send) as a cell."""
    shape = rng.randrange(12)
    if shape == 0:
        return str(rng.choice((0, -1, 10, 17, 26, 99, 100, 999, 1000, 10**6, 2**63, -(2**63))))
    if shape == 1:
        return f"{rng.choice(string.ascii_letters)}{rng.randrange(-3, 120)}"
    if shape == 2:
        return rng.choice(("", " ", "  \t ", "\n", "a", "b", "1a", "2b", "aa1", "b2b2", "1.5", "1e3", "0x5"))
    if shape == 3:
        return rng.choice(UNICODE_SAMPLES)
    if shape == 4:
        return "".join(rng.choice(UNICODE_SAMPLES) for _ in range(rng.randrange(1, 6)))
    if shape == 5:
        return "".join(rng.choice(ASCII_JUNK) for _ in range(rng.randrange(1, 12)))
    if shape == 6:
        return rng.choice(("1", "5", "b2", "c3", "a1")) * rng.randrange(2, 2000)
    if shape == 7:
        return "9" * rng.choice((4, 50, 4301, 6000))
    if shape == 8:
        return "".join(char(rng) for _ in range(rng.randrange(1, 30)))
    if shape == 9:
        return f"  {rng.choice('abcdeABCDE')}{rng.randrange(1, 6)}  ".replace(
            " ", rng.choice((" ", "\t", "\u3000"))
        )
    if shape == 10:
        return f"{rng.randrange(1, 26)}{rng.choice(('', ' ', '!', '.', 'x'))}{rng.randrange(0, 9)}"
    return "".join(chr(rng.randrange(1, 0x80)) for _ in range(rng.randrange(90, 110)))


def number(rng: random.Random) -> int:
    return rng.choice((-(2**53), -(10**12), -1, 0, 1, 2, 6, 7, 9, 16, 25, 100, 2**31, 2**53, 2**63 - 1))


def word(rng: random.Random) -> str:
    return rng.choice(
        (
            "",
            "PERFECT",
            "Perfect ",
            "impossible",
            "me ",
            "x",
            "o",
            "first",
            "none",
            "null",
            "0",
            "🙂",
            "a" * 200,
        )
    )


def cell_prefix(rng: random.Random) -> str:
    """How a cell's id begins: as boards write it, or as boards drawn before it was shortened did."""
    return rng.choice(("ttt:", "ttt:cell:"))


def custom_id(rng: random.Random, game_ids: list[int], ply: int) -> str:
    """A forged button id: real game ids with wrong parts, or structural junk (1..100 characters)."""
    game = rng.choice([*game_ids, 0, 1, 999_999, 10**17, 10**18 - 1])
    shape = rng.randrange(9)
    if shape <= 2:
        wrong_ply = rng.choice((ply - 1, ply + 1, ply + 5, 0, 99, -1))
        return f"{cell_prefix(rng)}{game}:{wrong_ply}:{rng.randrange(0, 100)}"
    if shape == 3:
        return f"{cell_prefix(rng)}{game}:{ply}:{rng.choice((9, 10, 16, 24, 25, 26, 99, -1))}"
    if shape == 4:
        return f"ttt:{rng.choice(('resign', 'rematch', 'accept', 'decline'))}:{game}"
    if shape == 5:
        parts = ["ttt", rng.choice(("cell", "CELL", "move", "", "resign")), str(game), "x", "1.5", "", "-3"]
        return ":".join(rng.sample(parts, rng.randrange(2, len(parts))))[:100] or "ttt"
    if shape == 6:
        return "".join(rng.choice(ASCII_JUNK.strip()) for _ in range(100))
    if shape == 7:
        return f"{cell_prefix(rng)}{game}:{ply}:{rng.choice(UNICODE_SAMPLES)}"[:100]
    return f"ttt:{rng.choice(('accept', 'decline', 'rematch'))}:{game}:{rng.randrange(0, 9)}"


def board_text(rng: random.Random) -> str:
    """A board for ``analyze``: mostly legal positions of every size, and every kind of broken one."""
    shape = rng.randrange(10)
    size = rng.choice((3, 3, 4, 5))
    if shape <= 4:
        cells = ["."] * (size * size)
        order = rng.sample(range(size * size), rng.randrange(0, size * size + 1))
        marks = ["X", "O"]
        for ply, cell in enumerate(order):
            cells[cell] = marks[ply % 2]
        text = "".join(cells)
        if shape == 1:
            text = text.lower()
        if shape == 2:
            text = "/".join(text[r * size : (r + 1) * size] for r in range(size))
        return text
    if shape == 5:
        return "".join(rng.choice("XO.") for _ in range(rng.choice((9, 16, 25))))
    if shape == 6:
        return "".join(rng.choice("XO.xo/") for _ in range(rng.randrange(0, 40)))
    if shape == 7:
        return "".join(rng.choice(ASCII_JUNK.replace("\n", "")) for _ in range(rng.randrange(0, 30)))
    if shape == 8:
        return "X" * rng.choice((9, 16, 25, 10**4))
    return "".join(char(rng, 0x21) for _ in range(rng.choice((9, 16, 25))))
