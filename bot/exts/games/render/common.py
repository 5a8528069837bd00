"""What every rendered message shares: the message parts, marks, colours, names, times and links.

People are named by mention (``<@id>``): mentions render as the member's current
name, cannot carry markdown or ``@everyone``, and only ping when the message's
allowed mentions say so (:func:`players_only`). Stored display names (the bot's own,
the leaderboard's) are escaped before use (:func:`clean`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import discord

from bot.engine import Level, Mark
from bot.i18n import N_, Texts
from bot.services.results import GameView, PlayerView

MARK_EMOJI = {Mark.X: "❌", Mark.O: "⭕"}
EMPTY_CELL = "·"

COLOUR_INFO = discord.Colour.blurple()
COLOUR_X_TO_MOVE = discord.Colour.blurple()
COLOUR_O_TO_MOVE = discord.Colour.orange()
COLOUR_PENDING = discord.Colour.gold()
COLOUR_WON = discord.Colour.green()
COLOUR_DRAWN = discord.Colour.light_grey()
COLOUR_ENDED = discord.Colour.dark_grey()


@dataclass(frozen=True, slots=True)
class MessageText:
    """The text parts of a message: its content, one embed and who may be pinged.

    None leaves a part out of a new message and removes it from an edited one.
    """

    content: str | None
    embed: discord.Embed | None
    allowed_mentions: discord.AllowedMentions


@dataclass(frozen=True, slots=True)
class Card:
    """The words of a Components V2 message: one container whose accent colour says what it is about.

    ``top`` opens the container (a heading, then what must be read first); ``bottom`` closes it,
    under the buttons (the last move and the clock, then a small-print line). Both are markdown.
    """

    colour: discord.Colour
    top: str
    bottom: str | None
    allowed_mentions: discord.AllowedMentions
    image: str | None = None
    """A picture shown in a media gallery between the two texts: its URL (``attachment://name``)."""
    image_description: str | None = None
    """The picture's alt text."""


def players_only(game: GameView) -> discord.AllowedMentions:
    """Allowed mentions for a game's messages: its human players, never @everyone, @here or a role."""
    users = [discord.Object(id=side.user_id) for side in game.players if side.user_id is not None]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def nobody() -> discord.AllowedMentions:
    """Allowed mentions for a message that pings no one."""
    return discord.AllowedMentions.none()


def clean(text: str) -> str:
    """A stored name made safe to show: no markdown, no working mentions."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def who(side: PlayerView) -> str:
    """A player as shown in text: a mention for a person, the bot's name in bold."""
    if side.user_id is None:
        return f"**{clean(side.display_name)}**"
    return f"<@{side.user_id}>"


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp each reader sees in their own language and time zone (``R``: "in 2 minutes")."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """The link that opens a message in Discord (``@me`` outside servers)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


LEVEL_NAMES = {
    # Translators: the bot's levels, a word after its name on boards, in stats and histories.
    Level.EASY: N_("easy"),
    Level.MEDIUM: N_("medium"),
    Level.HARD: N_("hard"),
    Level.PERFECT: N_("perfect"),
}


def level_name(texts: Texts, level: Level) -> str:
    """The bot's level in the reader's language."""
    return texts.gettext(LEVEL_NAMES[level])


def size_label(texts: Texts, game: GameView) -> str:
    """A board size with the line that wins on it (``3x3, 3 in a row``)."""
    return texts.gettext("{size}x{size}, {k} in a row", size=game.size, k=game.k)


def card_of(embed: discord.Embed, allowed_mentions: discord.AllowedMentions | None = None) -> Card:
    """An answer the renderers wrote as an embed, laid out as a card in the same colours.

    The title becomes the heading, the description and each field (its name in bold) the top text,
    the image a media gallery under it, and the footer the small print at the bottom.
    """
    top = [heading(embed.title)] if embed.title else []
    if embed.description:
        top.append(embed.description)
    for field in embed.fields:
        name = (field.name or "").strip("\u200b ")
        top.append(f"**{name}**\n{field.value}" if name else str(field.value))
    footer = embed.footer.text
    colour = embed.colour if isinstance(embed.colour, discord.Colour) else COLOUR_INFO
    return Card(
        colour,
        "\n".join(top),
        small_print(footer) if footer else None,
        allowed_mentions or nobody(),
        image=embed.image.url,
    )


def heading(text: str) -> str:
    """A container's heading line."""
    return f"### {text}"


def small_print(text: str) -> str:
    """Lines in Discord's small grey subtext."""
    return "\n".join(f"-# {line}" for line in text.splitlines())


def fit(text: str, limit: int = 1024) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (by default Discord's limit for a field)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
