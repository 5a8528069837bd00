"""Arenas: Swiss tournaments played on the normal boards.

The rules of a Swiss tournament are pure functions of the arena's record (:mod:`.records`):
who meets whom next (:mod:`.pairing`), how many rounds an arena plays (:mod:`.schedule`) and how
the players stand (:mod:`.standings`). They read nothing and store nothing; the service feeds them
what the store holds. :mod:`.errors` names each kind of record or request they turn away.
"""

from bot.services.arena.errors import (
    BadRecordError,
    NoPairingLeftError,
    RoundsOutOfRangeError,
    SwissError,
    TooFewPlayersError,
)
from bot.services.arena.ledger import Ledger, PlayerLedger
from bot.services.arena.pairing import pair_round
from bot.services.arena.records import (
    BYE_POINTS,
    Entrant,
    Mark,
    Pairing,
    PlayedGame,
    Result,
    RoundPlan,
    RoundRecord,
)
from bot.services.arena.schedule import MAX_ROUNDS, MIN_PLAYERS, MIN_ROUNDS, default_rounds, max_rounds
from bot.services.arena.standings import Standing, standings

__all__ = [
    "BYE_POINTS",
    "MAX_ROUNDS",
    "MIN_PLAYERS",
    "MIN_ROUNDS",
    "BadRecordError",
    "Entrant",
    "Ledger",
    "Mark",
    "NoPairingLeftError",
    "Pairing",
    "PlayedGame",
    "PlayerLedger",
    "Result",
    "RoundPlan",
    "RoundRecord",
    "RoundsOutOfRangeError",
    "Standing",
    "SwissError",
    "TooFewPlayersError",
    "default_rounds",
    "max_rounds",
    "pair_round",
    "standings",
]
