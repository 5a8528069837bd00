"""The game service: every rule, turn, rating and transaction, for any adapter (Discord, terminal).

Each public method is one request from a user (or from the adapter's timers) and
returns a frozen view from :mod:`bot.services.views`. Anything the rules refuse
raises :class:`bot.errors.GameError` with one friendly sentence, and the refusal
changes nothing: checks run inside the transaction, and any error rolls it back.

Concurrency: every change of a game's state is a compare-and-set on its version
(see :mod:`bot.db.repository`), so of two requests racing on one game exactly one
applies, also across processes sharing a PostgreSQL database. The engine runs in
a process pool (:class:`EnginePool`), outside any transaction: the bot's reply is
computed from the state it read and stored only if the game has not changed since.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from bot.db import GLOBAL_SCOPE, Database, EndReason, Game, GameResult, GameStatus, Repository
from bot.engine import Board, EngineInputError, Level, Mark, Status, format_cell, parse_cell
from bot.errors import GameError
from bot.services.engine_pool import EnginePool
from bot.services.ratings import elo_update
from bot.services.settings import Clock, ServiceSettings, utc_now
from bot.services.stats import build_stats
from bot.services.views import (
    Actor,
    CellVerdict,
    First,
    GameHistory,
    GameView,
    HintView,
    Leaderboard,
    LeaderboardEntry,
    MoveView,
    Place,
    PlayerStats,
    PlayerView,
    RatingView,
)

log = logging.getLogger(__name__)

SIZES = (3, 4, 5)
_NAME_LENGTH = 100
_RESULT_OF_WINNER = {Mark.X: GameResult.X_WON, Mark.O: GameResult.O_WON}


def _mark_of(game: Game, user_id: int) -> Mark | None:
    if game.x_player_id == user_id:
        return Mark.X
    if game.o_player_id == user_id:
        return Mark.O
    return None


def _player_of(game: Game, mark: Mark) -> int | None:
    return game.x_player_id if mark is Mark.X else game.o_player_id


def _is_bot(game: Game, mark: Mark) -> bool:
    return _player_of(game, mark) is None


def _stale() -> GameError:
    return GameError("That board is out of date: the game has moved on since.", code="stale")


class GameService:
    """The one entry point adapters use. Create it once per process; call :meth:`close` at shutdown."""

    def __init__(
        self,
        database: Database,
        settings: ServiceSettings | None = None,
        *,
        engine: EnginePool | None = None,
        clock: Clock = utc_now,
        rng: random.Random | None = None,
    ) -> None:
        self.settings = settings or ServiceSettings()
        self.database = database
        self.engine = engine or EnginePool(self.settings.engine_workers, self.settings.engine_budget_ms)
        self._clock = clock
        self._rng = rng or random.Random()

    async def close(self) -> None:
        """Stop the engine pool and close the database connections."""
        self.engine.close()
        await self.database.close()

    # Transactions

    @asynccontextmanager
    async def _guard(self) -> AsyncIterator[None]:
        """Turn an unreachable or locked database into a short "try again" for the user."""
        try:
            yield
        except IntegrityError:
            raise
        except (OperationalError, InterfaceError, PoolTimeout, OSError, TimeoutError) as error:
            log.warning("Database unavailable: %s", error.__class__.__name__, exc_info=error)
            raise GameError(
                "The game database is busy right now; please try again in a moment.",
                code="unavailable",
                retry_after=5.0,
            ) from error
        except DBAPIError as error:
            if not error.connection_invalidated:
                raise
            log.warning("Database connection lost", exc_info=error)
            raise GameError(
                "The game database is busy right now; please try again in a moment.",
                code="unavailable",
                retry_after=5.0,
            ) from error

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Repository]:
        async with self._guard(), self.database.write() as repo:
            yield repo

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Repository]:
        async with self._guard(), self.database.read() as repo:
            yield repo

    # Views

    async def _view(self, repo: Repository, game: Game) -> GameView:
        names = await repo.display_names(i for i in (game.x_player_id, game.o_player_id) if i is not None)
        board = Board.parse(game.board)
        active = game.status is GameStatus.ACTIVE

        def side(mark: Mark) -> PlayerView:
            user_id = _player_of(game, mark)
            name = self.settings.bot_name if user_id is None else names.get(user_id, str(user_id))
            return PlayerView(mark, user_id, name)

        return GameView(
            id=game.id,
            guild_id=game.guild_id,
            channel_id=game.channel_id,
            size=game.size,
            k=game.k,
            board=board.text,
            cells=tuple(board),
            x=side(Mark.X),
            o=side(Mark.O),
            level=None if game.level is None else Level(game.level),
            status=game.status,
            result=game.result,
            end_reason=game.end_reason,
            turn=board.turn if active else None,
            last_cell=game.last_cell,
            winning_cells=board.winning_cells,
            legal_moves=board.legal_moves if active else (),
            ply=game.ply,
            version=game.version,
            challenger_id=game.created_by,
            rated=game.rated,
            deadline=game.deadline,
            message_id=game.message_id,
            message_channel_id=game.message_channel_id,
            created_at=game.created_at,
            finished_at=game.finished_at,
        )

    # Lookups and checks

    async def _game_here(self, repo: Repository, place: Place, game_id: int | None) -> Game:
        """The game a request is about: ``game_id`` (which must be in this channel) or the live one."""
        if game_id is None:
            game = await repo.live_game(place.channel_id)
            if game is None:
                raise GameError("There is no game running in this channel.", code="no_game")
            return game
        found = await repo.game(game_id)
        if found is None or found.channel_id != place.channel_id or found.guild_id != place.guild_id:
            raise GameError("That game is not in this channel.", code="no_game")
        return found

    async def _check_can_start(self, repo: Repository, place: Place, user_id: int, now: datetime) -> None:
        live = await repo.live_game(place.channel_id)
        if live is not None:
            raise self._busy_channel(live)
        cooldown = self.settings.start_cooldown_seconds
        last = await repo.last_game_created_by(user_id)
        if cooldown > 0 and last is not None:
            wait = cooldown - (now - last).total_seconds()
            if wait > 0:
                seconds = math.ceil(wait)
                unit = "second" if seconds == 1 else "seconds"
                raise GameError(
                    f"You started a game moments ago; you can start another in {seconds} {unit}.",
                    code="cooldown",
                    retry_after=wait,
                )

    @staticmethod
    def _busy_channel(live: Game | None) -> GameError:
        if live is not None and live.status is GameStatus.PENDING:
            return GameError(
                "A challenge is already waiting for an answer in this channel.", code="channel_busy"
            )
        return GameError("A game is already running in this channel.", code="channel_busy")

    @staticmethod
    def _check_size(size: int) -> None:
        if size not in SIZES:
            raise GameError("A board is 3x3, 4x4 or 5x5.", code="bad_size")

    async def _save_players(self, repo: Repository, now: datetime, *actors: Actor) -> None:
        for actor in actors:
            await repo.save_player(actor.user_id, actor.display_name[:_NAME_LENGTH], now)

    def _new_game(
        self,
        place: Place,
        size: int,
        creator: int,
        x: int | None,
        o: int | None,
        level: Level | None,
        status: GameStatus,
        now: datetime,
    ) -> dict[str, Any]:
        empty = Board.empty(size)
        if status is GameStatus.PENDING:
            deadline: datetime | None = now + timedelta(seconds=self.settings.challenge_timeout_seconds)
        else:
            deadline = self._turn_deadline(x, now)
        return {
            "guild_id": place.guild_id,
            "channel_id": place.channel_id,
            "size": size,
            "k": empty.k,
            "level": None if level is None else level.value,
            "x_player_id": x,
            "o_player_id": o,
            "created_by": creator,
            "status": status,
            "board": empty.compact,
            "ply": 0,
            "seed": self._rng.getrandbits(62),
            "rated": False,
            "rating_weight": 0.0,
            "version": 1,
            "deadline": deadline,
            "created_at": now,
            "updated_at": now,
        }

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
        self._check_size(size)
        human_x = self._human_is_x(first)
        now = self._clock()
        async with self._write() as repo:
            await self._check_can_start(repo, place, player.user_id, now)
            await self._save_players(repo, now, player)
            x, o = (player.user_id, None) if human_x else (None, player.user_id)
            values = self._new_game(place, size, player.user_id, x, o, level, GameStatus.ACTIVE, now)
            game = await repo.add_game(**values)
            if game is None:
                raise self._busy_channel(None)
            view = await self._view(repo, game)
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
            raise GameError(
                "You can't challenge yourself; start a game without an opponent to play me.",
                code="self_challenge",
            )
        if opponent_is_bot:
            raise GameError(
                "Bots can't play; challenge a person, or start a game without an opponent to play me.",
                code="bot_challenge",
            )
        self._check_size(size)
        challenger_x = self._human_is_x(first)
        now = self._clock()
        async with self._write() as repo:
            await self._check_can_start(repo, place, challenger.user_id, now)
            await self._save_players(repo, now, challenger, opponent)
            x, o = (
                (challenger.user_id, opponent.user_id)
                if challenger_x
                else (opponent.user_id, challenger.user_id)
            )
            values = self._new_game(place, size, challenger.user_id, x, o, None, GameStatus.PENDING, now)
            game = await repo.add_game(**values)
            if game is None:
                raise self._busy_channel(None)
            return await self._view(repo, game)

    async def _pending_for(self, repo: Repository, place: Place, user: Actor, game_id: int | None) -> Game:
        game = await self._game_here(repo, place, game_id)
        if game.status is not GameStatus.PENDING:
            raise GameError("That challenge has already been answered or has expired.", code="not_pending")
        challenged = game.o_player_id if game.x_player_id == game.created_by else game.x_player_id
        if challenged is None or user.user_id != challenged:
            names = await repo.display_names([] if challenged is None else [challenged])
            who = names.get(challenged or 0, "the challenged player")
            raise GameError(f"Only {who} can answer this challenge.", code="not_challenged")
        return game

    async def accept(self, place: Place, user: Actor, game_id: int | None = None) -> GameView:
        """The challenged member accepts: the game starts and X is on turn."""
        now = self._clock()
        async with self._write() as repo:
            game = await self._pending_for(repo, place, user, game_id)
            if not await repo.update_game(
                game,
                status=GameStatus.ACTIVE,
                deadline=self._turn_deadline(game.x_player_id, now),
                updated_at=now,
            ):
                raise _stale()
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
                raise GameError("A rematch can follow only a finished game.", code="not_finished")
            if _mark_of(old, user.user_id) is None:
                raise GameError("Only the players of that game can ask for a rematch.", code="not_a_player")
            await self._check_can_start(repo, place, user.user_id, now)
            await self._save_players(repo, now, user)
            level = None if old.level is None else Level(old.level)
            status = GameStatus.ACTIVE if level is not None else GameStatus.PENDING
            values = self._new_game(
                place, old.size, user.user_id, old.o_player_id, old.x_player_id, level, status, now
            )
            game = await repo.add_game(**values)
            if game is None:
                raise self._busy_channel(None)
            view = await self._view(repo, game)
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
            board = self._check_turn(game, user.user_id, expected_ply, await self._names_for_turn(repo, game))
            index = self._cell_index(cell, board)
            await self._play(repo, game, board, index, user.user_id, now)
            await self._save_players(repo, now, user)
            view = await self._view(repo, game)
        return await self._after_human_turn(view)

    async def _names_for_turn(self, repo: Repository, game: Game) -> dict[int, str]:
        return await repo.display_names(i for i in (game.x_player_id, game.o_player_id) if i is not None)

    def _check_turn(self, game: Game, user_id: int, expected_ply: int | None, names: dict[int, str]) -> Board:
        if game.status is GameStatus.PENDING:
            raise GameError("The challenge has not been accepted yet.", code="not_started")
        if game.status is not GameStatus.ACTIVE:
            raise GameError("This game is over.", code="game_over")
        mine = _mark_of(game, user_id)
        if mine is None:
            raise GameError("You are not playing in this game.", code="not_a_player")
        if expected_ply is not None and expected_ply != game.ply:
            raise _stale()
        board = Board.parse(game.board)
        if board.turn is not mine:
            other = _player_of(game, board.turn)
            if other is None:
                raise GameError("Wait for my move; it is not your turn yet.", code="not_your_turn")
            raise GameError(
                f"It is not your turn: {names.get(other, 'your opponent')} ({board.turn.value}) is to move.",
                code="not_your_turn",
            )
        return board

    @staticmethod
    def _cell_index(cell: str | int, board: Board) -> int:
        if isinstance(cell, int):
            if not 0 <= cell < board.cells:
                raise GameError(
                    f"There is no such cell on a {board.size}x{board.size} board.", code="bad_cell"
                )
            index = cell
        else:
            try:
                index = parse_cell(cell, board.size)
            except EngineInputError as error:
                raise GameError(str(error), code="bad_cell") from None
        if board[index] is not None:
            name = format_cell(index, board.size)
            raise GameError(f"That cell ({name}) is already taken.", code="cell_taken")
        return index

    async def _play(
        self, repo: Repository, game: Game, board: Board, cell: int, player_id: int | None, now: datetime
    ) -> None:
        """Store one move (compare-and-set on the version), ending the game if it is decided."""
        after = board.play(cell)
        values: dict[str, Any] = {
            "board": after.compact,
            "ply": after.ply,
            "last_cell": cell,
            "updated_at": now,
        }
        status = after.status
        finishing = status is not Status.ONGOING
        if finishing:
            winner = after.winner
            result = GameResult.DRAW if winner is None else _RESULT_OF_WINNER[winner]
            reason = EndReason.FULL if winner is None else EndReason.LINE
            values.update(await self._finish_values(repo, game, result, reason, now, after.ply))
        else:
            values["deadline"] = self._turn_deadline(_player_of(game, after.turn), now)
        if not await repo.update_game(game, **values):
            raise _stale()
        await repo.add_move(game.id, board.ply, cell, board.turn.value, player_id, now)
        if finishing:
            await self._apply_ratings(repo, game, now)

    async def _after_human_turn(self, view: GameView) -> GameView:
        """Make the bot's reply if it is on turn; if the engine fails, :meth:`resume_bot_turns` retries."""
        if not view.bot_to_move:
            return view
        try:
            return await self.play_bot_turn(view.id)
        except GameError:
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
                raise GameError("That game does not exist.", code="no_game")
            seen = await self._view(repo, game)
        if not seen.bot_to_move or seen.level is None:
            return seen
        board = Board.parse(seen.board)
        cell = await self.engine.choose_move(board, seen.level, (game.seed + game.ply) % (1 << 62))
        now = self._clock()
        async with self._write() as repo:
            game = await repo.game(game_id)
            if game is None:
                raise GameError("That game does not exist.", code="no_game")
            if game.version == seen.version:
                try:
                    await self._play(repo, game, board, cell, None, now)
                except GameError as error:
                    if error.code != "stale":
                        raise
                    await repo.reload(game)
            return await self._view(repo, game)

    async def resume_bot_turns(self) -> list[GameView]:
        """After a restart: make every bot move that was due when the process stopped."""
        async with self._read() as repo:
            waiting = [game.id for game in await repo.games_awaiting_bot()]
        views = []
        for game_id in waiting:
            try:
                views.append(await self.play_bot_turn(game_id))
            except GameError:
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
        ply: int,
    ) -> dict[str, Any]:
        values: dict[str, Any] = {
            "status": GameStatus.FINISHED,
            "result": result,
            "end_reason": reason,
            "deadline": None,
            "finished_at": now,
            "updated_at": now,
        }
        weight = await self._rating_weight(repo, game, reason, now, ply)
        values["rated"] = weight > 0
        values["rating_weight"] = weight
        return values

    async def _rating_weight(
        self, repo: Repository, game: Game, reason: EndReason, now: datetime, ply: int
    ) -> float:
        rules = self.settings.ratings
        if game.x_player_id is None or game.o_player_id is None:
            return 0.0
        if reason in (EndReason.RESIGN, EndReason.TIMEOUT) and ply < rules.min_plies:
            return 0.0
        earlier = await repo.games_between_since(
            game.x_player_id, game.o_player_id, now - rules.pair_window, exclude_game_id=game.id
        )
        return rules.pair_weight(earlier)

    async def _apply_ratings(self, repo: Repository, game: Game, now: datetime) -> None:
        if not game.rated or game.x_player_id is None or game.o_player_id is None:
            return
        rules = self.settings.ratings
        x, o = game.x_player_id, game.o_player_id
        scopes = [GLOBAL_SCOPE] if game.guild_id is None else [GLOBAL_SCOPE, game.guild_id]
        rows = await repo.lock_ratings([x, o], scopes, rules.initial, now)
        score_x = {GameResult.X_WON: 1.0, GameResult.O_WON: 0.0, GameResult.DRAW: 0.5}[
            game.result or GameResult.DRAW
        ]
        for scope in scopes:
            rx, ro = rows[(x, scope)], rows[(o, scope)]
            new_x = elo_update(rx.rating, ro.rating, score_x, rules.k_factor, game.rating_weight)
            new_o = elo_update(ro.rating, rx.rating, 1.0 - score_x, rules.k_factor, game.rating_weight)
            for row, rating, score in ((rx, new_x, score_x), (ro, new_o, 1.0 - score_x)):
                row.rating = rating
                row.best_rating = max(row.best_rating, rating)
                row.games += 1
                row.wins += score == 1.0
                row.losses += score == 0.0
                row.draws += score == 0.5
                row.updated_at = now

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
        if status is GameStatus.FINISHED:
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
            raise _stale()
        if status is GameStatus.FINISHED:
            await self._apply_ratings(repo, game, now)

    async def resign(self, place: Place, user: Actor, game_id: int | None = None) -> GameView:
        """``user`` gives up their running game in this channel; the other side wins."""
        now = self._clock()
        async with self._write() as repo:
            game = await self._game_here(repo, place, game_id)
            mine = _mark_of(game, user.user_id)
            if mine is None:
                raise GameError("You are not playing in this game.", code="not_a_player")
            if game.status is GameStatus.PENDING:
                raise GameError(
                    "The challenge has not been accepted yet; cancel it instead.", code="not_started"
                )
            if game.status is not GameStatus.ACTIVE:
                raise GameError("This game is over.", code="game_over")
            await self._end(
                repo, game, GameStatus.FINISHED, _RESULT_OF_WINNER[mine.other], EndReason.RESIGN, now
            )
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
                raise GameError("This game is already over.", code="game_over")
            if _mark_of(game, user.user_id) is None and not is_moderator:
                raise GameError("Only the players or a moderator can cancel this game.", code="not_allowed")
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
                        winner = _RESULT_OF_WINNER[late.other]
                        await self._end(repo, game, GameStatus.FINISHED, winner, EndReason.TIMEOUT, now)
                    ended.append(await self._view(repo, game))
            except GameError as error:
                if error.code != "stale":
                    raise
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

    async def game(self, game_id: int, place: Place | None = None) -> GameView:
        """A game by id; with ``place``, only if it belongs to that channel."""
        async with self._read() as repo:
            if place is not None:
                return await self._view(repo, await self._game_here(repo, place, game_id))
            game = await repo.game(game_id)
            if game is None:
                raise GameError("That game does not exist.", code="no_game")
            return await self._view(repo, game)

    async def set_message(self, game_id: int, channel_id: int, message_id: int) -> None:
        """Remember which message shows the game's board, to edit it later (timeouts, restarts)."""
        async with self._write() as repo:
            if not await repo.set_message(game_id, channel_id, message_id):
                raise GameError("That game does not exist.", code="no_game")

    async def hint(self, place: Place, user: Actor, game_id: int | None = None) -> HintView:
        """The engine's verdict on every empty cell, for the player on turn."""
        async with self._read() as repo:
            game = await self._game_here(repo, place, game_id)
            board = self._check_turn(game, user.user_id, None, await self._names_for_turn(repo, game))
            view = await self._view(repo, game)
        analysis = await self.engine.analyze(board)
        if analysis.value is None or analysis.plies is None:
            raise GameError("This game is over.", code="game_over")
        moves = tuple(
            CellVerdict(m.cell, format_cell(m.cell, board.size), m.value, m.plies) for m in analysis.moves
        )
        return HintView(view, analysis.value, analysis.plies, analysis.exact, moves, analysis.best)

    async def history(self, game_id: int, place: Place | None = None) -> GameHistory:
        """A game with all its moves, for a replay; with ``place``, only a game of the same server."""
        async with self._read() as repo:
            game = await repo.game(game_id)
            if game is None or (place is not None and game.guild_id != place.guild_id):
                raise GameError("That game does not exist.", code="no_game")
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

    async def leaderboard(self, guild_id: int | None, limit: int | None = None) -> Leaderboard:
        """The best rated players of a server, or globally with ``guild_id=None``."""
        rules = self.settings.ratings
        scope = GLOBAL_SCOPE if guild_id is None else guild_id
        async with self._read() as repo:
            rows = await repo.leaderboard(scope, rules.min_games, limit or self.settings.leaderboard_size)
        entries = tuple(
            LeaderboardEntry(
                rank=place,
                user_id=row.player_id,
                display_name=name,
                rating=round(row.rating),
                games=row.games,
                wins=row.wins,
                losses=row.losses,
                draws=row.draws,
            )
            for place, (row, name) in enumerate(rows, start=1)
        )
        return Leaderboard(guild_id, rules.min_games, entries)

    async def stats(self, user_id: int, guild_id: int | None = None) -> PlayerStats:
        """A player's records, streaks, ratings (this server's and global) and recent games."""
        async with self._read() as repo:
            games = await repo.finished_games_of(user_id)
            people = {user_id}
            for game in games:
                people.update(i for i in (game.x_player_id, game.o_player_id) if i is not None)
            names = await repo.display_names(people)
            server = None if guild_id is None else await self._rating_view(repo, user_id, guild_id)
            world = await self._rating_view(repo, user_id, GLOBAL_SCOPE)
        return build_stats(
            user_id,
            games,
            names,
            bot_name=self.settings.bot_name,
            recent=self.settings.recent_games,
            server_rating=server,
            global_rating=world,
        )

    async def _rating_view(self, repo: Repository, user_id: int, scope: int) -> RatingView | None:
        row = await repo.rating(user_id, scope)
        if row is None:
            return None
        rank = await repo.rank(user_id, scope, self.settings.ratings.min_games)
        return RatingView(round(row.rating), round(row.best_rating), row.games, rank)
