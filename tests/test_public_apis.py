"""The bot uses the libraries it is built on only through their public APIs.

A private name (one starting with ``_``) of aiosqlite, SQLAlchemy, asyncpg or discord.py can
change in any release, minor or patch, without notice; code that reaches it breaks on an
upgrade that the version constraints allow. Checked on the source of ``bot/`` (``ast``): no
private attribute reached on an object other than ``self``/``cls``, no private attribute of a
library class used or overridden by a subclass of it, no private name of a library given as a
string (``getattr``, thread names), and none of the escape hatches below.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIBRARIES = ("aiosqlite", "sqlalchemy", "asyncpg", "discord")
ESCAPE_HATCHES = {
    "driver_connection": "the driver's own connection, under SQLAlchemy's back",
    "dbapi_connection": "the driver's own connection, under SQLAlchemy's back",
    "class_manager": "SQLAlchemy's instrumentation internals",
    "__dict__": "an object's attributes written around its own API",
}
INTERNAL_MODULES = {
    "discord.state": "discord.py's connection state, undocumented (its parsers of gateway events)",
}
ALLOWED = {
    "os._exit": "the standard library's documented exit without clean-up",
}


def _sources() -> list[Path]:
    return sorted((ROOT / "bot").rglob("*.py"))


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _library_imports(tree: ast.Module) -> dict[str, str]:
    """The names a module binds to libraries' modules or objects: local name -> dotted origin."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in LIBRARIES:
                    local = alias.asname or alias.name.split(".")[0]
                    names[local] = alias.name if alias.asname else local
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and node.module.split(".")[0] in LIBRARIES
        ):
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _resolve(expression: ast.expr, imports: dict[str, str]) -> object | None:
    """The library object a base-class expression names (``commands.Bot``, ``DynamicItem[...]``), if any."""
    while isinstance(expression, ast.Subscript):
        expression = expression.value
    parts: list[str] = []
    while isinstance(expression, ast.Attribute):
        parts.append(expression.attr)
        expression = expression.value
    if not isinstance(expression, ast.Name) or expression.id not in imports:
        return None
    dotted = [*imports[expression.id].split("."), *reversed(parts)]
    for split in range(len(dotted), 0, -1):
        try:
            found: object = importlib.import_module(".".join(dotted[:split]))
        except ImportError:
            continue
        for attribute in dotted[split:]:
            found = getattr(found, attribute)
        return found
    return None


def _own_names(cls: ast.ClassDef) -> set[str]:
    """The private names a class defines itself: its methods and the ``self.<name>`` it assigns."""
    names = {node.name for node in cls.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
    for node in ast.walk(cls):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and ast.unparse(part.value) == "self":
                    names.add(part.attr)
    return names


def _library_privates() -> set[str]:
    """The private module-level names (functions, classes) of the libraries' loaded modules."""
    for library in ("aiosqlite", "sqlalchemy.ext.asyncio", "asyncpg", "discord.ext.commands"):
        importlib.import_module(library)
    names: set[str] = set()
    for module_name, module in list(sys.modules.items()):
        if module is None or module_name.split(".")[0] not in LIBRARIES:
            continue
        for name, value in vars(module).items():
            if _is_private(name) and len(name) > 8 and getattr(value, "__module__", None) == module_name:
                names.add(name)
    return names


def _findings(where: str, source: str, library_privates: set[str]) -> Iterator[str]:
    tree = ast.parse(source)
    imports = _library_imports(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            text = ast.unparse(node)
            if node.attr in ESCAPE_HATCHES:
                yield f"{where}:{node.lineno}: {text} ({ESCAPE_HATCHES[node.attr]})"
            elif _is_private(node.attr) and text not in ALLOWED:
                owner = node.value
                own = isinstance(owner, ast.Name) and owner.id in ("self", "cls")
                column = isinstance(owner, ast.Attribute) and owner.attr == "c"  # a column we named
                if not own and not column:
                    yield f"{where}:{node.lineno}: {text}"
        elif isinstance(node, ast.ImportFrom | ast.Import):
            if isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                modules = [name.name for name in node.names]
            for module in set(modules) & INTERNAL_MODULES.keys():
                yield f"{where}:{node.lineno}: imports {module} ({INTERNAL_MODULES[module]})"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            for name in set(re.findall(r"_\w+", node.value)) & library_privates:
                yield f"{where}:{node.lineno}: the string {node.value!r} names the library's private {name}"
        elif isinstance(node, ast.ClassDef):
            bases = [base for base in (_resolve(b, imports) for b in node.bases) if isinstance(base, type)]
            if bases:
                yield from _subclass_findings(where, node, bases)


def _subclass_findings(where: str, cls: ast.ClassDef, bases: list[type]) -> Iterator[str]:
    """A subclass of a library class neither reaches nor overrides the library's private names."""
    own = _own_names(cls)
    for name in sorted(own):
        if _is_private(name) and any(hasattr(base, name) for base in bases):
            yield f"{where}:{cls.lineno}: {cls.name} overrides the library's private {name}"
    for node in ast.walk(cls):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and _is_private(node.attr)
            and node.attr not in own
        ):
            yield f"{where}:{node.lineno}: {cls.name} uses its library base's private self.{node.attr}"
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "super"
            and _is_private(node.attr)
        ):
            yield f"{where}:{node.lineno}: {cls.name} calls the library's private super().{node.attr}"


def test_the_bot_reaches_no_private_name_of_its_libraries() -> None:
    privates = _library_privates()
    findings = [
        finding
        for path in _sources()
        for finding in _findings(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"), privates)
    ]
    assert not findings, "private library APIs used:\n" + "\n".join(findings)


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("import aiosqlite\ndef f(c: aiosqlite.Connection):\n    c._thread.daemon = True\n", "_thread"),
        ("def f(connection):\n    return connection.connection.driver_connection\n", "driver_connection"),
        ("def f(game, row):\n    game.__dict__.update(row)\n", "__dict__"),
        ("def f(m):\n    return m.__mapper__.class_manager.new_instance()\n", "class_manager"),
        (
            "from discord.ext import commands\nclass B(commands.Bot):\n"
            "    def f(self):\n        return self._connection\n",
            "self._connection",
        ),
        (
            "import aiosqlite\nclass C(aiosqlite.Connection):\n"
            "    async def _execute(self, fn):\n        return fn()\n",
            "overrides the library's private _execute",
        ),
        ("NAME = '(_connection_worker_thread)'\n", "_connection_worker_thread"),
        ("from discord.state import ConnectionState\n", "discord.state"),
    ],
)
def test_the_check_finds_each_kind_of_private_use(source: str, why: str) -> None:
    findings = list(_findings("probe.py", source, _library_privates()))
    assert any(why in finding for finding in findings), findings


def test_the_bots_own_private_names_and_named_columns_are_not_findings() -> None:
    source = (
        "class Mine:\n    def __init__(self):\n        self._count = 0\n"
        "    def peek(self, other: 'Mine') -> int:\n        return self._count\n"
        "def key(table):\n    return table.c._id\n"
    )
    assert list(_findings("probe.py", source, _library_privates())) == []
