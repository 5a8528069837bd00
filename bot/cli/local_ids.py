"""Who plays at this terminal, and in which "channel": the ids the service stores for terminal games.

The service knows players and channels by Discord-style integer ids. Terminal ids
come from a space Discord never uses: a Discord id is a snowflake, its time since
2015 shifted left by 22 bits, so every real user, guild or channel id is at least
``2**22``. Terminal ids lie in ``1 .. 2**22 - 1`` and cannot collide with them.

- The player id is derived from the OS user name (a hash, not Python's ``hash``,
  which changes between runs), so the same user gets the same id on every run and
  on every machine sharing the database, and their stats accumulate. Two different
  user names share an id with odds of about ``n**2 / 2**23`` for ``n`` users of one
  database (one in 80 000 for ten), in which case their records merge.
- The channel id is random for each process, so two terminals play at once without
  tripping the one-live-game-per-channel rule; the session draws again in the rare
  case the id it drew holds a live game (see :mod:`bot.cli.service_session`).
"""

from __future__ import annotations

import getpass
import hashlib
import secrets

DISCORD_MIN_ID = 1 << 22
"""The smallest id a Discord snowflake can have; terminal ids stay below it."""

FALLBACK_USER_NAME = "player"


def os_user_name() -> str:
    """The login name (``LOGNAME``, ``USER``, ... or the password database), or ``player``."""
    try:
        name = getpass.getuser().strip()
    except (OSError, KeyError, ImportError):
        return FALLBACK_USER_NAME
    return name or FALLBACK_USER_NAME


def local_player_id(user_name: str) -> int:
    """A stable id in ``1 .. 2**22 - 1`` for ``user_name`` (the same on every run and machine)."""
    digest = hashlib.blake2b(user_name.encode("utf-8"), digest_size=8, person=b"ttt-player").digest()
    return 1 + int.from_bytes(digest, "big") % (DISCORD_MIN_ID - 1)


def terminal_channel_id() -> int:
    """A fresh channel id in ``1 .. 2**22 - 1`` for one terminal game."""
    return 1 + secrets.randbelow(DISCORD_MIN_ID - 1)
