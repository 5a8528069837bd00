"""No sentence in the Discord adapters escapes translation: each is a message of the catalogues.

A text a person reads is found by the catalogues' extraction only when it is marked (``N_`` or a
call of :class:`~bot.i18n.Texts`); an English sentence kept in a plain constant, or written
straight into a message sent to Discord, would reach every user in English.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import bot

BOT = Path(bot.__file__).parent
DISCORD_ADAPTERS = (BOT / "bot.py", BOT / "shutdown.py", *sorted((BOT / "exts").rglob("*.py")))
SENTENCE = re.compile(r"^[A-Z].* .*[.!?]$", re.DOTALL)
SENDS = {"send", "send_message", "edit", "edit_message", "edit_original_response", "followup"}


def _sentence_constants(tree: ast.Module) -> Iterator[tuple[int, str]]:
    for node in tree.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and SENTENCE.match(value.value):
            yield node.lineno, value.value


def _literal_sends(tree: ast.Module) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SENDS:
            given = [*node.args, *(keyword.value for keyword in node.keywords if keyword.arg == "content")]
            for argument in given:
                if isinstance(argument, ast.JoinedStr) or (
                    isinstance(argument, ast.Constant) and isinstance(argument.value, str)
                ):
                    yield node.lineno, ast.unparse(argument)


def test_every_sentence_of_the_discord_adapters_is_marked_for_translation() -> None:
    unmarked = [
        f"{path.relative_to(BOT.parent)}:{line}: {text!r}"
        for path in DISCORD_ADAPTERS
        for tree in [ast.parse(path.read_text(encoding="utf-8"))]
        for line, text in (*_sentence_constants(tree), *_literal_sends(tree))
    ]
    assert not unmarked, "mark these with N_ and say them through Texts:\n" + "\n".join(unmarked)
