"""A whole Pole Position race through the emulator: three players moving by DM selects and
buttons and by /pole play; the thread shows qualifying, a position fight and a pit stop."""
from __future__ import annotations

from .players import Player, menu_key, newest_with_components
from .test_heat_race import play_until
from .test_table import open_table, start

SEED = 4  # a race with qualifying, a position fight and a pit stop (re-picked when the rules change the dice)


class Driver(Player):
    """Plays like a person in a hurry: the furthest cells, a pit stop once, few rerolls."""

    pitted = False

    async def act(self, thread) -> bool:
        dm = newest_with_components(self.emu.dm_messages(self.user))
        if dm is None or menu_key(dm) in self.done:
            return False
        moves = [s for s in dm.selects if (s.get("placeholder") or "").startswith(("Where", "Defend", "Attack"))]
        if not moves:
            buttons = [b for b in dm.buttons if not b.get("label", "").startswith(("Reroll", "Use roll"))]
            stay = [b for b in buttons if b.get("label", "").startswith("Spend")] or buttons
            self.done.add(menu_key(dm))
            if not stay:  # only the preferences: nothing to do now
                return False
            rec = await self.emu.click(self.user, dm, custom_id=self.rnd.choice(stay)["custom_id"])
            return await self.settled(rec)
        self.done.add(menu_key(dm))
        select = moves[0]
        opts = select["options"]
        pit = [o for o in opts if o["label"].startswith("Pit stop")]
        if pit and not self.pitted:
            self.pitted = True
            pick = pit[0]
        else:
            pick = opts[0] if self.rnd.random() < 0.8 else self.rnd.choice(opts[:4])
        if self.style == "slash" and select.get("placeholder", "").startswith("Where"):
            choices = await self.emu.autocomplete(self.user, thread, self.kind, "play", focused="move",
                                                  move=pick["label"][:40])
            if choices:
                rec = await self.emu.slash(self.user, thread, self.kind, "play", move=choices[0]["value"])
                return await self.settled(rec)
        rec = await self.emu.select(self.user, dm, [pick["value"]], custom_id=select["custom_id"])
        return await self.settled(rec)


async def test_full_pole_race(table):
    w, emu = table, table.emu
    w.bot.table.new_seed = lambda: SEED
    lobby = await open_table(w, w.alice, w.bob, w.carol, kind="pole", circuit="monaco")
    thread = await start(w, lobby, w.alice)
    players = [Driver(emu, w.alice, "select", 1, "pole"), Driver(emu, w.bob, "slash", 2, "pole"),
               Driver(emu, w.carol, "select", 3, "pole")]

    def done():
        return any("The game is over" in m.content for m in emu.messages_in(thread))

    await play_until(players, thread, done, max_steps=1500)
    log = "\n".join(m.content for m in emu.messages_in(thread))
    assert "Q3: the grid is" in log
    assert "Position fight" in log or "lets" in log
    assert " pits (" in log
    assert "<seat:" not in log
    assert (await w.bot.store.game(1)).status == "finished"
    for p in players:
        assert not [e for e in p.errors if "went wrong" in e], p.errors
