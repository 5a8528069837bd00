"""Who a message really pings: mentions in its content filtered by ``allowed_mentions``, as Discord does."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .models import Guild, User

USER_MENTION = re.compile(r"<@!?(\d{15,21})>")
ROLE_MENTION = re.compile(r"<@&(\d{15,21})>")
EVERYONE_MENTION = re.compile(r"@(?:everyone|here)")

ALL_PARSE = ("users", "roles", "everyone")


@dataclass
class Pings:
    users: list[User] = field(default_factory=list)
    roles: list[int] = field(default_factory=list)
    everyone: bool = False


def resolve_pings(
    content: str,
    allowed_mentions: dict[str, Any] | None,
    *,
    find_user: Callable[[int], User | None],
    guild: Guild | None,
    may_mention_everyone: bool,
    replied_user: User | None = None,
) -> Pings:
    """Apply Discord's rules: no ``allowed_mentions`` means parse everything; an explicit one limits
    pings to the listed kinds and ids. Roles ping only when mentionable (or with Mention Everyone)."""
    allowed = allowed_mentions if allowed_mentions is not None else {"parse": list(ALL_PARSE)}
    parse = set(allowed.get("parse") or ())
    allowed_users = {int(user_id) for user_id in allowed.get("users") or ()}
    allowed_roles = {int(role_id) for role_id in allowed.get("roles") or ()}
    pings = Pings()

    seen: set[int] = set()
    for match in USER_MENTION.finditer(content):
        user_id = int(match.group(1))
        if user_id in seen or not ("users" in parse or user_id in allowed_users):
            continue
        user = find_user(user_id)
        if user is not None:
            seen.add(user_id)
            pings.users.append(user)
    if replied_user is not None and allowed.get("replied_user", True) and replied_user.id not in seen:
        pings.users.append(replied_user)

    if guild is not None:
        for match in ROLE_MENTION.finditer(content):
            role_id = int(match.group(1))
            role = guild.roles.get(role_id)
            if role is None or role_id in pings.roles:
                continue
            if not ("roles" in parse or role_id in allowed_roles):
                continue
            if role.mentionable or may_mention_everyone:
                pings.roles.append(role_id)

    pings.everyone = bool(
        "everyone" in parse and may_mention_everyone and EVERYONE_MENTION.search(content) is not None
    )
    return pings
