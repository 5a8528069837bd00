"""Starting games: against the bot, challenges between members (accept, decline), rematches.

Every start is limited per user by ``start_cooldown_seconds``, against floods of
games and challenges; a player whose last game was played out to a result may
start the next one at once.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from datetime import datetime

from bot.db import GameRecord, Repository
from bot.engine import Board, Level
from bot.services import metrics, refusals, rules
from bot.services.core import NAME_LENGTH, ServiceCore
from bot.services.endings import end
from bot.services.moves import BotTurn, Moves
from bot.services.results import Actor, First, GameView, Place
from bot.services.server_rules import SettingsView
from bot.states import Accepted, EndReason, GameStatus


class Starting:
    """New games, challenges and their answers."""

    def __init__(self, core: ServiceCore, moves: Moves) -> None:
        self._core = core
        self._moves = moves

    async def start_vs_bot(
        self, place: Place, player: Actor, size: int, level: Level | None, first: First
    ) -> GameView:
        """Start a game against the bot (``level`` None: the server's default level, else perfect);
        when the bot opens, its move is made before this returns."""
        core = self._core
        rules.check_size(size)
        server = await core.server_rules(place.guild_id)
        server.check_may_play(place, player)
        if level is None:
            level = server.default_level or SettingsView.DEFAULT_LEVEL
        human_x = self._human_is_x(first)
        now = core.clock()
        async with core.write() as repo:
            await self._prepare_start(repo, place, now, player)
            x, o = (player.user_id, None) if human_x else (None, player.user_id)
            view, turn = await self._create(repo, place, size, player, x, o, level, now)
        return await self._moves.after_human_turn(view, turn)

    async def challenge(
        self, place: Place, challenger: Actor, opponent: Actor, opponent_is_bot: bool, size: int, first: First
    ) -> GameView:
        """Challenge ``opponent`` to a game; it starts once accepted."""
        if opponent.user_id == challenger.user_id:
            raise refusals.SelfChallenge()
        if opponent_is_bot:
            raise refusals.BotChallenge()
        core = self._core
        rules.check_size(size)
        (await core.server_rules(place.guild_id)).check_may_play(place, challenger)
        challenger_x = self._human_is_x(first)
        now = core.clock()
        async with core.write() as repo:
            await self._prepare_start(repo, place, now, challenger, opponent)
            sides = (challenger.user_id, opponent.user_id)
            x, o = sides if challenger_x else sides[::-1]
            view, _ = await self._create(repo, place, size, challenger, x, o, None, now)
            return view

    async def accept(self, place: Place, user: Actor, game_id: int | None) -> GameView:
        """A button's Accept is decided on the cached game first (see ``ServiceCore.cached_first``)."""
        if game_id is None:
            return await self._accept(place, user, None, cached=False)
        return await self._core.cached_first(lambda cached: self._accept(place, user, game_id, cached=cached))

    async def _accept(self, place: Place, user: Actor, game_id: int | None, *, cached: bool) -> GameView:
        core = self._core
        now = core.clock()
        async with core.write() as repo:
            game = await self._pending_for(repo, place, user, game_id, cached=cached)
            (await core.server_rules(place.guild_id, repo)).check_may_play(place, user)
            accepted = Accepted(await core.turn_deadline(repo, game.guild_id, game.x_player_id, now), now)
            game = await repo.apply(game, accepted)
            core.after_commit(functools.partial(metrics.game_started, game.size, game.level))
            names = await core.names(repo, game)
            await core.save_players(repo, now, user, known=names)
            return await core.view(repo, game, names={**names, user.user_id: user.display_name[:NAME_LENGTH]})

    async def decline(self, place: Place, user: Actor, game_id: int | None) -> GameView:
        """The challenged player declines: the challenge ends."""
        core = self._core
        now = core.clock()
        async with core.write() as repo:
            game = await self._pending_for(repo, place, user, game_id)
            game = await end(core, repo, game, GameStatus.CANCELLED, None, EndReason.DECLINED, now)
            await core.save_players(repo, now, user)
            return await core.view(repo, game)

    async def rematch(self, place: Place, user: Actor, game_id: int) -> GameView:
        """A new game between the players of the finished game ``game_id``, sides swapped, in its
        pieces (a theme chosen where no server's applies is kept)."""
        core = self._core
        now = core.clock()
        (await core.server_rules(place.guild_id)).check_may_play(place, user)
        async with core.write() as repo:
            old = await core.game_here(repo, place, game_id)
            if old.status is not GameStatus.FINISHED:
                raise refusals.NotFinished()
            if rules.mark_of(old, user.user_id) is None:
                raise refusals.NotRematchPlayer()
            await self._prepare_start(repo, place, now, user)
            level = None if old.level is None else Level(old.level)
            x, o = old.o_player_id, old.x_player_id
            starter = replace(user, theme=user.theme or old.starter_theme)
            view, turn = await self._create(repo, place, old.size, starter, x, o, level, now)
        return await self._moves.after_human_turn(view, turn)

    def _human_is_x(self, first: First) -> bool:
        if first is First.RANDOM:
            return self._core.rng.random() < 0.5
        return first is First.ME

    async def _prepare_start(
        self, repo: Repository, place: Place, now: datetime, starter: Actor, *others: Actor
    ) -> None:
        """Refuse a start in a busy channel, then one within the starter's cooldown; store the players.

        The channel is read here only when a name must be stored first, or to put a busy
        channel before a cooldown: otherwise the new game's insert finds it out itself (the
        channel's live-game index refuses it, see :meth:`_create`) with nothing written, so the
        usual start saves a round trip to the database.
        """
        core = self._core
        names = core.unsaved_names(starter, *others)
        channel_read = bool(names)
        if channel_read:
            await self._refuse_busy_channel(repo, place)
        cooldown = core.settings.start_cooldown_seconds
        last = await repo.last_game_created_by(starter.user_id) if cooldown > 0 else None
        if last is not None and not rules.played_out(last):
            wait = cooldown - (now - last.created_at).total_seconds()
            if wait > 0:
                if not channel_read:
                    await self._refuse_busy_channel(repo, place)
                raise refusals.Cooldown(wait)
        await core.store_names(repo, now, names)

    @staticmethod
    async def _refuse_busy_channel(repo: Repository, place: Place) -> None:
        live = await repo.live_game(place.channel_id)
        if live is not None:
            raise rules.busy_channel(live)

    async def _pending_for(
        self, repo: Repository, place: Place, user: Actor, game_id: int | None, *, cached: bool = False
    ) -> GameRecord:
        game = await self._core.game_here(repo, place, game_id, cached=cached)
        if game.status is not GameStatus.PENDING:
            raise refusals.NotPending()
        challenged = rules.challenged_id(game)
        if challenged is None or user.user_id != challenged:
            name = (await self._core.names(repo, game)).get(challenged or 0)
            raise refusals.NotChallengedUnnamed() if name is None else refusals.NotChallenged(name)
        return game

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
    ) -> tuple[GameView, BotTurn | None]:
        """Insert a new game: against the bot it is active at once, between humans a pending challenge.

        Returns its view and, when the bot opens with a move no table answers, the bot's turn.
        """
        core = self._core
        board = Board.empty(size)
        deadline: datetime | None
        if level is None:
            status = GameStatus.PENDING
            deadline = await core.challenge_deadline(repo, place.guild_id, now)
        else:
            status = GameStatus.ACTIVE
            deadline = await core.turn_deadline(repo, place.guild_id, x, now)
        game = await repo.add_game(
            guild_id=place.guild_id,
            channel_id=place.channel_id,
            interactions_only=place.interactions_only,
            size=size,
            k=board.k,
            level=None if level is None else level.value,
            x_player_id=x,
            o_player_id=o,
            created_by=creator.user_id,
            starter_locale=creator.locale,
            starter_theme=creator.theme,
            status=status,
            board=board.compact,
            ply=0,
            seed=core.rng.getrandbits(62),
            rated=False,
            rating_weight=0.0,
            version=1,
            deadline=deadline,
            created_at=now,
            updated_at=now,
        )
        if game is None:  # the channel's live-game index said no: a game or challenge runs there
            raise rules.busy_channel(await repo.live_game(place.channel_id))
        if status is GameStatus.ACTIVE:
            core.after_commit(functools.partial(metrics.game_started, size, game.level))
        opening = self._moves.reply_at_once(game, board)
        if opening is not None:
            game, board = await self._moves.play(repo, game, board, opening, None, now)
        view = await core.view(repo, game, board)
        return view, self._moves.bot_turn(game, view, board)
