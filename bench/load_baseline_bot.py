"""The load benchmark's baseline: the least a discord.py tic-tac-toe bot can do, kept in memory.

    python -m bench.load_baseline_bot   # DISCORD_TOKEN and DISCORD_API_BASE from the environment

No database, no engine, no rules beyond whose turn it is: ``/ttt start`` posts a board
(against the bot) or a challenge with Accept and Decline (against a member); a click on a
cell marks it and edits the board as the answer to the click, and against the bot the
bot's reply (the first empty cell) is in the same edit. It uses the same discord.py
machinery as the real bot (an app command group, persistent ``DynamicItem`` buttons, the
board edited by the interaction response) and shows boards the way the real bot's board
message does (buttons as cells, X and O as labels), so :mod:`bench.load` drives both bots with the same code.
"""

from __future__ import annotations

import itertools
import logging
import os
import re
from dataclasses import dataclass, field
from typing import Any, Self

import discord
import yarl
from discord import app_commands
from discord.ext import commands

WIN_LENGTH = {3: 3, 4: 4, 5: 4}


@dataclass
class Game:
    """One game in memory; ``o_player`` None means the bot plays O."""

    id: int
    size: int
    x_player: int
    o_player: int | None
    cells: list[str] = field(default_factory=list)
    pending: bool = False
    result: str | None = None

    def __post_init__(self) -> None:
        self.cells = ["."] * (self.size * self.size)

    @property
    def to_move(self) -> str:
        return "X" if self.cells.count("X") == self.cells.count("O") else "O"

    def player_of(self, mark: str) -> int | None:
        return self.x_player if mark == "X" else self.o_player

    def play(self, cell: int) -> None:
        mark = self.to_move
        self.cells[cell] = mark
        if self._wins(cell, mark):
            self.result = f"{mark} wins"
        elif "." not in self.cells:
            self.result = "draw"

    def _wins(self, cell: int, mark: str) -> bool:
        n, k = self.size, WIN_LENGTH[self.size]
        row, col = divmod(cell, n)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < n and 0 <= c < n and self.cells[r * n + c] == mark:
                    count += 1
                    r, c = r + sign * dr, c + sign * dc
            if count >= k:
                return True
        return False


GAMES: dict[int, Game] = {}
_ids = itertools.count(1)


class Cell(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"base:cell:(\d+):(\d+)"):
    def __init__(self, game_id: int, cell: int, label: str = "\u200b", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(label=label, custom_id=f"base:cell:{game_id}:{cell}", disabled=disabled)
        )
        self.game_id = game_id
        self.cell = cell

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match[1]), int(match[2]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        game = GAMES.get(self.game_id)
        if game is None or game.pending or game.result is not None or game.cells[self.cell] != ".":
            await interaction.response.send_message("That move is not possible.", ephemeral=True)
            return
        if game.player_of(game.to_move) != interaction.user.id:
            await interaction.response.send_message("It is not your turn.", ephemeral=True)
            return
        game.play(self.cell)
        if game.result is None and game.o_player is None:
            game.play(game.cells.index("."))
        await interaction.response.edit_message(content=describe(game), view=board(game))


class Answer(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"base:(accept|decline):(\d+)"
):
    def __init__(self, action: str, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=action.title(), custom_id=f"base:{action}:{game_id}"))
        self.action = action
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match[1], int(match[2]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        game = GAMES.get(self.game_id)
        if game is None or not game.pending or interaction.user.id != game.o_player:
            await interaction.response.send_message("That challenge is not yours.", ephemeral=True)
            return
        if self.action == "decline":
            del GAMES[game.id]
            await interaction.response.edit_message(content="Challenge declined.", view=None)
            return
        game.pending = False
        await interaction.response.edit_message(content=describe(game), view=board(game))


def describe(game: Game) -> str:
    if game.result is not None:
        return f"Game over: {game.result}."
    player = game.player_of(game.to_move)
    return f"<@{player}> to move ({game.to_move})." if player else "My move."


def board(game: Game) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for cell, mark in enumerate(game.cells):
        item = Cell(game.id, cell, "\u200b" if mark == "." else mark, mark != "." or game.result is not None)
        item.item.row = cell // game.size
        view.add_item(item)
    return view


def challenge(game: Game) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Answer("accept", game.id))
    view.add_item(Answer("decline", game.id))
    return view


class Games(commands.GroupCog, group_name="ttt", group_description="Tic-tac-toe (baseline)"):
    @app_commands.command(description="Start a game against me or challenge a member")
    @app_commands.describe(opponent="Who to challenge", size="Board size")
    @app_commands.choices(size=[app_commands.Choice(name=str(n), value=n) for n in (3, 4, 5)])
    async def start(
        self, interaction: discord.Interaction[Any], opponent: discord.Member | None = None, size: int = 3
    ) -> None:
        me = interaction.client.user
        versus_bot = opponent is None or (me is not None and opponent.id == me.id)
        game = Game(
            next(_ids), size, interaction.user.id, None if versus_bot or opponent is None else opponent.id
        )
        game.pending = not versus_bot
        GAMES[game.id] = game
        none = discord.AllowedMentions.none()
        if game.pending:
            text = f"<@{game.o_player}>, <@{game.x_player}> challenges you."
            await interaction.response.send_message(text, view=challenge(game), allowed_mentions=none)
        else:
            await interaction.response.send_message(describe(game), view=board(game), allowed_mentions=none)


class BaselineBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True))

    async def setup_hook(self) -> None:
        if os.environ.get("DISCORD_API_BASE"):
            _shards, url, _limits = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await self.add_cog(Games())
        self.add_dynamic_items(Cell, Answer)
        await self.tree.sync()


def main() -> None:
    api_base = os.environ.get("DISCORD_API_BASE")
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    discord.utils.setup_logging(level=logging.INFO)
    BaselineBot().run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
