"""What the record says of each player: points, opponents, colours and bye.

Both the pairing and the standings read an arena through a :class:`Ledger`, built once from its
entrants and rounds, which also checks that the record is one an arena can have.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from bot.services.arena.errors import BadRecordError
from bot.services.arena.records import BYE_POINTS, Entrant, Mark, RoundRecord


@dataclass(frozen=True)
class Encounter:
    """One finished game from one player's side: the opponent, the side played, the points scored."""

    round_number: int
    opponent: int
    mark: Mark
    points: Fraction


@dataclass
class PlayerLedger:
    """One player's account: every finished game, every opponent met (finished or not), the bye.

    Filled in by :class:`Ledger` as it reads the rounds, and only read after that.
    """

    entrant: Entrant
    encounters: list[Encounter] = field(default_factory=list)
    met: set[int] = field(default_factory=set)
    marks: list[Mark] = field(default_factory=list)
    bye_round: int | None = None
    game_points: Fraction = Fraction(0)
    colour_balance: int = 0
    """Games as X minus games as O, of every game paired so far."""

    @property
    def player(self) -> int:
        """The player's id."""
        return self.entrant.player

    @property
    def had_bye(self) -> bool:
        """Whether the player has had their one bye."""
        return self.bye_round is not None

    @property
    def score(self) -> Fraction:
        """Points from finished games, plus the bye's."""
        return self.game_points + (BYE_POINTS if self.had_bye else Fraction(0))

    @property
    def last_mark(self) -> Mark | None:
        """The side of the player's latest game, if any."""
        return self.marks[-1] if self.marks else None

    def wants(self) -> Mark | None:
        """The side that keeps the player's colours balanced; None when either does.

        Whoever had X more often wants O (and the other way round); with as many of each, the side
        they did not have last time, so nobody plays the same side three times running.
        """
        balance = self.colour_balance
        if balance:
            return Mark.O if balance > 0 else Mark.X
        return self.last_mark.other if self.last_mark is not None else None

    def must_have(self) -> Mark | None:
        """The side the player must have to keep |X - O| within 1: only set once they are one off."""
        balance = self.colour_balance
        if balance:
            return Mark.O if balance > 0 else Mark.X
        return None


class Ledger:
    """Every player's account of an arena, in seed order, from its entrants and rounds."""

    def __init__(self, entrants: Iterable[Entrant], rounds: Iterable[RoundRecord]) -> None:
        ordered = sorted(entrants, key=lambda entrant: entrant.seed)
        self.players: dict[int, PlayerLedger] = {}
        for entrant in ordered:
            if entrant.player in self.players:
                raise BadRecordError(f"player {entrant.player} entered twice")
            self.players[entrant.player] = PlayerLedger(entrant)
        self.rounds: tuple[RoundRecord, ...] = tuple(rounds)
        for expected, record in enumerate(self.rounds, start=1):
            if record.number != expected:
                raise BadRecordError(f"round {record.number} where round {expected} was expected")
            self._enter(record)

    def _enter(self, record: RoundRecord) -> None:
        seen: set[int] = set()
        for player in [p for game in record.games for p in (game.x, game.o)] + (
            [record.bye] if record.bye is not None else []
        ):
            if player not in self.players:
                raise BadRecordError(f"round {record.number}: unknown player {player}")
            if player in seen:
                raise BadRecordError(f"round {record.number}: player {player} is in it twice")
            seen.add(player)
        for game in record.games:
            for mark, player, opponent in ((Mark.X, game.x, game.o), (Mark.O, game.o, game.x)):
                account = self.players[player]
                if opponent in account.met:
                    raise BadRecordError(f"round {record.number}: {player} and {opponent} met before")
                account.met.add(opponent)
                account.marks.append(mark)
                account.colour_balance += 1 if mark is Mark.X else -1
                if game.result is not None:
                    points = game.result.points(mark)
                    account.encounters.append(Encounter(record.number, opponent, mark, points))
                    account.game_points += points
        if record.bye is not None:
            account = self.players[record.bye]
            if account.had_bye:
                raise BadRecordError(f"round {record.number}: {record.bye} has had a bye before")
            account.bye_round = record.number

    @property
    def scores(self) -> Mapping[int, Fraction]:
        """Each player's points so far."""
        return {player: account.score for player, account in self.players.items()}

    def active(self) -> list[PlayerLedger]:
        """The players still in the arena, in pairing order: by score, then seed."""
        return sorted(
            (account for account in self.players.values() if account.entrant.active),
            key=lambda account: (-account.score, account.entrant.seed),
        )
