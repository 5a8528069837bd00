"""A player's finished arenas for ``/ttt stats``: where they placed in each, by the Swiss standings."""

from __future__ import annotations

from bot.db import Repository
from bot.services.arena import standings
from bot.services.arenas import entrants_of, round_records
from bot.services.results import ArenaPlace, ArenaRecord

PODIUM = 3


async def load_arena_record(repo: Repository, user_id: int) -> ArenaRecord:
    """How ``user_id`` placed in every finished arena they entered (a player who left keeps their place)."""
    places: list[ArenaPlace] = []
    for arena in await repo.finished_arenas_of(user_id):
        players = await repo.arena_players(arena.id)
        records = round_records(await repo.arena_rounds(arena.id), await repo.arena_pairings(arena.id))
        lines = standings(entrants_of(players), records)
        rank = next((line.rank for line in lines if line.player == user_id), None)
        if rank is not None:
            places.append(ArenaPlace(arena.id, rank, len(players), arena.finished_at))
    if not places:
        return ArenaRecord()
    return ArenaRecord(
        played=len(places),
        wins=sum(place.rank == 1 for place in places),
        podiums=sum(place.rank <= PODIUM for place in places),
        best=min(place.rank for place in places),
        latest=places[0],
    )
