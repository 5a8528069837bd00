"""``python -m discord_emulator``: a standalone emulator for trying a bot by hand.

It seeds guilds with a ``general`` channel and some members, prints one JSON line with the API base,
the token and the ids, then prints every REST call and gateway dispatch until interrupted. Tests do
not use it: they run :class:`DiscordEmulator` in the test process (it outlives bot restarts there and
can inject interactions), and start the bot as a subprocess with :class:`BotProcess`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal

from .emulator import DiscordEmulator


async def serve(host: str, port: int, guilds: int, members: list[str]) -> None:
    emulator = DiscordEmulator(host=host, port=port)
    await emulator.start()
    seeded = []
    for index in range(guilds):
        guild = emulator.create_guild(f"Guild {index + 1}")
        people = {name: emulator.create_member(guild, name).id for name in members}
        seeded.append({"id": guild.id, "channel_id": emulator.channel(guild).id, "members": people})
    print(
        json.dumps(
            {
                "api_base": emulator.api_base,
                "gateway": emulator.gateway_url,
                "token": emulator.token,
                "guilds": seeded,
            }
        ),
        flush=True,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def request_stop() -> None:
        stop.set()
        emulator.notifier.notify()

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, request_stop)
    calls = dispatches = 0

    def news() -> bool:
        return stop.is_set() or len(emulator.rest_log) > calls or len(emulator.dispatches()) > dispatches

    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await emulator.wait_for(news, timeout=3600)
        for call in emulator.rest_log[calls:]:
            print(f"REST {call.method} {call.path} -> {call.status}", flush=True)
        calls = len(emulator.rest_log)
        sent = emulator.dispatches()
        for record in sent[dispatches:]:
            print(f"GATEWAY shard={record.shard_id} {record.t} s={record.s}", flush=True)
        dispatches = len(sent)
    await emulator.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m discord_emulator",
        description=(
            "A stand-alone Discord emulator for trying a bot by hand, without Discord. It prints one JSON"
            " line with its API base, token and seeded ids (start the bot with DISCORD_API_BASE and"
            " DISCORD_TOKEN set to them), then every REST call and gateway event until Ctrl-C."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (default 0: a free one)")
    parser.add_argument("--guilds", type=int, default=1, help="servers to create (default 1)")
    parser.add_argument(
        "--members",
        default="alice,bob",
        help="comma-separated usernames added to each server (default alice,bob)",
    )
    options = parser.parse_args()
    members = [name for name in options.members.split(",") if name]
    asyncio.run(serve(options.host, options.port, options.guilds, members))


if __name__ == "__main__":
    main()
