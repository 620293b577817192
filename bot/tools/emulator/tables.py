"""Table actions shared by the end-to-end tests: open a table (and join it), start it, the newest
matching message, and a DM carrying forged buttons."""

from __future__ import annotations


def last(messages, pred=lambda m: True):
    found = [m for m in messages if pred(m)]
    return found[-1] if found else None


async def open_table(w, creator, *joiners, kind="heat", **options):
    emu = w.emu
    rec = await emu.slash(creator, w.general, kind, "new", **options)
    assert rec.acked and not rec.failed, rec.error
    lobby = await emu.wait_until(lambda: last(emu.channel_messages(w.general), lambda m: m.buttons))
    # The command ends with a private "your table is open" after the lobby: a test that stopped
    # the bot before it would cut the command off (seen on a loaded machine).
    await emu.wait_until(lambda: rec.followups)
    for user in joiners:
        await emu.click(user, lobby, label="Join")
    return lobby


async def start(w, lobby, creator):
    emu = w.emu
    await emu.click(creator, lobby, label="Start")
    thread = await emu.wait_until(lambda: (emu.threads(w.general) or [None])[0])
    await emu.wait_until(lambda: any(m.attachments for m in emu.messages_in(thread)))
    return thread


def plant(emu, user, custom_ids):
    """A bot-authored DM carrying buttons with arbitrary custom_ids (as from an old or tampered
    message): Discord only sends custom_ids that stand on the message, so this is how a forged
    id reaches the bot."""
    rows = [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": f"x{i}", "custom_id": cid}]}
        for i, cid in enumerate(custom_ids)
    ]
    return emu.messaging.create(emu.dm_channel(user), emu.bot, {"content": "old", "components": rows})
