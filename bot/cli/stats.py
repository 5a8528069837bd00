"""``python -m bot stats [--user NAME]``: a terminal player's record, as the service keeps it."""

from __future__ import annotations

import asyncio
from typing import TextIO

from bot.cli.local_ids import local_player_id, os_user_name
from bot.cli.service_session import terminal_service
from bot.cli.session import SessionUnavailable
from bot.config import Settings
from bot.services import EndReason, PlayerStats, Record, Refusal

_ENDINGS = {EndReason.RESIGN: " by resignation", EndReason.TIMEOUT: " on time"}


def _record(record: Record) -> str:
    return f"{record.wins} won, {record.losses} lost, {record.draws} drawn"


def describe(name: str, stats: PlayerStats) -> list[str]:
    """The lines ``stats`` prints for the terminal player ``name``."""
    if stats.display_name is None:
        return [f"{name} has not played yet; play with `python -m bot play`."]
    lines = [f"{name} (player {stats.user_id})"]
    lines.append(f"Against the bot: {_record(stats.vs_bot_total)}")
    lines += [
        f"  {entry.level.value:<8} {_record(entry.record)}" for entry in stats.vs_bot if entry.record.games
    ]
    lines.append(f"Against people: {_record(stats.vs_humans)}")
    lines.append(f"Winning streak: {stats.current_streak} now, {stats.best_streak} at best")
    if stats.recent:
        lines.append("Recent games:")
    for game in stats.recent:
        level = f" ({game.level.value})" if game.level is not None else ""
        ending = _ENDINGS.get(game.end_reason, "") if game.end_reason is not None else ""
        when = f", {game.finished_at:%Y-%m-%d %H:%M} UTC" if game.finished_at is not None else ""
        lines.append(
            f"  #{game.game_id} {game.size}x{game.size} against {game.opponent_name}{level}: "
            f"{game.outcome.value}{ending}{when}"
        )
    return lines


async def _load(settings: Settings, user_id: int) -> PlayerStats:
    async with terminal_service(settings, budget_ms=settings.engine_budget_ms) as service:
        return await service.stats(user_id)


def run_stats(settings: Settings, user: str | None, stdout: TextIO, stderr: TextIO) -> int:
    """Print the record of ``user`` (default: the OS user); exit 1 with one line if the database fails."""
    name = user if user is not None else os_user_name()
    try:
        stats = asyncio.run(_load(settings, local_player_id(name)))
    except (SessionUnavailable, Refusal) as error:
        stderr.write(f"{error}\n")
        return 1
    stdout.write("\n".join(describe(name, stats)) + "\n")
    return 0
