"""The message renderer of the README's pictures: what it draws is where the payload puts it."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bench.message_picture import BUTTON_COLOURS, CONTENT_LEFT, RED, render_message

BLURPLE = 0x5865F2


def button(
    label: str, *, style: int = 2, emoji: dict[str, Any] | None = None, disabled: bool = False
) -> dict[str, Any]:
    found: dict[str, Any] = {
        "type": 2,
        "style": style,
        "label": label,
        "custom_id": label,
        "disabled": disabled,
    }
    if emoji is not None:
        found["emoji"] = emoji
    return found


def card(*children: dict[str, Any], accent: int | None = BLURPLE) -> dict[str, Any]:
    container: dict[str, Any] = {"type": 17, "components": list(children)}
    if accent is not None:
        container["accent_color"] = accent
    return {"author": {"username": "TicTacToe"}, "flags": 1 << 15, "components": [container]}


def row(*buttons: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(buttons)}


def colours_in(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    region = image.crop(box).convert("RGB")
    return {colour for _, colour in region.getcolors(maxcolors=region.width * region.height) or []}


def test_the_container_shows_its_accent_colour_down_its_left_edge() -> None:
    picture = render_message(card({"type": 10, "content": "### Tic-tac-toe"}))
    middle = picture.height // 2
    assert picture.getpixel((CONTENT_LEFT + 1, middle)) == (0x58, 0x65, 0xF2)
    plain = render_message(card({"type": 10, "content": "### Tic-tac-toe"}, accent=None))
    assert plain.getpixel((CONTENT_LEFT + 1, middle)) != (0x58, 0x65, 0xF2)


def test_each_row_of_buttons_makes_the_message_taller() -> None:
    heights = [
        render_message(card(*[row(button("a1"), button("b1")) for _ in range(rows)])).height
        for rows in (1, 2, 5)
    ]
    assert heights[0] < heights[1] < heights[2]


def test_button_styles_are_drawn_in_their_colours_and_a_disabled_one_dimmer() -> None:
    picture = render_message(card(row(button("Resign", style=4), button("Hint", style=2))))
    everything = colours_in(picture, (0, 0, picture.width, picture.height))
    assert BUTTON_COLOURS[4] in everything and BUTTON_COLOURS[2] in everything
    dimmed = render_message(card(row(button("Resign", style=4, disabled=True))))
    assert BUTTON_COLOURS[4] not in colours_in(dimmed, (0, 0, dimmed.width, dimmed.height))


def test_pieces_are_drawn_from_unicode_emoji_and_from_the_applications_own_images() -> None:
    unicode_piece = render_message(card(row(button("a1", emoji={"name": "❌"}))))
    assert RED in colours_in(unicode_piece, (0, 0, unicode_piece.width, unicode_piece.height))
    green = io.BytesIO()
    Image.new("RGBA", (64, 64), (0, 200, 0, 255)).save(green, "PNG")
    custom = render_message(
        card(row(button("a1", emoji={"id": "42", "name": "neon_x"}))), emoji_images={"42": green.getvalue()}
    )
    assert (0, 200, 0) in colours_in(custom, (0, 0, custom.width, custom.height))


def test_mentions_show_the_members_names_and_long_text_wraps() -> None:
    short = render_message(card({"type": 10, "content": "<@1> to move"}), names={"1": "alice"})
    long = render_message(
        card({"type": 10, "content": "<@1> to move " + "and more words " * 20}), names={"1": "a"}
    )
    assert long.height > short.height


def test_a_component_it_does_not_know_is_drawn_as_a_labelled_box_not_dropped() -> None:
    known = render_message(card({"type": 10, "content": "text"}))
    unknown = render_message(card({"type": 10, "content": "text"}, {"type": 13, "file": {"url": "x"}}))
    assert unknown.height > known.height
