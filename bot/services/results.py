"""Plain, frozen results of the service: everything an adapter needs to render, nothing to act on.

Cells are 0-based indexes in reading order; ``cell_name`` gives the
letter-number name (``b2``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

from bot.engine import Level, Mark, Outcome, format_cell
from bot.states import EndReason, GameResult, GameStatus


@dataclass(frozen=True, slots=True)
class Place:
    """Where a request comes from: a guild (None for the terminal or a DM) and a channel or thread.

    ``interactions_only``: the adapter can reach a board there only in answer to a user's request
    (it has no access of its own to the conversation), so it cannot show a change the moment it
    happens. A game started there keeps this, and :attr:`GameView.interactions_only` says so.
    """

    guild_id: int | None
    channel_id: int
    interactions_only: bool = False
    parent_id: int | None = None
    """The channel a thread belongs to (None elsewhere): a server's rules for a channel hold in its
    threads."""


@dataclass(frozen=True, slots=True)
class Actor:
    """A human who asks for something, with the display name to remember for them."""

    user_id: int
    display_name: str
    locale: str | None = None
    """Their language (a Discord locale), kept with a game they start: its language outside servers."""
    role_ids: frozenset[int] | None = frozenset()
    """Their roles in the server the request comes from (a server may require one to play); None where
    the adapter cannot know them (a server that did not add the bot), and a required role is not checked."""
    theme: str | None = None
    """The look of the pieces they chose for a game they start: its theme outside servers."""


class First(enum.Enum):
    """Who plays X (and so moves first), from the point of view of whoever starts the game."""

    ME = "me"
    OPPONENT = "opponent"
    RANDOM = "random"


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One side of a game. ``user_id`` is None for the bot."""

    mark: Mark
    user_id: int | None
    display_name: str

    @property
    def is_bot(self) -> bool:
        """Whether this side is the bot."""
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class GameView:
    """A game as it stands after an operation."""

    id: int
    guild_id: int | None
    channel_id: int
    size: int
    k: int
    board: str
    """The board text, rows separated by ``/`` (``X.O/.../...``)."""
    cells: tuple[Mark | None, ...]
    x: PlayerView
    o: PlayerView
    level: Level | None
    """How well the bot plays; None when two humans play."""
    status: GameStatus
    result: GameResult | None
    end_reason: EndReason | None
    turn: Mark | None
    """The mark to move while the game is active, else None."""
    last_cell: int | None
    winning_cells: tuple[int, ...]
    legal_moves: tuple[int, ...]
    """Empty cells while the game is active (for buttons and autocomplete), else empty."""
    ply: int
    version: int
    challenger_id: int
    """Who started the game or challenge."""
    rated: bool
    deadline: datetime | None
    """When a pending challenge expires, when the human on turn loses on time, or when the bot's
    move on turn is made again."""
    message_id: int | None
    message_channel_id: int | None
    created_at: datetime
    finished_at: datetime | None
    starter_locale: str | None = None
    """The locale of the player who started the game (see :attr:`Actor.locale`)."""
    starter_theme: str | None = None
    """The theme the player who started the game chose (see :attr:`Actor.theme`)."""
    interactions_only: bool = False
    """Its board can be shown only in answer to a request (a click, a command); see :class:`Place`."""
    arena_id: int | None = None
    """The arena whose round the game belongs to, if any."""

    @property
    def players(self) -> tuple[PlayerView, PlayerView]:
        """X and O, in that order."""
        return (self.x, self.o)

    @property
    def is_live(self) -> bool:
        """Whether the game still waits for someone: a pending challenge or an active game."""
        return self.status.is_live

    @property
    def is_pending(self) -> bool:
        """Whether it is a challenge waiting for an answer."""
        return self.status is GameStatus.PENDING

    @property
    def is_active(self) -> bool:
        """Whether the game is being played."""
        return self.status is GameStatus.ACTIVE

    @property
    def vs_bot(self) -> bool:
        """Whether one side is the bot."""
        return self.level is not None

    @property
    def to_move(self) -> PlayerView | None:
        """The side on turn while the game is active."""
        if self.turn is None:
            return None
        return self.x if self.turn is Mark.X else self.o

    @property
    def bot_to_move(self) -> bool:
        """Whether the bot is on turn."""
        side = self.to_move
        return side is not None and side.is_bot

    @property
    def bot_gave_up(self) -> bool:
        """Whether the game was cancelled because the bot's move failed again and again."""
        return self.status is GameStatus.CANCELLED and self.end_reason is EndReason.TIMEOUT

    @property
    def winner(self) -> PlayerView | None:
        """The side that won, if any."""
        if self.result is GameResult.X_WON:
            return self.x
        if self.result is GameResult.O_WON:
            return self.o
        return None

    @property
    def loser(self) -> PlayerView | None:
        """The side that lost, if any."""
        if self.result is GameResult.X_WON:
            return self.o
        if self.result is GameResult.O_WON:
            return self.x
        return None

    @property
    def challenged(self) -> PlayerView | None:
        """The human who was challenged (who may accept or decline), in a game between humans."""
        if self.vs_bot:
            return None
        return self.o if self.x.user_id == self.challenger_id else self.x

    def player(self, user_id: int) -> PlayerView | None:
        """The side ``user_id`` plays, or None when they are not in this game."""
        for side in self.players:
            if side.user_id == user_id:
                return side
        return None

    def cell_name(self, cell: int) -> str:
        """The letter-and-row name of ``cell`` on this board (``b2``)."""
        return format_cell(cell, self.size)


@dataclass(frozen=True, slots=True)
class CellVerdict:
    """The engine's verdict on playing one empty cell, for the player to move."""

    cell: int
    name: str
    value: Outcome
    plies: int


@dataclass(frozen=True, slots=True)
class HintView:
    """The analysis behind ``/ttt hint``: values are for the player who asked (who is on turn)."""

    game: GameView
    value: Outcome
    plies: int
    exact: bool
    moves: tuple[CellVerdict, ...]
    best: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MoveView:
    """One move of a game: its ply, cell and the cell's name."""

    ply: int
    cell: int
    name: str
    mark: Mark
    user_id: int | None
    played_at: datetime


@dataclass(frozen=True, slots=True)
class GameHistory:
    """A game and every move, in order, to replay it."""

    game: GameView
    moves: tuple[MoveView, ...]


@dataclass(frozen=True, slots=True)
class Record:
    """Wins, losses and draws."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        """How many games the record counts."""
        return self.wins + self.losses + self.draws


@dataclass(frozen=True, slots=True)
class LevelRecord:
    """A player's record against the bot at one level."""

    level: Level
    record: Record


@dataclass(frozen=True, slots=True)
class RatingView:
    """A rating in one scope: ``rank`` is None until the player has enough rated games."""

    rating: int
    best: int
    games: int
    rank: int | None


class PlayerOutcome(enum.Enum):
    """A finished game from one player's side."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class RecentGame:
    """One of a player's latest finished games."""

    game_id: int
    opponent_id: int | None
    """None when the opponent was the bot."""
    opponent_name: str
    level: Level | None
    outcome: PlayerOutcome
    end_reason: EndReason | None
    size: int
    rated: bool
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class ArenaPlace:
    """Where a player finished in one arena."""

    arena_id: int
    rank: int
    players: int
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class ArenaRecord:
    """A player's finished arenas: how many, how many won (first place, shared or not), how many on
    the podium (top three), the best place, and the latest."""

    played: int = 0
    wins: int = 0
    podiums: int = 0
    best: int | None = None
    latest: ArenaPlace | None = None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """What ``/ttt stats`` shows. Counts cover every finished game, in any server."""

    user_id: int
    display_name: str | None
    """None when the user has never played."""
    vs_humans: Record
    vs_bot: tuple[LevelRecord, ...]
    """One entry per level, easiest first, including levels not yet played."""
    current_streak: int
    """Wins in a row up to the latest finished game."""
    best_streak: int
    server_rating: RatingView | None
    global_rating: RatingView | None
    recent: tuple[RecentGame, ...]
    """Newest first."""
    arenas: ArenaRecord = ArenaRecord()

    @property
    def vs_bot_total(self) -> Record:
        """The record against the bot over every level."""
        return Record(
            sum(r.record.wins for r in self.vs_bot),
            sum(r.record.losses for r in self.vs_bot),
            sum(r.record.draws for r in self.vs_bot),
        )


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """One row of a leaderboard."""

    rank: int
    user_id: int
    display_name: str
    rating: int
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """The best rated players of a server (``guild_id``) or of everywhere (``guild_id`` None)."""

    guild_id: int | None
    min_games: int
    entries: tuple[LeaderboardEntry, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    """A value under perfect play for one side, and how many plies the game lasts from there."""

    value: Outcome
    plies: int


_VALUE_RANK = {Outcome.LOSS: 0, Outcome.DRAW: 1, Outcome.WIN: 2}


@dataclass(frozen=True, slots=True)
class MoveReview:
    """The perfect engine's verdict on one move played, from the side of the player who made it.

    ``before`` is the position's value before the move; ``after`` the value of the move
    played, counted from the same position (the move included). ``best`` holds the
    cells the engine ranks best before the move. ``exact`` is false when a 4x4/5x5
    search stopped at its time budget, so the verdict is an estimate.
    """

    ply: int
    """0-based: X's first move is ply 0."""
    cell: int
    name: str
    mark: Mark
    player: PlayerView
    before: Verdict
    after: Verdict
    best: tuple[int, ...]
    best_names: tuple[str, ...]
    exact: bool

    @property
    def number(self) -> int:
        """The move's number as people count (the first move is move 1)."""
        return self.ply + 1

    @property
    def mistake(self) -> bool:
        """The value class fell: a win became a draw or a loss, or a draw became a loss."""
        return _VALUE_RANK[self.after.value] < _VALUE_RANK[self.before.value]


@dataclass(frozen=True, slots=True)
class GameReview:
    """Every move of a game with the engine's verdict, in order (one object for every adapter)."""

    game: GameView
    moves: tuple[MoveReview, ...]

    @property
    def exact(self) -> bool:
        """Every verdict was proven by search or table (never cut by a time budget)."""
        return all(move.exact for move in self.moves)

    @property
    def mistakes(self) -> tuple[MoveReview, ...]:
        """The moves that threw away a better outcome."""
        return tuple(move for move in self.moves if move.mistake)

    def mistakes_of(self, mark: Mark) -> tuple[MoveReview, ...]:
        """The mistakes of the player of ``mark``."""
        return tuple(move for move in self.moves if move.mistake and move.mark is mark)


@dataclass(frozen=True, slots=True)
class Replay:
    """A game's moves and its animated GIF (a frame per move, the winning line drawn on the last)."""

    history: GameHistory
    gif: bytes


@dataclass(frozen=True, slots=True)
class RatingChart:
    """A PNG chart of a player's rating after each rated game: one server's line in blue (when they
    have rated games there), the global line in red."""

    png: bytes
    server_games: int
    global_games: int


@dataclass(frozen=True, slots=True)
class FinishedGames:
    """A player's latest finished games, newest first, as ``/ttt history`` lists them."""

    user_id: int
    games: tuple[GameView, ...]
