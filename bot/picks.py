"""How a player's click or typed command becomes a move on the commit path (bot/table.py): the
pick judged against the game as it is when the table loads it under the game's lock. A pick is
stale (StaleButton) when it was made for an older menu of the seat, refused (PlayerError) when it
was never one of the seat's moves."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from typing import Any

import orjson

from bot.components import chosen_ok, menu_entry
from bot.delivery import title_of
from bot.errors import PlayerError, StaleButton
from bot.games.base import Engine, State
from bot.i18n import Msg, msg, render, to_wire
from bot.store import Game
from bot.table_api import Pick

# The answer to a pick that was never this seat's (another player's, a forged one): not "the board
# has moved on", which is kept for picks that were right once and are stale now.
NOT_YOURS = msg("That is not one of your moves. Pick one from your newest message or the /play list.")


def pick_key(action: dict[str, Any]) -> str:
    return hashlib.blake2b(json.dumps(action, sort_keys=True).encode(), digest_size=5).hexdigest()


def pick_value(prompt_version: int, action: dict[str, Any]) -> str:
    """What an autocomplete choice sends for a move: the seat's prompt version and the move (in no
    language: the label is the reader's)."""
    return f"{prompt_version}:{pick_key(action)}"


def parse_pick(value: str) -> tuple[int, str] | None:
    match = re.fullmatch(r"([0-9]{1,9}):([0-9a-f]{10})", value)
    return (int(match[1]), match[2]) if match else None


def _wire(value: Any) -> Any:
    """orjson's hook for what it cannot write itself: a Msg as to_wire writes it."""
    if isinstance(value, Msg):
        return {"msg": value.key, "params": value.params}
    raise TypeError(type(value).__name__)


_SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
OLD_HASH_LENGTH = 16  # menus hashed before orjson: 16 hex digits (json.dumps of to_wire); now 18


def menu_hash(menu: list[dict[str, Any]], like: str = "") -> str:
    """A menu's fingerprint (stored with the seat; a button is stale once its menu's differs).
    Written with orjson (every seat's menu is hashed on every move: json.dumps of to_wire took
    most of that time); `like` a stored hash of the older format (16 digits): the menu hashed the
    old way, so a seat whose menu has not changed since is still seen as unchanged."""
    if len(like) == OLD_HASH_LENGTH:
        return hashlib.blake2b(json.dumps(to_wire(menu), sort_keys=True).encode(), digest_size=8).hexdigest()
    try:
        data = orjson.dumps(menu, default=_wire, option=_SORTED)
    except TypeError:  # what orjson refuses (an int past 64 bits): the slow way, the same for the same menu
        data = json.dumps(to_wire(menu), sort_keys=True).encode()
    return hashlib.blake2b(data, digest_size=9).hexdigest()


def folded(text: str) -> str:
    """Text as a typed move is compared: case, full/half width and spacing ignored."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def typed_move(typed: str, labels: list[tuple[str, Any]]) -> list[Any]:
    """The move whose label (each with its move) a player typed: the whole label, else a prefix
    only one label has, compared by `folded`. Raises PlayerError naming the choices otherwise."""
    want = folded(typed)
    exact = [move for label, move in labels if folded(label) == want]
    starts = [(label, move) for label, move in labels if want and folded(label).startswith(want)]
    if exact or len(starts) == 1:
        return exact[:1] or [starts[0][1]]
    if starts:
        raise PlayerError(
            msg(
                "“{typed}” starts several moves: {moves}. Type more of it, or pick one from the list.",
                typed=typed[:100],
                moves=", ".join(label for label, _ in starts[:5]),
            )
        )
    raise PlayerError(msg("“{label}” is not a move you can make now. Pick one from the list.", label=typed[:100]))


def waiting_for(engine: Engine, game: Game, state: State) -> Msg:
    """What a player with nothing to do is told: whose move the table waits for."""
    if engine.is_over(state):
        return msg("The game is over.")
    names = ", ".join(game.seats[s].name for s in engine.to_act(state) if s < len(game.seats))
    return (
        msg("It is not your move now: the table is waiting for {who}.", who=names)
        if names
        else msg("It is not your move now.")
    )


def button_pick(user_id: int, version: int, seat: int, kind: str, index: int, values: list[str] | None) -> Pick:
    """The move of a button or select click: control `index` of the seat's menu group `kind`
    ("buttons", "select"), made for its prompt `version`; a select's chosen `values`."""

    def pick(engine: Engine, game: Game, state: State) -> dict[str, Any]:
        if game.seat_of(user_id) != seat:
            raise PlayerError(msg("These buttons belong to another player."))
        menu = engine.menu(state, seat)
        # Stale: made for an older menu of this seat (version), or the menu is no longer the
        # one the button was drawn from (e.g. after an upgrade reordered it).
        stored = game.seats[seat].prompt_hash
        if version > game.seats[seat].prompt_version:
            raise PlayerError(NOT_YOURS)  # no menu of this seat was ever made with it
        if version != game.seats[seat].prompt_version or menu_hash(menu, like=stored) != stored:
            raise StaleButton()
        entry = menu_entry(menu, kind, index)
        if entry is None:  # the current menu, but no such control on it: a forged click
            raise PlayerError(NOT_YOURS)
        if kind != "select":
            return entry["action"]
        if values is None or not chosen_ok(entry, values):
            raise PlayerError(msg("That choice is not on the menu."))
        return dict(entry["action"], values=values)

    return pick


class TypedPick:
    """`/<game> play move:`: a pick from the autocomplete list (which carries the seat's prompt
    version, so it is refused like a stale button once the seat's menu or its own move has moved
    on), or a move's label typed in full, in the player's language `locale` (judged against the
    game as it is now). `label` is the move's words once picked (None: the commit took the seat
    back instead, and the pick was not judged)."""

    def __init__(self, move: str, user_id: int, locale: str) -> None:
        self.move = move
        self.user_id = user_id
        self.locale = locale
        self.label: Msg | None = None

    def __call__(self, engine: Engine, game: Game, state: State) -> dict[str, Any]:
        seat = game.seat_of(self.user_id)
        if seat is None:
            raise PlayerError(msg("You are not playing in {title}.", title=title_of(engine, game)))
        picked = parse_pick(self.move)
        current = game.seats[seat].prompt_version
        if picked is not None and picked[0] > current:
            raise PlayerError(NOT_YOURS)  # a version this seat never had: not a pick from its list
        if picked is not None and picked[0] < current:
            raise StaleButton()
        legal = engine.legal_actions(state, seat)
        idle = seat not in engine.to_act(state)
        if not legal or (idle and self.move == "-"):  # "-": the list's line saying whose move it is
            raise PlayerError(waiting_for(engine, game, state))
        labelled = [(engine.describe_action(state, seat, action), action) for action in legal]
        if picked is not None:
            found = [(text, action) for text, action in labelled if pick_key(action) == picked[1]]
            if not found:  # today's list, but not one of this seat's moves (another player's pick)
                raise PlayerError(NOT_YOURS)
        else:
            try:
                words = [(render(text, self.locale), (text, action)) for text, action in labelled]
                found = typed_move(self.move, words)
            except PlayerError:
                if idle:  # only preferences to change now: say whose move it is
                    raise PlayerError(waiting_for(engine, game, state)) from None
                raise
        self.label = found[0][0]
        return found[0][1]
