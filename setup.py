"""The package build compiles the gettext catalogues, so a wheel carries ``.mo`` files.

Everything else about the distribution is in ``pyproject.toml``; this file only adds the step
that turns each ``bot/locales/<language>/LC_MESSAGES/messages.po`` into ``messages.mo`` inside
the build (the compiled files are never part of the repository).
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogues(build_py):
    """``build_py`` that also writes a compiled ``messages.mo`` beside each catalogue in the build."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        for source in sorted(Path("bot/locales").glob("*/LC_MESSAGES/messages.po")):
            target = Path(self.build_lib) / source.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with source.open("rb") as po:
                catalogue = read_po(po, locale=source.parts[2])
            with target.open("wb") as mo:
                write_mo(mo, catalogue, use_fuzzy=False)


setup(cmdclass={"build_py": BuildWithCatalogues})
