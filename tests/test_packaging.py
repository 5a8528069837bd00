"""The distribution: every package is in it, and a regular (non-editable) install can migrate.

``pyproject.toml`` lists the packages by hand so that the top-level ``migrations/`` folder
ships as ``bot.migrations``; the first test keeps that list complete. The second builds the
wheel, installs it into a fresh virtual environment (its dependencies borrowed from the
test's own environment, the project itself not), and runs ``ttt-bot migrate`` there.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

from bot.db.migrate import head_revision
from bot.i18n import TRANSLATED

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
BUILD_GUARD = 180.0
"""Failure guard for building and installing the wheel (the build may first fetch setuptools)."""


LOCALES = REPO / "bot" / "locales"
"""Catalogues (data the build compiles into the wheel), not a package."""


def source_packages() -> set[str]:
    """Every folder of the package tree that holds files, as setuptools names packages."""
    roots = {"bot": REPO / "bot"} | {name: REPO / path for name, path in SETUPTOOLS["package-dir"].items()}
    found: set[str] = set()
    for name, root in roots.items():
        for folder in [root, *(p for p in root.rglob("*") if p.is_dir())]:
            if folder.name == "__pycache__" or not any(p.is_file() for p in folder.iterdir()):
                continue
            if folder.is_relative_to(LOCALES):
                continue
            found.add(".".join([name, *folder.relative_to(root).parts]))
    return found


def test_pyproject_lists_every_package_and_ships_the_migrations() -> None:
    assert set(SETUPTOOLS["packages"]) == source_packages()
    assert SETUPTOOLS["package-dir"] == {"bot.migrations": "migrations"}


def test_the_license_is_an_spdx_expression() -> None:
    assert PYPROJECT["project"]["license"] == "MIT", "a table is deprecated by setuptools"


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(arg) for arg in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=BUILD_GUARD,
        check=False,
    )
    assert done.returncode == 0, f"{args} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.mark.slow
def clean_copy(tmp_path: Path) -> Path:
    """The sources a build reads, without the build/, egg-info or compiled catalogues of earlier builds."""
    source = tmp_path / "source"
    for folder in ("bot", "migrations"):
        shutil.copytree(REPO / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(REPO / name, source / name)
    return source


def assert_quiet(done: subprocess.CompletedProcess[str]) -> None:
    """No warning box of the build backend (setuptools frames its warnings with ``!!``)."""
    said = done.stdout + done.stderr
    assert "!!" not in said and "Warning:" not in said, said[-3000:]


@pytest.mark.slow
def test_an_editable_install_compiles_the_catalogues_in_place_without_a_warning(tmp_path: Path) -> None:
    source = clean_copy(tmp_path)
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    pip = (sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "--no-deps")
    assert_quiet(run(*pip, "-e", source, cwd=tmp_path))
    for language in TRANSLATED:
        assert (source / "bot/locales" / language.catalogue / "LC_MESSAGES/messages.mo").is_file()


@pytest.mark.slow
def test_a_regular_install_of_the_wheel_migrates_a_database(tmp_path: Path) -> None:
    source = clean_copy(tmp_path)
    wheels = tmp_path / "wheels"
    built = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", wheels, source, cwd=tmp_path)
    assert_quiet(built)
    (wheel,) = wheels.glob("ttt_bot-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for language in TRANSLATED:
        assert f"bot/locales/{language.catalogue}/LC_MESSAGES/messages.mo" in names, language.code
    assert not any(name.endswith((".po", ".pot")) for name in names), "only compiled catalogues ship"

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--no-deps",
        "--quiet",
        wheel,
        cwd=tmp_path,
    )
    # Only now borrow the dependencies (a plain path: the editable install's hook is not run).
    purelib = run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=tmp_path)
    (Path(purelib.stdout.strip()) / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")

    workdir = tmp_path / "work"
    workdir.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["DATABASE_URL"] = f"sqlite+aiosqlite:///{workdir / 'ttt.sqlite3'}"
    where = "from bot.db.migrate import MIGRATIONS_DIR; print(MIGRATIONS_DIR)"
    located = run(python, "-c", where, cwd=workdir, env=env)
    assert Path(located.stdout.strip()).is_relative_to(venv), "the installed copy, not the source tree"

    speak = (
        "from bot.i18n import texts_for_locale; from bot.i18n.catalogues import LOCALES_DIR; "
        "print(LOCALES_DIR); print(texts_for_locale('de').gettext('This game is over.'))"
    )
    spoken = run(python, "-c", speak, cwd=workdir, env=env).stdout.splitlines()
    assert Path(spoken[0]).is_relative_to(venv) and spoken[1] == "Dieses Spiel ist vorbei."

    done = run(venv / "bin" / "ttt-bot", "migrate", cwd=workdir, env=env)
    assert done.stdout.startswith("Created the schema of the database at sqlite+aiosqlite:///")
    with sqlite3.connect(workdir / "ttt.sqlite3") as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(head_revision(),)]
