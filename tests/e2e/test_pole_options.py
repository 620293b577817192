"""A solo Pole Position race with the optional rules on, through the emulator: custom setup,
events, circuit rules, drivers and teams, no retirements; five bots. The race runs to the flag."""

from __future__ import annotations

from bot.tools.emulator.players import Driver, play_until
from bot.tools.emulator.tables import open_table, start

SEED = 5


async def test_solo_pole_race_with_the_optional_rules(table):
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: SEED
    lobby = await open_table(
        w,
        w.alice,
        kind="pole",
        circuit="china",
        bots=5,
        events=True,
        events_often=True,
        circuit_rules=True,
        custom_setup=True,
        drivers=True,
        no_retire=True,
        stress=True,
    )
    content = emu.message(lobby).content
    assert "events" in content and "circuit special rules" in content and "drivers and teams" in content
    thread = await start(w, lobby, w.alice)
    players = [Driver(emu, w.alice, "select", 1, "pole")]

    def done():
        return any("The game is over" in m.content for m in emu.messages_in(thread))

    await play_until(players, thread, done, max_steps=1500)
    log = "\n".join(m.content for m in emu.messages_in(thread))
    assert "has set up the car" in log  # the custom setup step came first
    assert "Q3: the grid is" in log
    assert "Event: " in log  # China: the first event card at the end of the start
    assert "<seat:" not in log
    assert (await w.bot.store.game(1)).status == "finished"
    for p in players:
        assert not [e for e in p.errors if "went wrong" in e], p.errors


async def test_solo_championship_of_four_races(table):
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: SEED
    lobby = await open_table(
        w, w.alice, kind="pole", circuit="usa", bots=3, championship=4, engine_damage=True, constructors=True
    )
    assert "championship of 4 races" in emu.message(lobby).content
    thread = await start(w, lobby, w.alice)
    players = [Driver(emu, w.alice, "select", 1, "pole")]

    def done():
        return any("The game is over" in m.content for m in emu.messages_in(thread))

    await play_until(players, thread, done, max_steps=4000)
    log = "\n".join(m.content for m in emu.messages_in(thread))
    for i in (1, 2, 3):
        assert f"Race {i} of 4 is over." in log
    assert "Race 4 of 4: Great Britain." in log  # USA, Italy, Germany, Great Britain
    assert (await w.bot.store.game(1)).status == "finished"
    for p in players:
        assert not [e for e in p.errors if "went wrong" in e], p.errors
