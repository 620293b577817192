"""Heat's round resolution (seed steps 1-9 in race order), in place on a state the caller owns:
`start_resolution` once every submission is in, `run` to go on after a paused decision. The
modules' own steps (Garage reactions, Legends, the championship's sponsorships, tournament shifts)
are called from here; the state's layout and the pieces they share are in rules.py."""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

import bot.games.heat.championship as championship
import bot.games.heat.content as content
import bot.games.heat.tournament as tournament
from bot.games.heat.rules import (
    BOOST_SOURCE,
    BOOSTS,
    can_slipstream,
    car_name,
    CarLines,
    CHOICES,
    COOLDOWN,
    corner_cost,
    crossed_lines,
    DISCARDABLE,
    discardable,
    DONE,
    draw_to_hand,
    FLIP_NOTHING,
    flip_to_speed,
    free_boost,
    GARAGE,
    HEAT_TYPES,
    KIND,
    landing,
    lap_of,
    move,
    NO_FLIP,
    occupied,
    pack,
    pay_heat,
    PLAYABLE,
    race_order,
    reshuffle,
    round_line,
    S_ADR,
    S_BOOST,
    S_COOL,
    S_CORNERS,
    S_DISCARD,
    S_MOVE,
    S_REFILL,
    S_SLIP,
    sector_fx,
    shift_heat,
    SHORT,
    short_list,
    shuffle,
    slipstream_lengths,
    smart_move_ok,
    space_of,
    SPEED,
    SPIN_STRESS,
    track_of,
    unpack,
)
from bot.games.rng import Rng
from bot.games.text import plus
from bot.i18n import Msg, msg


def _round_record(rnd: int, start: int, heat: int, lines: list[Any]) -> dict:
    """A car's fresh record of this round ("rd"): where it started, the Heat already paid, its lines."""
    return {
        "round": rnd,
        "shown": False,
        "start": start,
        "speed": None,
        "rev": [],
        "adr": False,
        "boost": False,
        "first": None,
        "done": "",
        "slip": False,
        "heat": heat,
        "spun": False,
        "clog": False,
        "cool": 0,
        "lines": lines,
        "ans": {},
    }


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
    no_shift = st.get("tournament")  # (Tournament mode: no step 1)
    for s in order:
        car = cars[s]
        if "legend" in car:
            car["rd"] = _round_record(rnd, car["pos"], 0, [])
            continue
        sub = car["sub"]
        car["sub"] = None
        lines: list[Any] = []
        old = car["gear"]
        heat = 0
        if no_shift:
            # Tournament mode: no step 1; the car shows how many cards it played and shifts in
            # its own step 3 (paying the 2-gear or flooded Heat then), see tournament_shift.
            need = 0
        elif len(sub) < old:
            need = shift_heat(st, car, len(sub))  # (down: 2 gears, or on a flooded space)
        else:
            need = 1 if len(sub) == old + 2 else 0  # (shift_heat: up, only 2 gears cost)
        if need and abs(len(sub) - old) == 2 and need == 1:
            heat = pay_heat(car, 1)
            lines.append(round_line("Shifted 2 gears ({a} → {b}): 1 Heat", a=old, b=len(sub)))
        elif need:
            heat = pay_heat(car, need)
            lines.append(round_line("Shifted down on a flooded space ({a} → {b}): {n} Heat", a=old, b=len(sub), n=need))
        car["rd"] = _round_record(rnd, car["pos"], heat, lines)
        hand = car["hand"]
        for cid in sub:
            hand.remove(cid)
        car["played"] = sub
        if no_shift:
            car["rd"]["shift"] = [old, len(sub)]
            continue
        car["gear"] = len(sub)
    # Rule reading: the race order is fixed when the round starts (cars that are passed during
    # the round keep their turn); the 2-gear shift Heat is paid then, before anyone moves.
    k = st["adrenaline"]
    st["res"] = {"order": order, "i": 0, "step": 0, "adr": order[-k:] if not st.get("no_adrenaline") else []}
    st["pending"] = None
    first: list[tuple[int | None, Msg]] = [(None, msg("Round {n}: all cards are in.", n=rnd))]
    if st.get("tournament"):
        first.append(tournament.card_counts(st, order))
    return run(st, rng, first, tr)


def run(
    st: dict, rng: Rng, events: list[tuple[int | None, Msg]], tr: content.Track | None = None
) -> list[tuple[int | None, Msg]]:
    """Resolve cars in race order until a decision is needed or the round ends (tr: the race's
    track, track_of(st), when the caller has it)."""
    if tr is None:
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
        paused = (
            _resolve_legend(st, tr, seat, spots, rng)
            if "legend" in car
            else _resolve_car(st, tr, seat, rng, step, spots)
        )
        if paused != DONE:
            res["i"], res["step"] = i, paused
            st["phase"] = "decide"
            return events
        if "champ" in st:  # Championship: press corners, the event's sponsorships and spin-out rule
            events.extend(championship.car_done(st, tr, seat, rng))
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
        parts = [unpack(p) for p in wait["parts"]]
        choosing = [(i, cid) for i, cid in wait["choosing"]]
        del rd["gwait"]
        return _garage_values(st, tr, seat, occ, gx, speed, rev, parts, choosing, adr)
    # Rule reading: a card's Heat can be paid when the Engine, plus the Heat in hand this round's
    # cooldowns (gear, Adrenaline, the cards) could bring back first, covers it
    # (「クールダウンアイコンと手札にヒートカードがあれば…エンジンにヒートがない状態でもプレイできる」);
    # the weather sector is not counted (it depends on where the car ends).
    heat_in_hand = sum(1 for c in car["hand"] if cards[c] in HEAT_TYPES)
    cool = (
        COOLDOWN.get(car["gear"], 0)
        + (1 if adr else 0)
        + sum(GARAGE.get(cards[c], {}).get("cooldown", 0) for c in played)
    )
    budget = len(car["engine"]) + min(heat_in_hand, cool)
    gx = _new_gx()
    speed = 0
    rev = []
    parts = []
    choosing = []  # (index in rev/parts, card id)
    found: Any
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


def _garage_values(
    st: dict,
    tr: content.Track,
    seat: int,
    occ: set[tuple[int, int]],
    gx: dict,
    speed: int,
    rev: list,
    parts: list,
    choosing: list[tuple[int, int]],
    adr: bool,
) -> bool:
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
                rd["gwait"] = {
                    "speed": speed,
                    "parts": [pack(p) for p in parts],
                    "choosing": [list(x) for x in choosing],
                }
                _ask(
                    st,
                    seat,
                    "choice",
                    S_MOVE,
                    base=speed,
                    options=choice_options(st, tr, seat, occ, totals, gx["heat"], gx["adj"]),
                )
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
    rd["lines"].append(round_line("Gear {g}: {cards} = speed {s}", g=car["gear"], cards=plus(parts), s=speed))
    move(st, tr, seat, speed, occ)
    if adr:
        rd["adr"] = True
        rd["lines"].append(round_line("Adrenaline"))
    return False


def choice_options(
    st: dict, tr: content.Track, seat: int, occ: set[tuple[int, int]], totals: list[int], card_heat: int, adj: int = 0
) -> list[list]:
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
    return {
        "cool": 0,
        "reduce": 0,
        "heat": 0,
        "slip": [],
        "scrap": 0,
        "salvage": 0,
        "acc": 0,
        "plus": 0,
        "adj": 0,
        "refresh": [],
    }


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


def _choose_values(
    st: dict,
    tr: content.Track,
    seat: int,
    occ: set[tuple[int, int]],
    base: int,
    choices: list[tuple[int, ...]],
    card_heat: int,
    adj: int = 0,
) -> list[int]:
    """The values for the cards with a choice of speed, chosen for the player: never a spin when
    another choice avoids it, then the least corner Heat, then the farthest move."""
    car = st["cars"][seat]
    start = car["pos"]
    heat = len(car["engine"]) - card_heat
    best: tuple | None = None
    for combo in _products(choices):
        total = base + sum(combo)
        end = landing(st, tr, seat, start + total, occ)[0] if total > 0 else start
        cost = corner_cost(tr, start, end, total, adj)
        key = (cost > heat, cost, -end, -total)
        if best is None or key < best[0]:
            best = (key, combo)
    assert best is not None  # (_products gives at least one combination)
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
        stress = [c for c in car["hand"] if cards[c] == "stress"][: gx["reduce"]]
        for c in stress:
            car["hand"].remove(c)
            car["discard"].append(c)
        if stress:
            lines.append(round_line("Discarded {n} Stress (upgrade)", n=len(stress)))
    if gx.get("super"):
        # Super Cool N (大雨): 「捨て山を調べて、そこから最大#枚のヒートカードをエンジンに戻す」, all it
        # can (more Heat in the Engine never hurts). Rule reading: it comes before the upgrades'
        # own Heat is paid, so it returns Heat that was in the discard pile when step 5 began.
        back = [c for c in car["discard"] if cards[c] in HEAT_TYPES][: gx["super"]]
        for c in back:
            car["discard"].remove(c)
            car["engine"].append(c)
        lines.append(round_line("Super cool: {n} Heat from the discard pile to the Engine", n=len(back)))
    if gx["heat"]:
        paid = pay_heat(car, gx["heat"])
        rd["heat"] += paid
        lines.append(round_line("Upgrade Heat: paid {h}", h=paid))
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
        lines.append(round_line("Scrap: {n} cards from the deck discarded", n=n))
    if salvage:
        pick = sorted(
            (c for c in car["discard"] if DISCARDABLE[cards[c]] and KIND[cards[c]] != "heat"),
            key=lambda c: (-SPEED[cards[c]], c),
        )[:salvage]
        if pick:
            for c in pick:
                car["discard"].remove(c)
            car["deck"].extend(pick)
            shuffle(rng, car["deck"])
            lines.append(round_line("Salvage: {n} cards shuffled back into the deck", n=len(pick)))


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
            if corner_cost(tr, start, end, rd["speed"] + v, adj) > corner_cost(
                tr, start, car["pos"], rd["speed"], gx["adj"]
            ):
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
        rd["lines"].append(
            round_line("Direct play: {card} +{v} → speed {s}", card=Msg(SHORT[code]), v=v, s=rd["speed"])
        )
        move(st, tr, seat, v, occ)
        if g.get("heat"):
            rd["heat"] += pay_heat(car, g["heat"])
        if g.get("cooldown"):
            heat = [c for c in car["hand"] if cards[c] in HEAT_TYPES][: g["cooldown"]]
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
    rd["lines"].append(round_line("Accelerate +{v} → speed {s}", v=bonus, s=rd["speed"]))
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
        rd["lines"].append(round_line("Legend card: helmet {h}", h=helmet))
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
            rd["lines"].append(
                round_line("Legend card: clears corner {c}: limit {l} + diamond {d}", c=idx + 1, l=limit, d=diamond)
            )
            if more and target > lines[i + 1][0]:
                rd["lines"].append(round_line("Aggressive Legend: crosses one more corner line"))
        else:
            target = pos + helmet
            if target > line:
                # Rule reading: a Legend never moves backwards when its diamond space is behind it.
                target = max(pos, line - diamond)
                rd["lines"].append(
                    round_line(
                        "Legend card: helmet {h}, stops at diamond {d} before corner {c}",
                        h=helmet,
                        d=diamond,
                        c=idx + 1,
                    )
                )
            else:
                rd["lines"].append(round_line("Legend card: helmet {h}", h=helmet))
    rd["shown"] = True
    rd["speed"] = target - pos
    if target > pos:
        car["pos"], car["lane"] = landing(st, tr, s, target, occ)
    if s in st["res"]["adr"]:
        rd["lines"].append(round_line("Adrenaline (not taken by a Legend)"))
    if car["pos"] > tr.finish:
        car["fin"] = True
        rd["lines"].append(round_line("Crossed the finish line!"))
    else:
        rd["lines"].append(
            round_line("Space {s}, lap {l}/{n}", s=space_of(tr, car["pos"]), l=lap_of(tr, car), n=tr.laps)
        )
    return DONE


def _ask(st: dict, seat: int, kind: str, step: int, **extra: Any) -> int:
    st["pending"] = {"seat": seat, "type": kind, **extra}
    return step


def _react_open(tr: content.Track, car: dict, rd: dict, sym: str) -> bool:
    """Whether the boost / the Adrenaline +1 may still happen this round (preferences allowing)."""
    if sym == "boost":
        return (
            car["prefs"]["boost"] != "never"
            and (bool(car["engine"]) or free_boost(tr, car))
            and not rd["boost"]
            and "b" not in rd.get("done", "")
        )
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
                rd["lines"].append(
                    round_line(
                        "Free boost (road token): +{v} ({n} discarded) → speed {s}", v=v, n=len(aside), s=rd["speed"]
                    )
                )
            elif free:
                rd["lines"].append(round_line("Free boost (road token): +{v} → speed {s}", v=v, s=rd["speed"]))
            elif aside:
                rd["lines"].append(
                    round_line("Boost (1 Heat): +{v} ({n} discarded) → speed {s}", v=v, n=len(aside), s=rd["speed"])
                )
            else:
                rd["lines"].append(round_line("Boost (1 Heat): +{v} → speed {s}", v=v, s=rd["speed"]))
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
            rd["lines"].append(round_line("Adrenaline +1 → speed {s}", s=rd["speed"]))
            move(st, tr, seat, 1, occ)
    return False


def _resolve_car(st: dict, tr: content.Track, seat: int, rng: Rng, step: int, occ: set[tuple[int, int]]) -> int:
    """Steps 3-9 for one car from `step` on. Returns DONE, or the step that waits for a decision
    (st["pending"] then says which); the answer is in rd["ans"] when the step runs again.
    occ: the other cars' spots (only this car moves until it is done, so they stay put)."""
    car = st["cars"][seat]
    rd = car["rd"]
    wait: int | None
    if step <= S_MOVE:
        step = _reveal(st, tr, seat, car, rd, rng, occ)
        if step == S_MOVE:
            return S_MOVE  # waiting for the choice of speed
    prefs = car["prefs"]
    # (A step that can do nothing is not called: no cooldown without its gear, Adrenaline, an
    # upgrade or a sector; no reaction from a boost its preference turns down without Adrenaline,
    # the order and symbols then left as _boost_and_adrenaline leaves them; no discard kept all.)
    if step <= S_COOL and (rd.get("gx") or tr.sector_fx or rd["adr"] or COOLDOWN.get(car["gear"], 0)):
        if (wait := _cooldown(st, tr, seat, car, rd, rng)) is not None:
            return wait
    if step < S_ADR and not rd["adr"] and prefs["boost"] == "never" and rd.get("first") is None and not rd.get("done"):
        rd["first"], rd["done"] = "boost", "ba"
    elif step <= S_ADR and (wait := _boost_and_adrenaline(st, tr, seat, car, rd, rng, step, occ)) is not None:
        return wait
    if rd.get("gx") is not None and not rd.get("dd"):
        # 5. React, the upgrades' moves: Direct play cards from the hand, then Accelerate.
        rd["dd"] = True
        _react_direct(st, tr, seat, rng, occ)
        _react_accelerate(st, tr, seat, occ)
    if step <= S_SLIP and (wait := _slipstream(st, tr, seat, car, rd, occ)) is not None:
        return wait
    if step <= S_CORNERS:
        _corners(st, tr, seat, car, rd, rng, occ)
    if step <= S_DISCARD and prefs["discard"] != "keep" and (wait := _discard(st, seat, car, rd)) is not None:
        return wait
    _refill(st, tr, seat, car, rd, rng)
    return DONE


def _reveal(st: dict, tr: content.Track, seat: int, car: dict, rd: dict, rng: Rng, occ: set[tuple[int, int]]) -> int:
    """Steps 3-4: the cards revealed (Stress flipping until a Speed card), the move, Adrenaline marked. Returns
    the step to go on with (S_COOL; S_REFILL for a clogged hand), or S_MOVE while a choice of speed waits."""
    cards = st["cards"]
    lines = rd["lines"]
    rd["shown"] = True
    if rd.get("shift"):  # Tournament mode: the gear shift now, in this car's step 3
        tournament.tournament_shift(st, car, rd)
    played = car["played"]
    if not all([PLAYABLE[cards[c]] for c in played]):  # (a list: faster than a generator here)
        # Clogged hand: no move this round, gear 1, the cards (Heat included) are discarded.
        # Rule reading: such a car skips steps 4-8 (no Adrenaline, React, Slipstream, ...).
        rd["clog"] = True
        rd["speed"] = 0
        rd["rev"] = [[cards[c], NO_FLIP] for c in played]
        car["gear"] = 1
        lines.append(round_line("Clogged hand: played {cards}; no move, back to gear 1", cards=short_list(st, played)))
        return S_REFILL
    elif "garage" in st["modules"]:
        if _garage_reveal(st, tr, seat, rng, occ):
            return S_MOVE  # waiting for the choice of speed
        return S_COOL
    else:
        speed = 0
        rev = []
        parts = []
        for cid in played[:]:  # a copy: flipped Speed cards join `played`
            code = cards[cid]
            speed += SPEED[code]
            part: Any = [SHORT[code]]  # (a packed Msg, see pack: the line is stored as it is)
            found: Any = NO_FLIP
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
            lines.append(round_line("Adrenaline"))
        return S_COOL


def _cooldown(st: dict, tr: content.Track, seat: int, car: dict, rd: dict, rng: Rng) -> int | None:
    """Step 5, cooldown first: Heat from the hand back to the Engine; then the upgrades' reactions. Returns
    the step that waits for a decision, or None."""
    cards = st["cards"]
    prefs = car["prefs"]
    lines = rd["lines"]
    ans = rd["ans"]
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
                lines.append(round_line("Cooled down {n} Heat", n=len(ids)))
    if gx:
        _garage_react(st, car, rd, gx, rng)
    return None


def _boost_and_adrenaline(
    st: dict, tr: content.Track, seat: int, car: dict, rd: dict, rng: Rng, step: int, occ: set[tuple[int, int]]
) -> int | None:
    """Step 5: the boost and the Adrenaline +1, in the order chosen. Returns the step that waits for a
    decision, or None."""
    prefs = car["prefs"]
    ans = rd["ans"]
    # 5. React: the boost and the Adrenaline +1, each a move of its own (they are not added up
    # to pass cars); all of their speed counts for the corner checks.
    # Rule reading: 「自分が得たシンボルを任意の順番で解決できる」: the player picks which goes
    # first, when both are open and the order can change where the car lands.
    if step == S_ADR and rd.get("first") is None:
        rd["first"], rd["done"] = "boost", "b"  # a round paused at S_ADR by an older version
    first = rd.get("first")
    if first is None:
        first = "boost"
        if (
            _react_open(tr, car, rd, "boost")
            and _react_open(tr, car, rd, "adrenaline")
            and order_matters(st, tr, seat, occ)
        ):
            if prefs.get("order", "best") == "ask":  # (.get: cars saved before "order" existed)
                if "order" not in ans:
                    return _ask(st, seat, "order", S_BOOST)
                first = ans.pop("order")
            else:
                first = best_first(st, tr, seat, occ)
        rd["first"] = first
    done = rd.get("done", "")
    for sym in ("boost", "adrenaline") if first == "boost" else ("adrenaline", "boost"):
        if sym[0] in done:
            continue
        # (a symbol its preference turns down, or an Adrenaline the car did not get, does nothing)
        if prefs[sym] != "never" and (sym == "boost" or rd["adr"]):
            if (_react_boost if sym == "boost" else _react_adrenaline)(st, tr, seat, rng, occ):
                return S_BOOST
        done += sym[0]
        rd["done"] = done
    return None


def _slipstream(st: dict, tr: content.Track, seat: int, car: dict, rd: dict, occ: set[tuple[int, int]]) -> int | None:
    """Step 6. Returns the step that waits for a decision, or None."""
    prefs = car["prefs"]
    lines = rd["lines"]
    ans = rd["ans"]
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
            lines.append(round_line("Slipstream +{n}", n=use) if use != 2 else round_line("Slipstream +2"))
            rd["slip_from"] = car["pos"]  # (Championship: a press corner crossed by slipstream)
            move(st, tr, seat, use, occ)
    return None


def _corners(st: dict, tr: content.Track, seat: int, car: dict, rd: dict, rng: Rng, occ: set[tuple[int, int]]) -> None:
    """Step 7: the corner checks, the finish line, the championship's sponsorship cards."""
    cards = st["cards"]
    lines = rd["lines"]
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
                lines.append(round_line("Corner {c} (limit {l}, Overheat): paid {h} Heat", c=idx + 1, l=limit, h=paid))
            else:
                lines.append(round_line("Corner {c} (limit {l}): paid {h} Heat", c=idx + 1, l=limit, h=paid))
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
        lines.append(
            round_line(
                "Corner {c} (limit {l}): SPIN after paying {h} Heat; {k} Stress, gear 1",
                c=idx + 1,
                l=limit,
                h=paid,
                k=nstress,
            )
        )
        break  # the car is back before this line: later lines were not crossed
    if car["pos"] > tr.finish:
        car["fin"] = True
        lines.append(round_line("Crossed the finish line!"))
    if "champ" in st:  # Championship: sponsorship cards earned come at once, before step 8
        championship.sponsorships(st, tr, seat, rng)


def _discard(st: dict, seat: int, car: dict, rd: dict) -> int | None:
    """Step 8. Returns the step that waits for a decision, or None."""
    cards = st["cards"]
    prefs = car["prefs"]
    lines = rd["lines"]
    ans = rd["ans"]
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
        lines.append(round_line("Discarded {n} cards", n=len(ids)))
    return None


def _refill(st: dict, tr: content.Track, seat: int, car: dict, rd: dict, rng: Rng) -> None:
    """Step 9: played cards to the discard pile (Refresh: on the deck), the hand refilled to 7."""
    lines = rd["lines"]
    # 9. Played cards to the discard pile, refill the hand to 7.
    if "champ" in st and not rd["clog"]:  # Championship: used sponsorship cards leave the deck
        championship.retire_sponsors(st, car)
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
        lines.append(
            [
                "Space {s}, lap {l}/{n}, gear {g}",  # (a round_line, written out: the hottest ones)
                {"s": (car["pos"] - 1) % tr.spaces + 1, "l": lap_of(tr, car), "n": tr.laps, "g": car["gear"]},
            ]
        )


def _ordinal(n: int) -> Msg:
    return msg({1: "1st", 2: "2nd", 3: "3rd"}.get(n, "{n}th"), n=n)


def _end_round(st: dict, tr: content.Track, events: list[tuple[int | None, Msg]]) -> None:
    cars = st["cars"]
    # Rule reading: cars finishing in the same round rank by how far past the line they got,
    # the race-line spot first; they leave the track at the end of the round.
    n = tr.spaces
    rl = tr.race_lane
    crossed = [
        (-c["pos"], 0 if c["lane"] == rl[(c["pos"] - 1) % n + 1] else 1, s)
        for s, c in enumerate(cars)
        if c["fin"] and c["place"] is None
    ]
    crossed.sort()
    for _, _, s in crossed:
        st["places"].append(s)
        cars[s]["place"] = len(st["places"])
        events.append((None, msg("{who} finishes {place}!", who=car_name(st, s), place=_ordinal(cars[s]["place"]))))
    st["last_order"] = st["res"]["order"]
    st["res"] = None
    st["pending"] = None
    if all([c["fin"] for c in cars[: st["seats"]]]):
        # Rule reading: the race is over when every player has finished (Legends still on the
        # track take no place).
        st["phase"] = "over"
        events.append((None, msg("The race is over: {order}.", order=[car_name(st, s) for s in st["places"]])))
    else:
        st["round"] += 1
        st["phase"] = "submit"
