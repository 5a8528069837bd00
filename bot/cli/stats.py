"""``python -m bot stats [--user NAME]``: a terminal player's record, as the service keeps it."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import TextIO

from bot.cli.local_ids import local_player_id, os_user_name
from bot.cli.render import LEVEL_NAMES, refusal_text
from bot.cli.service_session import terminal_service
from bot.cli.session import SessionUnavailableError
from bot.config import Settings
from bot.i18n import N_, Texts, terminal_texts
from bot.services import EndReason, PlayerOutcome, PlayerStats, RecentGame, Record, Refusal

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
    return texts.gettext(
        "{wins} won, {losses} lost, {draws} drawn",
        wins=texts.number(record.wins),
        losses=texts.number(record.losses),
        draws=texts.number(record.draws),
    )


def _recent(texts: Texts, game: RecentGame, now: datetime) -> str:
    level = f" ({texts.gettext(LEVEL_NAMES[game.level])})" if game.level is not None else ""
    how = game.end_reason if game.end_reason in (EndReason.RESIGN, EndReason.TIMEOUT) else None
    template = _OUTCOMES.get((game.outcome, how), _OUTCOMES[(game.outcome, None)])
    when = f", {texts.relative(game.finished_at - now)}" if game.finished_at is not None else ""
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
        return [texts.gettext("{name} has not played yet; play with `python -m bot play`.", name=name)]
    lines = [texts.gettext("{name} (player {id})", name=name, id=stats.user_id)]
    lines.append(texts.gettext("Against the bot: {record}", record=_record(texts, stats.vs_bot_total)))
    lines += [
        f"  {texts.gettext(LEVEL_NAMES[entry.level]):<8} {_record(texts, entry.record)}"
        for entry in stats.vs_bot
        if entry.record.games
    ]
    lines.append(texts.gettext("Against people: {record}", record=_record(texts, stats.vs_humans)))
    lines.append(
        texts.gettext(
            "Winning streak: {current} now, {best} at best",
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
    except Refusal as error:
        stderr.write(refusal_text(terminal_texts(), error) + "\n")
        return 1
    stdout.write("\n".join(describe(name, stats)) + "\n")
    return 0
