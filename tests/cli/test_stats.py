"""``python -m bot stats``: the lines it prints, in the terminal's language."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.cli.stats import describe
from bot.cli.text_width import display_width
from bot.engine import Level
from bot.i18n import ENGLISH, TRANSLATED, Language, texts_for, texts_for_locale
from bot.services import EndReason, LevelRecord, PlayerOutcome, PlayerStats, RecentGame, Record

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


RECENT_LOSS_ON_TIME = RecentGame(
    game_id=7,
    outcome=PlayerOutcome.LOSS,
    opponent_id=None,
    opponent_name="TicTacToe",
    level=Level.HARD,
    size=4,
    end_reason=EndReason.TIMEOUT,
    rated=False,
    finished_at=NOW - timedelta(hours=3),
)


def stats_of_anna(*against_the_bot: LevelRecord) -> PlayerStats:
    """Anna's stats: her record against the bot by level, and one recent game lost on time."""
    return PlayerStats(
        user_id=42,
        display_name="anna",
        vs_humans=Record(0, 0, 0),
        vs_bot=against_the_bot,
        current_streak=0,
        best_streak=5,
        server_rating=None,
        global_rating=None,
        recent=(RECENT_LOSS_ON_TIME,),
    )


def stats_at_every_level() -> PlayerStats:
    return stats_of_anna(*(LevelRecord(level, Record(3, 2, 1)) for level in Level))


@pytest.mark.parametrize("language", [ENGLISH, *TRANSLATED], ids=lambda language: language.code)
def test_the_records_by_level_line_up_on_screen(language: Language) -> None:
    texts = texts_for(language)
    lines = describe("anna", stats_at_every_level(), texts, NOW)
    record = texts.gettext(
        "{wins}, {losses}, {draws}",
        wins=texts.ngettext("{count} won", "{count} won", 3),
        losses=texts.ngettext("{count} lost", "{count} lost", 2),
        draws=texts.ngettext("{count} drawn", "{count} drawn", 1),
    )
    by_level = [line for line in lines if line.endswith(record) and line.startswith("  ")]
    assert len(by_level) == len(Level)
    assert len({display_width(line[: -len(record)]) for line in by_level}) == 1


def test_stats_count_and_date_games_in_the_terminals_language() -> None:
    stats = stats_of_anna(LevelRecord(Level.HARD, Record(1234, 1, 2)))
    german = describe("anna", stats, texts_for_locale("de"), NOW)
    assert german[1] == "Gegen den Bot: 1.234 gewonnen, 1 verloren, 2 unentschieden"
    french = describe("anna", stats, texts_for_locale("fr"), NOW)
    assert french[1] == "Contre le bot\u00a0: 1\u202f234 gagnées, 1 perdue, 2 nulles"
    assert german[-1] == "  #7 4x4 gegen TicTacToe (schwer): verloren auf Zeit, vor 3 Stunden"
    japanese = describe("anna", stats, texts_for_locale("ja"), NOW)
    assert japanese[-1] == "  #7 4x4 対 TicTacToe（むずかしい）：時間切れで負け、3 時間前"
