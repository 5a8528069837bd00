"""The layering of the code, checked on the import graph of the source (``ast``, nothing imported).

Data flows one way: the adapters (Discord: ``bot/bot.py`` and ``bot/exts/``; terminal: ``bot/cli/``)
call the service (``bot/services/``), which uses the engine (``bot/engine/``) and the store
(``bot/db/``). The Discord emulator (``discord_emulator/``) is a product of its own that tests and
benchmarks run the bot against. Each rule below names the modules it binds, what they must never
import (directly, or through other modules of the project), and why.
"""

from __future__ import annotations

import ast
import graphlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "discord_emulator")
MIGRATIONS = ("bot.migrations", ROOT / "migrations")


@dataclass(frozen=True)
class Rule:
    """Modules named ``these`` (a name or a dotted prefix) never import anything named in ``never``:
    neither themselves nor through other modules of the project, unless ``direct`` (the rule is about
    their own imports only, as "through the service" allows the service's)."""

    these: tuple[str, ...]
    never: tuple[str, ...]
    why: str
    direct: bool = False


RULES = (
    Rule(
        ("bot.engine",),
        ("bot", "discord", "sqlalchemy", "asyncio"),
        "the engine is pure: boards and search, no platform, no database, no event loop",
    ),
    Rule(("bot.services",), ("discord",), "the service (every rule and turn) knows no chat platform"),
    Rule(("bot.services",), ("bot.cli",), "the service knows no terminal"),
    Rule(("bot.services",), ("bot.exts", "bot.bot"), "the service does not know its adapters"),
    Rule(("bot.db",), ("bot.services",), "the store holds no rules: it never calls the service"),
    Rule(("bot.db",), ("discord", "bot.exts", "bot.bot"), "the store knows no chat platform"),
    Rule(("bot.db",), ("bot.cli",), "the store knows no terminal"),
    Rule(
        ("bot.exts",),
        ("bot.db", "sqlalchemy"),
        "the cogs reach the database only through the service",
        direct=True,
    ),
    Rule(("bot.exts", "bot.bot"), ("bot.cli",), "the Discord adapter and the terminal stand side by side"),
    Rule(
        ("bot.cli",),
        ("bot.exts", "bot.bot", "discord"),
        "the terminal and the Discord adapter stand side by side",
    ),
    Rule(
        ("bot.pictures",),
        ("bot", "discord", "sqlalchemy", "asyncio"),
        "pictures are drawn from plain values, the same for every adapter, in a worker process",
    ),
    Rule(
        ("bot.review_words",),
        ("discord", "bot.exts", "bot.bot", "bot.cli", "bot.db"),
        "the review's sentences are shared by both adapters, so they belong to neither",
        direct=True,
    ),
    Rule(("discord_emulator",), ("bot",), "the emulator knows nothing of the bot it serves"),
    Rule(("bot",), ("discord_emulator",), "the bot knows nothing of the emulator it is tested against"),
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name."""
    return {
        module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
    }


def imports_of(module: str, source: str, *, is_package: bool) -> set[str]:
    """The absolute names ``source`` imports, anywhere in it (functions and ``TYPE_CHECKING`` included)."""
    found: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def import_graph() -> dict[str, set[str]]:
    return {
        module: imports_of(module, path.read_text(encoding="utf-8"), is_package=path.name == "__init__.py")
        for module, path in sources().items()
    }


def within(name: str, prefixes: Iterable[str]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def reached(graph: dict[str, set[str]], start: str) -> Iterator[tuple[str, list[str]]]:
    """Every name ``start`` imports, directly or through the project's own modules, with the path."""
    seen = {start}
    frontier = [(start, [start])]
    while frontier:
        module, chain = frontier.pop()
        for name in sorted(graph.get(module, ())):
            yield name, [*chain, name]
            if name in graph and name not in seen:
                seen.add(name)
                frontier.append((name, [*chain, name]))


def breaches(graph: dict[str, set[str]], rule: Rule) -> list[str]:
    found = []
    for module in sorted(graph):
        if not within(module, rule.these):
            continue
        found_names = (
            ((name, [module, name]) for name in sorted(graph[module]))
            if rule.direct
            else reached(graph, module)
        )
        for name, chain in found_names:
            if within(name, rule.never) and not within(name, rule.these):
                found.append(" -> ".join(chain))
                break
    return found


GRAPH = import_graph()


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.why)
def test_the_layering_holds(rule: Rule) -> None:
    bound = [module for module in GRAPH if within(module, rule.these)]
    assert bound, f"no module matches {rule.these}: the rule would check nothing"
    assert breaches(GRAPH, rule) == [], rule.why


def test_the_scan_sees_relative_deferred_and_guarded_imports() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import rules\n"
        "from ..db import models\n"
        "if TYPE_CHECKING:\n"
        "    import discord\n"
        "def later():\n"
        "    from bot.cli.render import board_text\n"
    )
    found = imports_of("bot.services.game", source, is_package=False)
    assert {"bot.services.rules", "bot.db.models", "discord", "bot.cli.render.board_text"} <= found


def test_a_breach_through_another_module_is_caught() -> None:
    graph = {
        "bot.services.a": {"bot.helpers"},
        "bot.helpers": {"discord.ui"},
        "bot.engine.board": set(),
    }
    rule = Rule(("bot.services",), ("discord",), "example")
    assert breaches(graph, rule) == ["bot.services.a -> bot.helpers -> discord.ui"]
    assert breaches(graph, Rule(("bot.engine",), ("discord",), "example")) == []
    assert breaches(graph, Rule(("bot.services",), ("discord",), "example", direct=True)) == []


def import_cycle(graph: dict[str, set[str]], prefixes: Iterable[str]) -> list[str]:
    """A cycle among the imports of the modules named by ``prefixes`` (their own imports), or []."""
    bound = {module for module in graph if within(module, prefixes)}
    among = {module: {name for name in graph[module] if name in bound and name != module} for module in bound}
    try:
        list(graphlib.TopologicalSorter(among).static_order())
    except graphlib.CycleError as error:
        return list(error.args[1])
    return []


def test_the_discord_adapter_imports_without_a_cycle() -> None:
    """Each module of the Discord adapter builds on others without any importing its way back to itself."""
    assert import_cycle(GRAPH, ("bot.bot", "bot.exts")) == []


def test_an_import_cycle_is_caught() -> None:
    graph = {"bot.exts.a": {"bot.exts.b"}, "bot.exts.b": {"bot.exts.c.d"}, "bot.exts.c.d": {"bot.exts.a"}}
    assert sorted(import_cycle(graph, ("bot.exts",))[1:]) == ["bot.exts.a", "bot.exts.b", "bot.exts.c.d"]
    assert import_cycle(graph, ("bot.exts.a", "bot.exts.b")) == []
