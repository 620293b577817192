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


async def test_previous_and_next_turn_the_pages_and_a_missing_page_is_said(table):
    w, emu = table, table.emu
    pages = rules_pages.pages("heat", "en")
    rec = await emu.slash(w.alice, w.general, "heat", "rules")
    await emu.wait_until(lambda: rec.followups)
    page = rec.followups[0]
    assert [b["label"] for b in page.buttons] == ["◀ Previous", "Next ▶"]
    assert page.buttons[0].get("disabled") and not page.buttons[1].get("disabled")  # page 1: no way back
    click = await emu.click(w.alice, page, label="Next ▶")
    await emu.wait_until(lambda: emu.message(page.id).content.startswith(f"**{pages[1][0]}** (2/"))
    assert not click.followups  # the same private message shows the next page
    for missing in (0, 99):
        rec = await emu.slash(w.alice, w.general, "heat", "rules", page=missing)
        await emu.wait_until(lambda: rec.followups)
        assert f"There is no page {missing}: the rules have pages 1 to {len(pages)}." == rec.followups[0].content
