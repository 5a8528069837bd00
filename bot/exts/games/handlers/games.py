"""Playing: ``/ttt start``, ``move`` (and its autocomplete), ``board``, ``resign``, ``cancel``, ``hint``."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

import discord
from discord import app_commands

from bot.bot import Interaction
from bot.engine import WIN_LENGTH, Level
from bot.exts.games.audience import personal
from bot.exts.games.handlers.base import TTT, GamesCogBase, actor_of, choice_of, handled
from bot.exts.games.places import place_of, require_public_answers
from bot.exts.games.refusals import LevelWithOpponent, ThemeInServer, UnknownMember
from bot.exts.games.render.answers import cancelled_text, cell_choice_name, move_summary, resigned_text
from bot.exts.games.render.common import jump_url
from bot.exts.games.render.pieces import THEME_NAMES
from bot.exts.games.respond import tell, within_deadline
from bot.i18n import N_
from bot.services import THEMES, Actor, First, NotDone, check_theme

log = logging.getLogger(__name__)

AUTOCOMPLETE_SECONDS = 2.0
"""Autocomplete must answer within 3 s too; after this, offer nothing rather than fail."""

# Translators: a choice of /ttt start's size: the board and how many marks in a row win.
SIZE_LABEL = N_("{size}x{size} ({k} in a row)")
SIZE_CHOICES = [
    app_commands.Choice(
        name=app_commands.locale_str(SIZE_LABEL.format(size=n, k=k), msgid=SIZE_LABEL, size=n, k=k), value=n
    )
    for n, k in WIN_LENGTH.items()
]
"""Every board size the engine plays, labelled with the line that wins on it."""
LEVEL_CHOICES = [
    # Translators: the bot's weakest level, a choice of /ttt start: what it does ("a threat": a line
    # of yours one mark short of complete). At most 100 characters.
    app_commands.Choice(name=N_("easy (wins when it can, often misses your threats)"), value="easy"),
    # Translators: a level of the bot, a choice of /ttt start ("a double threat": a move that makes
    # two threats at once, so only one can be blocked). At most 100 characters.
    app_commands.Choice(name=N_("medium (blocks most threats, misses double threats)"), value="medium"),
    # Translators: a level of the bot, a choice of /ttt start ("slower threats": plans that need two
    # or three moves before they threaten). At most 100 characters.
    app_commands.Choice(name=N_("hard (sees double threats, misses slower ones)"), value="hard"),
    # Translators: the bot's strongest level, as a choice of /ttt start.
    app_commands.Choice(name=N_("perfect (never loses)"), value="perfect"),
]
"""The levels, each named with what it does, so a player can pick one that fits."""
THEME_CHOICES = [app_commands.Choice(name=THEME_NAMES[theme], value=theme) for theme in THEMES]
"""Every theme of the pieces, by its name."""
FIRST_CHOICES = [
    # Translators: a choice of /ttt start's first; "me" is the player who runs the command.
    app_commands.Choice(name=N_("me (I play X and go first)"), value="me"),
    # Translators: a choice of /ttt start's first: the challenged member, or the bot.
    app_commands.Choice(name=N_("opponent (they play X and go first)"), value="opponent"),
    # Translators: a choice of /ttt start's first: who plays X is drawn at random.
    app_commands.Choice(name=N_("random"), value="random"),
]


class GameCommands(GamesCogBase):
    """The commands that start, play and end a game, and the hint."""

    # /ttt start

    @TTT.command(name="start", description=N_("Start a game against me, or challenge a member."))
    @app_commands.describe(
        opponent=N_("The member to challenge; leave empty (or pick me) to play against me."),
        size=N_("The board: 3x3 (three in a row), 4x4 or 5x5 (four in a row). Default: 3x3."),
        level=N_("How well I play, against me only. Default: perfect."),
        first=N_("Who plays X and moves first. Default: me."),
        theme=N_("The pieces' look, in DMs and group DMs (servers use their own)."),
    )
    @app_commands.choices(size=SIZE_CHOICES)
    @app_commands.choices(level=LEVEL_CHOICES, first=FIRST_CHOICES, theme=THEME_CHOICES)
    @handled
    async def start(
        self,
        interaction: Interaction,
        opponent: discord.User | None = None,
        size: int = 3,
        level: str | None = None,
        first: str = "me",
        theme: str | None = None,
    ) -> None:
        """``/ttt start``: a game against the bot, or a challenge to ``opponent``; outside servers, in
        the pieces of ``theme``."""
        place = place_of(interaction)
        require_public_answers(interaction)
        me = actor_of(interaction)
        if theme is not None:
            if place.guild_id is not None:
                raise ThemeInServer()
            me = replace(me, theme=check_theme(theme))
        order = choice_of(First, first, "first")
        own_id = self.bot.user.id if self.bot.user is not None else None
        if opponent is None or opponent.id == own_id:
            work = self.service.start_vs_bot(
                place,
                me,
                size=size,
                level=None if level is None else choice_of(Level, level, "level"),
                first=order,
            )
        else:
            if level is not None:
                raise LevelWithOpponent()
            if interaction.guild_id is not None and not isinstance(opponent, discord.Member):
                raise UnknownMember()
            work = self.service.challenge(
                place,
                me,
                Actor(opponent.id, opponent.display_name),
                opponent_is_bot=opponent.bot,
                size=size,
                first=order,
            )
        game = await within_deadline(interaction, work, thinking=True)
        await self._show_new_board(interaction, game)

    # /ttt move

    @TTT.command(name="move", description=N_("Play a cell in this channel's game."))
    @app_commands.describe(cell=N_("The cell: its number 1-9 (1 is top left) or a letter and row, like b2."))
    @handled
    async def move(self, interaction: Interaction, cell: app_commands.Range[str, 1, 10]) -> None:
        """``/ttt move``: play a cell named by number or by letter and row."""
        place = place_of(interaction)
        work = self.service.move(place, actor_of(interaction), cell)
        changed = await self._change_game(interaction, place, work)
        if changed is None:
            return
        game, url = changed.game, None
        if changed.message_id is not None and game.message_channel_id is not None:
            url = jump_url(game.guild_id, game.message_channel_id, changed.message_id)
        await tell(interaction, move_summary(personal(interaction), game, cell, url))

    @move.autocomplete("cell")
    async def move_cell_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The free cells of the game here, for ``/ttt move``'s autocomplete."""
        try:
            game = await asyncio.wait_for(self.service.board(place_of(interaction)), AUTOCOMPLETE_SECONDS)
        except NotDone:
            return []
        except Exception:
            log.warning(
                "Autocomplete of /ttt move failed in channel %s", interaction.channel_id, exc_info=True
            )
            return []
        if not game.is_active or game.player(interaction.user.id) is None:
            return []
        typed = current.strip().lower()
        texts = personal(interaction)
        choices = []
        for cell in game.legal_moves:
            name, number = game.cell_name(cell), str(cell + 1)
            if not typed or name.startswith(typed) or number.startswith(typed):
                choices.append(app_commands.Choice(name=cell_choice_name(texts, name, number), value=name))
        return choices[:25]

    # /ttt board, resign, cancel, hint

    @TTT.command(name="board", description=N_("Show this channel's current game again."))
    @handled
    async def board(self, interaction: Interaction) -> None:
        """``/ttt board``: show this channel's game again; its old board points to the new one."""
        place = place_of(interaction)
        require_public_answers(interaction)
        # Where boards change only on request, a game that ended on time shows how it ended here.
        work = self.service.latest(place) if place.interactions_only else self.service.board(place)
        game = await within_deadline(interaction, work, thinking=True)
        await self._show_new_board(interaction, game)

    @TTT.command(name="resign", description=N_("Give up your game in this channel."))
    @handled
    async def resign(self, interaction: Interaction) -> None:
        """``/ttt resign``: give up the game here."""
        place = place_of(interaction)
        work = self.service.resign(place, actor_of(interaction))
        changed = await self._change_game(interaction, place, work)
        if changed is not None:
            await tell(interaction, resigned_text(personal(interaction), changed.game))

    @TTT.command(
        name="cancel", description=N_("End this channel's game without a result (players or moderators).")
    )
    @handled
    async def cancel(self, interaction: Interaction) -> None:
        """``/ttt cancel``: end the game here without a result (its players or a moderator)."""
        moderator = interaction.permissions.manage_messages
        place = place_of(interaction)
        work = self.service.cancel(place, actor_of(interaction), is_moderator=moderator)
        changed = await self._change_game(interaction, place, work)
        if changed is not None:
            await tell(interaction, cancelled_text(personal(interaction), changed.game))

    @TTT.command(name="hint", description=N_("Ask me for the value of every free cell (only you see it)."))
    @handled
    async def hint(self, interaction: Interaction) -> None:
        """``/ttt hint``: the engine's verdict on every free cell, privately."""
        await self._show_hint(interaction, None)
