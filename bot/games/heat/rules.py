"""Heat base race: state building and round resolution (pure functions over a plain-data state).

Everything here works on a state the caller already owns (cloned): functions mutate it in place.

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

from bot.games.heat import content
from bot.games.base import seat_ref
from bot.games.rng import Rng
from bot.games.text import chain, plus
from bot.i18n import Msg, msg

# 2: round-record lines are compact [key, params] lists (see _line); 1 held Msgs in JSON form.
SCHEMA = 2
# Modules come later, each as an option; the base race uses none.
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
GARAGE_PREFS: dict[str, tuple[str, ...]] = {"direct": ("smart", "always", "never"),
                                            "accelerate": ("smart", "always", "never"),
                                            # the cards with a choice of speed: chosen for you, or asked
                                            "choice": ("auto", "ask")}


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


# --------------------------------------------------------------------------- setup

def car_name(st: dict, s: int) -> Any:
    """How engine texts name a car: a seat (the table puts in the player's name) or a Legend."""
    return seat_name(s) if s < st["seats"] else msg("Legend {n}", n=s - st["seats"] + 1)


def new_state(track_key: str, seats: int, seed: int, grid: str | list[int], modules: list[str],
              garage: str | None = None, legends: int = 0, adjust: dict | None = None) -> dict:
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
    weather = None
    n_stress, n_heat, heat_to = tr.stress, tr.heat, None
    if adjust:  # Championship events: Heat in each Engine, Stress in each deck
        n_stress, n_heat = max(0, n_stress + adjust.get("stress", 0)), max(0, n_heat + adjust.get("heat", 0))
    if "weather" in modules:
        # Weather and road conditions: one of the six tiles, then one road token per corner
        # (the twelve shuffled); both before the decks are built and the hands drawn.
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
        if "heat_to_deck" in setup:
            heat_to = ("deck", setup["heat_to_deck"])
        elif "heat_to_discard" in setup:
            heat_to = ("discard", setup["heat_to_discard"])
    cards: list[str] = []
    cars = []
    garage_on = "garage" in modules
    for seat in range(seats):
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
        discard = []
        if heat_to is not None:  # rain: 3 Engine Heat into the deck (shuffled in); sun: to the discard
            moved = [engine.pop() for _ in range(min(heat_to[1], len(engine)))]
            (deck if heat_to[0] == "deck" else discard).extend(moved)
        if garage_on:
            hand = []  # drawn when the draft is over (「準備の最後で手札を7枚引く前に行う」)
        else:
            shuffle(rng, deck)
            hand = [deck.pop() for _ in range(min(HAND_SIZE, len(deck)))]
        space, lane = tr.grid[order.index(seat)]
        cars.append({
            "pos": space - tr.spaces if space > tr.spaces // 2 else space, "lane": lane, "gear": 1,
            "hand": hand, "deck": deck, "discard": discard, "engine": engine, "played": [],
            "sub": None, "prefs": dict(DEFAULT_PREFS, **({k: v[0] for k, v in GARAGE_PREFS.items()} if garage_on else {})),
            "fin": False, "place": None, "stress": 0,
            "rd": None,
        })
    for k in range(legends):
        space, lane = tr.grid[order.index(seats + k)]
        cars.append({
            "pos": space - tr.spaces if space > tr.spaces // 2 else space, "lane": lane, "gear": 1,
            "hand": [], "deck": [], "discard": [], "engine": [], "played": [], "sub": None, "prefs": {},
            "fin": False, "place": None, "stress": 0, "rd": None, "legend": k,
        })
    st = {
        "schema": SCHEMA, "rng": rng.state, "track": track_key, "modules": list(modules),
        "seats": seats, "adrenaline": 2 if ncars >= 5 else 1, "grid_order": order, "round": 1,
        "phase": "submit", "cards": cards, "cars": cars, "res": None, "pending": None,
        "places": [], "last_order": [],
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
        # Garage: the upgrade deck shuffled (the weather is already set up), then a draft of 3
        # rounds, players + 3 cards each: round 1 from the back of the grid, 2 from the front, 3
        # from the back again; each pick is one player's step.
        tiers = (("basic", "advanced") if garage == "mixed" else content.GARAGE_TIERS if garage == "all"
                 else (garage or "basic",))
        gdeck = [code for code, t in content.garage()["types"].items() if t["tier"] in tiers
                 for _ in range(content.garage()["copies"])]
        shuffle(rng, gdeck)
        st["rng"] = rng.state
        st["phase"] = "draft"
        st["draft"] = {"deck": gdeck, "round": 0, "market": [], "order": [], "i": 0, "picks": [[] for _ in range(seats)]}
        _draft_round(st)
    return st


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
    events: list[tuple[int | None, Msg]] = [(None, msg("{who} takes {card}.", who=seat_name(seat),
                                                      card=msg(draft_label(code))))]
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
    for s, car in enumerate(st["cars"][:st["seats"]]):
        for code in dr["picks"][s]:
            car["deck"].append(len(cards))
            cards.append("heat" if content.garage()["types"][code].get("heat_card") else code)
        shuffle(rng, car["deck"])
        car["hand"] = [car["deck"].pop() for _ in range(min(HAND_SIZE, len(car["deck"])))]
    st["garage"] = [list(p) for p in dr["picks"]]  # public: what each car was built with
    del st["draft"]
    st["phase"] = "submit"


_SYMBOL_TEXT = {
    "boost": "+{n} Boost", "cooldown": "Cooldown {n}", "reduce": "Discard up to {n} Stress", "heat": "Heat {n} (!)",
    "slipstream": "Slipstream +{n}", "scrap": "Scrap {n} (!)", "salvage": "Salvage {n}", "direct": "Direct play",
    "accelerate": "Accelerate +{n}", "refresh": "Refresh", "adjust": "Corner limits {n} (!)",
    "super_cool": "Super cool {n}",
}


_SYMBOL_SHORT = {
    "boost": "+{n} Boost", "cooldown": "Cool {n}", "reduce": "Stress -{n}", "heat": "Heat {n}!", "slipstream": "Slip +{n}",
    "scrap": "Scrap {n}!", "salvage": "Salvage {n}", "direct": "Direct", "accelerate": "Accel +{n}",
    "refresh": "Refresh", "adjust": "Limit {n}!", "super_cool": "S.cool {n}",
}


def _sponsor(code: str) -> dict | None:
    """A Championship sponsorship card's data (None for any other card)."""
    return _SPONSORS.get(code)


_SPONSORS = {k: v for k, v in TYPES.items() if v.get("sponsor")}
_SPONSORS = {k: {**v["garage"], "speed": v["speed"]} if "choices" not in v["garage"] else dict(v["garage"])
             for k, v in _SPONSORS.items()}


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
        new["draft"] = {**dr, "deck": dr["deck"][:], "market": dr["market"][:], "order": dr["order"][:],
                        "picks": [p[:] for p in dr["picks"]]}
    new["cars"] = [clone_car(c, rd=not (new_round and not c["fin"])) for c in st["cars"]]
    res = st["res"]
    if res is not None:
        new["res"] = {"order": res["order"][:], "i": res["i"], "step": res["step"], "adr": res["adr"][:]}
    if st["pending"] is not None:
        new["pending"] = dict(st["pending"])
    return new


def clone_car(c: dict, rd: bool = True) -> dict:
    """A copy of one car; its round record too unless rd is False (then it is shared)."""
    n = dict(c)
    n["hand"] = c["hand"][:]
    n["deck"] = c["deck"][:]
    n["discard"] = c["discard"][:]
    n["engine"] = c["engine"][:]
    n["played"] = c["played"][:]
    n["prefs"] = dict(c["prefs"])
    if c["sub"] is not None:
        n["sub"] = c["sub"][:]
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


def fillable_gears(st: dict, car: dict) -> tuple[list[int], list[int]]:
    """(gears the submission may use, the clogged ones among them). A gear is clogged when the
    playable (non-Heat) cards in hand cannot fill it: then every playable card is played and Heat
    cards make up the shortfall (and the car will not move)."""
    cards = st["cards"]
    hand = car["hand"]
    n_play = sum(1 for c in hand if PLAYABLE[cards[c]])
    # Rule reading: step 1 (shift) is a free choice (「そのままにするか、1段階上げ下げするかを
    # 選べる」) and step 2's shortfall (「ギアの枚数分のカードがプレイできない場合のみ」) is judged
    # for the gear chosen, so a gear the playable cards cannot fill is open too, filled with Heat.
    gears = [g for g in reachable_gears(car) if g <= len(hand)
             and (len(car["engine"]) >= 2 or shift_heat(st, car, g) <= len(car["engine"]))]  # (at most 2)
    return gears, [g for g in gears if g > n_play]


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
    return (1 if abs(diff) == 2 else 0) + (1 if diff < 0 and flooded_start(st, car) else 0)


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
        return msg("From gear {g} you can shift to gear {lo} to {hi} only.", g=g, lo=max(1, g - 2),
                 hi=min(MAX_GEAR, g + 2))
    need = shift_heat(st, car, n)
    if need and len(car["engine"]) < need:
        if need == 1 and abs(n - g) == 2:
            return msg("Shifting 2 gears costs 1 Heat from your Engine, and it is empty.")
        return msg("Shifting down on a flooded space costs {n} Heat from your Engine; you have {have}.",
                   n=need, have=len(car["engine"]))
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


def landing(st: dict, tr: content.Track, seat: int, target: int,
            occ: set[tuple[int, int]] | None = None) -> tuple[int, int]:
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
    return tr.lines[bisect_left(lp, start):bisect_left(lp, end)]


def corner_cost(tr: content.Track, start: int, end: int, speed: int, adj: int = 0) -> int:
    """Heat the corner checks would ask for (spins not considered); adj: the car's own limit change."""
    cost = 0
    hot = tr.overheat
    for _, idx, limit in crossed_lines(tr, start, end):
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


def slipstream_lengths(st: dict, tr: content.Track, seat: int,
                       occ: set[tuple[int, int]] | None = None) -> list[int]:
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


def can_slipstream(st: dict, tr: content.Track, seat: int, occ: set[tuple[int, int]] | None = None,
                   _sector: int = 1) -> bool:
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
    for _ in range(k):
        car["discard"].append(engine.pop())
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
        hand.extend(deck[:-k - 1:-1])
        del deck[-k:]
        need -= k


def race_order(st: dict, tr: content.Track) -> list[int]:
    """Cars still racing, leader first; on the same space the race-line spot goes first."""
    n = tr.spaces
    rl = tr.race_lane
    keyed = [(-c["pos"], 0 if c["lane"] == rl[(c["pos"] - 1) % n + 1] else 1, s)
             for s, c in enumerate(st["cars"]) if not c["fin"]]
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
# Round-record lines (rd["lines"]) are compact [key, params] lists (`_line`): they live in the
# state. The view and the events turn them into Msgs (`line_msg`); records saved by older versions
# may still hold Msgs in their JSON form or plain English strings.

def start_resolution(st: dict, rng: Rng) -> list[tuple[int | None, Msg]]:
    """All submissions are in: steps 1-2 for everyone (shift, play), then resolve."""
    tr = track_of(st)
    order = race_order(st, tr)
    rnd = st["round"]
    cars = st["cars"]
    if "legend_deck" in st:
        # The last round's Legend card is put away; this round's is turned up by the first Legend
        # to move (_reveal_legend_card).
        st["legend_card"] = None
    for s in order:
        car = cars[s]
        if "legend" in car:
            car["rd"] = {"round": rnd, "shown": False, "start": car["pos"], "speed": None, "rev": [], "adr": False,
                         "boost": False, "first": None, "done": "", "slip": False, "heat": 0, "spun": False,
                         "clog": False, "cool": 0, "lines": [], "ans": {}}
            continue
        sub = car["sub"]
        car["sub"] = None
        lines: list[dict] = []
        old = car["gear"]
        heat = 0
        need = shift_heat(st, car, len(sub))
        if st.get("tournament"):
            # Tournament mode: no step 1; the car shows how many cards it played and shifts in
            # its own step 3 (paying the 2-gear or flooded Heat then), see tournament_shift.
            need = 0
        if need and abs(len(sub) - old) == 2 and need == 1:
            heat = pay_heat(car, 1)
            lines.append(_line("Shifted 2 gears ({a} → {b}): 1 Heat", a=old, b=len(sub)))
        elif need:
            heat = pay_heat(car, need)
            lines.append(_line("Shifted down on a flooded space ({a} → {b}): {n} Heat", a=old, b=len(sub), n=need))
        car["rd"] = {"round": rnd, "shown": False, "start": car["pos"], "speed": None, "rev": [],
                     "adr": False, "boost": False, "first": None, "done": "", "slip": False, "heat": heat, "spun": False,
                     "clog": False, "cool": 0, "lines": lines, "ans": {}}
        hand = car["hand"]
        for cid in sub:
            hand.remove(cid)
        car["played"] = sub
        if st.get("tournament"):
            car["rd"]["shift"] = [old, len(sub)]
            continue
        car["gear"] = len(sub)
    # Rule reading: the race order is fixed when the round starts (cars that are passed during
    # the round keep their turn); the 2-gear shift Heat is paid then, before anyone moves.
    k = st["adrenaline"]
    st["res"] = {"order": order, "i": 0, "step": 0, "adr": order[-k:] if not st.get("no_adrenaline") else []}
    st["pending"] = None
    first = [(None, msg("Round {n}: all cards are in.", n=rnd))]
    if st.get("tournament"):
        from bot.games.heat.tournament import card_counts
        first.append(card_counts(st, order))
    return run(st, rng, first)


def run(st: dict, rng: Rng, events: list[tuple[int | None, Msg]]) -> list[tuple[int | None, Msg]]:
    """Resolve cars in race order until a decision is needed or the round ends."""
    tr = track_of(st)
    n = tr.spaces
    cars = st["cars"]
    res = st["res"]
    order = res["order"]
    i, step = res["i"], res["step"]
    # The spots held by the cars on the track (see occupied), kept up to date car by car: only
    # the resolving car moves, so the others' spots are this set without its own (two cars
    # never share a spot).
    spots = occupied(st, tr, None)
    while i < len(order):
        seat = order[i]
        car = cars[seat]
        spots.remove(((car["pos"] - 1) % n + 1, car["lane"]))
        paused = _resolve_legend(st, tr, seat, spots, rng) if "legend" in car else _resolve_car(st, tr, seat, rng, step, spots)
        if paused != DONE:
            res["i"], res["step"] = i, paused
            st["phase"] = "decide"
            return events
        if "champ" in st:  # Championship: press corners, the event's sponsorships and spin-out rule
            from bot.games.heat.championship import car_done
            events.extend(car_done(st, tr, seat, rng))
        if car["place"] is None:  # (a car the event put out of the race has left the track)
            spots.add(((car["pos"] - 1) % n + 1, car["lane"]))
        events.append((None, CarLines(car_name(st, seat), car["rd"]["lines"])))
        i += 1
        step = 0
    res["i"], res["step"] = i, 0
    _end_round(st, tr, events)
    return events


# --------------------------------------------------------------------------- Garage upgrades

def _garage_reveal(st: dict, tr: content.Track, seat: int, rng: Rng, occ: set[tuple[int, int]]) -> bool:
    """Step 3 with upgrade cards: boosts and Stress flip first, then the cards with a choice of
    speed take their values (「ブースト→ストレス→選択肢のある改良カードの値を選ぶ」). A card whose
    Heat cannot be paid is resolved like a Stress card (discarded, flip until a Speed card).
    The React step's symbols (cooldown, Stress discard, Heat) are kept in rd["gx"].
    Returns True when it waits for the player's choice of speed (preference "ask"): the flips
    are done and kept in rd["gwait"]; the step runs again with the answer."""
    car = st["cars"][seat]
    rd = car["rd"]
    cards = st["cards"]
    played = car["played"]
    adr = seat in st["res"]["adr"]
    wait = rd.get("gwait")
    if wait is not None:  # the answer to the choice of speed: the cards were revealed before
        gx = {k: (v[:] if type(v) is list else v) for k, v in rd["gx"].items()}
        speed, rev = wait["speed"], rd["rev"]
        parts = [_unpack(p) for p in wait["parts"]]
        choosing = [(i, cid) for i, cid in wait["choosing"]]
        del rd["gwait"]
        return _garage_values(st, tr, seat, occ, gx, speed, rev, parts, choosing, adr)
    # Rule reading: a card's Heat can be paid when the Engine, plus the Heat in hand this round's
    # cooldowns (gear, Adrenaline, the cards) could bring back first, covers it
    # (「クールダウンアイコンと手札にヒートカードがあれば…エンジンにヒートがない状態でもプレイできる」);
    # the weather sector is not counted (it depends on where the car ends).
    heat_in_hand = sum(1 for c in car["hand"] if cards[c] in HEAT_TYPES)
    cool = COOLDOWN.get(car["gear"], 0) + (1 if adr else 0) + sum(GARAGE.get(cards[c], {}).get("cooldown", 0)
                                                                   for c in played)
    budget = len(car["engine"]) + min(heat_in_hand, cool)
    gx = _new_gx()
    speed = 0
    rev: list[list] = []
    parts: list[Any] = []
    choosing: list[tuple[int, int]] = []  # (index in rev/parts, card id)
    for cid in played[:]:  # a copy: flipped Speed cards join `played`
        code = cards[cid]
        g = GARAGE.get(code, {})
        part: Any = Msg(SHORT[code])
        if g.get("heat") and budget < g["heat"]:
            # Unpaid Heat: like a Stress card (「ストレスカード同様に処理する」).
            found, aside = flip_to_speed(st, car, rng)
            f = cards[found] if found is not None else FLIP_NOTHING
            speed += SPEED[f] if f else 0
            part = Msg("{card} (Heat unpaid) → {found}", {"card": part, "found": Msg(SHORT[f]) if f else "0"})
            rev.append([code, f])
            parts.append(part)
            continue
        if g.get("heat"):
            budget -= g["heat"]
        _collect(gx, g, cid)
        gx["plus"] += BOOSTS[code]
        speed += SPEED[code]
        found = NO_FLIP
        for _ in range(BOOSTS[code]):  # Stress and "+" symbols: flip until a Speed card, once each
            fid, aside = flip_to_speed(st, car, rng)
            if fid is None:
                found = FLIP_NOTHING
                part = Msg("{card} → 0", {"card": part})
            else:
                found = cards[fid]
                speed += SPEED[found]
                part = Msg("{card} → {found}", {"card": part, "found": Msg(SHORT[found])})
        if code in CHOICES:
            choosing.append((len(rev), cid))
        rev.append([code, found])
        parts.append(part)
    return _garage_values(st, tr, seat, occ, gx, speed, rev, parts, choosing, adr)


def _garage_values(st: dict, tr: content.Track, seat: int, occ: set[tuple[int, int]], gx: dict, speed: int,
                   rev: list, parts: list, choosing: list[tuple[int, int]], adr: bool) -> bool:
    """The end of step 3 with upgrades: the values of the cards with a choice of speed, then the
    move. With the preference "ask" the player picks the total when it matters: when the choices
    can make more than one total speed (which card takes which value changes nothing else)."""
    car = st["cars"][seat]
    rd = car["rd"]
    cards = st["cards"]
    if choosing:
        options = [CHOICES[cards[c]] for _, c in choosing]
        combos = _products(options)
        totals = sorted({speed + sum(c) for c in combos})  # the round's speed with each choice
        if car["prefs"].get("choice", "auto") == "ask" and len(totals) > 1:
            if "choice" not in rd["ans"]:
                rd["rev"], rd["gx"], rd["speed"] = rev, gx, speed
                rd["gwait"] = {"speed": speed, "parts": [_pack(p) for p in parts],
                               "choosing": [list(x) for x in choosing]}
                _ask(st, seat, "choice", S_MOVE, base=speed,
                     options=choice_options(st, tr, seat, occ, totals, gx["heat"], gx["adj"]))
                return True
            total = rd["ans"].pop("choice")
            values = list(next((c for c in combos if speed + sum(c) == total), combos[0]))
        else:
            values = _choose_values(st, tr, seat, occ, speed, options, gx["heat"], gx["adj"])
        for (i, cid), v in zip(choosing, values):
            speed += v
            rev[i][1] = f"={v}"
            parts[i] = Msg("{card} = {v}", {"card": parts[i], "v": v})
    rd["rev"] = rev
    rd["speed"] = speed
    rd["gx"] = gx
    rd["lines"].append(_line("Gear {g}: {cards} = speed {s}", g=car["gear"], cards=plus(parts), s=speed))
    move(st, tr, seat, speed, occ)
    if adr:
        rd["adr"] = True
        rd["lines"].append(_line("Adrenaline"))
    return False


def choice_options(st: dict, tr: content.Track, seat: int, occ: set[tuple[int, int]],
                   totals: list[int], card_heat: int, adj: int = 0) -> list[list]:
    """For the "ask" choice of speed: each total with where it takes the car and what its corner
    checks would cost: [total, space, corner Heat, spins (the Engine can't pay), finishes]."""
    car = st["cars"][seat]
    start = car["pos"]
    heat = len(car["engine"]) - card_heat
    out = []
    for total in totals:
        end = landing(st, tr, seat, start + total, occ)[0] if total > 0 else start
        cost = corner_cost(tr, start, end, total, adj)
        out.append([total, space_of(tr, end), cost, cost > heat, end > tr.finish])
    return out


def _new_gx() -> dict:
    """A round's upgrade symbols still to resolve: cooldown, Stress to discard, Heat to pay,
    slipstream bonuses, scrap, salvage, Accelerate (per "+"), "+" resolutions, the limit
    adjustment, the cards to Refresh."""
    return {"cool": 0, "reduce": 0, "heat": 0, "slip": [], "scrap": 0, "salvage": 0, "acc": 0, "plus": 0,
            "adj": 0, "refresh": []}


def _collect(gx: dict, g: dict, cid: int) -> None:
    gx["heat"] += g.get("heat", 0)
    gx["cool"] += g.get("cooldown", 0)
    gx["reduce"] += g.get("reduce", 0)
    gx["scrap"] += g.get("scrap", 0)
    gx["salvage"] += g.get("salvage", 0)
    gx["acc"] += g.get("accelerate", 0)
    gx["adj"] += g.get("adjust", 0)
    if g.get("slipstream"):
        gx["slip"].append(g["slipstream"])
    if g.get("refresh"):
        gx["refresh"].append(cid)
    if g.get("super_cool"):  # (the key only when a card has it: older round records stay as they were)
        gx["super"] = gx.get("super", 0) + g["super_cool"]


def _choose_values(st: dict, tr: content.Track, seat: int, occ: set[tuple[int, int]], base: int,
                   choices: list[tuple[int, ...]], card_heat: int, adj: int = 0) -> list[int]:
    """The values for the cards with a choice of speed, chosen for the player: never a spin when
    another choice avoids it, then the least corner Heat, then the farthest move."""
    car = st["cars"][seat]
    start = car["pos"]
    heat = len(car["engine"]) - card_heat
    best = None
    for combo in _products(choices):
        total = base + sum(combo)
        end = landing(st, tr, seat, start + total, occ)[0] if total > 0 else start
        cost = corner_cost(tr, start, end, total, adj)
        key = (cost > heat, cost, -end, -total)
        if best is None or key < best[0]:
            best = (key, combo)
    return list(best[1])


def _products(choices: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for values in choices:
        out = [p + (v,) for p in out for v in values]
    return out


def _garage_react(st: dict, car: dict, rd: dict, gx: dict, rng: Rng) -> None:
    """Step 5 for upgrade symbols, after the cooldown: discard Stress from the hand (optional, all
    it allows), then the upgrades' Heat (mandatory, Engine to discard pile)."""
    cards = st["cards"]
    lines = rd["lines"]
    if gx["reduce"]:
        stress = [c for c in car["hand"] if cards[c] == "stress"][:gx["reduce"]]
        for c in stress:
            car["hand"].remove(c)
            car["discard"].append(c)
        if stress:
            lines.append(_line("Discarded {n} Stress (upgrade)", n=len(stress)))
    if gx.get("super"):
        # Super Cool N (大雨): 「捨て山を調べて、そこから最大#枚のヒートカードをエンジンに戻す」, all it
        # can (more Heat in the Engine never hurts). Rule reading: it comes before the upgrades'
        # own Heat is paid, so it returns Heat that was in the discard pile when step 5 began.
        back = [c for c in car["discard"] if cards[c] in HEAT_TYPES][:gx["super"]]
        for c in back:
            car["discard"].remove(c)
            car["engine"].append(c)
        lines.append(_line("Super cool: {n} Heat from the discard pile to the Engine", n=len(back)))
    if gx["heat"]:
        paid = pay_heat(car, gx["heat"])
        rd["heat"] += paid
        lines.append(_line("Upgrade Heat: paid {h}", h=paid))
    _scrap_salvage(st, car, gx["scrap"], gx["salvage"], rng, lines)


def _scrap_salvage(st: dict, car: dict, scrap: int, salvage: int, rng: Rng, lines: list) -> None:
    """Scrap N (!): the top N cards of the deck to the discard pile (the discard reshuffled when
    the deck runs out). Salvage N: up to N cards from the discard pile shuffled into the deck:
    chosen for the player, the fastest cards (never Heat or Stress)."""
    cards = st["cards"]
    if scrap:
        n = 0
        for _ in range(scrap):
            if not car["deck"]:
                if not car["discard"]:
                    break
                reshuffle(car, rng)
            car["discard"].append(car["deck"].pop())
            n += 1
        lines.append(_line("Scrap: {n} cards from the deck discarded", n=n))
    if salvage:
        pick = sorted((c for c in car["discard"] if DISCARDABLE[cards[c]] and KIND[cards[c]] != "heat"),
                      key=lambda c: (-SPEED[cards[c]], c))[:salvage]
        if pick:
            for c in pick:
                car["discard"].remove(c)
            car["deck"].extend(pick)
            shuffle(rng, car["deck"])
            lines.append(_line("Salvage: {n} cards shuffled back into the deck", n=len(pick)))


def _react_direct(st: dict, tr: content.Track, seat: int, rng: Rng, occ: set[tuple[int, int]]) -> None:
    """Direct play: a card with the symbol may be played from the hand in step 5 (not counted in
    the gear); its speed is a move of its own that counts for corners, its symbols resolve.
    Preference: smart (only when it costs no more corner Heat), always, never. A card whose Heat
    the Engine cannot pay is not played."""
    car = st["cars"][seat]
    rd = car["rd"]
    pref = car["prefs"].get("direct", "smart")
    if pref == "never":
        return
    cards = st["cards"]
    for cid in sorted(c for c in car["hand"] if GARAGE.get(cards[c], {}).get("direct")):
        code = cards[cid]
        g = GARAGE[code]
        if g.get("heat", 0) > len(car["engine"]):
            continue
        gx = dict(rd["gx"])  # (a new record: the old one may be shared with the input state)
        adj = gx["adj"] + g.get("adjust", 0)
        if code in CHOICES:
            v = _choose_values(st, tr, seat, occ, rd["speed"], [CHOICES[code]], g.get("heat", 0), adj)[0]
        else:
            v = SPEED[code]
        end = landing(st, tr, seat, car["pos"] + v, occ)[0] if v > 0 else car["pos"]
        if pref == "smart":
            start = rd["start"]
            if corner_cost(tr, start, end, rd["speed"] + v, adj) > corner_cost(tr, start, car["pos"], rd["speed"],
                                                                                gx["adj"]):
                continue
        car["hand"].remove(cid)
        car["played"].append(cid)
        rd["speed"] += v
        rd["rev"].append([code, f"={v}" if code in CHOICES else NO_FLIP])
        gx["slip"] = gx["slip"] + ([g["slipstream"]] if g.get("slipstream") else [])
        gx["refresh"] = gx["refresh"] + ([cid] if g.get("refresh") else [])
        gx["acc"] += g.get("accelerate", 0)
        gx["adj"] = adj
        rd["gx"] = gx
        rd["lines"].append(_line("Direct play: {card} +{v} → speed {s}", card=Msg(SHORT[code]), v=v, s=rd["speed"]))
        move(st, tr, seat, v, occ)
        if g.get("heat"):
            rd["heat"] += pay_heat(car, g["heat"])
        if g.get("cooldown"):
            heat = [c for c in car["hand"] if cards[c] in HEAT_TYPES][:g["cooldown"]]
            for c in heat:
                car["hand"].remove(c)
                car["engine"].append(c)
            rd["cool"] += len(heat)
        _scrap_salvage(st, car, g.get("scrap", 0), g.get("salvage", 0), rng, rd["lines"])


def _react_accelerate(st: dict, tr: content.Track, seat: int, occ: set[tuple[int, int]]) -> None:
    """Accelerate N: +N speed for each "+" icon played this round (Stress cards and the upgrades'
    "+" symbols: 「プレイした「+」アイコンの数に等しい」, so not the Heat-paid Boost), all or nothing,
    as a move of its own that counts for corners (preference as for Adrenaline)."""
    car = st["cars"][seat]
    rd = car["rd"]
    gx = rd["gx"]
    bonus = gx["acc"] * gx["plus"]
    pref = car["prefs"].get("accelerate", "smart")
    if bonus <= 0 or pref == "never":
        return
    end = landing(st, tr, seat, car["pos"] + bonus, occ)[0]
    if pref == "smart" and not smart_move_ok(tr, car, end, rd["speed"] + bonus):
        return
    rd["speed"] += bonus
    rd["lines"].append(_line("Accelerate +{v} → speed {s}", v=bonus, s=rd["speed"]))
    move(st, tr, seat, bonus, occ)


def _with_bonuses(lengths: list[int], bonuses: list[int], pos: int, finish: int) -> list[int]:
    """Slipstream lengths with the upgrades' +N added: each bonus taken or not."""
    out = set(lengths)
    for b in bonuses:
        out |= {k + b for k in out}
    return sorted(k for k in out if pos + k <= finish)


# --------------------------------------------------------------------------- Legends

def _reveal_legend_card(st: dict, rng: Rng) -> None:
    """The Legends' shared card for the round: the top of the Legend deck, turned up when the
    first Legend moves (「レジェンドが最初に公開と移動を行うステップ」でレジェンドデッキの一番上の
    カードを公開し), not before: until then nobody knows it. The used cards are shuffled into a new
    deck when it runs out (「レジェンドデッキが尽きたら、使用済みのカードをシャッフル」)."""
    if st["legend_card"] is not None:  # (turned up already this round)
        return
    if not st["legend_deck"]:
        st["legend_deck"] = st["legend_used"]
        st["legend_used"] = []
        shuffle(rng, st["legend_deck"])
    st["legend_card"] = st["legend_deck"].pop()
    st["legend_used"].append(st["legend_card"])


def _resolve_legend(st: dict, tr: content.Track, s: int, occ: set[tuple[int, int]], rng: Rng) -> int:
    """A Legend's move with this round's Legend card (its colour column: helmet number, diamond):
    A, past the Legend line of the next corner: the corner's limit (road tokens included) +
    the diamond, never past a second corner line (it stops on the first free spot before it);
    B, before that line: the helmet number, but never over the corner line: then it stops on
    the diamond space (diamond k = k spaces before the line) or the first free spot behind.
    No slipstream, Heat, cooldown or spin; it counts for Adrenaline but takes none."""
    car = st["cars"][s]
    rd = car["rd"]
    _reveal_legend_card(st, rng)
    helmet, diamond = content.legend_cards()[st["legend_card"]][car["legend"] % 6]
    helmet += st.get("legend_bonus", 0)  # advanced Legends (「ヘルメットに示された数字を+1または+2」)
    pos = car["pos"]
    lines = tr.lines
    i = bisect_left(tr.line_pos, pos)  # the next corner line ahead (a car on `line` has not crossed it)
    if i >= len(lines):
        # No corner before the finish line: straight on by the helmet number.
        target = pos + helmet
        rd["lines"].append(_line("Legend card: helmet {h}", h=helmet))
    else:
        line, idx, limit = lines[i]
        legend_line = line - tr.corners[idx].space + tr.corners[idx].legend
        if pos > legend_line:
            target = pos + limit + diamond
            # Rule reading: "never two corners in one move": a move that would cross the next
            # corner line after this one stops before it (「2つ目のコーナー手前の最初の空マス」).
            # Aggressive Legends (大雨): 「『∧』のあるダイヤモンドマスでターンを開始した場合、追加で
            # コーナーラインを1つ越えることがあります」: one more line. Rule reading (BGA's data, whose
            # Mexico value 4 lies past the printed diamonds): the ∧ is `aggressive` spaces before
            # the line, and a Legend starting its turn there or nearer the line qualifies.
            agg = tr.corners[idx].aggressive
            more = 1 if st.get("aggressive_legends") and agg and line - agg <= pos <= line else 0
            stop = i + 1 + more
            if stop < len(lines) and target > lines[stop][0]:
                target = lines[stop][0]
            rd["lines"].append(_line("Legend card: clears corner {c}: limit {l} + diamond {d}", c=idx + 1, l=limit,
                                     d=diamond))
            if more and target > lines[i + 1][0]:
                rd["lines"].append(_line("Aggressive Legend: crosses one more corner line"))
        else:
            target = pos + helmet
            if target > line:
                # Rule reading: a Legend never moves backwards when its diamond space is behind it.
                target = max(pos, line - diamond)
                rd["lines"].append(_line("Legend card: helmet {h}, stops at diamond {d} before corner {c}", h=helmet,
                                         d=diamond, c=idx + 1))
            else:
                rd["lines"].append(_line("Legend card: helmet {h}", h=helmet))
    rd["shown"] = True
    rd["speed"] = target - pos
    if target > pos:
        car["pos"], car["lane"] = landing(st, tr, s, target, occ)
    if s in st["res"]["adr"]:
        rd["lines"].append(_line("Adrenaline (not taken by a Legend)"))
    if car["pos"] > tr.finish:
        car["fin"] = True
        rd["lines"].append(_line("Crossed the finish line!"))
    else:
        rd["lines"].append(_line("Space {s}, lap {l}/{n}", s=space_of(tr, car["pos"]), l=lap_of(tr, car), n=tr.laps))
    return DONE


def _ask(st: dict, seat: int, kind: str, step: int, **extra: Any) -> int:
    st["pending"] = {"seat": seat, "type": kind, **extra}
    return step


def _line(key: str, /, **params: Any) -> list:
    """A round-record line, compact (the record is part of the state): [key, params], a Msg
    only when shown (`line_msg`). Parameters are ints and strings; a Msg or a list is packed
    (`_pack`); a dict is already packed (e.g. {"+": parts}: the parts joined with " + ")."""
    for k, v in params.items():
        t = type(v)
        if t is Msg or t is list or t is tuple:
            params[k] = _pack(v)
    return [key, params]


def _pack(v: Any) -> Any:
    """A parameter in its compact form: a Msg as [key] or [key, params], a list as {"[": items}."""
    t = type(v)
    if t is Msg:
        p = v.params
        return [v.key, {k: _pack(x) for k, x in p.items()}] if p else [v.key]
    if t is list or t is tuple:
        return {"[": [_pack(x) for x in v]}
    return v


def _unpack(v: Any) -> Any:
    t = type(v)
    if t is list:
        return Msg(v[0], {k: _unpack(x) for k, x in v[1].items()}) if len(v) > 1 else Msg(v[0])
    if t is dict:
        if "+" in v:
            return plus([_unpack(x) for x in v["+"]])
        if "[" in v:
            return [_unpack(x) for x in v["["]]
        if set(v) == {"msg", "params"}:  # a Msg in JSON form (schema 1)
            return Msg(v["msg"], {k: _unpack(x) for k, x in v["params"].items()})
    return v


def line_msg(x: Any) -> Any:
    """A round-record line as a Msg (built for the view and the events only)."""
    t = type(x)
    if t is list:
        key, params = x
        for v in params.values():
            if type(v) is not int:
                return Msg(key, {k: _unpack(v) for k, v in params.items()})
        return Msg(key, params)  # plain parameters: shared, as Msgs are never changed
    if t is dict:  # schema 1: a Msg in its JSON form
        return _unpack(x)
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

    key = "{who}: {lines}"  # type: ignore[assignment]

    @property  # type: ignore[override]
    def params(self) -> dict:
        if self._params is None:
            self._params = {"who": self._who, "lines": chain("{a} · {b}", [line_msg(x) for x in self._lines])}
        return self._params

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and other.key == self.key and other.params == self.params

    __hash__ = None  # type: ignore[assignment]

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
            rd["lines"] = [_line(m.key, **m.params) if type(m := _unpack(x)) is Msg else x for x in rd["lines"]]
    new["schema"] = SCHEMA
    return new


def free_boost(tr: content.Track, car: dict) -> bool:
    """A Heat control road token's sector: a boost from here costs no Heat (still once a round)."""
    return bool(tr.sector_fx) and sector_fx(tr, car["pos"]) == "free_boost"


def _react_open(tr: content.Track, car: dict, rd: dict, sym: str) -> bool:
    """Whether the boost / the Adrenaline +1 may still happen this round (preferences allowing)."""
    if sym == "boost":
        return car["prefs"]["boost"] != "never" and (bool(car["engine"]) or free_boost(tr, car)) \
            and not rd["boost"] and "b" not in rd.get("done", "")
    return rd["adr"] and car["prefs"]["adrenaline"] != "never" and "a" not in rd.get("done", "")


def _two_moves(st: dict, tr: content.Track, seat: int, occ: set[tuple[int, int]], a: int, b: int) -> int:
    """Where the car ends after a move of `a` spaces, then one of `b` (each lands on its own)."""
    car = st["cars"][seat]
    pos = car["pos"]
    if a > 0:
        pos, _ = landing(st, tr, seat, pos + a, occ)
    if b > 0:
        pos, _ = landing(st, tr, seat, pos + b, occ)
    return pos


# A boost flips one Speed card (1-4), or nothing (0) when no Speed card is left.
BOOST_VALUES = (0, 1, 2, 3, 4)


def order_matters(st: dict, tr: content.Track, seat: int, occ: set[tuple[int, int]]) -> bool:
    """Whether boost-then-Adrenaline and Adrenaline-then-boost can end on different spaces, for
    any boost value (judged before the flip: the order is chosen without seeing the deck)."""
    return any(_two_moves(st, tr, seat, occ, v, 1) != _two_moves(st, tr, seat, occ, 1, v) for v in BOOST_VALUES)


def best_first(st: dict, tr: content.Track, seat: int, occ: set[tuple[int, int]]) -> str:
    """The "best" order: the one that lands farthest whatever the boost shows. Landing is
    monotone, so the Adrenaline goes first exactly when the space just ahead has a free spot
    (then it never ends behind the other order); otherwise the boost goes first."""
    car = st["cars"][seat]
    ahead, _ = landing(st, tr, seat, car["pos"] + 1, occ)
    return "adrenaline" if ahead == car["pos"] + 1 else "boost"


def _react_boost(st: dict, tr: content.Track, seat: int, rng: Rng, occ: set[tuple[int, int]]) -> bool:
    """Step 5, one boost (1 Heat from the Engine, flip until a Speed card, move that far).
    Returns True when it waits for the player's answer."""
    car = st["cars"][seat]
    rd = car["rd"]
    ans = rd["ans"]
    pref = car["prefs"]["boost"]
    free = free_boost(tr, car)  # judged where the car stands when it boosts
    if pref != "never" and (car["engine"] or free) and not rd["boost"]:
        use = True
        if pref == "ask":
            if "boost" not in ans:
                _ask(st, seat, "boost", S_BOOST)
                return True
            use = ans.pop("boost")
        elif pref == "smart":
            # Boost only when even the best flip (4) cannot cost Heat at a corner.
            end, _ = landing(st, tr, seat, car["pos"] + 4, occ)
            use = smart_move_ok(tr, car, end, rd["speed"] + 4)
        if use:
            cards = st["cards"]
            if not free:
                rd["heat"] += pay_heat(car, 1)
            rd["boost"] = True
            found, aside = flip_to_speed(st, car, rng)
            v = SPEED[cards[found]] if found is not None else 0
            rd["speed"] += v
            rd["rev"].append([BOOST_SOURCE, cards[found] if found is not None else FLIP_NOTHING])
            if free and aside:
                rd["lines"].append(_line("Free boost (road token): +{v} ({n} discarded) → speed {s}", v=v,
                                         n=len(aside), s=rd["speed"]))
            elif free:
                rd["lines"].append(_line("Free boost (road token): +{v} → speed {s}", v=v, s=rd["speed"]))
            elif aside:
                rd["lines"].append(_line("Boost (1 Heat): +{v} ({n} discarded) → speed {s}", v=v, n=len(aside),
                                         s=rd["speed"]))
            else:
                rd["lines"].append(_line("Boost (1 Heat): +{v} → speed {s}", v=v, s=rd["speed"]))
            move(st, tr, seat, v, occ)
    return False


def _react_adrenaline(st: dict, tr: content.Track, seat: int, rng: Rng, occ: set[tuple[int, int]]) -> bool:
    """Step 5, the Adrenaline +1 (a separate move; it counts as speed for corners).
    Returns True when it waits for the player's answer."""
    car = st["cars"][seat]
    rd = car["rd"]
    ans = rd["ans"]
    pref = car["prefs"]["adrenaline"]
    if rd["adr"] and pref != "never":
        use = True
        if pref == "ask":
            if "adrenaline" not in ans:
                _ask(st, seat, "adrenaline", S_BOOST)
                return True
            use = ans.pop("adrenaline")
        elif pref == "smart":
            end, _ = landing(st, tr, seat, car["pos"] + 1, occ)
            use = smart_move_ok(tr, car, end, rd["speed"] + 1)
        if use:
            rd["speed"] += 1
            rd["lines"].append(_line("Adrenaline +1 → speed {s}", s=rd["speed"]))
            move(st, tr, seat, 1, occ)
    return False


def _resolve_car(st: dict, tr: content.Track, seat: int, rng: Rng, step: int, occ: set[tuple[int, int]]) -> int:
    """Steps 3-9 for one car from `step` on. Returns DONE, or the step that waits for a decision
    (st["pending"] then says which); the answer is in rd["ans"] when the step runs again.
    occ: the other cars' spots (only this car moves until it is done, so they stay put)."""
    car = st["cars"][seat]
    rd = car["rd"]
    cards = st["cards"]
    prefs = car["prefs"]
    lines = rd["lines"]
    ans = rd["ans"]

    # 3. Reveal and move (stress cards flip until a Speed card); 4. Adrenaline is marked.
    if step <= S_MOVE:
        rd["shown"] = True
        if rd.get("shift"):  # Tournament mode: the gear shift now, in this car's step 3
            from bot.games.heat.tournament import tournament_shift
            tournament_shift(st, car, rd)
        played = car["played"]
        if not all([PLAYABLE[cards[c]] for c in played]):  # (a list: faster than a generator here)
            # Clogged hand: no move this round, gear 1, the cards (Heat included) are discarded.
            # Rule reading: such a car skips steps 4-8 (no Adrenaline, React, Slipstream, ...).
            rd["clog"] = True
            rd["speed"] = 0
            rd["rev"] = [[cards[c], NO_FLIP] for c in played]
            car["gear"] = 1
            lines.append(_line("Clogged hand: played {cards}; no move, back to gear 1", cards=short_list(st, played)))
            step = S_REFILL
        elif "garage" in st["modules"]:
            if _garage_reveal(st, tr, seat, rng, occ):
                return S_MOVE  # waiting for the choice of speed
            step = S_COOL
        else:
            speed = 0
            rev = []
            parts = []
            for cid in played[:]:  # a copy: flipped Speed cards join `played`
                code = cards[cid]
                speed += SPEED[code]
                part: Any = [SHORT[code]]  # (a packed Msg, see _pack: the line is stored as it is)
                found = NO_FLIP
                boosts = BOOSTS[code]
                while boosts:  # Stress: flip until a Speed card, once per symbol
                    boosts -= 1
                    found, aside = flip_to_speed(st, car, rng)
                    if found is None:
                        found = FLIP_NOTHING
                        part = ["{card} → 0", {"card": part}]
                    else:
                        found = cards[found]
                        speed += SPEED[found]
                        part = ["{card} → {found}", {"card": part, "found": [SHORT[found]]}]
                    if aside:
                        part = ["{card} ({n} discarded)", {"card": part, "n": len(aside)}]
                rev.append([code, found])
                parts.append(part)
            rd["rev"] = rev
            rd["speed"] = speed
            lines.append(["Gear {g}: {cards} = speed {s}", {"g": car["gear"], "cards": {"+": parts}, "s": speed}])
            move(st, tr, seat, speed, occ)
            # Rule reading: the number of cars getting Adrenaline (1, or 2 with 5+ cars at the
            # start) never changes; they are the last cars of this round's order still racing.
            if seat in st["res"]["adr"]:
                rd["adr"] = True
                lines.append(_line("Adrenaline"))
            step = S_COOL

    if step <= S_COOL:
        # 5. React: Heat cards from the hand back to the Engine (gear 1: 3, gear 2: 1, +1 Adrenaline).
        # Rule reading: the seed lets the symbols go in any order (「任意の順番で」); cooldown always
        # goes first: it only puts Heat back in the Engine (which a boost may need) and never
        # changes a move, so no other order can do better.
        n = COOLDOWN.get(car["gear"], 0) + (1 if rd["adr"] else 0)
        gx = rd.get("gx")
        if gx:
            n += gx["cool"]
        if tr.sector_fx:
            # Rule reading: the React step's sector is where the car stands after its move (step 3);
            # cooldown goes first (see above), so that is where it cools down.
            fx = sector_fx(tr, car["pos"])
            if fx == "no_cooldown":
                n = 0
            elif fx == "cooldown_bonus":
                n += 1
        if n:
            hand = car["hand"]
            heat = [c for c in hand if cards[c] in HEAT_TYPES]
            m = min(n, len(heat))
            if m:
                if prefs["cooldown"] == "ask":
                    if "cooldown" not in ans:
                        return _ask(st, seat, "cooldown", S_COOL, max=m)
                    ids = ans.pop("cooldown")
                else:
                    ids = heat[:m]
                for c in ids:
                    hand.remove(c)
                    car["engine"].append(c)
                rd["cool"] += len(ids)
                if ids:
                    lines.append(_line("Cooled down {n} Heat", n=len(ids)))
        if gx:
            _garage_react(st, car, rd, gx, rng)

    if step <= S_ADR:
        # 5. React: the boost and the Adrenaline +1, each a move of its own (they are not added up
        # to pass cars); all of their speed counts for the corner checks.
        # Rule reading: 「自分が得たシンボルを任意の順番で解決できる」: the player picks which goes
        # first, when both are open and the order can change where the car lands.
        if step == S_ADR and rd.get("first") is None:
            rd["first"], rd["done"] = "boost", "b"  # a round paused at S_ADR by an older version
        first = rd.get("first")
        if first is None:
            first = "boost"
            if _react_open(tr, car, rd, "boost") and _react_open(tr, car, rd, "adrenaline") \
                    and order_matters(st, tr, seat, occ):
                if prefs.get("order", "best") == "ask":  # (.get: cars saved before "order" existed)
                    if "order" not in ans:
                        return _ask(st, seat, "order", S_BOOST)
                    first = ans.pop("order")
                else:
                    first = best_first(st, tr, seat, occ)
            rd["first"] = first
        for sym in (("boost", "adrenaline") if first == "boost" else ("adrenaline", "boost")):
            if sym[0] in rd.get("done", ""):
                continue
            if (_react_boost if sym == "boost" else _react_adrenaline)(st, tr, seat, rng, occ):
                return S_BOOST
            rd["done"] = rd.get("done", "") + sym[0]

    if rd.get("gx") is not None and not rd.get("dd"):
        # 5. React, the upgrades' moves: Direct play cards from the hand, then Accelerate.
        rd["dd"] = True
        _react_direct(st, tr, seat, rng, occ)
        _react_accelerate(st, tr, seat, occ)

    if step <= S_SLIP:
        # 6. Slipstream: +2 spaces, once, not counted as speed.
        # Rule reading: a car past the finish line only adds Boost/Adrenaline (which can matter for
        # the same-round ranking); it no longer slipstreams, discards or draws.
        pref = prefs["slipstream"]
        if pref != "never" and can_slipstream(st, tr, seat, occ):
            lengths = slipstream_lengths(st, tr, seat, occ) if tr.sector_fx else [2]
            if lengths and rd.get("gx") and rd["gx"]["slip"]:
                lengths = _with_bonuses(lengths, rd["gx"]["slip"], car["pos"], tr.finish)
            use: Any = lengths[-1] if lengths else 0
            if not lengths:
                pass
            elif pref == "ask":
                if "slipstream" not in ans:
                    if len(lengths) > 1:
                        return _ask(st, seat, "slipstream", S_SLIP, lengths=lengths)
                    return _ask(st, seat, "slipstream", S_SLIP)
                got = ans.pop("slipstream")
                use = (got if got in lengths else lengths[-1]) if got else 0
            elif pref == "smart":
                use = 0
                for k in reversed(lengths):  # the longest one that costs no more corner Heat
                    end, _ = landing(st, tr, seat, car["pos"] + k, occ)
                    if smart_move_ok(tr, car, end, rd["speed"]):
                        use = k
                        break
            if use:
                rd["slip"] = True
                lines.append(_line("Slipstream +{n}", n=use) if use != 2 else _line("Slipstream +2"))
                rd["slip_from"] = car["pos"]  # (Championship: a press corner crossed by slipstream)
                move(st, tr, seat, use, occ)

    if step <= S_CORNERS:
        # 7. Corner checks, line by line in the order crossed.
        speed = rd["speed"]
        hot = tr.overheat
        adj = rd["gx"]["adj"] if rd.get("gx") else 0
        for line, idx, limit in crossed_lines(tr, rd["start"], car["pos"]):
            if adj:  # Adjust speed limit (!): this car's limits this round
                limit = max(0, limit + adj)
            excess = speed - limit
            if excess <= 0:
                lines.append(["Corner {c} (limit {l}): OK", {"c": idx + 1, "l": limit}])
                continue
            if idx in hot:
                excess += 1  # Overheat road token: going over the limit costs 1 Heat more
            paid = pay_heat(car, excess)
            rd["heat"] += paid
            if paid == excess:
                if idx in hot:
                    lines.append(_line("Corner {c} (limit {l}, Overheat): paid {h} Heat", c=idx + 1, l=limit,
                                       h=paid))
                else:
                    lines.append(_line("Corner {c} (limit {l}): paid {h} Heat", c=idx + 1, l=limit, h=paid))
                continue
            # Spin-out: pay what you can, back before the line, Stress by gear, gear 1.
            car["pos"], car["lane"] = landing(st, tr, seat, line, occ)
            nstress = SPIN_STRESS.get(car["gear"], 1)
            for _ in range(nstress):
                # Rule reading: Stress cards come from an unlimited supply, into the hand.
                car["hand"].append(len(cards))
                cards.append("stress")
            car["stress"] += nstress
            car["gear"] = 1
            rd["spun"] = True
            lines.append(_line("Corner {c} (limit {l}): SPIN after paying {h} Heat; {k} Stress, gear 1", c=idx + 1, l=limit, h=paid, k=nstress))
            break  # the car is back before this line: later lines were not crossed
        if car["pos"] > tr.finish:
            car["fin"] = True
            lines.append(_line("Crossed the finish line!"))
        if "champ" in st:  # Championship: sponsorship cards earned come at once, before step 8
            from bot.games.heat.championship import sponsorships
            sponsorships(st, tr, seat, rng)

    if step <= S_DISCARD:
        # 8. Discard any cards but Heat and Stress (only when the player asked to choose), or,
        # when the race's event allows it, every Heat card in the hand (the "heat" preference).
        ids = []
        if not car["fin"] and prefs["discard"] == "ask" and any(discardable(st, cards[c]) for c in car["hand"]):
            if "discard" not in ans:
                return _ask(st, seat, "discard", S_DISCARD)
            ids = ans.pop("discard")
        elif not car["fin"] and prefs["discard"] == "heat" and st.get("discard_heat"):
            ids = [c for c in car["hand"] if cards[c] in HEAT_TYPES]
        for c in ids:
            car["hand"].remove(c)
            car["discard"].append(c)
        if ids:
            lines.append(_line("Discarded {n} cards", n=len(ids)))

    # 9. Played cards to the discard pile, refill the hand to 7.
    if "champ" in st and not rd["clog"]:  # Championship: used sponsorship cards leave the deck
        from bot.games.heat.championship import retire_sponsors
        retire_sponsors(st, car)
    gx = rd.get("gx")
    if gx and gx["refresh"]:
        # Refresh: the card goes on top of the deck instead (chosen for the player: it is kept).
        back = [c for c in car["played"] if c in gx["refresh"]]
        car["discard"].extend(c for c in car["played"] if c not in back)
        car["deck"].extend(back)
    else:
        car["discard"].extend(car["played"])
    car["played"] = []
    if not car["fin"]:
        # Rule reading: a car that finished takes no more cards.
        draw_to_hand(car, rng)
        lines.append(["Space {s}, lap {l}/{n}, gear {g}",  # (a _line, written out: the hottest ones)
                      {"s": (car["pos"] - 1) % tr.spaces + 1, "l": lap_of(tr, car), "n": tr.laps, "g": car["gear"]}])
    return DONE


def _ordinal(n: int) -> str:
    return msg({1: "1st", 2: "2nd", 3: "3rd"}.get(n, "{n}th"), n=n)


def _end_round(st: dict, tr: content.Track, events: list[tuple[int | None, Msg]]) -> None:
    cars = st["cars"]
    # Rule reading: cars finishing in the same round rank by how far past the line they got,
    # the race-line spot first; they leave the track at the end of the round.
    n = tr.spaces
    rl = tr.race_lane
    crossed = [(-c["pos"], 0 if c["lane"] == rl[(c["pos"] - 1) % n + 1] else 1, s)
               for s, c in enumerate(cars) if c["fin"] and c["place"] is None]
    crossed.sort()
    for _, _, s in crossed:
        st["places"].append(s)
        cars[s]["place"] = len(st["places"])
        events.append((None, msg("{who} finishes {place}!", who=car_name(st, s), place=_ordinal(cars[s]["place"]))))
    st["last_order"] = st["res"]["order"]
    st["res"] = None
    st["pending"] = None
    if all([c["fin"] for c in cars[:st["seats"]]]):
        # Rule reading: the race is over when every player has finished (Legends still on the
        # track take no place).
        st["phase"] = "over"
        events.append((None, msg("The race is over: {order}.",
                               order=[car_name(st, s) for s in st["places"]])))
    else:
        st["round"] += 1
        st["phase"] = "submit"
