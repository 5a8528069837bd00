"""A server's rules for games (/ttt settings): channels, the role to play, its timeouts, its default level."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest

from bot.engine import Level
from bot.services import (
    Actor,
    EndReason,
    GameService,
    GameStatus,
    Place,
    ServiceSettings,
    SettingsChange,
    refusals,
)
from tests.services.helpers import ALICE, BOB, CAROL, GUILD, HERE, THERE, ManualClock, make_service

GAMES_ROOM = 2_000_000_000_000_101
THREAD_OF_THE_ROOM = Place(GUILD, 2_000_000_000_000_102, parent_id=GAMES_ROOM)
PLAYERS_ROLE = 4_000_000_000_000_001


def with_role(actor: Actor) -> Actor:
    return Actor(actor.user_id, actor.display_name, actor.locale, frozenset({PLAYERS_ROLE}))


async def change(service: GameService, **options: object) -> None:
    await service.change_server_settings(GUILD, SettingsChange(**options), may_manage=True)  # type: ignore[arg-type]


async def test_a_server_without_settings_shows_the_bots_defaults(service: GameService) -> None:
    shown = await service.server_settings(GUILD, may_manage=True)
    assert shown.channel_ids == () and shown.role_id is None and shown.language is None
    assert (shown.turn_timeout_seconds, shown.turn_timeout_is_default) == (600, True)
    assert (shown.challenge_timeout_seconds, shown.challenge_timeout_is_default) == (120, True)
    assert shown.default_level is Level.PERFECT


async def test_games_start_only_in_the_listed_channels_and_their_threads(service: GameService) -> None:
    await change(service, channel=GAMES_ROOM)
    with pytest.raises(refusals.ChannelNotForGames) as refused:
        await service.start_vs_bot(HERE, ALICE)
    assert refused.value.params == {"channel": GAMES_ROOM}
    with pytest.raises(refusals.ChannelNotForGames):
        await service.challenge(HERE, ALICE, BOB)
    assert (await service.start_vs_bot(Place(GUILD, GAMES_ROOM), ALICE)).is_active
    assert (await service.challenge(THREAD_OF_THE_ROOM, ALICE, BOB)).status is GameStatus.PENDING

    await change(service, channel=GAMES_ROOM)  # given again: taken off, so every channel again
    assert (await service.server_settings(GUILD, may_manage=True)).channel_ids == ()
    assert (await service.start_vs_bot(HERE, CAROL)).is_active


async def test_a_challenge_made_before_the_channel_was_closed_cannot_be_accepted_there(
    service: GameService,
) -> None:
    await service.challenge(HERE, ALICE, BOB)
    await change(service, channel=GAMES_ROOM)
    with pytest.raises(refusals.NotChallenged):
        await service.accept(HERE, CAROL)  # who may answer is said first
    with pytest.raises(refusals.ChannelNotForGames):
        await service.accept(HERE, BOB)
    assert (await service.board(HERE)).status is GameStatus.PENDING, "the refusal changed nothing"
    await service.decline(HERE, BOB)


async def test_the_role_is_needed_to_start_and_to_accept(service: GameService) -> None:
    await change(service, role=PLAYERS_ROLE)
    with pytest.raises(refusals.RoleNeeded) as refused:
        await service.start_vs_bot(HERE, ALICE)
    assert refused.value.params == {"role": PLAYERS_ROLE}
    challenge = await service.challenge(HERE, with_role(ALICE), BOB)
    with pytest.raises(refusals.RoleNeeded):
        await service.accept(HERE, BOB)
    assert (await service.board(HERE)).id == challenge.id
    assert (await service.accept(HERE, with_role(BOB))).is_active
    with pytest.raises(refusals.RoleNeeded):
        await service.rematch(HERE, BOB, challenge.id)

    await change(service, role=GUILD, everyone_role_id=GUILD)  # @everyone: no role needed
    assert (await service.start_vs_bot(THERE, CAROL)).is_active


async def test_the_role_given_again_is_no_longer_needed(service: GameService) -> None:
    await change(service, role=PLAYERS_ROLE)
    await change(service, role=PLAYERS_ROLE)
    assert (await service.server_settings(GUILD, may_manage=True)).role_id is None
    assert (await service.start_vs_bot(HERE, ALICE)).is_active


async def test_the_servers_timeouts_set_the_deadlines(service: GameService, clock: ManualClock) -> None:
    await change(service, turn_timeout=45, challenge_timeout=30)
    challenge = await service.challenge(HERE, ALICE, BOB)
    assert challenge.deadline == clock.now + timedelta(seconds=30)
    clock.advance(29)
    accepted = await service.accept(HERE, BOB)
    assert accepted.deadline == clock.now + timedelta(seconds=45)
    moved = await service.move(HERE, ALICE, "b2")
    assert moved.deadline == clock.now + timedelta(seconds=45)
    clock.advance(45)
    [ended] = await service.sweep()
    assert ended.end_reason is EndReason.TIMEOUT

    against_me = await service.start_vs_bot(THERE, CAROL)
    assert against_me.deadline == clock.now + timedelta(seconds=45)
    await service.challenge(HERE, ALICE, BOB)
    clock.advance(30)
    [expired] = await service.sweep()
    assert expired.status is GameStatus.EXPIRED and expired.channel_id == HERE.channel_id

    await change(service, turn_timeout=0, challenge_timeout=0)
    shown = await service.server_settings(GUILD, may_manage=True)
    assert (shown.turn_timeout_seconds, shown.turn_timeout_is_default) == (600, True)
    assert (shown.challenge_timeout_seconds, shown.challenge_timeout_is_default) == (120, True)
    assert (await service.challenge(HERE, ALICE, BOB)).deadline == clock.now + timedelta(seconds=120)


async def test_other_servers_keep_the_bots_timeouts(service: GameService, clock: ManualClock) -> None:
    await change(service, turn_timeout=45)
    elsewhere = Place(GUILD + 1, 2_000_000_000_000_201)
    assert (await service.start_vs_bot(elsewhere, ALICE)).deadline == clock.now + timedelta(seconds=600)
    outside = Place(None, 2_000_000_000_000_202)
    assert (await service.start_vs_bot(outside, BOB)).deadline == clock.now + timedelta(seconds=600)


async def test_a_start_without_a_level_uses_the_servers_default_level(service: GameService) -> None:
    await change(service, default_level="easy")
    assert (await service.start_vs_bot(HERE, ALICE)).level is Level.EASY
    assert (await service.start_vs_bot(THERE, BOB, level=Level.HARD)).level is Level.HARD


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        ({"turn_timeout": 29}, refusals.BadTurnTimeout),
        ({"turn_timeout": 86_401}, refusals.BadTurnTimeout),
        ({"turn_timeout": -5}, refusals.BadTurnTimeout),
        ({"challenge_timeout": 10}, refusals.BadChallengeTimeout),
        ({"challenge_timeout": 100_000}, refusals.BadChallengeTimeout),
        ({"default_level": "godlike"}, refusals.BadOption),
        ({"language": "tlh"}, refusals.BadOption),
    ],
)
async def test_a_value_out_of_bounds_is_refused_and_changes_nothing(
    service: GameService, options: dict[str, object], refusal: type[refusals.Refusal]
) -> None:
    await change(service, turn_timeout=300, default_level="hard")
    before = await service.server_settings(GUILD, may_manage=True)
    with pytest.raises(refusal):
        await change(service, channel=GAMES_ROOM, role=PLAYERS_ROLE, **options)
    assert await service.server_settings(GUILD, may_manage=True) == before
    assert (await service.start_vs_bot(HERE, ALICE)).level is Level.HARD, "nor what a game gets"


async def test_a_refusal_names_the_bounds(service: GameService) -> None:
    with pytest.raises(refusals.BadTurnTimeout) as refused:
        await change(service, turn_timeout=5)
    assert str(refused.value).startswith("The time for each move must be from 30 to 86400 seconds")


async def test_at_most_25_channels(service: GameService) -> None:
    for channel in range(25):
        await change(service, channel=GAMES_ROOM + 1000 + channel)
    with pytest.raises(refusals.TooManyChannels):
        await change(service, channel=GAMES_ROOM)
    assert len((await service.server_settings(GUILD, may_manage=True)).channel_ids) == 25


async def test_only_managers_in_servers_change_the_rules(service: GameService) -> None:
    with pytest.raises(refusals.NotManager):
        await service.change_server_settings(GUILD, SettingsChange(role=PLAYERS_ROLE), may_manage=False)
    with pytest.raises(refusals.SettingsOutsideServer):
        await service.change_server_settings(None, SettingsChange(turn_timeout=60), may_manage=True)
    assert (await service.start_vs_bot(HERE, ALICE)).is_active


async def test_the_rules_are_stored_for_the_next_process(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    first = make_service(database_url, settings, clock, executor)
    options = SettingsChange(channel=GAMES_ROOM, role=PLAYERS_ROLE, turn_timeout=90, default_level="medium")
    await first.change_server_settings(GUILD, options, may_manage=True)
    await first.change_server_settings(GUILD, SettingsChange(challenge_timeout=3600), may_manage=True)
    await first.close()
    second = make_service(database_url, settings, clock, executor)
    try:
        with pytest.raises(refusals.ChannelNotForGames):
            await second.start_vs_bot(HERE, with_role(ALICE))
        game = await second.start_vs_bot(Place(GUILD, GAMES_ROOM), with_role(ALICE))
        assert game.level is Level.MEDIUM and game.deadline == clock.now + timedelta(seconds=90)
        shown = await second.server_settings(GUILD, may_manage=True)
        assert shown.challenge_timeout_seconds == 3600 and shown.role_id == PLAYERS_ROLE
    finally:
        await second.close()


async def test_a_member_whose_roles_cannot_be_known_is_not_held_to_the_role(service: GameService) -> None:
    """In a server that did not add the bot, the adapter cannot see roles (``role_ids`` None)."""
    await change(service, role=PLAYERS_ROLE, channel=GAMES_ROOM)
    unknown = Actor(ALICE.user_id, ALICE.display_name, None, None)
    with pytest.raises(refusals.ChannelNotForGames):
        await service.start_vs_bot(HERE, unknown)
    assert (await service.start_vs_bot(Place(GUILD, GAMES_ROOM), unknown)).is_active
