"""A server's chosen language for its public messages, and the starter's locale kept with a game."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.services import Actor, GameService, Place, ServiceSettings, refusals
from tests.services.helpers import ALICE, BOB, HERE, ManualClock, make_service


async def test_a_manager_chooses_a_language_and_auto_forgets_it(service: GameService) -> None:
    guild = HERE.guild_id
    assert guild is not None
    assert (await service.server_settings(guild, may_manage=True)).language is None
    assert await service.set_server_language(guild, "pt-br", may_manage=True) == "pt-BR"
    assert await service.server_language(guild) == "pt-BR"
    assert await service.set_server_language(guild, None, may_manage=True) is None
    assert await service.server_language(guild) is None


async def test_only_managers_in_a_server_may_and_unknown_languages_are_refused(service: GameService) -> None:
    guild = HERE.guild_id
    assert guild is not None
    with pytest.raises(refusals.NotManager):
        await service.set_server_language(guild, "de", may_manage=False)
    with pytest.raises(refusals.NotManager):
        await service.server_settings(guild, may_manage=False)
    with pytest.raises(refusals.SettingsOutsideServer):
        await service.set_server_language(None, "de", may_manage=True)
    with pytest.raises(refusals.BadOption):
        await service.set_server_language(guild, "tlh", may_manage=True)
    assert await service.server_language(guild) is None, "a refusal changes nothing"


async def test_the_choice_is_stored_for_the_next_process(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    first = make_service(database_url, settings, clock, executor)
    await first.set_server_language(777, "ja", may_manage=True)
    await first.close()
    second = make_service(database_url, settings, clock, executor)
    try:
        assert await second.server_language(777) == "ja"
    finally:
        await second.close()


async def test_a_game_keeps_the_locale_of_the_player_who_started_it(service: GameService) -> None:
    dm = Place(None, 4242)
    starter = Actor(ALICE.user_id, ALICE.display_name, "ja")
    game = await service.challenge(dm, starter, Actor(BOB.user_id, BOB.display_name, "de"))
    assert game.starter_locale == "ja"
    accepted = await service.accept(dm, Actor(BOB.user_id, BOB.display_name, "de"))
    assert accepted.starter_locale == "ja", "the one who accepts does not change it"
    vs_bot = await service.start_vs_bot(HERE, Actor(BOB.user_id, BOB.display_name, "fr"))
    assert vs_bot.starter_locale == "fr"
