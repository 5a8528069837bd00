"""Arenas: Swiss tournaments in a server, each pairing's game played on the normal board in a channel
of its own (on Discord, a thread) that the adapter creates.

The life of an arena: it is **open** (its lobby takes players) until its opener, or a member who may
manage the server, starts it, or its lobby time runs out (:meth:`Arenas.sweep`); it then **runs**
its rounds, each paired by :func:`~bot.services.arena.pair_round` when the last game of the one
before ends, and is **finished** after its last round (or when no pairing without a repeat is left),
unless it is **cancelled**. Everything lives in the database, so a restart loses nothing: the sweep
notes the results of games that ended meanwhile, pairs the rounds they complete, and
:meth:`Arenas.rounds_to_set_up` names the games still to be created.

On several processes, each runs the arenas of its own shards' servers in its sweep; changes are
compare-and-sets on the arena's version, so two racing changes apply once.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta

from bot.db import GameRecord, LostRaceError, Repository
from bot.db.models import Arena, ArenaPairing, ArenaPlayer, ArenaRound
from bot.engine import Board
from bot.services import metrics, refusals, rules
from bot.services.arena import (
    MAX_ROUNDS,
    MIN_PLAYERS,
    MIN_ROUNDS,
    Entrant,
    NoPairingLeftError,
    PlayedGame,
    Result,
    RoundRecord,
    default_rounds,
    max_rounds,
    pair_round,
    standings,
)
from bot.services.arena_views import (
    ArenaEntrantView,
    ArenaUpdate,
    ArenaView,
    PairingView,
    RoundView,
    StandingView,
)
from bot.services.core import ServiceCore
from bot.services.endings import end
from bot.services.results import Actor, GameView, Place
from bot.states import ArenaStatus, EndReason, GameResult, GameStatus

MAX_PLAYERS = 64
"""The most players an arena takes: 32 games a round, 32 threads."""
LOBBY_MINUTES = (1, 60)
DEFAULT_LOBBY_MINUTES = 5

_SWISS_RESULT = {GameResult.X_WON: Result.X_WON, GameResult.O_WON: Result.O_WON, GameResult.DRAW: Result.DRAW}


class Arenas:
    """Opening, joining, leaving, starting and cancelling arenas; their rounds and standings."""

    def __init__(self, core: ServiceCore) -> None:
        self._core = core

    # Requests of members

    async def open(
        self, place: Place, opener: Actor, rounds: int | None, size: int, minutes: int, rated: bool
    ) -> ArenaView:
        """Open an arena in this channel, its opener its first player; it starts in ``minutes``."""
        core = self._core
        if place.guild_id is None:
            raise refusals.ArenaOutsideServer()
        if place.parent_id is not None:
            raise refusals.ArenaInThread()
        rules.check_size(size)
        if rounds is not None and not MIN_ROUNDS <= rounds <= MAX_ROUNDS:
            raise refusals.BadArenaRounds()
        if not LOBBY_MINUTES[0] <= minutes <= LOBBY_MINUTES[1]:
            raise refusals.BadLobbyMinutes()
        (await core.server_rules(place.guild_id)).check_may_play(place, opener)
        now = core.clock()
        async with core.write() as repo:
            await core.save_players(repo, now, opener)
            arena = await repo.add_arena(
                guild_id=place.guild_id,
                channel_id=place.channel_id,
                opened_by=opener.user_id,
                size=size,
                rounds=rounds,
                rated=rated,
                status=ArenaStatus.OPEN,
                starts_at=now + timedelta(minutes=minutes),
                created_at=now,
                updated_at=now,
            )
            if arena is None:
                raise refusals.ArenaHere()
            await repo.add_arena_player(arena.id, opener.user_id, now)
            return await self._view(repo, arena)

    async def join(self, place: Place, user: Actor, arena_id: int | None) -> ArenaView:
        """``user`` joins the channel's open arena (or ``arena_id``, a lobby's button)."""
        core = self._core
        now = core.clock()
        async with core.write() as repo:
            arena = await self._arena_here(repo, place, arena_id)
            if arena.status is ArenaStatus.RUNNING:
                raise refusals.ArenaStarted()
            if arena.status is not ArenaStatus.OPEN:
                raise refusals.ArenaOver()
            (await core.server_rules(place.guild_id, repo)).check_may_play(place, user)
            players = await repo.arena_players(arena.id)
            if any(player.player_id == user.user_id for player in players):
                raise refusals.AlreadyInArena()
            if len(players) >= MAX_PLAYERS:
                raise refusals.ArenaFull()
            await core.save_players(repo, now, user)
            if not await repo.add_arena_player(arena.id, user.user_id, now):
                raise refusals.AlreadyInArena()
            await self._changed(repo, arena, updated_at=now)
            return await self._view(repo, arena)

    async def leave(self, place: Place, user: Actor, arena_id: int | None) -> ArenaUpdate:
        """``user`` leaves: out of the lobby, or out of a running arena, losing the game they are in."""
        core = self._core
        now = core.clock()
        async with core.write() as repo:
            arena = await self._arena_here(repo, place, arena_id)
            if not arena.status.is_live:
                raise refusals.ArenaOver()
            players = await repo.arena_players(arena.id)
            me = next((p for p in players if p.player_id == user.user_id and p.left_after is None), None)
            if me is None:
                raise refusals.NotInArena()
            if arena.status is ArenaStatus.OPEN:
                await repo.remove_arena_player(arena.id, user.user_id)
                await self._changed(repo, arena, updated_at=now)
                return ArenaUpdate(await self._view(repo, arena))
            await repo.set_arena_player_left(arena.id, user.user_id, arena.current_round)
            await self._changed(repo, arena, updated_at=now)
            ended = await self._forfeit(repo, arena, user.user_id, now)
            update = await self._advance(repo, arena, now)
            if update is None:
                update = ArenaUpdate(await self._view(repo, arena))
            return ArenaUpdate(update.arena, update.new_round, ended)

    async def start(self, place: Place, user: Actor, may_manage: bool, arena_id: int | None) -> ArenaUpdate:
        """Start the lobby's arena now: its first round is paired (the opener, or a manager)."""
        core = self._core
        now = core.clock()
        async with core.write() as repo:
            arena = await self._arena_here(repo, place, arena_id)
            self._check_may_run(arena, user, may_manage)
            if arena.status is ArenaStatus.RUNNING:
                raise refusals.ArenaStarted()
            players = await repo.arena_players(arena.id)
            if len(players) < MIN_PLAYERS:
                raise refusals.TooFewArenaPlayers()
            return await self._begin(repo, arena, players, now)

    async def cancel(self, place: Place, user: Actor, may_manage: bool, arena_id: int | None) -> ArenaUpdate:
        """Cancel the arena (the opener, or a manager): the games of its round are cancelled too."""
        core = self._core
        now = core.clock()
        async with core.write() as repo:
            arena = await self._arena_here(repo, place, arena_id)
            self._check_may_run(arena, user, may_manage)
            ended = []
            for pairing in await repo.arena_pairings(arena.id, arena.current_round or None):
                game = await self._live_game(repo, pairing)
                if game is not None:
                    game = await end(core, repo, game, GameStatus.CANCELLED, None, EndReason.CANCEL, now)
                    ended.append(await core.view(repo, game))
            await self._changed(repo, arena, status=ArenaStatus.CANCELLED, updated_at=now, finished_at=now)
            return ArenaUpdate(await self._view(repo, arena), ended_games=tuple(ended))

    async def standings(self, guild_id: int | None) -> ArenaView:
        """The server's running or open arena, else its latest one."""
        if guild_id is None:
            raise refusals.ArenaOutsideServer()
        async with self._core.read() as repo:
            arena = await repo.latest_arena(guild_id)
            if arena is None:
                raise refusals.NoArenaInServer()
            return await self._view(repo, arena)

    async def arena(self, arena_id: int) -> ArenaView | None:
        """The arena ``arena_id``, if there is one."""
        async with self._core.read() as repo:
            arena = await repo.arena(arena_id)
            return None if arena is None else await self._view(repo, arena)

    # The adapter's part: messages, games in their channels, and the timers

    async def set_message(self, arena_id: int, message_id: int) -> None:
        """Remember the arena's lobby message (which later shows its standings), to edit it."""
        async with self._core.write() as repo:
            arena = await repo.arena(arena_id)
            if arena is not None:
                await self._changed(repo, arena, message_id=message_id)

    async def set_round_message(self, arena_id: int, number: int, message_id: int) -> None:
        """Remember the message of round ``number``, which its games' threads hang from."""
        async with self._core.write() as repo:
            await repo.set_arena_round_message(arena_id, number, message_id)

    async def set_pairing_thread(self, arena_id: int, round_number: int, board: int, thread_id: int) -> None:
        """Remember the thread of a pairing before its game exists, so a set-up that failed half-way
        is finished in that thread rather than in a second one."""
        async with self._core.write() as repo:
            await repo.set_pairing_thread(arena_id, round_number, board, thread_id)

    async def create_game(
        self, arena_id: int, round_number: int, board: int, place: Place
    ) -> GameView | None:
        """Start the game of a pairing in ``place``, the channel made for it; X is on turn.

        None when there is nothing to start: the arena no longer runs, the pairing has its game
        already, or it was decided without one (a player left first).
        """
        core = self._core
        now = core.clock()
        async with core.write() as repo:
            arena = await repo.arena(arena_id)
            if (
                arena is None
                or arena.status is not ArenaStatus.RUNNING
                or round_number != arena.current_round
            ):
                return None
            pairing = next(
                (p for p in await repo.arena_pairings(arena_id, round_number) if p.board == board), None
            )
            if pairing is None or pairing.game_id is not None or pairing.result is not None:
                return None
            empty = Board.empty(arena.size)
            game = await repo.add_game(
                guild_id=arena.guild_id,
                channel_id=place.channel_id,
                interactions_only=False,
                size=arena.size,
                k=empty.k,
                level=None,
                x_player_id=pairing.x_player_id,
                o_player_id=pairing.o_player_id,
                created_by=arena.opened_by,
                starter_locale=None,
                status=GameStatus.ACTIVE,
                board=empty.compact,
                ply=0,
                seed=core.rng.getrandbits(62),
                rated=False,
                rating_weight=0.0,
                version=1,
                deadline=await core.turn_deadline(repo, arena.guild_id, pairing.x_player_id, now),
                arena_id=arena.id,
                created_at=now,
                updated_at=now,
            )
            if game is None:
                raise rules.busy_channel(await repo.live_game(place.channel_id))
            if not await repo.set_pairing_game(arena_id, round_number, board, game.id, place.channel_id):
                raise LostRaceError(f"arena {arena_id} round {round_number} board {board} has its game")
            core.after_commit(functools.partial(metrics.game_started, arena.size, None))
            return await core.view(repo, game)

    async def game_over(self, game_id: int) -> ArenaUpdate | None:
        """Note how an arena game ended; when it was its round's last, the next round is paired (or
        the arena ends). None for a game outside arenas, or when nothing changed for the arena."""
        core = self._core
        now = core.clock()
        async with core.write() as repo:
            pairing = await repo.pairing_of_game(game_id)
            if pairing is None:
                return None
            game = await repo.game(game_id)
            if game is None or game.status.is_live:
                return None
            return await self._record(repo, pairing, game.status, game.result, now)

    async def rounds_to_set_up(self) -> list[ArenaUpdate]:
        """This process's running arenas whose current round still has games to create (after a
        restart, or a thread that could not be made): each as a ``new_round`` to set up again."""
        async with self._core.read() as repo:
            found = [a for a in await repo.arenas_with_games_to_make() if self._serves(a)]
            return [
                ArenaUpdate(view, new_round=view.current)
                for view in [await self._view(repo, a) for a in found]
            ]

    async def sweep(self) -> list[ArenaUpdate]:
        """Start (or, with too few players, cancel) the lobbies whose time is up; note the results of
        arena games that ended without a word to the arena (a timeout, a restart); pair the rounds
        they complete. Only this process's servers' arenas."""
        core = self._core
        now = core.clock()
        async with core.read() as repo:
            due = [arena.id for arena in await repo.due_arenas(now) if self._serves(arena)]
            ended = await repo.ended_unrecorded_games()
            done = [arena.id for arena in await repo.arenas_with_round_done() if self._serves(arena)]
        updates: list[ArenaUpdate] = []
        for arena_id in due:
            update = await self._attempt(functools.partial(self._start_due, arena_id, now))
            if update is not None:
                updates.append(update)
        for pairing, status, result in ended:
            update = await self._attempt(functools.partial(self._record_in_own, pairing, status, result, now))
            if update is not None:
                updates.append(update)
        for arena_id in done:
            update = await self._attempt(functools.partial(self._advance_by_id, arena_id, now))
            if update is not None:
                updates.append(update)
        return updates

    async def next_start(self) -> datetime | None:
        """When the earliest open lobby closes, for scheduling the next :meth:`sweep`."""
        async with self._core.read() as repo:
            return await repo.next_lobby_close()

    # The steps

    @staticmethod
    async def _attempt(step: Callable[[], Awaitable[ArenaUpdate | None]]) -> ArenaUpdate | None:
        try:
            return await step()
        except refusals.StaleBoard:  # another process did it first
            return None

    async def _start_due(self, arena_id: int, now: datetime) -> ArenaUpdate | None:
        async with self._core.write() as repo:
            arena = await repo.arena(arena_id)
            if arena is None or arena.status is not ArenaStatus.OPEN or arena.starts_at > now:
                return None
            players = await repo.arena_players(arena.id)
            if len(players) < MIN_PLAYERS:
                await self._changed(
                    repo, arena, status=ArenaStatus.CANCELLED, updated_at=now, finished_at=now
                )
                return ArenaUpdate(await self._view(repo, arena), too_few=True)
            return await self._begin(repo, arena, players, now)

    async def _record_in_own(
        self, pairing: ArenaPairing, status: GameStatus, result: GameResult | None, now: datetime
    ) -> ArenaUpdate | None:
        async with self._core.write() as repo:
            arena = await repo.arena(pairing.arena_id)
            if arena is None or not self._serves(arena):
                return None
            return await self._record(repo, pairing, status, result, now)

    async def _advance_by_id(self, arena_id: int, now: datetime) -> ArenaUpdate | None:
        async with self._core.write() as repo:
            arena = await repo.arena(arena_id)
            if arena is None or arena.status is not ArenaStatus.RUNNING:
                return None
            return await self._advance(repo, arena, now)

    async def _record(
        self,
        repo: Repository,
        pairing: ArenaPairing,
        status: GameStatus,
        result: GameResult | None,
        now: datetime,
    ) -> ArenaUpdate | None:
        """Note a pairing's result (a game cancelled by a moderator counts as a draw), then advance."""
        arena = await repo.arena(pairing.arena_id)
        if (
            arena is None
            or arena.status is not ArenaStatus.RUNNING
            or pairing.round_number != arena.current_round
        ):
            return None
        scored = result if status is GameStatus.FINISHED and result is not None else GameResult.DRAW
        await repo.set_pairing_result(pairing.arena_id, pairing.round_number, pairing.board, scored)
        return await self._advance(repo, arena, now)

    async def _begin(
        self, repo: Repository, arena: Arena, players: Sequence[ArenaPlayer], now: datetime
    ) -> ArenaUpdate:
        """Fix the number of rounds and pair the first."""
        rounds = min(arena.rounds or default_rounds(len(players)), max_rounds(len(players)))
        plan = pair_round(entrants_of(players), [])
        await self._store_round(repo, arena, plan.number, plan.bye, [(p.x, p.o) for p in plan.pairings], now)
        await self._changed(
            repo, arena, status=ArenaStatus.RUNNING, rounds=rounds, current_round=1, updated_at=now
        )
        view = await self._view(repo, arena)
        return ArenaUpdate(view, new_round=view.current)

    async def _advance(self, repo: Repository, arena: Arena, now: datetime) -> ArenaUpdate | None:
        """When every game of the current round has its result: pair the next round, or end the arena."""
        pairings = await repo.arena_pairings(arena.id, arena.current_round)
        if any(pairing.result is None for pairing in pairings):
            return None
        await repo.finish_arena_round(arena.id, arena.current_round, now)
        assert arena.rounds is not None
        if arena.current_round < arena.rounds:
            players = await repo.arena_players(arena.id)
            records = round_records(await repo.arena_rounds(arena.id), await repo.arena_pairings(arena.id))
            try:
                plan = pair_round(entrants_of(players), records)
            except NoPairingLeftError:
                pass
            else:
                await self._store_round(
                    repo, arena, plan.number, plan.bye, [(p.x, p.o) for p in plan.pairings], now
                )
                await self._changed(repo, arena, current_round=plan.number, updated_at=now)
                view = await self._view(repo, arena)
                return ArenaUpdate(view, new_round=view.current)
        await self._changed(repo, arena, status=ArenaStatus.FINISHED, updated_at=now, finished_at=now)
        return ArenaUpdate(await self._view(repo, arena))

    async def _store_round(
        self,
        repo: Repository,
        arena: Arena,
        number: int,
        bye: int | None,
        pairings: list[tuple[int, int]],
        now: datetime,
    ) -> None:
        if not await repo.add_arena_round(arena.id, number, bye, pairings, now):
            raise LostRaceError(f"arena {arena.id} has its round {number} already")

    async def _forfeit(
        self, repo: Repository, arena: Arena, leaver: int, now: datetime
    ) -> tuple[GameView, ...]:
        """The leaver loses their game of the current round (as a resignation), or the pairing without one."""
        for pairing in await repo.arena_pairings(arena.id, arena.current_round):
            if leaver not in (pairing.x_player_id, pairing.o_player_id) or pairing.result is not None:
                continue
            winner = GameResult.O_WON if leaver == pairing.x_player_id else GameResult.X_WON
            game = await self._live_game(repo, pairing)
            if game is not None:
                game = await end(self._core, repo, game, GameStatus.FINISHED, winner, EndReason.RESIGN, now)
                await repo.set_pairing_result(arena.id, pairing.round_number, pairing.board, winner)
                return (await self._core.view(repo, game),)
            if pairing.game_id is None:
                await repo.set_pairing_result(arena.id, pairing.round_number, pairing.board, winner)
        return ()

    @staticmethod
    async def _live_game(repo: Repository, pairing: ArenaPairing) -> GameRecord | None:
        if pairing.game_id is None:
            return None
        game = await repo.game(pairing.game_id)
        return game if game is not None and game.status.is_live else None

    @staticmethod
    async def _changed(repo: Repository, arena: Arena, **values: object) -> None:
        """Compare-and-set ``values`` on the arena; another writer's change first makes this one stale."""
        if not await repo.update_arena(arena, **values):
            raise LostRaceError(f"arena {arena.id} changed meanwhile")

    @staticmethod
    async def _arena_here(repo: Repository, place: Place, arena_id: int | None) -> Arena:
        """The arena of the channel, or of a thread's parent channel (where its games are played)."""
        channel_id = place.parent_id or place.channel_id
        if arena_id is None:
            arena = await repo.live_arena(channel_id)
        else:
            arena = await repo.arena(arena_id)
            if arena is not None and (arena.channel_id != channel_id or arena.guild_id != place.guild_id):
                arena = None
        if arena is None:
            raise refusals.NoArena()
        return arena

    @staticmethod
    def _check_may_run(arena: Arena, user: Actor, may_manage: bool) -> None:
        if not arena.status.is_live:
            raise refusals.ArenaOver()
        if user.user_id != arena.opened_by and not may_manage:
            raise refusals.NotArenaOpener()

    def _serves(self, arena: Arena) -> bool:
        shards = self._core.settings.shards
        return shards is None or shards.serve(arena.guild_id)

    # Views

    async def _view(self, repo: Repository, arena: Arena) -> ArenaView:
        players = await repo.arena_players(arena.id)
        stored_rounds = await repo.arena_rounds(arena.id)
        pairings = await repo.arena_pairings(arena.id)
        wanted = {p.player_id for p in players} | {p.opened_by for p in [arena]}
        names = await repo.display_names(wanted)
        entrants = {
            p.player_id: ArenaEntrantView(
                p.player_id, names.get(p.player_id, str(p.player_id)), p.left_after is None
            )
            for p in players
        }
        records = round_records(stored_rounds, pairings)
        lines = standings(entrants_of(players), records)
        played = tuple(_round_view(r, pairings, entrants) for r in stored_rounds)
        if arena.status is ArenaStatus.OPEN:
            count = len(players)
            fits = max_rounds(count) if count >= MIN_PLAYERS else None
            planned = None if fits is None else min(arena.rounds or default_rounds(count), fits)
        else:
            planned = arena.rounds
        return ArenaView(
            id=arena.id,
            guild_id=arena.guild_id,
            channel_id=arena.channel_id,
            message_id=arena.message_id,
            opener_id=arena.opened_by,
            size=arena.size,
            rounds=planned,
            rounds_asked=arena.rounds if arena.status is ArenaStatus.OPEN else None,
            rated=arena.rated,
            status=arena.status,
            starts_at=arena.starts_at,
            current_round=arena.current_round,
            players=tuple(entrants.values()),
            standings=tuple(
                StandingView(
                    rank=line.rank,
                    player=entrants[line.player],
                    points=line.points,
                    buchholz=line.buchholz,
                    sonneborn_berger=line.sonneborn_berger,
                    wins=line.wins,
                    draws=line.draws,
                    losses=line.losses,
                    bye=line.bye,
                )
                for line in lines
            ),
            played=played,
            finished_at=arena.finished_at,
        )


def entrants_of(players: Sequence[ArenaPlayer]) -> list[Entrant]:
    """The arena's players as the Swiss rules see them."""
    return [Entrant(p.player_id, p.seed, p.left_after) for p in players]


def round_records(stored: Sequence[ArenaRound], pairings: Sequence[ArenaPairing]) -> list[RoundRecord]:
    """The stored rounds and their pairings as the Swiss rules see them."""
    return [
        RoundRecord(
            number=r.number,
            games=tuple(
                PlayedGame(
                    p.x_player_id, p.o_player_id, None if p.result is None else _SWISS_RESULT[p.result]
                )
                for p in pairings
                if p.round_number == r.number
            ),
            bye=r.bye_player_id,
        )
        for r in stored
    ]


def _round_view(
    stored: ArenaRound, pairings: Sequence[ArenaPairing], entrants: dict[int, ArenaEntrantView]
) -> RoundView:
    return RoundView(
        number=stored.number,
        pairings=tuple(
            PairingView(
                arena_id=p.arena_id,
                round_number=p.round_number,
                board=p.board,
                x=entrants[p.x_player_id],
                o=entrants[p.o_player_id],
                game_id=p.game_id,
                thread_id=p.thread_id,
                result=p.result,
            )
            for p in pairings
            if p.round_number == stored.number
        ),
        bye=None if stored.bye_player_id is None else entrants[stored.bye_player_id],
        message_id=stored.message_id,
        finished=stored.finished_at is not None,
    )
