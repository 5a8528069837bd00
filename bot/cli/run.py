"""``python -m bot run`` (the default command): start the Discord bot."""

from __future__ import annotations

import functools
from typing import TextIO

from bot.cli import wiring
from bot.cli.exits import EXIT_USAGE
from bot.cli.logs import configure_logging
from bot.cli.migrate import upgrade_schema
from bot.cli.program import is_installed_command, program_name
from bot.config import Settings

TOKEN = "DISCORD_TOKEN"


def no_token_text() -> str:
    """What to do without a token, naming what this installation has.

    A checkout has ``.env.example``, which lists every setting; an installed command has no
    such file, so the settings are named here. The catalogues are loaded only here: ``run``
    with a token reads them while it connects, not before.
    """
    from bot.i18n import terminal_texts

    texts = terminal_texts()
    play = f"{program_name()} play"
    if not is_installed_command():
        return texts.gettext(
            "DISCORD_TOKEN is not set. Put your bot's token in the environment or in a .env file "
            "(.env.example lists every setting), or play against the engine in the terminal with "
            "`{command}`.",
            command=play,
        )
    others = [name.upper() for name in Settings.model_fields if name.upper() != TOKEN]
    return texts.gettext(
        "DISCORD_TOKEN is not set. Set it to your bot's token in the environment or in a .env file in "
        "this folder (optional settings: {settings}), or play against the engine in the terminal with "
        "`{command}`.",
        settings=", ".join(others),
        command=play,
    )


def run_run(settings: Settings, stderr: TextIO) -> int:
    """Exit status 2 without a token; otherwise run the bot, which migrates (unless AUTO_MIGRATE=false).

    The bot connects to Discord while the schema is upgraded, and plays once it is; an upgrade
    that fails stops the bot, with its reason in one line on ``stderr`` and exit status 1.
    """
    if settings.discord_token is None:
        stderr.write(no_token_text() + "\n")
        return EXIT_USAGE
    configure_logging(settings)
    prepare = functools.partial(upgrade_schema, settings) if settings.auto_migrate else None
    problem = wiring.run_bot()(settings, prepare)
    if problem is not None:
        stderr.write(problem + "\n")
        return 1
    return 0
