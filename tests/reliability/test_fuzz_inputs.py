"""Hostile and broken input, fuzzed with a seeded generator, through the real bot and the emulator.

Thousands of interactions that the rules must refuse (or answer read-only) are sent in
concurrent batches: every command option with forged values (``force=True``, as a
modified client could send), button clicks with forged custom ids on real boards, and
commands and forged clicks in DMs with the bot where no game runs. Each must get an answer,
the answer must be a clear sentence (never the apology for an unexpected error), the
database must be exactly as before, and the bot must log no traceback. Meanwhile another
member plays a game in another server, and each of their clicks must still be answered.

Boards for ``python -m bot analyze -`` go through one process, one line at a time.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.engine import Board, EngineInputError, parse_cell
from bot.exts.games.custom_ids import Action, Click, parse_custom_id
from discord_emulator import Channel, DiscordEmulator, Interaction, Member, Message
from tests.reliability import fuzzing
from tests.support.bot import BotUnderTest
from tests.support.concurrency import env_count, gather_limited
from tests.support.store import boards_recorded, query, snapshot
from tests.support.tables import Answers, Table, answer, board, click_cell, duel, free_cells

INPUTS = env_count("TTT_FUZZ_INPUTS", 3000)
"""Interactions through the emulator (CI default; the boards for analyze come on top)."""
DM_REFUSALS = ("There is no game running", "not in this channel", "not part of this game")
"""A DM with the bot holds no game here: its commands find none, boards forged into it belong elsewhere."""
BOARDS = env_count("TTT_FUZZ_BOARDS", 7200)
CONCURRENCY = 48
SEED = env_count("TTT_FUZZ_SEED", 20261123)
APOLOGY = "something went wrong"
AUTOCOMPLETE = 8

Send = Callable[[], Awaitable[Interaction]]


@dataclass
class Arena:
    """Games in every state, in their own channels, and the people around them."""

    table: Table
    other: Table
    active: Message
    """alice (X) against bob (O); alice has moved, bob is to move."""
    pending: Message
    """carol has challenged dave (a moderator); nobody answered yet."""
    vs_bot: Message
    """carol against me; carol is to move."""
    finished: Message
    """alice resigned against me."""
    elsewhere: Message
    """A game in another server (eve against me)."""
    empty: Channel
    gone: Member
    robot: Member
    games: dict[str, int] = field(default_factory=dict)
    dm_boards: list[Message] = field(default_factory=list)

    def channels(self) -> list[Channel]:
        return [
            self.active.channel,
            self.pending.channel,
            self.vs_bot.channel,
            self.finished.channel,
            self.empty,
        ]


def game_id_of(bot: BotUnderTest, channel: Channel) -> int:
    rows = query(bot, "SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel.id,))
    return int(rows[0][0])


async def build_arena(emu: DiscordEmulator, bot: BotUnderTest) -> Arena:
    table = Table.create(emu, "alice", "bob", "carol", "gone", moderators=("dave",))
    robot = emu.create_member(table.guild, "robot", bot=True)
    channel = table.new_channel
    active = await duel(table, "alice", "bob", channel=channel("active"))
    await click_cell(table, active, 4, "alice")
    pending = await answer(
        await table.slash("carol", "ttt start", where=channel("pending"), opponent=table["dave"])
    )
    vs_bot = await answer(await table.slash("carol", "ttt start", where=channel("vs-bot"), level="easy"))
    finished = await answer(await table.slash("alice", "ttt start", where=channel("finished"), level="easy"))
    await answer(await table.click(finished, finished.button(label="Resign").custom_id or "", "alice"))
    other = Table.create(emu, "eve", "probe")
    elsewhere = await answer(await other.slash("eve", "ttt start", level="easy"))
    gone = table["gone"]
    emu.remove_member(table.guild, gone)
    arena = Arena(table, other, active, pending, vs_bot, finished, elsewhere, channel("empty"), gone, robot)
    for name in ("alice", "bob"):
        # A board in a DM, as a forged client could click it: the bot never posts one there.
        body = {"components": active.components, "flags": active.flags}
        arena.dm_boards.append(emu.world.post_message(emu.dm_channel(table[name]), body))
    for name, message in (
        ("active", active),
        ("pending", pending),
        ("vs_bot", vs_bot),
        ("finished", finished),
        ("elsewhere", elsewhere),
    ):
        arena.games[name] = game_id_of(bot, message.channel)
    return arena


def valid_move(text: str, message: Message) -> bool:
    """Whether ``text`` names a free cell of the board ``message`` shows (so it would be played)."""
    try:
        return parse_cell(text, len(message.rows[0])) in free_cells(message)
    except (EngineInputError, ValueError):
        return False


class Generator:
    """One hostile interaction per call, and what kind of answer it must get."""

    def __init__(self, emu: DiscordEmulator, arena: Arena, rng: random.Random) -> None:
        self.emu, self.arena, self.rng = emu, arena, rng
        self.last = ""
        self.descriptions: list[str] = []

    def member(self, name: str) -> Member:
        return self.arena.table[name]

    def __call__(self) -> tuple[str, Send]:
        kind = self.rng.choice(
            (
                "move",
                "move",
                "move",
                "start",
                "start",
                "control",
                "read",
                "autocomplete",
                "click",
                "click",
                "dm",
            )
        )
        self.last = ""
        send = getattr(self, kind)()
        self.descriptions.append(self.last)
        return kind, send

    def move(self) -> Send:
        arena, rng = self.arena, self.rng
        where, who = rng.choice(
            (
                (arena.active, "bob"),  # on turn: only cells that are not a free cell
                (arena.active, "alice"),  # not on turn
                (arena.active, "carol"),  # not a player
                (arena.vs_bot, "carol"),  # on turn
                (arena.pending, "dave"),
                (arena.finished, "alice"),
                (None, "bob"),  # a channel without a game
            )
        )
        text = fuzzing.cell_text(rng)
        while where is not None and where is not arena.pending and valid_move(text, where):
            text = fuzzing.cell_text(rng)
        channel = arena.empty if where is None else where.channel
        self.last = f"{who} in {channel.name}: {text[:100]!r}"
        return lambda: self.emu.slash(channel, self.member(who), "ttt move", cell=text, force=True)

    def start(self) -> Send:
        arena, rng = self.arena, self.rng
        busy = rng.random() < 0.3
        channel = rng.choice((arena.active.channel, arena.pending.channel, arena.vs_bot.channel))
        if not busy:
            channel = rng.choice((arena.empty, arena.finished.channel))
        who = rng.choice(("alice", "bob", "carol"))
        options: dict[str, Any] = {}
        if rng.random() < 0.7:
            options["size"] = rng.choice((fuzzing.number(rng), 3, 4, 5, "5", "three", 3.5))
        if rng.random() < 0.5:
            options["level"] = rng.choice((fuzzing.word(rng), "easy", "perfect"))
        if rng.random() < 0.5:
            options["first"] = rng.choice((fuzzing.word(rng), "me", "random"))
        opponent = rng.choice((None, "self", "robot", "gone", "bot", "human", "stranger"))
        targets = {
            "self": self.member(who),
            "robot": arena.robot,
            "gone": arena.gone.user,
            "bot": self.emu.bot,
            "human": self.member("dave"),
            "stranger": arena.other["eve"].user,
        }
        if opponent is not None:
            options["opponent"] = targets[opponent]
        if not busy and self._would_start(options, opponent):
            options["size"] = rng.choice((0, 2, 6, -3, 7, 2**40))
        self.last = f"{who} in {channel.name}: {options}"
        return lambda: self.emu.slash(channel, self.member(who), "ttt start", force=True, **options)

    @staticmethod
    def _would_start(options: dict[str, Any], opponent: str | None) -> bool:
        """Whether every option is valid, so the start would succeed (such inputs are not sent here)."""
        size_ok = options.get("size", 3) in (3, 4, 5) and not isinstance(options.get("size"), float | str)
        level = options.get("level")
        first_ok = options.get("first", "me") in ("me", "opponent", "random")
        if opponent in (None, "bot"):
            return size_ok and first_ok and level in (None, "", "easy", "medium", "hard", "perfect")
        return opponent == "human" and size_ok and first_ok and level is None

    def control(self) -> Send:
        arena, rng = self.arena, self.rng
        command, channel, who = rng.choice(
            (
                ("ttt resign", arena.active.channel, "carol"),
                ("ttt resign", arena.pending.channel, "bob"),
                ("ttt resign", arena.empty, "alice"),
                ("ttt resign", arena.finished.channel, "alice"),
                ("ttt cancel", arena.active.channel, "carol"),
                ("ttt cancel", arena.vs_bot.channel, "bob"),
                ("ttt cancel", arena.empty, "dave"),
                ("ttt cancel", arena.finished.channel, "alice"),
                ("ttt hint", arena.active.channel, "alice"),
                ("ttt hint", arena.active.channel, "carol"),
                ("ttt hint", arena.pending.channel, "carol"),
                ("ttt hint", arena.empty, "bob"),
                ("ttt board", arena.empty, "carol"),
                ("ttt board", arena.finished.channel, "carol"),
            )
        )
        return lambda: self.emu.slash(channel, self.member(who), command, force=True)

    def read(self) -> Send:
        arena, rng = self.arena, self.rng
        channel = rng.choice(arena.channels())
        who = self.member(rng.choice(("alice", "bob", "carol", "dave")))
        if rng.random() < 0.5:
            target = rng.choice((arena.gone.user, arena.robot, self.emu.bot, arena.other["eve"].user, who))
            return lambda: self.emu.slash(channel, who, "ttt stats", user=target, force=True)
        scope = rng.choice((fuzzing.word(rng), "server", "global"))
        return lambda: self.emu.slash(channel, who, "ttt leaderboard", scope=scope, force=True)

    def autocomplete(self) -> Send:
        arena, rng = self.arena, self.rng
        channel = rng.choice(arena.channels())
        who = self.member(rng.choice(("alice", "bob", "carol")))
        text = fuzzing.cell_text(rng)
        return lambda: self.emu.autocomplete(channel, who, "ttt move", focused="cell", cell=text, force=True)

    def click(self) -> Send:
        arena, rng = self.arena, self.rng
        message = rng.choice((arena.active, arena.pending, arena.vs_bot, arena.finished, arena.elsewhere))
        table = arena.other if message is arena.elsewhere else arena.table
        who = (
            table[rng.choice(("eve", "probe"))]
            if table is arena.other
            else self.member(rng.choice(("alice", "bob", "carol", "dave")))
        )
        ids = list(arena.games.values())
        custom_id = fuzzing.custom_id(rng, ids, 1)
        while self._would_act(message, custom_id, who):
            custom_id = fuzzing.custom_id(rng, ids, 1)
        self.last = f"{who.user.username} on {message.channel.name}: {custom_id!r}"
        return lambda: self.emu.click(message, custom_id, who, force=True)

    def _would_act(self, message: Message, custom_id: str, who: Member) -> bool:
        """Whether the click would be a real action (the move on turn, a player resigning, an answer)."""
        arena = self.arena
        asked = parse_custom_id(custom_id)
        own = next((gid for name, gid in arena.games.items() if getattr(arena, name) is message), None)
        if asked is None or asked.game_id != own:
            return False
        action = asked.action.value
        if message is arena.active:
            on_turn = who.id == self.member("bob").id
            if action == "cell":
                return on_turn and asked.ply == 1
            return action == "resign" and who.id in (self.member("alice").id, self.member("bob").id)
        if message is arena.pending:
            return action in ("accept", "decline") and who.id == self.member("dave").id
        if message is arena.finished:
            return action == "rematch" and who.id == self.member("alice").id
        if message in (arena.vs_bot, arena.elsewhere):
            player = self.member("carol") if message is arena.vs_bot else arena.other["eve"]
            return who.id == player.id and action in ("cell", "resign")
        return False

    def dm(self) -> Send:
        rng = self.rng
        who = self.member(rng.choice(("alice", "bob")))
        channel = self.emu.dm_channel(who)
        if rng.random() < 0.4:
            board = next(m for m in self.arena.dm_boards if m.channel is channel)
            active = self.arena.games["active"]
            custom_id = rng.choice(
                (
                    Click(Action.CELL, active, 1, rng.randrange(9)).custom_id,
                    f"ttt:resign:{active}",
                    board.buttons[0].custom_id or "x",
                )
            )
            self.last = f"{who.user.username} clicks {custom_id!r} in a DM"
            return lambda: self.emu.click(board, custom_id, who.user, force=True)
        options: dict[str, Any]
        command, options = rng.choice(
            (
                ("ttt move", {"cell": fuzzing.cell_text(rng)}),
                ("ttt board", {}),
                ("ttt resign", {}),
                ("ttt cancel", {}),
                ("ttt hint", {}),
            )
        )
        return lambda: self.emu.slash(channel, who.user, command, options, force=True)


async def probe_player(emu: DiscordEmulator, arena: Arena, stop: asyncio.Event) -> tuple[int, int]:
    """Another member plays games against me while the fuzzing runs; every click must be answered."""
    table = arena.other
    channel = table.new_channel("probe")
    clicks = games = 0
    message: Message | None = None
    while not stop.is_set() or clicks == 0:
        if message is None or not free_cells(message):
            await answer(await table.slash("probe", "ttt start", where=channel, level="easy"))
            message = emu.last_message(channel)
            assert message is not None
            games += 1
        before = board(message)
        await click_cell(table, message, free_cells(message)[0], "probe")
        assert board(message) != before
        clicks += 1
    return clicks, games


@pytest.mark.e2e
@pytest.mark.asyncio(loop_scope="module")
async def test_hostile_interactions_are_refused_and_change_nothing(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    arena = await build_arena(emu, bot)
    probe_id = arena.other["probe"].id
    answers = Answers(emu)
    rng = random.Random(SEED)
    generate = Generator(emu, arena, rng)
    inputs = [generate() for _ in range(INPUTS)]
    await boards_recorded(bot)
    before = await snapshot(bot.env["DATABASE_URL"])
    stop = asyncio.Event()
    probe = asyncio.ensure_future(probe_player(emu, arena, stop))

    async def run(index: int, kind: str, send: Send) -> tuple[int, str, bool, str]:
        it = await send()
        if kind == "autocomplete":
            await it.wait_callback(timeout=15)
            assert it.callback is not None and it.callback.type == AUTOCOMPLETE, it
            return index, kind, True, json.dumps(it.choices)
        ephemeral, text = await answers.of(it)
        return index, kind, ephemeral, text

    results = await gather_limited((run(i, kind, send) for i, (kind, send) in enumerate(inputs)), CONCURRENCY)
    stop.set()
    probe_clicks, probe_games = await probe

    counts: dict[str, int] = {}
    for index, kind, ephemeral, text in results:
        counts[kind] = counts.get(kind, 0) + 1
        context = f"input {index} ({kind} {generate.descriptions[index]}, seed {SEED}): {text[:300]!r}"
        assert text.strip(), context
        assert APOLOGY not in text.lower(), context
        if kind == "read":
            is_stats = "stats" in text.lower()
            assert is_stats or "leaderboard" in text.lower(), context
            assert ephemeral == is_stats, (
                f"stats are the asker's alone, the leaderboard everyone's; {context}"
            )
        elif kind == "autocomplete":
            choices = json.loads(text)
            assert len(choices) <= 25 and all(len(c["name"]) <= 100 for c in choices), context
        elif not ephemeral:
            raise AssertionError(f"a refusal must be private; {context}")
        if kind == "dm":
            assert any(reason in text for reason in DM_REFUSALS), context
    after = await snapshot(bot.env["DATABASE_URL"])
    unchanged_but_probe(before, after, probe_id)
    text = bot.log_text()
    assert "Traceback" not in text and "Unexpected error" not in text, text[-5000:]
    print(
        f"fuzzed {len(results)} interactions {counts}; meanwhile the probe played {probe_clicks} clicks "
        f"in {probe_games} games, all answered"
    )


def unchanged_but_probe(before: dict[str, Any], after: dict[str, Any], probe_id: int) -> None:
    """Every row as before, except the probe's games, moves, player and ratings."""
    probe_games = {row[0] for row in after["games"] if probe_id in (row[6], row[7])}
    for table in ("players", "games", "moves", "ratings"):
        old, new = set(before[table]), set(after[table])
        changed = [
            row
            for row in old ^ new
            if not (
                (table == "players" and row[0] == probe_id)
                or (table == "ratings" and row[0] == probe_id)
                or (table in ("games", "moves") and row[0] in probe_games)
            )
        ]
        assert not changed, f"{table} changed: {changed[:5]}"


def test_analyze_answers_every_fuzzed_board_through_one_process() -> None:
    rng = random.Random(SEED)
    boards = [fuzzing.board_text(rng) for _ in range(BOARDS)]
    boards = [text for text in boards if text.strip()]  # analyze skips blank lines
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "analyze", "-", "--budget-ms", "5"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    out, err = process.communicate("\n".join(boards) + "\n", timeout=120)
    lines = out.rstrip("\n").split("\n")
    assert len(lines) == len(boards), err[-3000:]
    valid = 0
    for text, line in zip(boards, lines, strict=True):
        result = json.loads(line)
        try:
            expected: Board | None = Board.parse(text)
        except EngineInputError:
            expected = None
        if expected is None:
            assert set(result) >= {"board", "error"} and result["error"], (text, result)
            continue
        valid += 1
        assert "error" not in result, (text, result)
        assert result["size"] == expected.size and result["board"] == expected.compact
        empty = [cell for cell in range(expected.cells) if expected[cell] is None]
        if expected.is_over:
            assert result["moves"] == [] and result["best"] == [] and result["value"] is None
        else:
            assert [move["cell"] for move in result["moves"]] == empty
            assert set(result["best"]) <= set(empty) and result["best"]
    assert process.returncode == (0 if valid == len(boards) else 1)
    assert "Traceback" not in err, err[-3000:]
    print(f"analyze: {len(boards)} boards through one process, {valid} valid, {len(boards) - valid} refused")
