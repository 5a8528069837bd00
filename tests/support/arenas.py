"""Arenas seen through the emulator: a round's games once they are set up, and playing them by clicks."""

from __future__ import annotations

import re
from dataclasses import dataclass

from discord_emulator import Channel, DiscordEmulator, Message
from tests.support.tables import Table, click_cell

SETUP_GUARD = 30.0
"""Failure guard for a round's messages, threads and boards to appear."""
PAIRING = re.compile(r"Game (\d+): <@(\d+)> plays ❌ X, <@(\d+)> plays ⭕ O")

X_WINS = (0, 3, 1, 4, 2)
O_WINS = (0, 4, 1, 2, 8, 6)
DRAW = (0, 4, 8, 2, 6, 3, 5, 7, 1)


@dataclass
class ArenaGame:
    """A pairing of a round: its message, its thread, its board and its players' user ids."""

    starter: Message
    thread: Channel
    board: Message
    x: int
    o: int


def board_in(emu: DiscordEmulator, thread: Channel) -> Message | None:
    boards = [message for message in emu.messages(thread) if len(message.rows) >= 3]
    return boards[0] if boards else None


def round_messages(emu: DiscordEmulator, channel: Channel, heading: str) -> list[Message]:
    """The channel's messages of the round whose message has ``heading`` ("Round 1 of 3").

    Its own message first, then every pairing's message after it (the latest such round's)."""
    messages = emu.messages(channel)
    starts = [i for i, m in enumerate(messages) if heading in m.text and "Game" in m.text]
    if not starts:
        return []
    start = starts[-1]
    return [messages[start]] + [m for m in messages[start + 1 :] if PAIRING.fullmatch(m.text.strip())]


async def round_games(
    emu: DiscordEmulator, channel: Channel, heading: str, games: int, guard: float = SETUP_GUARD
) -> list[ArenaGame]:
    """The games of the round headed ``heading`` once all are set up: posted, threaded, joined and
    on a board."""

    def ready() -> list[ArenaGame] | None:
        found = []
        for message in round_messages(emu, channel, heading)[1:]:
            match = PAIRING.fullmatch(message.text.strip())
            if match is None or message.thread is None:
                continue
            board = board_in(emu, message.thread)
            if board is None:
                return None
            found.append(ArenaGame(message, message.thread, board, int(match[2]), int(match[3])))
        return found if len(found) == games else None

    return await emu.wait_for(ready, guard, f"{heading}: {games} games")


def name_of(table: Table, user_id: int) -> str:
    return next(name for name, member in table.members.items() if member.id == user_id)


async def play(table: Table, game: ArenaGame, moves: tuple[int, ...]) -> None:
    """Play ``moves`` (cells, X first) on the game's board by its players' clicks."""
    for ply, cell in enumerate(moves):
        player = game.x if ply % 2 == 0 else game.o
        await click_cell(table, game.board, cell, name_of(table, player))
