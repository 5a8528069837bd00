"""The arenas line of ``/ttt stats``: how many a player finished, won and ended on the podium, their
best place and their latest."""

from __future__ import annotations

from bot.exts.games.render.common import timestamp
from bot.i18n import N_, Texts
from bot.services.results import ArenaRecord

# Translators: a heading of /ttt stats: the Swiss tournaments ("arenas") the player finished.
ARENAS_HEADING = N_("Arenas")
# Translators: in /ttt stats; {arenas} is "3 arenas", the others are numbers (places count from 1).
ARENAS_LINE = N_("{arenas}: {wins} won, {podiums} on the podium, best place {best}")
# Translators: in /ttt stats, the latest arena; {when} is a Discord time ("2 days ago"), may be empty.
LATEST_ARENA = N_("Latest: place {place} of {players}{when}")


def arenas_field(texts: Texts, record: ArenaRecord) -> tuple[str, str] | None:
    """The heading and text of the stats' arenas field; None for a player who finished none."""
    if record.played == 0 or record.best is None or record.latest is None:
        return None
    latest = record.latest
    when = f" {timestamp(latest.finished_at)}" if latest.finished_at is not None else ""
    lines = [
        texts.gettext(
            ARENAS_LINE,
            arenas=texts.ngettext("{count} arena", "{count} arenas", record.played),
            wins=texts.number(record.wins),
            podiums=texts.number(record.podiums),
            best=texts.number(record.best),
        ),
        texts.gettext(
            LATEST_ARENA,
            place=texts.number(latest.rank),
            players=texts.number(latest.players),
            when=when,
        ),
    ]
    return texts.gettext(ARENAS_HEADING), "\n".join(lines)
