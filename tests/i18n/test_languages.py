"""Which language a Discord locale or a terminal's environment asks for, and per-locale formats."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from bot.i18n import ENGLISH, LANGUAGES, by_code, from_environment, from_locale, texts_for, texts_for_locale


@pytest.mark.parametrize(
    ("locale", "code"),
    [
        ("de", "de"),
        ("fr", "fr"),
        ("es-ES", "es-ES"),
        ("es-419", "es-419"),
        ("pt-BR", "pt-BR"),
        ("ja", "ja"),
        ("ru", "ru"),
        ("pl", "pl"),
        ("tr", "tr"),
        ("it", "it"),
        ("nl", "nl"),
        ("uk", "uk"),
        ("ko", "ko"),
        ("zh-CN", "zh-CN"),
        ("zh-TW", "zh-TW"),
        ("id", "id"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("sv-SE", "en"),
        ("vi", "en"),
        (None, "en"),
        ("", "en"),
    ],
)
def test_a_discord_locale_picks_its_language_or_english(locale: str | None, code: str) -> None:
    assert from_locale(locale).code == code


def test_every_language_is_one_discord_knows() -> None:
    discord_locales = {locale.value for locale in discord.Locale}
    for language in LANGUAGES[1:]:
        assert language.code in discord_locales


@pytest.mark.parametrize(
    ("environ", "code"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "fr_CA.UTF-8"}, "fr"),
        ({"LANG": "es_ES.UTF-8"}, "es-ES"),
        ({"LANG": "es_MX.UTF-8"}, "es-419"),
        ({"LANG": "es_AR"}, "es-419"),
        ({"LANG": "pt_BR.UTF-8"}, "pt-BR"),
        ({"LANG": "pt_PT.UTF-8"}, "pt-BR"),
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "uk_UA.UTF-8"}, "uk"),
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LANG": "nl_BE.UTF-8"}, "nl"),
        ({"LANG": "id_ID.UTF-8"}, "id"),
        ({"LANG": "ko_KR.UTF-8"}, "ko"),
        ({"LANG": "zh_CN.UTF-8"}, "zh-CN"),
        ({"LANG": "zh_SG.UTF-8"}, "zh-CN"),
        ({"LANG": "zh_TW.UTF-8"}, "zh-TW"),
        ({"LANG": "zh_HK.UTF-8"}, "zh-TW"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "sv_SE.UTF-8"}, "en"),
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8", "LC_ALL": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": ""}, "de"),
        ({"LANG": "ja_JP.eucJP@modifier"}, "ja"),
    ],
)
def test_the_terminal_follows_lc_all_then_lc_messages_then_lang(environ: dict[str, str], code: str) -> None:
    assert from_environment(environ).code == code


def test_stored_codes_are_found_whatever_their_case() -> None:
    assert by_code("pt-br") == by_code("pt-BR") == from_locale("pt-BR")
    assert by_code("xx") is None
    assert by_code(None) is None


def test_numbers_and_times_are_written_as_each_language_writes_them() -> None:
    assert texts_for(ENGLISH).number(12345) == "12,345"
    assert texts_for_locale("de").number(12345) == "12.345"
    assert texts_for_locale("fr").number(12345) == "12\u202f345"
    assert texts_for(ENGLISH).relative(timedelta(minutes=2)) == "in 2 minutes"
    assert texts_for(ENGLISH).relative(-timedelta(hours=3)) == "3 hours ago"
    assert texts_for_locale("de").relative(-timedelta(hours=3)) == "vor 3 Stunden"
    assert texts_for_locale("ja").relative(timedelta(minutes=2)) == "2 分後"
    assert texts_for_locale("pt-BR").duration(timedelta(seconds=30)) == "30 segundos"
    assert texts_for_locale("ru").relative(timedelta(minutes=5)) == "через 5 минут"
    assert texts_for_locale("zh-TW").relative(timedelta(minutes=2)) == "2 分鐘後"


@pytest.mark.parametrize(
    ("code", "counts"),
    [
        ("ru", {1: "1 партия", 3: "3 партии", 5: "5 партий", 11: "11 партий", 21: "21 партия"}),
        ("uk", {1: "1 партія", 4: "4 партії", 12: "12 партій", 31: "31 партія"}),
        ("pl", {1: "1 partia", 2: "2 partie", 5: "5 partii", 12: "12 partii", 22: "22 partie"}),
        ("it", {1: "1 partita", 2: "2 partite"}),
        ("ko", {1: "1게임", 7: "7게임"}),
    ],
)
def test_counts_take_the_plural_forms_of_each_language(code: str, counts: dict[int, str]) -> None:
    texts = texts_for_locale(code)
    for count, expected in counts.items():
        assert texts.ngettext("{count} game", "{count} games", count) == expected


def test_english_text_is_the_message_itself_with_its_params() -> None:
    texts = texts_for(ENGLISH)
    assert texts.gettext("{name} wins!", name="**Bob**") == "**Bob** wins!"
    assert texts.ngettext("{count} game", "{count} games", 1) == "1 game"
    assert texts.ngettext("{count} game", "{count} games", 1234) == "1,234 games"
