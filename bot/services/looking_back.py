"""Who may look back at which game: reviews, replays and game lists.

A game played in a server is visible from that server only. A game played
outside servers (a DM, a group DM) is visible to its players, and from the
conversation it was played in. The terminal (no place) sees its whole database.
"""

from __future__ import annotations

from bot.db import GameRecord
from bot.pictures import ReplayMove
from bot.services.refusals import PlayedElsewhere, PrivateGame
from bot.services.results import GameHistory, Place


def visible_from(game: GameRecord, place: Place | None, user_id: int | None) -> bool:
    """Whether a game may be looked at from ``place`` by ``user_id`` (None: from anywhere)."""
    if place is None:
        return True
    if game.guild_id is not None:
        return game.guild_id == place.guild_id
    if place.guild_id is None and game.channel_id == place.channel_id:
        return True
    return user_id is not None and user_id in (game.x_player_id, game.o_player_id)


def check_visible(game: GameRecord, place: Place | None, user_id: int | None) -> None:
    """Refuse a game the asker may not look at from ``place``."""
    if visible_from(game, place, user_id):
        return
    if game.guild_id is not None:
        raise PlayedElsewhere()
    raise PrivateGame()


def replay_moves(history: GameHistory) -> list[ReplayMove]:
    """The moves of a game as the replay picture draws them."""
    return [ReplayMove(move.cell, move.mark.value) for move in history.moves]
