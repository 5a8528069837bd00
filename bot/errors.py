"""The one domain error: something a user asked for that the rules refuse.

Adapters (Discord, terminal) show ``message`` to the user as is and log nothing
alarming; the operation that raised it changed nothing.
"""

from __future__ import annotations


class GameError(Exception):
    """A refused request, with one friendly sentence for the user.

    ``code`` names the kind of refusal for adapters and tests (``"not_your_turn"``,
    ``"stale"``, ``"cooldown"``, ...); ``retry_after`` is set, in seconds, when trying
    again later can succeed (a cooldown, a busy database).
    """

    def __init__(self, message: str, *, code: str = "refused", retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.retry_after = retry_after

    def __repr__(self) -> str:
        return f"GameError({self.message!r}, code={self.code!r})"
