"""Heat's race state and the rules pieces every part shares: building a race (new_state, the Garage
draft), cards, gears and hands, moving cars, the round-record lines; the round's resolution that
uses them is in resolve.py.

Everything here works on a state the caller already owns (copied): functions mutate it in place.

State layout (JSON round-trip exact):
    schema, rng, track (data key), modules (list, empty for the base race), seats, adrenaline
    (how many trailing cars get Adrenaline), grid_order, round, phase ("submit"|"decide"|"over"),
    cards (card id -> type code, see data/heat/cards.json), cars (one per seat), res (the round
    being resolved, or None), pending (the decision resolution waits for, or None), places
    (seats in finishing order), last_order (race order of the last resolved round).
A car: pos (absolute distance: space of lap L is L*spaces+space; the grid is at 0, -1, ...), lane,
    gear, hand, deck (top = last), discard, engine, played (cards in play this round), sub (the
    private submission, card ids, or None), prefs, fin (crossed the finish line), place,
    stress (Stress cards taken from the supply), rd (this/last round's public record).
"""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache
from typing import Any

import bot.games.heat.content as content
from bot.games.base import seat_ref
from bot.games.rng import Rng
from bot.games.text import chain, plus
from bot.i18n import Msg, msg

# 2: round-record lines are compact [key, params] lists (see round_line); 1 held Msgs in JSON form.
SCHEMA = 2
# The modules a race may use, each switched on by a table option (the base race uses none); tournament
# mode and the championship are options of their own, not modules.
KNOWN_MODULES: tuple[str, ...] = ("weather", "garage", "legends")
MAX_CARS = 6  # cars on the track, players and Legends
LEGEND_MAX_PLAYERS = 3  # 「3人以下でプレイする場合にのみ使用する」
# Garage decks offered (the seed: start with Basic only, later mix in the Advanced cards).
# "all": basic + advanced + the Heavy Rain expansion's Air intake upgrades (Super Cool)
GARAGE_DECKS = ("basic", "advanced", "mixed", "all")

_C = content.cards()
TYPES: dict[str, dict[str, Any]] = _C["types"]
KIND = {k: v["kind"] for k, v in TYPES.items()}
SPEED = {k: int(v.get("speed", 0)) for k, v in TYPES.items()}
BOOSTS = {k: int(v.get("boost", 0)) for k, v in TYPES.items()}
PLAYABLE = {k: bool(v.get("playable", True)) for k, v in TYPES.items()}
DISCARDABLE = {k: bool(v.get("discardable", True)) for k, v in TYPES.items()}
LABEL = {k: v["label"] for k, v in TYPES.items()}
SHORT = {k: v.get("short", v["label"]) for k, v in TYPES.items()}
HAND_SIZE = int(_C["hand_size"])
MAX_GEAR = int(_C["max_gear"])
COOLDOWN = {int(g): int(n) for g, n in _C["cooldown_by_gear"].items()}
SPIN_STRESS = {int(g): int(n) for g, n in _C["spin_stress_by_gear"].items()}
STARTING_DECK: dict[str, int] = _C["starting_deck"]
HEAT_TYPES = frozenset(k for k, kind in KIND.items() if kind == "heat")  # for hand scans
# Garage upgrade symbols by card type (only the types that have them).
GARAGE: dict[str, dict[str, Any]] = {k: v["garage"] for k, v in TYPES.items() if v.get("garage")}
CHOICES = {k: tuple(g["choices"]) for k, g in GARAGE.items() if "choices" in g}
STARTING_UPGRADES = ("start0", "start5", "heat")  # put back in the box with the Garage module
DRAFT_ROUNDS = 3

PREFS: dict[str, tuple[str, ...]] = {
    "slipstream": ("smart", "always", "never", "ask"),
    "boost": ("never", "smart", "always", "ask"),
    "adrenaline": ("smart", "always", "never", "ask"),
    "cooldown": ("auto", "ask"),
    "discard": ("keep", "ask"),
    # Step 5: which of Boost and the Adrenaline +1 goes first when the order changes the landing.
    "order": ("best", "ask"),
}
DEFAULT_PREFS = {k: v[0] for k, v in PREFS.items()}
# Garage games only (base races keep their preferences exactly): playing Direct play cards from
# the hand in step 5, and taking an Accelerate bonus.
GARAGE_PREFS: dict[str, tuple[str, ...]] = {
    "direct": ("smart", "always", "never"),
    "accelerate": ("smart", "always", "never"),
    # the cards with a choice of speed: chosen for you, or asked
    "choice": ("auto", "ask"),
}


def discardable(st: dict, code: str) -> bool:
    """Step 8: may this card be discarded (a Championship event lets Heat go too)?"""
    return DISCARDABLE[code] or (code in HEAT_TYPES and bool(st.get("discard_heat")))


# A Championship's event may let Heat be discarded in step 8 (e13): a standing choice to do it.
CHAMP_PREFS: dict[str, tuple[str, ...]] = {"discard": ("keep", "heat", "ask")}


def prefs_of(st: dict) -> dict[str, tuple[str, ...]]:
    out = {**PREFS, **GARAGE_PREFS} if "garage" in st.get("modules", ()) else PREFS
    return {**out, **CHAMP_PREFS} if "champ" in st else out


# Per-car steps 3-9 of a round, in order; a paused resolution resumes at its step index.
# (Step 4, Adrenaline, is marked during "move"; step 5, React, is cooldown, then boost and the
# adrenaline +1 in the order the player likes: both run under S_BOOST, rd["first"] holds the order
# and rd["done"] the symbols already resolved, "b" and/or "a".)
STEPS = ("move", "cooldown", "boost", "adrenaline", "slipstream", "corners", "discard", "refill")
S_MOVE, S_COOL, S_BOOST, S_ADR, S_SLIP, S_CORNERS, S_DISCARD, S_REFILL = range(len(STEPS))
DONE = -1
# rd["rev"] holds [card type, flipped Speed card type] pairs for the round's revealed cards (types,
# not ids: once revealed they are public, whatever zone the card goes to later). The second is
# NO_FLIP for a card that flips nothing and FLIP_NOTHING when a flip found no Speed card; a boost
# has BOOST_SOURCE first.
NO_FLIP, FLIP_NOTHING, BOOST_SOURCE = None, "", "+"


def track_of(st: dict) -> content.Track:
    """The race's track: the printed one, or with the weather module its limits changed by the
    road tokens (and their Overheat corners and sector effects)."""
    w = st.get("weather")  # (.get: states saved before the modules have no such key)
    if "laps" in st:  # Championship: an event's race 1 lap shorter or longer
        return content.lapped_track(st["track"], w["tile"] if w else None, tuple(w["road"]) if w else (), st["laps"])
    if w is None:
        return content.tracks()[st["track"]]
    return content.weather_track(st["track"], w["tile"], tuple(w["road"]))


def sector_fx(tr: content.Track, pos: int) -> str | None:
    """The weather/road sector effect where a car at `pos` stands (None without one)."""
    fx = tr.sector_fx
    return fx[(pos - 1) % tr.spaces + 1] if fx else None


def space_of(tr: content.Track, pos: int) -> int:
    return (pos - 1) % tr.spaces + 1


def lap_of(tr: content.Track, car: dict) -> int:
    if car["fin"]:
        return tr.laps
    pos = car["pos"]
    return 1 if pos <= 0 else min(tr.laps, (pos - 1) // tr.spaces + 1)


# How engine texts name a seat (the table swaps in the player's name).
seat_name = seat_ref
# Each seat's name, made once: the same strings seat_ref gives (a car's every round is named).
SEAT_NAMES = tuple(seat_ref(s) for s in range(MAX_CARS))


# --------------------------------------------------------------------------- setup


def car_name(st: dict, s: int) -> Any:
    """How engine texts name a car: a seat (the table puts in the player's name) or a Legend."""
    return SEAT_NAMES[s] if s < st["seats"] else msg("Legend {n}", n=s - st["seats"] + 1)


def _legend_car(tr: content.Track, grid_index: int, k: int) -> dict:
    """Legend k's car on its grid space (index grid_index), with no cards: the engine plays it."""
    space, lane = tr.grid[grid_index]
    return {
        "pos": space - tr.spaces if space > tr.spaces // 2 else space,
        "lane": lane,
        "gear": 1,
        "hand": [],
        "deck": [],
        "discard": [],
        "engine": [],
        "played": [],
        "sub": None,
        "prefs": {},
        "fin": False,
        "place": None,
        "stress": 0,
        "rd": None,
        "legend": k,
    }


def new_state(
    track_key: str,
    seats: int,
    seed: int,
    grid: str | list[int],
    modules: list[str],
    garage: str | None = None,
    legends: int = 0,
    adjust: dict | None = None,
) -> dict:
    """A race's first state: the grid, the weather, each car's deck, Engine and hand, the Legends'
    deck, the Garage draft. grid: "random", "seats" or the championship's order; adjust: a
    championship event's change to the Heat and Stress cards."""
    tr = content.tracks()[track_key]
    rng = Rng(seed)
    ncars = seats + legends
    # Legends are cars after the seats (indices seats..): on the grid with the players (placed
    # 「適当に」, so in the same random or seat order), played by the engine.
    order = list(range(ncars))
    if grid == "random":
        rng.shuffle(order)
    elif isinstance(grid, list):  # Championship: the grid by the season's points
        order = list(grid)
    n_stress, n_heat = tr.stress, tr.heat
    if adjust:  # Championship events: Heat in each Engine, Stress in each deck
        n_stress, n_heat = max(0, n_stress + adjust.get("stress", 0)), max(0, n_heat + adjust.get("heat", 0))
    weather, heat_to = None, None
    if "weather" in modules:
        weather, n_stress, n_heat, heat_to = _draw_weather(tr, rng, n_stress, n_heat)
    cards: list[str] = []
    garage_on = "garage" in modules
    cars = [
        _player_car(tr, rng, cards, order.index(seat), garage_on, n_stress, n_heat, heat_to) for seat in range(seats)
    ]
    for k in range(legends):
        cars.append(_legend_car(tr, order.index(seats + k), k))
    st = {
        "schema": SCHEMA,
        "rng": rng.state,
        "track": track_key,
        "modules": list(modules),
        "seats": seats,
        "adrenaline": 2 if ncars >= 5 else 1,
        "grid_order": order,
        "round": 1,
        "phase": "submit",
        "cards": cards,
        "cars": cars,
        "res": None,
        "pending": None,
        "places": [],
        "last_order": [],
    }
    if weather is not None:
        st["weather"] = weather  # public, never changed during the race
    if legends:
        deck = list(range(len(content.legend_cards())))
        shuffle(rng, deck)
        st["rng"] = rng.state
        st["legend_deck"] = deck  # face down (its order is hidden); the top card is revealed each round
        st["legend_used"] = []
        st["legend_card"] = None
    if garage_on:
        _start_draft(st, rng, seats, garage)
    return st


def _draw_weather(tr: content.Track, rng: Rng, n_stress: int, n_heat: int) -> tuple[dict, int, int, tuple | None]:
    """Weather and road conditions: one of the six tiles, then one road token per corner (the twelve
    shuffled); both before the decks are built and the hands drawn. Returns the weather, the Stress
    and Heat cards each car gets, and where some Engine Heat goes (("deck" or "discard", n) or None)."""
    tiles = content.weather()["tiles"]
    tile = sorted(tiles)[rng.below(len(tiles))]
    pool = content.road_pool()
    rng.shuffle(pool)
    # One token per corner, one per chicane (both its lines share it); tracks without a
    # chicane draw exactly as before.
    groups = content.road_groups(tr)
    drawn = dict(zip(groups, pool))
    weather = {"tile": tile, "road": [drawn[c.index if c.chicane is None else c.chicane] for c in tr.corners]}
    setup = tiles[tile]["setup"]
    n_stress = max(0, n_stress + setup.get("stress", 0))
    n_heat = max(0, n_heat + setup.get("heat", 0))
    heat_to = None
    if "heat_to_deck" in setup:
        heat_to = ("deck", setup["heat_to_deck"])
    elif "heat_to_discard" in setup:
        heat_to = ("discard", setup["heat_to_discard"])
    return weather, n_stress, n_heat, heat_to


def _player_car(
    tr: content.Track,
    rng: Rng,
    cards: list[str],
    slot: int,
    garage_on: bool,
    n_stress: int,
    n_heat: int,
    heat_to: tuple | None,
) -> dict:
    """A player's car on grid slot `slot`: its deck, Engine and hand, their cards added to `cards`."""
    deck = []
    for code, n in STARTING_DECK.items():
        if garage_on and code in STARTING_UPGRADES:
            continue  # the Garage's drafted upgrades replace the three Starting Upgrades
        for _ in range(n):
            deck.append(len(cards))
            cards.append(code)
    for _ in range(n_stress):
        deck.append(len(cards))
        cards.append("stress")
    engine = []
    for _ in range(n_heat):
        engine.append(len(cards))
        cards.append("heat")
    discard: list[int] = []
    if heat_to is not None:  # rain: 3 Engine Heat into the deck (shuffled in); sun: to the discard
        moved = [engine.pop() for _ in range(min(heat_to[1], len(engine)))]
        (deck if heat_to[0] == "deck" else discard).extend(moved)
    if garage_on:
        hand = []  # drawn when the draft is over (「準備の最後で手札を7枚引く前に行う」)
    else:
        shuffle(rng, deck)
        hand = [deck.pop() for _ in range(min(HAND_SIZE, len(deck)))]
    space, lane = tr.grid[slot]
    return {
        "pos": space - tr.spaces if space > tr.spaces // 2 else space,
        "lane": lane,
        "gear": 1,
        "hand": hand,
        "deck": deck,
        "discard": discard,
        "engine": engine,
        "played": [],
        "sub": None,
        "prefs": dict(DEFAULT_PREFS, **({k: v[0] for k, v in GARAGE_PREFS.items()} if garage_on else {})),
        "fin": False,
        "place": None,
        "stress": 0,
        "rd": None,
    }


def _start_draft(st: dict, rng: Rng, seats: int, garage: str | None) -> None:
    """Garage: the upgrade deck shuffled (the weather is already set up), then a draft of 3
    rounds, players + 3 cards each: round 1 from the back of the grid, 2 from the front, 3
    from the back again; each pick is one player's step."""
    tiers = (
        ("basic", "advanced")
        if garage == "mixed"
        else content.GARAGE_TIERS
        if garage == "all"
        else (garage or "basic",)
    )
    gdeck = [
        code
        for code, t in content.garage()["types"].items()
        if t["tier"] in tiers
        for _ in range(content.garage()["copies"])
    ]
    shuffle(rng, gdeck)
    st["rng"] = rng.state
    st["phase"] = "draft"
    st["draft"] = {"deck": gdeck, "round": 0, "market": [], "order": [], "i": 0, "picks": [[] for _ in range(seats)]}
    _draft_round(st)


def _draft_round(st: dict) -> None:
    """The next draft round: the leftover market goes back in the box, players + 3 new cards."""
    dr = st["draft"]
    dr["round"] += 1
    k = min(st["seats"] + 3, len(dr["deck"]))
    dr["market"] = [dr["deck"].pop() for _ in range(k)]
    grid = [s for s in st["grid_order"] if s < st["seats"]]  # Legends build no cars
    dr["order"] = list(reversed(grid)) if dr["round"] % 2 else list(grid)
    dr["i"] = 0


def draft_pick(st: dict, seat: int, index: int, rng: Rng) -> list[tuple[int | None, Msg]]:
    """The picking seat takes market card `index` (checked by the caller)."""
    dr = st["draft"]
    code = dr["market"].pop(index)
    dr["picks"][seat].append(code)
    events: list[tuple[int | None, Msg]] = [
        (None, msg("{who} takes {card}.", who=seat_name(seat), card=msg(draft_label(code))))
    ]
    dr["i"] += 1
    if dr["i"] < len(dr["order"]):
        return events
    if dr["round"] < DRAFT_ROUNDS:
        _draft_round(st)
        events.append((None, msg("Garage draft, round {n}: new cards.", n=dr["round"])))
        return events
    _build_cars(st, rng)
    events.append((None, msg("The cars are built: the race starts.")))
    return events


def deal_garage(st: dict) -> None:
    """The seed's alternative to the draft (「望むならドラフトではなく単にカードをシャッフルして各自に
    3枚ずつ配るのでも構わない」): the shuffled upgrade deck dealt 3 cards to each player, one at a
    time round the grid from its front; then the cars are built and the race starts.
    Rule reading: dealt upgrades are shown like drafted ones (the board lists each car's three)."""
    dr = st["draft"]
    deck = dr["deck"] + dr["market"][::-1]  # the first market drawn goes back on top, in order
    grid = [s for s in st["grid_order"] if s < st["seats"]]
    for _ in range(DRAFT_ROUNDS):
        for s in grid:
            dr["picks"][s].append(deck.pop())
    dr["deck"], dr["market"] = deck, []
    rng = Rng(st["rng"])
    _build_cars(st, rng)
    st["rng"] = rng.state
    st["garage_dealt"] = True


def _build_cars(st: dict, rng: Rng) -> None:
    """The draft is over: the upgrades join the decks (a drafted Heat card as a plain Heat card),
    each deck is shuffled and the hands drawn; the race starts."""
    dr = st["draft"]
    cards = st["cards"]
    for s, car in enumerate(st["cars"][: st["seats"]]):
        for code in dr["picks"][s]:
            car["deck"].append(len(cards))
            cards.append("heat" if content.garage()["types"][code].get("heat_card") else code)
        shuffle(rng, car["deck"])
        car["hand"] = [car["deck"].pop() for _ in range(min(HAND_SIZE, len(car["deck"])))]
    st["garage"] = [list(p) for p in dr["picks"]]  # public: what each car was built with
    del st["draft"]
    st["phase"] = "submit"


_SYMBOL_TEXT = {
    "boost": "+{n} Boost",
    "cooldown": "Cooldown {n}",
    "reduce": "Discard up to {n} Stress",
    "heat": "Heat {n} (!)",
    "slipstream": "Slipstream +{n}",
    "scrap": "Scrap {n} (!)",
    "salvage": "Salvage {n}",
    "direct": "Direct play",
    "accelerate": "Accelerate +{n}",
    "refresh": "Refresh",
    "adjust": "Corner limits {n} (!)",
    "super_cool": "Super cool {n}",
}


_SYMBOL_SHORT = {
    "boost": "+{n} Boost",
    "cooldown": "Cool {n}",
    "reduce": "Stress -{n}",
    "heat": "Heat {n}!",
    "slipstream": "Slip +{n}",
    "scrap": "Scrap {n}!",
    "salvage": "Salvage {n}",
    "direct": "Direct",
    "accelerate": "Accel +{n}",
    "refresh": "Refresh",
    "adjust": "Limit {n}!",
    "super_cool": "S.cool {n}",
}


def _sponsor(code: str) -> dict | None:
    """A Championship sponsorship card's data (None for any other card)."""
    return _SPONSORS.get(code)


_SPONSORS = {k: v for k, v in TYPES.items() if v.get("sponsor")}
_SPONSORS = {
    k: {**v["garage"], "speed": v["speed"]} if "choices" not in v["garage"] else dict(v["garage"])
    for k, v in _SPONSORS.items()
}


def card_symbols(code: str) -> list[Msg]:
    """An upgrade card's symbols, one short text each (for the card faces on the images)."""
    t = content.garage()["types"].get(code) or _sponsor(code)
    if t is None or t.get("heat_card"):
        return []
    out = []
    for sym in content.GARAGE_SYMBOLS:
        if sym in t:
            v = t[sym]
            out.append(msg(_SYMBOL_SHORT[sym], n=(f"+{v}" if sym == "adjust" and v > 0 else v)))
    return out


def card_text(code: str) -> Msg:
    """What a card does, in short: "Speed 3 · Discard up to 2 Stress", "Speed 1 or 3"..."""
    t = content.garage()["types"].get(code) or _sponsor(code)
    if t is None or t.get("heat_card"):
        if KIND.get(code) == "heat" or (t is not None and t.get("heat_card")):
            return msg("Heat card: can't be played")
        return msg("Speed {v}", v=SPEED[code])
    parts: list[Any] = []
    if "choices" in t:
        parts.append(msg("Speed {v} (choose)", v="/".join(str(v) for v in t["choices"])))
    else:
        parts.append(msg("Speed {v}", v=t["speed"]))
    for sym in content.GARAGE_SYMBOLS:
        if sym in t:
            v = t[sym]
            parts.append(msg(_SYMBOL_TEXT[sym], n=(f"+{v}" if sym == "adjust" and v > 0 else v)))
    return chain("{a} · {b}", parts)


def draft_label(code: str) -> str:
    """A market card's label (the Heat cards in the upgrade decks are plain "Heat")."""
    return "Heat" if content.garage()["types"][code].get("heat_card") else LABEL[code]


def clone(st: dict, *, new_round: bool = False) -> dict:
    """A full copy of the state, specialised to its layout (much faster than copy.deepcopy).

    new_round: start_resolution comes next and gives every racing car a fresh round record, so
    their old records are shared, not copied (they are replaced, never changed)."""
    new = dict(st)
    new["cards"] = st["cards"][:]
    new["modules"] = st["modules"][:]
    new["grid_order"] = st["grid_order"][:]
    new["places"] = st["places"][:]
    new["last_order"] = st["last_order"][:]
    if "legend_deck" in st:
        new["legend_deck"] = st["legend_deck"][:]
        new["legend_used"] = st["legend_used"][:]
    if "draft" in st:
        dr = st["draft"]
        new["draft"] = {
            **dr,
            "deck": dr["deck"][:],
            "market": dr["market"][:],
            "order": dr["order"][:],
            "picks": [p[:] for p in dr["picks"]],
        }
    new["cars"] = [clone_car(c, rd=not (new_round and not c["fin"])) for c in st["cars"]]
    res = st["res"]
    if res is not None:
        new["res"] = {"order": res["order"][:], "i": res["i"], "step": res["step"], "adr": res["adr"][:]}
    if st["pending"] is not None:
        new["pending"] = dict(st["pending"])
    return new


def clone_car(c: dict, rd: bool = True) -> dict:
    """A copy of one car; its round record too unless rd is False (then it is shared)."""
    sub = c["sub"]
    n = {  # (one dict built with the copied parts in their places: the car's keys keep their order)
        **c,
        "hand": c["hand"][:],
        "deck": c["deck"][:],
        "discard": c["discard"][:],
        "engine": c["engine"][:],
        "played": c["played"][:],
        "prefs": c["prefs"].copy(),
        "sub": sub if sub is None else sub[:],
    }
    old = c["rd"]
    if rd and old is not None:
        new = dict(old)
        new["rev"] = [r[:] for r in old["rev"]]
        new["lines"] = old["lines"][:]  # (lines are never changed once made)
        new["ans"] = {k: (v[:] if isinstance(v, list) else v) for k, v in old["ans"].items()}
        n["rd"] = new
    return n


# --------------------------------------------------------------------------- gears and hands


def reachable_gears(car: dict) -> list[int]:
    """Gears the car may shift to: +-1 for free, +-2 paying one Heat from the Engine."""
    g = car["gear"]
    d = 2 if car["engine"] else 1
    return list(range(max(1, g - d), min(MAX_GEAR, g + d) + 1))


def split_hand(st: dict, car: dict) -> tuple[list[int], list[int]]:
    cards = st["cards"]
    hand = car["hand"]
    return ([c for c in hand if PLAYABLE[cards[c]]], [c for c in hand if not PLAYABLE[cards[c]]])


def fillable_gears(st: dict, car: dict, n_play: int | None = None) -> tuple[list[int], list[int]]:
    """(gears the submission may use, the clogged ones among them). A gear is clogged when the
    playable (non-Heat) cards in hand cannot fill it: then every playable card is played and Heat
    cards make up the shortfall (and the car will not move). n_play: the playable cards in hand,
    when the caller has counted them."""
    cards = st["cards"]
    hand = car["hand"]
    if n_play is None:
        n_play = sum([PLAYABLE[cards[c]] for c in hand])
    # Rule reading: step 1 (shift) is a free choice (「そのままにするか、1段階上げ下げするかを
    # 選べる」) and step 2's shortfall (「ギアの枚数分のカードがプレイできない場合のみ」) is judged
    # for the gear chosen, so a gear the playable cards cannot fill is open too, filled with Heat.
    # The reachable gears (reachable_gears) the hand holds enough cards for, whose shift the Engine
    # can pay (with 2 Heat or more it pays any: at most 2).
    g = car["gear"]
    n_engine = len(car["engine"])
    d = 2 if n_engine else 1
    gears = list(range(max(1, g - d), min(MAX_GEAR, g + d, len(hand)) + 1))
    if n_engine < 2:
        gears = [x for x in gears if shift_heat(st, car, x) <= n_engine]
    return gears, ([x for x in gears if x > n_play] if gears and gears[-1] > n_play else [])


def flooded_start(st: dict, car: dict) -> bool:
    """Heavy Rain: the car starts the round on a flooded space (Japan)."""
    tr = content.tracks()[st["track"]]
    return bool(tr.flooded) and space_of(tr, car["pos"]) in tr.flooded


def shift_heat(st: dict, car: dict, gear: int) -> int:
    """The Heat a shift from the car's gear to `gear` costs: 1 for a 2-gear shift, and on a
    flooded space 1 more to shift down (「浸水マスで手番を開始した場合、ギアを1つ下げるには追加で
    1ヒート」). Rule reading, from the seed's own example (「ギアを2つ下げるには2ヒート」): the
    flooded Heat is 1 per downshift, on top of the 2-gear shift's 1 (down 1: 1, down 2: 2)."""
    diff = gear - car["gear"]
    if diff >= 0:  # (up or the same gear: only the 2-gear shift costs)
        return 1 if diff == 2 else 0
    return (1 if diff == -2 else 0) + (1 if flooded_start(st, car) else 0)


def check_submission(st: dict, car: dict, ids: list[int]) -> Msg | None:
    """An error message (a Msg) or None when the submission is legal."""
    n = len(ids)
    if not n:
        return msg("Choose 1 to 4 cards: the number of cards is your gear.")
    if n > MAX_GEAR:
        return msg("You can play at most {n} cards.", n=MAX_GEAR)
    if len(set(ids)) != n:
        return msg("A card was chosen twice.")
    hand = car["hand"]
    cards = st["cards"]
    n_heat = 0
    for cid in ids:
        if cid not in hand:
            return msg("That card is not in your hand.")
        if not PLAYABLE[cards[cid]]:
            n_heat += 1
    g = car["gear"]
    if abs(n - g) > 2:
        return msg(
            "From gear {g} you can shift to gear {lo} to {hi} only.", g=g, lo=max(1, g - 2), hi=min(MAX_GEAR, g + 2)
        )
    need = shift_heat(st, car, n)
    if need and len(car["engine"]) < need:
        if need == 1 and abs(n - g) == 2:
            return msg("Shifting 2 gears costs 1 Heat from your Engine, and it is empty.")
        return msg(
            "Shifting down on a flooded space costs {n} Heat from your Engine; you have {have}.",
            n=need,
            have=len(car["engine"]),
        )
    if n_heat:
        n_play = sum(1 for c in hand if PLAYABLE[cards[c]])
        if n <= n_play:
            # Your non-Heat cards can fill this gear: Heat cards stay in hand.
            return msg("Heat cards can't be played.")
        if n - n_heat != n_play:
            return msg("Your hand is clogged: play all your non-Heat cards and make up the rest with Heat.")
    return None


# --------------------------------------------------------------------------- movement helpers


def occupied(st: dict, tr: content.Track, seat: int | None) -> set[tuple[int, int]]:
    """Spots (space, lane) held by the other cars on the track (all of them for seat None).
    Cars that crossed the finish line this round keep their spot until the round ends."""
    n = tr.spaces
    me = st["cars"][seat] if seat is not None else None
    return {((c["pos"] - 1) % n + 1, c["lane"]) for c in st["cars"] if c is not me and c["place"] is None}


def landing(
    st: dict, tr: content.Track, seat: int, target: int, occ: set[tuple[int, int]] | None = None
) -> tuple[int, int]:
    """The spot a car ends on when its move ends at `target`: the race-line spot if free, else
    the other spot, else the first space behind with a free spot (cars never block passing)."""
    if occ is None:
        occ = occupied(st, tr, seat)
    n = tr.spaces
    race_lane = tr.race_lane
    a = target
    while True:
        sp = (a - 1) % n + 1
        rl = race_lane[sp]
        if (sp, rl) not in occ:
            return a, rl
        if (sp, 3 - rl) not in occ:
            return a, 3 - rl
        a -= 1


def move(st: dict, tr: content.Track, seat: int, n: int, occ: set[tuple[int, int]] | None = None) -> None:
    if n <= 0:
        # Rule reading: a car that moves 0 spaces stays on its spot.
        return
    car = st["cars"][seat]
    car["pos"], car["lane"] = landing(st, tr, seat, car["pos"] + n, occ)


def crossed_lines(tr: content.Track, start: int, end: int) -> tuple[tuple[int, int, int], ...]:
    """Corner lines (abs line, corner index, limit) crossed moving from `start` to `end`."""
    lp = tr.line_pos
    return tr.lines[bisect_left(lp, start) : bisect_left(lp, end)]


def corner_cost(tr: content.Track, start: int, end: int, speed: int, adj: int = 0) -> int:
    """Heat the corner checks would ask for (spins not considered); adj: the car's own limit change."""
    lp = tr.line_pos
    i = bisect_left(lp, start)
    j = bisect_left(lp, end)
    if i == j:  # (no corner line crossed: most moves)
        return 0
    cost = 0
    hot = tr.overheat
    for _, idx, limit in tr.lines[i:j]:  # (crossed_lines)
        if adj:
            limit = max(0, limit + adj)
        if speed > limit:
            cost += speed - limit + (1 if idx in hot else 0)
    return cost


def smart_move_ok(tr: content.Track, car: dict, end: int, speed: int) -> bool:
    """A "smart" preference goes on only when ending the move at `end` with round speed `speed`
    asks for no more corner Heat than stopping where the car is now."""
    rd = car["rd"]
    start = rd["start"]
    adj = rd["gx"]["adj"] if rd.get("gx") else 0
    return corner_cost(tr, start, end, speed, adj) <= corner_cost(tr, start, car["pos"], rd["speed"], adj)


def slipstream_lengths(st: dict, tr: content.Track, seat: int, occ: set[tuple[int, int]] | None = None) -> list[int]:
    """The slipstream moves open to the car, shortest first: [] when it cannot slipstream, [2],
    or with a sector's Slipstream +1 / weather +2 also the longer one (the longer one may be
    declined: only (!) effects are forced). None may cross the finish line."""
    if not can_slipstream(st, tr, seat, occ, 0):
        return []
    car = st["cars"][seat]
    fx = sector_fx(tr, car["pos"])
    if fx == "no_slipstream":
        return []
    out = [2]
    extra = 1 if fx == "slip_plus" else 2 if fx == "slipstream_boost" else 0
    if extra and car["pos"] + 2 + extra <= tr.finish:
        out.append(2 + extra)
    return out


def can_slipstream(
    st: dict, tr: content.Track, seat: int, occ: set[tuple[int, int]] | None = None, _sector: int = 1
) -> bool:
    car = st["cars"][seat]
    if car["gear"] < st.get("slip_min_gear", 0):  # Championship event: slipstream in gear 3-4 only
        return False
    if _sector and tr.sector_fx and sector_fx(tr, car["pos"]) == "no_slipstream":
        # Fog's weather sector: no slipstream starting here (into it is fine).
        return False
    if car["pos"] + 2 > tr.finish:
        # No slipstream past the finish line, nor across it.
        return False
    if occ is None:
        occ = occupied(st, tr, seat)
    sp = (car["pos"] - 1) % tr.spaces + 1
    ahead = sp % tr.spaces + 1
    # Rule reading: the seed allows beside (other spot of the same space) or directly behind
    # (same lane, next space); diagonally behind does not count.
    return (sp, 3 - car["lane"]) in occ or (ahead, car["lane"]) in occ


def shuffle(rng: Rng, seq: list) -> None:
    """Fisher-Yates drawing several indices from each 64-bit Rng output (mixed radix). Each
    index is uniform to within 2**-24, and it needs ~1 Rng call per 10 cards instead of 1 each."""
    x = rng.next64()
    for i, k, fresh in _shuffle_plan(len(seq)):
        if fresh:
            x = rng.next64()
        x, j = divmod(x, k)
        seq[i], seq[j] = seq[j], seq[i]


@lru_cache(maxsize=None)
def _shuffle_plan(n: int) -> tuple[tuple[int, int, bool], ...]:
    """shuffle's steps for n cards: (index i, radix k = i + 1, whether a fresh Rng output is drawn
    first). A fresh output is needed when the room left in the current one drops below k * 2**24;
    that depends on n alone, so it is worked out once per length."""
    plan = []
    room = 1 << 64
    for i in range(n - 1, 0, -1):
        k = i + 1
        fresh = room < k << 24
        if fresh:
            room = 1 << 64
        room //= k
        plan.append((i, k, fresh))
    return tuple(plan)


def reshuffle(car: dict, rng: Rng) -> None:
    """The discard pile becomes the new deck; cards in play this round stay out."""
    deck = car["discard"]
    car["discard"] = []
    shuffle(rng, deck)
    car["deck"] = deck


def flip_to_speed(st: dict, car: dict, rng: Rng) -> tuple[int | None, list[int]]:
    """Reveal from the deck until a Speed card. Returns (speed card id or None, other cards)."""
    cards = st["cards"]
    aside: list[int] = []
    found = None
    deck = car["deck"]
    while True:
        if not deck:
            if not car["discard"]:
                # Rule reading: with no Speed card left in deck or discard the flip gives 0.
                break
            reshuffle(car, rng)
            deck = car["deck"]
        cid = deck.pop()
        if KIND[cards[cid]] == "speed":
            found = cid
            break
        aside.append(cid)
    # Rule reading: revealed non-Speed cards are set aside and discarded once the Speed card is
    # found (so a reshuffle mid-flip cannot bring them back); the Speed card joins the played cards.
    car["discard"].extend(aside)
    if found is not None:
        car["played"].append(found)
    return found, aside


def pay_heat(car: dict, n: int) -> int:
    """Move up to n Heat cards from the Engine to the discard pile; returns how many moved."""
    engine = car["engine"]
    k = min(n, len(engine))
    if k > 0:  # (taken from the end, the last first, as k pops would)
        car["discard"] += engine[: -k - 1 : -1]
        del engine[-k:]
    return k


def draw_to_hand(car: dict, rng: Rng) -> None:
    hand = car["hand"]
    need = car.get("hand_size", HAND_SIZE) - len(hand)  # (Championship events: 8 or 6)
    while need > 0:
        deck = car["deck"]
        if not deck:
            if not car["discard"]:
                return
            reshuffle(car, rng)
            deck = car["deck"]
        # Draw k cards one by one from the top (the end of the list): the last k, last first.
        k = min(need, len(deck))
        hand.extend(deck[: -k - 1 : -1])
        del deck[-k:]
        need -= k


def race_order(st: dict, tr: content.Track) -> list[int]:
    """Cars still racing, leader first; on the same space the race-line spot goes first."""
    n = tr.spaces
    rl = tr.race_lane
    keyed = [
        (-c["pos"], 0 if c["lane"] == rl[(c["pos"] - 1) % n + 1] else 1, s)
        for s, c in enumerate(st["cars"])
        if not c["fin"]
    ]
    keyed.sort()
    return [k[2] for k in keyed]


def revealed_labels(st: dict, rev: list[list]) -> list[Msg]:
    """Readable labels of a round's revealed cards, e.g. "Stress → Speed 3"."""
    out = []
    for src, found in rev:
        label = msg("Boost") if src == BOOST_SOURCE else msg(LABEL[src])
        if isinstance(found, str) and found.startswith("="):
            label = msg("{card} = {v}", card=label, v=int(found[1:]))
        elif found != NO_FLIP:
            label = msg("{card} → {found}", card=label, found=msg(LABEL[found]) if found else msg("nothing"))
        out.append(label)
    return out


def short_list(st: dict, ids: list[int]) -> Any:
    cards = st["cards"]
    return plus(msg(SHORT[cards[c]]) for c in ids)


# --------------------------------------------------------------------------- the round
# Round-record lines (rd["lines"]) are compact [key, params] lists (`round_line`): they live in the
# state. The view and the events turn them into Msgs (`line_msg`); records saved by older versions
# may still hold Msgs in their JSON form or plain English strings.


def round_line(key: str, /, **params: Any) -> list:
    """A round-record line, compact (the record is part of the state): [key, params], a Msg
    only when shown (`line_msg`). Parameters are ints and strings; a Msg or a list is packed
    (`pack`); a dict is already packed (e.g. {"+": parts}: the parts joined with " + ")."""
    for k, v in params.items():
        t = type(v)
        if t is Msg or t is list or t is tuple:
            params[k] = pack(v)
    return [key, params]


def pack(v: Any) -> Any:
    """A parameter in its compact form: a Msg as [key] or [key, params], a list as {"[": items}."""
    t = type(v)
    if t is Msg:
        p = v.params
        return [v.key, {k: pack(x) for k, x in p.items()}] if p else [v.key]
    if t is list or t is tuple:
        return {"[": [pack(x) for x in v]}
    return v


def unpack(v: Any) -> Any:
    t = type(v)
    if t is list:
        return Msg(v[0], {k: unpack(x) for k, x in v[1].items()}) if len(v) > 1 else Msg(v[0])
    if t is dict:
        if "+" in v:
            return plus([unpack(x) for x in v["+"]])
        if "[" in v:
            return [unpack(x) for x in v["["]]
        if set(v) == {"msg", "params"}:  # a Msg in JSON form (schema 1)
            return Msg(v["msg"], {k: unpack(x) for k, x in v["params"].items()})
    return v


def line_msg(x: Any) -> Any:
    """A round-record line as a Msg (built for the view and the events only)."""
    t = type(x)
    if t is list:
        key, params = x
        for v in params.values():
            if type(v) is not int:
                return Msg(key, {k: unpack(v) for k, v in params.items()})
        return Msg(key, params)  # plain parameters: shared, as Msgs are never changed
    if t is dict:  # schema 1: a Msg in its JSON form
        return unpack(x)
    return x  # a line recorded as plain English by an older version


class CarLines(Msg):
    """A car's round in the log: msg("{who}: {lines}", who=..., lines=its lines joined with " · "),
    its parameters built from the compact lines only when the text is put into words (most
    events of a bot race or a replay never are). Equal to, and rendered as, that Msg."""

    __slots__ = ("_who", "_lines", "_params")

    def __init__(self, who: Any, lines: list) -> None:  # (Msg.__init__ is not called: params is lazy)
        self._who = who
        self._lines = tuple(lines)  # (a record's lines are only ever appended to; this keeps today's)
        self._params: dict | None = None

    key = "{who}: {lines}"

    @property
    def params(self) -> dict:  # type: ignore[override]
        if self._params is None:
            self._params = {"who": self._who, "lines": chain("{a} · {b}", [line_msg(x) for x in self._lines])}
        return self._params

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and other.key == self.key and other.params == self.params

    __hash__ = None

    def __repr__(self) -> str:
        return f"Msg({self.key!r}, {self.params!r})"

    def __reduce__(self) -> tuple:  # copies and pickles as a plain Msg
        return (Msg, (self.key, self.params))


def upgrade(st: dict) -> dict:
    """A state saved by an older version, in today's shape (a copy; the input is not changed).
    Schema 1 -> 2: round-record lines from Msgs in JSON form to compact lists."""
    if st.get("schema", 1) >= SCHEMA:
        return st
    new = clone(st)
    for car in new["cars"]:
        rd = car["rd"]
        if rd is not None:
            rd["lines"] = [round_line(m.key, **m.params) if type(m := unpack(x)) is Msg else x for x in rd["lines"]]
    new["schema"] = SCHEMA
    return new


def free_boost(tr: content.Track, car: dict) -> bool:
    """A Heat control road token's sector: a boost from here costs no Heat (still once a round)."""
    return bool(tr.sector_fx) and sector_fx(tr, car["pos"]) == "free_boost"
