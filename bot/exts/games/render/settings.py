"""``/ttt settings`` as a server's manager sees it: every setting, and what a change did."""

from __future__ import annotations

from bot.exts.games.render.answers import settings_text
from bot.exts.games.render.common import level_name
from bot.exts.games.render.pieces import theme_name
from bot.i18n import Texts
from bot.services import SettingsChange, SettingsView


def duration_text(texts: Texts, seconds: int) -> str:
    """A timeout in the largest whole unit: ``90 seconds``, ``10 minutes``, ``24 hours``."""
    if seconds % 3600 == 0:
        return texts.ngettext("{count} hour", "{count} hours", seconds // 3600)
    if seconds % 60 == 0:
        return texts.ngettext("{count} minute", "{count} minutes", seconds // 60)
    return texts.ngettext("{count} second", "{count} seconds", seconds)


def _timeout(texts: Texts, seconds: int, is_default: bool) -> str:
    shown = duration_text(texts, seconds)
    return texts.gettext("{duration} (the default)", duration=shown) if is_default else f"**{shown}**"


def _channels(view: SettingsView) -> str:
    return ", ".join(f"<#{channel}>" for channel in view.channel_ids)


def overview_text(texts: Texts, view: SettingsView, guild_locale: str | None) -> str:
    """Every setting of the server, one a line, starting with its language."""
    lines = [settings_text(texts, view.language, guild_locale, changed=False)]
    if view.channel_ids:
        lines.append(
            texts.gettext(
                "Channels where games can be started: {channels} (and their threads).",
                channels=_channels(view),
            )
        )
    else:
        lines.append(texts.gettext("Channels where games can be started: all of them."))
    if view.role_id is None:
        lines.append(texts.gettext("Role needed to start or accept a game: none."))
    else:
        lines.append(texts.gettext("Role needed to start or accept a game: <@&{role}>.", role=view.role_id))
    turn = _timeout(texts, view.turn_timeout_seconds, view.turn_timeout_is_default)
    lines.append(texts.gettext("Time for each move: {duration}.", duration=turn))
    challenge = _timeout(texts, view.challenge_timeout_seconds, view.challenge_timeout_is_default)
    lines.append(texts.gettext("Time to answer a challenge: {duration}.", duration=challenge))
    lines.append(
        texts.gettext(
            "Level of games against me started without one: **{level}**.",
            level=level_name(texts, view.default_level),
        )
    )
    lines.append(texts.gettext("Pieces on the boards: **{theme}**.", theme=theme_name(texts, view.theme)))
    lines.append(
        texts.gettext(
            "Change them with the options of `/ttt settings`: a channel or role given again is taken"
            " off, a time of 0 puts the default back."
        )
    )
    return "\n".join(lines)


def change_lines(texts: Texts, change: SettingsChange, view: SettingsView) -> list[str]:
    """One sentence for each setting ``change`` set, as ``view`` now shows it (the language excepted)."""
    lines = []
    if change.channel is not None:
        channel = change.channel
        if change.channel in view.channel_ids:
            lines.append(texts.gettext("Done: games can now be started in <#{channel}>.", channel=channel))
        elif view.channel_ids:
            lines.append(
                texts.gettext("Done: games can no longer be started in <#{channel}>.", channel=channel)
            )
        else:
            lines.append(
                texts.gettext(
                    "Done: <#{channel}> is off the list, which is now empty: games can be started in every"
                    " channel again.",
                    channel=channel,
                )
            )
    if change.role is not None:
        if view.role_id is None:
            lines.append(texts.gettext("Done: anyone can start or accept a game again."))
        else:
            lines.append(
                texts.gettext(
                    "Done: only members with <@&{role}> can now start or accept a game.", role=view.role_id
                )
            )
    if change.turn_timeout is not None:
        turn = _timeout(texts, view.turn_timeout_seconds, view.turn_timeout_is_default)
        lines.append(texts.gettext("Done: each move now has {duration}.", duration=turn))
    if change.challenge_timeout is not None:
        challenge = _timeout(texts, view.challenge_timeout_seconds, view.challenge_timeout_is_default)
        lines.append(
            texts.gettext("Done: a challenge now waits {duration} for its answer.", duration=challenge)
        )
    if change.default_level is not None:
        lines.append(
            texts.gettext(
                "Done: games against me started without a level are now played at **{level}**.",
                level=level_name(texts, view.default_level),
            )
        )
    if change.theme is not None:
        shown = theme_name(texts, view.theme)
        lines.append(texts.gettext("Done: the boards now show the **{theme}** pieces.", theme=shown))
    return lines


def changed_text(texts: Texts, change: SettingsChange, view: SettingsView, guild_locale: str | None) -> str:
    """The answer to a change: a sentence for each setting changed."""
    lines = []
    if change.language is not None:
        lines.append(settings_text(texts, view.language, guild_locale, changed=True))
    lines.extend(change_lines(texts, change, view))
    return "\n".join(lines)
