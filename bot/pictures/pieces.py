"""The pieces of the board's themes, drawn with Pillow: one square PNG per theme and mark.

The bot uploads them as its application's emoji (named ``<theme>_x`` and ``<theme>_o``), so
they are drawn here from code, the same bytes on every start, and never stored as files.
Each theme says how X and O look: their colours, their tile behind them (or none), the
stroke width. ``contrast`` is black on white for X and white on black for O, thick: the two
pieces differ in shape and in brightness, so they read without colour.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFilter

SIZE_PX = 128
"""The side of a piece's picture (Discord shows emoji at most this big)."""
_SCALE = 4
"""Pieces are drawn this many times bigger, then scaled down: smooth edges."""

RGBA = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class PieceStyle:
    """How one mark looks in a theme."""

    ink: RGBA
    tile: RGBA | None = None
    """The rounded square behind the mark, if any."""
    border: RGBA | None = None
    stroke: float = 0.16
    """The width of the mark's lines, as a part of the picture's side."""
    glow: RGBA | None = None
    """A blurred halo under the mark (neon)."""


@dataclass(frozen=True, slots=True)
class ThemeStyle:
    """A theme's two pieces."""

    x: PieceStyle
    o: PieceStyle


THEME_STYLES: dict[str, ThemeStyle] = {
    "contrast": ThemeStyle(
        x=PieceStyle(ink=(0, 0, 0, 255), tile=(255, 255, 255, 255), border=(0, 0, 0, 255), stroke=0.17),
        o=PieceStyle(ink=(255, 255, 255, 255), tile=(0, 0, 0, 255), border=(255, 255, 255, 255), stroke=0.15),
    ),
    "neon": ThemeStyle(
        x=PieceStyle(ink=(255, 92, 214, 255), stroke=0.10, glow=(255, 0, 170, 220)),
        o=PieceStyle(ink=(80, 240, 255, 255), stroke=0.10, glow=(0, 200, 255, 220)),
    ),
    "chalk": ThemeStyle(
        x=PieceStyle(ink=(246, 244, 236, 255), tile=(39, 78, 60, 255), stroke=0.12),
        o=PieceStyle(ink=(255, 226, 140, 255), tile=(39, 78, 60, 255), stroke=0.12),
    ),
    "candy": ThemeStyle(
        x=PieceStyle(ink=(255, 255, 255, 255), tile=(238, 82, 83, 255), stroke=0.15),
        o=PieceStyle(ink=(255, 255, 255, 255), tile=(46, 134, 222, 255), stroke=0.15),
    ),
}
"""Every theme whose pieces are drawn here (the default one uses the Unicode emoji ❌ and ⭕)."""


def _draw(style: PieceStyle, mark: str) -> Image.Image:
    side = SIZE_PX * _SCALE
    picture = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    pen = ImageDraw.Draw(picture)
    if style.tile is not None:
        inset = side * 0.04
        outline = style.border
        pen.rounded_rectangle(
            (inset, inset, side - inset, side - inset),
            radius=side * 0.2,
            fill=style.tile,
            outline=outline,
            width=round(side * 0.05) if outline is not None else 0,
        )
    strokes = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    ink = ImageDraw.Draw(strokes)
    width = round(side * style.stroke)
    low, high = side * 0.27, side * 0.73
    if mark == "x":
        for line in (((low, low), (high, high)), ((low, high), (high, low))):
            ink.line(line, fill=style.ink, width=width)
            for end in line:
                radius = width / 2
                ink.ellipse(
                    (end[0] - radius, end[1] - radius, end[0] + radius, end[1] + radius), fill=style.ink
                )
    else:
        ink.ellipse(
            (low - width / 4, low - width / 4, high + width / 4, high + width / 4),
            outline=style.ink,
            width=width,
        )
    if style.glow is not None:
        halo = Image.new("RGBA", (side, side), (0, 0, 0, 0))
        halo.paste(style.glow, mask=strokes.getchannel("A"))
        picture.alpha_composite(halo.filter(ImageFilter.GaussianBlur(side * 0.05)))
    picture.alpha_composite(strokes)
    return picture.resize((SIZE_PX, SIZE_PX), Image.Resampling.LANCZOS)


def piece_png(theme: str, mark: str) -> bytes:
    """The PNG of ``mark`` (``"x"`` or ``"o"``) in ``theme`` (a key of :data:`THEME_STYLES`)."""
    styles = THEME_STYLES[theme]
    picture = _draw(styles.x if mark == "x" else styles.o, mark)
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=True)
    return out.getvalue()
