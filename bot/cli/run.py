"""``python -m bot run`` (the default command): start the Discord bot."""

from __future__ import annotations

from typing import TextIO

from bot.cli import wiring
from bot.cli.logs import configure_logging
from bot.cli.migrate import upgrade_database
from bot.config import Settings

NO_TOKEN = (
    "DISCORD_TOKEN is not set. Put your bot's token in the environment or in a .env file "
    "(.env.example lists every setting), or play against the engine in the terminal with "
    "`python -m bot play`."
)


def run_run(settings: Settings, stderr: TextIO) -> int:
    """Exit status 2 without a token; otherwise migrate (unless AUTO_MIGRATE=false) and run the bot."""
    if settings.discord_token is None:
        stderr.write(NO_TOKEN + "\n")
        return 2
    configure_logging(settings)
    if settings.auto_migrate and not upgrade_database(settings, stderr):
        return 1
    wiring.run_bot()(settings)
    return 0
