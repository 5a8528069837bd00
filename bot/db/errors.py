"""What the persistence layer tells its callers when the database itself fails."""


class DatabaseUnavailableError(Exception):
    """The database could not be reached, dropped the connection, or stayed locked.

    Nothing of the transaction was kept; trying again later may work. The SQLAlchemy
    or driver error is the ``__cause__``.
    """


class LostRaceError(Exception):
    """A compare-and-set on a game found another version than the one its writer decided on.

    Another writer (in this process or another) changed the game first; nothing this
    writer did in its transaction was kept. Deciding again on a fresh read may succeed.
    """
