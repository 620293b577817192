"""Which game a command without a game number means (issue #27): the thread's, else the caller's
one live game, else this channel's (for a spectator); several are listed with links."""

from __future__ import annotations

from bot.tools.emulator.tables import open_table, start


async def status(emu, user, channel):
    rec = await emu.slash(user, channel, "game", "status")
    await emu.wait_until(lambda: rec.followups)
    return rec.followups[0]


async def test_a_spectator_in_the_channel_sees_the_game_played_from_it(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    await start(w, lobby, w.alice)
    answer = await status(emu, w.dave, w.general)
    assert answer.ephemeral and answer.attachments, answer.content  # the board, not "I can't find that game"


async def test_an_abandoned_game_does_not_hide_the_live_one(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    thread = await start(w, lobby, w.alice)
    rec = await emu.slash(w.alice, thread, "game", "abandon")
    await emu.wait_until(lambda: rec.followups)
    lobby = await open_table(w, w.alice, w.bob, kind="pon")
    await start(w, lobby, w.alice)
    answer = await status(emu, w.alice, w.general)
    assert answer.attachments and "several" not in answer.content, answer.content


async def test_several_live_games_are_listed_with_links(table):
    w, emu = table, table.emu
    other = emu.add_text_channel(w.guild, "other")
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    await start(w, lobby, w.alice)
    rec = await emu.slash(w.alice, other, "heat", "new", track="usa")
    await emu.wait_until(lambda: rec.followups)
    lobby = [m for m in emu.channel_messages(other) if m.buttons][-1]
    await emu.click(w.bob, lobby, label="Join")
    await emu.click(w.alice, lobby, label="Start")
    await emu.wait_until(lambda: emu.threads(other))
    answer = await status(emu, w.alice, emu.add_text_channel(w.guild, "third"))
    assert (
        "several games" in answer.content
        and "#1 https://discord.com/channels/" in answer.content
        and "#2 https://" in answer.content
    ), answer.content
