"""The bot's Docker image, end to end: run on the host's network against the emulator, it plays a game,
its health check passes (Docker's own, from the image's ``HEALTHCHECK``), and SIGTERM stops it cleanly.

Runs when ``TTT_IMAGE`` names a built image (``scripts/docker-smoke.sh`` builds one and runs this).
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess

import pytest

from discord_emulator import DiscordEmulator
from tests.monitoring.health import until_health
from tests.support.tables import Table, answer, click_cell, free_cells

IMAGE = os.environ.get("TTT_IMAGE", "")
START_GUARD = 120.0
"""Failure guard for the container's start (a cold image on a slow machine)."""
POLL_SECONDS = 0.5
"""How often Docker's view of the container is asked again (Docker's state wakes no wait here)."""

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.skipif(
        not IMAGE, reason="TTT_IMAGE names no image (scripts/docker-smoke.sh builds and runs)"
    ),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _docker(*args: str) -> str:
    done = subprocess.run(["docker", *args], check=True, capture_output=True, text=True)
    return (done.stdout + done.stderr).strip()


async def docker(*args: str) -> str:
    """What ``docker ARGS`` wrote (standard output and error); fails the test if it fails."""
    return await asyncio.to_thread(_docker, *args)


async def until_docker(name: str, template: str, wanted: str, guard: float) -> None:
    """Ask Docker about the container until ``docker inspect --format TEMPLATE`` says ``wanted``."""
    async with asyncio.timeout(guard):
        while True:
            if await docker("inspect", "--format", template, name) == wanted:
                return
            await asyncio.sleep(POLL_SECONDS)


async def test_the_image_plays_reports_healthy_and_stops_on_sigterm(emu: DiscordEmulator) -> None:
    port = free_port()
    name = f"ttt-smoke-{os.getpid()}"
    settings = {**emu.env(), "HEALTH_PORT": str(port), "HEALTH_HOST": "127.0.0.1"}
    await docker(
        "run",
        "--detach",
        "--name",
        name,
        "--network",
        "host",
        "--health-interval",
        "1s",
        *[option for key, value in settings.items() for option in ("--env", f"{key}={value}")],
        IMAGE,
    )
    try:
        await emu.wait_until_ready(timeout=START_GUARD)
        await emu.wait_for_commands(timeout=START_GUARD)
        table = Table.create(emu, "alice")
        message = await answer(await table.slash("alice", "ttt start"))
        while free_cells(message):
            await click_cell(table, message, free_cells(message)[0], "alice")
        assert "draw" in message.text.lower() or "wins" in message.text.lower()

        _, body = await until_health(f"http://127.0.0.1:{port}", lambda status, _: status == 200)
        assert body["status"] == "ok" and body["database"] == {"reachable": True}
        await until_docker(name, "{{.State.Health.Status}}", "healthy", START_GUARD)
        assert await docker("inspect", "--format", "{{.Config.User}}", name) == "ttt"

        await docker("stop", "--time", "30", name)  # SIGTERM, the image's STOPSIGNAL
        assert await docker("inspect", "--format", "{{.State.ExitCode}}", name) == "0"
        output = await docker("logs", name)
        assert (
            "Stop requested; shutting down" in output and "Closed the engine pool and the database" in output
        )
        assert "Traceback" not in output and emu.token not in output
    finally:
        logs = await asyncio.to_thread(
            subprocess.run, ["docker", "logs", name], capture_output=True, text=True
        )
        print(f"----- container log -----\n{(logs.stdout + logs.stderr)[-6000:]}")
        await asyncio.to_thread(subprocess.run, ["docker", "rm", "--force", name], capture_output=True)
