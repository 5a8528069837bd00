"""The words of an arena's public messages: its lobby and standings card, a round's card, a pairing's
line and its thread's name."""

from __future__ import annotations

from fractions import Fraction

import discord

from bot.exts.games.render.common import Card, heading, nobody, timestamp
from bot.i18n import N_, Texts
from bot.services import ArenaStatus
from bot.services.arena_views import ArenaEntrantView, ArenaView, PairingView, RoundView, StandingView

THREAD_NAME_LIMIT = 100
"""Discord's limit on a thread's name."""
PODIUM = ("🥇", "🥈", "🥉")
MEDAL_COLOUR = discord.Colour.gold()

ARENA_HEADING = N_("🏆 Arena")
# Translators: what an arena plays, under its heading; {rounds} is how many rounds.
ARENA_FORMAT = N_("{size}x{size} boards · rounds: {rounds}")
# Translators: what an arena plays while the number of rounds is not fixed yet.
ARENA_FORMAT_OPEN = N_("{size}x{size} boards · rounds set at the start")
RATED = N_("rated")
UNRATED = N_("unrated")
# Translators: {when} is a Discord time ("in 5 minutes"), {opener} a mention of a member.
STARTS = N_("Starts {when}, or earlier when {opener} starts it. Join with the button or `/ttt arena join`.")
# Translators: a heading over the list of an arena's players; {count} is a number.
PLAYERS = N_("Players ({count})")
# Translators: in an arena's message, the round whose games are being played.
ROUND_OF = N_("Round {number} of {rounds}")
STANDINGS = N_("Standings")
FINAL_STANDINGS = N_("Final standings")
CANCELLED = N_("This arena was cancelled.")
TOO_FEW = N_("This arena was cancelled: fewer than 3 players came.")
# Translators: one line of an arena's standings. SB is Sonneborn-Berger, a tie-break.
STANDING_LINE = N_("{rank}. {name}: {points} points · Buchholz {buchholz} · SB {sb}")
# Translators: after a player's name in an arena's standings.
LEFT = N_("(left)")
# Translators: the alt text of an arena's cross table picture. Keep the signs + = - and X, O as they are.
CROSS_TABLE_ALT = N_(
    "The cross table: a row per player in the order of the standings, a column per round with the side "
    "played (X red, O blue), the opponent's row and the result (+ won, = drawn, - lost).",
)
# Translators: a game of an arena's round; {board} is its number, {x} and {o} are members.
PAIRING_LINE = N_("Game {board}: {x} plays ❌ X, {o} plays ⭕ O")
# Translators: the player of an arena's round who sits out with one point.
BYE_LINE = N_("{name} has the bye this round (1 point).")
# Translators: the name of the thread of an arena game (at most 100 characters in all).
THREAD_NAME = N_("Round {number}: {x} vs {o}")
JOIN = N_("Join")
LEAVE = N_("Leave")
START = N_("Start")


def points_text(points: Fraction) -> str:
    """Points as people write them: ``2``, ``1½``, ``½``, ``2¼``."""
    whole, part = divmod(points, 1)
    fractions = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}
    tail = fractions.get(Fraction(part), f"+{float(part):g}")
    return f"{int(whole)}{tail}" if whole or not tail else tail


def _name(entrant: ArenaEntrantView, texts: Texts) -> str:
    name = f"<@{entrant.user_id}>"
    return name if entrant.active else f"{name} {texts.gettext(LEFT)}"


def standing_line(texts: Texts, line: StandingView) -> str:
    """One line of the standings; the first three with their medals."""
    text = texts.gettext(
        STANDING_LINE,
        rank=line.rank,
        name=_name(line.player, texts),
        points=points_text(line.points),
        buchholz=points_text(line.buchholz),
        sb=points_text(line.sonneborn_berger),
    )
    return f"{PODIUM[line.rank - 1]} {text}" if line.rank <= len(PODIUM) else text


def _format_line(texts: Texts, arena: ArenaView) -> str:
    if arena.rounds is None or (arena.status is ArenaStatus.OPEN and arena.rounds_asked is None):
        what = texts.gettext(ARENA_FORMAT_OPEN, size=arena.size)
    else:
        what = texts.gettext(ARENA_FORMAT, size=arena.size, rounds=arena.rounds)
    return f"{what} · {texts.gettext(RATED if arena.rated else UNRATED)}"


def arena_card(texts: Texts, arena: ArenaView, *, too_few: bool = False) -> Card:
    """The arena's message: its lobby while open, then the round being played and the standings,
    at the end the final standings with the podium."""
    lines = [heading(texts.gettext(ARENA_HEADING)), _format_line(texts, arena)]
    colour = discord.Colour.blurple()
    if arena.status is ArenaStatus.OPEN:
        lines.append(texts.gettext(STARTS, when=timestamp(arena.starts_at), opener=f"<@{arena.opener_id}>"))
        lines.append(f"**{texts.gettext(PLAYERS, count=len(arena.players))}**")
        lines.append(", ".join(_name(player, texts) for player in arena.players))
    elif arena.status is ArenaStatus.CANCELLED:
        colour = discord.Colour.dark_grey()
        lines.append(texts.gettext(TOO_FEW if too_few else CANCELLED))
    if arena.status is not ArenaStatus.OPEN and arena.played:
        finished = arena.status is ArenaStatus.FINISHED
        if arena.status is ArenaStatus.RUNNING and arena.rounds is not None:
            lines.append(f"**{texts.gettext(ROUND_OF, number=arena.current_round, rounds=arena.rounds)}**")
        if finished:
            colour = MEDAL_COLOUR
        lines.append(f"**{texts.gettext(FINAL_STANDINGS if finished else STANDINGS)}**")
        lines.extend(standing_line(texts, line) for line in arena.standings)
    return Card(colour, "\n".join(lines), None, nobody())


def round_card(texts: Texts, arena: ArenaView, played: RoundView) -> Card:
    """A round's message in the arena's channel: its games and the bye."""
    rounds = arena.rounds or played.number
    lines = [
        heading(
            f"{texts.gettext(ARENA_HEADING)} · {texts.gettext(ROUND_OF, number=played.number, rounds=rounds)}"
        )
    ]
    lines.extend(pairing_line(texts, pairing) for pairing in played.pairings)
    if played.bye is not None:
        lines.append(texts.gettext(BYE_LINE, name=f"<@{played.bye.user_id}>"))
    return Card(discord.Colour.blurple(), "\n".join(lines), None, nobody())


def pairing_line(texts: Texts, pairing: PairingView) -> str:
    """A game of a round, its players mentioned (the message pings nobody)."""
    return texts.gettext(
        PAIRING_LINE, board=pairing.board + 1, x=f"<@{pairing.x.user_id}>", o=f"<@{pairing.o.user_id}>"
    )


def pairing_card(texts: Texts, pairing: PairingView) -> Card:
    """The message a pairing's thread starts from."""
    return Card(discord.Colour.blurple(), pairing_line(texts, pairing), None, nobody())


def thread_name(texts: Texts, pairing: PairingView) -> str:
    """The name of a pairing's thread: the round and the players' names (plain text, as Discord shows it)."""
    name = texts.gettext(THREAD_NAME, number=pairing.round_number, x=pairing.x.name, o=pairing.o.name)
    return name[:THREAD_NAME_LIMIT]
