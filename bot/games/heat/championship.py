"""Heat Championship (seed 000 「チャンピオンシップ(拡張)」): one game holds a whole season.

The game state is the current race's state (rules.new_state) with st["champ"], the season:
    season ("1961".."1964" or "custom"), races ([{track, event}]), race (index of the current
    race), points (per car, Legends included), results (per finished race: places, out, points),
    sponsor_deck / sponsor_used (codes; the deck's order is hidden), garage_deck / garage_out
    (the upgrade deck, codes, hidden), upgrades (per seat: the upgrade codes the car is built
    with, public), carry (per seat: unused sponsorship codes carried to the next race, private),
    press (the current race's press corner indices), lap1 (cars that crossed the line at the
    end of lap 1, event e1), market (the 車体の設計 step: cards, order, i, picks).
Phases before each race: "market" (one pick each, reverse grid order) then "swap" (the first
picker may swap one owned upgrade with a card left in the market); then the race ("submit"...).
When a race is over the points are scored and the next race's state replaces it (phase
"market"); after the last race the phase stays "over".
"""

from __future__ import annotations

from typing import Any

from bot.games.base import GameError, chosen
import bot.games.heat.content as content
import bot.games.heat.rules as rules
from bot.games.heat.champdata import PRESS_LETTERS, championship, sponsors
from bot.games.rng import Rng
from bot.i18n import Msg, msg

PHASES = ("market", "swap")
SEASONS = ("1961", "1962", "1963", "1964", "custom")
CUSTOM_RACES = (2, 3, 4)


def events() -> dict:
    return championship()["events"]


def event_of(st: dict) -> dict:
    ch = st["champ"]
    return events()[ch["races"][ch["race"]]["event"]]


def is_sponsor(code: str) -> bool:
    return code in sponsors()["types"]


# --------------------------------------------------------------------------- options


def normalise(options: dict, out: dict) -> None:
    """The championship's own options (each filled and checked by its spec), kept into `out` (the
    engine's options as the game keeps them)."""
    season = options["championship"]
    if season == "off":
        return
    out["championship"] = season
    # The season's races are set up with the upgrade deck and the weather and road conditions
    # (「改良デッキを…決め」「天候トークンと路面状況トークンを…置く」): both modules are on.
    out["modules"] = sorted(set(out["modules"]) | {"garage", "weather"})
    out.setdefault("garage", "basic")
    if season == "custom":
        n = options["races"]
        out["races"] = n
        raw = options["season_tracks"]
        if raw:
            names = [t.strip().lower().replace(" ", "_") for t in raw]
            names = [{"italia": "italy", "gb": "great_britain", "us": "usa"}.get(t, t) for t in names]
            if len(names) != n or not all(t in content.offered_tracks() for t in names):
                raise GameError(
                    msg("Give {n} tracks for the season, from: {names}.", n=n, names=list(content.offered_tracks()))
                )
            out["season_tracks"] = names


def describe(options: dict) -> list[Msg]:
    season = options.get("championship")
    if not season:
        return []
    if season == "custom":
        out = [msg("Championship: custom season of {n} races", n=options.get("races", 4))]
    else:
        out = [
            msg("Championship: the {year} season ({n} races)", year=season, n=len(championship()["seasons"][season]))
        ]
    out.append(
        msg(
            "an upgrade market before each race ({deck} cards), weather and road conditions every race",
            deck=msg(options.get("garage", "basic")),
        )
    )
    return out


# --------------------------------------------------------------------------- season and races


def new_season(opts: dict, seats: int, seed: int) -> dict:
    rng = Rng(int(seed))
    data = championship()
    season = opts["championship"]
    if season == "custom":
        # 「コースカードをシャッフルしプレイ順番を決める」「各レースごとにイベントカードをランダムに1枚引いて」
        n = opts.get("races", 4)
        tracks = list(opts.get("season_tracks") or [])
        if not tracks:
            pool = list(content.offered_tracks())
            rules.shuffle(rng, pool)
            tracks = pool[:n]
        pool = list(data["base_events"])
        if any(t in content.tracks() and content.tracks()[t].set != "base" for t in tracks) or any(
            t in ("japan", "mexico") for t in tracks
        ):
            pool += data["heavy_rain_events"]  # (the Heavy Rain events come with its tracks)
        rules.shuffle(rng, pool)
        races = [{"track": t, "event": pool[i]} for i, t in enumerate(tracks)]
    else:
        races = [{"track": t, "event": e} for t, e in data["seasons"][season]]
    legends = opts.get("legends", 0)
    ncars = seats + legends
    spons = [code for code in sponsors()["types"] for _ in range(sponsors()["copies"])]
    rules.shuffle(rng, spons)
    deck = opts.get("garage", "basic")
    tiers = ("basic", "advanced") if deck == "mixed" else content.GARAGE_TIERS if deck == "all" else (deck,)
    gdeck = [
        code
        for code, t in content.garage()["types"].items()
        if t["tier"] in tiers
        for _ in range(content.garage()["copies"])
    ]
    rules.shuffle(rng, gdeck)
    # The first race's grid is random (「第1レース:ランダム」).
    grid = list(range(ncars))
    rng.shuffle(grid)
    champ = {
        "season": season,
        "races": races,
        "race": 0,
        "points": [0] * ncars,
        "results": [],
        "sponsor_deck": spons,
        "sponsor_used": [],
        "garage_deck": gdeck,
        "garage_out": [],
        "upgrades": [[] for _ in range(seats)],
        "carry": [[] for _ in range(seats)],
        "deck": deck,
        "opts": {k: opts[k] for k in ("legend_bonus", "aggressive_legends", "tournament") if opts.get(k)},
    }
    return _race_state(champ, seats, legends, grid, rng)


def standings(champ: dict) -> list[int]:
    """Cars by championship points; a tie goes to the better place in the last race
    (「同点なら前のレースで順位が上の人が優先」), then the car's number."""
    last = champ["results"][-1]["places"] if champ["results"] else []

    def key(s: int) -> tuple:
        return (-champ["points"][s], last.index(s) if s in last else len(last), s)

    return sorted(range(len(champ["points"])), key=key)


def _press_corners(tr: content.Track, letters: list[str]) -> list[int]:
    """The press corners' line indices: letter A-E = the 1st-5th corner from the start, a chicane
    counted once, counted round again on a track with fewer corners. Rule reading (as the
    research's BGA data): on a chicane the press stand is at its 2nd line."""
    groups = []
    for c in tr.corners:
        if c.chicane is None:
            groups.append(c.index)
        else:
            groups[-1] = c.index  # the chicane's 2nd line
    return sorted({groups[PRESS_LETTERS.index(x) % len(groups)] for x in letters})


def _race_state(champ: dict, seats: int, legends: int, grid: list[int], rng: Rng) -> dict:
    race = champ["races"][champ["race"]]
    ev = events()[race["event"]]
    modules = ["garage", "weather"] + (["legends"] if legends else [])
    seed = rng.below(2**62)
    st = rules.new_state(
        race["track"],
        seats,
        seed,
        grid,
        sorted(modules),
        champ["deck"],
        legends,
        {"heat": ev.get("heat", 0), "stress": ev.get("stress", 0)},
    )
    del st["draft"]  # (the Championship's 車体の設計 replaces the Garage draft)
    for k, v in champ["opts"].items():
        st[k] = v
    if ev.get("laps"):
        st["laps"] = content.tracks()[race["track"]].laps + ev["laps"]
    if ev.get("hand"):
        for car in st["cars"][:seats]:
            car["hand_size"] = ev["hand"]
    for key in ("slip_min_gear", "no_adrenaline", "discard_heat"):
        if ev.get(key):
            st[key] = ev[key]
    champ["press"] = _press_corners(content.tracks()[race["track"]], ev["press"])
    champ["lap1"] = 0
    st["champ"] = champ
    # 車体の設計: players + 3 upgrade cards, one each from the back of the grid (Legends ignored).
    market = [_draw_upgrade(champ, rng) for _ in range(seats + 3)]
    order = [s for s in reversed(st["grid_order"]) if s < seats]
    champ["market"] = {"cards": [c for c in market if c is not None], "order": order, "i": 0, "picks": [None] * seats}
    st["phase"] = "market"
    return st


def _draw_upgrade(champ: dict, rng: Rng) -> str | None:
    """The top upgrade card; an empty deck is made again from the cards put aside (designed: a
    long season with many players can run through the basic deck)."""
    if not champ["garage_deck"]:
        champ["garage_deck"], champ["garage_out"] = champ["garage_out"], []
        rules.shuffle(rng, champ["garage_deck"])
    return champ["garage_deck"].pop() if champ["garage_deck"] else None


def draw_sponsor(st: dict, seat: int, rng: Rng) -> str | None:
    """A sponsorship card from the pile into the seat's hand (the used ones shuffled in when the
    pile is empty: 「山が尽きていたら使用済みのものをシャッフルする」)."""
    ch = st["champ"]
    if not ch["sponsor_deck"]:
        ch["sponsor_deck"], ch["sponsor_used"] = ch["sponsor_used"], []
        rules.shuffle(rng, ch["sponsor_deck"])
    if not ch["sponsor_deck"]:
        return None
    code = ch["sponsor_deck"].pop()
    st["cards"].append(code)
    st["cars"][seat]["hand"].append(len(st["cards"]) - 1)
    return code


def _begin_race(st: dict, rng: Rng) -> list[tuple[int | None, Msg]]:
    """After the market: each deck gets the car's upgrades and carried sponsorship cards and is
    shuffled; the event's sponsorship cards go to the hand first, then the hand is filled."""
    ch = st["champ"]
    ev = event_of(st)
    cards = st["cards"]
    ch["garage_out"].extend(ch["market"]["cards"])  # (the cards left in the market are put aside)
    del ch["market"]
    for s, car in enumerate(st["cars"][: st["seats"]]):
        for code in ch["upgrades"][s]:
            car["deck"].append(len(cards))
            cards.append("heat" if content.garage()["types"][code].get("heat_card") else code)
        for code in ch["carry"][s]:
            car["deck"].append(len(cards))
            cards.append(code)
        ch["carry"][s] = []
        rules.shuffle(rng, car["deck"])
        for _ in range(ev["sponsors"]):
            draw_sponsor(st, s, rng)
        rules.draw_to_hand(car, rng)
    st["garage"] = [[c for c in p] for p in ch["upgrades"]]
    st["phase"] = "submit"
    race = ch["races"][ch["race"]]
    return [
        (
            None,
            msg(
                "Race {n}/{m}: {track}, event: {event}. The cars are built: the race starts.",
                n=ch["race"] + 1,
                m=len(ch["races"]),
                track=content.tracks()[race["track"]].name,
                event=msg(ev["name"]),
            ),
        )
    ]


# --------------------------------------------------------------------------- during a race


def retire_sponsors(st: dict, car: dict) -> None:
    """Step 9: a sponsorship card played (used) leaves the deck for the used pile
    (「使用したら捨て札にはせずデッキから取り除く」); one discarded unused stays a card of the deck."""
    cards = st["cards"]
    used = [c for c in car["played"] if is_sponsor(cards[c])]
    if used:
        car["played"] = [c for c in car["played"] if c not in used]
        st["champ"]["sponsor_used"].extend(cards[c] for c in used)


def sponsorships(st: dict, tr: content.Track, seat: int, rng: Rng) -> None:
    """A player's car after its step 7 (its moves and corner checks done): press corners, the
    event's sponsorship rules. The cards come at once (「スポンサーシップカードを即座に1枚手札に
    得る」): into the hand before the step-8 discard and the step-9 refill. Which cards they are is
    kept in rd["sponsors"] for car_done's private events."""
    car = st["cars"][seat]
    rd = car["rd"]
    if rd.get("sponsors") is not None:  # (done already for this round)
        return
    ch = st["champ"]
    ev = event_of(st)
    gained = 0
    lines = rd["lines"]
    if _lap1(st, tr, car):
        gained += 1
        lines.append(rules.round_line("Among the first 3 over the line after lap 1: a sponsorship card"))
    slip_from = rd.get("slip_from")
    for line, idx, limit in rules.crossed_lines(tr, rd["start"], car["pos"]):
        if idx not in ch["press"]:
            continue
        # 「制限速度(路面状況トークンの修正を加えたあとの値)を2以上超えた」: the road token's limit
        # (tr's), not an upgrade's Adjust; or crossed by the slipstream move: the slipstream began
        # on or before the space in front of the line (a car on `line` has not crossed it yet),
        # 「プレス席のあるコーナーをスリップストリームによる移動で通過した場合」. At most one card a
        # corner (two with Going global). Rule reading: a press corner passed before a spin at a
        # later corner still counts (the car did pass it).
        if rd["speed"] is not None and rd["speed"] >= limit + 2:
            why = "speed"
        elif slip_from is not None and slip_from <= line:
            why = "slip"
        else:
            continue
        n = ev.get("press_cards", 1)
        gained += n
        lines.append(
            rules.round_line(
                "Press corner {c} ({why}): {n} sponsorship card(s)",
                c=idx + 1,
                n=n,
                why=msg("limit +2") if why == "speed" else msg("slipstream"),
            )
        )
    if ev.get("speed_sponsor") and rd["speed"] is not None and rd["speed"] >= ev["speed_sponsor"]:
        gained += 1
        lines.append(rules.round_line("Speed {s}: a new record, a sponsorship card", s=rd["speed"]))
    if ev.get("pass_sponsor"):
        # Rule reading: the cars passed are those that were ahead of the car's starting space and
        # are behind it now (by distance; a car on the same space is not passed).
        passed = sum(
            1
            for o, c in enumerate(st["cars"])
            if o != seat and c["place"] is None and rd["start"] < c["pos"] < car["pos"]
        )
        if passed >= ev["pass_sponsor"]:
            gained += 1
            lines.append(rules.round_line("Passed {n} cars: a sponsorship card", n=passed))
    got = []
    for _ in range(gained):
        code = draw_sponsor(st, seat, rng)
        if code is not None:
            got.append(code)
    rd["sponsors"] = got


def _lap1(st: dict, tr: content.Track, car: dict) -> bool:
    """Is the car among the event's first cars over the line after lap 1 (counted once)?
    Rule reading: Legends are cars and take one of the first three places over the line
    (they hold no cards, so they gain nothing)."""
    ch = st["champ"]
    ev = event_of(st)
    rd = car["rd"]
    if ev.get("lap1_sponsors") and rd["start"] <= tr.spaces < car["pos"] and ch["lap1"] < ev["lap1_sponsors"]:
        ch["lap1"] += 1
        return True
    return False


def car_done(st: dict, tr: content.Track, seat: int, rng: Rng) -> list[tuple[int | None, Msg]]:
    """After a car's steps 3-9: a Legend's place over the line after lap 1, the private events
    of the sponsorship cards the car drew (sponsorships), the event's spin-out rule."""
    car = st["cars"][seat]
    rd = car["rd"]
    if rd is None or rd.get("round") != st["round"]:
        return []
    if "legend" in car:
        _lap1(st, tr, car)
        return []
    # (A round record saved before the cards came at once draws them now.)
    sponsorships(st, tr, seat, rng)
    out: list[tuple[int | None, Msg]] = [
        (seat, msg("You gain a sponsorship card: {card}.", card=msg(rules.LABEL[code]))) for code in rd["sponsors"]
    ]
    if event_of(st).get("spin_out") and rd["spun"]:
        # 「スピンしたら…」 (Title sponsor withdraws): a spin-out puts the car out of the race, 0 points.
        car["fin"] = True
        car["place"] = 0
        car["out"] = True
        rd["lines"].append(rules.round_line("Spin-out: out of the race (no points)"))
    return out


# --------------------------------------------------------------------------- between races


def finish_race(st: dict) -> tuple[dict, list[tuple[int | None, Msg]]]:
    """The race is over: points, carried cards; then the next race (or the season's end)."""
    ch = st["champ"]
    ev = event_of(st)
    pts = championship()["points"]
    ncars = len(st["cars"])
    # Rule reading: Legends are cars of the race: they score by their place like the players
    # (and so take their slots on the next grid); a car out of the race scores nothing.
    places = list(st["places"])
    got = [0] * ncars
    for i, s in enumerate(places):
        got[s] = pts[i] if i < len(pts) else 0
        if i == 0:
            got[s] += ev.get("winner_points", 0)
        if i < 3:
            got[s] += ev.get("top3_points", 0)
    out = [s for s, c in enumerate(st["cars"]) if c.get("out")]
    for s in range(ncars):
        ch["points"][s] += got[s]
    ch["results"].append(
        {"track": st["track"], "event": ch["races"][ch["race"]]["event"], "places": places, "out": out, "points": got}
    )
    rng = Rng(st["rng"])
    # 「レース中に使用したスポンサーカードは、チャンピオンシップマットの山に戻しシャッフルする」
    ch["sponsor_deck"].extend(ch["sponsor_used"])
    ch["sponsor_used"] = []
    rules.shuffle(rng, ch["sponsor_deck"])
    evs: list[tuple[int | None, Msg]] = [
        (
            None,
            msg(
                "Race {n} is over. Points: {list}.",
                n=ch["race"] + 1,
                list=[msg("{who} +{p}", who=rules.car_name(st, s), p=got[s]) for s in places if got[s]],
            ),
        )
    ]
    if ch["race"] + 1 >= len(ch["races"]):
        ch["done"] = True
        win = standings(ch)[0]
        evs.append(
            (
                None,
                msg(
                    "The championship is over: {who} wins with {p} points.",
                    who=rules.car_name(st, win),
                    p=ch["points"][win],
                ),
            )
        )
        st["rng"] = rng.state
        return st, evs
    cards = st["cards"]
    for s, car in enumerate(st["cars"][: st["seats"]]):
        # 「改良カードと未使用のスポンサーカードは次のレースに持ち越される」 (to a next race: after the
        # season's last one they stay where they are, counted once)
        ch["carry"][s] = [
            cards[c] for zone in ("hand", "deck", "discard", "played") for c in car[zone] if is_sponsor(cards[c])
        ]
    ch["race"] += 1
    legends = ncars - st["seats"]
    new = _race_state(ch, st["seats"], legends, standings(ch), rng)
    if "rules_version" in st:  # the season's rules stamp (bot/games/base.py) goes on to its next race
        new["rules_version"] = st["rules_version"]
    race = ch["races"][ch["race"]]
    evs.append(
        (
            None,
            msg(
                "Race {n}: {track}. The grid follows the points; upgrade market first.",
                n=ch["race"] + 1,
                track=content.tracks()[race["track"]].name,
            ),
        )
    )
    return new, evs


# --------------------------------------------------------------------------- engine hooks


def to_act(st: dict) -> list[int]:
    ch = st["champ"]
    if st["phase"] == "market":
        return [ch["market"]["order"][ch["market"]["i"]]]
    return [ch["market"]["order"][0]]


def legal_actions(st: dict, seat: int) -> list[dict]:
    if to_act(st) != [seat]:
        return []
    m = st["champ"]["market"]
    if st["phase"] == "market":
        return [{"type": "market", "card": i} for i in _firsts(m["cards"])]
    out = [{"type": "swap", "skip": True}]
    for j in _swap_gives(st, seat):
        for k in _swap_takes(st):
            out.append({"type": "swap", "give": j, "take": k})
    return out


def _same(code: str) -> str:
    """Cards that play alike (the upgrade decks' Heat cards are plain Heat cards)."""
    return "heat" if content.garage()["types"][code].get("heat_card") else code


def _firsts(codes: list[str]) -> list[int]:
    """One index per kind of card."""
    seen: set[str] = set()
    out = []
    for i, c in enumerate(codes):
        if _same(c) not in seen:
            seen.add(_same(c))
            out.append(i)
    return out


def _name(codes: list[str], i: int) -> Msg:
    """A card's label, with what it does when another kind of card has the same label."""
    label = rules.draft_label(codes[i])
    if any(rules.draft_label(c) == label and _same(c) != _same(codes[i]) for c in codes):
        return msg("{card} ({text})", card=msg(label), text=rules.card_text(codes[i]))
    return msg(label)


def _swap_gives(st: dict, seat: int) -> list[int]:
    """The owned upgrades the swapper may give back (one per kind of card)."""
    return _firsts(st["champ"]["upgrades"][seat])


def _swap_takes(st: dict) -> list[int]:
    return _firsts(st["champ"]["market"]["cards"])


def _int(x: Any, hi: int) -> int:
    if isinstance(x, str) and x.isdigit() and len(x) < 4:
        x = int(x)
    if type(x) is not int or not 0 <= x < hi:
        raise GameError(msg("Pick one of the cards on offer."))
    return x


def pick(st: dict, seat: int, action: dict) -> list[tuple[int | None, Msg]]:
    """A "market" move, in place: the seat takes one upgrade; after the last pick the first picker
    may swap, or the race starts."""
    m = st["champ"]["market"]
    values = chosen(action)
    k = _int(action.get("card", values[0] if len(values) == 1 else None), len(m["cards"]))
    code = m["cards"].pop(k)
    st["champ"]["upgrades"][seat].append(code)
    m["picks"][seat] = code
    out: list[tuple[int | None, Msg]] = [
        (None, msg("{who} takes {card}.", who=rules.seat_name(seat), card=msg(rules.draft_label(code))))
    ]
    m["i"] += 1
    if m["i"] < len(m["order"]):
        return out
    if m["cards"]:
        # 「スターティンググリッドの最後…にいるプレイヤー(つまり今回最初に選んだ人)は…1枚だけ交換しても良い」
        st["phase"] = "swap"
        return out + [(None, msg("{who} may swap one upgrade with the market.", who=rules.seat_name(m["order"][0])))]
    return out + _started(st)


def swap(st: dict, seat: int, action: dict) -> list[tuple[int | None, Msg]]:
    """A "swap" move, in place: the first picker swaps one owned upgrade with the market (or keeps
    them); then the race starts."""
    ch = st["champ"]
    m = ch["market"]
    values = chosen(action)
    if len(values) == 1:
        v = values[0]
        action = (
            {"type": "swap", "skip": True}
            if v == "skip"
            else {"type": "swap", "give": v.split(":")[0], "take": v.split(":")[-1]}
        )
    if action.get("skip"):
        return [(None, msg("{who} keeps their upgrades.", who=rules.seat_name(seat)))] + _started(st)
    j = _int(action.get("give"), len(ch["upgrades"][seat]))
    k = _int(action.get("take"), len(m["cards"]))
    give = ch["upgrades"][seat][j]
    take = m["cards"][k]
    ch["upgrades"][seat][j] = take
    m["cards"][k] = give
    return [
        (
            None,
            msg(
                "{who} swaps {give} for {take}.",
                who=rules.seat_name(seat),
                give=msg(rules.draft_label(give)),
                take=msg(rules.draft_label(take)),
            ),
        )
    ] + _started(st)


def _started(st: dict) -> list[tuple[int | None, Msg]]:
    """The market is over: the race begins (its dealing draws from the game's random numbers)."""
    rng = Rng(st["rng"])
    out = _begin_race(st, rng)
    st["rng"] = rng.state
    return out


def describe_action(st: dict, seat: int, action: dict) -> Msg | None:
    try:
        m = st["champ"].get("market")
        values = chosen(action)
        value: Any = values[0] if len(values) == 1 else None
        if action.get("type") == "market":
            return msg("Take {card}", card=_name(m["cards"], int(action.get("card", value))))
        if action.get("type") == "swap":
            if isinstance(value, str):
                action = (
                    {"skip": True} if value == "skip" else {"give": value.split(":")[0], "take": value.split(":")[-1]}
                )
            if action.get("skip"):
                return msg("Keep my upgrades")
            owned = st["champ"]["upgrades"][seat]
            return msg(
                "Swap {give} for {take}",
                give=_name(owned, int(action["give"])),
                take=_name(m["cards"], int(action["take"])),
            )
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        pass
    return None


def menu(st: dict, seat: int) -> list[dict]:
    if to_act(st) != [seat]:
        return []
    ch = st["champ"]
    m = ch["market"]
    if st["phase"] == "market":
        options = [
            {
                "label": _name(m["cards"], a["card"]),
                "value": str(a["card"]),
                "description": rules.card_text(m["cards"][a["card"]]),
            }
            for a in legal_actions(st, seat)
        ]
        return [
            {
                "kind": "select",
                "min": 1,
                "max": 1,
                "action": {"type": "market"},
                "options": options[:25],
                "placeholder": msg("Race {n}: take one upgrade from the market", n=ch["race"] + 1),
            }
        ]
    owned = ch["upgrades"][seat]
    options = [{"label": msg("Keep my upgrades"), "value": "skip"}]
    for j in _swap_gives(st, seat):
        for k in _swap_takes(st):
            options.append(
                {
                    "label": msg("Swap {give} for {take}", give=_name(owned, j), take=_name(m["cards"], k)),
                    "value": f"{j}:{k}",
                    "description": rules.card_text(m["cards"][k]),
                }
            )
    return [
        {
            "kind": "select",
            "min": 1,
            "max": 1,
            "action": {"type": "swap"},
            "options": options[:25],
            "placeholder": msg("Swap one of your upgrades with the market?"),
        }
    ]


def view(st: dict, viewer: int | None) -> dict:
    """The season, public: races, events, points, standings, upgrades, sponsorship counts."""
    ch = st["champ"]
    cards = st["cards"]
    race = ch["races"][ch["race"]]
    ev = events()[race["event"]]
    ncars = len(ch["points"])
    counts = []
    for s, car in enumerate(st["cars"][: st["seats"]]):
        zones = [c for z in ("hand", "deck", "discard", "played") for c in car[z]]
        counts.append(sum(1 for c in zones if is_sponsor(cards[c])) + len(ch["carry"][s]))
    out: dict[str, Any] = {
        "season": ch["season"],
        "race": ch["race"] + 1,
        "races": [
            {
                "track": r["track"],
                "track_name": msg(content.tracks()[r["track"]].name),
                "event": msg(events()[r["event"]]["name"]),
                "event_text": event_text(events()[r["event"]]),
                "done": i < len(ch["results"]),
            }
            for i, r in enumerate(ch["races"])
        ],
        "event": {
            "name": msg(ev["name"]),
            "text": event_text(ev),
            "sponsors": ev["sponsors"],
            "press": list(ev["press"]),
        },
        "press": [c + 1 for c in ch["press"]],
        "points": list(ch["points"]),
        "standings": standings(ch),
        "names": [rules.car_name(st, s) for s in range(ncars)],
        "results": [
            {
                "track_name": msg(content.tracks()[r["track"]].name),
                "places": list(r["places"]),
                "out": list(r["out"]),
                "points": list(r["points"]),
            }
            for r in ch["results"]
        ],
        "upgrades": [[msg(rules.draft_label(c)) for c in u] for u in ch["upgrades"]],
        "sponsor_counts": counts,
        "sponsor_pile": len(ch["sponsor_deck"]),
        "done": bool(ch.get("done")),
    }
    if "market" in ch:
        m = ch["market"]
        out["market"] = {
            "cards": [
                {"index": i, "code": c, "label": msg(rules.draft_label(c)), "text": rules.card_text(c)}
                for i, c in enumerate(m["cards"])
            ],
            "order": list(m["order"]),
            "picking": to_act(st)[0],
            "picks": [msg(rules.draft_label(c)) if c else None for c in m["picks"]],
        }
    return out


def event_text(ev: dict) -> Msg:
    """What an event card changes, in short."""
    parts: list[Any] = [msg("{n} sponsorship cards at the start", n=ev["sponsors"])]
    if ev["press"]:
        parts.append(msg("press corners {list}", list="+".join(ev["press"])))
    if ev.get("lap1_sponsors"):
        parts.append(msg("first {n} over the line after lap 1: a sponsorship card", n=ev["lap1_sponsors"]))
    if ev.get("speed_sponsor"):
        parts.append(msg("speed {n}+: a sponsorship card", n=ev["speed_sponsor"]))
    if ev.get("laps"):
        parts.append(msg("{n} lap(s)", n=f"{ev['laps']:+d}"))
    if ev.get("winner_points"):
        parts.append(msg("winner +{n} points", n=ev["winner_points"]))
    if ev.get("top3_points"):
        parts.append(msg("top 3 +{n} point", n=ev["top3_points"]))
    if ev.get("heat"):
        parts.append(msg("{n} Heat in the Engine", n=f"{ev['heat']:+d}"))
    if ev.get("stress"):
        parts.append(msg("{n} Stress in the deck", n=f"{ev['stress']:+d}"))
    if ev.get("hand"):
        parts.append(msg("hand of {n}", n=ev["hand"]))
    if ev.get("pass_sponsor"):
        parts.append(msg("pass {n} cars in a round: a sponsorship card", n=ev["pass_sponsor"]))
    if ev.get("spin_out"):
        parts.append(msg("a spin-out ends your race"))
    if ev.get("press_cards"):
        parts.append(msg("press corners give {n} cards", n=ev["press_cards"]))
    if ev.get("slip_min_gear"):
        parts.append(msg("slipstream in gear {n}+ only", n=ev["slip_min_gear"]))
    if ev.get("discard_heat"):
        parts.append(msg("Heat may be discarded"))
    if ev.get("no_adrenaline"):
        parts.append(msg("no Adrenaline"))
    from bot.games.text import chain

    return chain("{a} · {b}", parts)


def placings(st: dict) -> list[int]:
    """Each seat's place in the season (Legends, after the seats, take no place)."""
    order = [s for s in standings(st["champ"]) if s < st["seats"]]
    return [order.index(s) + 1 for s in range(st["seats"])]
