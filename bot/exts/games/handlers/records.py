"""Looking back: ``/ttt leaderboard``, ``stats``, ``history``, ``review`` and ``replay``."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.bot import Interaction
from bot.exts.games.audience import personal
from bot.exts.games.handlers.base import TTT, GamesCogBase, handled
from bot.exts.games.looking_back import post_replay, show_history, show_review, show_stats
from bot.exts.games.messages import GameMessage, answer
from bot.exts.games.places import place_of
from bot.exts.games.render.common import card_of
from bot.exts.games.render.records import leaderboard_embed
from bot.exts.games.respond import within_deadline
from bot.exts.translator import contextual
from bot.i18n import N_

MAX_GAME_ID = 2**31 - 1
"""The largest game number an option accepts: the store numbers games with 32-bit integers."""

SCOPE_CHOICES = [
    app_commands.Choice(name=contextual("leaderboard scope", "this server"), value="server"),
    app_commands.Choice(name=contextual("leaderboard scope", "global"), value="global"),
]


class RecordCommands(GamesCogBase):
    """The commands that show ratings, records and finished games."""

    # /ttt leaderboard, stats

    @TTT.command(name="leaderboard", description=N_("Show the best rated players, here or everywhere."))
    @app_commands.describe(scope=N_("This server's ratings or the global ones. Default: this server."))
    @app_commands.choices(scope=SCOPE_CHOICES)
    @handled
    async def leaderboard(self, interaction: Interaction, scope: str = "server") -> None:
        """``/ttt leaderboard``: the best rated players of this server or of everywhere."""
        place = place_of(interaction)
        guild_id = place.guild_id if scope == "server" else None
        board = await within_deadline(interaction, self.service.leaderboard(guild_id), thinking=True)
        texts = await self._public_texts(place, interaction)
        embed = leaderboard_embed(texts, board, server=guild_id is not None)
        await answer(interaction, GameMessage.of_card(card_of(embed)))

    @TTT.command(
        name="stats",
        description=N_("See a player's wins, losses, draws, streaks and rating (only you see it)."),
    )
    @app_commands.describe(user=N_("Whose stats to show. Default: you."))
    @handled
    async def stats(self, interaction: Interaction, user: discord.User | None = None) -> None:
        """``/ttt stats``: a player's record, rating and rating chart."""
        target = user or interaction.user
        await show_stats(self.service, interaction, personal(interaction), place_of(interaction), target.id)

    @TTT.command(name="history", description=N_("List a player's latest finished games (only you see it)."))
    @app_commands.describe(user=N_("Whose games to list. Default: you."))
    @handled
    async def history(self, interaction: Interaction, user: discord.User | None = None) -> None:
        """``/ttt history``: a player's latest finished games, privately."""
        target = user or interaction.user
        await show_history(self.service, interaction, personal(interaction), place_of(interaction), target.id)

    @TTT.command(
        name="review", description=N_("Get my verdict on every move of a finished game (only you see it).")
    )
    @app_commands.describe(game=N_("The game's number. Default: your latest finished game."))
    @handled
    async def review(
        self, interaction: Interaction, game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None
    ) -> None:
        """``/ttt review``: every move of a finished game judged by the engine."""
        await show_review(self.service, interaction, personal(interaction), place_of(interaction), game)

    @TTT.command(name="replay", description=N_("Show a finished game as an animated picture."))
    @app_commands.describe(game=N_("The game's number. Default: your latest finished game."))
    @handled
    async def replay(
        self, interaction: Interaction, game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None
    ) -> None:
        """``/ttt replay``: a finished game as an animated picture."""
        place = place_of(interaction)
        texts = await self._public_texts(place, interaction)
        await post_replay(self.service, interaction, texts, place, game)
