"""What the emulator records: every REST call and every gateway frame, in order of arrival."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass
class RestCall:
    """One HTTP request to the REST API and the answer it got."""

    method: str
    path: str
    """The request path after ``/api/v10``, e.g. ``/channels/123/messages``."""
    route: str
    """The route template as discord.py's ``Route`` spells it, e.g. ``/channels/{channel_id}/messages``."""
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    """The JSON body (``payload_json`` for multipart uploads), or None without a body."""
    received_at: float
    """``time.monotonic()`` when the request arrived."""
    files: list[str] = field(default_factory=list)
    status: int | None = None
    response: Any = None
    responded_at: float | None = None
    fault: str | None = None
    """Set when an injected fault answered this call instead of the emulator."""
    checked_as: str | None = None
    """The operation id of Discord's API description the request was checked against, if any."""
    violation: str | None = None
    """Set when Discord's API description refuses the request (answered 400, code 50035)."""

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    def __repr__(self) -> str:
        fault = f" fault={self.fault}" if self.fault else ""
        violation = " violates the API description" if self.violation else ""
        return f"<RestCall {self.method} {self.path} -> {self.status}{fault}{violation}>"


@dataclass
class GatewayRecord:
    """One gateway frame: ``send`` is emulator to bot, ``receive`` is bot to emulator."""

    direction: Literal["send", "receive"]
    session_id: str | None
    shard: tuple[int, int] | None
    op: int
    t: str | None
    s: int | None
    d: Any
    at: float

    @property
    def shard_id(self) -> int | None:
        return None if self.shard is None else self.shard[0]
