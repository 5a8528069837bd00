"""Arenas through the game service: a 64-player Swiss arena played out, every game by its moves.

    python -m bench.arena [--players 64] [--out bench/RESULTS-arena.md]

(The same arena on Discord, through the emulator and by clicks: :mod:`bench.arena_discord`, whose
section of the results file this one keeps.)

The arena runs on SQLite (the bot's settings) in this process, as the service runs it for an
adapter: each round's games are created in channels of their own, every game is played to its end
by ``GameService.move`` (draws and wins in turn), and ``arena_game_over`` is called after each.
Reported, per round and in all:

- **ending**: the last move of a game (``move``), as in any game between members;
- **noted**: ``arena_game_over`` for a game that is not its round's last (the result is noted);
- **turnover**: ``arena_game_over`` for a round's last game: the result noted, the round closed,
  the next round paired (Swiss rules over the whole record) and stored, the arena's view built:
  the service's part of "from a round's last move to the next round's pairings". Its ratio to
  **ending** is the result; the machine is shared, so absolute times are orders of magnitude.
- **pairing**: the Swiss pairing of that round alone (:func:`bot.services.arena.pair_round`).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import platform
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.arena_discord import SECTION
from bot.db import Database
from bot.db.migrate import upgrade_to_head
from bot.services import Actor, ArenaUpdate, GameService, Place, ServiceSettings
from bot.services.arena import Entrant, PlayedGame, Result, RoundRecord, pair_round
from bot.states import GameResult

GUILD = 1_000_000_000_000_001
LOBBY = Place(GUILD, 2_000_000_000_000_001)
X_WINS = ["a1", "a2", "b1", "b2", "c1"]
DRAW = ["b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3"]
_SWISS = {GameResult.X_WON: Result.X_WON, GameResult.O_WON: Result.O_WON, GameResult.DRAW: Result.DRAW}


@dataclass
class RoundTimes:
    number: int
    games: int
    endings: list[float] = field(default_factory=list)
    noted: list[float] = field(default_factory=list)
    turnover: float | None = None
    pairing: float | None = None


def player(n: int) -> Actor:
    return Actor(3_000_000_000_000_000 + n, f"Player {n}")


async def run_arena(url: str, players: int) -> list[RoundTimes]:
    """Play an arena of ``players`` to its end; the times of each round."""
    await upgrade_to_head(url)
    service = GameService(Database(url), ServiceSettings(start_cooldown_seconds=0))
    actors = {player(n).user_id: player(n) for n in range(players)}
    channels = itertools.count(4_000_000_000_000_001)
    try:
        await service.open_arena(LOBBY, player(0))
        for n in range(1, players):
            await service.join_arena(LOBBY, player(n))
        update: ArenaUpdate | None = await service.start_arena(LOBBY, player(0))
        times: list[RoundTimes] = []
        while update is not None and update.new_round is not None:
            new_round = update.new_round
            record = RoundTimes(new_round.number, len(new_round.pairings))
            games = []
            for pairing in new_round.pairings:
                place = Place(GUILD, next(channels), parent_id=LOBBY.channel_id)
                game = await service.create_arena_game(
                    pairing.arena_id, new_round.number, pairing.board, place
                )
                assert game is not None
                games.append((game.id, place, actors[pairing.x.user_id], actors[pairing.o.user_id]))
            update = None
            for index, (game_id, place, x, o) in enumerate(games):
                cells = DRAW if (index + new_round.number) % 2 else X_WINS
                for cell, actor in zip(cells[:-1], itertools.cycle([x, o]), strict=False):
                    await service.move(place, actor, cell)
                last = x if len(cells) % 2 else o
                started = time.perf_counter()
                await service.move(place, last, cells[-1])
                record.endings.append(time.perf_counter() - started)
                started = time.perf_counter()
                over = await service.arena_game_over(game_id)
                spent = time.perf_counter() - started
                if index == len(games) - 1:
                    record.turnover = spent
                    update = over
                else:
                    record.noted.append(spent)
            times.append(record)
        arena = await service.arena_standings(GUILD)
        records: list[RoundRecord] = []
        for played, record in zip(arena.played, times, strict=True):
            entrants = [Entrant(p.user_id, seed) for seed, p in enumerate(arena.players, 1)]
            started = time.perf_counter()
            pair_round(entrants, records)
            record.pairing = time.perf_counter() - started
            records.append(
                RoundRecord(
                    played.number,
                    tuple(
                        PlayedGame(p.x.user_id, p.o.user_id, _SWISS[p.result])
                        for p in played.pairings
                        if p.result
                    ),
                    None if played.bye is None else played.bye.user_id,
                )
            )
        return times
    finally:
        await service.close()


def report(times: list[RoundTimes], players: int) -> str:
    def ms(seconds: float) -> str:
        return f"{seconds * 1000:.1f}"

    lines = [
        "# Arena benchmark",
        "",
        f"`python -m bench.arena --players {players}` on CPython {platform.python_version()},"
        " SQLite (WAL, NORMAL).",
        "Times in milliseconds; **ending** and **noted** are medians over the round's games.",
        "",
        "| round | games | ending | noted | turnover | pairing | turnover/ending |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for record in times:
        ending = statistics.median(record.endings)
        noted = statistics.median(record.noted) if record.noted else 0.0
        turnover = record.turnover or 0.0
        lines.append(
            f"| {record.number} | {record.games} | {ms(ending)} | {ms(noted)} | {ms(turnover)} |"
            f" {ms(record.pairing or 0.0)} | {turnover / ending:.1f} |"
        )
    doc = (__doc__ or "").split("\n\n", 2)[2]
    return "\n".join(lines) + "\n\n" + doc.strip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.arena", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--players", type=int, default=64, help="players in the arena (default 64)")
    parser.add_argument("--out", type=Path, help="also write the Markdown table here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'arena.sqlite3'}"
        times = asyncio.run(run_arena(url, args.players))
    text = report(times, args.players)
    print(text)
    if args.out is not None:
        earlier = args.out.read_text() if args.out.exists() else ""
        discord = earlier[earlier.index(SECTION) :] if SECTION in earlier else ""
        args.out.write_text(text + ("\n" + discord if discord else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
