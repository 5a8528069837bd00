"""Requests the Discord adapter refuses itself, before asking the service (the service never raises these)."""

from __future__ import annotations

from bot.i18n import N_
from bot.services.refusals import Refusal


class NoChannel(Refusal):
    """Asked where Discord names no channel, so there is no conversation to hold a game in."""

    template = N_(
        "There is no channel here to play in; start the game in a server channel, a DM or a group DM."
    )


class UnknownMember(Refusal):
    """In a server, the chosen user is not (or no longer) one of its members."""

    template = N_("I can't find that member in this server; pick someone from the list.")


class PrivateAnswersOnly(Refusal):
    """Here the adapter can answer the user only privately, so a board would be seen by no one else."""

    template = N_(
        "Here I can only answer you privately (this server has not added me, and you may not use"
        " external apps or send messages in this channel), so nobody else would see the board."
        " Play in a DM or a group DM instead."
    )


class LevelWithOpponent(Refusal):
    """``/ttt start`` with both a member to challenge and a level, which is for games against the bot."""

    template = N_("The level is for games against me; leave it out when you challenge a member.")


class ThemeInServer(Refusal):
    """``/ttt start`` with a theme in a server, whose boards show the theme its admins chose."""

    template = N_(
        "In a server the boards show the pieces its admins chose (`/ttt settings theme`); leave the theme"
        " out here."
    )
