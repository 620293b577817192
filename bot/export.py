"""A finished game as a file, and its boards again: `/game export` writes the JSON (options, seed,
seats' names, rules version, action log), `python -m bot replay FILE` turns one back into board
images, and the game-end post's animation is drawn here (in a worker process, off the event loop).

Nothing here imports discord: the worker process and the command line use it without the bot.

  python -m bot replay FILE [--out DIR] [--animation] [--format gif|webp] [--locale en|ja]
      FILE: a /game export. Writes DIR/board-001.png (or .webp)... (one per turn, as the thread showed them;
      DIR defaults to FILE without its .json), or with --animation one DIR.gif (or .webp) instead,
      and prints where. Checks that the log replays to the export's final state (a game begun under
      older rules is replayed under them: replayed_export)."""

from __future__ import annotations

import hashlib
import json
import logging
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from bot.games.base import Action, Engine, Event, GameError, State, begin
from bot.workers import Workers
from rendering.registry import renderer

log = logging.getLogger(__name__)

FORMAT = "discord-board-games/export"
FORMAT_VERSION = 1
MAX_EXPORT_BYTES = 20 * 1024 * 1024  # a file bigger than this is not a game (the longest are ~1 MB)
TURN_FRAMES = 60  # a game with more turns than this is animated one frame per round


class ExportError(Exception):
    """A file that is not a usable export: the message says what is wrong with it."""


def digest(state: State) -> str:
    """A short fingerprint of a state (the export's final state is checked by it, not shipped:
    a state holds deck orders and hands that no player saw)."""
    return hashlib.sha256(orjson.dumps(state, option=orjson.OPT_SORT_KEYS)).hexdigest()[:32]


def export_doc(engine: Engine, game: Any, actions: list[tuple[int, Action]]) -> dict[str, Any]:
    """The export of a finished (or abandoned) `game` (a bot.store.Game) whose log is `actions`.
    Seats carry their names only (no Discord ids)."""
    snapshot = game.snapshot or {}
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.kind,
        "title": engine.title,
        "id": game.id,
        "status": game.status,
        "rules_version": snapshot.get("rules_version", engine.rules_version),
        "options": game.options,
        "seed": game.seed,
        "locale": game.locale,
        "seats": [{"seat": s.seat, "name": s.name, **({"ai": s.ai} if s.ai else {})} for s in game.seats],
        "actions": [[seat, action] for seat, action in actions],
        "final": digest(snapshot) if snapshot else None,
    }


def dumps(doc: dict[str, Any]) -> bytes:
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2)


@dataclass
class Export:
    """A loaded export, checked: enough to replay the game."""

    kind: str
    options: dict[str, Any]
    seed: int
    names: list[str]
    rules_version: int
    actions: list[tuple[int, Action]]
    final: str | None
    locale: str | None
    id: int | None = None


def load(data: bytes | str, engines: dict[str, Engine]) -> Export:
    """Parse and check an export; ExportError says what is wrong (never a traceback)."""
    if len(data) > MAX_EXPORT_BYTES:
        raise ExportError(f"the file is over {MAX_EXPORT_BYTES // 2**20} MiB: not a game export")
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError) as err:
        raise ExportError(f"not JSON ({err})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ExportError(f'not a game export (its "format" should be {FORMAT!r})')
    if doc.get("format_version") != FORMAT_VERSION:
        raise ExportError(f"export format version {doc.get('format_version')!r}; this bot reads {FORMAT_VERSION}")
    kind = doc.get("game")
    if kind not in engines:
        raise ExportError(f"unknown game {kind!r}; this bot has {', '.join(sorted(engines))}")
    engine = engines[kind]
    seats, actions, seed = doc.get("seats"), doc.get("actions"), doc.get("seed")
    if not isinstance(seats, list) or not all(isinstance(s, dict) and isinstance(s.get("name"), str) for s in seats):
        raise ExportError('"seats" should be a list of {"seat", "name"}')
    if not engine.min_seats <= len(seats) <= engine.max_seats:
        raise ExportError(f"{len(seats)} seats; {kind} seats {engine.min_seats} to {engine.max_seats}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ExportError('"seed" should be an integer')
    if not isinstance(actions, list) or not all(
        isinstance(a, list) and len(a) == 2 and isinstance(a[0], int) and isinstance(a[1], dict) for a in actions
    ):
        raise ExportError('"actions" should be a list of [seat, action] pairs')
    options = doc.get("options")
    if not isinstance(options, dict):
        raise ExportError('"options" should be an object')
    rules = doc.get("rules_version")
    # (newer rules are unknown here; older ones replayed_export tries, as the game was begun under them)
    if not isinstance(rules, int) or isinstance(rules, bool) or rules > engine.rules_version:
        raise ExportError(
            f"the game was played under {kind} rules version {rules}; this bot plays version "
            f"{engine.rules_version}, so its moves would not replay the same"
        )
    locale = doc.get("locale")
    return Export(
        kind,
        options,
        seed,
        [s["name"] for s in seats],
        rules,
        [(a[0], a[1]) for a in actions],
        doc.get("final") if isinstance(doc.get("final"), str) else None,
        locale if isinstance(locale, str) else None,
        doc.get("id") if isinstance(doc.get("id"), int) else None,
    )


# -- the boards again ------------------------------------------------------------------------------


def turn_starts(
    engine: Engine,
    options: dict[str, Any],
    seats: int,
    seed: int,
    actions: list[tuple[int, Action]],
    key: str = "turn",
    rules_version: int | None = None,
) -> tuple[list[State], bool]:
    """The state at the start of each turn (the spectator view's `key` changes: "turn", or "post"
    for one per round, whose default is the turn), then the final one; and whether the whole log
    replayed (a game finished under older rules may refuse a move today: the boards stop there)."""

    def mark(state: State) -> Any:
        view = engine.view(state, None)
        return view.get(key, view.get("turn"))

    state = begin(engine, options, seats, seed, rules_version)
    boards, turn = [state], mark(state)
    for seat, action in actions:
        try:
            state, _ = engine.apply(state, seat, action)
        except GameError:
            return boards, False
        now = mark(state)
        if now != turn:
            boards.append(state)
            turn = now
    if boards[-1] is not state:
        boards.append(state)
    return boards, True


def frame_states(
    engine: Engine,
    options: dict[str, Any],
    seats: int,
    seed: int,
    actions: list[tuple[int, Action]],
    rules_version: int | None = None,
) -> tuple[list[State], bool]:
    """The states an animation shows: one per turn, or one per round when turns are many."""
    played = replay_log(engine, options, seats, seed, actions, rules_version)
    return frames_of(engine, played.states, played.whole), played.whole


Step = tuple[State, int, Action, State, list[Event]]


@dataclass
class Replayed:
    """A game's log replayed once: each move as (state before, seat, action, state after, events),
    as bot/games/stats.py reads them, and whether the whole log replayed (a move today's rules
    refuse ends it). A game's end draws both its statistics and its animation from one."""

    first: State
    steps: list[Step]
    whole: bool

    @property
    def states(self) -> list[State]:
        """The new game's state, then the state after each move."""
        return [self.first, *(step[3] for step in self.steps)]


def replay_log(
    engine: Engine,
    options: dict[str, Any],
    seats: int,
    seed: int,
    actions: list[tuple[int, Action]],
    rules_version: int | None = None,
) -> Replayed:
    state = begin(engine, options, seats, seed, rules_version)
    played = Replayed(state, [], True)
    for seat, action in actions:
        try:
            after, events = engine.apply(state, seat, action)
        except GameError:
            played.whole = False
            break
        played.steps.append((state, seat, action, after, events))
        state = after
    return played


def frames_of(engine: Engine, states: list[State], whole: bool = True) -> list[State]:
    """Of a replay's states (`Replayed.states`), those an animation shows: the start of each turn
    (the spectator view's "turn" changes) then the final one, or of each round (its "post") when
    turns are more than TURN_FRAMES (as turn_starts picks them; no final state where the log did
    not replay whole). One spectator view per state."""
    turns, rounds = [], []
    for state in states:
        view = engine.view(state, None)
        turns.append(view.get("turn"))
        rounds.append(view.get("post", view.get("turn")))

    def starts(marks: list[Any]) -> list[State]:
        boards, mark = [states[0]], marks[0]
        for state, now in zip(states[1:], marks[1:]):
            if now != mark:
                boards.append(state)
                mark = now
        if whole and boards[-1] is not states[-1]:
            boards.append(states[-1])
        return boards

    boards = starts(turns)
    if len(boards) > TURN_FRAMES:
        by_round = starts(rounds)
        if len(by_round) >= 8:  # a game whose "post" is its turn (Heat) keeps its turns
            boards = by_round
    return boards


def board_image(kind: str, engine: Engine, state: State, names: list[str], locale: str) -> bytes:
    return renderer(kind).board(engine.view(state, None), names, locale)


@dataclass
class Drawn:
    """An animation for the thread and what it cost."""

    data: bytes
    format: str
    frames: int  # frames in the animation
    boards: int  # boards replayed
    size: tuple[int, int]
    seconds: float  # replay, drawing and encoding
    whole: bool  # the whole log replayed


def animation(
    kind: str,
    options: dict[str, Any],
    seats: int,
    seed: int,
    actions: list[tuple[int, Action]],
    names: list[str],
    locale: str,
    formats: tuple[str, ...] | None = None,
    rules_version: int | None = None,
) -> Drawn | None:
    """A game's boards as one animation; None when nothing fits Discord's upload limit."""
    from bot.games.registry import engines

    started = time.perf_counter()
    states, whole = frame_states(engines()[kind], options, seats, seed, actions, rules_version)
    drawn = animate_frames(kind, states, whole, names, locale, formats)
    if drawn is not None:
        drawn.seconds = time.perf_counter() - started
    return drawn


def animate_frames(
    kind: str, states: list[State], whole: bool, names: list[str], locale: str, formats: tuple[str, ...] | None = None
) -> Drawn | None:
    """The animation of these frames (frames_of: a replay already made), drawn and encoded (runs
    in a worker process: a top-level function, plain arguments); None when nothing fits Discord's
    upload limit."""
    from bot.games.registry import engines
    from rendering import animation as anim

    started = time.perf_counter()
    engine = engines()[kind]
    boards = [board_image(kind, engine, s, names, locale) for s in states]
    made = anim.animate(boards, formats=formats or anim.FORMATS)
    if made is None:
        return None
    return Drawn(made.data, made.format, made.frames, len(boards), made.size, time.perf_counter() - started, whole)


class Animator:
    """Animations off the event loop: one worker process at a time (spawned, not forked, for each
    game end), so drawing a hundred boards never holds up the other tables' moves."""

    def __init__(self) -> None:
        # A worker lives for one animation: drawing a long game takes a few hundred MB, which a
        # process that lived on would keep; starting one costs ~2 s at a game's end. A worker that
        # died (killed, out of memory) fails its animation; the next game end starts another.
        self.workers = Workers(1, tasks_per_worker=1)

    async def draw(self, kind: str, states: list[State], whole: bool, names: list[str], locale: str) -> Drawn | None:
        """animate_frames in the worker: `states` are the frames (frames_of), `whole` whether the
        log replayed whole."""
        return await self.workers.run(animate_frames, kind, states, whole, names, locale)

    def close(self) -> None:
        self.workers.close()


ANIMATOR = Animator()  # one worker for the whole process, shared by every table


# -- python -m bot replay FILE ---------------------------------------------------------------------


def replayed_export(engine: Engine, game: Export) -> list[State]:
    """A loaded export's turn starts, replayed under the rules it was begun under; ExportError when
    a move is refused or the log does not reach the final state. A game of older rules replays only
    where it reaches the final state it names (an engine that keeps the old rule by the stamp, or a
    change that never came up in this game): else nobody could tell it is the game as played."""
    states, whole = turn_starts(
        engine, game.options, len(game.names), game.seed, game.actions, rules_version=game.rules_version
    )
    if game.rules_version != engine.rules_version and (
        not whole or game.final is None or digest(states[-1]) != game.final
    ):
        raise ExportError(
            f"the game was played under {game.kind} rules version {game.rules_version}; this bot plays "
            f"version {engine.rules_version}, and its moves do not replay the same under them today"
        )
    if not whole:
        raise ExportError("a move in the log is refused by today's rules: the file does not replay")
    if game.final is not None and digest(states[-1]) != game.final:
        raise ExportError("the log does not replay to the game's final state")
    return states


def main(argv: list[str]) -> int:
    from bot.games.registry import engines
    from rendering import animation as anim

    args = list(argv)

    def option(name: str, default: str | None = None) -> str | None:
        if name in args:
            i = args.index(name)
            if i + 1 >= len(args):
                raise ExportError(f"{name} needs a value")
            value = args[i + 1]
            del args[i : i + 2]
            return value
        return default

    try:
        out = option("--out")
        fmt = option("--format")
        locale = option("--locale")
        animated = "--animation" in args or fmt is not None
        args = [a for a in args if a != "--animation"]
        if fmt not in (None, "gif", "webp"):
            raise ExportError(f"--format is gif or webp, not {fmt!r}")
        if locale not in (None, "en", "ja"):
            raise ExportError(f"--locale is en or ja, not {locale!r}")
        if len(args) != 1 or args[0].startswith("-"):
            raise ExportError(
                "usage: python -m bot replay FILE [--out DIR] [--animation] [--format gif|webp] [--locale en|ja]"
            )
        path = Path(args[0])
        try:
            data = path.read_bytes()
        except OSError as err:
            raise ExportError(f"cannot read {path}: {err.strerror or err}") from None
        table = engines()
        game = load(data, table)
        engine = table[game.kind]
        locale = locale or game.locale or "en"
        started = time.perf_counter()
        states = replayed_export(engine, game)
        target = Path(out) if out else path.with_suffix("")
        if animated:
            drawn = animation(
                game.kind,
                game.options,
                len(game.names),
                game.seed,
                game.actions,
                game.names,
                locale,
                (fmt,) if fmt else anim.FORMATS,
                game.rules_version,
            )
            if drawn is None:
                raise ExportError("the animation does not fit in 10 MiB even drawn small")
            file = target.with_name(target.name + f".{drawn.format}") if target.suffix != f".{drawn.format}" else target
            file.write_bytes(drawn.data)
            print(
                f"{file}: {drawn.frames} frames of {drawn.boards} boards, {drawn.size[0]}x{drawn.size[1]}, "
                f"{len(drawn.data)} bytes, {drawn.seconds:.1f} s"
            )
            return 0
        target.mkdir(parents=True, exist_ok=True)
        for i, state in enumerate(states, 1):
            image = board_image(game.kind, engine, state, game.names, locale)
            (target / f"board-{i:03d}.{anim.extension(image)}").write_bytes(image)
        print(f"{target}: {len(states)} boards, {time.perf_counter() - started:.1f} s")
        return 0
    except ExportError as err:
        print(f"replay: {err}", file=sys.stderr)
        return 2
