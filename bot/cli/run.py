"""``python -m bot run`` (the default command): start the Discord bot."""

from __future__ import annotations

import functools
from typing import TextIO

from bot.cli import wiring
from bot.cli.logs import configure_logging
from bot.cli.migrate import upgrade_schema
from bot.config import Settings

NO_TOKEN = (
    "DISCORD_TOKEN is not set. Put your bot's token in the environment or in a .env file "
    "(.env.example lists every setting), or play against the engine in the terminal with "
    "`python -m bot play`."
)


def run_run(settings: Settings, stderr: TextIO) -> int:
    """Exit status 2 without a token; otherwise run the bot, which migrates (unless AUTO_MIGRATE=false).

    The bot connects to Discord while the schema is upgraded, and plays once it is; an upgrade
    that fails stops the bot, with its reason in one line on ``stderr`` and exit status 1.
    """
    if settings.discord_token is None:
        stderr.write(NO_TOKEN + "\n")
        return 2
    configure_logging(settings)
    prepare = functools.partial(upgrade_schema, settings) if settings.auto_migrate else None
    problem = wiring.run_bot()(settings, prepare)
    if problem is not None:
        stderr.write(problem + "\n")
        return 1
    return 0
