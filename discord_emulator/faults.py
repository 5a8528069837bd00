"""Injected REST failures: the next N calls matching a route answer with an error instead."""

from __future__ import annotations

import asyncio
import fnmatch
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .records import RestCall


@dataclass
class RestFault:
    """A rule that answers the next ``times`` matching calls itself.

    ``route`` is a discord.py route template (``/channels/{channel_id}/messages``) or a glob on it;
    ``params`` narrows to given path parameters (``{"channel_id": "123"}``); ``match`` is a free
    predicate on the call. ``status`` 429 becomes a proper rate limit answer with ``retry_after``;
    ``drop`` closes the connection without any answer, before the request has any effect, or with
    ``handled`` after it took effect (the answer is lost: the client cannot know it worked);
    ``delay`` holds the answer (a slow Discord) and then lets the real handler answer when ``status``
    is None; ``release`` holds it until the test sets that event. aiohttp clients retry idempotent
    methods (GET, PUT, PATCH, DELETE) once on a dropped connection by themselves, so a drop of those
    is seen by the bot only when it repeats.
    """

    method: str
    route: str
    times: int = 1
    status: int | None = 500
    retry_after: float = 0.05
    is_global: bool = False
    scope: str = "user"
    via_header: bool = True
    """Discord's 429s come through its proxy (``Via`` header); without it discord.py treats the 429
    as a Cloudflare ban and raises instead of retrying."""
    body: Any = None
    delay: float = 0.0
    release: asyncio.Event | None = None
    drop: bool = False
    handled: bool = False
    params: dict[str, str] = field(default_factory=dict)
    match: Callable[[RestCall], bool] | None = None
    hits: list[RestCall] = field(default_factory=list)

    @property
    def remaining(self) -> int:
        return self.times - len(self.hits)

    @property
    def used_up(self) -> bool:
        return self.remaining <= 0

    def matches(self, call: RestCall) -> bool:
        if self.remaining <= 0:
            return False
        if self.method != "*" and self.method.upper() != call.method:
            return False
        if self.route != "*" and self.route != call.route and not fnmatch.fnmatchcase(call.route, self.route):
            return False
        if any(call.params.get(key) != str(value) for key, value in self.params.items()):
            return False
        return self.match is None or self.match(call)

    def describe(self) -> str:
        if self.drop:
            return "drop after handling" if self.handled else "drop"
        if self.status is None:
            return "held" if self.release is not None else f"delay {self.delay}s"
        return f"{self.status}"


class FaultInjector:
    def __init__(self) -> None:
        self.rules: list[RestFault] = []

    def add(self, rule: RestFault) -> RestFault:
        self.rules.append(rule)
        return rule

    def take(self, call: RestCall) -> RestFault | None:
        """The first live rule matching ``call``, with the call counted against it."""
        for rule in self.rules:
            if rule.matches(call):
                rule.hits.append(call)
                return rule
        return None

    def clear(self) -> None:
        self.rules.clear()
