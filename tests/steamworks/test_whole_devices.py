"""Whole devices in one choice (issue #32): a 2-tile build took 4 clicks (the Workbench, a tile,
a tile, confirm); where every legal device fits one select, tile, place and turn are chosen
together, and the DM pictures them numbered as the menu lists them."""

from __future__ import annotations

import io
from collections import Counter

from PIL import Image

from bot.games.steamworks import ENGINE as E
from bot.games.steamworks import geometry as geo
from bot.i18n import render
from rendering import steamworks as R
from tests.steamworks.helpers import act, choices, game


def _workbench(supply: list[str], sources: dict[str, int]) -> dict:
    st = game(2)
    st["players"][0]["tiles"] = sorted(supply)
    st["players"][0]["sources"] = {"C": 0, "S": 0, "E": 0, **sources}
    st, _ = act(st, 0, "place", "build")
    return st


def test_a_workbench_build_is_one_more_choice_and_obeys_the_four_rules():
    # Seed: 特定のサイズのデバイスを製造できるようにするアクションを実行するときは、自分の獲得した
    # タイルからその数のコンポーネントとソースを選択し、それらを次のルールに従い配置します。
    # 1)少なくとも1つのソース 2)少なくとも1つのコンポーネント 3)各ソースは少なくとも1つの
    # コンポーネントに接続 4)各コンポーネントは少なくとも1つのソースに接続
    st = _workbench(["monetiser", "condenser"], {"C": 1})
    plans = choices(st, 0, "plan")
    assert plans
    for p in plans:
        tiles_ = [dict(zip("txyr", q.split(":"))) for q in p.split("/")]
        tiles_ = [{"t": t["t"], "x": int(t["x"]), "y": int(t["y"]), "r": int(t["r"])} for t in tiles_]
        assert len(tiles_) == 2 and not geo.problems(tiles_)
    money = st["players"][0]["money"]
    st2, ev = act(st, 0, "plan", plans[0])
    assert st2["phase"] == "main" and len(st2["devices"]) == 1 and st2["players"][0]["money"] == money
    built = st2["devices"][0]["tiles"]
    assert sorted(t["t"] for t in built) == sorted(q.split(":")[0] for q in plans[0].split("/"))
    assert sum(st2["players"][0]["sources"].values()) + len(st2["players"][0]["tiles"]) == 1  # two tiles used
    assert any("builds device 1" in render(e.text, "en") for e in ev)


def test_a_device_turned_as_a_whole_is_offered_once():
    st = _workbench(["monetiser"], {"C": 1})
    plans = choices(st, 0, "plan")
    # the basic source is the same on every side: one device whatever way the Monetiser faces it
    keys = {
        geo.canonical(
            [{"t": t, "x": int(x), "y": int(y), "r": int(r)} for t, x, y, r in (q.split(":") for q in p.split("/"))]
        )
        for p in plans
    }
    assert len(keys) == len(plans) == 1


def test_a_plan_not_offered_is_refused_and_changes_nothing():
    st = _workbench(["monetiser", "condenser"], {"C": 1})
    for bad in ("monetiser:0:0:0/condenser:1:0:0", "monetiser:0:0:0", "", None, "src_C:0:0:0/src_C:1:0:0"):
        try:
            E.apply(st, 0, {"type": "plan", "choice": bad})
        except Exception as err:  # noqa: BLE001
            assert type(err).__name__ == "GameError"
        else:
            raise AssertionError(bad)


def test_more_devices_than_a_select_holds_are_laid_tile_by_tile():
    assert geo.whole_devices((("monetiser", 1), ("src_C", 1)), 2)
    many = tuple(
        sorted(
            Counter(
                {
                    "src_C": 2,
                    "src_S": 2,
                    "src_E": 2,
                    "power_converter": 1,
                    "sourcer": 1,
                    "monetiser": 1,
                    "condenser": 1,
                    "resonator": 1,
                    "ticker_press": 1,
                }
            ).items()
        )
    )
    assert geo.whole_devices(many, 3) == ()
    assert len(geo.whole_devices(many, 3, limit=10**6, budget=10**7)) > 25  # (all of them: more than 25)


def test_the_menu_offers_whole_devices_first_and_the_dm_numbers_them():
    st = _workbench(["monetiser", "condenser"], {"C": 1, "S": 1})
    menu = E.menu(st, 0)
    assert menu[0]["action"]["type"] == "plan"
    labels = [render(o["label"], "en") for o in menu[0]["options"]]
    assert labels[0].startswith("Whole device 1: ") and len(set(labels)) == len(labels)
    view = E.view(st, 0)
    assert len(view["plans"]) == len(labels)
    assert "plans" not in E.view(st, 1) and "plans" not in E.view(st, None)
    from rendering.common import recording

    with recording() as rec:
        png = R.render_hand(view, ["Ada", "Bo"])
    texts = [r["text"] for r in rec if r["kind"] == "text"]
    start = next(i for i, t in enumerate(texts) if t.startswith("Devices you can build"))
    assert [f"#{k}" for k in range(1, len(labels) + 1)] == [t for t in texts[start:] if t.startswith("#")]
    assert Image.open(io.BytesIO(png)).height <= 2 * R.W


def test_the_fast_last_tile_search_finds_exactly_the_tiles_that_finish_a_legal_device():
    # Seed: 1)少なくとも1つのソース 2)少なくとも1つのコンポーネント 3)各ソースは少なくとも1つの
    # コンポーネントに接続 4)各コンポーネントは少なくとも1つのソースに接続
    # (#34: the search tests a last tile against the rules without redoing every tile's check; it
    # must agree with the four rules checked in full on every candidate.)
    import random

    rnd = random.Random(7)
    ids = sorted(geo.TILES)
    compared = 0
    for _ in range(200):
        sup = Counter([rnd.choice(["src_C", "src_S", "src_E"])] + [rnd.choice(ids) for _ in range(rnd.randint(3, 6))])
        placed: list[dict] = []
        for _ in range(rnd.randint(1, 3)):  # a device begun with any tiles, legal or not
            c = rnd.choice(geo.candidates(placed, sup))
            placed.append(c)
            sup[c["t"]] -= 1
        full = []
        for c in geo.candidates(placed, sup):
            if not geo.problems(placed + [c]):
                grid = geo.grid_of(placed + [c])
                links = sum(1 for d, _ in geo.neighbours((c["x"], c["y"])) if geo.link(grid, (c["x"], c["y"]), d))
                full.append((-links, -geo.TILES[c["t"]].prestige, c["t"], c["y"], c["x"], c["r"]))
        full.sort()
        assert geo.legal_lays(placed, sup, 1) == [{"t": t, "x": x, "y": y, "r": r} for _, _, t, y, x, r in full]
        compared += bool(full)
    assert compared > 30
