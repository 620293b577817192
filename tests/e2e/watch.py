"""Watching a table through the emulator after every commit (issue #27: the table never goes silent):
what each waiting seat was told and holds, and what a round costs; the five seeded games the checks
play (tests/e2e/test_every_decision_told.py, tests/e2e/noise.py, tests/e2e/test_ai_seats.py)."""

from __future__ import annotations

import re
from collections import Counter

from bot.games.registry import engines
from bot.tools.emulator.errors import EmulatorError
from bot.tools.emulator.players import Driver, Inventor, Player
from bot.tools.emulator.tables import open_table, start

ENGINES = engines()
SILENT = 4096  # SUPPRESS_NOTIFICATIONS: a message that notifies no one
_MOVE_ID = re.compile(r"mv:1:([0-9]+):([0-9]+):")


class Hermit(Player):
    """A player whose DMs are closed: moves by /<game> play, when the list offers a move."""

    async def act(self, thread) -> bool:
        return await self.by_slash(thread)

    def has_new_dm(self) -> bool:
        return False


class Watch:
    """Checks, after each commit, that every waiting seat was told once and holds live controls
    (`strict`), and counts what the table costs (tests/e2e/noise.py prints it)."""

    def __init__(self, w, kind: str, thread, strict: bool = True) -> None:
        self.w, self.emu, self.kind, self.thread, self.strict = w, w.emu, kind, thread, strict
        self.seen: set[int] = set()
        self.texts: dict[int, str] = {}  # thread post -> its text, to count edits
        self.posts = self.edits = self.pings = self.rounds = 0
        self.began: dict[int, int] = {}  # waiting seat -> the version its decision began at
        self.told = Counter()  # user -> decisions told (new DMs with controls, pings)
        self.notes = Counter()  # user -> notifications of any kind (new DMs, pings)
        self.decisions = Counter()  # user -> decisions begun
        self.commits = 0
        self.turn = None
        self.moved: set[int] = set()  # users who moved in this round (a round: each player has moved)

    def _note_new(self) -> tuple[list, dict[int, list]]:
        """The thread posts and DMs made since the last look."""
        posts = [m for m in self.emu.messages_in(self.thread) if m.id not in self.seen]
        dms = {}
        for user in self.w.players:
            dms[user.id] = [m for m in self.emu.dm_messages(user) if m.id not in self.seen]
        self.seen |= {m.id for m in posts} | {m.id for ms in dms.values() for m in ms}
        for m in self.emu.messages_in(self.thread):
            self.edits += m.id in self.texts and self.texts[m.id] != m.content
            self.texts[m.id] = m.content
        self.posts += len(posts)
        self.pings += sum(len(m.mentions) for m in posts)
        return posts, dms

    async def check(self, actor=None) -> None:
        await self.w.bot.table.drain(20)
        if actor is not None:
            self.moved.add(actor.id)
            if self.moved >= {u.id for u in self.w.players}:
                self.rounds, self.moved = self.rounds + 1, set()
        game = await self.w.bot.store.game(1)
        engine = ENGINES[self.kind]
        state = game.snapshot
        waiting = set() if engine.is_over(state) else set(engine.to_act(state))
        turn = engine.view(state, None).get("turn")
        new_turn, self.turn = turn != self.turn, turn
        posts, dms = self._note_new()
        timers = await self.w.bot.store.clocks.timer_seats(1, "remind")
        self.commits += 1
        where = f"{self.kind} version {game.version}"
        for seat in game.seats:
            user = seat.user_id
            pings = [m for m in posts if user in m.mentions]
            new_dms = [m for m in dms[user] if m.components and not m.flags & SILENT]
            told = len(pings) + len(new_dms)
            self.told[user] += told
            self.notes[user] += len(pings) + len([m for m in dms[user] if not m.flags & SILENT])
            if seat.seat not in waiting:
                self.began.pop(seat.seat, None)
                continue
            begins = seat.seat not in self.began or new_turn
            if begins:
                self.began[seat.seat] = game.version
                self.decisions[user] += 1
            if not self.strict:
                continue
            if begins:
                assert told == 1, (
                    f"{where}: {seat.name} starts a decision and was told {told} times "
                    f"({len(pings)} pings, {len(new_dms)} DMs)"
                )
            else:
                assert told == 0, f"{where}: {seat.name} was told again ({told}) in the same decision"
            assert seat.seat in timers, f"{where}: {seat.name} waits without a reminder timer"
            if seat.dm_ok:
                self.assert_live_controls(seat, game.version, where)

    def assert_live_controls(self, seat, version: int, where: str) -> None:
        user = self.emu.user(seat.user_id)
        live = [m for m in self.emu.dm_messages(user) if m.components and not m.deleted]
        assert live, f"{where}: {seat.name} waits and has no DM with controls"
        ids = [c.get("custom_id", "") for c in live[-1].all_components()]
        versions = {int(m[1]) for m in map(_MOVE_ID.match, ids) if m and int(m[2]) == seat.seat}
        assert versions == {seat.prompt_version}, (
            f"{where}: {seat.name}'s newest DM acts on version(s) {versions}, the seat is at {seat.prompt_version}"
        )
        assert seat.prompt_version >= self.began[seat.seat], (
            f"{where}: {seat.name}'s controls were made at {seat.prompt_version}, before its decision "
            f"began at {self.began[seat.seat]}"
        )


GAMES = {
    # kind: (options, seed, [(user, player class, style)])
    "heat": ({"track": "usa"}, 3, [("alice", Player, "select"), ("bob", Player, "slash"), ("hermit", Hermit, "slash")]),
    "pon": ({}, 2, [("alice", Player, "select"), ("bob", Player, "slash"), ("carol", Player, "select")]),
    "pole": (
        {"circuit": "monaco", "bots": 2},
        2,
        [("alice", Driver, "select"), ("bob", Driver, "slash"), ("carol", Driver, "select")],
    ),
    "rallyman": (
        {"stage": "Rally4 SS1"},
        2,
        [("alice", Player, "select"), ("bob", Player, "slash"), ("carol", Player, "select")],
    ),
    "steamworks": ({}, 5, [("alice", Inventor, "select"), ("bob", Inventor, "slash"), ("carol", Inventor, "select")]),
}


async def play(w, kind: str, strict: bool = True) -> Watch:
    """One seeded game of `kind` to the end, watched after every commit."""
    emu = w.emu
    options, seed, cast = GAMES[kind]
    w.bot.table.lobbies.new_seed = lambda: seed
    users = [getattr(w, name) for name, _, _ in cast]
    w.players = users
    lobby = await open_table(w, users[0], *users[1:], kind=kind, **options)
    thread = await start(w, lobby, users[0])
    players = [cls(emu, getattr(w, name), style, i + 1, kind) for i, (name, cls, style) in enumerate(cast)]
    watch = Watch(w, kind, thread, strict)
    await watch.check()  # the start: everyone waiting was told once

    async def over() -> bool:
        return (await w.bot.store.game(1)).status == "finished"

    for _ in range(3000):
        if await over():
            break
        moved = False
        for p in players:
            try:
                acted = await p.act(thread)
            except EmulatorError:  # the menu lost its controls as a newer one came: look again
                acted = False
            if acted:
                moved = True
                await watch.check(p.user)
        if not moved:
            waiting = ENGINES[kind].to_act((await w.bot.store.game(1)).snapshot)
            raise AssertionError(
                f"{kind}: nobody can move; the game waits for seats {waiting}:\n"
                + "\n".join(p.describe() for p in players)
            )
    assert await over(), f"{kind}: the game did not end"
    for p in players:
        assert not [e for e in p.errors if "went wrong" in e], p.errors
    return watch
