"""How many players an arena needs and how many rounds it plays."""

from __future__ import annotations

from bot.services.arena.errors import RoundsOutOfRangeError, TooFewPlayersError

MIN_PLAYERS = 3
"""The fewest players an arena starts with: two play and one has the bye, in turns."""

MIN_ROUNDS = 1
MAX_ROUNDS = 9


def default_rounds(players: int) -> int:
    """The rounds that separate a field of ``players``: ⌈log2 players⌉, within 1-9.

    After that many rounds of pairing winners with winners at most one player can have won every
    game (8 players: 3 rounds, 64: 6). Fields too small for that many rounds without a repeat
    play as many as they can (:func:`max_rounds`).
    """
    if players < MIN_PLAYERS:
        raise TooFewPlayersError(players, MIN_PLAYERS)
    wanted = max(MIN_ROUNDS, min(MAX_ROUNDS, (players - 1).bit_length()))
    return min(wanted, max_rounds(players))


def max_rounds(players: int) -> int:
    """The most rounds ``players`` can play with no two meeting twice and no second bye.

    An even field plays a round robin at most (players - 1 rounds); an odd one also has a bye
    each round, and everyone has at most one, so players rounds; never more than 9.
    """
    if players < MIN_PLAYERS:
        raise TooFewPlayersError(players, MIN_PLAYERS)
    return min(MAX_ROUNDS, players if players % 2 else players - 1)


def check_rounds(rounds: int, players: int) -> int:
    """``rounds`` when the field of ``players`` can play them, else :class:`RoundsOutOfRangeError`."""
    high = max_rounds(players)
    if not MIN_ROUNDS <= rounds <= high:
        raise RoundsOutOfRangeError(rounds, MIN_ROUNDS, high)
    return rounds
