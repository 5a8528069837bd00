"""The engine is pure: it never imports discord, sqlalchemy or asyncio, directly or indirectly."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import bot.engine

FORBIDDEN = {"discord", "sqlalchemy", "asyncio"}
ENGINE_DIR = Path(bot.engine.__file__).parent


def _imported_roots(source: str) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_engine_module_imports_a_forbidden_package() -> None:
    modules = sorted(ENGINE_DIR.rglob("*.py"))
    assert len(modules) >= 10
    for path in modules:
        roots = _imported_roots(path.read_text(encoding="utf-8"))
        assert not roots & FORBIDDEN, f"{path.name} imports {sorted(roots & FORBIDDEN)}"
        internal = {r for r in roots if r == "bot"}
        if internal:
            source = path.read_text(encoding="utf-8")
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bot."):
                    assert node.module.startswith("bot.engine"), f"{path.name} imports {node.module}"


def test_the_ast_scan_would_catch_a_forbidden_import() -> None:
    assert _imported_roots("import asyncio\nfrom discord.ext import commands\n") == {"asyncio", "discord"}


def test_using_the_engine_loads_no_forbidden_module() -> None:
    script = (
        "import json, sys\n"
        "from bot.engine import Board, Level, analyze, choose_move\n"
        "analyze(Board.parse('X.O......'))\n"
        "analyze(Board.parse('X.O./..X./..O./....'))\n"
        "choose_move(Board.empty(5), Level.MEDIUM, seed=1, budget_ms=50)\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r})))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []
