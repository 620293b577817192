"""/heat new championship:custom races:2 legends:2 through the emulator: a two-race season with
two Legends. The upgrade market and the swap are DM selects; after the first race the thread gets
the standings image (the market for race 2) and the grid follows the points; at the end the
final standings."""

from __future__ import annotations

from bot.tools.emulator.players import Player, play_until
from bot.tools.emulator.tables import open_table, start


async def test_two_race_championship_with_legends(table):
    w, emu = table, table.emu
    lobby = await open_table(
        w, w.alice, w.bob, track="usa", legends=2, championship="custom", races=2, season_tracks="usa,france"
    )
    content = emu.message(lobby).content
    assert "Championship: custom season of 2 races" in content and "2 Legends" in content
    thread = await start(w, lobby, w.alice)
    players = [Player(emu, w.alice, "select", 5), Player(emu, w.bob, "select", 6)]
    dm = await emu.wait_until(lambda: [m for u in (w.alice, w.bob) for m in emu.dm_messages(u) if m.selects][:1])
    assert dm[0].selects[0]["placeholder"].startswith("Race 1: take one upgrade from the market")

    def said(text):
        return any(text in m.content for m in emu.messages_in(thread))

    await play_until(players, thread, lambda: said("The championship is over"), max_steps=4000)
    assert said("Race 1 is over") and said("Race 2: France") and said(" may swap one upgrade")
    # the standings image comes with the end of race 1 (the board of race 2's market), the final
    # standings with the end of the season
    over = [m for m in emu.messages_in(thread) if "Race 1 is over" in m.content]
    assert over and over[0].attachments
    final = [m for m in emu.messages_in(thread) if "The championship is over" in m.content]
    assert final and len(final[0].attachments) >= 2
    assert not said("<seat:")
    assert not [e for p in players for e in p.errors if "moved on" not in e], [p.errors for p in players]


async def test_track_is_optional_and_a_championship_names_no_circuit(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice)  # no options at all: the USA circuit
    assert "USA circuit" in emu.message(lobby).content
    rec = await emu.slash(w.carol, w.general, "heat", "new", championship="1961", track="france")
    await emu.wait_until(lambda: rec.acked)
    season = await emu.wait_until(
        lambda: [m for m in emu.channel_messages(w.general) if "1961" in m.content and m.buttons]
    )
    assert "circuit" not in season[-1].content  # the season's own tracks, not the one given
