"""The interaction gate while the service opens: interactions are kept, then handled in arrival order.

(Refusals at shutdown, including of interactions still kept, are tested on the real bot in
``tests/exts/test_startup.py`` and ``tests/reliability/test_sigterm.py``.)
"""

from __future__ import annotations

from typing import Any

from bot.shutdown import INTERACTION_CREATE, InteractionGate, Stage


class State:
    """The part of discord.py's ConnectionState the gate uses: the parsers of gateway events."""

    def __init__(self) -> None:
        self.parsed: list[dict[str, Any]] = []
        self.parsers = {INTERACTION_CREATE: self.parsed.append}

    def deliver(self, interaction_id: int) -> None:
        self.parsers[INTERACTION_CREATE]({"id": interaction_id})


def test_interactions_held_while_the_service_opens_are_handled_in_order_once_it_is_open() -> None:
    state = State()
    gate = InteractionGate(state)  # type: ignore[arg-type]
    gate.hold()
    state.deliver(1)
    state.deliver(2)
    assert state.parsed == []
    gate.open()
    assert gate.stage is Stage.OPEN
    state.deliver(3)
    assert [data["id"] for data in state.parsed] == [1, 2, 3]


def test_an_open_gate_hands_interactions_on_at_once_and_opening_again_changes_nothing() -> None:
    state = State()
    gate = InteractionGate(state)  # type: ignore[arg-type]
    state.deliver(1)
    gate.open()
    assert [data["id"] for data in state.parsed] == [1]


def test_held_interactions_are_dropped_when_the_gate_closes_and_never_handled_later() -> None:
    state = State()
    gate = InteractionGate(state)  # type: ignore[arg-type]
    gate.hold()
    state.deliver(1)
    gate.close()
    gate.open()
    state.deliver(2)
    assert state.parsed == []
