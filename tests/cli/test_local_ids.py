"""The terminal's player and channel ids: stable per OS user, and never a Discord id."""

from __future__ import annotations

import getpass

import pytest

from bot.cli import local_ids
from bot.cli.local_ids import DISCORD_MIN_ID, local_player_id, os_user_name, terminal_channel_id

NAMES = ["alice", "bob", "Alice", "root", "player", "émile", "x" * 200, ""]


def test_player_ids_stay_below_every_discord_snowflake() -> None:
    for name in NAMES + [f"user{n}" for n in range(2000)]:
        assert 1 <= local_player_id(name) < DISCORD_MIN_ID


@pytest.mark.parametrize(("name", "player_id"), [("alice", 4047760), ("bob", 749898), ("root", 319219)])
def test_a_name_gets_the_same_id_in_every_run_and_release(name: str, player_id: int) -> None:
    """Pinned on purpose: if these changed, the players' earlier games would no longer be theirs."""
    assert local_player_id(name) == player_id


def test_different_names_get_different_ids() -> None:
    ids = {local_player_id(name) for name in NAMES}
    assert len(ids) == len(NAMES)


def test_channel_ids_are_fresh_and_below_every_discord_snowflake() -> None:
    drawn = [terminal_channel_id() for _ in range(200)]
    assert all(1 <= channel < DISCORD_MIN_ID for channel in drawn)
    assert len(set(drawn)) > 190


def test_the_os_user_name_comes_from_the_login_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOGNAME", "carol")
    assert os_user_name() == "carol"


def test_without_any_user_name_the_player_is_called_player(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_user() -> str:
        raise OSError("No username set in the environment")

    monkeypatch.setattr(getpass, "getuser", no_user)
    assert os_user_name() == local_ids.FALLBACK_USER_NAME == "player"
