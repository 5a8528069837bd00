"""The catalogues are complete and faithful, and the check that guards them catches what it should."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from bot.i18n import TRANSLATED, by_code, quality
from bot.i18n.catalogues import LOCALES_DIR
from bot.i18n.tooling import check, extract, source_messages
from bot.services import refusals

REPO = Path(__file__).resolve().parents[2]


def test_every_catalogue_has_every_message_and_nothing_else() -> None:
    problems = check()
    assert problems == [], "\n".join(map(str, problems))


def test_the_check_runs_as_make_does_and_passes() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.i18n.tooling", "check"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert f"in {len(TRANSLATED)} languages" in done.stdout


@pytest.fixture
def locales(tmp_path: Path) -> Path:
    """A copy of the catalogues to break."""
    copy = tmp_path / "locales"
    shutil.copytree(LOCALES_DIR, copy, ignore=shutil.ignore_patterns("*.mo"))
    return copy


def edit(locales: Path, code: str, change: object) -> None:
    language = by_code(code)
    assert language is not None
    path = locales / language.catalogue / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as file:
        catalogue = read_po(file, locale=language.babel)
    change(catalogue)  # type: ignore[operator]
    with path.open("wb") as file:
        write_po(file, catalogue)


SETTINGS_DONE = "Done: boards, challenges and results here are now in **{language}**."


def broken(locales: Path) -> list[str]:
    return [str(problem) for problem in check(REPO / "bot", locales)]


def test_a_missing_message_is_reported(locales: Path) -> None:
    edit(locales, "de", lambda catalogue: catalogue.delete(SETTINGS_DONE))
    assert [p for p in broken(locales) if "missing" in p and "de/" in p]


def test_a_stale_message_is_reported(locales: Path) -> None:
    edit(locales, "fr", lambda catalogue: catalogue.add("A sentence the code never says.", "Jamais dite."))
    assert [p for p in broken(locales) if "stale" in p and "fr/" in p]


def test_a_fuzzy_or_empty_translation_is_reported(locales: Path) -> None:
    def fuzz(catalogue: object) -> None:
        catalogue[SETTINGS_DONE].flags.add("fuzzy")  # type: ignore[index]
        catalogue["easy"].string = ""  # type: ignore[index]

    edit(locales, "ja", fuzz)
    problems = broken(locales)
    assert [p for p in problems if "fuzzy" in p and "ja/" in p]
    assert [p for p in problems if "untranslated" in p and "'easy'" in p]


@pytest.mark.parametrize(
    "translation",
    [
        "Fertig: jetzt auf **{sprache}**.",  # a renamed placeholder
        "Fertig: jetzt auf {language}.",  # bold lost
        "Fertig: jetzt auf **{language}** {0}.",  # a positional field
    ],
)
def test_placeholders_and_markup_must_match_the_english(locales: Path, translation: str) -> None:
    def change(catalogue: object) -> None:
        catalogue[SETTINGS_DONE].string = translation  # type: ignore[index]

    edit(locales, "de", change)
    assert [p for p in broken(locales) if "de/" in p and SETTINGS_DONE[:20] in p]


def test_a_word_the_glossary_avoids_is_reported(locales: Path) -> None:
    def change(catalogue: object) -> None:
        catalogue["It's a draw."].string = "Remis."  # type: ignore[index]

    edit(locales, "de", change)
    assert [p for p in broken(locales) if "de/" in p and "'Remis'" in p and "'Unentschieden'" in p]


def test_a_word_is_avoided_only_where_the_glossary_says(locales: Path) -> None:
    """French «classement» is the leaderboard: right for "Leaderboard", wrong for a rating."""

    def change(catalogue: object) -> None:
        catalogue["Rating"].string = "Classement"  # type: ignore[index]

    edit(locales, "fr", change)
    problems = broken(locales)
    assert [p for p in problems if "fr/" in p and "'Rating'" in p and "'classement'" in p]
    assert not [p for p in problems if "Leaderboard" in p]


def test_a_glossary_knows_nothing_of_commands_and_placeholders(tmp_path: Path) -> None:
    glossary = tmp_path / "GLOSSARY.md"
    glossary.write_text(
        "# Glossary\n\n## Words to avoid\n\n| Avoid | Use | Where |\n|---|---|---|\n| replay | x | |\n"
    )
    (avoided,) = quality.read_avoided(tmp_path)
    assert not avoided.found_in("Revois-la avec /ttt replay ou `replay`.", "See it with /ttt replay.")
    assert avoided.found_in("Un replay est un GIF.", "A replay is a GIF.")


def test_a_text_over_discords_limit_is_reported(locales: Path) -> None:
    def change(catalogue: object) -> None:
        catalogue["Resign"].string = "A" * 81  # type: ignore[index]
        description = "Start a game against me, or challenge a member."
        catalogue[description].string = "Starte ein Spiel gegen mich. " + "x" * 80  # type: ignore[index]

    edit(locales, "de", change)
    problems = broken(locales)
    assert [p for p in problems if "'Resign'" in p and "limit of 80" in p]
    assert [p for p in problems if "'Start a game" in p and "limit of 100" in p]


@pytest.mark.parametrize(
    ("code", "msgid", "translation", "what"),
    [
        ("fr", "Board: {url}", "Grille : {url}", "no-break space"),
        ("fr", "I've brought the board up to date.", "J'ai mis la grille à jour.", "apostrophe"),
        (
            "de",
            "Wait for my move; it is not your turn yet.",
            "Warte auf meinen Zug; du bist nicht dran.",
            "semicolon",
        ),
        (
            "es-419",
            "Wait for my move; it is not your turn yet.",
            "Espera mi jugada; no es tu turno.",
            "semicolon",
        ),
        ("ja", "Board: {url}", "盤面: {url}", "full width"),
        (
            "ja",
            "{loser} resigned; {winner} wins.",
            "{loser}が投了しました。 {winner}の勝ちです。",
            "after 。",
        ),
    ],
)
def test_typography_is_checked_per_language(
    locales: Path, code: str, msgid: str, translation: str, what: str
) -> None:
    def change(catalogue: object) -> None:
        catalogue[msgid].string = translation  # type: ignore[index]

    edit(locales, code, change)
    folder = by_code(code).catalogue  # type: ignore[union-attr]
    assert [p for p in broken(locales) if f"{folder}/" in p and msgid[:15] in p and what in p]


def test_every_language_has_a_glossary() -> None:
    for language in TRANSLATED:
        glossary = LOCALES_DIR / language.catalogue / quality.GLOSSARY
        assert glossary.exists(), f"{language.code}: write {glossary.relative_to(REPO)}"


def test_a_malformed_catalogue_is_reported(locales: Path) -> None:
    path = locales / "pt_BR" / "LC_MESSAGES" / "messages.po"
    path.write_text(path.read_text() + '\n<<<<<<< HEAD\nmsgid "x"\n=======\n>>>>>>> main\n')
    assert [p for p in broken(locales) if "pt_BR" in p and "malformed" in p]


def test_the_template_must_follow_the_code(locales: Path, tmp_path: Path) -> None:
    source = tmp_path / "bot"
    shutil.copytree(REPO / "bot", source, ignore=shutil.ignore_patterns("__pycache__", "locales"))
    (source / "extra.py").write_text(
        'from bot.i18n import N_\n\nNEW = N_("A message nobody translated yet.")\n'
    )
    problems = [str(problem) for problem in check(source, locales)]
    assert any("behind the code" in p for p in problems)
    assert sum("missing: 'A message nobody translated yet.'" in p for p in problems) == len(TRANSLATED)


def test_the_code_has_messages_to_translate() -> None:
    assert len(source_messages()) > 30


def every_refusal(kind: type[refusals.Refusal] = refusals.Refusal) -> list[type[refusals.Refusal]]:
    found = [kind]
    for sub in kind.__subclasses__():
        found += every_refusal(sub)
    return found


def test_every_refusal_of_the_service_is_a_message_of_the_catalogues() -> None:
    """A refusal's template is marked for extraction, so no refusal reaches a user untranslated."""
    marked = source_messages()
    for kind in every_refusal():
        forms = (kind.template,) if kind.plural is None else (kind.template, kind.plural)
        assert marked.get((kind.template, None)) == forms, f"{kind.__name__}: mark its template with N_"


def test_extracting_again_changes_nothing(tmp_path: Path) -> None:
    """The committed catalogues are what ``make i18n-extract`` writes: no date or order churn to merge."""
    source = tmp_path / "bot"
    shutil.copytree(REPO / "bot", source, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    locales = source / "locales"
    before = {path: path.read_text() for path in locales.rglob("*.po*")}
    extract(source, locales)
    assert {path: path.read_text() for path in locales.rglob("*.po*")} == before


NOT_PROSE = re.compile(r"\{[^}]*\}|`[^`]*`|<[^>]*>|\]\([^)]*\)|https?://\S+|\.[a-z]+\b")
"""Placeholders, code, Discord mentions, link targets and file suffixes: text where ASCII belongs."""
HALF_WIDTH_PUNCTUATION = re.compile(r"[:;,!?()]|\.\.\.")


def test_japanese_prose_uses_full_width_punctuation() -> None:
    language = by_code("ja")
    assert language is not None
    path = LOCALES_DIR / language.catalogue / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as file:
        catalogue = read_po(file, locale=language.babel)
    half_width = [
        text
        for message in catalogue
        if message.id
        for text in (message.string if isinstance(message.string, tuple) else (message.string,))
        if HALF_WIDTH_PUNCTUATION.search(NOT_PROSE.sub("", text))
    ]
    assert half_width == []
