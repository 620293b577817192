"""Content changes reach Steam Works games already under way: a game's state names its tiles,
personas and spaces by id and looks them up in today's content. Values may be re-tuned (a change
then applies from the next move on), but an id that a stored game holds must never disappear, or
that game could no longer load or move. Add new ids here when content gains them; never remove one."""

from bot.games.steamworks.content import OPS, SPACE_IDS
from bot.games.steamworks.engine import SETUP, TILES

SHIPPED_TILES = {
    "aether_engine",
    "alarm_chronometer",
    "amplicondenser",
    "clock_tower",
    "clockwork_oracle",
    "coal_scuttle",
    "condenser",
    "distiller",
    "dynamo_lamp",
    "echo_chamber",
    "electroclock",
    "electrosteam",
    "exhibition_hall",
    "gear_exchange",
    "gear_train",
    "gilded_gearbox",
    "grand_orrery",
    "haiku_generator",
    "innovation_turbine",
    "insta_factor",
    "kettle_drum",
    "librarifier",
    "manufacturer",
    "master_workshop",
    "miscellanerie",
    "monetiser",
    "pocket_press",
    "power_converter",
    "resonator",
    "reverberator",
    "royal_patent",
    "scroll_rack",
    "sourcer",
    "spark_jar",
    "src_C",
    "src_E",
    "src_S",
    "steam_bank",
    "steamwork",
    "ticker_press",
    "tinkers_bench",
    "upgrader",
    "winding_key",
}
SHIPPED_PERSONAS = {"archivist", "clockmaker", "collector", "electrician", "engineer", "patron", "stoker", "tinkerer"}
SHIPPED_OPS = {
    "advance_start",
    "belt_take",
    "build",
    "buy_vp",
    "clocks",
    "coins",
    "gain_any",
    "gain_same",
    "per_component_coins",
    "reuse",
    "sell_source",
    "stack_by_power",
    "turbine",
    "upgrade",
    "vp",
    "vp_per_device",
}
SHIPPED_SPACES = {"tile", "source", "build", "workshop"}


def test_every_shipped_tile_id_is_still_in_the_content():
    assert not SHIPPED_TILES - set(TILES), "a game under way may hold these tiles"


def test_every_shipped_persona_is_still_in_the_content():
    assert not SHIPPED_PERSONAS - set(SETUP.personas), "a game under way may have dealt these personas"


def test_every_shipped_effect_op_and_space_is_still_understood():
    assert not SHIPPED_OPS - set(OPS)
    assert not SHIPPED_SPACES - set(SPACE_IDS)
    assert not SHIPPED_SPACES - {s["id"] for s in SETUP.spaces}


def test_the_lists_here_know_every_id_in_the_content():
    # so that a new tile or persona gets added here, and from then on is guarded too
    assert set(TILES) <= SHIPPED_TILES and set(SETUP.personas) <= SHIPPED_PERSONAS
    assert {t.effect["op"] for t in TILES.values() if t.effect} <= SHIPPED_OPS
