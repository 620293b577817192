"""The engine contract every game implements, and the small helpers all engines share.

An engine is a module-level object (see `Engine`) with pure functions over plain-data state:
- the state is a dict that round-trips through JSON exactly; it carries `schema` (an int) and
  `rng` (the `Rng` state int), so a game replays exactly from its seed and action log;
- `rules_version` (an int on the engine, stamped into the state by `new_game`) goes up whenever a
  change to rules or content makes an old game's log replay to another state; only a game on
  today's number can be checked by replaying it (tests/core/test_rules_versions.py guards it);
- `apply` never mutates its input: it returns a new state and a list of `Event`s;
- `view(state, viewer)` is the only way information leaves the engine. viewer is a seat index
  or None for a spectator. Channel images, logs and embeds come from the spectator view; a DM
  from that seat's view. Nothing else reads the raw state for output.
- `menu(state, seat)` describes the buttons and selects a seat may use right now, built only
  from what that seat may see. The table turns it into Discord components.

Every engine keeps these the same way (issue #29):
- the state's `phase` (a str, "over" once the game has ended) and `seats` (the number of seats);
- a move is {"type": ..., ...}; a select's chosen values arrive as "values" (a list of str), read
  with `chosen(action)`;
- `apply` is this class's: it checks the move's shape (`check_move`), finds the handler declared
  with `@move(type, phases=...)`, copies the state once (`copy_state`, by default `clone`) and lets
  the handler change the copy in place (`apply_in_place`, which the AI's look-ahead calls on a state of its own);
- options are declared as `OptionSpec`s and filled and checked by `fill_options`; an engine adds
  only the checks between options (`check_options`);
- a state saved by an older `schema` is brought to today's by `upgrade`, which the table calls
  once when it loads a game.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from bot.i18n import Msg, msg

State = dict[str, Any]
Action = dict[str, Any]
View = dict[str, Any]


_SEAT_REF = re.compile(r"<seat:(\d{1,2})>")


def seat_ref(seat: int) -> str:
    """How engine texts name a seat; the table and renderers swap in the player's name."""
    return f"<seat:{seat}>"


def name_seats(text: str, names: list[str]) -> str:
    """Replace every seat_ref in `text` with that seat's name."""
    return _SEAT_REF.sub(lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], text)


class GameError(Exception):
    """A player's mistake: GameError(msg(...)), its single argument a `Msg` the table puts into
    the player's words (str(error) gives English, for logs).

    It must never reveal hidden information (another seat's cards, deck order...)."""


@dataclass
class Event:
    """One log line. to=None: public (goes to the game's thread); to=seat: only that seat's DM.
    text is a `Msg` (bot/i18n.py), rendered per audience where it leaves the table; seats appear
    in its parameters as seat_ref markers, replaced after rendering."""

    text: Msg
    to: int | None = None
    log: bool = True  # False: news of the moment (who is ready): /game log keeps it only until a lasting line follows


@dataclass
class OptionSpec:
    """A table option offered by `/<game> new` (validated by the engine's `validate_options`)."""

    name: str
    description: str
    choices: list[str] = field(default_factory=list)  # empty: free value of `kind`
    kind: str = "str"  # "str" | "int" | "bool"
    default: Any = None
    min_value: int | None = None
    max_value: int | None = None

    def check(self, value: Any) -> Any:
        """`value` as this option's kind, within its choices and bounds; GameError otherwise. Slash
        commands and the lobby may hand in text ("3", "on"), so text is read as the kind."""
        if self.kind == "int":
            value = _as_int(value)
            if value is None:
                raise GameError(msg("{name} must be a whole number.", name=self.name))
            if (self.min_value is not None and value < self.min_value) or (
                self.max_value is not None and value > self.max_value
            ):
                raise GameError(
                    msg("{name} can be {lo} to {hi}.", name=self.name, lo=self.min_value, hi=self.max_value)
                )
        elif self.kind == "bool":
            value = _as_bool(value)
            if value is None:
                raise GameError(msg("{name} must be on or off.", name=self.name))
        elif not isinstance(value, str):
            raise GameError(msg("{name} must be a word.", name=self.name))
        if self.choices and str(value) not in self.choices:
            raise GameError(msg("{name} can be: {values}.", name=self.name, values=list(self.choices)))
        return value


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,9}\s*", value):
        return int(value)
    return None


def _as_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return {"on": True, "true": True, "yes": True, "off": False, "false": False, "no": False}.get(
            value.strip().lower()
        )
    return None


def fill_options(specs: list[OptionSpec], given: dict[str, Any] | None) -> dict[str, Any]:
    """The options as their specs declare them: an unknown name refused, each given value checked by
    its spec (`OptionSpec.check`), each missing one set to its default; anything but a mapping refused."""
    if given is not None and not isinstance(given, dict):
        raise GameError(msg("Options must be a mapping."))
    given = dict(given or {})
    known = {spec.name: spec for spec in specs}
    for name in given:
        if name not in known:
            raise GameError(msg("Unknown option {name}.", name=str(name)[:40]))
    return {spec.name: spec.default if given.get(spec.name) is None else spec.check(given[spec.name]) for spec in specs}


def chosen(action: Action) -> list[str]:
    """The values a select sent with the move (`menu`'s "select" groups), [] when none: the one way
    engines read them."""
    values = action.get("values")
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        return []
    return values


Handler = Callable[[Any, State, int, Action, list[Event]], None]


@dataclass(frozen=True)
class Move:
    """A move type an engine takes: its handler, the phases it is taken in (empty: any) and whether
    a seat the game is not waiting for may make it (preferences, a change of mind)."""

    handler: Handler
    phases: tuple[str, ...] = ()
    anytime: bool = False


def move(kind: str, phases: tuple[str, ...] = (), anytime: bool = False) -> Callable[[Handler], Handler]:
    """Declares an engine method as the handler of moves of type `kind`:
    `handler(self, st, seat, action, events)` changes `st` in place and appends its `Event`s; it
    raises GameError before changing anything when the move is not possible."""

    def declare(fn: Handler) -> Handler:
        fn.__dict__.setdefault("_moves", []).append((kind, Move(fn, tuple(phases), anytime)))
        return fn

    return declare


class Engine:
    """The contract every game keeps: each engine class inherits this one. The methods that raise
    NotImplementedError are required; the hooks below them have defaults a game overrides when
    it needs to."""

    moves: dict[str, Move] = {}  # move type -> its handler, gathered from the `@move` declarations

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        found = dict(getattr(cls, "moves", {}))
        for value in vars(cls).values():
            for kind, declared in getattr(value, "_moves", ()):
                found[kind] = declared
        cls.moves = found

    kind: str  # slash group and store key, e.g. "heat"
    title: str  # shown to players, e.g. "Heat: Pedal to the Metal"
    min_seats: int
    max_seats: int
    options: list[OptionSpec]
    rules_version: int  # stamped into each new state as "rules_version"

    def validate_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        """Fill defaults and check values; raise GameError with a clear message if bad. The specs do
        the values one by one (`fill_options`); `check_options` what lies between them."""
        if isinstance(seats, bool) or not isinstance(seats, int) or not self.min_seats <= seats <= self.max_seats:
            raise GameError(
                msg("{game} is for {lo} to {hi} players.", game=self.title, lo=self.min_seats, hi=self.max_seats)
            )
        return self.check_options(fill_options(self.options, options), seats)

    def check_options(self, options: dict[str, Any], seats: int) -> dict[str, Any]:
        """The checks between options, after each was filled and checked alone; returns the options
        as the game keeps them. Default: as they are."""
        return options

    def new_game(self, options: dict[str, Any], seats: int, seed: int) -> State:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action the seat may take now (empty when it has nothing to do). A standing
        preference a seat may change at any time has the type "prefs" (`is_preference`): it is
        listed after the decisions and never makes the seat one the game waits for."""
        raise NotImplementedError

    def describe_action(self, state: State, seat: int, action: Action) -> Msg:
        """A short label (a Msg), unique among the seat's legal actions once rendered
        (slash-command autocomplete; the table clips it to Discord's limits after rendering)."""
        raise NotImplementedError

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Validate and apply; raise GameError (state untouched) when the action is not legal.
        The one way: a copy of the state (`copy_state`), changed in place by `apply_in_place`."""
        st = self.copy_state(state)
        events: list[Event] = []
        self.apply_in_place(st, seat, action, events)
        return st, events

    def copy_state(self, state: State) -> State:
        """The copy `apply` changes in place: deep, sharing nothing a handler may change. Default
        `clone` (a JSON round trip); an engine may copy its own state layout faster (Heat's states
        are large and copied on every move: bot/games/heat/rules.py `clone`)."""
        return clone(state)

    def apply_in_place(self, st: State, seat: int, action: Action, events: list[Event]) -> None:
        """`apply` without the copy: checks the move (`check_move`, the handler's phases, whose move
        it is), then its handler changes `st`, then `after_move`. A handler raises GameError before
        it changes anything, so a refused move leaves `st` as it was."""
        check_move(st, seat, action)
        declared = self.moves.get(action["type"])
        if declared is None or (declared.phases and st["phase"] not in declared.phases):
            raise GameError(msg("That move is not possible now."))
        if not declared.anytime and seat not in self.to_act(st):
            raise GameError(msg("It is not your move."))
        declared.handler(self, st, seat, action, events)
        self.after_move(st, seat, events)

    def after_move(self, st: State, seat: int, events: list[Event]) -> None:
        """What follows every move, in place (the game running on to the next decision, the log
        kept short). Default: nothing."""

    def upgrade(self, state: State) -> State:
        """A state saved by an older version of the engine (its "schema"), as today's code reads it;
        the table calls this once when it loads a game. Default: as it is."""
        return state

    def to_act(self, state: State) -> list[int]:
        """Seats whose input the game is waiting for now (notified, reminded)."""
        raise NotImplementedError

    def is_over(self, state: State) -> bool:
        return bool(state["phase"] == "over")

    def view(self, state: State, viewer: int | None) -> View:
        """Plain data; its human texts (log lines, names of cards and tracks) are `Msg`s the
        renderer puts into words for its locale. The spectator view carries "turn" (an int): the table shows a fresh
        board image when it changes (a new round, course, player's turn...), and log lines only for moves within
        it. It may carry "post" (plain data, default its "turn"): the turns of one "post" gather in one thread post
        (a round of a sequential game), a new "post" starts a new one."""
        raise NotImplementedError

    def menu(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Components for the seat, as plain data. Each group is one of
        {"kind": "buttons", "options": [{"label", "action", "style"?}]}  (style: primary,
            secondary, success, danger; at most 20 buttons in all)
        {"kind": "select", "placeholder", "min", "max", "action",
            "options": [{"label", "value", "description"?}]}  (at most 25 options; the chosen
            values are sent to `apply` as dict(action, values=[...]))
        At most 5 groups' worth of rows in all (a select is one row, buttons 5 per row).
        Every human text (placeholder, label, description) is a `Msg` (the table renders it per
        viewer and clips it to Discord's lengths); the rest is plain data, and the whole menu
        round-trips through i18n.to_wire / from_wire."""
        raise NotImplementedError

    # -- hooks with defaults ----------------------------------------------------------------------

    def decision(self, state: State, seat: int) -> Any:
        """What the seat is deciding now, as a value that changes when a new decision begins. The
        table announces a new decision to a seat that starts waiting (it was not in `to_act`
        before the move) and to a waiting seat whose `decision` changed; a seat still in the same
        decision is not told again. Default None: starting to wait is the only new decision."""
        return None

    def auto_action(self, state: State, seat: int) -> Action:
        """A legal move the automatic player makes for an absent seat (bot/autoplayer.py)."""
        return self.legal_actions(state, seat)[0]

    def takeover_action(self, state: State, seat: int) -> Action | None:
        """A move only the table commits when the automatic player takes a waiting seat (never among
        the seat's legal_actions or menu; `apply` checks it like any move). Pole: a section-17 bot
        drives the car from then on, so the seat stops waiting. None: `auto_action` moves the seat."""
        return None

    def return_action(self, state: State, seat: int) -> Action | None:
        """The table's move when the owner takes the seat back (button, /game back, or a move of
        theirs), undoing `takeover_action`; None when there is nothing to undo."""
        return None

    def placings(self, state: State) -> list[int] | None:
        """Each seat's place once the game is over (1 = a winner; equal results share a place), for
        the players' history (/games); None where the game does not rank its seats."""
        return None

    def field(self, state: State) -> int:
        """How many a seat's place is counted among (Pole's bots and a solo Heat player's Legends
        count too): by default the seats ranked."""
        return len(self.placings(state) or [])

    def least_seats(self, options: dict[str, Any]) -> int:
        """The fewest players these options start with (Heat needs Legends for a lone player)."""
        return self.min_seats

    def redraw_hidden(self, state: State, seat: int, seed: int) -> State:
        """A state `seat` cannot tell from this one, for the AI to imagine the game with: everything
        the seat may not see dealt again at random from `seed` (the dice to come, deck orders, other
        seats' hands and secret choices). It depends only on what the seat may see and on `seed`:
        two states that differ only in what the seat cannot see redraw to the same state, and the
        seat's view and menu stay as they were (tests/core/test_ai.py). Default: only the dice to
        come are hidden."""
        out = dict(state)
        out["rng"] = seed & 0xFFFFFFFFFFFFFFFF
        return out

    def most_seats(self, options: dict[str, Any]) -> int:
        """The most players these options seat (Heat's Legends take cars and allow 3 players at
        most): the lobby refuses the seat that would break them. Default: max_seats."""
        return self.max_seats

    def describe_options(self, options: dict[str, Any]) -> list[Msg | str]:
        """The table's options as the lobby shows them, in players' words."""
        return [f"{k}: {v}" for k, v in options.items() if not isinstance(v, (list, dict)) or v]


def choose_again(engine: Engine, state: State, seats: list[int]) -> State:
    """After a redraw took back other seats' secret choices (the seat sees that they chose, not
    what), each makes its choice again as the automatic player would. The public log stays as it
    was: the choices were made once."""
    for s in seats:
        log = state.get("log")
        state, _ = engine.apply(state, s, engine.auto_action(state, s))
        if log is not None:
            state["log"] = log
    return state


def is_preference(action: Action) -> bool:
    """A standing preference ({"type": "prefs", ...}), not a decision."""
    return action.get("type") == "prefs"


def check_move(state: State, seat: Any, action: Any) -> None:
    """The shape every move must have, whatever the game: an action dict with a "type", from a seat
    of the table (`state["seats"]`, the number of seats), while the game runs (`state["phase"]`)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise GameError(msg("That is not a move."))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["seats"]:
        raise GameError(msg("You are not seated at this table."))
    if state["phase"] == "over":
        raise GameError(msg("The game is over."))


def clone(state: Any) -> Any:
    """A deep copy for `apply` to work on, so the caller's state is never changed. States are plain
    JSON (the conformance suite holds every game to it), and a JSON round trip copies them several
    times faster than copy.deepcopy (bench: `engine_clone_*`)."""
    return orjson.loads(orjson.dumps(state))


def on_todays_rules(engine: Engine, state: Any) -> bool:
    """Whether a stored state was started under the engine's current rules (so its log replays to it)."""
    return isinstance(state, dict) and state.get("rules_version") == engine.rules_version


def begin(engine: Engine, options: dict[str, Any], seats: int, seed: int, rules_version: int | None = None) -> State:
    """A replay's first state: `new_game`'s, stamped with the rules the game was begun under (a
    stored state's "rules_version"; None: today's). An engine that keeps a changed rule by the
    stamp (Pole's move menu, Rallyman's sliders abreast) so replays an older game as it was played."""
    state = engine.new_game(options, seats, seed)
    if rules_version is not None:
        state["rules_version"] = rules_version
    return state


def replay(
    engine: Engine,
    options: dict[str, Any],
    seats: int,
    seed: int,
    actions: list[tuple[int, Action]],
    rules_version: int | None = None,
) -> State:
    """Rebuild a game from its seed and action log (used by tests and recovery)."""
    state = begin(engine, options, seats, seed, rules_version)
    for seat, action in actions:
        state, _ = engine.apply(state, seat, action)
    return state
