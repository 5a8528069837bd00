"""``python -m bot stats [--user NAME]``: a terminal player's record, as the service keeps it."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import TextIO

from bot.cli.local_ids import local_player_id, os_user_name
from bot.cli.program import program_name
from bot.cli.render import LEVEL_NAMES, refusal_text
from bot.cli.service_session import terminal_service
from bot.cli.session import SessionUnavailableError
from bot.cli.text_width import display_width, pad_to
from bot.config import Settings
from bot.i18n import N_, Texts, terminal_texts
from bot.services import EndReason, NotDone, PlayerOutcome, PlayerStats, RecentGame, Record

_OUTCOMES = {
    (PlayerOutcome.WIN, None): N_("#{game} {size}x{size} against {opponent}{level}: win{when}"),
    (PlayerOutcome.LOSS, None): N_("#{game} {size}x{size} against {opponent}{level}: loss{when}"),
    (PlayerOutcome.DRAW, None): N_("#{game} {size}x{size} against {opponent}{level}: draw{when}"),
    (PlayerOutcome.WIN, EndReason.RESIGN): N_(
        "#{game} {size}x{size} against {opponent}{level}: win by resignation{when}"
    ),
    (PlayerOutcome.LOSS, EndReason.RESIGN): N_(
        "#{game} {size}x{size} against {opponent}{level}: loss by resignation{when}"
    ),
    (PlayerOutcome.WIN, EndReason.TIMEOUT): N_(
        "#{game} {size}x{size} against {opponent}{level}: win on time{when}"
    ),
    (PlayerOutcome.LOSS, EndReason.TIMEOUT): N_(
        "#{game} {size}x{size} against {opponent}{level}: loss on time{when}"
    ),
}
"""A recent game's line, by its outcome for the player and how it ended (None: on the board)."""


def _record(texts: Texts, record: Record) -> str:
    # Translators: games won, as in "3 won, 1 lost, 2 drawn" (a player's record in the terminal).
    wins = texts.ngettext("{count} won", "{count} won", record.wins)
    # Translators: games lost, as in "3 won, 1 lost, 2 drawn".
    losses = texts.ngettext("{count} lost", "{count} lost", record.losses)
    # Translators: games drawn, as in "3 won, 1 lost, 2 drawn".
    draws = texts.ngettext("{count} drawn", "{count} drawn", record.draws)
    # Translators: a player's record from the three counts above: "3 won, 1 lost, 2 drawn".
    return texts.gettext("{wins}, {losses}, {draws}", wins=wins, losses=losses, draws=draws)


def _recent(texts: Texts, game: RecentGame, now: datetime) -> str:
    level = ""
    if game.level is not None:
        # Translators: after the bot's name in the terminal's recent games: its level, " (easy)".
        level = texts.gettext(" ({level})", level=texts.gettext(LEVEL_NAMES[game.level]))
    how = game.end_reason if game.end_reason in (EndReason.RESIGN, EndReason.TIMEOUT) else None
    template = _OUTCOMES.get((game.outcome, how), _OUTCOMES[(game.outcome, None)])
    when = ""
    if game.finished_at is not None:
        # Translators: after a recent game in the terminal: when it ended, ", 3 hours ago".
        when = texts.gettext(", {when}", when=texts.relative(game.finished_at - now))
    return texts.gettext(
        template, game=game.game_id, size=game.size, opponent=game.opponent_name, level=level, when=when
    )


def describe(
    name: str, stats: PlayerStats, texts: Texts | None = None, now: datetime | None = None
) -> list[str]:
    """The lines ``stats`` prints for the terminal player ``name``, in the terminal's language."""
    texts = texts or terminal_texts()
    now = now or datetime.now(UTC)
    if stats.display_name is None:
        play = f"{program_name()} play"
        return [texts.gettext("{name} has not played yet; play with `{command}`.", name=name, command=play)]
    lines = [texts.gettext("{name} (player {id})", name=name, id=stats.user_id)]
    lines.append(texts.gettext("Against the bot: {record}", record=_record(texts, stats.vs_bot_total)))
    level_width = max(display_width(texts.gettext(name)) for name in LEVEL_NAMES.values())
    lines += [
        f"  {pad_to(texts.gettext(LEVEL_NAMES[entry.level]), level_width)} {_record(texts, entry.record)}"
        for entry in stats.vs_bot
        if entry.record.games
    ]
    lines.append(texts.gettext("Against people: {record}", record=_record(texts, stats.vs_humans)))
    lines.append(
        texts.gettext(
            "Winning streak: {current} now, best {best}",
            current=texts.number(stats.current_streak),
            best=texts.number(stats.best_streak),
        )
    )
    if stats.recent:
        lines.append(texts.gettext("Recent games:"))
    lines += [f"  {_recent(texts, game, now)}" for game in stats.recent]
    return lines


async def _load(settings: Settings, user_id: int) -> PlayerStats:
    async with terminal_service(settings, budget_ms=settings.engine_budget_ms) as service:
        return await service.stats(user_id)


def run_stats(settings: Settings, user: str | None, stdout: TextIO, stderr: TextIO) -> int:
    """Print the record of ``user`` (default: the OS user); exit 1 with one line if the database fails."""
    name = user if user is not None else os_user_name()
    try:
        stats = asyncio.run(_load(settings, local_player_id(name)))
    except SessionUnavailableError as error:
        stderr.write(f"{error}\n")
        return 1
    except NotDone as error:
        stderr.write(refusal_text(terminal_texts(), error) + "\n")
        return 1
    stdout.write("\n".join(describe(name, stats)) + "\n")
    return 0
