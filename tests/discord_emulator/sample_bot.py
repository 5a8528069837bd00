"""A throwaway discord.py bot for proving the emulator: an app command group with options and
autocomplete, persistent DynamicItem buttons and a persistent view, channel sends and edits."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from discord_emulator import Channel, DiscordEmulator, Guild, Member


class CellButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"cell:(?P<index>\d)"):
    """A persistent board cell: clicking marks it X and disables it, whatever the bot remembers."""

    def __init__(self, index: int, label: str = "\u200b", disabled: bool = False) -> None:
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label, custom_id=f"cell:{index}", disabled=disabled, row=index // 3
        )
        super().__init__(button)
        self.index = index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CellButton:
        return cls(int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        assert interaction.message is not None
        labels = {
            child.custom_id: child.label
            for row in interaction.message.components
            if isinstance(row, discord.ActionRow)
            for child in row.children
            if isinstance(child, discord.Button)
        }
        labels[f"cell:{self.index}"] = "X"
        await interaction.response.edit_message(
            content=f"{interaction.user.name} played {self.index}", view=board(labels)
        )


def board(labels: dict[str | None, str | None] | None = None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for index in range(9):
        label = (labels or {}).get(f"cell:{index}") or "\u200b"
        view.add_item(CellButton(index, label=label, disabled=label == "X"))
    return view


class PingView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Ping", custom_id="persistent:ping")
    async def ping(self, interaction: discord.Interaction, button: discord.ui.Button[PingView]) -> None:
        await interaction.response.send_message("pong", ephemeral=True)


class Games(commands.GroupCog, group_name="ttt", group_description="Tic-tac-toe"):
    @app_commands.command(description="Start a game")
    @app_commands.describe(opponent="Who to play", size="Board size")
    async def start(
        self, interaction: discord.Interaction, opponent: discord.Member | None = None, size: int = 3
    ) -> None:
        against = opponent.mention if opponent else "the bot"
        embed = discord.Embed(title="Tic-tac-toe", description=f"{interaction.user.mention} vs {against}")
        await interaction.response.send_message(
            embed=embed,
            view=board(),
            allowed_mentions=discord.AllowedMentions.none().merge(
                discord.AllowedMentions(users=[interaction.user])
            ),
        )
        await interaction.followup.send(f"size {size}", ephemeral=True)
        await interaction.edit_original_response(content="Your move")

    @app_commands.command(description="Play a cell")
    @app_commands.describe(cell="The cell, like b2")
    async def move(self, interaction: discord.Interaction, cell: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send(f"moved {cell}")

    @move.autocomplete("cell")
    async def move_cells(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        cells = [f"{col}{row}" for row in "123" for col in "abc"]
        return [
            app_commands.Choice(name=cell, value=cell) for cell in cells if cell.startswith(current.lower())
        ]

    @app_commands.command(description="Post a note through the channel API")
    async def note(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        assert isinstance(interaction.channel, discord.abc.Messageable)
        sent = await interaction.channel.send("first draft", view=PingView())
        await sent.edit(content="final text")

    @app_commands.command(description="Defer, wait for the test, then edit")
    async def slow(self, interaction: discord.Interaction[ThrowawayBot]) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.client.release.wait()
        try:
            await interaction.edit_original_response(content="late answer")
        except discord.NotFound as error:
            interaction.client.errors.append(error)
            await interaction.channel.send("the board moved on")  # type: ignore[union-attr]

    @app_commands.command(description="Can I moderate?")
    async def mod(self, interaction: discord.Interaction) -> None:
        allowed = interaction.permissions.manage_messages
        await interaction.response.send_message(f"manage_messages={allowed}", ephemeral=True)


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class Pocket(commands.GroupCog, group_name="pocket", group_description="Works anywhere"):
    """User-installable commands: usable in servers, DMs with the bot and private channels."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.errors: list[discord.HTTPException] = []
        self.seen: list[discord.Interaction] = []

    @app_commands.command(description="Say where this was used")
    async def where(self, interaction: discord.Interaction) -> None:
        self.seen.append(interaction)
        await interaction.response.send_message("here")

    @app_commands.command(description="A board answered through the interaction")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("board", view=board())

    @app_commands.command(description="Post through the channel API")
    async def note(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("trying", ephemeral=True)
        assert isinstance(interaction.channel, discord.abc.Messageable)
        try:
            await interaction.channel.send("note")
        except discord.HTTPException as error:
            self.errors.append(error)

    @app_commands.command(description="Six follow-ups")
    async def burst(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("burst")
        for index in range(6):
            try:
                await interaction.followup.send(f"follow-up {index}")
            except discord.HTTPException as error:
                self.errors.append(error)


class ThrowawayMixin:
    """What both bot flavours share; comes first in the bases so ``super()`` reaches discord.py."""

    pocket: Pocket

    def __init__(self, sync_guild: Guild | discord.Object | None = None, **options: Any) -> None:
        super().__init__(  # type: ignore[call-arg]
            command_prefix=commands.when_mentioned, intents=discord.Intents.default(), **options
        )
        self.sync_guild = sync_guild
        self.release = asyncio.Event()
        self.errors: list[discord.HTTPException] = []
        self.handled: list[int] = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.handled.append(interaction.id)

    async def setup_hook(self) -> None:
        bot: commands.Bot = self  # type: ignore[assignment]
        await bot.add_cog(Games())
        self.pocket = Pocket(bot)
        await bot.add_cog(self.pocket)
        bot.add_dynamic_items(CellButton)
        bot.add_view(PingView())
        guild = discord.Object(self.sync_guild.id) if self.sync_guild else None
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        await bot.tree.sync(guild=guild)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before a re-IDENTIFY to respect Discord's limit; not needed locally."""


class ThrowawayBot(ThrowawayMixin, commands.Bot):
    pass


class ShardedThrowawayBot(ThrowawayMixin, commands.AutoShardedBot):
    pass


@dataclass
class Arena:
    emu: DiscordEmulator
    bot: ThrowawayBot
    guild: Guild
    channel: Channel
    alice: Member
    bob: Member
    carol: Member
    """carol has a role with Manage Messages."""
