"""A picture of a Discord message as Discord's dark theme lays it out, drawn from its API payload.

Good enough for a screenshot in the documentation: the author line, then the message's
Components V2 tree (a container with its accent bar, text displays with Discord's markdown
headings, bold and subtext, rows of buttons in their styles, separators, sections) or its
content and embeds. Emoji on buttons are drawn from the application's own emoji images when
the payload names one, and ❌ and ⭕ as Discord's emoji look (a red cross, a red ring).

Only what the bot's messages use is drawn; anything else is drawn as a labelled grey box, so
a picture never hides that something was left out.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import matplotlib
from PIL import Image, ImageDraw, ImageFont

WIDTH = 560
MARGIN = 16
AVATAR = 40
CONTENT_LEFT = MARGIN + AVATAR + 16
CONTENT_WIDTH = WIDTH - CONTENT_LEFT - MARGIN
GAP = 8
BUTTON_HEIGHT = 32

BACKGROUND = (49, 51, 56)
CONTAINER = (43, 45, 49)
TEXT = (219, 222, 225)
MUTED = (148, 155, 164)
HEADER = (242, 243, 245)
MENTION_BACKGROUND = (60, 66, 112)
MENTION_TEXT = (201, 205, 251)
DIVIDER = (63, 65, 71)
RED = (221, 46, 68)
BUTTON_COLOURS = {1: (88, 101, 242), 2: (78, 80, 88), 3: (36, 128, 70), 4: (218, 55, 60), 5: (78, 80, 88)}
"""Primary, secondary, success, danger and link buttons."""

ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, SEPARATOR, CONTAINER_TYPE = (
    1,
    2,
    9,
    10,
    11,
    12,
    14,
    17,
)


def font(*, bold: bool, size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans, which matplotlib ships, so every machine that runs the project has it."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name
    return ImageFont.truetype(str(path), size)


@dataclass
class Canvas:
    """Where the message is drawn: a tall image cropped to what was used at the end."""

    names: Mapping[str, str]
    """Display names by user id, for mentions."""
    emoji_images: Mapping[str, bytes]
    """PNG data of the application's emoji, by emoji id."""
    sent_at: datetime
    image: Image.Image = field(init=False)
    draw: ImageDraw.ImageDraw = field(init=False)

    def __post_init__(self) -> None:
        self.image = Image.new("RGB", (WIDTH, 4000), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)


def render_message(
    payload: Mapping[str, Any],
    *,
    names: Mapping[str, str] | None = None,
    emoji_images: Mapping[str, bytes] | None = None,
) -> Image.Image:
    """The message ``payload`` (as ``GET /channels/{id}/messages/{id}`` returns it) as a picture."""
    sent_at = datetime.fromisoformat(str(payload.get("timestamp") or "2026-01-01T00:00:00+00:00"))
    canvas = Canvas(names or {}, emoji_images or {}, sent_at)
    author = payload.get("author") or {}
    y = _author_line(canvas, str(author.get("global_name") or author.get("username") or "bot"))
    if payload.get("content"):
        y = _text(canvas, str(payload["content"]), CONTENT_LEFT, y, CONTENT_WIDTH) + GAP
    for embed in payload.get("embeds") or []:
        y = _unknown(canvas, f"embed: {embed.get('title') or ''}", CONTENT_LEFT, y, CONTENT_WIDTH) + GAP
    for component in payload.get("components") or []:
        y = _component(canvas, component, CONTENT_LEFT, y, CONTENT_WIDTH) + GAP
    return canvas.image.crop((0, 0, WIDTH, y + MARGIN))


def _author_line(canvas: Canvas, name: str) -> int:
    draw = canvas.draw
    draw.ellipse((MARGIN, MARGIN, MARGIN + AVATAR, MARGIN + AVATAR), fill=BUTTON_COLOURS[1])
    draw.text(
        (MARGIN + AVATAR / 2, MARGIN + AVATAR / 2),
        "#",
        font=font(bold=True, size=20),
        fill=HEADER,
        anchor="mm",
    )
    typeface = font(bold=True, size=15)
    draw.text((CONTENT_LEFT, MARGIN), name, font=typeface, fill=HEADER)
    x = CONTENT_LEFT + draw.textlength(name, font=typeface) + 6
    tag = font(bold=True, size=10)
    draw.rounded_rectangle((x, MARGIN + 3, x + 30, MARGIN + 17), 3, fill=BUTTON_COLOURS[1])
    draw.text((x + 15, MARGIN + 10), "APP", font=tag, fill=HEADER, anchor="mm")
    draw.text((x + 38, MARGIN + 3), "Today at 12:00", font=font(bold=False, size=11), fill=MUTED)
    return MARGIN + 24


def _component(canvas: Canvas, component: Mapping[str, Any], x: int, y: int, width: int) -> int:
    """Draw ``component`` at ``(x, y)`` within ``width``; the y just below it."""
    draw: Callable[[Canvas, Mapping[str, Any], int, int, int], int] | None = {
        CONTAINER_TYPE: _container,
        TEXT_DISPLAY: lambda c, comp, x, y, w: _text(c, str(comp.get("content", "")), x, y, w),
        ACTION_ROW: _row,
        SEPARATOR: _separator,
        SECTION: _section,
    }.get(int(component.get("type", 0)))
    if draw is None:
        return _unknown(canvas, f"component type {component.get('type')}", x, y, width)
    return draw(canvas, component, x, y, width)


def _container(canvas: Canvas, container: Mapping[str, Any], x: int, y: int, width: int) -> int:
    padding = 16
    inner = Image.new("RGB", (width, 4000), CONTAINER)
    nested = Canvas(canvas.names, canvas.emoji_images, canvas.sent_at)
    nested.image, nested.draw = inner, ImageDraw.Draw(inner)
    bottom = padding
    for child in container.get("components") or []:
        bottom = _component(nested, child, padding + 4, bottom, width - 2 * padding - 4) + GAP
    height = bottom - GAP + padding
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), 8, fill=255)
    canvas.image.paste(inner.crop((0, 0, width, height)), (x, y), mask)
    accent = container.get("accent_color")
    if accent is not None:
        colour = ((accent >> 16) & 255, (accent >> 8) & 255, accent & 255)
        canvas.draw.rounded_rectangle((x, y, x + 4, y + height - 1), 2, fill=colour)
    return y + height


def _section(canvas: Canvas, section: Mapping[str, Any], x: int, y: int, width: int) -> int:
    accessory = section.get("accessory")
    room = width - (96 if accessory else 0)
    bottom = y
    for child in section.get("components") or []:
        bottom = _component(canvas, child, x, bottom, room) + GAP // 2
    if accessory and int(accessory.get("type", 0)) == BUTTON:
        _button(canvas, accessory, x + room + 8, y)
    elif accessory:
        _unknown(canvas, "thumbnail", x + room + 8, y, 88)
    return max(bottom, y + BUTTON_HEIGHT)


def _separator(canvas: Canvas, separator: Mapping[str, Any], x: int, y: int, width: int) -> int:
    space = 16 if separator.get("spacing") == 2 else 8
    if separator.get("divider", True):
        canvas.draw.line((x, y + space // 2, x + width, y + space // 2), fill=DIVIDER, width=1)
    return y + space


def _row(canvas: Canvas, row: Mapping[str, Any], x: int, y: int, width: int) -> int:
    left = x
    for button in row.get("components") or []:
        if int(button.get("type", 0)) != BUTTON:
            return _unknown(canvas, "select menu", x, y, width)
        left = _button(canvas, button, left, y) + GAP
    return y + BUTTON_HEIGHT


def _button(canvas: Canvas, button: Mapping[str, Any], x: int, y: int) -> int:
    """One button; the x just right of it. A disabled button is drawn at half strength, as Discord does."""
    typeface = font(bold=False, size=13)
    label = str(button.get("label") or "")
    emoji = button.get("emoji")
    width = 16 + (22 if emoji else 0) + (int(canvas.draw.textlength(label, font=typeface)) if label else 0)
    width = max(width + (0 if label else -6), 40)
    fill = BUTTON_COLOURS.get(int(button.get("style", 2)), BUTTON_COLOURS[2])
    face = Image.new("RGB", (width, BUTTON_HEIGHT), fill)
    draw = ImageDraw.Draw(face)
    left = 8 if label else (width - 20) // 2
    if emoji:
        _emoji(canvas, face, emoji, left, (BUTTON_HEIGHT - 20) // 2)
        left += 24
    if label:
        draw.text((left, BUTTON_HEIGHT // 2), label, font=typeface, fill=HEADER, anchor="lm")
    if button.get("disabled"):
        face = Image.blend(Image.new("RGB", face.size, BACKGROUND), face, 0.55)
    mask = Image.new("L", face.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, BUTTON_HEIGHT - 1), 4, fill=255)
    canvas.image.paste(face, (x, y), mask)
    return x + width


def _emoji(
    canvas: Canvas, face: Image.Image, emoji: Mapping[str, Any], x: int, y: int, size: int = 20
) -> None:
    """An emoji of ``size`` pixels: the application's image by id, ❌ and ⭕ drawn, else its name."""
    data = canvas.emoji_images.get(str(emoji.get("id"))) if emoji.get("id") else None
    draw = ImageDraw.Draw(face)
    inset, stroke = max(2, size // 7), max(3, size // 4)
    if data is not None:
        picture = Image.open(io.BytesIO(data)).convert("RGBA").resize((size, size))
        face.paste(picture, (x, y), picture)
    elif emoji.get("name") == "❌":
        draw.line((x + inset, y + inset, x + size - inset, y + size - inset), fill=RED, width=stroke)
        draw.line((x + inset, y + size - inset, x + size - inset, y + inset), fill=RED, width=stroke)
    elif emoji.get("name") == "⭕":
        draw.ellipse((x + 1, y + 1, x + size - 1, y + size - 1), outline=RED, width=max(2, size // 5))
    else:
        typeface = font(bold=False, size=max(8, size * 3 // 5))
        draw.text(
            (x, y + size // 2), str(emoji.get("name", "?"))[:2], font=typeface, fill=HEADER, anchor="lm"
        )


INLINE = re.compile(
    r"<@!?(\d+)>|<#(\d+)>|<@&(\d+)>|<t:(\d+)(?::([tTdDfFR]))?>|\*\*(.+?)\*\*|<a?:(\w+):(\d+)>|(❌|⭕)"
)
PLAIN, MENTIONED, EMOJI = "plain", "mention", "emoji"


def _text(canvas: Canvas, markdown: str, x: int, y: int, width: int) -> int:
    """Discord's markdown as the bot uses it: ``#``-``###`` headings, ``-#`` subtext, bold, mentions,
    timestamps and emoji, wrapped at ``width``; the y below the last line."""
    for line in markdown.split("\n"):
        size, bold, colour = 14, False, TEXT
        for prefix, heading in (("### ", 16), ("## ", 20), ("# ", 24)):
            if line.startswith(prefix):
                line, size, bold, colour = line[len(prefix) :], heading, True, HEADER
                break
        else:
            if line.startswith("-# "):
                line, size, colour = line[3:], 12, MUTED
        y = _line(canvas, line, x, y, width, (size, bold, colour))
    return y


def _words(text: str, bold: bool) -> list[tuple[str, bool, str]]:
    return [(word, bold, PLAIN) for word in re.split(r"(?<= )", text) if word]


def _line(
    canvas: Canvas, line: str, x: int, y: int, width: int, look: tuple[int, bool, tuple[int, int, int]]
) -> int:
    """One paragraph: its words, bold spans, mentions and emoji placed and wrapped; the y below it."""
    size, bold, colour = look
    pieces: list[tuple[str, bool, str]] = []
    """(text, bold, kind) runs, split at spaces so that they wrap word by word."""
    at = 0
    for match in INLINE.finditer(line):
        pieces += _words(line[at : match.start()], bold)
        pieces.append(_inline(canvas, match, bold))
        at = match.end()
    pieces += _words(line[at:], bold)
    height = int(size * 1.35)
    left = x
    for text, strong, kind in pieces:
        typeface = font(bold=strong, size=size)
        length = size + 2 if kind == EMOJI else canvas.draw.textlength(text, font=typeface)
        if left + length > x + width and left > x:
            left, y = x, y + height
            text = text.lstrip()
            length = size + 2 if kind == EMOJI else canvas.draw.textlength(text, font=typeface)
        if kind == EMOJI:
            _emoji(
                canvas, canvas.image, {"id": text} if text.isdigit() else {"name": text}, int(left), y, size
            )
        elif kind == MENTIONED:
            box = (left, y + 1, left + length + 4, y + height - 1)
            canvas.draw.rounded_rectangle(box, 3, fill=MENTION_BACKGROUND)
            canvas.draw.text((left + 2, y), text, font=typeface, fill=MENTION_TEXT)
            length += 4
        else:
            canvas.draw.text((left, y), text, font=typeface, fill=colour)
        left += length
    return y + height


def _inline(canvas: Canvas, match: re.Match[str], bold: bool) -> tuple[str, bool, str]:
    user, channel, role, timestamp, style, strong, emoji_name, emoji_id, unicode_emoji = match.groups()
    if user is not None:
        return "@" + canvas.names.get(user, "someone"), bold, MENTIONED
    if channel is not None:
        return "#" + canvas.names.get(channel, "channel"), bold, MENTIONED
    if role is not None:
        return "@" + canvas.names.get(role, "role"), bold, MENTIONED
    if timestamp is not None:
        when = _relative(int(timestamp) - canvas.sent_at.timestamp()) if style == "R" else "12:00"
        return when, bold, PLAIN
    if emoji_id is not None:
        return emoji_id if emoji_id in canvas.emoji_images else emoji_name, bold, EMOJI
    if unicode_emoji is not None:
        return unicode_emoji, bold, EMOJI
    return strong, True, PLAIN


def _relative(seconds: float) -> str:
    minutes = round(abs(seconds) / 60)
    amount = f"{minutes} minutes" if minutes >= 2 else "a minute" if minutes == 1 else "a few seconds"
    return f"in {amount}" if seconds >= 0 else f"{amount} ago"


def _unknown(canvas: Canvas, what: str, x: int, y: int, width: int) -> int:
    canvas.draw.rounded_rectangle((x, y, x + width, y + 28), 4, outline=MUTED)
    canvas.draw.text(
        (x + 8, y + 14), f"({what}: not drawn)", font=font(bold=False, size=12), fill=MUTED, anchor="lm"
    )
    return y + 28
