"""Arenas through the service, on SQLite and PostgreSQL: the lobby and its refusals, rounds paired as
the last game of a round ends (by a move, a resignation, a leave or a timeout), restarts, ratings."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from fractions import Fraction

import pytest

from bot.services import (
    Actor,
    ArenaStatus,
    ArenaUpdate,
    EndReason,
    GameResult,
    GameService,
    GameStatus,
    GuildShards,
    Place,
    ServiceSettings,
    refusals,
)
from bot.services.arena import Entrant, PlayedGame, Result, RoundRecord, standings
from tests.services.helpers import ALICE, BOB, CAROL, DAVE, GUILD, HERE, THERE, ManualClock, make_service

PLAYERS = [ALICE, BOB, CAROL, DAVE] + [Actor(3_000_000_000_000_100 + i, f"Player {i}") for i in range(4)]
BY_ID = {actor.user_id: actor for actor in PLAYERS}
X_WINS = ["a1", "a2", "b1", "b2", "c1"]
DRAW = ["b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3"]
_threads: Iterator[int] = itertools.count(4_000_000_000_000_001)


def thread() -> Place:
    return Place(GUILD, next(_threads), parent_id=HERE.channel_id)


async def set_up(service: GameService, update: ArenaUpdate) -> dict[int, Place]:
    """What the adapter does with a new round: a thread and a game per pairing; game id -> thread."""
    assert update.new_round is not None
    made = {}
    for pairing in update.new_round.pairings:
        place = thread()
        game = await service.create_arena_game(pairing.arena_id, pairing.round_number, pairing.board, place)
        assert game is not None and game.status is GameStatus.ACTIVE and game.arena_id == pairing.arena_id
        assert (game.x.user_id, game.o.user_id) == (pairing.x.user_id, pairing.o.user_id)
        made[game.id] = place
    return made


async def play(service: GameService, place: Place, x: Actor, o: Actor, cells: list[str]) -> int:
    for cell, actor in zip(cells, itertools.cycle([x, o]), strict=False):
        view = await service.move(place, actor, cell)
    return view.id


async def open_with(service: GameService, count: int, **options: object) -> None:
    await service.open_arena(HERE, PLAYERS[0], **options)  # type: ignore[arg-type]
    for actor in PLAYERS[1:count]:
        await service.join_arena(HERE, actor)


# The lobby


async def test_open_join_leave_and_the_lobby_view(service: GameService, clock: ManualClock) -> None:
    opened = await service.open_arena(HERE, ALICE, size=4, minutes=10, rated=False)
    assert opened.status is ArenaStatus.OPEN and opened.size == 4 and not opened.rated
    assert [p.user_id for p in opened.players] == [ALICE.user_id] and opened.rounds is None
    assert (opened.starts_at - clock.now).total_seconds() == 600
    await service.join_arena(HERE, BOB)
    view = await service.join_arena(HERE, CAROL, arena_id=opened.id)
    assert [p.name for p in view.players] == ["Alice", "Bob", "Carol"] and view.rounds == 2
    left = await service.leave_arena(HERE, BOB)
    assert [p.name for p in left.arena.players] == ["Alice", "Carol"] and left.arena.rounds is None
    rejoined = await service.join_arena(HERE, BOB)
    assert [p.name for p in rejoined.players] == ["Alice", "Carol", "Bob"]


@pytest.mark.parametrize(
    ("place", "options", "refusal"),
    [
        (Place(None, 5), {}, refusals.ArenaOutsideServer),
        (Place(GUILD, 6, parent_id=HERE.channel_id), {}, refusals.ArenaInThread),
        (HERE, {"rounds": 0}, refusals.BadArenaRounds),
        (HERE, {"rounds": 10}, refusals.BadArenaRounds),
        (HERE, {"minutes": 0}, refusals.BadLobbyMinutes),
        (HERE, {"minutes": 61}, refusals.BadLobbyMinutes),
        (HERE, {"size": 6}, refusals.BadSize),
    ],
)
async def test_bad_openings_are_refused(
    service: GameService, place: Place, options: dict[str, int], refusal: type[refusals.Refusal]
) -> None:
    with pytest.raises(refusal):
        await service.open_arena(place, ALICE, **options)  # type: ignore[arg-type]
    with pytest.raises(refusals.NoArenaInServer):
        await service.arena_standings(GUILD)


async def test_the_lobbys_refusals_change_nothing(service: GameService) -> None:
    opened = await service.open_arena(HERE, ALICE)
    with pytest.raises(refusals.ArenaHere):
        await service.open_arena(HERE, BOB)
    await service.open_arena(THERE, BOB)  # another channel of the server may have its own
    with pytest.raises(refusals.AlreadyInArena):
        await service.join_arena(HERE, ALICE)
    with pytest.raises(refusals.NotInArena):
        await service.leave_arena(HERE, CAROL)
    with pytest.raises(refusals.NoArena):
        await service.join_arena(Place(GUILD, 99), CAROL)
    with pytest.raises(refusals.NoArena):
        await service.join_arena(THERE, CAROL, arena_id=opened.id)  # a button of another channel's lobby
    await service.join_arena(HERE, BOB)
    with pytest.raises(refusals.NotArenaOpener):
        await service.start_arena(HERE, BOB)
    with pytest.raises(refusals.NotArenaOpener):
        await service.cancel_arena(HERE, BOB)
    with pytest.raises(refusals.TooFewArenaPlayers):
        await service.start_arena(HERE, ALICE)
    view = await service.arena_standings(GUILD)
    assert view.id == opened.id or view.channel_id == THERE.channel_id
    assert [p.name for p in (await service.arena(opened.id)).players] == ["Alice", "Bob"]  # type: ignore[union-attr]
    await service.join_arena(HERE, CAROL)
    started = await service.start_arena(HERE, BOB, may_manage=True)  # a manager may start it
    assert started.arena.status is ArenaStatus.RUNNING and started.new_round is not None
    with pytest.raises(refusals.ArenaStarted):
        await service.join_arena(HERE, DAVE)
    with pytest.raises(refusals.ArenaStarted):
        await service.start_arena(HERE, ALICE)


async def test_a_full_arena_refuses_joins(service: GameService) -> None:
    await service.open_arena(HERE, ALICE)
    for i in range(63):
        await service.join_arena(HERE, Actor(5_000_000_000_000_000 + i, f"P{i}"))
    with pytest.raises(refusals.ArenaFull):
        await service.join_arena(HERE, BOB)


async def test_the_lobby_starts_when_its_time_is_up_or_is_cancelled_with_too_few(
    service: GameService, clock: ManualClock
) -> None:
    await service.open_arena(HERE, ALICE, minutes=5)
    await service.join_arena(HERE, BOB)
    await service.open_arena(THERE, CAROL, minutes=6)
    for actor in (ALICE, BOB, DAVE):
        await service.join_arena(THERE, actor)
    assert await service.next_arena_start() == clock.now + timedelta(minutes=5)
    clock.advance(299)
    assert await service.sweep_arenas() == []
    clock.advance(1)
    [too_few] = await service.sweep_arenas()
    assert too_few.too_few and too_few.arena.status is ArenaStatus.CANCELLED
    clock.advance(60)
    [started] = await service.sweep_arenas()
    assert started.arena.status is ArenaStatus.RUNNING and started.arena.rounds == 2
    assert started.new_round is not None and len(started.new_round.pairings) == 2
    assert await service.next_arena_start() is None


# Rounds


async def test_eight_players_play_three_rounds_with_a_leave_a_timeout_a_draw_and_a_restart(
    service: GameService,
    clock: ManualClock,
    database_url: str,
    settings: ServiceSettings,
    executor: ThreadPoolExecutor,
) -> None:
    await open_with(service, 8)
    update = await service.start_arena(HERE, ALICE)
    assert update.arena.rounds == 3
    results: list[list[tuple[int, int, GameResult]]] = []
    seen_pairs: set[frozenset[int]] = set()
    left_after: dict[int, int] = {}
    current = service
    for number in (1, 2, 3):
        new_round = update.new_round
        assert new_round is not None and new_round.number == number
        for pairing in new_round.pairings:
            pair = frozenset((pairing.x.user_id, pairing.o.user_id))
            assert pair not in seen_pairs
            seen_pairs.add(pair)
        threads = await set_up(current, update)
        games = {p.game_id: p for p in (await current.arena(update.arena.id)).current.pairings}  # type: ignore[union-attr]
        played: list[tuple[int, int, GameResult]] = []
        updates: list[ArenaUpdate] = []
        for board, (game_id, place) in enumerate(threads.items()):
            pairing = games[game_id]
            x, o = BY_ID[pairing.x.user_id], BY_ID[pairing.o.user_id]
            if number == 2 and board == 0:
                # X leaves the arena in the middle of the game: a forfeit, and out of round 3.
                await current.move(place, x, "b2")
                left = await current.leave_arena(HERE, x)
                assert [g.id for g in left.ended_games] == [game_id]
                assert left.ended_games[0].result is GameResult.O_WON
                left_after[x.user_id] = 2
                played.append((x.user_id, o.user_id, GameResult.O_WON))
                if left.new_round is not None:
                    updates.append(left)
                continue
            if number == 2 and board == 1:
                # Nobody moves: X loses on time, found by the sweep.
                played.append((x.user_id, o.user_id, GameResult.O_WON))
                continue
            if number == 1 and board == 1:
                # The restart: a new service over the same database takes over mid-round.
                await current.close()
                current = make_service(database_url, settings, clock, executor)
            cells = DRAW if board % 2 == 0 else X_WINS
            game_id = await play(current, place, x, o, cells)
            result = GameResult.DRAW if cells is DRAW else GameResult.X_WON
            played.append((x.user_id, o.user_id, result))
            over = await current.arena_game_over(game_id)
            if over is not None and over.new_round is not None:
                updates.append(over)
        if number == 2:
            assert updates == []  # the timed-out game is still running
            clock.advance(601)
            swept = await current.sweep()
            assert [v.end_reason for v in swept] == [EndReason.TIMEOUT]
            updates = [u for u in await current.sweep_arenas() if u.new_round is not None]
        results.append(played)
        if number < 3:
            [update] = updates
            if number == 2:
                assert update.new_round is not None and len(update.new_round.pairings) == 3
                assert update.new_round.bye is not None  # seven players left: one has the bye
        else:
            assert updates == []
    final = await current.arena_standings(GUILD)
    assert final.status is ArenaStatus.FINISHED and [r.number for r in final.played] == [1, 2, 3]
    # The standings are the rules' own on the results played here.
    entrants = [Entrant(p.user_id, seed, left_after.get(p.user_id)) for seed, p in enumerate(PLAYERS, 1)]
    swiss = {GameResult.X_WON: Result.X_WON, GameResult.O_WON: Result.O_WON, GameResult.DRAW: Result.DRAW}
    records = [
        RoundRecord(
            r.number,
            tuple(PlayedGame(x, o, swiss[res]) for x, o, res in played),
            None if r.bye is None else r.bye.user_id,
        )
        for r, played in zip(final.played, results, strict=True)
    ]
    expected = standings(entrants, records)
    assert [(s.rank, s.player.user_id, s.points, s.buchholz) for s in final.standings] == [
        (s.rank, s.player, s.points, s.buchholz) for s in expected
    ]
    assert sum(s.points for s in final.standings) == Fraction(12)  # a point for each of 11 games and the bye
    await current.close()


async def test_after_a_restart_the_games_still_to_make_are_named(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    first = make_service(database_url, settings, clock, executor)
    await open_with(first, 5)
    update = await first.start_arena(HERE, ALICE)
    assert update.new_round is not None and update.new_round.bye is not None
    made = update.new_round.pairings[0]
    await first.create_arena_game(made.arena_id, 1, made.board, thread())
    await first.close()
    second = make_service(database_url, settings, clock, executor)
    [again] = await second.arena_rounds_to_set_up()
    assert again.new_round is not None and again.new_round.number == 1
    assert [p.game_id is not None for p in again.new_round.pairings] == [True, False]
    assert await second.create_arena_game(made.arena_id, 1, made.board, thread()) is None  # made already
    rest = again.new_round.pairings[1]
    assert await second.create_arena_game(rest.arena_id, 1, rest.board, thread()) is not None
    assert await second.arena_rounds_to_set_up() == []
    await second.close()


async def test_a_rated_arenas_games_are_rated_and_an_unrated_ones_are_not(service: GameService) -> None:
    for rated, place in ((True, HERE), (False, THERE)):
        await service.open_arena(place, ALICE, rated=rated)
        for actor in (BOB, CAROL, DAVE):
            await service.join_arena(place, actor)
        update = await service.start_arena(place, ALICE)
        [(game_id, where), *_] = (await set_up(service, update)).items()
        view = await service.game(game_id)
        await play(service, where, BY_ID[view.x.user_id], BY_ID[view.o.user_id], X_WINS)
        ended = await service.game(game_id)
        assert ended.result is GameResult.X_WON and ended.rated is rated


async def test_cancels_players_may_not_cancel_an_arena_game_a_moderator_makes_it_a_draw(
    service: GameService,
) -> None:
    await open_with(service, 4)
    update = await service.start_arena(HERE, ALICE)
    threads = await set_up(service, update)
    (first_id, first), (second_id, _) = threads.items()
    view = await service.game(first_id)
    with pytest.raises(refusals.ArenaGameCancel):
        await service.cancel(first, BY_ID[view.x.user_id])
    await service.cancel(first, ALICE if view.x.user_id != ALICE.user_id else BOB, is_moderator=True)
    assert await service.arena_game_over(first_id) is None  # the other game of the round runs on
    arena = await service.arena_standings(GUILD)
    assert arena.current is not None and arena.current.pairings[0].result is GameResult.DRAW
    cancelled = await service.cancel_arena(HERE, BOB, may_manage=True)
    assert cancelled.arena.status is ArenaStatus.CANCELLED
    assert [g.id for g in cancelled.ended_games] == [second_id]
    assert cancelled.ended_games[0].status is GameStatus.CANCELLED
    with pytest.raises(refusals.ArenaOver):
        await service.cancel_arena(HERE, ALICE, arena_id=cancelled.arena.id)
    assert await service.arena_game_over(second_id) is None
    await service.open_arena(HERE, BOB)  # the channel is free for a new arena


async def test_a_process_runs_only_its_own_shards_arenas(
    database_url: str, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    owner = (GUILD >> 22) % 2
    settings = {
        shard: ServiceSettings(
            start_cooldown_seconds=0, turn_timeout_seconds=600, shards=GuildShards(count=2, ids=(shard,))
        )
        for shard in (0, 1)
    }
    other = make_service(database_url, settings[1 - owner], clock, executor)
    mine = make_service(database_url, settings[owner], clock, executor)
    await open_with(mine, 3, minutes=1)
    clock.advance(60)
    assert await other.sweep_arenas() == []
    [started] = await mine.sweep_arenas()
    assert started.arena.status is ArenaStatus.RUNNING
    assert await other.arena_rounds_to_set_up() == []
    assert len(await mine.arena_rounds_to_set_up()) == 1
    await other.close()
    await mine.close()


async def test_a_leave_before_the_game_is_made_decides_the_pairing_and_a_field_of_one_ends_the_arena(
    service: GameService,
) -> None:
    await open_with(service, 3)
    update = await service.start_arena(HERE, ALICE)
    assert update.new_round is not None
    [pairing] = update.new_round.pairings
    assert update.new_round.bye is not None
    leaver = BY_ID[pairing.x.user_id]
    left = await service.leave_arena(HERE, leaver)
    assert left.ended_games == ()  # no game was made for the pairing yet
    assert await service.create_arena_game(pairing.arena_id, 1, pairing.board, thread()) is None
    # The round is over: the two players left meet in round 2.
    assert left.new_round is not None and left.new_round.number == 2
    [second] = left.new_round.pairings
    assert leaver.user_id not in (second.x.user_id, second.o.user_id) and left.new_round.bye is None
    with pytest.raises(refusals.NotInArena):
        await service.leave_arena(HERE, leaver)
    other = BY_ID[second.o.user_id]
    place = thread()
    game = await service.create_arena_game(second.arena_id, 2, second.board, place)
    assert game is not None
    gone = await service.leave_arena(HERE, other)
    assert [g.result for g in gone.ended_games] == [GameResult.X_WON]
    # One player is left: no round can be paired, so the arena is over.
    assert gone.new_round is None and gone.arena.status is ArenaStatus.FINISHED
    assert gone.arena.standings[0].player.user_id == second.x.user_id
    assert [s.player.active for s in gone.arena.standings].count(True) == 1
