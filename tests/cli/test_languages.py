"""The terminal speaks the language of ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.cli.stats import describe
from bot.engine import Level
from bot.i18n import texts_for_locale
from bot.services import EndReason, LevelRecord, PlayerOutcome, PlayerStats, RecentGame, Record
from tests.cli.conftest import RunCli


def test_a_german_terminal_plays_in_german(run_cli: RunCli) -> None:
    done = run_cli("play", "--no-db", input="b2\nb2\nzz\nq\n", env={"LC_ALL": "", "LANG": "de_DE.UTF-8"})
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Tic-Tac-Toe auf 3x3: 3 in einer Reihe gewinnt." in out
    assert "Stufe perfekt" in out and "freie Felder" in out
    assert "Dein Zug (X): " in out
    assert "Dieses Feld (b2) ist schon belegt. Versuch es noch einmal." in out
    assert "„zz“ ist kein Feld." in out
    assert out.rstrip().endswith("Du hast aufgehört; das Spiel bleibt unvollendet.")


def test_lc_messages_wins_over_lang_and_lc_all_over_both(run_cli: RunCli) -> None:
    japanese = {"LC_ALL": "", "LC_MESSAGES": "ja_JP.UTF-8", "LANG": "de_DE.UTF-8"}
    done = run_cli("play", "--no-db", input="q\n", env=japanese)
    assert "3x3の三目並べ：3つ並べたら勝ち。" in done.stdout
    assert "あなたの手（X）： " in done.stdout
    french = {**japanese, "LC_ALL": "fr_FR.UTF-8"}
    assert "Morpion sur 3x3" in run_cli("play", "--no-db", input="q\n", env=french).stdout


def test_an_unknown_language_is_english(run_cli: RunCli) -> None:
    done = run_cli("play", "--no-db", input="q\n", env={"LC_ALL": "sv_SE.UTF-8"})
    assert "Tic-tac-toe on 3x3: 3 in a row wins." in done.stdout


def test_stats_count_and_date_games_in_the_terminals_language() -> None:
    now = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
    recent = RecentGame(
        game_id=7,
        outcome=PlayerOutcome.LOSS,
        opponent_id=None,
        opponent_name="TicTacToe",
        level=Level.HARD,
        size=4,
        end_reason=EndReason.TIMEOUT,
        rated=False,
        finished_at=now - timedelta(hours=3),
    )
    stats = PlayerStats(
        user_id=42,
        display_name="anna",
        vs_humans=Record(0, 0, 0),
        vs_bot=(LevelRecord(Level.HARD, Record(1234, 1, 2)),),
        current_streak=0,
        best_streak=5,
        server_rating=None,
        global_rating=None,
        recent=(recent,),
    )
    german = describe("anna", stats, texts_for_locale("de"), now)
    assert german[1] == "Gegen den Bot: 1.234 gewonnen, 1 verloren, 2 remis"
    assert german[-1] == "  #7 4x4 gegen TicTacToe (schwer): verloren auf Zeit, vor 3 Stunden"
    japanese = describe("anna", stats, texts_for_locale("ja"), now)
    assert japanese[-1] == "  #7 4x4 対 TicTacToe (むずかしい)：時間切れで負け, 3 時間前"
