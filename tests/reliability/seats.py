"""Players at tables, as people use the bot: they look at the board message they have and click on it.

A :class:`Seat` is one channel with its players and the board message they see. It starts
games (against the bot, or a challenge that the other member accepts), clicks a free cell for
whoever is on turn, and copes with what the bot says, as a person would: a refusal of an
outdated board means the board was redrawn; when unsure, ``/ttt board`` shows the game again.
Every click is recorded with the interaction, so a test can later compare what each user was
answered with what the database holds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.exts.games.custom_ids import Action, parse_custom_id
from discord_emulator import DiscordEmulator, Interaction, Message
from tests.support.bot import ANSWER_TIMEOUT
from tests.support.store import read_store
from tests.support.tables import Table, board, cells, click_of, game_of, is_live_board

EDIT_ROUTE = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"


@dataclass
class Click:
    """One click on a cell: what the button asked for and the interaction that carried it."""

    user_id: int
    game_id: int
    ply: int
    cell: int
    it: Interaction

    def answered_move(self, emu: DiscordEmulator) -> bool:
        """The user saw the move played: the board updated in answer (type 7, or type 6 and an edit)."""
        callback = self.it.callback
        if callback is None:
            return False
        if callback.type == 7:
            return True
        return callback.type == 6 and any(
            call.params.get("webhook_token") == self.it.token and call.status == 200
            for call in emu.calls("PATCH", EDIT_ROUTE)
        )


def accept_button(message: Message) -> str | None:
    """The custom id of the enabled Accept button of a pending challenge on ``message``, if any."""
    for button in message.buttons:
        click = click_of(button)
        if not button.disabled and click is not None and click.action is Action.ACCEPT:
            return button.custom_id
    return None


@dataclass
class Seat:
    """A channel with a human (``vs`` None: against the bot) or two, and the board message they see."""

    table: Table
    database_url: str
    rng: random.Random
    size: int = 3
    vs: str | None = None
    board: Message | None = None
    boards: list[Message] = field(default_factory=list)
    clicks: list[Click] = field(default_factory=list)
    players: dict[int, tuple[int | None, int | None]] = field(default_factory=dict)

    @property
    def emu(self) -> DiscordEmulator:
        return self.table.emu

    @property
    def host(self) -> str:
        return "alice"

    def _show(self, message: Message) -> None:
        self.board = message
        if all(message is not seen for seen in self.boards):
            self.boards.append(message)

    async def start_command(self) -> Interaction:
        if self.vs is None:
            level = self.rng.choice(["easy", "medium", "perfect"] if self.size == 3 else ["perfect"])
            first = self.rng.choice(["me", "opponent"])
            return await self.table.slash(self.host, "ttt start", size=self.size, level=level, first=first)
        return await self.table.slash(self.host, "ttt start", opponent=self.table[self.vs], size=self.size)

    async def settle_start(self, it: Interaction) -> None:
        """Take the answer of ``/ttt start`` as the board; if refused (a game runs here), ask for it."""
        message = await it.wait_response(timeout=ANSWER_TIMEOUT)
        if message.ephemeral:
            await self.show_board()
        else:
            self._show(message)

    async def show_board(self) -> None:
        """``/ttt board``: the channel's game shown again, or no board when none runs."""
        message = await (await self.table.slash(self.host, "ttt board")).wait_response(timeout=ANSWER_TIMEOUT)
        if message.ephemeral:
            self.board = None
        else:
            self._show(message)

    async def mover(self, message: Message) -> tuple[str, str] | None:
        """Who is on turn on ``message`` as it shows now (member name) and the custom id to click, or None."""
        accept = accept_button(message) if self.vs is not None else None
        if self.vs is not None and accept is not None:
            return self.vs, accept
        free = [button for button in cells(message) if not button.disabled]
        if not free:
            return None
        game_id = game_of(message)
        assert game_id is not None
        if game_id not in self.players:
            stored = (await read_store(self.database_url)).games[game_id]
            self.players[game_id] = (stored.x_player_id, stored.o_player_id)
        shown = board(message)
        x, o = self.players[game_id]
        on_turn = x if shown.count("X") == shown.count("O") else o
        for name, member in self.table.members.items():
            if member.id == on_turn:
                return name, self.rng.choice(free).custom_id or ""
        return None  # the bot is on turn on this board: its reply is still to come

    async def click(self) -> tuple[Interaction, int] | None:
        """Click for whoever is on turn on the board as shown; None when nobody human is to move."""
        assert self.board is not None
        found = await self.mover(self.board)
        if found is None:
            return None
        name, custom_id = found
        version = self.board.version
        it = await self.table.click(self.board, custom_id, name)
        asked = parse_custom_id(custom_id)
        if asked is not None and asked.action is Action.CELL:
            assert asked.ply is not None and asked.cell is not None
            self.clicks.append(Click(self.table[name].id, asked.game_id, asked.ply, asked.cell, it))
        return it, version

    async def settle_click(self, it: Interaction, version: int) -> None:
        """Wait for the answer to a click; after a refusal, take the redrawn board or ask for it."""
        assert self.board is not None
        callback = await it.wait_callback(timeout=ANSWER_TIMEOUT)
        if callback.type in (6, 7):
            await it.wait_for(
                lambda it: it.followups or (it.original is not None and it.original.version > version),
                ANSWER_TIMEOUT,
            )
            if not it.followups:
                return
            text = it.followups[0].text
        else:
            text = (await it.wait_response(timeout=ANSWER_TIMEOUT)).text
        if "up to date" in text:
            await self.emu.wait_for_edit(self.board, since=version, timeout=ANSWER_TIMEOUT)
        else:
            await self.show_board()

    async def step(self) -> None:
        """One action with its answer: a new game when there is none, else a click by whoever is on turn."""
        if self.board is None or not is_live_board(self.board):
            await self.settle_start(await self.start_command())
            return
        clicked = await self.click()
        if clicked is None:  # the bot's reply is due on this board: it must come by itself
            await self.emu.wait_for_edit(self.board, timeout=ANSWER_TIMEOUT)
            return
        await self.settle_click(*clicked)
