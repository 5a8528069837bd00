"""The terminal speaks the language of ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``."""

from __future__ import annotations

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
    assert out.rstrip().endswith("Du hast aufgehört: das Spiel bleibt unvollendet.")


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
