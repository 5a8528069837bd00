"""Discord's JSON error bodies and the error codes the emulator answers with."""

from __future__ import annotations

from typing import Any

UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_ROLE = 10011
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_APPLICATION_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
UNAUTHORIZED = 40001
ALREADY_ACKNOWLEDGED = 40060
MAX_FOLLOWUP_MESSAGES = 40094
MISSING_ACCESS = 50001
CANNOT_EDIT_OTHERS_MESSAGE = 50005
EMPTY_MESSAGE = 50006
MISSING_PERMISSIONS = 50013
INVALID_CHANNEL_TYPE = 50024
INVALID_FORM_BODY = 50035
INVALID_JSON = 50109
THREAD_ALREADY_CREATED = 160004
THREAD_ARCHIVED = 50083


class DiscordHTTPError(Exception):
    """Raised by a route handler; becomes the JSON error response Discord would send."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def not_found(code: int, what: str) -> DiscordHTTPError:
    return DiscordHTTPError(404, code, f"Unknown {what}")


class FormErrors:
    """Collects field errors into Discord's nested ``errors`` object (code 50035, Invalid Form Body)."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        node = self.errors
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def __bool__(self) -> bool:
        return bool(self.errors)

    def raise_if_any(self) -> None:
        if self.errors:
            raise DiscordHTTPError(400, INVALID_FORM_BODY, "Invalid Form Body", self.errors)
