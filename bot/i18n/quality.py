"""What ``make i18n-check`` asks of a translation beyond completeness: limits, the glossary, typography.

- **Limits.** Discord refuses a command whose description or choice name is longer than 100
  characters, a button label longer than 80, a message text longer than 4,000. A message marked
  in :data:`COMMAND_TEXTS` is a command's description or choice name; a translator comment saying
  "at most N characters" sets N (a button label says 80, a hint code 2); any other text gets 4,000.
  Placeholders do not count: the words around them do.
- **Glossary.** ``bot/locales/<catalogue>/GLOSSARY.md`` lists the words a language uses. Its
  table under a heading with "avoid" in it names words that language must not use: a translation
  containing one (outside placeholders, code and ``/ttt`` commands) is a problem, or only where the
  English has the word of the table's third column when it gives one.
- **Typography.** French puts a no-break space before ``: ; ! ?`` and writes the apostrophe ’;
  Japanese writes ``：`` and ``（）`` in full width beside Japanese text and no space after ``。``;
  German, Spanish and Portuguese texts do not copy the English semicolon.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

COMMAND_TEXTS = "exts/games/handlers/"
"""Where (under ``bot/``) the slash command is declared: every message marked there is its text."""
COMMAND_TEXT_LIMIT = 100
"""Discord's limit for a command's, a sub-command's or an option's description and a choice's name."""
TEXT_LIMIT = 4000
"""Discord's limit for a message's text (a text display component; an embed description allows 4,096)."""
STATED_LIMIT = re.compile(r"at most (\d+) characters")

GLOSSARY = "GLOSSARY.md"
AVOID_HEADING = re.compile(r"^#+ .*\bavoid\b", re.IGNORECASE)
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
NOT_WORDS = re.compile(r"\{[^{}]*\}|`[^`]*`|/ttt(?: [a-z]+)?|<[^<>]*>|https?://\S+")
"""Placeholders, code, commands, mentions and links: what a glossary or typography rule never judges."""


@dataclass(frozen=True, slots=True)
class Avoided:
    """A word a language's glossary forbids, and the English word that makes the rule apply (None: always)."""

    word: str
    instead: str
    english: str | None

    def found_in(self, translation: str, english: str) -> bool:
        """Whether ``translation`` (of ``english``) uses the avoided word where the rule applies."""
        if self.english is not None and not _has_word(words_only(english), self.english):
            return False
        return _has_word(words_only(translation), self.word)


def words_only(text: str) -> str:
    """``text`` with its placeholders, code, commands, mentions and links each shown as one ``x``."""
    return NOT_WORDS.sub("x", text)


def _has_word(text: str, word: str) -> bool:
    if any(ord(character) >= 0x3000 for character in word):
        return word in text
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE) is not None


def read_avoided(folder: Path) -> list[Avoided]:
    """The words ``folder``'s glossary tells its language to avoid; none when it has no glossary."""
    path = folder / GLOSSARY
    if not path.exists():
        return []
    avoided: list[Avoided] = []
    in_section = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            in_section = AVOID_HEADING.match(line) is not None
            continue
        if not in_section or not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 2 or set(cells[0]) <= {"-", ":"} or cells[0].lower() == "avoid":
            continue
        english = cells[2] if len(cells) > 2 and cells[2] else None
        avoided.append(Avoided(cells[0], cells[1], english))
    return avoided


def length(text: str) -> int:
    """A text's length as a limit counts it: without its placeholders (a name, a number, filled in later)."""
    return len(PLACEHOLDER.sub("", text))


def limit_of(locations: Sequence[str], comments: Sequence[str]) -> int:
    """The most characters a message may have wherever it shows (see :func:`length`)."""
    limits = [TEXT_LIMIT]
    if any(location.replace("\\", "/").startswith(COMMAND_TEXTS) for location in locations):
        limits.append(COMMAND_TEXT_LIMIT)
    limits += [int(found) for comment in comments for found in STATED_LIMIT.findall(comment)]
    return min(limits)


FRENCH_SPACE = re.compile(r"(?<![\u00a0\u202f])[:;!?](?=\s|$)")
FRENCH_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")
CJK = "\u3040-\u30ff\u3400-\u9fff\uff00-\uffef"
JAPANESE_HALF_WIDTH = re.compile(rf"(?<=[{CJK}])[:()]|[:()](?=[{CJK}])")
JAPANESE_SPACE_AFTER_STOP = re.compile(r"。 ")
NO_SEMICOLON = frozenset({"de", "es-ES", "es-419", "pt-BR"})


def typography_problems(code: str, translation: str) -> Iterator[str]:
    """What breaks the typography of the language ``code`` (Discord's locale) in ``translation``."""
    text = words_only(translation)
    if code == "fr":
        if FRENCH_SPACE.search(text):
            yield "French needs a no-break space (U+00A0, or U+202F before ; ! ?) before : ; ! ?"
        if FRENCH_APOSTROPHE.search(text):
            yield "French writes the apostrophe ’ (U+2019), not '"
    if code == "ja":
        if JAPANESE_HALF_WIDTH.search(text):
            yield "Japanese writes ：（） in full width beside Japanese text"
        if JAPANESE_SPACE_AFTER_STOP.search(text):
            yield "Japanese puts no space after 。"
    if code in NO_SEMICOLON and ";" in text:
        yield "a semicolon copied from the English; use a full stop or a comma"
