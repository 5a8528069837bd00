"""The package build compiles the gettext catalogues: the one place ``.mo`` files are made.

Everything else about the distribution is in ``pyproject.toml``; this file only adds the step
that turns each ``bot/locales/<language>/LC_MESSAGES/messages.po`` into ``messages.mo``: inside
the build for a wheel, and beside the catalogue in the source tree for an editable install (the
one ``make`` makes, which runs the package from the checkout). The compiled files are never part
of the repository.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py

# An editable install of a package that maps a folder (migrations/ as bot.migrations) gets a box
# warning that a folder named like the package in the working directory could shadow it. Here that
# folder is the package's own source, which the editable install points to.
warnings.filterwarnings("ignore", message="Editable installation")


class BuildWithCatalogues(build_py):
    """``build_py`` that also writes a compiled ``messages.mo`` for each catalogue."""

    def run(self) -> None:
        super().run()
        target_root = Path() if self.editable_mode else Path(self.build_lib)
        for source in sorted(Path("bot/locales").glob("*/LC_MESSAGES/messages.po")):
            target = target_root / source.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with source.open("rb") as po:
                catalogue = read_po(po, locale=source.parts[2])
            with target.open("wb") as mo:
                write_mo(mo, catalogue, use_fuzzy=False)


setup(cmdclass={"build_py": BuildWithCatalogues})
