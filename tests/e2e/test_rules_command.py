"""`/<game> rules`: a page at a time, privately, in the reader's language."""
from __future__ import annotations

from bot import rules_pages


async def test_rules_pages_are_private_and_in_the_readers_language(table):
    w, emu = table, table.emu
    rec = await emu.slash(w.alice, w.general, "heat", "rules")
    await emu.wait_until(lambda: rec.followups)
    first = rules_pages.pages("heat", "en")[0][0]
    assert rec.followups[0].ephemeral and rec.followups[0].content.startswith(f"**{first}** (1/")
    w.bob.locale = "ja"
    rec = await emu.slash(w.bob, w.general, "pon", "rules", page=2)
    await emu.wait_until(lambda: rec.followups)
    title = rules_pages.pages("pon", "ja")[1][0]
    assert rec.followups[0].content.startswith(f"**{title}**（2/")
    assert not emu.channel_messages(w.general)  # nothing public
