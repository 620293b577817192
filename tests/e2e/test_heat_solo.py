"""/heat new legends:2 for one player through the emulator (issue #11): a solo race against two
Legends the bot drives, run to the end; the thread names the Legends and the results come."""

from __future__ import annotations

from bot.tools.emulator.players import Player, play_until
from bot.tools.emulator.tables import open_table, start


async def test_solo_race_against_two_legends(table):
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: 5
    lobby = await open_table(w, w.alice, track="italy", legends=2)
    assert "2 Legends (cars the bot drives)" in emu.message(lobby).content
    thread = await start(w, lobby, w.alice)
    players = [Player(emu, w.alice, "select", 3)]

    def over():
        return any("The race is over" in m.content for m in emu.messages_in(thread))

    await play_until(players, thread, over, max_steps=1500)
    log = "\n".join(m.content for m in emu.messages_in(thread))
    assert "Legend 1:" in log and "Legend 2:" in log and "<seat:" not in log
    assert (await w.bot.store.game(1)).status == "finished"
    assert not [e for e in players[0].errors if "moved on" not in e], players[0].errors


async def test_solo_without_legends_is_refused_at_the_start(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, track="usa")
    rec = await emu.click(w.alice, lobby, label="Start")
    await emu.wait_until(lambda: rec.followups)
    assert rec.followups[0].ephemeral and "solo race needs Legends" in rec.followups[0].content
    assert emu.threads(w.general) == []


async def test_solo_garage_dealt_with_choice_of_speed_asked(table):
    """Garage upgrades dealt (no draft), then "Choice of speed → Ask me" from the DM's preferences
    select: the race pauses on a select of total speeds that the player answers."""
    w, emu = table, table.emu
    w.bot.table.lobbies.new_seed = lambda: 23  # alice is dealt two Brakes 1/5 (and one card without a choice)
    lobby = await open_table(w, w.alice, track="italy", legends=1, garage="basic", garage_deal=True)
    assert "Garage: 3 upgrades dealt to each player (basic cards)" in emu.message(lobby).content
    thread = await start(w, lobby, w.alice)
    dm = await emu.wait_until(
        lambda: next(
            (
                m
                for m in reversed(emu.dm_messages(w.alice))
                if any(s.get("placeholder", "").startswith("Preferences") for s in m.selects)
            ),
            None,
        )
    )
    prefs = next(s for s in dm.selects if s.get("placeholder", "").startswith("Preferences"))
    option = next(o for o in prefs["options"] if o["label"] == "Choice of speed → Ask me")
    assert option["description"] == "Now: Auto"
    rec = await emu.select(w.alice, dm, [option["value"]], custom_id=prefs["custom_id"])
    await emu.wait_until(lambda: rec.followups or rec.menu_spent)
    players = [Player(emu, w.alice, "select", 7)]

    def asked():
        return any(
            s.get("placeholder", "").startswith("Choice of speed") for m in emu.dm_messages(w.alice) for s in m.selects
        )

    def over():
        return any("The race is over" in m.content for m in emu.messages_in(thread))

    await play_until(players, thread, lambda: asked() or over(), max_steps=1500)
    assert asked()
    await play_until(players, thread, over, max_steps=1500)
    assert not any(" takes " in m.content for m in emu.messages_in(thread))  # no draft
    assert not [e for e in players[0].errors if "moved on" not in e], players[0].errors
