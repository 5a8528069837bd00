"""What the persistence layer tells its callers when the database itself fails."""


class DatabaseUnavailableError(Exception):
    """The database could not be reached, dropped the connection, or stayed locked.

    Nothing of the transaction was kept; trying again later may work. The SQLAlchemy
    or driver error is the ``__cause__``.
    """
