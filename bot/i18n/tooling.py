"""Catalogue upkeep: ``python -m bot.i18n.tooling extract|check``, run by ``make i18n-extract|i18n-check``.

``extract`` collects every marked message of ``bot/`` into ``bot/locales/messages.pot`` and
merges it into each language's ``messages.po`` (new messages arrive untranslated, messages the
code no longer has are dropped). ``check`` fails, naming each problem, when the template is
behind the code or a catalogue lacks a message, keeps a stale or fuzzy one, or translates one
with placeholders or markup that differ from the English.
"""

from __future__ import annotations

import contextlib
import re
import string
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import PoFileError, read_po

from bot.i18n.catalogues import DOMAIN, LOCALES_DIR, catalogue_folder
from bot.i18n.languages import TRANSLATED, Language

SOURCE_DIR = LOCALES_DIR.parent
TEMPLATE = LOCALES_DIR / f"{DOMAIN}.pot"
EXTRA_KEYWORDS: dict[str, tuple[int, ...]] = {"N_plural": (1, 2), "locale_str": (1,)}
"""Beyond gettext's own: the plural marker, and discord.py's marker for slash-command texts."""
COMMENT_TAG = "Translators:"

MessageKey = tuple[str, str | None]
"""A message's identity in a catalogue: its (singular) msgid and its context."""

MARKUP = ("**", "__", "~~", "||", "`", "\n", "<@", "<#", "<t:", "](")
"""Markdown and Discord markup that a translation must keep as often as the English has it."""
COMMAND = re.compile(r"/ttt(?: [a-z]+)?")


def extract_keywords() -> dict[str, object]:
    """The gettext functions whose arguments are messages, for extraction."""
    return {**DEFAULT_KEYWORDS, **EXTRA_KEYWORDS}


def source_messages(source: Path = SOURCE_DIR) -> dict[MessageKey, tuple[str, ...]]:
    """Every message marked in the code: key -> its msgid forms (one, or singular and plural)."""
    found: dict[MessageKey, tuple[str, ...]] = {}
    results = extract_from_dir(source, keywords=extract_keywords(), comment_tags=(COMMENT_TAG,))  # type: ignore[arg-type]
    for _filename, _line, message, _comments, context in results:
        forms = (message,) if isinstance(message, str) else tuple(message)
        found[(forms[0], context)] = forms
    return found


def placeholders(text: str) -> set[str]:
    """The ``{named}`` fields of a message; a malformed or positional field raises ValueError."""
    names = set()
    for _literal, field, _spec, _conversion in string.Formatter().parse(text):
        if field is None:
            continue
        name = re.split(r"[.\[]", field, maxsplit=1)[0]
        if not name or name.isdigit():
            raise ValueError(f"positional field {{{field}}}")
        names.add(name)
    return names


def markup(text: str) -> Counter[str]:
    """The Markdown tokens and command names in ``text``, counted, to compare with a translation."""
    counts = Counter({token: text.count(token) for token in MARKUP})
    counts.update(COMMAND.findall(text))
    return +counts


@dataclass(frozen=True, slots=True)
class Problem:
    """A problem of a catalogue: where, and what."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def _forms(message: Message) -> tuple[str, ...]:
    return tuple(str(form) for form in message.id) if isinstance(message.id, tuple | list) else (message.id,)


def _translations(message: Message) -> tuple[str, ...]:
    if isinstance(message.string, tuple | list):
        return tuple(message.string)
    return (message.string or "",)


def _check_translation(english: Sequence[str], translated: str, where: str) -> Iterator[Problem]:
    try:
        source_fields = [placeholders(form) for form in english]
        fields = placeholders(translated)
    except ValueError as error:
        yield Problem(where, f"bad placeholder ({error}): {translated!r}")
        return
    required, allowed = set.intersection(*source_fields), set.union(*source_fields)
    if not required <= fields <= allowed:
        yield Problem(where, f"placeholders {sorted(fields)} differ from the English {sorted(allowed)}")
    if markup(translated) != markup(english[-1]):
        mine, theirs = dict(markup(translated)), dict(markup(english[-1]))
        yield Problem(where, f"markup {mine} differs from the English {theirs}")


def check_catalogue(
    language: Language, catalogue: Catalog, wanted: dict[MessageKey, tuple[str, ...]]
) -> Iterator[Problem]:
    """Every problem of one language's catalogue against the messages the code has."""
    name = f"{language.catalogue}/{DOMAIN}.po"
    present: set[MessageKey] = set()
    for message in catalogue:
        if not message.id:
            continue
        forms = _forms(message)
        key = (forms[0], message.context)
        where = f"{name}: {forms[0]!r}" + (f" ({message.context})" if message.context else "")
        present.add(key)
        if key not in wanted:
            yield Problem(where, "stale: the code no longer has this message")
            continue
        if forms != wanted[key]:
            yield Problem(where, "its plural form differs from the code's")
            continue
        if message.fuzzy:
            yield Problem(where, "fuzzy: the translation needs review")
        translations = _translations(message)
        expected = catalogue.num_plurals if len(forms) > 1 else 1
        if len(translations) != expected or not all(translations):
            yield Problem(where, f"untranslated (needs {expected} form(s))")
            continue
        for translated in translations:
            yield from _check_translation(forms, translated, where)
    for key in wanted.keys() - present:
        yield Problem(name, f"missing: {key[0]!r}" + (f" ({key[1]})" if key[1] else ""))
    for message in catalogue.obsolete.values():
        yield Problem(name, f"obsolete entry kept: {_forms(message)[0]!r}")


def read_catalogue(path: Path, language: Language | None = None) -> Catalog:
    """A catalogue as Babel reads it; a malformed file (conflict markers, say) raises PoFileError."""
    with path.open("rb") as file:
        return read_po(file, locale=language.babel if language else None, abort_invalid=True)


def check(source: Path = SOURCE_DIR, locales: Path = LOCALES_DIR) -> list[Problem]:
    """Every problem of the template and the catalogues; empty when all is in order."""
    wanted = source_messages(source)
    problems: list[Problem] = []
    for key in wanted:
        for form in wanted[key]:
            try:
                placeholders(form)
            except ValueError as error:
                problems.append(Problem(f"source {form!r}", f"bad placeholder ({error})"))
    template_path = locales / f"{DOMAIN}.pot"
    if not template_path.exists():
        return [*problems, Problem(str(template_path), "missing; run make i18n-extract")]
    try:
        in_template = {(_forms(m)[0], m.context) for m in read_catalogue(template_path) if m.id}
    except PoFileError as error:
        return [*problems, Problem(template_path.name, f"malformed: {error}")]
    if in_template != set(wanted):
        problems.append(Problem(template_path.name, "behind the code; run make i18n-extract"))
    for language in TRANSLATED:
        path = catalogue_folder(language, locales) / f"{DOMAIN}.po"
        if not path.exists():
            problems.append(Problem(str(path), "missing; run make i18n-extract"))
            continue
        try:
            catalogue = read_catalogue(path, language)
        except PoFileError as error:
            problems.append(Problem(str(path), f"malformed: {error}"))
            continue
        problems.extend(check_catalogue(language, catalogue, wanted))
    return problems


def pybabel(argv: list[str]) -> None:
    """Run Babel's own command line (``pybabel``) in this process."""
    run: Any = CommandLineInterface().run
    run(argv)


def extract(source: Path = SOURCE_DIR, locales: Path = LOCALES_DIR) -> None:
    """Write the template from the code and merge it into every language's catalogue."""
    keywords = [f"-k{name}:{','.join(map(str, spec))}" for name, spec in EXTRA_KEYWORDS.items()]
    template = locales / f"{DOMAIN}.pot"
    locales.mkdir(parents=True, exist_ok=True)
    options = [
        "-c",
        COMMENT_TAG,
        "--sort-by-file",
        "--add-location=file",
        "--no-wrap",
        "--project",
        "ttt-bot",
    ]
    # From the source's parent, so that the catalogues name files by their path in the repository
    # (``bot/cli/play.py``), the same in every checkout.
    with contextlib.chdir(source.parent):
        pybabel(["pybabel", "-q", "extract", *keywords, *options, "-o", str(template), source.name])
    for language in TRANSLATED:
        folder = catalogue_folder(language, locales)
        po = folder / f"{DOMAIN}.po"
        command = "update" if po.exists() else "init"
        arguments = ["-i", str(template), "-d", str(locales), "-D", DOMAIN, "-l", language.catalogue]
        if command == "update":
            arguments += ["--no-fuzzy-matching", "--ignore-obsolete", "--no-wrap"]
        else:
            arguments += ["--no-wrap"]
        pybabel(["pybabel", "-q", command, *arguments])
    drop_creation_date(template)
    for language in TRANSLATED:
        drop_creation_date(catalogue_folder(language, locales) / f"{DOMAIN}.po")


CREATION_DATE = '"POT-Creation-Date:'


def drop_creation_date(path: Path) -> None:
    """Leave out the header line that says when the template was made.

    It changes on every extraction and says nothing the history does not, so every
    extraction in every branch would touch every catalogue and make merges conflict.
    """
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(line for line in lines if not line.startswith(CREATION_DATE)), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.i18n.tooling extract|check``; the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["extract"]:
        extract()
        return 0
    if args == ["check"]:
        problems = check()
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            print(f"{len(problems)} problem(s) in the catalogues; see above.", file=sys.stderr)
            return 1
        print(f"Catalogues complete: {len(source_messages())} messages in {len(TRANSLATED)} languages.")
        return 0
    print("usage: python -m bot.i18n.tooling extract|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
