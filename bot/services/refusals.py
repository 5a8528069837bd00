"""Requests the service did not carry out, each with one sentence for the user (:class:`NotDone`).

A :class:`Refusal` is what a user asked for that the rules do not allow, one exception type per
kind; :class:`Unavailable` is an outage of the store, not a rule: the same request may succeed a
moment later. Adapters catch the types they treat specially (an :class:`OutdatedBoard` click
redraws the board) and show every other :class:`NotDone` as one sentence to the user alone.
The operation that raised it changed nothing.

Each class's ``template`` is an English sentence with ``{named}`` placeholders; it is
also the gettext msgid under which translations are looked up, so an adapter shows
``gettext(template).format(**params)``. A refusal that counts something also has a
``plural`` msgid and a ``count`` for ``ngettext``. ``str(refusal)`` is the English
sentence. The templates are marked (:func:`bot.i18n.N_`) for the catalogues' extraction.
Params hold raw values (display names unescaped): escaping them is the adapter's business.
"""

from __future__ import annotations

from typing import ClassVar

from bot.i18n import N_, N_plural


def _letters(size: int) -> str:
    """The name of the last cell of a board, ``c3`` on 3x3: the upper end of the letter-row names."""
    return f"{chr(ord('a') + size - 1)}{size}"


class NotDone(Exception):
    """Base class: a request that was not carried out, with one sentence for the user."""

    template: ClassVar[str] = N_("That can't be done right now.")
    plural: ClassVar[str | None] = None
    """The plural msgid of ``template`` when the sentence counts something; see :attr:`count`."""

    def __init__(self, **params: object) -> None:
        self.params: dict[str, object] = params
        super().__init__(str(self))

    @property
    def count(self) -> int | None:
        """The number that picks the singular or plural form; None when the sentence counts nothing."""
        return None

    def __str__(self) -> str:
        chosen = self.template if self.plural is None or self.count == 1 else self.plural
        return chosen.format(**self.params)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params!r})"


class Refusal(NotDone):
    """A request the rules do not allow."""


# The clicked board shows an older state than the stored game.


class OutdatedBoard(Refusal):
    """The request was made on a board that no longer shows the game: adapters redraw it."""


class StaleBoard(OutdatedBoard):
    template = N_("That board is out of date: the game has moved on since.")


class GameOver(OutdatedBoard):
    template = N_("This game is over.")


class NotPending(OutdatedBoard):
    template = N_("That challenge has already been answered or has expired.")


# Finding the game a request is about.


class NoGame(Refusal):
    template = N_("There is no game running in this channel.")


class GameElsewhere(NoGame):
    template = N_("That game is not in this channel.")


class UnknownGame(NoGame):
    template = N_("That game does not exist.")


class NoGameNumbered(UnknownGame):
    template = N_("There is no game {game}.")

    def __init__(self, game: int) -> None:
        super().__init__(game=game)


# Looking back at games: reviews, replays, game lists.


class NoFinishedGame(NoGame):
    template = N_("You have no finished game here yet.")


class NothingToReview(Refusal):
    template = N_("Game {game} has no moves, so there is nothing to review.")

    def __init__(self, game: int) -> None:
        super().__init__(game=game)


class NothingToReplay(Refusal):
    template = N_("Game {game} has no moves, so there is nothing to replay.")

    def __init__(self, game: int) -> None:
        super().__init__(game=game)


class PlayedElsewhere(Refusal):
    """A game played in another server, looked at from here."""

    template = N_("That game was played in another server; look at it from there.")


class PrivateGame(PlayedElsewhere):
    """A game played outside servers, asked for by someone who neither played it nor was there."""

    template = N_("That game was played in a conversation you were not part of.")


class StillPlaying(Refusal):
    template = N_("Game {game} is still going on; look back at it once it is over.")

    def __init__(self, game: int) -> None:
        super().__init__(game=game)


# Moves.


class CannotMove(Refusal):
    """A move the rules do not allow in the current position."""


class NotStarted(CannotMove):
    template = N_("The challenge has not been accepted yet.")


class NotYourTurn(CannotMove):
    template = N_("It is not your turn: {name} ({mark}) is to move.")

    def __init__(self, name: str, mark: str) -> None:
        super().__init__(name=name, mark=mark)


class OpponentToMove(NotYourTurn):
    """The opponent on turn has no known display name."""

    template = N_("It is not your turn: your opponent ({mark}) is to move.")

    def __init__(self, mark: str) -> None:
        Refusal.__init__(self, mark=mark)


class BotToMove(CannotMove):
    template = N_("Wait for my move; it is not your turn yet.")


class BadCell(CannotMove):
    """A cell that names no cell of the board."""

    template = N_("There is no cell {cell} on a {size}x{size} board. Name a cell as 1-{cells} or a1-{last}.")

    def __init__(self, cell: str, size: int) -> None:
        super().__init__(cell=cell, size=size, cells=size * size, last=_letters(size))


class NotACell(BadCell):
    template = N_("'{cell}' is not a cell. Name a cell as 1-{cells} or a1-{last}.")


class NoCellGiven(BadCell):
    template = N_("Name a cell as 1-{cells} or a1-{last}; you gave nothing.")

    def __init__(self, size: int) -> None:
        super().__init__("", size)


class CellTaken(CannotMove):
    template = N_("That cell ({cell}) is already taken.")

    def __init__(self, cell: str) -> None:
        super().__init__(cell=cell)


# Who may do what.


class NotAPlayer(Refusal):
    template = N_("You are not playing in this game.")


class NotRematchPlayer(NotAPlayer):
    template = N_("Only the players of that game can ask for a rematch.")


class NotChallenged(Refusal):
    template = N_("Only {name} can answer this challenge.")

    def __init__(self, name: str) -> None:
        super().__init__(name=name)


class NotChallengedUnnamed(NotChallenged):
    """The challenged player has no known display name."""

    template = N_("Only the challenged player can answer this challenge.")

    def __init__(self) -> None:
        Refusal.__init__(self)


class NotAllowed(Refusal):
    template = N_("Only the players or a moderator can cancel this game.")


class AlreadyOver(GameOver):
    """Cancelling a game that has ended (a command, not a click: no board to redraw)."""

    template = N_("This game is already over.")


class ResignBeforeStart(NotStarted):
    template = N_("The challenge has not been accepted yet; cancel it instead.")


class NotFinished(Refusal):
    template = N_("A rematch can follow only a finished game.")


# Starting games and challenges.


class CannotStart(Refusal):
    """A game or challenge that cannot start."""


class GameRunning(CannotStart):
    """The channel already has its one live game."""

    template = N_("A game is already running in this channel.")


class ChallengeWaiting(GameRunning):
    template = N_("A challenge is already waiting for an answer in this channel.")


class BadSize(CannotStart):
    template = N_("The board must be 3x3, 4x4 or 5x5.")


class SelfChallenge(CannotStart):
    template = N_("You can't challenge yourself; start a game without an opponent to play me.")


class BotChallenge(CannotStart):
    template = N_("Bots can't play; challenge a person, or start a game without an opponent to play me.")


class Cooldown(CannotStart):
    """Too many starts in a short time; ``retry_after`` seconds from now a start succeeds."""

    template, plural = N_plural(
        "You started a game moments ago; you can start another in {seconds} second.",
        "You started a game moments ago; you can start another in {seconds} seconds.",
    )

    def __init__(self, retry_after: float) -> None:
        self.retry_after = retry_after
        super().__init__(seconds=max(1, -int(-retry_after // 1)))

    @property
    def count(self) -> int:
        """The whole seconds to wait, for plural forms."""
        seconds = self.params["seconds"]
        assert isinstance(seconds, int)
        return seconds


class ChannelNotForGames(CannotStart):
    """The server allows games in other channels only; ``channel`` is one of them."""

    template = N_("Games aren't played in this channel; go to <#{channel}>.")

    def __init__(self, channel: int) -> None:
        super().__init__(channel=channel)


class RoleNeeded(CannotStart):
    """The server requires a role to start or accept a game, which the member does not have."""

    template = N_("You need the <@&{role}> role to start or accept a game here.")

    def __init__(self, role: int) -> None:
        super().__init__(role=role)


class BadOption(Refusal):
    """A slash-command option's value outside its choices (a forged or outdated client)."""

    template = N_("That is not a choice for {option}; please pick one from the list.")

    def __init__(self, option: str) -> None:
        super().__init__(option=option)


# Server settings.


class SettingsOutsideServer(Refusal):
    template = N_("Settings belong to a server; use /ttt settings in one.")


class NotManager(Refusal):
    template = N_("Only members with the Manage Server permission can see and change the settings.")


class BadTimeout(Refusal):
    """A timeout outside the bounds a server may choose."""

    def __init__(self, given: int, low: int, high: int) -> None:
        super().__init__(given=given, low=low, high=high)


class BadTurnTimeout(BadTimeout):
    template = N_(
        "The time for each move must be from {low} to {high} seconds (0 puts the default back);"
        " {given} is not. Nothing was changed."
    )


class BadChallengeTimeout(BadTimeout):
    template = N_(
        "The time to answer a challenge must be from {low} to {high} seconds (0 puts the default back);"
        " {given} is not. Nothing was changed."
    )


class TooManyChannels(Refusal):
    template = N_("A server can list at most {limit} channels for games; remove one first.")

    def __init__(self, limit: int) -> None:
        super().__init__(limit=limit)


# Arenas.


class ArenaOutsideServer(Refusal):
    template = N_("Arenas are played in servers only.")


class ArenaInThread(Refusal):
    template = N_("Open an arena in a channel, not in a thread: its games get threads of their own.")


class ArenaHere(Refusal):
    template = N_("An arena is already open in this channel.")


class NoArena(Refusal):
    template = N_("There is no arena in this channel.")


class NoArenaInServer(Refusal):
    template = N_("This server has had no arena yet.")


class ArenaStarted(Refusal):
    template = N_("This arena has already started, so it takes no more players.")


class ArenaFull(Refusal):
    template = N_("This arena is full.")


class ArenaOver(Refusal):
    template = N_("This arena is over.")


class AlreadyInArena(Refusal):
    template = N_("You are already in this arena.")


class NotInArena(Refusal):
    template = N_("You are not in this arena.")


class NotArenaOpener(Refusal):
    template = N_("Only the member who opened the arena, or one who can manage the server, can do that.")


class TooFewArenaPlayers(Refusal):
    template = N_("An arena needs at least 3 players to start.")


class BadArenaRounds(Refusal):
    template = N_("An arena plays from 1 to 9 rounds.")


class BadLobbyMinutes(Refusal):
    template = N_("An arena waits for players from 1 to 60 minutes.")


class ArenaGameCancel(Refusal):
    template = N_("An arena game can't be cancelled by its players; resign instead.")


# The store.


class Unavailable(NotDone):
    """The database cannot be reached or is locked; the same request can succeed a moment later."""

    template = N_("The game database is busy right now; please try again in a moment.")


# The engine.


class EngineUnavailable(NotDone):
    """The engine's worker died twice under an analysis (a hint, a review); a new one is starting."""

    template = N_("The engine stopped while it was thinking; please try again in a moment.")
