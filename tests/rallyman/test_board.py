"""The stage model: all 34 stages load, are connected from start to finish, and a few tiles'
features match the research reading (rallyman_tiles.json)."""

import pytest

from bot.games.rallyman import board as B


def test_all_stages_load_and_connect():
    names = B.stage_names()
    assert len(names) == 34
    for name in names:
        st = B.stage(name)
        assert len(st.starts) == 2 and all(st.spaces[i].start for i in st.starts)
        reach = B.reachable(st, st.starts)
        assert any(st.spaces[i].finish for i in reach), name
        # every space reachable from the start can still reach a finish space (no dead ends)
        for sid in reach:
            assert st.spaces[sid].finish or any(st.spaces[i].finish for i in B.reachable(st, [sid])), (name, sid)
        # forward means forward: successors never lie behind
        for s in st.spaces:
            for n in s.succ:
                assert st.spaces[n].front > s.front - 1e-9 or st.spaces[n].kind == "shortcut"


def _tile_spaces(st, tile_key):
    idx = [i for i, t in enumerate(st.tiles) if t[0].key == tile_key]
    assert idx, tile_key
    return [s for s in st.spaces if s.tile == idx[0]]


def test_corner_lanes_and_limits_rally1_ss1():
    st = B.stage("Rally1 SS1")
    sp = _tile_spaces(st, "210b")  # research: outer 2 spaces @2, inner 1 @1
    outer = [s for s in sp if s.kind == "outer"]
    inner = [s for s in sp if s.kind == "inner"]
    assert [s.limit for s in outer] == [2, 2] and [s.limit for s in inner] == [1]
    assert sum(1 for s in sp if s.kind == "slide") == 4  # a slide row each side
    # no lane change inside a corner: an outer space leads only along the outer lane or out
    assert outer[0].succ == [outer[1].id]
    assert all(s.inside for s in inner) and not any(s.inside for s in outer)
    sp = _tile_spaces(st, "227a")
    assert sorted({(s.kind, s.limit) for s in sp if s.limit}) == [("inner", 4), ("outer", 5)]
    assert sum(1 for s in sp if s.kind == "outer") == 3
    assert sp[0].danger == "o"


def test_jump_water_shortcut_spots():
    st = B.stage("Rally5 SS2")  # 205b: jump 4 in row 2 of 3
    sp = _tile_spaces(st, "205b")
    assert sorted(s.jump for s in sp) == [0, 0, 0, 0, 4, 4]
    st = B.stage("Rally5 SS1")  # 207b: water in row 2, jump 4 in row 3
    sp = _tile_spaces(st, "207b")
    assert sum(s.water for s in sp) == 2 and sum(1 for s in sp if s.jump == 4) == 2
    st = B.stage("Rally3 SS1")  # 224b: shortcut 5, two spaces long
    sp = _tile_spaces(st, "224b")
    sc = [s for s in sp if s.kind == "shortcut"]
    assert [s.shortcut for s in sc] == [5, 5]
    c = st.corners[sc[0].corner]
    assert c.shortcut == [s.id for s in sc] and c.before
    assert all(sc[0].id in st.spaces[b].succ for b in c.before)
    assert all(st.spaces[b].kind == "slide" for b in c.before)
    st = B.stage("Rally2 SS2")  # 215b: two corners, each with a shortcut 3
    sp = _tile_spaces(st, "215b")
    assert len({s.corner for s in sp if s.corner >= 0}) == 2
    assert sorted(s.shortcut for s in sp if s.kind == "shortcut") == [3, 3]
    st = B.stage("Rally2 SS2")  # 231a: one full-width space with limit 5
    sp = _tile_spaces(st, "231a")
    assert [(s.kind, s.limit) for s in sp if s.kind == "single"] == [("single", 5)]


def test_slides_step_sideways():
    st = B.stage("Rally1 SS1")
    slides = [s for s in st.spaces if s.kind == "slide"]
    assert slides and all(len(s.side) == 1 and st.spaces[s.side[0]].row == s.row for s in slides)


def test_bad_data_is_rejected():
    for tok in ("C o3@2", "r j9", "q", "C o1@2 i3@1", "m"):
        with pytest.raises(B.DataError):
            B.parse_segment(tok)
    with pytest.raises(B.DataError):
        B.stage("No such stage")


def test_random_stages_are_valid():
    from bot.games.rallyman import generator as G

    for length in (G.MIN_LEN, 8, 12, G.MAX_LEN):
        for seed in range(8):
            name = G.name_for(length, seed)
            road = G.road(length, seed)
            assert len(road) == length + 2
            assert road[0][0][:3] == "202" and road[-1][0][:3] == "203"  # start and finish at the ends
            cells = [(t[1], t[2]) for t in road]
            assert len(set(cells)) == len(cells)  # never overlapping itself
            nums = [t[0][:3] for t in road]
            assert len(set(nums)) == len(nums)  # each physical tile once
            st = B.stage(name)  # checks every link edge to edge
            assert any(st.spaces[i].finish for i in B.reachable(st, st.starts))
    assert G.road(10, 5) == G.road(10, 5)  # the name rebuilds the same stage
    assert G.parse("Random 3 #1") is None and G.parse("Random 10 #7") == (10, 7)
