"""The REST plumbing: routing under ``/api/v{n}``, auth, body parsing, fault injection, recording,
error bodies and rate-limit headers. The route handlers live in the ``rest_*`` modules."""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .errors import INVALID_FORM_BODY, INVALID_JSON, DiscordHTTPError
from .faults import FaultInjector, RestFault
from .openapi import ApiSpec, SpecViolation, unclaimed
from .records import RestCall
from .uploads import Uploads
from .waiting import Notifier

API_PREFIX = "/api/v{version:\\d+}"
RATE_LIMIT = 10_000
RESET_AFTER = 60.0


@dataclass
class ApiRequest:
    call: RestCall
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    attachments: list[dict[str, Any]] = field(default_factory=list)

    def param(self, name: str) -> str:
        return self.params[name]

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


@dataclass
class ApiResponse:
    status: int
    body: Any = None


Handler = Callable[[ApiRequest], Awaitable[ApiResponse]]


@dataclass
class Route:
    method: str
    template: str
    handler: Handler
    auth: bool = True
    """Interaction callbacks and webhook-token routes are authorised by their token, not the bot's."""


def ok(body: Any = None, status: int = 200) -> ApiResponse:
    return ApiResponse(status, body)


def no_content() -> ApiResponse:
    return ApiResponse(204)


def _bucket(route: Route) -> str:
    return hashlib.sha1(f"{route.method} {route.template}".encode()).hexdigest()[:16]


class RestServer:
    def __init__(
        self,
        notifier: Notifier,
        faults: FaultInjector,
        *,
        token: str,
        new_id: Callable[[], int],
        spec: ApiSpec | None = None,
    ) -> None:
        self.notifier = notifier
        self.faults = faults
        self.token = token
        self.spec = spec
        """Discord's API description every request is checked against (None: no check)."""
        self.spec_violations: list[SpecViolation] = []
        self.log: list[RestCall] = []
        self.uploads = Uploads(new_id)
        """Every file uploaded with a message, kept to be opened by tests and served at its URL."""

    def install(self, app: web.Application, routes: list[Route]) -> None:
        for route in routes:
            app.router.add_route(route.method, API_PREFIX + route.template, self._wrap(route))
        app.router.add_get("/attachments/{attachment_id:\\d+}/{filename}", self.uploads.serve)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._unknown)

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        call = RestCall(request.method, path, "<unknown>", {}, dict(request.query), None, time.monotonic())
        self.log.append(call)
        return self._finish(call, 404, {"message": "404: Not Found", "code": 0}, {})

    def _wrap(self, route: Route) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def handle(request: web.Request) -> web.StreamResponse:
            return await self._handle(route, request)

        return handle

    async def _parse(self, request: web.Request) -> tuple[Any, list[dict[str, Any]], list[str]]:
        if not request.body_exists:
            return None, [], []
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            payload = form.get("payload_json")
            if isinstance(payload, bytes | bytearray):  # a part sent with a non-text content type
                payload = payload.decode()
            body = json.loads(str(payload)) if payload is not None else {}
            attachments, names = await self.uploads.read(form, body, f"{request.scheme}://{request.host}")
            return body, attachments, names
        text = await request.text()
        if not text:
            return None, [], []
        return json.loads(text), [], []

    async def _handle(self, route: Route, request: web.Request) -> web.StreamResponse:
        received = time.monotonic()
        params = {key: value for key, value in request.match_info.items() if key != "version"}
        path = request.path.split("/", 3)[3] if request.path.count("/") >= 3 else request.path
        call = RestCall(
            method=request.method,
            path="/" + path,
            route=route.template,
            params=params,
            query=dict(request.query),
            json=None,
            received_at=received,
        )
        self.log.append(call)
        headers = {"X-RateLimit-Bucket": _bucket(route)}
        try:
            body, attachments, names = await self._parse(request)
        except DiscordHTTPError as error:
            return self._finish(call, error.status, error.body(), headers)
        except ValueError:
            return self._finish(
                call,
                400,
                {"message": "The request body contains invalid JSON.", "code": INVALID_JSON},
                headers,
            )
        call.json, call.files = body, names
        self.notifier.notify()

        if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
            return self._finish(call, 401, {"message": "401: Unauthorized", "code": 0}, headers)

        if self.spec is not None:
            violation = self._check_spec(route, call)
            if violation is not None:
                body = DiscordHTTPError(
                    400, INVALID_FORM_BODY, "Invalid Form Body", violation.form_errors().errors
                ).body()
                return self._finish(call, 400, body, headers)

        fault = self.faults.take(call)
        if fault is not None:
            response = await self._apply_fault(fault, call, request, headers)
            if response is not None:
                return response

        try:
            result = await route.handler(ApiRequest(call, params, dict(request.query), body, attachments))
        except DiscordHTTPError as error:
            result = ApiResponse(error.status, error.body())
        if fault is not None and fault.drop and fault.handled:
            if request.transport is not None:
                request.transport.abort()
            call.status, call.response, call.responded_at = 0, result.body, time.monotonic()
            self.notifier.notify()
            return web.Response(status=500)
        return self._finish(call, result.status, result.body, headers)

    def _check_spec(self, route: Route, call: RestCall) -> SpecViolation | None:
        """Check ``call`` against the description; record and return the violation, if any."""
        assert self.spec is not None
        operation = self.spec.operation(route.method, route.template)
        if operation is None:
            return None
        call.checked_as = operation.operation_id
        violation = operation.check(call.method, call.path, call.query, call.json)
        if violation is not None:
            call.violation = str(violation)
            self.spec_violations.append(violation)
            unclaimed.append(violation)
        return violation

    async def _apply_fault(
        self, fault: RestFault, call: RestCall, request: web.Request, headers: dict[str, str]
    ) -> web.StreamResponse | None:
        call.fault = fault.describe()
        if fault.delay:
            await asyncio.sleep(fault.delay)
        if fault.release is not None:
            await fault.release.wait()
        if fault.drop and not fault.handled:
            if request.transport is not None:
                request.transport.abort()
            call.status = 0
            call.responded_at = time.monotonic()
            self.notifier.notify()
            return web.Response(status=500)
        if fault.status is None or fault.handled:
            return None
        if fault.status == 429:
            retry_after = fault.retry_after
            headers.update(
                {
                    "Retry-After": str(max(1, int(retry_after + 0.999))),
                    "X-RateLimit-Limit": str(RATE_LIMIT),
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
                    "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                    "X-RateLimit-Scope": "global" if fault.is_global else fault.scope,
                }
            )
            if fault.is_global:
                headers["X-RateLimit-Global"] = "true"
            if fault.via_header:
                headers["Via"] = "1.1 google"
            body = fault.body or {
                "message": "You are being rate limited.",
                "retry_after": retry_after,
                "global": fault.is_global,
                "code": 0,
            }
            return self._finish(call, 429, body, headers, rate_headers=False)
        body = (
            fault.body if fault.body is not None else {"message": f"{fault.status}: Server Error", "code": 0}
        )
        return self._finish(call, fault.status, body, headers)

    def _finish(
        self,
        call: RestCall,
        status: int,
        body: Any,
        headers: dict[str, str],
        *,
        rate_headers: bool = True,
    ) -> web.StreamResponse:
        if rate_headers:
            headers.update(
                {
                    "X-RateLimit-Limit": str(RATE_LIMIT),
                    "X-RateLimit-Remaining": str(RATE_LIMIT - 1),
                    "X-RateLimit-Reset": f"{time.time() + RESET_AFTER:.3f}",
                    "X-RateLimit-Reset-After": f"{RESET_AFTER:.3f}",
                }
            )
        call.status = status
        call.response = body
        call.responded_at = time.monotonic()
        self.notifier.notify()
        if status == 204 or body is None:
            return web.Response(status=status, headers=headers)
        if isinstance(body, str):
            return web.Response(status=status, text=body, headers=headers)
        # Exactly "application/json", no charset: discord.py only decodes JSON on that exact value.
        headers["Content-Type"] = "application/json"
        return web.Response(body=json.dumps(body).encode(), status=status, headers=headers)
