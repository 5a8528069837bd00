"""A server's rules for its games, as its managers set them: where, by whom, how long, how well.

A server that never chose anything has :data:`NO_RULES`: games anywhere, by anyone, with the
bot's own timeouts and the perfect level. The rules are checked by the service when a game or a
challenge is started and when a challenge is accepted; the timeouts set the deadlines of the
server's turns and challenges.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import ClassVar

from bot.db import Repository
from bot.engine import Level
from bot.i18n import by_code
from bot.services import refusals
from bot.services.results import Actor, Place

TURN_TIMEOUT_BOUNDS = (30, 86_400)
"""The least and most seconds a server may give a player for each move (30 s to 24 hours)."""
CHALLENGE_TIMEOUT_BOUNDS = (30, 86_400)
"""The least and most seconds a server may let a challenge wait for its answer (30 s to 24 hours)."""
BACK_TO_DEFAULT = 0
"""A timeout of 0 seconds puts the bot's own timeout back."""
MAX_CHANNELS = 25
"""How many channels a server may list for games."""
AUTO_LANGUAGE = "auto"
"""The language that follows the server's own locale."""
THEMES = ("classic", "contrast", "neon", "chalk", "candy")
"""The looks of a board's pieces a server (or, outside servers, a game's starter) may choose."""
DEFAULT_THEME = "classic"
"""The pieces of a server that chose none."""


@dataclass(frozen=True, slots=True)
class ServerRules:
    """What a server chose; None (or no channels) where it chose nothing."""

    language: str | None = None
    """The code of the language of public messages; None: the server's own locale."""
    channel_ids: tuple[int, ...] = ()
    """Where games may be started (a thread counts as its parent channel too); empty: everywhere."""
    role_id: int | None = None
    """The role a member needs to start or accept a game."""
    turn_timeout_seconds: int | None = None
    challenge_timeout_seconds: int | None = None
    default_level: Level | None = None
    theme: str | None = None
    """The look of its boards' pieces (one of :data:`THEMES`); None: :data:`DEFAULT_THEME`."""

    def check_may_play(self, place: Place, actor: Actor) -> None:
        """Refuse a start or an acceptance in a channel not listed, or by a member without the role."""
        allowed = self.channel_ids
        if allowed and place.channel_id not in allowed and place.parent_id not in allowed:
            raise refusals.ChannelNotForGames(allowed[0])
        roles = actor.role_ids
        if self.role_id is not None and roles is not None and self.role_id not in roles:
            raise refusals.RoleNeeded(self.role_id)


NO_RULES = ServerRules()


@dataclass(frozen=True, slots=True)
class SettingsView:
    """A server's settings as its managers see them: what each rule is now, defaults filled in."""

    language: str | None
    channel_ids: tuple[int, ...]
    role_id: int | None
    turn_timeout_seconds: int
    turn_timeout_is_default: bool
    challenge_timeout_seconds: int
    challenge_timeout_is_default: bool
    default_level: Level
    theme: str = DEFAULT_THEME

    DEFAULT_LEVEL: ClassVar[Level] = Level.PERFECT
    """The level of a game started without one where the server chose none."""


@dataclass(frozen=True, slots=True)
class SettingsChange:
    """What a manager asks to change; None leaves a setting as it is.

    ``language``: a language code, or :data:`AUTO_LANGUAGE`. ``channel``: added to the channels
    for games, or taken off when listed already. ``role``: required from now on; the role required
    already, or the server's everyone role (``everyone_role_id``), requires none again. A timeout
    of :data:`BACK_TO_DEFAULT` puts the bot's own back. ``default_level``: a :class:`Level` value.
    ``theme``: one of :data:`THEMES`.
    """

    language: str | None = None
    channel: int | None = None
    role: int | None = None
    everyone_role_id: int | None = None
    turn_timeout: int | None = None
    challenge_timeout: int | None = None
    default_level: str | None = None
    theme: str | None = None

    @property
    def is_empty(self) -> bool:
        """Whether nothing is asked to change."""
        return self == SettingsChange(everyone_role_id=self.everyone_role_id)


def _timeout(given: int | None, bounds: tuple[int, int], refusal: type[refusals.BadTimeout]) -> int | None:
    """The stored value of a timeout option: None to put the default back; out of bounds, refused."""
    if given is None or given == BACK_TO_DEFAULT:
        return None
    low, high = bounds
    if not low <= given <= high:
        raise refusal(given, low, high)
    return given


def _language(given: str) -> str | None:
    """The stored value of the language option: a language's code, or None to follow the server."""
    if given == AUTO_LANGUAGE:
        return None
    chosen = by_code(given)
    if chosen is None:
        raise refusals.BadOption("language")
    return chosen.code


def _channels(listed: tuple[int, ...], given: int) -> tuple[int, ...]:
    """The channels for games once ``given`` is added, or taken off when listed already."""
    if given in listed:
        return tuple(c for c in listed if c != given)
    if len(listed) >= MAX_CHANNELS:
        raise refusals.TooManyChannels(MAX_CHANNELS)
    return tuple(sorted((*listed, given)))


def _level(given: str) -> Level:
    try:
        return Level(given)
    except ValueError:
        raise refusals.BadOption("default_level") from None


def check_theme(given: str) -> str:
    """A theme's name, or a refusal of a name that is none (a forged client)."""
    if given not in THEMES:
        raise refusals.BadOption("theme")
    return given


def changed(rules: ServerRules, change: SettingsChange) -> ServerRules:
    """``rules`` with ``change`` applied; a value the bounds or choices refuse raises, before anything."""
    updated = rules
    if change.language is not None:
        updated = replace(updated, language=_language(change.language))
    if change.channel is not None:
        updated = replace(updated, channel_ids=_channels(rules.channel_ids, change.channel))
    if change.role is not None:
        clear = change.role in (rules.role_id, change.everyone_role_id)
        updated = replace(updated, role_id=None if clear else change.role)
    if change.turn_timeout is not None:
        seconds = _timeout(change.turn_timeout, TURN_TIMEOUT_BOUNDS, refusals.BadTurnTimeout)
        updated = replace(updated, turn_timeout_seconds=seconds)
    if change.challenge_timeout is not None:
        seconds = _timeout(change.challenge_timeout, CHALLENGE_TIMEOUT_BOUNDS, refusals.BadChallengeTimeout)
        updated = replace(updated, challenge_timeout_seconds=seconds)
    if change.default_level is not None:
        updated = replace(updated, default_level=_level(change.default_level))
    if change.theme is not None:
        theme = check_theme(change.theme)
        updated = replace(updated, theme=None if theme == DEFAULT_THEME else theme)
    return updated


async def read_rules(repo: Repository, guild_id: int) -> ServerRules:
    """The server's rules as stored."""
    stored = await repo.server_settings(guild_id)
    channels = tuple(await repo.server_channels(guild_id))
    if stored is None:
        return replace(NO_RULES, channel_ids=channels)
    level = stored.default_level
    return ServerRules(
        language=stored.language,
        channel_ids=channels,
        role_id=stored.role_id,
        turn_timeout_seconds=stored.turn_timeout_seconds,
        challenge_timeout_seconds=stored.challenge_timeout_seconds,
        default_level=None if level is None else Level(level),
        theme=stored.theme if stored.theme in THEMES else None,
    )


async def write_rules(
    repo: Repository, guild_id: int, old: ServerRules, new: ServerRules, now: datetime
) -> None:
    """Store what differs between ``old`` (as stored) and ``new``."""
    values: dict[str, object] = {}
    for name in ("language", "role_id", "turn_timeout_seconds", "challenge_timeout_seconds", "theme"):
        if getattr(new, name) != getattr(old, name):
            values[name] = getattr(new, name)
    if new.default_level != old.default_level:
        values["default_level"] = None if new.default_level is None else new.default_level.value
    if values:
        await repo.update_server_settings(guild_id, values, now)
    for channel in sorted(set(new.channel_ids) - set(old.channel_ids)):
        await repo.add_server_channel(guild_id, channel)
    for channel in sorted(set(old.channel_ids) - set(new.channel_ids)):
        await repo.remove_server_channel(guild_id, channel)
