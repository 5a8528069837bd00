"""A local emulator of Discord's REST API and gateway for end-to-end tests of the bot.

The unmodified discord.py client runs against it when two settings point it here:
``discord.http.Route.BASE = emu.api_base`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``
set to the ``url`` that ``GET {api_base}/gateway/bot`` answers (discord.py only asks that endpoint
when it computes its own shard count, so a plain ``Client`` must be told).

Tests build a world (guilds, channels, roles, members), inject interactions as users would cause
them (slash commands, autocomplete, button clicks), and read what the bot did (callbacks, messages
with their components, every REST call and gateway frame), waiting on events, never on timers.
See :class:`DiscordEmulator`.
"""

from .emulator import DiscordEmulator
from .faults import RestFault
from .gateway import GatewaySession
from .interactions import Callback, Interaction, InteractionUsageError
from .models import Button, Channel, Guild, Member, Message, MessageVersion, Role, User
from .permissions import Perm
from .records import GatewayRecord, RestCall
from .snowflakes import shard_for

__all__ = [
    "Button",
    "Callback",
    "Channel",
    "DiscordEmulator",
    "GatewayRecord",
    "GatewaySession",
    "Guild",
    "Interaction",
    "InteractionUsageError",
    "Member",
    "Message",
    "MessageVersion",
    "Perm",
    "RestCall",
    "RestFault",
    "Role",
    "User",
    "shard_for",
]
