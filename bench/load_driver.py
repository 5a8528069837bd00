"""Playing games through the Discord emulator as members would, and timing every answer.

A *table* is a channel with two members. :func:`play_game` starts one game there with
``/ttt start`` (against the bot, or a challenge that the second member accepts), then
clicks free cells in turn until the board is finished, and returns every interaction it
sent. It reads only what a Discord client shows (the board message's buttons), so the
same code drives any bot whose board message shows the cells as buttons: the real bot and
the in-memory baseline.

Times come from the emulator's own records, not from when the driver noticed them: a
click's time is when the emulator created the interaction, its acknowledgement is when
the callback arrived, its board edit is when the edited message was stored.
"""

from __future__ import annotations

import asyncio
import enum
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from discord_emulator import Button, Channel, DiscordEmulator, Guild, Interaction, Member, Message

ANSWER_TIMEOUT = 30.0
"""Failure guard for one answer of the bot; far above anything a working bot needs."""

UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE = 7, 6
WIN_LENGTH = {3: 3, 4: 4, 5: 4}
MARKS = {"X": "X", "O": "O", "❌": "X", "⭕": "O"}


class Mode(enum.Enum):
    VS_BOT = "vs bot"
    VS_HUMAN = "vs human"


class GameFailedError(AssertionError):
    """The bot did not play a game through: a board that stops answering or answers wrongly."""


@dataclass(frozen=True)
class Table:
    channel: Channel
    x_player: Member
    o_player: Member


def set_tables(emu: DiscordEmulator, count: int, label: str) -> tuple[Guild, list[Table]]:
    """A new guild with ``count`` channels, each with its own two members."""
    names = [f"table-{i}" for i in range(count)]
    guild = emu.create_guild(label, channels=names)
    tables = [
        Table(
            emu.channel(guild, name),
            emu.create_member(guild, f"{label}-x{i}"),
            emu.create_member(guild, f"{label}-o{i}"),
        )
        for i, name in enumerate(names)
    ]
    return guild, tables


def cells_of(message: Message, size: int) -> list[Button] | None:
    """The cell buttons in reading order, or None when the message shows no board of ``size``."""
    rows = message.rows
    if len(rows) < size or any(len(rows[r]) != size for r in range(size)):
        return None
    return [button for row in rows[:size] for button in row]


def mark_of(button: Button) -> str:
    """The mark a cell shows (as the interface contract says): the emoji ❌ or ⭕, a theme's emoji
    named ``*_x`` or ``*_o``, or ``X`` or ``O`` as its label; ``.`` for an empty cell."""
    emoji = button.emoji or {}
    name = str(emoji.get("name") or "")
    if name in MARKS:
        return MARKS[name]
    if emoji.get("id") is not None and name[-2:].lower() in ("_x", "_o"):
        return name[-1].upper()
    return MARKS.get((button.label or "").strip(), ".")


def marks_of(cells: Sequence[Button]) -> str:
    return "".join(mark_of(button) for button in cells)


def winner(board: str, size: int) -> str | None:
    k = WIN_LENGTH[size]
    for cell, mark in enumerate(board):
        if mark == ".":
            continue
        row, col = divmod(cell, size)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            end_r, end_c = row + (k - 1) * dr, col + (k - 1) * dc
            inside = 0 <= end_r < size and 0 <= end_c < size
            if inside and all(board[(row + i * dr) * size + col + i * dc] == mark for i in range(k)):
                return mark
    return None


def ack_seconds(it: Interaction) -> float | None:
    """From the click to Discord receiving the interaction's callback."""
    return None if it.callback is None else it.callback.at - it.created_at


def edit_seconds(it: Interaction) -> float | None:
    """From the click to Discord storing the edited board (in the callback, or after a deferral)."""
    callback = it.callback
    if callback is None:
        return None
    if callback.type == UPDATE_MESSAGE:
        return callback.at - it.created_at
    if callback.type == DEFERRED_UPDATE_MESSAGE and it.original is not None:
        version = it.original_version_at_callback + 1
        if version < len(it.original.history):
            return it.original.history[version].at - it.created_at
    return None


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (the smallest value with at least ``p`` % of the values at or below it)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1))]


@dataclass
class GameRecord:
    """One game as the driver saw it: its interactions and how it ended."""

    mode: Mode
    size: int
    interactions: list[Interaction] = field(default_factory=list)
    clicks: list[Interaction] = field(default_factory=list)
    """Component interactions that should each edit the board (cells, Accept)."""
    final_board: str = ""
    result: str = ""
    refused: int = 0
    """Clicks the bot answered with something other than a board edit."""
    failure: str | None = None
    """Why the game was abandoned: an interaction got no answer (a user sees "This interaction failed")."""


class UnansweredError(Exception):
    """The bot did not answer an interaction in time (Discord refused its late callback, or nothing came)."""


def _settled(it: Interaction) -> str | None:
    """``answered`` once the user sees the answer (as ``Interaction.wait_response`` decides), ``refused``
    once Discord refused the bot's late callback, else None."""
    callback, message = it.callback, it.original
    if callback is None:
        return "refused" if it.refused_callbacks else None
    if message is None or message.loading:
        return None
    if callback.type == DEFERRED_UPDATE_MESSAGE and message.version <= it.original_version_at_callback:
        return None
    return "answered"


async def _answer(it: Interaction) -> Message:
    """The message the user sees in answer to ``it``; :class:`UnansweredError` if the bot missed it."""
    try:
        outcome = await it.wait_for(_settled, ANSWER_TIMEOUT)
    except TimeoutError:
        outcome = "nothing"
    if outcome != "answered" or it.original is None:
        kind = {2: "slash command", 3: "click"}.get(it.type, f"type {it.type}")
        raise UnansweredError(
            f"interaction {it.id}: {kind} {outcome}, callbacks refused {it.refused_callbacks}"
        )
    return it.original


async def _wait_board(emu: DiscordEmulator, channel: Channel, size: int) -> Message:
    """The channel's newest public message that shows a board of ``size``."""

    def board() -> Message | None:
        for message in reversed(emu.messages(channel)):
            if cells_of(message, size) is not None:
                return message
        return None

    return await emu.wait_for(board, ANSWER_TIMEOUT, f"a board in #{channel.name}")


async def _think(rng: random.Random, think: float) -> None:
    """A player's pause before acting: a random 0.5 to 1.5 times ``think`` seconds (none when 0)."""
    if think > 0:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))


async def _start(
    emu: DiscordEmulator, table: Table, record: GameRecord, rng: random.Random, think: float
) -> Message:
    mode, size = record.mode, record.size
    await _think(rng, think)
    if mode is Mode.VS_BOT:
        start = await emu.slash(table.channel, table.x_player, "ttt start", size=size)
        record.interactions.append(start)
        await _answer(start)
        return await _wait_board(emu, table.channel, size)
    start = await emu.slash(table.channel, table.x_player, "ttt start", opponent=table.o_player, size=size)
    record.interactions.append(start)
    invitation = await _answer(start)
    try:
        accept = invitation.button(label="Accept")
    except LookupError:
        raise GameFailedError(f"no Accept button on the challenge: {invitation.text!r}") from None
    await _think(rng, think)
    click = await emu.click(invitation, accept.custom_id or "", table.o_player)
    record.interactions.append(click)
    record.clicks.append(click)
    await _answer(click)
    return await _wait_board(emu, table.channel, size)


async def _wait_for_o_marks(emu: DiscordEmulator, board: Message, size: int, count: int) -> None:
    """Wait for the bot's reply that came after the answer to a click (through the channel API)."""
    await emu.wait_for(
        lambda: marks_of(cells_of(board, size) or []).count("O") == count, ANSWER_TIMEOUT, "the bot's reply"
    )


async def play_game(
    emu: DiscordEmulator, table: Table, mode: Mode, rng: random.Random, size: int = 3, think: float = 0.0
) -> GameRecord:
    """Start a game at ``table`` and click random free cells in turn until it ends; X is the starter.

    ``think`` > 0 makes each player pause a random 0.5 to 1.5 times that many seconds before
    every action, as people do: before starting a game (so tables arrive at different moments,
    not all in the same millisecond), before accepting a challenge and before each click, so the
    bot gets a steady load instead of one it cannot keep up with.
    """
    record = GameRecord(mode, size)
    try:
        await _play(emu, table, record, rng, think)
    except (UnansweredError, TimeoutError) as error:  # TimeoutError: a board or reply that never came
        record.failure = str(error)
    return record


async def _play(
    emu: DiscordEmulator, table: Table, record: GameRecord, rng: random.Random, think: float
) -> None:
    mode, size = record.mode, record.size
    board = await _start(emu, table, record, rng, think)
    players = {"X": table.x_player, "O": table.o_player}
    while True:
        cells = cells_of(board, size)
        if cells is None:
            raise GameFailedError(f"the board message lost its grid: {board.text!r}")
        marks = marks_of(cells)
        free = [i for i, button in enumerate(cells) if not button.disabled]
        if not free:
            break
        to_move = "X" if marks.count("X") == marks.count("O") else "O"
        if mode is Mode.VS_BOT and to_move == "O":
            await _wait_for_o_marks(emu, board, size, marks.count("X"))
            continue
        cell = rng.choice(free)
        await _think(rng, think)
        click = await emu.click(board, cells[cell].custom_id or "", players[to_move])
        record.interactions.append(click)
        record.clicks.append(click)
        await _answer(click)
        if click.original is not board:
            record.refused += 1
            if record.refused > 3:
                raise GameFailedError(f"the bot keeps refusing clicks in #{table.channel.name}")
    record.final_board = marks_of(cells_of(board, size) or [])
    record.result = check_finished(record.final_board, size)


def check_finished(board: str, size: int) -> str:
    """``X``, ``O`` or ``draw`` for a legal finished board; :class:`GameFailedError` for anything else."""
    x, o = board.count("X"), board.count("O")
    if x - o not in (0, 1):
        raise GameFailedError(f"impossible mark counts on {board}")
    mark = winner(board, size)
    if mark is None:
        if "." in board:
            raise GameFailedError(f"the game stopped unfinished at {board}")
        return "draw"
    if (mark == "X") != (x > o):
        raise GameFailedError(f"{mark} has a line but did not move last on {board}")
    return mark


async def play_until(
    emu: DiscordEmulator,
    table: Table,
    mode: Mode,
    done: Callable[[], bool],
    rng: random.Random,
    think: float = 0.0,
) -> list[GameRecord]:
    """Games one after another at ``table`` until ``done()``; at least one, and the last one is finished.

    A game abandoned because the bot did not answer ends the table's play (its channel still has that game).
    """
    games = [await play_game(emu, table, mode, rng, think=think)]
    while not done() and games[-1].failure is None:
        games.append(await play_game(emu, table, mode, rng, think=think))
    return games
