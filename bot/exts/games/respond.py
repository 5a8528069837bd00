"""Answering interactions within Discord's deadlines, and the one place errors are shown to users.

Discord wants an answer to every interaction within 3 seconds, or the user sees "This
interaction failed". :func:`within_deadline` runs the work and, if it is not done
within :data:`FAST_REPLY_SECONDS`, acknowledges the interaction first (defers) so the
final answer can come later (an interaction token stays valid for 15 minutes). Work
done in time is answered in one request: a click's board edit is its response, a
command's message its reply. A defer costs a second request, and under load, when
many clicks wait for the commits that hold their moves, that second request is what
a busy bot can least afford; so a click is not acknowledged early just because the
bot is busy. A click's defer is silent (the button stops spinning, the board is edited
a moment later); a command's shows a public "thinking...".

:func:`tell` is the one way a private answer reaches the user: a card (:mod:`bot.notice`) whose
colour says whether it confirms, refuses or reports an outage. :func:`report` turns any exception
into one friendly sentence there: a
:class:`~bot.services.refusals.NotDone` shows its sentence; anything unexpected is logged with
its context and the user gets a short apology, never a traceback.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar, cast

import aiohttp
import discord
from discord import app_commands

from bot.bot import Interaction
from bot.exts.games.render import answers
from bot.exts.games.render.answers import APOLOGY
from bot.i18n import Texts, texts_for_locale
from bot.notice import Notice, notice_view
from bot.services import NotDone, refusals

log = logging.getLogger(__name__)
T = TypeVar("T")

FAST_REPLY_SECONDS = 1.0
"""How long an interaction waits for its result before deferring: well inside Discord's 3 s, with
room for a late timer on a busy event loop and for the way to Discord."""

_EPHEMERAL_DEFER = "ttt_ephemeral_defer"


async def within_deadline(
    interaction: Interaction,
    work: Awaitable[T],
    *,
    thinking: bool,
    ephemeral: bool = False,
) -> T:
    """Await ``work``; if it is slow, defer the interaction meanwhile.

    ``thinking`` defers with "Bot is thinking..." (a new message will answer);
    otherwise a component click is acknowledged silently and its message edited later.
    ``ephemeral`` makes a thinking defer (and so the answer) visible only to the user.
    """
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=FAST_REPLY_SECONDS)
    if not done and not interaction.response.is_done():
        try:
            await interaction.response.defer(thinking=thinking, ephemeral=ephemeral and thinking)
            interaction.extras[_EPHEMERAL_DEFER] = ephemeral and thinking
        except (discord.HTTPException, aiohttp.ClientError) as error:
            # The work goes on; its answer tries the interaction again, then the channel API.
            log.warning("Could not defer interaction %s: %r", interaction.id, error)
    return await task


def deferred_thinking(interaction: Interaction) -> bool:
    """Whether the interaction was answered with "thinking..." that still waits for its message."""
    return interaction.response.type is discord.InteractionResponseType.deferred_channel_message


async def tell(interaction: Interaction, text: str, kind: Notice = Notice.CONFIRMATION) -> None:
    """Send ``text`` to the user alone as a card of ``kind``, however far the interaction has been
    answered."""
    view = notice_view(text, kind)
    if not interaction.response.is_done():
        await interaction.response.send_message(view=view, ephemeral=True)
        return
    if deferred_thinking(interaction):
        if interaction.extras.get(_EPHEMERAL_DEFER, False):
            await interaction.edit_original_response(content=None, embed=None, view=view)
            return
        # A public "thinking..." must not turn into a public error: remove it, then answer privately.
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as error:
            log.debug("Could not remove the thinking message of %s: %s", interaction.id, error)
    await interaction.followup.send(view=view, ephemeral=True)


def custom_id_of(interaction: Interaction) -> str | None:
    """The custom id of the button or menu behind a component interaction."""
    data = cast("dict[str, Any]", interaction.data or {})
    custom_id = data.get("custom_id")
    return custom_id if isinstance(custom_id, str) else None


def describe(interaction: Interaction) -> str:
    """What the interaction was, for logs: the command or the button's custom id."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    custom_id = custom_id_of(interaction)
    if custom_id is not None:
        return f"button {custom_id!r}"
    return f"interaction type {interaction.type.name}"


def _user_message(error: Exception, texts: Texts) -> str | None:
    """The friendly sentence for an error a user can cause, or None when it is a bug or an outage."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original if isinstance(error.original, Exception) else error
    if isinstance(error, NotDone):
        return answers.refusal_text(texts, error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return texts.gettext(answers.SERVER_ONLY)
    if isinstance(error, app_commands.TransformerError):
        if error.type is discord.AppCommandOptionType.user:
            return texts.gettext(answers.UNKNOWN_MEMBER)
        return answers.not_understood_text(texts, error.value)
    if isinstance(error, app_commands.CommandOnCooldown):
        return answers.cooldown_text(texts, error.retry_after)
    if isinstance(error, app_commands.CheckFailure):
        return texts.gettext(answers.NOT_ALLOWED_HERE)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return texts.gettext(answers.COMMAND_CHANGED)
    return None


class Outcome(enum.StrEnum):
    """How an interaction ended, for the metrics."""

    ANSWERED = "answered"
    REFUSED = "refused"
    """The user was told why not (a rule, a bad option, a check)."""
    UNAVAILABLE = "unavailable"
    """The database could not be reached; the user was asked to try again."""
    FAILED = "failed"
    """Discord or the bot failed; the user got an apology."""


async def report(interaction: Interaction, error: Exception, *, game_id: int | None = None) -> Outcome:
    """Show ``error`` to the user as one friendly sentence (only to them, in their language).

    The unexpected ones are logged with their context. Returns what the error was.
    """
    texts = texts_for_locale(interaction.locale.value)
    message = _user_message(error, texts)
    outcome = Outcome.REFUSED
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, refusals.Unavailable):
        outcome = Outcome.UNAVAILABLE
    if message is None:
        outcome = Outcome.FAILED
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(original, discord.HTTPException | aiohttp.ClientError):
            # Discord (or the way to it) failed, not the bot: no traceback, the user gets the apology.
            log.warning(
                "Discord failed during %s (user %s, channel %s, game %s): %r",
                describe(interaction),
                interaction.user.id,
                interaction.channel_id,
                game_id,
                original,
            )
        else:
            log.error(
                "Unexpected error in %s (user %s, guild %s, channel %s, game %s)",
                describe(interaction),
                interaction.user.id,
                interaction.guild_id,
                interaction.channel_id,
                game_id,
                exc_info=original,
            )
        message = texts.gettext(APOLOGY)
    kind = Notice.REFUSAL if outcome is Outcome.REFUSED else Notice.OUTAGE
    try:
        await tell(interaction, message, kind)
    except (discord.HTTPException, aiohttp.ClientError) as failure:
        log.warning(
            "Could not tell user %s about an error in %s: %r",
            interaction.user.id,
            describe(interaction),
            failure,
        )
    return outcome
