"""Players at tables: a fresh guild per test, the commands and clicks they send, and the board as its
buttons show it. Buttons are read with the bot's own custom-id parser
(:func:`bot.exts.games.custom_ids.parse_custom_id`), so the tests agree with the bot on what a button is.
"""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass, field
from typing import Any

from bot.exts.games.custom_ids import Action, Click, parse_custom_id
from discord_emulator import Button, Channel, DiscordEmulator, Guild, Interaction, Member, Message, Perm
from discord_emulator.models import action_rows
from tests.support.bot import ANSWER_TIMEOUT

# discord.py's button styles
PRIMARY, SECONDARY, SUCCESS, DANGER = 1, 2, 3, 4
DEFERRED_UPDATE = 6
STALE_REFRESH = "brought the board up to date"
"""The refusal of a click on an outdated board, after which the bot redraws the clicked board."""

LIVE_ACTIONS = (Action.CELL, Action.ACCEPT)
"""Buttons that, enabled, mean a board is still in play: a cell to take or a challenge to accept."""

_names = itertools.count(1)


@dataclass
class Table:
    """A fresh guild with a channel and members, for one test: no other test's games get in the way."""

    emu: DiscordEmulator
    guild: Guild
    channel: Channel
    members: dict[str, Member] = field(default_factory=dict)

    @classmethod
    def create(cls, emu: DiscordEmulator, *names: str, moderators: tuple[str, ...] = ()) -> Table:
        number = next(_names)
        guild = emu.create_guild(f"Server {number}", channels=(f"games-{number}",))
        table = cls(emu, guild, emu.channel(guild, f"games-{number}"))
        mods = emu.create_role(guild, "Mods", permissions=Perm.MANAGE_MESSAGES) if moderators else None
        for name in (*names, *moderators):
            roles = [mods] if mods is not None and name in moderators else []
            table.members[name] = emu.create_member(guild, f"{name}{number}", roles=roles)
        return table

    def __getitem__(self, name: str) -> Member:
        return self.members[name]

    def new_channel(self, name: str) -> Channel:
        return self.emu.create_channel(self.guild, name)

    async def slash(
        self, who: str | Member, command: str, /, *, where: Channel | None = None, **options: Any
    ) -> Interaction:
        member = self.members[who] if isinstance(who, str) else who
        return await self.emu.slash(where or self.channel, member, command, **options)

    async def click(
        self,
        message: Message,
        custom_id: str,
        user: str | Member,
        *,
        version: int | None = None,
        force: bool = False,
    ) -> Interaction:
        """``user`` clicks a button; ``version`` clicks the message as an earlier edit showed it."""
        member = self.members[user] if isinstance(user, str) else user
        return await self.emu.click(message, custom_id, member, version=version, force=force)


async def answer(it: Interaction) -> Message:
    """The message the user sees in answer to ``it`` (new, deferred then filled in, or the edited board)."""
    return await it.wait_response(timeout=ANSWER_TIMEOUT)


async def private_answer(it: Interaction) -> str:
    """The text of an ephemeral answer; fails if the answer is public."""
    message = await answer(it)
    assert message.ephemeral, f"expected an ephemeral answer, got {message.text!r}"
    return message.text


def size_of(message: Message) -> int:
    return len(message.rows[0])


def cells(message: Message) -> list[Button]:
    """The cell buttons, in reading order: the first ``size`` action rows."""
    size = size_of(message)
    grid = [button for row in message.rows[:size] for button in row]
    assert len(grid) == size * size, f"expected a {size}x{size} grid, got {[len(r) for r in message.rows]}"
    return grid


EMOJI_MARKS = {"\N{CROSS MARK}": "X", "\N{HEAVY LARGE CIRCLE}": "O"}


def mark_shown(label: str | None, emoji: dict[str, Any] | None) -> str:
    """The mark a cell button shows: ``X`` or ``O`` as its label, the emoji ❌ or ⭕, or a custom
    emoji whose name ends in ``_x`` or ``_o`` (a theme's pieces); ``.`` for an empty cell."""
    if label in ("X", "O"):
        return label
    name = str((emoji or {}).get("name") or "")
    if name in EMOJI_MARKS:
        return EMOJI_MARKS[name]
    if (emoji or {}).get("id") is not None and name[-2:].lower() in ("_x", "_o"):
        return name[-1].upper()
    return "."


def headline(message: Message) -> str:
    """What a game's message says first, under its heading: whose turn it is, or the result."""
    lines = message.display_text.splitlines()
    return lines[1] if len(lines) > 1 and lines[0].startswith("#") else (lines[0] if lines else "")


def pictures(message: Message) -> list[str]:
    """The URLs of the pictures a Components V2 message shows in its media galleries."""
    found: list[str] = []
    pending = list(message.components)
    while pending:
        item = pending.pop(0)
        pending[:0] = list(item.get("components") or [])
        if item.get("type") == 12:
            found += [str((picture.get("media") or {}).get("url")) for picture in item.get("items") or []]
    return found


def heading(message: Message) -> str:
    """The heading of a Components V2 message (its first line, without the ``###``)."""
    lines = message.display_text.splitlines()
    return lines[0].removeprefix("### ") if lines else ""


def board(message: Message) -> str:
    """The board as the buttons show it: X, O or . per cell."""
    return "".join(mark_shown(button.label, button.emoji) for button in cells(message))


def controls(message: Message) -> list[str]:
    size = size_of(message)
    return [button.label or "" for row in message.rows[size:] for button in row]


def free_cells(message: Message) -> list[int]:
    return [index for index, button in enumerate(cells(message)) if not button.disabled]


def click_of(button: Button) -> Click | None:
    """What the bot reads in ``button``'s custom id (None for a button of no game)."""
    return parse_custom_id(button.custom_id or "")


def game_of(message: Message) -> int | None:
    """The game whose buttons ``message`` carries, if any."""
    return next((click.game_id for button in message.buttons if (click := click_of(button))), None)


def is_live_board(message: Message) -> bool:
    """The message offers a move (an enabled cell) or a challenge to accept."""
    return any(
        not button.disabled and (click := click_of(button)) is not None and click.action in LIVE_ACTIONS
        for button in message.buttons
    )


async def click_cell(table: Table, message: Message, index: int, user: str | Member) -> Interaction:
    """Click cell ``index`` (0-based) and wait until the bot has answered the click."""
    it = await table.click(message, cells(message)[index].custom_id or "", user)
    await answer(it)
    return it


async def duel(table: Table, x: str, o: str, *, size: int = 3, channel: Any = None) -> Message:
    """``x`` challenges ``o`` (``x`` opens) in ``channel``; ``o`` accepts. Returns the board message."""
    where = channel or table.channel
    message = await answer(await table.slash(x, "ttt start", where=where, opponent=table[o], size=size))
    accept = message.button(label="Accept").custom_id or ""
    await answer(await table.click(message, accept, o))
    return message


HARD_5X5 = (
    "XXXO./...../...../....O/...O.",
    "O.OX./...../...../....X/O..X.",
    ".O.../O..../...../...../.OXXX",
    ".X..O/X..../...../...../.XO.O",
)
"""5x5 positions, X to move, where an analysis (a hint) with a 3 s budget searches for the whole
budget, taken in this order by each emulator (:func:`hard_position`): two unrelated ones, then their
images turned half a turn. Since the prover looks for pairings, few positions of 6 marks are that
hard, and only in this order: the first is not proven in 3 s with the tables cold, the second not
after the first (alone, with the tables cold, it is proven in about 2 s). Proven once, a position and
its images answer from the tables its process kept, so a bot process may use two, not more."""

_hard_used: weakref.WeakKeyDictionary[DiscordEmulator, int] = weakref.WeakKeyDictionary()
"""How many of :data:`HARD_5X5` each emulator has used."""


def _next_hard(emu: DiscordEmulator) -> str:
    used = _hard_used.get(emu, 0)
    _hard_used[emu] = used + 1
    return HARD_5X5[used % len(HARD_5X5)]


def moves_to(position: str) -> list[int]:
    """Cells that reach ``position`` (as many X as O, no line) when played in turn, X first."""
    cells = position.replace("/", "")
    xs = [index for index, mark in enumerate(cells) if mark == "X"]
    os = [index for index, mark in enumerate(cells) if mark == "O"]
    return [cell for pair in zip(xs, os, strict=True) for cell in pair]


async def hard_position(emu: DiscordEmulator, x: str = "hinter", o: str = "helper") -> tuple[Table, Message]:
    """A table where ``x`` and ``o`` reached ``emu``'s next :data:`HARD_5X5` (``x`` to move); its board."""
    table = Table.create(emu, x, o)
    message = await duel(table, x, o, size=5)
    for index, cell in enumerate(moves_to(_next_hard(emu))):
        await click_cell(table, message, cell, x if index % 2 == 0 else o)
    return table, message


async def busy_engine(emu: DiscordEmulator) -> Interaction:
    """Keep the engine busy: two members reach the hard 5x5 position and the one to move asks for a hint.

    The hint's analysis holds the engine's one worker for the whole time budget. Returns the hint
    once the bot has deferred it (its analysis has been running for a second), so a 5x5 reply of
    the bot asked for next waits for the rest of the budget: past the second after which a click
    is deferred when the budget is 3 s. The hint is answered privately once its search ends.
    """
    table, _ = await hard_position(emu)
    hint = await table.slash("hinter", "ttt hint")
    await hint.wait_callback(timeout=ANSWER_TIMEOUT)
    return hint


class Answers:
    """What the user who sent an interaction sees in answer, whichever way the bot answered.

    A click the bot acknowledged silently (callback 6) is answered either by a private
    follow-up (a refusal) or by an edit of the board through the click's own token (the
    move); other interactions' edits of the same board do not count.
    """

    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        self._scanned = 0
        self._edited_by: set[str] = set()

    def _scan(self) -> None:
        log = self.emu.rest_log
        for call in log[self._scanned :]:
            token = call.params.get("webhook_token")
            if call.method == "PATCH" and token is not None and call.ok:
                self._edited_by.add(token)
        self._scanned = len(log)

    def _seen(self, it: Interaction) -> tuple[bool, str] | None:
        callback = it.callback
        if callback is None:
            return None
        if callback.type == DEFERRED_UPDATE:
            if it.followups:
                return it.followups[0].ephemeral, it.followups[0].text
            self._scan()
            if it.token in self._edited_by and it.original is not None:
                return False, it.original.text
            return None
        message = it.original
        if message is not None and message.deleted:  # a public "thinking..." removed before a private answer
            return (it.followups[0].ephemeral, it.followups[0].text) if it.followups else None
        if message is None or message.loading:
            return None
        return message.ephemeral, message.text

    async def of(self, it: Interaction) -> tuple[bool, str]:
        """(ephemeral, text) of the answer to ``it``."""
        return await it.wait_for(self._seen, ANSWER_TIMEOUT)


def boards_in_history(message: Message) -> list[str]:
    """The board (X, O or . per cell) of every version of ``message`` that showed a grid, oldest first."""
    shown = []
    for version in message.history:
        rows = [
            [item for item in row.get("components", []) if item.get("type") == 2]
            for row in action_rows(version.components)
        ]
        size = len(rows[0]) if rows else 0
        if size < 3 or len(rows) < size or any(len(row) != size for row in rows[:size]):
            continue
        shown.append(
            "".join(mark_shown(item.get("label"), item.get("emoji")) for row in rows[:size] for item in row)
        )
    return shown
