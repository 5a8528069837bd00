"""The emulated Discord world: users, guilds, roles, members, channels, messages and the application."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .interactions import Interaction

TEXT_CHANNEL = 0
ANNOUNCEMENT_CHANNEL = 5
DM_CHANNEL = 1
GROUP_DM_CHANNEL = 3
NEWS_CHANNEL = 5
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = frozenset({10, PUBLIC_THREAD, PRIVATE_THREAD})

EPHEMERAL = 1 << 6
LOADING = 1 << 7


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


@dataclass(eq=False)
class User:
    id: int
    username: str
    bot: bool = False
    global_name: str | None = None
    avatar: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    mentionable: bool = False
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass
class Overwrite:
    """A channel permission overwrite; ``type`` is 0 for a role, 1 for a member."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: dt.datetime = field(default_factory=utcnow)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def mention(self) -> str:
        return self.user.mention


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    topic: str | None = None
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    recipients: list[User] = field(default_factory=list)
    owner_id: int | None = None
    auto_archive_duration: int = 1440
    """For a thread: minutes of inactivity before Discord archives it."""
    archived: bool = False
    """For a thread: archived (by inactivity, or as a test says); an archived thread takes no members."""
    thread_members: dict[int, str] = field(default_factory=dict)
    """For a thread: its members' user ids, each with when they joined (ISO 8601)."""
    with_bot: bool = True
    """For a DM or group DM: whether the bot is one of its ends (a DM with the bot) or not (a DM
    between users, a group DM), where it can be reached only through a user install."""

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == DM_CHANNEL

    @property
    def is_private(self) -> bool:
        """A DM or group DM (no guild)."""
        return self.type in (DM_CHANNEL, GROUP_DM_CHANNEL)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    preferred_locale: str = "en-US"
    joined_at: dt.datetime = field(default_factory=utcnow)
    with_bot: bool = True
    """False for a server that did not add the bot: users reach the app there only through a user
    install; the bot gets no gateway events from it and the REST API refuses it (403 50001)."""

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]


@dataclass(eq=False)
class Application:
    id: int
    name: str
    owner: User
    bot: User
    flags: int = 0
    description: str = ""
    privileged_intents: int = 0
    """Intent bits beyond the default that the application may request (members, presences, content)."""
    user_installs: set[int] = field(default_factory=set)
    """Ids of the users who installed the application to their own account."""


@dataclass(frozen=True)
class Button:
    """One button of a message, located by its action row and column (both 0-based)."""

    row: int
    column: int
    style: int
    custom_id: str | None
    label: str | None
    emoji: dict[str, Any] | None
    disabled: bool
    url: str | None
    raw: dict[str, Any]

    @property
    def text(self) -> str:
        """The label, or the emoji's name when there is no label."""
        if self.label:
            return self.label
        if self.emoji:
            return str(self.emoji.get("name") or "")
        return ""


@dataclass(frozen=True)
class MessageVersion:
    """A message's visible content at one point in time (one entry per create or edit)."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int
    at: float


@dataclass(eq=False)
class Message:
    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    allowed_mentions: dict[str, Any] | None = None
    mentions: list[User] = field(default_factory=list)
    """The users this message actually pings (content mentions filtered by allowed_mentions)."""
    mention_roles: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    created_at: dt.datetime = field(default_factory=utcnow)
    edited_at: dt.datetime | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction: Interaction | None = None
    """The interaction whose response or follow-up created this message, if any."""
    visible_to: int | None = None
    """For an ephemeral message, the only user who sees it."""
    message_reference: dict[str, Any] | None = None
    deleted: bool = False
    history: list[MessageVersion] = field(default_factory=list)
    thread: Channel | None = None
    """The thread started from this message, if any (it has the message's id)."""

    @property
    def guild_id(self) -> int | None:
        return self.channel.guild_id

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still showing "thinking"."""
        return bool(self.flags & LOADING)

    @property
    def version(self) -> int:
        """0 when created, +1 per edit."""
        return len(self.history) - 1

    @property
    def rows(self) -> list[list[Button]]:
        """The buttons of each action row, in order, whether at the top of the message or inside a
        Components V2 container (select menus are left out)."""
        rows: list[list[Button]] = []
        for row_index, row in enumerate(action_rows(self.components)):
            buttons = []
            for column, item in enumerate(row.get("components", [])):
                if item.get("type") == 2:
                    buttons.append(
                        Button(
                            row=row_index,
                            column=column,
                            style=int(item.get("style", 0)),
                            custom_id=item.get("custom_id"),
                            label=item.get("label"),
                            emoji=item.get("emoji"),
                            disabled=bool(item.get("disabled", False)),
                            url=item.get("url"),
                            raw=item,
                        )
                    )
            rows.append(buttons)
        return rows

    @property
    def buttons(self) -> list[Button]:
        return [button for row in self.rows for button in row]

    def button(self, custom_id: str | None = None, *, label: str | None = None) -> Button:
        """The button with this custom id, or the first whose label contains ``label`` (case-insensitive)."""
        for button in self.buttons:
            if custom_id is not None and button.custom_id == custom_id:
                return button
            if label is not None and label.lower() in (button.label or "").lower():
                return button
        raise LookupError(f"message {self.id} has no button {custom_id or label!r}")

    def component(self, custom_id: str, version: int | None = None) -> dict[str, Any] | None:
        """Any component (button or select) with this custom id, now or in an earlier ``version``."""
        components = self.components if version is None else self.history[version].components
        for row in action_rows(components):
            for item in row.get("components", []):
                if item.get("custom_id") == custom_id:
                    found: dict[str, Any] = item
                    return found
        return None

    @property
    def embed_text(self) -> str:
        """Every visible text of the embeds joined by newlines, for assertions that do not care where."""
        parts: list[str] = []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for item in embed.get("fields", []):
                parts.extend([str(item.get("name", "")), str(item.get("value", ""))])
            for key in ("author", "footer"):
                inner = embed.get(key) or {}
                text = inner.get("name") or inner.get("text")
                if text:
                    parts.append(str(text))
        return "\n".join(parts)

    @property
    def display_text(self) -> str:
        """Every text display of a Components V2 message, in sections and containers too, one per line."""
        return "\n".join(text_displays(self.components))

    @property
    def text(self) -> str:
        """Content, embed text and text displays together."""
        return "\n".join(part for part in (self.content, self.embed_text, self.display_text) if part)


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in document order, nested ones (in containers and sections) included."""
    for item in components:
        yield item
        if item.get("type") != 1:
            yield from _walk(item.get("components") or [])
        accessory = item.get("accessory")
        if isinstance(accessory, dict):
            yield accessory


def action_rows(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The action rows of a message, in order: top-level ones and those inside containers."""
    return [item for item in _walk(components) if item.get("type") == 1]


def text_displays(components: list[dict[str, Any]]) -> list[str]:
    """The content of every text display, in order."""
    return [str(item.get("content", "")) for item in _walk(components) if item.get("type") == 10]
