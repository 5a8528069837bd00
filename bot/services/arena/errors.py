"""What the Swiss rules turn away, one exception type per kind.

These guard the rules' inputs: the service checks a user's request first and answers it with a
:class:`~bot.services.refusals.Refusal` of its own, so none of these reaches a user as it is. A
:class:`NoPairingLeftError` is the one the service expects in normal play: it ends the arena early.
"""

from __future__ import annotations


class SwissError(Exception):
    """Base class: the Swiss rules cannot answer for this record or request."""


class TooFewPlayersError(SwissError):
    """An arena needs at least :data:`~bot.services.arena.schedule.MIN_PLAYERS` players."""

    def __init__(self, players: int, needed: int) -> None:
        self.players = players
        self.needed = needed
        super().__init__(f"{players} players, at least {needed} needed")


class RoundsOutOfRangeError(SwissError):
    """A number of rounds outside what the arena can play."""

    def __init__(self, rounds: int, low: int, high: int) -> None:
        self.rounds = rounds
        self.low = low
        self.high = high
        super().__init__(f"{rounds} rounds, not within {low}-{high}")


class NoPairingLeftError(SwissError):
    """No pairing of the active players avoids a repeated game and a second bye: the arena ends."""

    def __init__(self, round_number: int) -> None:
        self.round_number = round_number
        super().__init__(f"no pairing for round {round_number} without a repeat or a second bye")


class BadRecordError(SwissError):
    """A record that no arena can have: an unknown player, a player twice in a round, rounds out of order."""
