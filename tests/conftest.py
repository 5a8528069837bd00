"""Fixtures for every test: no request to the Discord emulator may break Discord's API description."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from discord_emulator.fixtures import api_spec, no_spec_violations

__all__ = ["api_spec", "no_spec_violations"]

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def _discord_would_accept(no_spec_violations: None) -> Iterator[None]:
    yield
