"""What the end-to-end tests share: the real bot process against the Discord emulator
(:mod:`~tests.support.bot`), the board as players see and click it (:mod:`~tests.support.tables`),
and the database as the bot left it, with the replay checker (:mod:`~tests.support.store`).

Every wait is on the emulator's or the database's state; the timeouts are failure guards only.
"""
