"""The board is read from its stored text once per request and travels parsed from there."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.engine import Board, Level
from bot.services import First, GameService
from tests.services.helpers import ALICE, BOB, HERE


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every board text parsed while the test runs (a probe around the real ``Board.parse``)."""
    seen: list[str] = []
    original = Board.parse

    def counting(text: str) -> Board:
        seen.append(text)
        return original(text)

    monkeypatch.setattr(Board, "parse", staticmethod(counting))
    yield seen


async def test_a_click_against_the_bot_parses_the_board_once(service: GameService, parses: list[str]) -> None:
    game = await service.start_vs_bot(HERE, ALICE, level=Level.PERFECT)
    parses.clear()
    after = await service.move(HERE, ALICE, 4, game_id=game.id, expected_ply=game.ply)
    assert after.ply == 2 and len(parses) == 1


async def test_a_move_the_bot_answers_by_search_parses_the_board_once(
    service: GameService, parses: list[str]
) -> None:
    game = await service.start_vs_bot(HERE, ALICE, size=5, level=Level.EASY)
    parses.clear()
    after = await service.move(HERE, ALICE, "c3", game_id=game.id, expected_ply=game.ply)
    assert after.ply == 2 and not after.bot_to_move and len(parses) == 1


async def test_a_typed_move_between_people_and_a_hint_parse_the_board_once_each(
    service: GameService, parses: list[str]
) -> None:
    await service.challenge(HERE, ALICE, BOB, first=First.ME)
    await service.accept(HERE, BOB)
    parses.clear()
    await service.move(HERE, ALICE, "b2")
    assert len(parses) == 1
    parses.clear()
    await service.hint(HERE, BOB)
    assert len(parses) == 1
