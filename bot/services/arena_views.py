"""What the arena operations return: frozen views of an arena, its rounds and standings.

Names are display names as stored (raw: escaping them is the adapter's business); points are
:class:`~fractions.Fraction` (halves, and quarters in Sonneborn-Berger).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from bot.services.results import GameView
from bot.states import ArenaStatus, GameResult


@dataclass(frozen=True, slots=True)
class ArenaEntrantView:
    """A player of an arena, in seed order; ``active`` is False once they have left a running arena."""

    user_id: int
    name: str
    active: bool = True


@dataclass(frozen=True, slots=True)
class PairingView:
    """One game of a round: X and O, its board number (0 = the leaders'), its game and thread once made,
    and its result once it has one."""

    arena_id: int
    round_number: int
    board: int
    x: ArenaEntrantView
    o: ArenaEntrantView
    game_id: int | None
    thread_id: int | None
    result: GameResult | None


@dataclass(frozen=True, slots=True)
class RoundView:
    """A round: its games, the player with the bye, the message its threads hang from."""

    number: int
    pairings: tuple[PairingView, ...]
    bye: ArenaEntrantView | None
    message_id: int | None
    finished: bool


@dataclass(frozen=True, slots=True)
class StandingView:
    """One line of the standings (see :mod:`bot.services.arena.standings`)."""

    rank: int
    player: ArenaEntrantView
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    wins: int
    draws: int
    losses: int
    bye: bool


@dataclass(frozen=True, slots=True)
class ArenaView:
    """An arena as it stands after an operation.

    ``rounds`` is the number it plays: fixed when it starts; before that the number asked for,
    else the default for the players so far (None while there are too few for an arena).
    """

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    opener_id: int
    size: int
    rounds: int | None
    rounds_asked: int | None
    rated: bool
    status: ArenaStatus
    starts_at: datetime
    current_round: int
    players: tuple[ArenaEntrantView, ...]
    standings: tuple[StandingView, ...]
    played: tuple[RoundView, ...]
    finished_at: datetime | None

    @property
    def current(self) -> RoundView | None:
        """The round being played (or the last one played), if any."""
        return self.played[-1] if self.played else None


@dataclass(frozen=True, slots=True)
class ArenaUpdate:
    """What an operation changed, for the adapter to show.

    ``new_round``: a round was just paired; the adapter posts it, creates a thread per pairing and
    asks for each game (:meth:`~bot.services.game_service.GameService.create_arena_game`).
    ``ended_games``: games this operation ended (a player who left forfeits; a cancelled arena
    cancels its games), to redraw. ``too_few``: the lobby closed with too few players, so the
    arena was cancelled.
    """

    arena: ArenaView
    new_round: RoundView | None = None
    ended_games: tuple[GameView, ...] = ()
    too_few: bool = False
