"""A real discord.py bot, defined here, played through the emulator end to end."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.emulator import DiscordEmulator, Guild, Member, Perm
from tests.emulator.fixtures import running

pytestmark = pytest.mark.e2e


class CellButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"cell:(?P<index>\d)"):
    """A persistent board cell: clicking marks it X and disables it, whatever the bot remembers."""

    def __init__(self, index: int, label: str = "\u200b", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"cell:{index}", disabled=disabled))
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
            embed=embed, view=board(), allowed_mentions=discord.AllowedMentions(users=[interaction.user])
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

    @app_commands.command(description="Can I moderate?")
    async def mod(self, interaction: discord.Interaction) -> None:
        allowed = interaction.permissions.manage_messages
        await interaction.response.send_message(f"manage_messages={allowed}", ephemeral=True)


class ThrowawayBot(commands.Bot):
    def __init__(self, sync_guild: Guild | None = None, **options: Any) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(), **options)
        self.sync_guild = sync_guild

    async def setup_hook(self) -> None:
        await self.add_cog(Games())
        self.add_dynamic_items(CellButton)
        self.add_view(PingView())
        guild = discord.Object(self.sync_guild.id) if self.sync_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before a re-IDENTIFY to respect Discord's limit; not needed locally."""


@pytest.fixture
def world(emulator: DiscordEmulator) -> tuple[Guild, Member, Member, Member]:
    guild = emulator.create_guild("Arena")
    mods = emulator.create_role(guild, "Mods", permissions=Perm.MANAGE_MESSAGES)
    alice = emulator.create_member(guild, "alice")
    bob = emulator.create_member(guild, "bob")
    carol = emulator.create_member(guild, "carol", roles=[mods])
    return guild, alice, bob, carol


async def test_connects_and_syncs_commands(
    discord_py_on_emulator: DiscordEmulator, world: tuple[Guild, Member, Member, Member]
) -> None:
    emu = discord_py_on_emulator
    guild = world[0]
    bot = ThrowawayBot(sync_guild=guild)
    async with running(bot, emu.token):
        session = await emu.wait_until_ready()
        commands_synced = await emu.wait_for_commands(guild)
        assert [c["name"] for c in commands_synced] == ["ttt"]
        subcommands = {option["name"]: option for option in commands_synced[0]["options"]}
        assert set(subcommands) == {"start", "move", "note", "mod"}
        assert [o["name"] for o in subcommands["start"]["options"]] == ["opponent", "size"]
        assert subcommands["move"]["options"][0]["autocomplete"] is True
        assert session.shard is None
        assert [d.t for d in emu.dispatches()][:2] == ["READY", "GUILD_CREATE"]
        await emu.wait_for(lambda: bot.get_guild(guild.id) is not None)
        assert bot.get_guild(guild.id).name == "Arena"  # type: ignore[union-attr]
