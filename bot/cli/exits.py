"""The exit statuses the command line shares beyond 0 (done) and 1 (could not do it)."""

EXIT_USAGE = 2
"""The command was given something it cannot take: a missing setting, a bad option."""

EXIT_INTERRUPTED = 130
"""Ctrl-C, as shells report a process stopped by SIGINT (128 + 2)."""
