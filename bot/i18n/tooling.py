"""Catalogue upkeep: ``python -m bot.i18n.tooling extract|check``, run by ``make i18n-extract|i18n-check``.

``extract`` collects every marked message of ``bot/`` into ``bot/locales/messages.pot`` and
merges it into each language's ``messages.po`` (new messages arrive untranslated, messages the
code no longer has are dropped). ``check`` fails, naming each problem, when the template is
behind the code or a catalogue lacks a message, keeps a stale or fuzzy one, or translates one
with placeholders or markup that differ from the English, over a Discord limit, with a word its
glossary avoids or against its typography (:mod:`bot.i18n.quality`).
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

from bot.i18n import quality
from bot.i18n.catalogues import DOMAIN, LOCALES_DIR, catalogue_folder
from bot.i18n.languages import TRANSLATED, Language

SOURCE_DIR = LOCALES_DIR.parent
TEMPLATE = LOCALES_DIR / f"{DOMAIN}.pot"
EXTRA_KEYWORDS: dict[str, tuple[int | tuple[int, str], ...]] = {
    "N_plural": (1, 2),
    "locale_str": (1,),
    "contextual": ((1, "c"), 2),
}
"""Beyond gettext's own: the plural marker, discord.py's marker for slash-command texts, and
:func:`bot.exts.translator.contextual` for a slash-command text with a message context."""
COMMENT_TAG = "Translators:"

MessageKey = tuple[str, str | None]
"""A message's identity in a catalogue: its (singular) msgid and its context."""

MARKUP = ("**", "__", "~~", "||", "`", "\n", "<@", "<#", "<t:", "](")
"""Markdown and Discord markup that a translation must keep as often as the English has it."""
COMMAND = re.compile(r"/ttt(?: [a-z]+)?")


def extract_keywords() -> dict[str, object]:
    """The gettext functions whose arguments are messages, for extraction."""
    return {**DEFAULT_KEYWORDS, **EXTRA_KEYWORDS}


@dataclass(frozen=True, slots=True)
class SourceMessage:
    """A message as marked in the code: its msgid forms, the files marking it, its translator comments."""

    forms: tuple[str, ...]
    locations: tuple[str, ...]
    comments: tuple[str, ...]


def source_details(source: Path = SOURCE_DIR) -> dict[MessageKey, SourceMessage]:
    """Every message marked in the code, with where it is marked and what translators are told."""
    found: dict[MessageKey, SourceMessage] = {}
    results = extract_from_dir(source, keywords=extract_keywords(), comment_tags=(COMMENT_TAG,))  # type: ignore[arg-type]
    for filename, _line, message, comments, context in results:
        forms = (message,) if isinstance(message, str) else tuple(message)
        seen = found.get((forms[0], context))
        locations = (seen.locations if seen else ()) + (filename,)
        notes = (seen.comments if seen else ()) + tuple(comments)
        found[(forms[0], context)] = SourceMessage(forms, locations, notes)
    return found


def source_messages(source: Path = SOURCE_DIR) -> dict[MessageKey, tuple[str, ...]]:
    """Every message marked in the code: key -> its msgid forms (one, or singular and plural)."""
    return {key: message.forms for key, message in source_details(source).items()}


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


def _check_translation(
    english: Sequence[str],
    translated: str,
    where: str,
    rules: LanguageRules | None = None,
    limit: int = quality.TEXT_LIMIT,
) -> Iterator[Problem]:
    if rules is not None:
        yield from rules.problems(english[-1], translated, where)
    if quality.length(translated) > limit:
        yield Problem(where, f"{quality.length(translated)} characters, over the limit of {limit} here")
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


@dataclass(frozen=True, slots=True)
class LanguageRules:
    """What one language's translations must respect besides the English's placeholders and markup."""

    code: str
    avoided: tuple[quality.Avoided, ...]
    limits: dict[MessageKey, int]

    def problems(self, english: str, translated: str, where: str) -> Iterator[Problem]:
        """The glossary's and the typography's problems of one translation."""
        for word in self.avoided:
            if word.found_in(translated, english):
                yield Problem(
                    where, f"uses {word.word!r}; the glossary says {word.instead!r}: {translated!r}"
                )
        for what in quality.typography_problems(self.code, translated):
            yield Problem(where, f"{what}: {translated!r}")


def check_catalogue(
    language: Language,
    catalogue: Catalog,
    wanted: dict[MessageKey, tuple[str, ...]],
    rules: LanguageRules | None = None,
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
        limit = rules.limits.get(key, quality.TEXT_LIMIT) if rules is not None else quality.TEXT_LIMIT
        for translated in translations:
            yield from _check_translation(forms, translated, where, rules, limit)
    for key in wanted.keys() - present:
        yield Problem(name, f"missing: {key[0]!r}" + (f" ({key[1]})" if key[1] else ""))
    for message in catalogue.obsolete.values():
        yield Problem(name, f"obsolete entry kept: {_forms(message)[0]!r}")


def read_catalogue(path: Path, language: Language | None = None) -> Catalog:
    """A catalogue as Babel reads it; a malformed file (conflict markers, say) raises PoFileError."""
    with path.open("rb") as file:
        return read_po(file, locale=language.babel if language else None, abort_invalid=True)


def _source_problems(
    details: dict[MessageKey, SourceMessage], limits: dict[MessageKey, int]
) -> Iterator[Problem]:
    """The English messages' own problems: a malformed placeholder, a text over its limit."""
    for key, message in details.items():
        for form in message.forms:
            try:
                placeholders(form)
            except ValueError as error:
                yield Problem(f"source {form!r}", f"bad placeholder ({error})")
            if quality.length(form) > limits[key]:
                yield Problem(f"source {form!r}", f"over the limit of {limits[key]} characters")


def check(source: Path = SOURCE_DIR, locales: Path = LOCALES_DIR) -> list[Problem]:
    """Every problem of the template and the catalogues; empty when all is in order."""
    details = source_details(source)
    wanted = {key: message.forms for key, message in details.items()}
    limits = {key: quality.limit_of(message.locations, message.comments) for key, message in details.items()}
    problems = list(_source_problems(details, limits))
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
        rules = LanguageRules(language.code, tuple(quality.read_avoided(path.parent.parent)), limits)
        problems.extend(check_catalogue(language, catalogue, wanted, rules))
    return problems


def pybabel(argv: list[str]) -> None:
    """Run Babel's own command line (``pybabel``) in this process."""
    run: Any = CommandLineInterface().run
    run(argv)


def _argument_spec(spec: int | tuple[int, str]) -> str:
    """One argument of a keyword as ``pybabel extract -k`` takes it: ``2``, or ``1c`` for a context."""
    return str(spec) if isinstance(spec, int) else f"{spec[0]}{spec[1]}"


def extract(source: Path = SOURCE_DIR, locales: Path = LOCALES_DIR) -> None:
    """Write the template from the code and merge it into every language's catalogue."""
    keywords = [f"-k{name}:{','.join(map(_argument_spec, spec))}" for name, spec in EXTRA_KEYWORDS.items()]
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
    drop_volatile_headers(template)
    for language in TRANSLATED:
        drop_volatile_headers(catalogue_folder(language, locales) / f"{DOMAIN}.po")


VOLATILE_HEADERS = ('"POT-Creation-Date:', '"Generated-By:')


def drop_volatile_headers(path: Path) -> None:
    """Leave out the header lines that say when the template was made and by which Babel.

    They change on every extraction (or with the Babel installed) and say nothing the history
    does not, so every extraction in every branch would touch every catalogue and make merges
    conflict.
    """
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith(VOLATILE_HEADERS)]
    path.write_text("".join(kept), encoding="utf-8")


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
