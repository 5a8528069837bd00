"""Arenas: ``/ttt arena open|join|leave|start|cancel|standings`` and the lobby's buttons."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.bot import Interaction
from bot.exts.games.arena_buttons import ArenaAction
from bot.exts.games.audience import personal
from bot.exts.games.handlers.base import TTT, GamesCogBase, actor_of, handled
from bot.exts.games.handlers.games import SIZE_CHOICES
from bot.exts.games.places import place_of
from bot.exts.games.refusals import ThreadsNotAllowed
from bot.exts.games.render.arena import arena_card
from bot.exts.games.render.common import Card, nobody
from bot.exts.games.respond import tell, within_deadline
from bot.i18n import N_
from bot.services.arena_views import ArenaUpdate, ArenaView
from bot.services.arenas import DEFAULT_LOBBY_MINUTES

ARENA = app_commands.Group(
    name="arena", description=N_("Swiss tournaments: everyone plays every round, in threads."), parent=TTT
)

JOINED = N_("You joined the arena.")
LEFT_ARENA = N_("You left the arena.")
STARTED = N_("The arena has started; its first round is posted in this channel.")
CANCELLED_BY_YOU = N_("The arena is cancelled.")


def may_manage(interaction: Interaction) -> bool:
    """Whether the user may start or cancel any arena here (Manage Server)."""
    return interaction.permissions.manage_guild


def check_thread_permissions(interaction: Interaction) -> None:
    """Refuse an arena where the bot could not make its games' threads."""
    allowed = interaction.app_permissions
    if not (allowed.create_public_threads and allowed.send_messages_in_threads and allowed.send_messages):
        raise ThreadsNotAllowed()


class ArenaCommands(GamesCogBase):
    """The arena commands and the lobby's buttons."""

    @ARENA.command(
        name="open", description=N_("Open an arena in this channel: a Swiss tournament in threads.")
    )
    @app_commands.describe(
        rounds=N_("How many rounds (1-9). Default: enough to rank the players."),
        size=N_("The board of every game. Default: 3x3."),
        minutes=N_("How long to wait for players (1-60 minutes). Default: 5."),
        rated=N_("Whether the games count for ratings. Default: yes."),
    )
    @app_commands.choices(size=SIZE_CHOICES)
    @handled
    async def arena_open(
        self,
        interaction: Interaction,
        rounds: app_commands.Range[int, 1, 9] | None = None,
        size: int = 3,
        minutes: app_commands.Range[int, 1, 60] = DEFAULT_LOBBY_MINUTES,
        rated: bool = True,
    ) -> None:
        """``/ttt arena open``: post the lobby; its opener is its first player."""
        place = place_of(interaction)
        if place.guild_id is not None and place.parent_id is None:
            check_thread_permissions(interaction)
        work = self.service.open_arena(
            place, actor_of(interaction), rounds=rounds, size=size, minutes=minutes, rated=rated
        )
        arena = await within_deadline(interaction, work, thinking=True)
        layout = (await self.arenas.layout(arena)).view
        if interaction.response.is_done():
            message = await interaction.edit_original_response(view=layout, allowed_mentions=nobody())
            message_id = message.id
        else:
            callback = await interaction.response.send_message(view=layout, allowed_mentions=nobody())
            message_id = callback.message_id or (await interaction.original_response()).id
        await self.service.set_arena_message(arena.id, message_id)
        self.sweeper.poke(arena.starts_at)

    @ARENA.command(name="join", description=N_("Join this channel's open arena."))
    @handled
    async def arena_join(self, interaction: Interaction) -> None:
        """``/ttt arena join``."""
        work = self.service.join_arena(place_of(interaction), actor_of(interaction))
        arena = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        await self.arenas.show(ArenaUpdate(arena))
        await tell(interaction, personal(interaction).gettext(JOINED))

    @ARENA.command(
        name="leave", description=N_("Leave this channel's arena; you lose the game you are playing.")
    )
    @handled
    async def arena_leave(self, interaction: Interaction) -> None:
        """``/ttt arena leave``."""
        work = self.service.leave_arena(place_of(interaction), actor_of(interaction))
        update = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        await self.arenas.show(update)
        await tell(interaction, personal(interaction).gettext(LEFT_ARENA))

    @ARENA.command(
        name="start", description=N_("Start this channel's arena now (its opener, or Manage Server).")
    )
    @handled
    async def arena_start(self, interaction: Interaction) -> None:
        """``/ttt arena start``."""
        work = self.service.start_arena(
            place_of(interaction), actor_of(interaction), may_manage=may_manage(interaction)
        )
        update = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        await tell(interaction, personal(interaction).gettext(STARTED))
        await self.arenas.show(update)

    @ARENA.command(
        name="cancel", description=N_("Cancel this channel's arena (its opener, or Manage Server).")
    )
    @handled
    async def arena_cancel(self, interaction: Interaction) -> None:
        """``/ttt arena cancel``."""
        work = self.service.cancel_arena(
            place_of(interaction), actor_of(interaction), may_manage=may_manage(interaction)
        )
        update = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        await self.arenas.show(update)
        await tell(interaction, personal(interaction).gettext(CANCELLED_BY_YOU))

    @ARENA.command(
        name="standings",
        description=N_("The standings of this server's current or latest arena (only you see them)."),
    )
    @handled
    async def arena_standings(self, interaction: Interaction) -> None:
        """``/ttt arena standings``: ephemeral, in the user's language."""
        work = self.service.arena_standings(interaction.guild_id)
        arena = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        card = arena_card(personal(interaction), arena)
        await self._tell_card(interaction, card)

    async def _tell_card(self, interaction: Interaction, card: Card) -> None:
        view = discord.ui.LayoutView(timeout=None)
        container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
            accent_colour=card.colour
        )
        container.add_item(discord.ui.TextDisplay(card.top))
        view.add_item(container)
        if interaction.response.is_done():
            await interaction.edit_original_response(view=view, allowed_mentions=nobody())
        else:
            await interaction.response.send_message(view=view, ephemeral=True, allowed_mentions=nobody())

    async def on_arena_click(self, interaction: Interaction, action: ArenaAction, arena_id: int, /) -> None:
        """A click on a lobby's Join, Leave or Start: the lobby is edited as the click's answer."""
        async with self.answering(interaction, kind=f"button:arena-{action.value}"):
            place, user = place_of(interaction), actor_of(interaction)
            update: ArenaUpdate
            if action is ArenaAction.JOIN:
                arena: ArenaView = await within_deadline(
                    interaction, self.service.join_arena(place, user, arena_id), thinking=False
                )
                update = ArenaUpdate(arena)
            elif action is ArenaAction.LEAVE:
                update = await within_deadline(
                    interaction, self.service.leave_arena(place, user, arena_id), thinking=False
                )
            else:
                work = self.service.start_arena(
                    place, user, may_manage=may_manage(interaction), arena_id=arena_id
                )
                update = await within_deadline(interaction, work, thinking=False)
            shown = await self.arenas.layout(update.arena, too_few=update.too_few)
            if interaction.response.is_done():
                await interaction.edit_original_response(
                    view=shown.view, attachments=shown.files, allowed_mentions=nobody()
                )
            else:
                await interaction.response.edit_message(
                    view=shown.view, attachments=shown.files, allowed_mentions=nobody()
                )
            await self.arenas.show(update, shown=True)
