"""Simulated players for end-to-end games: they act only through what Discord shows them
(DM selects and buttons, slash commands with autocomplete), never through the bot's state: Player,
Pole's Driver, Steam Works' Inventor, and play_until, which plays them until a condition holds."""

from __future__ import annotations

import random
from typing import Any

from bot.tools.emulator.errors import EmulatorError


def menu_key(message) -> tuple:
    """A DM's menu: its id and its components' ids (the bot may edit a DM in place with a new menu)."""
    return message.menu_key


def newest_with_components(messages):
    live = [m for m in messages if m.components and not m.deleted]
    return live[-1] if live else None


def is_pref(label: str) -> bool:
    return ":" in label or "：" in label  # preference toggles read "Name: value" (any language); decisions do not


class Player:
    def __init__(self, emu, user, style: str, seed: int, kind: str = "heat"):
        self.emu, self.user, self.style, self.kind = emu, user, style, kind
        self.rnd = random.Random(seed)
        self.done: set[tuple] = set()  # DM menus already acted on (menu_key)
        self.errors: list[str] = []
        self.choices: list[str] = []  # the /<game> play autocomplete's choices this player was shown

    def not_moves(self) -> tuple[str, ...]:
        """How the menus that are no move begin (a sent pick, the preferences), in the player's words."""
        return ("Sent", "Preference")  # (also "Preferences…" and a choice's "Preference — …")

    def through(self) -> str:
        """How the table's answer to a move that went through begins, in the player's words."""
        return "Done"

    def take_menu(self) -> Any:
        """The newest DM with controls not acted on yet, marked as acted on (None: nothing new)."""
        dm = newest_with_components(self.emu.dm_messages(self.user))
        if dm is None or menu_key(dm) in self.done:
            return None
        self.done.add(menu_key(dm))
        return dm

    def has_new_dm(self) -> bool:
        dm = newest_with_components(self.emu.dm_messages(self.user))
        return dm is not None and menu_key(dm) not in self.done

    def describe(self) -> str:
        dms = self.emu.dm_messages(self.user)[-2:]
        return f"{self.user.name}: errors={self.errors[-3:]} dms=" + " || ".join(
            f"{m.content[-200:]!r} buttons={m.button_labels} selects={[s.get('placeholder') for s in m.selects]}"
            for m in dms
        )

    async def act(self, thread) -> bool:
        """Make one move if the newest DM asks for one. Returns True if something was sent."""
        dm = self.take_menu()
        if dm is None:
            return False
        decisions = [b for b in dm.buttons if not is_pref(b.get("label", ""))]
        if decisions:
            rec = await self.emu.click(self.user, dm, custom_id=self.rnd.choice(decisions)["custom_id"])
            return await self.settled(rec)
        moves = [s for s in dm.selects if not (s.get("placeholder") or "").startswith(self.not_moves())]
        if not moves:
            return False
        if self.style == "slash":
            return await self.by_slash(thread)
        return await self.by_select(dm, self.rnd.choice(moves))

    async def by_select(self, dm, select) -> bool:
        values = [o["value"] for o in select["options"]]
        # Like a person: first picks without Heat cards (they are only for a clogged hand), then any.
        plain = [o["value"] for o in select["options"] if "Heat" not in o["label"]]
        if len(plain) < select.get("min_values", 1):  # too few to fill the select's minimum
            plain = values
        for attempt in range(24):  # a pick the rules refuse gets a private answer; pick again
            pool = plain if attempt < 16 else values
            k = self.rnd.randint(
                min(select.get("min_values", 1), len(pool)), min(select.get("max_values", 1), len(pool))
            )
            rec = await self.emu.select(self.user, dm, self.rnd.sample(pool, k), custom_id=select["custom_id"])
            if await self.settled(rec):
                return True
        return False

    async def by_slash(self, thread) -> bool:
        choices = await self.emu.autocomplete(self.user, thread, self.kind, "play", focused="move", move="")
        self.choices += [c["name"] for c in choices]
        moves = [c["value"] for c in choices if not c["name"].startswith(self.not_moves())]
        if not moves:
            return False
        rec = await self.emu.slash(self.user, thread, self.kind, "play", move=self.rnd.choice(moves))
        return await self.settled(rec)

    async def settled(self, rec) -> bool:
        """True when the move went through; a refusal is recorded (it must be the player's own fault)."""
        try:
            # a refusal comes as a private follow-up; a DM move that went through loses its menu
            # (its components go, or the DM is edited in place with the next menu)
            await self.emu.wait_until(lambda: rec.followups or rec.menu_spent, timeout=10)
        except TimeoutError:
            raise AssertionError(f"no answer to {self.user.name}'s move: {rec.error}")
        texts = [m.content for m in rec.followups if m.ephemeral]
        # Through: the table says "Done" (a player with closed DMs then also gets their hand, whose
        # text is no refusal: once read as one, a quick bot's move went uncounted).
        refused = [] if any(x.startswith(self.through()) for x in texts) else texts
        if refused:
            self.errors.extend(refused)
            return False
        return True


class Driver(Player):
    """Plays like a person in a hurry: the furthest cells, a pit stop once, few rerolls."""

    pitted = False

    async def act(self, thread) -> bool:
        dm = self.take_menu()
        if dm is None:
            return False
        moves = [s for s in dm.selects if (s.get("placeholder") or "").startswith(("Where", "Defend", "Attack"))]
        if not moves:
            buttons = [b for b in dm.buttons if not b.get("label", "").startswith(("Reroll", "Use roll"))]
            stay = [b for b in buttons if b.get("label", "").startswith("Spend")] or buttons
            if not stay:  # only the preferences: nothing to do now
                return False
            rec = await self.emu.click(self.user, dm, custom_id=self.rnd.choice(stay)["custom_id"])
            return await self.settled(rec)
        select = moves[0]
        opts = select["options"]
        pit = [o for o in opts if o["label"].startswith("Pit stop")]
        if pit and not self.pitted:
            self.pitted = True
            pick = pit[0]
        else:
            pick = opts[0] if self.rnd.random() < 0.8 else self.rnd.choice(opts[:4])
        if self.style == "slash" and select.get("placeholder", "").startswith("Where"):
            choices = await self.emu.autocomplete(
                self.user, thread, self.kind, "play", focused="move", move=pick["label"][:40]
            )
            if choices:
                rec = await self.emu.slash(self.user, thread, self.kind, "play", move=choices[0]["value"])
                return await self.settled(rec)
        rec = await self.emu.select(self.user, dm, [pick["value"]], custom_id=select["custom_id"])
        return await self.settled(rec)


class Inventor(Player):
    """Like Player, but it mostly places mechanics (a select) rather than always clicking a button:
    Steam Works offers Pass and the activation buttons next to every select."""

    async def act(self, thread) -> bool:
        dm = self.take_menu()
        if dm is None:
            return False
        buttons = [b for b in dm.buttons if not is_pref(b.get("label", ""))]
        confirm = [b for b in buttons if b.get("label", "").startswith("Confirm")]
        selects = list(dm.selects)
        if confirm:
            rec = await self.emu.click(self.user, dm, custom_id=confirm[0]["custom_id"])
            return await self.settled(rec)
        if selects and (not buttons or self.rnd.random() < 0.85):
            if self.style == "slash":
                return await self.by_slash(thread)
            return await self.by_select(dm, self.rnd.choice(selects))
        if buttons:
            rec = await self.emu.click(self.user, dm, custom_id=self.rnd.choice(buttons)["custom_id"])
            return await self.settled(rec)
        return False


def thread_tail(emu, thread):
    return " | ".join(m.content[-300:] for m in emu.messages_in(thread)[-3:])


async def play_until(players, thread, stop, max_steps=2000):
    for _ in range(max_steps):
        if stop():
            return
        moved = False
        for p in players:
            try:
                moved |= await p.act(thread)
            except EmulatorError:  # the menu lost its controls as a newer one came: look again
                pass
        if not moved:
            try:
                await players[0].emu.wait_until(lambda: stop() or any(p.has_new_dm() for p in players), timeout=10)
            except TimeoutError:
                raise AssertionError(
                    "stalled:\n"
                    + "\n".join(p.describe() for p in players)
                    + "\nthread: "
                    + thread_tail(players[0].emu, thread)
                ) from None
    raise AssertionError("the game did not end")
