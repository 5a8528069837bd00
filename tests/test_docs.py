"""The README is a front page that leads to every page of docs/, and no link in them is broken.

Links and headings are read with a Markdown parser, so a link inside a code block is no link; an
anchor must name a heading of its page, spelled as GitHub spells it (lower case, punctuation
dropped, spaces as hyphens).
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = sorted([README, *DOCS.glob("*.md")])
FRONT_PAGE_MAX_LINES = 250

_markdown = MarkdownIt("commonmark").enable("table")


def _inline_tokens(path: Path) -> list[tuple[Token, Token]]:
    """Every inline token of the page, with the block token that opened it."""
    tokens = _markdown.parse(path.read_text(encoding="utf-8"))
    return [(opener, inline) for opener, inline in pairwise(tokens) if inline.children]


def targets(path: Path) -> list[str]:
    """The address of every link and image on the page, as written."""
    found = []
    for _, inline in _inline_tokens(path):
        for child in inline.children or ():
            if child.type == "link_open":
                found.append(str(child.attrs["href"]))
            elif child.type == "image":
                found.append(str(child.attrs["src"]))
    return found


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the page's headings."""
    slugs = set()
    for opener, inline in _inline_tokens(path):
        if opener.type == "heading_open":
            text = "".join(child.content for child in inline.children or ())
            slugs.add(re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-"))
    return slugs


def relative_targets(path: Path) -> list[tuple[Path, str]]:
    """The file and anchor of every link on the page that points into the repository."""
    found = []
    for target in targets(path):
        parts = urlsplit(target)
        if parts.scheme or parts.netloc:
            continue
        file = (path.parent / unquote(parts.path)).resolve() if parts.path else path
        found.append((file, unquote(parts.fragment)))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for file, anchor in relative_targets(page):
        if not file.exists():
            broken.append(f"{file.relative_to(ROOT)} does not exist")
        elif anchor and anchor not in anchors(file):
            broken.append(f"{file.relative_to(ROOT)} has no heading #{anchor}")
    assert not broken, broken


def test_every_docs_page_is_linked_from_the_readme() -> None:
    linked = {file for file, _ in relative_targets(README)}
    assert not [page.name for page in DOCS.glob("*.md") if page not in linked]


def test_every_file_in_docs_is_shown_or_linked_somewhere() -> None:
    used = {file for page in PAGES for file, _ in relative_targets(page)}
    assert not [file.name for file in DOCS.iterdir() if file not in used]


def test_the_readme_is_a_front_page() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) < FRONT_PAGE_MAX_LINES
