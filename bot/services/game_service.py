"""The game service: every rule, turn, rating and transaction, for any adapter (Discord, terminal).

Each public method is one request from a user (or from the adapter's timers) and
returns a frozen result from :mod:`bot.services.results`. Anything the rules refuse
raises a :class:`~bot.services.refusals.Refusal`, and the refusal
changes nothing: checks run inside the transaction, and any error rolls it back.

Concurrency: every change of a game's state is a compare-and-set on its version
(see :mod:`bot.db.repository`), so of two requests racing on one game exactly one
applies, also across processes sharing a PostgreSQL database. When a table answers
the position (every 3x3 game, the 4x4 opening), the bot's reply is looked up and
stored in the same transaction as the human's move. Otherwise the engine searches in
a process pool (:class:`EnginePool`), outside any transaction: the bot's reply is
computed from the state it read and stored only if the game has not changed since.

Deadlines are kept by :meth:`GameService.sweep`, which the adapter calls every few
seconds: a move or an answer that arrives after its deadline but before the next
sweep still counts.
"""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any

from bot.db import GLOBAL_SCOPE, Database, DatabaseUnavailable, Game, Repository
from bot.engine import Board, Level, Mark, Status, format_cell
from bot.i18n import by_code
from bot.pictures import RatingPoint, RatingSeries, render_rating_chart, render_replay
from bot.services import refusals, rules
from bot.services.engine_pool import EnginePool
from bot.services.looking_back import check_visible, replay_moves, visible_from
from bot.services.picture_pool import PicturePool
from bot.services.presenter import game_view
from bot.services.rating_updates import apply_ratings, rating_weight
from bot.services.results import (
    Actor,
    CellVerdict,
    FinishedGames,
    First,
    GameHistory,
    GameReview,
    GameView,
    HintView,
    Leaderboard,
    MoveView,
    Place,
    PlayerStats,
    Replay,
)
from bot.services.review import ReviewCache, review_moves
from bot.services.settings import Clock, ServiceSettings, utc_now
from bot.services.stats import load_leaderboard, load_stats
from bot.states import EndReason, GameResult, GameStatus

log = logging.getLogger(__name__)

_NAME_LENGTH = 100
_NAME_CACHE_SIZE = 50_000
_LOOK_BACK_SCAN = 50
"""How many of a player's latest games are read to find those visible from where they ask."""


class GameService:
    """The one entry point adapters use. Create it once per process; call :meth:`close` at shutdown."""

    def __init__(
        self,
        database: Database,
        settings: ServiceSettings | None = None,
        *,
        engine: EnginePool | None = None,
        pictures: PicturePool | None = None,
        clock: Clock = utc_now,
        rng: random.Random | None = None,
    ) -> None:
        self.settings = settings or ServiceSettings()
        self.database = database
        self.engine = engine or EnginePool(self.settings.engine_workers, self.settings.engine_budget_ms)
        self._clock = clock
        self._rng = rng or random.Random()
        self._name_cache: dict[int, str] = {}
        self._server_languages: dict[int, str | None] = {}
        self._reviews = ReviewCache()
        self.pictures = pictures or PicturePool()

    async def close(self) -> None:
        """Stop the engine and pictures workers, and close the database connections."""
        self.engine.close()
        self.pictures.close()
        await self.database.close()

    # Transactions and views

    @asynccontextmanager
    async def _guard(self) -> AsyncIterator[None]:
        """Turn an unreachable or locked database into a short "try again" for the user."""
        try:
            yield
        except DatabaseUnavailable as error:
            log.warning("Database unavailable: %s", error, exc_info=error.__cause__)
            raise refusals.Unavailable() from error

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Repository]:
        async with self._guard(), self.database.write() as repo:
            yield repo

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Repository]:
        async with self._guard(), self.database.read() as repo:
            yield repo

    async def _names(self, repo: Repository, game: Game) -> dict[int, str]:
        """Display names of the game's players, from this process's cache when it knows them.

        A name is display only; one changed in another process shows up here once
        that player acts in this one.
        """
        wanted = [i for i in (game.x_player_id, game.o_player_id) if i is not None]
        missing = [i for i in wanted if i not in self._name_cache]
        if missing:
            self._remember(await repo.display_names(missing))
        return {i: self._name_cache[i] for i in wanted if i in self._name_cache}

    def _remember(self, names: Mapping[int, str]) -> None:
        if len(self._name_cache) > _NAME_CACHE_SIZE:
            self._name_cache.clear()
        self._name_cache.update(names)

    async def _view(self, repo: Repository, game: Game, names: Mapping[int, str] | None = None) -> GameView:
        if names is None:
            names = await self._names(repo, game)
        return game_view(game, names, self.settings.bot_name)

    async def _save_players(
        self, repo: Repository, now: datetime, *actors: Actor, known: Mapping[int, str] | None = None
    ) -> None:
        """Store each actor and their display name (skipped when ``known`` already has that name)."""
        for actor in actors:
            name = actor.display_name[:_NAME_LENGTH]
            if known is None or known.get(actor.user_id) != name:
                await repo.save_player(actor.user_id, name, now)
                self._remember({actor.user_id: name})

    # Lookups and checks

    async def _game_here(self, repo: Repository, place: Place, game_id: int | None) -> Game:
        """The game a request is about: ``game_id`` (which must be in this channel) or the live one."""
        if game_id is None:
            game = await repo.live_game(place.channel_id)
            if game is None:
                raise refusals.NoGame()
            return game
        found = await repo.game(game_id)
        if found is None or found.channel_id != place.channel_id or found.guild_id != place.guild_id:
            raise refusals.GameElsewhere()
        return found

    async def _check_can_start(self, repo: Repository, place: Place, user_id: int, now: datetime) -> None:
        live = await repo.live_game(place.channel_id)
        if live is not None:
            raise rules.busy_channel(live)
        cooldown = self.settings.start_cooldown_seconds
        last = await repo.last_game_created_by(user_id) if cooldown > 0 else None
        if last is not None and last.status is not GameStatus.FINISHED:
            # Flood protection only: a game played out to a result frees its player at once.
            wait = cooldown - (now - last.created_at).total_seconds()
            if wait > 0:
                raise refusals.Cooldown(wait)

    def _turn_deadline(self, player_id: int | None, now: datetime) -> datetime | None:
        """The human on turn must move by then; the bot has no deadline."""
        if player_id is None:
            return None
        return now + timedelta(seconds=self.settings.turn_timeout_seconds)

    def _human_is_x(self, first: First) -> bool:
        if first is First.RANDOM:
            return self._rng.random() < 0.5
        return first is First.ME

    # Starting games

    async def _create(
        self,
        repo: Repository,
        place: Place,
        size: int,
        creator: Actor,
        x: int | None,
        o: int | None,
        level: Level | None,
        now: datetime,
    ) -> GameView:
        """Insert a new game: against the bot it is active at once, between humans a pending challenge."""
        empty = Board.empty(size)
        deadline: datetime | None
        if level is None:
            status = GameStatus.PENDING
            deadline = now + timedelta(seconds=self.settings.challenge_timeout_seconds)
        else:
            status = GameStatus.ACTIVE
            deadline = self._turn_deadline(x, now)
        game = await repo.add_game(
            guild_id=place.guild_id,
            channel_id=place.channel_id,
            interactions_only=place.interactions_only,
            size=size,
            k=empty.k,
            level=None if level is None else level.value,
            x_player_id=x,
            o_player_id=o,
            created_by=creator.user_id,
            starter_locale=creator.locale,
            status=status,
            board=empty.compact,
            ply=0,
            seed=self._rng.getrandbits(62),
            rated=False,
            rating_weight=0.0,
            version=1,
            deadline=deadline,
            created_at=now,
            updated_at=now,
        )
        if game is None:  # another request took the channel since our check: the unique index said no
            raise rules.busy_channel(None)
        opening = self._reply_at_once(game, empty)
        if opening is not None:
            await self._play(repo, game, empty, opening, None, now)
        return await self._view(repo, game)

    async def start_vs_bot(
        self,
        place: Place,
        player: Actor,
        *,
        size: int = 3,
        level: Level = Level.PERFECT,
        first: First = First.ME,
    ) -> GameView:
        """Start a game against the bot; when the bot plays X it opens before this returns."""
        rules.check_size(size)
        human_x = self._human_is_x(first)
        now = self._clock()
        async with self._write() as repo:
            await self._check_can_start(repo, place, player.user_id, now)
            await self._save_players(repo, now, player)
            x, o = (player.user_id, None) if human_x else (None, player.user_id)
            view = await self._create(repo, place, size, player, x, o, level, now)
        return await self._after_human_turn(view)

    async def challenge(
        self,
        place: Place,
        challenger: Actor,
        opponent: Actor,
        *,
        opponent_is_bot: bool = False,
        size: int = 3,
        first: First = First.ME,
    ) -> GameView:
        """Challenge another member; the game waits (pending) until they accept, decline, or it expires.

        ``opponent_is_bot`` is whether the member is a bot account: bots cannot be
        challenged (to play this bot, use :meth:`start_vs_bot`).
        """
        if opponent.user_id == challenger.user_id:
            raise refusals.SelfChallenge()
        if opponent_is_bot:
            raise refusals.BotChallenge()
        rules.check_size(size)
        challenger_x = self._human_is_x(first)
        now = self._clock()
        async with self._write() as repo:
            await self._check_can_start(repo, place, challenger.user_id, now)
            await self._save_players(repo, now, challenger, opponent)
            sides = (challenger.user_id, opponent.user_id)
            x, o = sides if challenger_x else sides[::-1]
            return await self._create(repo, place, size, challenger, x, o, None, now)

    async def _pending_for(self, repo: Repository, place: Place, user: Actor, game_id: int | None) -> Game:
        game = await self._game_here(repo, place, game_id)
        if game.status is not GameStatus.PENDING:
            raise refusals.NotPending()
        challenged = rules.challenged_id(game)
        if challenged is None or user.user_id != challenged:
            name = (await self._names(repo, game)).get(challenged or 0)
            raise refusals.NotChallengedUnnamed() if name is None else refusals.NotChallenged(name)
        return game

    async def accept(self, place: Place, user: Actor, game_id: int | None = None) -> GameView:
        """The challenged member accepts: the game starts and X is on turn."""
        now = self._clock()
        async with self._write() as repo:
            game = await self._pending_for(repo, place, user, game_id)
            deadline = self._turn_deadline(game.x_player_id, now)
            if not await repo.update_game(game, status=GameStatus.ACTIVE, deadline=deadline, updated_at=now):
                raise refusals.StaleBoard()
            await self._save_players(repo, now, user)
            return await self._view(repo, game)

    async def decline(self, place: Place, user: Actor, game_id: int | None = None) -> GameView:
        """The challenged member declines; the challenge ends without a game."""
        now = self._clock()
        async with self._write() as repo:
            game = await self._pending_for(repo, place, user, game_id)
            await self._end(repo, game, GameStatus.CANCELLED, None, EndReason.DECLINED, now)
            await self._save_players(repo, now, user)
            return await self._view(repo, game)

    async def rematch(self, place: Place, user: Actor, game_id: int) -> GameView:
        """A new game between the same sides with marks swapped.

        Against the bot it starts at once (same level and size); against a person it
        is a new challenge they must accept.
        """
        now = self._clock()
        async with self._write() as repo:
            old = await self._game_here(repo, place, game_id)
            if old.status is not GameStatus.FINISHED:
                raise refusals.NotFinished()
            if rules.mark_of(old, user.user_id) is None:
                raise refusals.NotRematchPlayer()
            await self._check_can_start(repo, place, user.user_id, now)
            await self._save_players(repo, now, user)
            level = None if old.level is None else Level(old.level)
            x, o = old.o_player_id, old.x_player_id
            view = await self._create(repo, place, old.size, user, x, o, level, now)
        return await self._after_human_turn(view)

    # Playing

    async def move(
        self,
        place: Place,
        user: Actor,
        cell: str | int,
        *,
        game_id: int | None = None,
        expected_ply: int | None = None,
    ) -> GameView:
        """Play ``cell`` for ``user``; against the bot, its reply is made before this returns.

        ``cell`` is the contract's notation (``"b2"``, ``"5"``) or a 0-based index (a
        button). A button passes its ``game_id`` and the ``expected_ply`` it was drawn
        at, so a click on an outdated board is refused instead of played.
        """
        now = self._clock()
        async with self._write() as repo:
            game = await self._game_here(repo, place, game_id)
            names = await self._names(repo, game)
            board = rules.check_turn(game, user.user_id, expected_ply, names)
            index = rules.cell_index(cell, board)
            await self._play(repo, game, board, index, user.user_id, now)
            await self._save_players(repo, now, user, known=names)
            view = await self._view(repo, game, {**names, user.user_id: user.display_name[:_NAME_LENGTH]})
        return await self._after_human_turn(view)

    async def _play(
        self, repo: Repository, game: Game, board: Board, cell: int, player_id: int | None, now: datetime
    ) -> None:
        """Store a move and, when a table answers it, the bot's reply: one compare-and-set, one insert.

        Ends the game if it is decided. A reply that needs a search is left to
        :meth:`play_bot_turn`, after the commit (see :meth:`_after_human_turn`).
        """
        plays = [(board, cell, player_id)]
        after = board.play(cell)
        reply = self._reply_at_once(game, after)
        if reply is not None:
            plays.append((after, reply, None))
            after = after.play(reply)
        values: dict[str, Any] = {
            "board": after.compact,
            "ply": after.ply,
            "last_cell": plays[-1][1],
            "updated_at": now,
        }
        finishing = after.status is not Status.ONGOING
        if finishing:
            winner = after.winner
            result = GameResult.DRAW if winner is None else rules.RESULT_OF_WINNER[winner]
            reason = EndReason.FULL if winner is None else EndReason.LINE
            values.update(await self._finish_values(repo, game, result, reason, now, after.ply))
        else:
            values["deadline"] = self._turn_deadline(rules.player_of(game, after.turn), now)
        if not await repo.update_game(game, **values):
            raise refusals.StaleBoard()
        await repo.add_moves(
            game.id, [(before.ply, move, before.turn.value, who) for before, move, who in plays], now
        )
        if finishing:
            await apply_ratings(repo, game, now, self.settings.ratings)

    def _reply_at_once(self, game: Game, board: Board) -> int | None:
        """The bot's move on ``board`` if the bot is on turn there and a table answers it, else None."""
        if game.level is None or board.is_over or rules.player_of(game, board.turn) is not None:
            return None
        try:
            return self.engine.move_at_once(board, Level(game.level), self._bot_seed(game, board.ply))
        except Exception:
            log.exception("The engine failed on game %s; its move is left to the pool", game.id)
            return None

    @staticmethod
    def _bot_seed(game: Game, ply: int) -> int:
        """The engine's seed for the bot's move at ``ply`` (replays choose alike)."""
        return (game.seed + ply) % (1 << 62)

    async def _after_human_turn(self, view: GameView) -> GameView:
        """Make the bot's reply if it is on turn; if the engine fails, :meth:`resume_bot_turns` retries."""
        if not view.bot_to_move:
            return view
        try:
            return await self.play_bot_turn(view.id)
        except refusals.Refusal:
            raise
        except Exception:
            log.exception("The engine failed on game %s; the bot's move is left for a later retry", view.id)
            return view

    async def play_bot_turn(self, game_id: int) -> GameView:
        """Make the bot's move in ``game_id`` if it is the bot's turn; return the game as it then stands.

        The move is computed outside any transaction and stored only if the game is
        unchanged meanwhile, so two processes resuming the same game store one move.
        """
        async with self._read() as repo:
            game = await repo.game(game_id)
            if game is None:
                raise refusals.UnknownGame()
            seen = await self._view(repo, game)
        if not seen.bot_to_move or seen.level is None:
            return seen
        board = Board.parse(seen.board)
        cell = await self.engine.choose_move(board, seen.level, self._bot_seed(game, game.ply))
        now = self._clock()
        async with self._write() as repo:
            current = await repo.game(game_id)
            if current is None:
                raise refusals.UnknownGame()
            if current.version == seen.version:
                try:
                    await self._play(repo, current, board, cell, None, now)
                except refusals.StaleBoard:
                    await repo.reload(current)
            return await self._view(repo, current)

    async def resume_bot_turns(self) -> list[GameView]:
        """After a restart: make every bot move that was due when the process stopped.

        With ``settings.shards``, only in this process's guilds: another live process
        may be making the reply in its own guilds right now.
        """
        shards = self.settings.shards
        async with self._read() as repo:
            owned = None if shards is None else (shards.count, shards.ids)
            waiting = [game.id for game in await repo.games_awaiting_bot(shards=owned)]
        views = []
        for game_id in waiting:
            try:
                views.append(await self.play_bot_turn(game_id))
            except refusals.Refusal:
                continue
        return views

    # Ending games

    async def _finish_values(
        self,
        repo: Repository,
        game: Game,
        result: GameResult | None,
        reason: EndReason,
        now: datetime,
        plies: int,
    ) -> dict[str, Any]:
        weight = await rating_weight(repo, game, reason, now, plies, self.settings.ratings)
        return {
            "status": GameStatus.FINISHED,
            "result": result,
            "end_reason": reason,
            "deadline": None,
            "finished_at": now,
            "updated_at": now,
            "rated": weight > 0,
            "rating_weight": weight,
        }

    async def _end(
        self,
        repo: Repository,
        game: Game,
        status: GameStatus,
        result: GameResult | None,
        reason: EndReason,
        now: datetime,
    ) -> None:
        """End a game other than by a move (resignation, timeout, cancel, decline, expiry)."""
        finished = status is GameStatus.FINISHED
        if finished:
            values = await self._finish_values(repo, game, result, reason, now, game.ply)
        else:
            values = {
                "status": status,
                "end_reason": reason,
                "deadline": None,
                "finished_at": now,
                "updated_at": now,
            }
        if not await repo.update_game(game, **values):
            raise refusals.StaleBoard()
        if finished:
            await apply_ratings(repo, game, now, self.settings.ratings)

    async def resign(self, place: Place, user: Actor, game_id: int | None = None) -> GameView:
        """``user`` gives up their running game in this channel; the other side wins."""
        now = self._clock()
        async with self._write() as repo:
            game = await self._game_here(repo, place, game_id)
            mine = rules.mark_of(game, user.user_id)
            if mine is None:
                raise refusals.NotAPlayer()
            if game.status is GameStatus.PENDING:
                raise refusals.ResignBeforeStart()
            if game.status is not GameStatus.ACTIVE:
                raise refusals.GameOver()
            winner = rules.RESULT_OF_WINNER[mine.other]
            await self._end(repo, game, GameStatus.FINISHED, winner, EndReason.RESIGN, now)
            await self._save_players(repo, now, user)
            return await self._view(repo, game)

    async def cancel(
        self, place: Place, user: Actor, *, is_moderator: bool = False, game_id: int | None = None
    ) -> GameView:
        """End the channel's game or challenge without a result.

        Allowed for its players, and for moderators: the adapter decides who is one
        (on Discord, members with Manage Messages) and passes ``is_moderator``.
        """
        now = self._clock()
        async with self._write() as repo:
            game = await self._game_here(repo, place, game_id)
            if not game.status.is_live:
                raise refusals.AlreadyOver()
            if rules.mark_of(game, user.user_id) is None and not is_moderator:
                raise refusals.NotAllowed()
            await self._end(repo, game, GameStatus.CANCELLED, None, EndReason.CANCEL, now)
            return await self._view(repo, game)

    async def sweep(self) -> list[GameView]:
        """End every game whose stored deadline has passed; return them, for the adapter to update.

        A pending challenge expires; in an active game the human on turn loses on
        time. Works from stored deadlines only, so it catches up after a restart.
        Call it every few seconds (see :meth:`next_deadline`).
        """
        now = self._clock()
        async with self._read() as repo:
            due = [game.id for game in await repo.due_games(now)]
        ended = []
        for game_id in due:
            try:
                async with self._write() as repo:
                    game = await repo.game(game_id)
                    if (
                        game is None
                        or not game.status.is_live
                        or game.deadline is None
                        or game.deadline > now
                    ):
                        continue
                    if game.status is GameStatus.PENDING:
                        await self._end(repo, game, GameStatus.EXPIRED, None, EndReason.TIMEOUT, now)
                    else:
                        late = Board.parse(game.board).turn
                        winner = rules.RESULT_OF_WINNER[late.other]
                        await self._end(repo, game, GameStatus.FINISHED, winner, EndReason.TIMEOUT, now)
                    ended.append(await self._view(repo, game))
            except refusals.StaleBoard:
                continue
        return ended

    async def next_deadline(self) -> datetime | None:
        """The earliest stored deadline of a live game, for scheduling the next :meth:`sweep`."""
        async with self._read() as repo:
            return await repo.next_deadline()

    # Reading

    async def board(self, place: Place) -> GameView:
        """The channel's live game or challenge."""
        async with self._read() as repo:
            return await self._view(repo, await self._game_here(repo, place, None))

    async def latest(self, place: Place) -> GameView:
        """The channel's live game, or else the one that ended last there.

        For a place whose boards are shown only on request: a game that ended on time there
        could not show it at once, so asking for the board shows how it ended.
        """
        async with self._read() as repo:
            game = await repo.live_game(place.channel_id) or await repo.latest_game(place.channel_id)
            if game is None or game.guild_id != place.guild_id:
                raise refusals.NoGame()
            return await self._view(repo, game)

    async def game(self, game_id: int, place: Place | None = None) -> GameView:
        """A game by id; with ``place``, only if it belongs to that channel."""
        async with self._read() as repo:
            if place is not None:
                return await self._view(repo, await self._game_here(repo, place, game_id))
            game = await repo.game(game_id)
            if game is None:
                raise refusals.UnknownGame()
            return await self._view(repo, game)

    async def set_message(self, game_id: int, channel_id: int, message_id: int) -> None:
        """Remember which message shows the game's board, to edit it later (timeouts, restarts)."""
        async with self._write() as repo:
            if not await repo.set_message(game_id, channel_id, message_id):
                raise refusals.UnknownGame()

    async def hint(self, place: Place, user: Actor, game_id: int | None = None) -> HintView:
        """The engine's verdict on every empty cell, for the player on turn."""
        async with self._read() as repo:
            game = await self._game_here(repo, place, game_id)
            names = await self._names(repo, game)
            board = rules.check_turn(game, user.user_id, None, names)
            view = await self._view(repo, game, names)
        analysis = await self.engine.analyze(board)
        if analysis.value is None or analysis.plies is None:
            raise refusals.GameOver()
        moves = tuple(
            CellVerdict(m.cell, format_cell(m.cell, board.size), m.value, m.plies) for m in analysis.moves
        )
        return HintView(view, analysis.value, analysis.plies, analysis.exact, moves, analysis.best)

    async def history(self, game_id: int, place: Place | None = None) -> GameHistory:
        """A game with all its moves, for a replay; with ``place``, only a game of the same server."""
        async with self._read() as repo:
            game = await repo.game(game_id)
            if game is None or (place is not None and game.guild_id != place.guild_id):
                raise refusals.UnknownGame()
            view = await self._view(repo, game)
            moves = await repo.moves(game_id)
        return GameHistory(
            view,
            tuple(
                MoveView(
                    m.ply, m.cell, format_cell(m.cell, game.size), Mark(m.mark), m.player_id, m.played_at
                )
                for m in moves
            ),
        )

    # Looking back: reviews, replays, game lists and rating charts

    async def _finished_game(
        self, repo: Repository, place: Place | None, user_id: int | None, game_id: int | None
    ) -> Game:
        """``game_id`` if the asker may look at it, else the asker's latest finished game visible here.

        From a place, a game still going on is refused (a review would coach it);
        the terminal, which owns its database, may look at any game.
        """
        if game_id is None:
            if user_id is not None and place is not None:
                for game in await repo.latest_finished_games(user_id, place.guild_id, _LOOK_BACK_SCAN):
                    if visible_from(game, place, user_id):
                        return game
            raise refusals.NoFinishedGame()
        found = await repo.game(game_id)
        if found is None:
            raise refusals.NoGameNumbered(game_id)
        check_visible(found, place, user_id)
        if found.status.is_live and place is not None:
            raise refusals.StillPlaying(game_id)
        return found

    async def _history_of(self, repo: Repository, game: Game) -> GameHistory:
        view = await self._view(repo, game)
        moves = await repo.moves(game.id)
        return GameHistory(
            view,
            tuple(
                MoveView(
                    m.ply, m.cell, format_cell(m.cell, game.size), Mark(m.mark), m.player_id, m.played_at
                )
                for m in moves
            ),
        )

    async def review(
        self, game_id: int | None = None, *, place: Place | None = None, user_id: int | None = None
    ) -> GameReview:
        """The perfect engine's verdict on every move of a game that is over (computed once per game).

        Without ``game_id``: the asker's latest finished game visible from ``place``.
        ``place`` None (the terminal) may look at any game.
        """
        async with self._read() as repo:
            history = await self._history_of(repo, await self._finished_game(repo, place, user_id, game_id))
        budget = self.settings.review_budget_ms
        if history.game.is_live:
            return await review_moves(self.engine, history, budget)
        return await self._reviews.get(history.game.id, lambda: review_moves(self.engine, history, budget))

    async def replay(
        self, game_id: int | None = None, *, place: Place | None = None, user_id: int | None = None
    ) -> Replay:
        """A game that is over, with its animated GIF (drawn in the pictures worker, off the event loop)."""
        async with self._read() as repo:
            history = await self._history_of(repo, await self._finished_game(repo, place, user_id, game_id))
        game = history.game
        board = Board.parse(game.board)
        winner = board.winner
        gif = await self.pictures.draw(
            render_replay,
            game.size,
            replay_moves(history),
            board.winning_lines,
            None if winner is None else winner.value,
        )
        return Replay(history, gif)

    async def finished_games(self, place: Place, asker_id: int, user_id: int) -> FinishedGames:
        """``user_id``'s latest finished games that ``asker_id`` may look at from ``place``, newest first."""
        async with self._read() as repo:
            latest = await repo.latest_finished_games(user_id, place.guild_id, _LOOK_BACK_SCAN)
            shown = [game for game in latest if visible_from(game, place, asker_id)]
            shown = shown[: self.settings.history_size]
            views = [await self._view(repo, game) for game in shown]
        return FinishedGames(user_id, tuple(views))

    async def rating_chart(
        self, user_id: int, guild_id: int | None, *, server_label: str, global_label: str
    ) -> bytes | None:
        """A PNG of the player's rating after each rated game, in ``guild_id`` and globally.

        None until they have a rated game. The labels name the two lines in the legend.
        """
        async with self._read() as repo:
            world = await repo.rating_changes(user_id, GLOBAL_SCOPE)
            server = [] if guild_id is None else await repo.rating_changes(user_id, guild_id)
        if not world and not server:
            return None
        series = [
            RatingSeries(label, tuple(RatingPoint(change.played_at, change.rating) for change in changes))
            for label, changes in ((server_label, server), (global_label, world))
            if changes
        ]
        return await self.pictures.draw(render_rating_chart, series)

    async def leaderboard(self, guild_id: int | None, limit: int | None = None) -> Leaderboard:
        """The best rated players of a server, or globally with ``guild_id=None``."""
        async with self._read() as repo:
            return await load_leaderboard(
                repo, guild_id, self.settings.ratings.min_games, limit or self.settings.leaderboard_size
            )

    async def stats(self, user_id: int, guild_id: int | None = None) -> PlayerStats:
        """A player's records, streaks, ratings (this server's and global) and recent games."""
        async with self._read() as repo:
            return await load_stats(repo, user_id, guild_id, self.settings)

    # Server settings

    async def server_language(self, guild_id: int) -> str | None:
        """The language a server chose for its public messages (a code of :mod:`bot.i18n`), None for auto.

        Kept in memory once read: a server's interactions all reach the one process that
        serves its shard, and that process is where the setting changes.
        """
        if guild_id in self._server_languages:
            return self._server_languages[guild_id]
        async with self._read() as repo:
            language = await repo.server_language(guild_id)
        if len(self._server_languages) > _NAME_CACHE_SIZE:
            self._server_languages.clear()
        self._server_languages[guild_id] = language
        return language

    @staticmethod
    def _check_may_manage(guild_id: int | None, may_manage: bool) -> None:
        if guild_id is None:
            raise refusals.SettingsOutsideServer()
        if not may_manage:
            raise refusals.NotManager()

    async def server_settings(self, guild_id: int | None, *, may_manage: bool) -> str | None:
        """The language a server chose, for a member who may manage it (see :meth:`set_server_language`)."""
        self._check_may_manage(guild_id, may_manage)
        assert guild_id is not None
        return await self.server_language(guild_id)

    async def set_server_language(
        self, guild_id: int | None, language: str | None, *, may_manage: bool
    ) -> str | None:
        """Choose the language of a server's public messages; None goes back to the server's own locale.

        Only members who may manage the server (``may_manage``) can, and only in a server.
        """
        self._check_may_manage(guild_id, may_manage)
        assert guild_id is not None
        chosen = None if language is None else by_code(language)
        if language is not None and chosen is None:
            raise refusals.BadOption("language")
        code = None if chosen is None else chosen.code
        async with self._write() as repo:
            await repo.set_server_language(guild_id, code, self._clock())
        self._server_languages[guild_id] = code
        return code
