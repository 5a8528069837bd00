"""The games cog's handlers, one module per concern; :mod:`.base` holds what they share."""
