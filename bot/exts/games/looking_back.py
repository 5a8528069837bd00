"""Looking back on Discord: ``/ttt review``, ``replay``, ``history`` and ``stats``, the Review button.

Each function answers one interaction with one service call; the words come from
:mod:`bot.exts.games.render.review` and :mod:`bot.exts.games.render.records`. Reviews, game
lists and stats are ephemeral; a replay is a public message whose GIF carries alt text. Every
answer is a card in the board's colours but the stats, an embed whose image is the rating chart.
"""

from __future__ import annotations

import io

import discord

from bot.bot import Interaction
from bot.exts.games.render.common import COLOUR_INFO, Card, card_of, nobody
from bot.exts.games.render.records import stats_embed
from bot.exts.games.render.review import (
    CHART_FILENAME,
    REPLAY_FILENAME,
    chart_caption,
    history_embed,
    replay_alt_text,
    replay_content,
    review_embed,
)
from bot.exts.games.respond import within_deadline
from bot.exts.games.views import card_view
from bot.i18n import Texts
from bot.services import GameService, Place, PlayerStats, RatingChart


async def send_card(
    interaction: Interaction, card: Card, *, file: discord.File | None = None, ephemeral: bool = False
) -> None:
    """Answer ``interaction`` (or fill in its deferred "thinking...") with ``card``, and the file its
    picture shows."""
    view = card_view(card)
    mentions = card.allowed_mentions
    files = [] if file is None else [file]
    if interaction.response.is_done():
        await interaction.edit_original_response(view=view, attachments=files, allowed_mentions=mentions)
        return
    await interaction.response.send_message(
        view=view, files=files, ephemeral=ephemeral, allowed_mentions=mentions
    )


async def show_review(
    service: GameService, interaction: Interaction, texts: Texts, place: Place, game_id: int | None
) -> None:
    """The engine's review of a game, to the asker alone."""
    work = service.review(game_id, place=place, user_id=interaction.user.id)
    review = await within_deadline(interaction, work, thinking=True, ephemeral=True)
    await send_card(interaction, card_of(review_embed(texts, review)), ephemeral=True)


async def post_replay(
    service: GameService, interaction: Interaction, texts: Texts, place: Place, game_id: int | None
) -> None:
    """A public message with the game's animated GIF, its alt text saying what happened."""
    work = service.replay(game_id, place=place, user_id=interaction.user.id)
    replay = await within_deadline(interaction, work, thinking=True)
    alt = replay_alt_text(texts, replay.history)
    picture = discord.File(io.BytesIO(replay.gif), filename=REPLAY_FILENAME, description=alt)
    card = Card(
        COLOUR_INFO,
        replay_content(texts, replay.history),
        None,
        nobody(),
        image=f"attachment://{REPLAY_FILENAME}",
        image_description=alt,
    )
    await send_card(interaction, card, file=picture)


async def show_history(
    service: GameService, interaction: Interaction, texts: Texts, place: Place, user_id: int
) -> None:
    """A player's latest finished games, to the asker alone."""
    work = service.finished_games(place, interaction.user.id, user_id)
    games = await within_deadline(interaction, work, thinking=True, ephemeral=True)
    await send_card(interaction, card_of(history_embed(texts, games)), ephemeral=True)


async def show_stats(
    service: GameService, interaction: Interaction, texts: Texts, place: Place, user_id: int
) -> None:
    """A player's stats and, once they have rated games, their rating chart, to the asker alone."""
    work = _stats_with_chart(service, place, user_id)
    stats, chart = await within_deadline(interaction, work, thinking=True, ephemeral=True)
    embed = stats_embed(texts, stats, user_id)
    picture = _show_chart(texts, embed, chart)
    await send_embed(interaction, embed, file=picture)


async def send_embed(interaction: Interaction, embed: discord.Embed, *, file: discord.File | None) -> None:
    """Answer ``interaction`` (or fill in its deferred "thinking...") with ``embed`` and its picture, to
    the asker alone.

    The stats stay an embed, not a card: the interface other tools rely on shows the rating chart as
    the embed's image.
    """
    files = [] if file is None else [file]
    if interaction.response.is_done():
        await interaction.edit_original_response(embed=embed, attachments=files)
        return
    await interaction.response.send_message(embed=embed, files=files, ephemeral=True)


async def _stats_with_chart(
    service: GameService, place: Place, user_id: int
) -> tuple[PlayerStats, RatingChart | None]:
    stats = await service.stats(user_id, place.guild_id)
    return stats, await service.rating_chart(user_id, place.guild_id)


def _show_chart(texts: Texts, embed: discord.Embed, chart: RatingChart | None) -> discord.File | None:
    """Show the chart as the embed's image, saying what its colours mean; the file to attach."""
    if chart is None:
        return None
    embed.set_image(url=f"attachment://{CHART_FILENAME}")
    embed.set_footer(text=chart_caption(texts, chart))
    return discord.File(io.BytesIO(chart.png), filename=CHART_FILENAME)
