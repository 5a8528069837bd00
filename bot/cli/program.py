"""How the user started this program, so that help and hints name a command they can type.

Run as a module it is ``python -m bot``; run through the installed command it is that
command's name (``ttt-bot``), whose users have neither the repository nor its files.
"""

from __future__ import annotations

import sys
from functools import cache
from importlib.metadata import PackageNotFoundError, entry_points, version
from pathlib import Path

MODULE = "python -m bot"
DISTRIBUTION = "ttt-bot"
ENTRY_POINT = "bot.__main__:main"


@cache
def program_name() -> str:
    """``ttt-bot`` when started by an installed command that runs this program, else ``python -m bot``."""
    started_as = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    scripts = entry_points(group="console_scripts", name=started_as) if started_as else ()
    return started_as if any(script.value == ENTRY_POINT for script in scripts) else MODULE


def is_installed_command() -> bool:
    """True when started by the installed command rather than as ``python -m bot``."""
    return program_name() != MODULE


def program_version() -> str:
    """``ttt-bot 0.1.0``: the distribution and its installed version."""
    try:
        return f"{DISTRIBUTION} {version(DISTRIBUTION)}"
    except PackageNotFoundError:
        return f"{DISTRIBUTION} (not installed)"
