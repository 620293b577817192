"""Images for the optional rules: the event in force on the board, "must pit", the lobby text."""

from bot.games.pole import ENGINE as E
from bot.i18n import render
from tests.pole.helpers import end_race, race
from rendering import pole as RP
from rendering import pole_events as RE
from rendering.common import drawing_in


def test_event_badge_while_news_then_gone():
    st = race(n=2, events=True)
    v = E.view(st, None)
    assert RE.badge(v) is None
    st["events"]["last"] = {"card": "weather3", "round": st["round"], "seat": None}
    with drawing_in("en"):
        assert RE.badge(E.view(st, None))[0] == "Event: weather +3"
    with drawing_in("ja"):
        assert RE.badge(E.view(st, None))[0] == "イベント：天候+3"
    st["round"] += 2
    assert RE.badge(E.view(st, None)) is None


def test_board_and_hand_render_with_every_option():
    st = race(n=2, events=True, circuit_rules=True, no_retire=True, long_race=True, stress=True, bots=1)
    st["events"]["last"] = {"card": "heavy", "round": st["round"], "seat": 0}
    st["cars"][0]["must_pit"] = True
    for loc in ("en", "ja"):
        assert RP.render_board(E.view(st, None), ["A", "B"], loc)[8:12] == b"WEBP"
        assert RP.render_hand(E.view(st, 0), ["A", "B"], loc)[:4] == b"\x89PNG"


def test_lobby_names_every_option():
    opts = E.validate_options(
        {
            "circuit": "usa",
            "events_c": True,
            "events_often": True,
            "circuit_rules": True,
            "no_retire": True,
            "long_race": True,
            "stress": True,
            "bots": 2,
        },
        2,
    )
    text = [render(m, "en") for m in E.describe_options(opts)]
    assert text[0] == "USA, 12 laps" or text[0].startswith("USA, ")
    joined = " | ".join(text)
    for word in (
        "2 bots",
        "stress",
        "events (with the C cards, a 3 counts as '!')",
        "circuit special rules",
        "no retirements",
        "long race",
    ):
        assert word in joined, joined
    assert all(render(m, "ja") for m in E.describe_options(opts))


def test_setup_step_renders():
    st = E.new_game({"circuit": "spain", "custom_setup": True}, 2, 1)
    for loc in ("en", "ja"):
        assert RP.render_board(E.view(st, None), ["A", "B"], loc)[8:12] == b"WEBP"
        assert RP.render_hand(E.view(st, 0), ["A", "B"], loc)[:4] == b"\x89PNG"


def test_dashboard_shows_driver_and_team():
    st = race(n=2, drivers=True)
    st["cars"][0].update(driver="tyre_whisperer", team="pit_crew", wear_tok=3, blow_tok=2)
    plain = race(n=2)
    import io
    from PIL import Image

    for loc in ("en", "ja"):
        a = Image.open(io.BytesIO(RP.render_hand(E.view(st, 0), ["A", "B"], loc)))
        b = Image.open(io.BytesIO(RP.render_hand(E.view(plain, 0), ["A", "B"], loc)))
        assert a.height > b.height  # the two extra lines of the driver and the team


def test_standings_image_between_races_and_at_the_end():
    import io
    from PIL import Image

    st = E.new_game(
        {"circuit": "great_britain", "championship": 4, "constructors": True, "engine_damage": True, "bots": 1}, 2, 1
    )
    st = end_race(st, [2, 0, 1], ep={0: 0})
    for loc in ("en", "ja"):
        board = Image.open(io.BytesIO(RP.render_board(E.view(st, None), ["A", "B"], loc)))
        assert board.height < 900  # the standings, not the circuit map
        assert RP.render_results(E.view(st, None), ["A", "B"], loc)[:4] == b"\x89PNG"
        assert RP.render_hand(E.view(st, 0), ["A", "B"], loc)[:4] == b"\x89PNG"
    text = [render(m, "en") for m in E.describe_options(st["options"])]
    assert "championship of 4 races" in text and "engine damage" in text


def test_dashboard_names_the_circuit_rules():
    from rendering.common import drawing_in as din

    st = race(n=2, circuit="germany", circuit_rules=True)
    with din("en"):
        assert RE.circuit_rules_text(E.view(st, 0)) == "Circuit rules: low-grip areas; DRS gives 3 MP"
        assert RE.circuit_rules_text(E.view(race(n=2, circuit="germany"), 0)) == ""


def test_the_public_board_names_every_cars_driver_and_team():
    """Drivers and teams (14): a third line in each car's row of the public board, in the image's
    language; a bot driving an absent player's car is named "<player> (bot)"."""
    import io

    from PIL import Image

    from bot.games.pole import ENGINE as E
    from rendering.pole import render_board
    from rendering.pole_drivers import names

    st = E.new_game({"circuit": "monaco", "drivers": True, "bots": 1}, 2, 4)
    plain = E.new_game({"circuit": "monaco", "bots": 1}, 2, 4)
    assert names(E.view(st, None)["cars"][0]) and not names(E.view(st, None)["cars"][2])
    tall = Image.open(io.BytesIO(render_board(E.view(st, None), ["a", "b"], "ja"))).height
    short = Image.open(io.BytesIO(render_board(E.view(plain, None), ["a", "b"], "en"))).height
    assert tall > short
    taken, _ = E.apply(st, 1, E.takeover_action(st, 1))
    assert E.view(taken, None)["cars"][1]["driver"] == st["cars"][1]["driver"]  # still shown while a bot drives
