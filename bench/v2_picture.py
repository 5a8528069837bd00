"""Draw a Components V2 message roughly as Discord's desktop app lays it out (dark theme), from its payload.

Good enough for a screenshot in the README, not a browser: a container with its accent bar, text
displays with the markdown the bot uses (``###`` headings, ``-#`` small print, ``**bold**``, user
mentions, relative timestamps, custom emoji), separators, and action rows of buttons in their
styles, greyed when disabled, each with its emoji and label. The emoji ❌ and ⭕ are drawn here as
shapes (fonts without colour emoji would show boxes); a custom emoji is drawn from its image.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageFont

BACKGROUND = (49, 51, 56)
CONTAINER = (43, 45, 49)
TEXT = (219, 222, 225)
MUTED = (148, 155, 164)
MENTION = (201, 205, 251)
MENTION_BACK = (60, 66, 112)
SEPARATOR = (63, 65, 71)
STYLES = {1: (88, 101, 242), 2: (78, 80, 88), 3: (36, 128, 70), 4: (218, 55, 60)}
"""Button backgrounds by style: primary, secondary, success, danger."""
CROSS_RED = (244, 33, 46)

WIDTH = 580
PAD = 16
BUTTON_H = 34
GAP = 8
FONT_DIR = "/usr/share/fonts/truetype/dejavu/"

EmojiImage = Callable[[Mapping[str, Any]], Image.Image | None]
"""The image of a custom emoji (from its ``id`` and ``name``), or None."""


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(FONT_DIR + name, size)
    except OSError:
        return ImageFont.load_default(size)


@dataclass(frozen=True)
class Run:
    """A piece of a line: text in one font and colour, or an emoji."""

    text: str
    bold: bool = False
    colour: tuple[int, int, int] = TEXT
    emoji: Mapping[str, Any] | None = None
    mention: bool = False


_TOKENS = re.compile(r"(\*\*.+?\*\*|<@!?\d+>|<t:\d+:\w>|<a?:\w+:\d+>|❌|⭕)")


def _runs(line: str, names: Mapping[int, str], colour: tuple[int, int, int]) -> list[Run]:
    runs: list[Run] = []
    for part in _TOKENS.split(line.replace("\\", "")):
        if not part:
            continue
        if part.startswith("**") and part.endswith("**"):
            runs += [
                Run(r.text, True, r.colour, r.emoji, r.mention) for r in _runs(part[2:-2], names, colour)
            ]
        elif part.startswith("<@"):
            user = int(re.sub(r"\D", "", part))
            runs.append(Run("@" + names.get(user, "someone"), colour=MENTION, mention=True))
        elif part.startswith("<t:"):
            runs.append(Run("in 10 minutes", colour=colour))
        elif part.startswith("<"):
            name, emoji_id = part.strip("<>").split(":")[-2:]
            runs.append(Run("", emoji={"name": name, "id": emoji_id}))
        elif part in ("❌", "⭕"):
            runs.append(Run("", emoji={"name": part, "id": None}))
        else:
            runs.append(Run(part, colour=colour))
    return runs


def _draw_unicode_piece(name: str, size: int) -> Image.Image:
    big = size * 4
    picture = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(picture)
    width = round(big * 0.2)
    low, high = big * 0.18, big * 0.82
    if name == "❌":
        pen.line(((low, low), (high, high)), fill=CROSS_RED, width=width)
        pen.line(((low, high), (high, low)), fill=CROSS_RED, width=width)
    else:
        pen.ellipse(
            (low - width / 3, low - width / 3, high + width / 3, high + width / 3),
            outline=CROSS_RED,
            width=width,
        )
    return picture.resize((size, size), Image.Resampling.LANCZOS)


class Painter:
    """Draws one message onto a canvas, top to bottom."""

    def __init__(self, names: Mapping[int, str], emoji_image: EmojiImage) -> None:
        self.names = names
        self.emoji_image = emoji_image
        self.canvas = Image.new("RGBA", (WIDTH, 2400), BACKGROUND)
        self.pen = ImageDraw.Draw(self.canvas)
        self.y = PAD

    def emoji(self, emoji: Mapping[str, Any], size: int) -> Image.Image:
        if emoji.get("id") is None:
            return _draw_unicode_piece(str(emoji.get("name")), size)
        found = self.emoji_image(emoji)
        if found is None:
            return _draw_unicode_piece("❌", size)
        return found.convert("RGBA").resize((size, size), Image.Resampling.LANCZOS)

    def runs_width(self, runs: list[Run], size: int) -> float:
        total = 0.0
        for run in runs:
            total += (
                size + 2
                if run.emoji is not None
                else self.pen.textlength(run.text, font=_font(size, run.bold))
            )
        return total

    def line(self, runs: list[Run], x: float, size: int) -> None:
        for run in runs:
            if run.emoji is not None:
                self.canvas.alpha_composite(self.emoji(run.emoji, size + 2), (round(x), round(self.y)))
                x += size + 4
                continue
            font = _font(size, run.bold)
            width = self.pen.textlength(run.text, font=font)
            if run.mention:
                self.pen.rounded_rectangle(
                    (x - 1, self.y - 1, x + width + 1, self.y + size + 4), 3, fill=MENTION_BACK
                )
            self.pen.text((x, self.y), run.text, font=font, fill=run.colour)
            x += width

    def text_display(self, content: str, left: float) -> None:
        for raw in content.splitlines():
            size, colour, bold, text = 15, TEXT, False, raw
            if raw.startswith("### "):
                size, bold, text = 18, True, raw[4:]
            elif raw.startswith("-# "):
                size, colour, text = 12, MUTED, raw[3:]
            runs = _runs(text, self.names, colour)
            if bold:
                runs = [Run(r.text, True, r.colour, r.emoji, r.mention) for r in runs]
            self.line(runs, left, size)
            self.y += size + 8

    def button(self, item: Mapping[str, Any], x: float) -> float:
        label = str(item.get("label") or "")
        emoji = item.get("emoji")
        font = _font(14, bold=False)
        width = PAD * 2 + self.pen.textlength(label, font=font) + (22 + (6 if label else 0) if emoji else 0)
        fill = STYLES.get(int(item.get("style", 2)), STYLES[2])
        disabled = bool(item.get("disabled"))
        layer = Image.new("RGBA", self.canvas.size, (0, 0, 0, 0))
        pen = ImageDraw.Draw(layer)
        pen.rounded_rectangle((x, self.y, x + width, self.y + BUTTON_H), 4, fill=(*fill, 255))
        inner = x + PAD
        if emoji:
            layer.alpha_composite(self.emoji(emoji, 20), (round(inner), round(self.y + 7)))
            inner += 20 + (6 if label else 0)
        pen.text((inner, self.y + 9), label, font=font, fill=(255, 255, 255, 255))
        if disabled:
            alpha = layer.getchannel("A").point(lambda value: value // 2)
            layer.putalpha(alpha)
        self.canvas.alpha_composite(layer)
        return x + width + GAP

    def row(self, row: Mapping[str, Any], left: float) -> None:
        x = left
        for item in row.get("components") or []:
            if item.get("type") == 2:
                x = self.button(item, x)
        self.y += BUTTON_H + GAP

    def children(self, items: list[Mapping[str, Any]], left: float) -> None:
        for item in items:
            kind = item.get("type")
            if kind == 10:
                self.text_display(str(item.get("content") or ""), left)
            elif kind == 1:
                self.row(item, left)
            elif kind == 14:
                self.y += 6
                self.pen.line((left, self.y, WIDTH - PAD * 2, self.y), fill=SEPARATOR, width=1)
                self.y += 10
            elif kind == 17:
                self.container(item)

    def container(self, item: Mapping[str, Any]) -> None:
        top = self.y
        body = Image.new("RGBA", self.canvas.size, (0, 0, 0, 0))
        self.canvas, saved = body, self.canvas
        self.pen = ImageDraw.Draw(body)
        self.y += PAD
        self.children(list(item.get("components") or []), PAD * 2)
        bottom = self.y + PAD - GAP
        self.canvas, self.pen = saved, ImageDraw.Draw(saved)
        self.pen.rounded_rectangle((PAD, top, WIDTH - PAD, bottom), 8, fill=CONTAINER)
        accent = item.get("accent_color")
        if accent is not None:
            colour = ((accent >> 16) & 255, (accent >> 8) & 255, accent & 255)
            self.pen.rounded_rectangle((PAD, top, PAD + 6, bottom), 3, fill=colour)
        self.canvas.alpha_composite(body)
        self.y = bottom + PAD


def render(
    components: Sequence[Mapping[str, Any]], names: Mapping[int, str], emoji_image: EmojiImage
) -> Image.Image:
    """The message whose components are ``components``, as a picture (``names``: user id to the name
    a mention shows)."""
    painter = Painter(names, emoji_image)
    painter.children(list(components), PAD * 2)
    return painter.canvas.crop((0, 0, WIDTH, round(painter.y))).convert("RGB")
