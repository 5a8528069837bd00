"""The interaction gate while the service opens: interactions wait, then are admitted in arrival order.

(Refusals at shutdown, including of interactions still waiting, are tested on the real bot in
``tests/exts/test_startup.py`` and ``tests/reliability/test_sigterm.py``.)
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.shutdown import InteractionGate, Stage


async def arrive(gate: InteractionGate, interaction_id: int, admitted: list[int]) -> bool:
    """One interaction at the gate: noted in ``admitted`` once the gate lets it through."""
    interaction: Any = SimpleNamespace(id=interaction_id)
    if await gate.admit(interaction):
        admitted.append(interaction_id)
        return True
    return False


async def test_interactions_held_while_the_service_opens_are_handled_in_order_once_it_is_open() -> None:
    gate = InteractionGate()
    gate.hold()
    admitted: list[int] = []
    held = [asyncio.create_task(arrive(gate, i, admitted)) for i in (1, 2)]
    await asyncio.sleep(0)  # each new task takes its first step, up to its wait at the gate
    assert admitted == [] and gate.waiting == 2
    gate.open()
    assert gate.stage is Stage.OPEN
    assert await asyncio.gather(*held) == [True, True]
    assert await arrive(gate, 3, admitted)
    assert admitted == [1, 2, 3]


async def test_an_open_gate_admits_interactions_at_once_and_opening_again_changes_nothing() -> None:
    gate = InteractionGate()
    admitted: list[int] = []
    assert await arrive(gate, 1, admitted)
    gate.open()
    assert await arrive(gate, 2, admitted)
    assert admitted == [1, 2]


async def test_held_interactions_are_dropped_when_the_gate_closes_and_never_handled_later() -> None:
    gate = InteractionGate()
    gate.hold()
    admitted: list[int] = []
    held = [asyncio.create_task(arrive(gate, 1, admitted))]
    await asyncio.sleep(0)  # each new task takes its first step, up to its wait at the gate
    gate.close()
    gate.open()
    assert await asyncio.gather(*held) == [False]
    assert not await arrive(gate, 2, admitted)
    assert admitted == [] and gate.refused == 0
