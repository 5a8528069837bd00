"""``python -m bot [run|play|migrate|analyze|stats|review|replay|backup]``: the command line.

See docs/terminal.md.

This module owns the argument parser and the exit statuses; each command lives in
``bot.cli.<command>`` and gets typed options and the standard streams.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.cli.analyze import STDIN, run_analyze
from bot.cli.exits import EXIT_INTERRUPTED, EXIT_USAGE
from bot.cli.logs import first_line
from bot.cli.program import program_name, program_version
from bot.cli.wiring import MissingComponentError
from bot.config import ConfigError, Settings
from bot.engine import ANALYSIS_BUDGET_MS, SIZES, Level, Mark


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The command line: its subcommands and their options."""
    parser = argparse.ArgumentParser(
        prog=program_name(),
        description="A Discord tic-tac-toe bot with a perfect minimax engine. Without a command: run.",
    )
    parser.add_argument("--version", action="version", version=program_version())
    commands = parser.add_subparsers(
        dest="command", metavar="{run,play,migrate,analyze,stats,review,replay,backup}"
    )
    commands.add_parser(
        "run",
        help="start the Discord bot (the default)",
        description="Start the Discord bot; settings come from the environment and from .env in this folder.",
    )
    play = commands.add_parser(
        "play",
        help="play one game against the engine in the terminal",
        description="Play one game against the engine. Moves are cells like 5 or b2; q quits.",
    )
    play.add_argument("--size", type=int, choices=SIZES, default=3, help="board size (default 3)")
    play.add_argument(
        "--level",
        type=str.lower,
        choices=[level.value for level in Level],
        default=Level.PERFECT.value,
        help=(
            "the engine's strength: easy often misses your threats, medium misses double threats, "
            "hard misses slower threats, perfect never loses (default perfect)"
        ),
    )
    play.add_argument(
        "--first",
        type=str.lower,
        choices=("x", "o"),
        default="x",
        help="your mark; X moves first (default x)",
    )
    play.add_argument("--seed", type=int, default=None, help="seed the engine's choices (repeatable games)")
    play.add_argument(
        "--no-db",
        action="store_true",
        help="play without the database: the game is not recorded and counts in no stats",
    )
    commands.add_parser(
        "migrate",
        help="upgrade the database schema to the newest migration",
        description="Upgrade the database at DATABASE_URL to the newest migration and exit.",
    )
    analyze = commands.add_parser(
        "analyze",
        help="print a JSON verdict per board",
        description=(
            "Print one JSON line per board: the value and plies of the position and of every empty cell. "
            "With -, read boards from standard input, one per line, answering each at once."
        ),
    )
    analyze.add_argument("boards", nargs="+", metavar="BOARD", help="board text (X.O/.../...), or -")
    analyze.add_argument(
        "--budget-ms",
        type=_positive_int,
        default=ANALYSIS_BUDGET_MS,
        help=f"time budget per board on 4x4 and 5x5, in milliseconds (default {ANALYSIS_BUDGET_MS})",
    )
    stats = commands.add_parser(
        "stats",
        help="show a terminal player's record",
        description="Show the record of a terminal player (by default you, by your OS user name).",
    )
    stats.add_argument("--user", metavar="NAME", help="the OS user name of the player (default: yours)")
    review = commands.add_parser(
        "review",
        help="print the perfect engine's verdict on every move of a stored game",
        description="Print the perfect engine's review of a stored game (DATABASE_URL), a line per move.",
    )
    review.add_argument("game", type=_positive_int, metavar="GAME_ID", help="the game's number")
    review.add_argument("--json", action="store_true", help="one JSON object per move instead of text")
    replay = commands.add_parser(
        "replay",
        help="write a stored game as an animated GIF",
        description="Write a stored game as an animated GIF: a frame per move, the winning line drawn.",
    )
    replay.add_argument("game", type=_positive_int, metavar="GAME_ID", help="the game's number")
    replay.add_argument(
        "--out",
        required=True,
        metavar="FILE",
        help="where to write the GIF (a .gif file, or - for standard output)",
    )
    backup = commands.add_parser(
        "backup",
        help="copy the SQLite database consistently while the bot may run, and check the copy",
        description=(
            "Write a consistent copy of the SQLite database at DATABASE_URL to FILE and check it; "
            "the bot may keep running. For PostgreSQL, print the pg_dump command to use instead."
        ),
    )
    backup.add_argument("file", type=Path, metavar="FILE", help="where to write the copy")
    return parser


def _dispatch(args: argparse.Namespace) -> int:
    command: str = args.command or "run"
    if command == "analyze":
        return run_analyze(args.boards, args.budget_ms, sys.stdin, sys.stdout)
    settings = Settings.load()
    if command == "play" and args.no_db:
        return _play(args, settings)
    settings.check_database_driver()
    if command == "play":
        return _play(args, settings)
    if command == "stats":
        from bot.cli.stats import run_stats

        return run_stats(settings, args.user, sys.stdout, sys.stderr)
    if command == "review":
        from bot.cli.review import run_review

        return run_review(settings, args.game, args.json, sys.stdout, sys.stderr)
    if command == "replay":
        from bot.cli.review import run_replay

        return run_replay(settings, args.game, args.out, sys.stdout, sys.stderr)
    if command == "backup":
        from bot.cli.backup import run_backup

        return run_backup(settings, args.file, sys.stdout, sys.stderr)
    if command == "migrate":
        from bot.cli.migrate import run_migrate

        return run_migrate(settings, sys.stdout, sys.stderr)
    from bot.cli.run import run_run

    return run_run(settings, sys.stderr)


def _play(args: argparse.Namespace, settings: Settings) -> int:
    from bot.cli.logs import configure_terminal_logging
    from bot.cli.play import run_play
    from bot.cli.session import PlayOptions, SessionFactory, local_session

    options = PlayOptions(
        size=args.size,
        level=Level(args.level),
        human=Mark(args.first.upper()),
        seed=args.seed,
        budget_ms=settings.engine_budget_ms,
    )
    open_session: SessionFactory = local_session
    if not args.no_db:
        from bot.cli.service_session import service_sessions

        configure_terminal_logging(settings)
        open_session = service_sessions(settings)
    return run_play(options, sys.stdin, sys.stdout, sys.stderr, open_session)


def _silence_stdout() -> None:
    """After the reader of our output went away, point stdout at devnull so the final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and return its exit status."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_request:
        return exit_request.code if isinstance(exit_request.code, int) else EXIT_USAGE
    reads_stdin = args.command == "play" or (args.command == "analyze" and STDIN in args.boards)
    if reads_stdin and isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    try:
        return _dispatch(args)
    except ConfigError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except MissingComponentError as error:
        print(f"Cannot {args.command or 'run'}: {first_line(error)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        from bot.i18n import terminal_texts

        print("\n" + terminal_texts().gettext("Interrupted."), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return 1


if __name__ == "__main__":
    sys.exit(main())
