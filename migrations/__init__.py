"""The Alembic migration scripts; installed inside the bot's distribution as ``bot.migrations``."""
