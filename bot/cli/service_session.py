"""The default session of ``python -m bot play``: the game goes through the game service and the database.

A terminal game is stored like any other, so the local player's results show in
their stats. Who plays and where: the player id comes from the OS user name and
the channel id is drawn per process (see :mod:`bot.cli.local_ids` for why those ids
cannot meet Discord's); the guild is None.

Leaving a game (``q`` or end of input): before the player's first move the game is
cancelled and counts for nothing, since nothing was played. After it, leaving is
resigning: the game counts as a loss. That is what walking away from a board does
on Discord too (the player who does not move loses on time), and it keeps quitting
from erasing a lost position from one's record. Ctrl-C is leaving too. A game that
stops for any other reason (the database or the engine failed) is cancelled,
since that was not the player's doing; one whose process is killed stays live
until a bot sharing the database ends it on time.

The engine runs on one thread of this process (see :class:`_WatchedEngine`), whatever
``ENGINE_WORKERS`` says: that setting lets the bot's games think at the same time, while
a terminal game asks for one move at a time and a search uses one core.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
from collections.abc import AsyncIterator, Awaitable
from concurrent.futures import ThreadPoolExecutor

from bot.cli.local_ids import local_player_id, os_user_name, terminal_channel_id
from bot.cli.logs import first_line
from bot.cli.migrate import schema_problem, upgrade_schema
from bot.cli.render import refusal_text
from bot.cli.session import (
    GameSession,
    MoveRejectedError,
    PlayOptions,
    SessionFactory,
    SessionUnavailableError,
)
from bot.composition import build_service, service_settings
from bot.config import Settings
from bot.engine import Board, Level, Mark
from bot.i18n import N_, terminal_texts
from bot.services import Actor, EnginePool, First, GameService, GameView, Place, ServiceSettings
from bot.services.picture_pool import PicturePool
from bot.services.refusals import GameRunning, NotDone
from bot.states import EndReason

log = logging.getLogger(__name__)

CHANNEL_ATTEMPTS = 5
"""Fresh channel ids to try when the one drawn holds a live game (a game a killed process left behind)."""

_ENDINGS = {
    (True, EndReason.RESIGN): N_("You win by resignation."),
    (True, EndReason.TIMEOUT): N_("You win on time."),
    (False, EndReason.RESIGN): N_("The engine wins by resignation."),
    (False, EndReason.TIMEOUT): N_("The engine wins on time."),
}
"""How a game against the engine ended off the board, by whether the human won."""


class _WatchedEngine(EnginePool):
    """The engine on one thread of this process, telling the session when the bot starts thinking.

    A thread rather than a worker process: it is ready at once (a spawned process
    takes most of a second to import the engine), it keeps the engine's caches from
    move to move, and the event loop stays free while it searches.

    The service stores the human's move and only then asks the engine for the bot's
    reply, so the moment the engine is asked is the moment the human's move is
    stored: the session shows it then, while the engine thinks.
    """

    def __init__(self, budget_ms: int) -> None:
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="engine")
        super().__init__(1, budget_ms, executor=self._thread)
        self.thinking = asyncio.Event()
        self.position: Board | None = None
        """The position the engine was last asked about."""

    def move_at_once(self, board: Board, level: Level, seed: int) -> int | None:
        """Never inline: every reply goes through :meth:`choose_move`, which shows the human's move first."""
        return None

    async def choose_move(self, board: Board, level: Level, seed: int) -> int:
        self.position = board
        self.thinking.set()
        return await super().choose_move(board, level, seed)

    def close(self) -> None:
        super().close()
        self._thread.shutdown(wait=True, cancel_futures=True)


class ServiceSession:
    """One game against the bot, played through :class:`GameService` in this terminal's channel."""

    def __init__(
        self, service: GameService, engine: _WatchedEngine, place: Place, player: Actor, options: PlayOptions
    ) -> None:
        self._service = service
        self._engine = engine
        self._place = place
        self._player = player
        self._human = options.human
        self._level = options.level
        self._board = Board.empty(options.size)
        self._view: GameView | None = None
        self._reply: asyncio.Future[GameView] | None = None
        self._moved = False

    @property
    def board(self) -> Board:
        """The current position."""
        return self._board

    @property
    def human(self) -> Mark:
        """The human's mark; the engine has the other one."""
        return self._human

    @property
    def level(self) -> Level:
        """The engine's level."""
        return self._level

    @property
    def game_id(self) -> int | None:
        """The stored game's id, once the game has started."""
        return None if self._view is None else self._view.id

    @property
    def is_over(self) -> bool:
        """True once the game has ended, on the board or otherwise."""
        return self._view is not None and not self._view.is_live

    @property
    def end_note(self) -> str | None:
        """Once over: a sentence for an ending the board does not show (a timeout, a cancel), else None."""
        view = self._view
        if view is None or view.is_live or view.end_reason in (EndReason.LINE, EndReason.FULL):
            return None
        texts = terminal_texts()
        if view.winner is None:
            return texts.gettext("The game was cancelled; it does not count.")
        won = view.winner.user_id == self._player.user_id
        ending = _ENDINGS.get((won, view.end_reason)) if view.end_reason is not None else None
        if ending is None:
            return texts.gettext("You win.") if won else texts.gettext("The engine wins.")
        return texts.gettext(ending)

    @property
    def recorded_game(self) -> int | None:
        """The stored game's number once it has ended with a result, else None (live or cancelled)."""
        view = self._view
        if view is None or view.is_live or view.end_reason is EndReason.CANCEL:
            return None
        return view.id

    def _show(self, view: GameView) -> None:
        self._view = view
        self._board = Board.parse(view.board)

    async def _request(self, request: Awaitable[GameView]) -> None:
        """Run a request that may end with the bot's move: return when it is done or the engine starts.

        In the second case the position the engine thinks about is shown, and
        :meth:`reply` collects the rest.
        """
        self._engine.thinking.clear()
        task = asyncio.ensure_future(request)
        thinking = asyncio.ensure_future(self._engine.thinking.wait())
        try:
            await asyncio.wait((task, thinking), return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            task.cancel()
            raise
        finally:
            thinking.cancel()
        if self._engine.thinking.is_set() and self._engine.position is not None:
            self._board = self._engine.position
            self._reply = task
        else:
            self._show(_result(task))

    async def start(self, size: int) -> None:
        """Start a stored game against the engine on a ``size`` board."""
        first = First.ME if self._human is Mark.X else First.OPPONENT
        await self._request(
            self._service.start_vs_bot(self._place, self._player, size=size, level=self._level, first=first)
        )

    async def play(self, cell: int) -> None:
        """Play the human's move on ``cell`` through the service; :class:`MoveRejectedError` if refused."""
        try:
            await self._request(self._service.move(self._place, self._player, cell, game_id=self.game_id))
        except NotDone as error:
            await self._refresh()
            raise MoveRejectedError(refusal_text(terminal_texts(), error)) from None
        self._moved = True

    async def _refresh(self) -> None:
        """Read the game again after a refusal: it may have ended meanwhile (say, on time)."""
        if self.game_id is None:
            return
        with contextlib.suppress(NotDone):
            self._show(await self._service.game(self.game_id, self._place))

    async def reply(self) -> int:
        """The engine's move, made and stored by the service."""
        pending, self._reply = self._reply, None
        if pending is None:
            if self._view is None:
                raise SessionUnavailableError(terminal_texts().gettext("The game has not started."))
            pending = asyncio.ensure_future(self._service.play_bot_turn(self._view.id))
        try:
            view = await pending
            if view.bot_to_move:  # the engine failed and the service left its move for a retry
                view = await self._service.play_bot_turn(view.id)
        except NotDone as error:
            raise SessionUnavailableError(refusal_text(terminal_texts(), error)) from None
        except Exception as error:
            raise _stopped(error) from None
        self._show(view)
        if view.last_cell is None or view.bot_to_move:
            raise SessionUnavailableError(terminal_texts().gettext("The engine could not make its move."))
        return view.last_cell

    async def abandon(self) -> str:
        """Leave the game: resign after a move of one's own, else cancel it; the sentence saying which."""
        texts = terminal_texts()
        try:
            if self._moved:
                self._show(await self._service.resign(self._place, self._player, self.game_id))
                return texts.gettext("you resigned, so the engine wins (it counts as a loss)")
            self._show(await self._service.cancel(self._place, self._player, game_id=self.game_id))
            return texts.gettext("the game was cancelled before your first move, so it does not count")
        except NotDone as error:
            return texts.gettext(
                "the game could not be closed: {problem}", problem=refusal_text(texts, error)
            )

    async def close(self, left: bool) -> None:
        """End the game if it is still live: as :meth:`abandon` if the player ``left``, else cancelled."""
        pending, self._reply = self._reply, None
        if pending is not None:
            pending.cancel()
            with contextlib.suppress(BaseException):
                await pending
        if self._view is not None and not self._view.is_live:
            return
        if left:
            await self.abandon()
            return
        try:
            await self._service.cancel(self._place, self._player, game_id=self.game_id)
        except Exception:
            log.debug("Could not cancel the game in channel %s", self._place.channel_id, exc_info=True)


def _result(task: asyncio.Future[GameView]) -> GameView:
    """The task's view; a refusal stays a :class:`NotDone`, anything else stops the session."""
    try:
        return task.result()
    except NotDone:
        raise
    except Exception as error:
        raise _stopped(error) from None


def _stopped(error: Exception) -> SessionUnavailableError:
    log.debug("The game stopped", exc_info=error)
    return SessionUnavailableError(
        terminal_texts().gettext("The game stopped: {problem}", problem=first_line(error))
    )


def terminal_settings(settings: Settings, budget_ms: int) -> ServiceSettings:
    """The service's settings for a terminal game: one engine worker, the game's budget.

    No start cooldown: it keeps one person from flooding a shared channel, while at
    a terminal it would only refuse "play again" for a few seconds.
    """
    return dataclasses.replace(
        service_settings(settings), engine_workers=1, engine_budget_ms=budget_ms, start_cooldown_seconds=0.0
    )


def local_actor() -> Actor:
    """The player at this terminal: the operating-system user, with a stable id derived from the name."""
    name = os_user_name()
    return Actor(local_player_id(name), name)


async def _started(service: GameService, engine: _WatchedEngine, options: PlayOptions) -> ServiceSession:
    player = local_actor()
    for _ in range(CHANNEL_ATTEMPTS):
        session = ServiceSession(service, engine, Place(None, terminal_channel_id()), player, options)
        try:
            await session.start(options.size)
        except NotDone as error:
            if isinstance(error, GameRunning):
                continue
            problem = refusal_text(terminal_texts(), error)
            raise SessionUnavailableError(
                terminal_texts().gettext("Could not start a game: {problem}", problem=problem)
            ) from None
        return session
    raise SessionUnavailableError(
        terminal_texts().gettext("Could not find a free channel for the game; please try again.")
    )


@contextlib.asynccontextmanager
async def terminal_service(
    settings: Settings,
    *,
    budget_ms: int,
    engine: EnginePool | None = None,
    pictures: PicturePool | None = None,
    seed: int | None = None,
) -> AsyncIterator[GameService]:
    """The game service over the database at ``settings.database_url``, closed at the end.

    The schema is upgraded first when ``AUTO_MIGRATE`` is on, and otherwise checked
    to be the newest; a database that cannot be used raises
    :class:`SessionUnavailableError` with one line that says why.
    """
    problem = await (upgrade_schema(settings) if settings.auto_migrate else schema_problem(settings))
    if problem is not None:
        raise SessionUnavailableError(problem)
    service = build_service(
        settings,
        terminal_settings(settings, budget_ms),
        engine=engine,
        pictures=pictures,
        rng=random.Random(seed),
    )
    try:
        yield service
    finally:
        await service.close()


def service_sessions(settings: Settings) -> SessionFactory:
    """A :data:`SessionFactory` for games stored in the database at ``settings.database_url``."""

    @contextlib.asynccontextmanager
    async def open_session(options: PlayOptions) -> AsyncIterator[GameSession]:
        engine = _WatchedEngine(options.budget_ms)
        async with terminal_service(
            settings, budget_ms=options.budget_ms, engine=engine, seed=options.seed
        ) as service:
            session = await _started(service, engine, options)
            left = False
            try:
                yield session
            except (KeyboardInterrupt, asyncio.CancelledError):
                left = True
                raise
            finally:
                await session.close(left)

    return open_session
