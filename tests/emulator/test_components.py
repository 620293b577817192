"""Buttons (DynamicItem, disabled, forged), selects, threads, modals."""

from __future__ import annotations

import asyncio

import discord

import pytest

from bot.tools.emulator import EmulatorError
from tests.emulator.helpers import new_game


async def test_click_dynamic_item_updates_message(env):
    emu = env.emu
    game = await new_game(env)
    rec = await emu.click(env.bob, game, label="Join (0)")
    assert rec.callback_type == 7 and rec.response is game
    assert game.content == "Game 1: 1 joined" and game.button("Join (1)")["custom_id"] == "join:1"
    assert game.edited_timestamp is not None
    assert env.bot.last("join") == ("join", 1, env.bob.id)
    rec = await emu.click(env.carol, game, custom_id="join:1")
    assert game.content == "Game 1: 2 joined" and env.bot.games[1] == {env.bob.id, env.carol.id}
    assert rec.payload["message"]["id"] == str(game.id)


async def test_disabled_and_absent_buttons_are_refused(env):
    game = await new_game(env)
    assert game.button("Start")["disabled"] is True
    before = len(env.emu.interaction_records)
    with pytest.raises(EmulatorError, match="disabled"):
        await env.emu.click(env.bob, game, label="Start")
    with pytest.raises(EmulatorError, match="no button"):
        await env.emu.click(env.bob, game, custom_id="join:99")
    assert len(env.emu.interaction_records) == before


async def test_forged_click_on_disabled_button_reaches_dynamic_item(env):
    game = await new_game(env)
    rec = await env.emu.click(env.bob, game, custom_id="start:1", force=True)
    assert env.bot.last("start") == ("start", 1, env.bob.id, 0)  # the handler ran and re-checked
    assert rec.callback_type == 4 and rec.ephemeral and rec.response.content == "Need 2 players."
    assert game.content.startswith("Game 1 on usa")  # the real message is untouched
    await env.emu.click(env.bob, game, label="Join (0)")
    await env.emu.click(env.carol, game, label="Join (1)")
    rec = await env.emu.click(env.alice, game, label="Start")  # enabled now
    assert rec.callback_type == 7 and game.content == "Game 1 started" and game.components == []


async def test_forged_custom_id_absent_from_message_is_dropped_by_discord_py(env):
    # discord.py only dispatches a DynamicItem whose custom_id is on interaction.message,
    # so a forged id absent from the message gets no answer: Discord shows the failure.
    emu = env.emu
    game = await new_game(env)
    before = len(emu.interaction_records)
    task = asyncio.create_task(emu.click(env.bob, game, custom_id="join:99", force=True))
    await emu.wait_until(lambda: len(emu.interaction_records) > before)
    emu.clock.advance(3.01)
    rec = await task
    assert rec.failed and rec.error == "This interaction failed" and not rec.acked
    assert env.bot.last("join") is None


async def test_select_validates_values_then_creates_thread(env):
    emu, alice = env.emu, env.alice
    game = await new_game(env)
    for values, needle in ((["4"], "not among the options"), (["1", "2", "3"], "takes 1..2"), ([], "takes 1..2")):
        with pytest.raises(EmulatorError, match=needle):
            await emu.select(alice, game, values)
    rec = await emu.select(alice, game, ["2", "3"], custom_id="lane:1")
    assert rec.data == {"custom_id": "lane:1", "component_type": 3, "values": ["2", "3"]}
    assert rec.ephemeral and rec.response.content == "Lanes 2, 3"
    thread = (await emu.wait_until(lambda: emu.threads(env.general)))[0]
    assert thread.name == "lane-2-3" and thread.type == 11  # public thread
    posted = await emu.wait_until(lambda: emu.messages_in(thread))
    assert posted[0].mentions == [alice.id] and "picked lanes 2, 3" in posted[0].content
    assert env.bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the cache


async def test_thread_from_interaction_reply(env):
    emu = env.emu
    rec = await emu.slash(env.alice, env.general, "heat", "thread")
    thread = (await emu.wait_until(lambda: emu.threads(env.general)))[0]
    assert thread.id == rec.response.id and thread.name == "race"
    assert (await emu.wait_until(lambda: emu.messages_in(thread)))[0].content == "Lights out!"
    assert rec.response.thread_id == thread.id


async def test_modal_round_trip(env):
    emu = env.emu
    rec = await emu.slash(env.alice, env.general, "heat", "feedback")
    assert rec.callback_type == 9 and rec.modal["title"] == "Feedback" and rec.response is None
    with pytest.raises(EmulatorError, match="required"):
        await emu.submit_modal(env.alice, rec, {})
    with pytest.raises(EmulatorError, match="1..50|0..50"):
        await emu.submit_modal(env.alice, rec, {"comment": "x" * 51})
    with pytest.raises(EmulatorError, match="only the user"):
        await emu.submit_modal(env.bob, rec, {"comment": "hi"})
    sub = await emu.submit_modal(env.alice, rec, {"comment": "great race"})
    assert sub.type == 5 and sub.callback_type == 4 and sub.response.content == "Thanks: great race"


async def test_only_the_owner_of_an_ephemeral_message_can_use_it(env):
    emu = env.emu
    rec = await emu.click(env.bob, await new_game(env), custom_id="start:1", force=True)
    with pytest.raises(EmulatorError, match="cannot see"):
        await emu.click(env.carol, rec.response, custom_id="x", force=True)


async def test_deferred_component_updates_edit_delete_and_followup(env):
    emu = env.emu
    panel = (await emu.slash(env.alice, env.general, "heat", "panel")).response
    rec = await emu.click(env.bob, panel, label="Refresh")
    assert rec.callback_type == 6 and rec.response is None
    await emu.wait_until(lambda: panel.embeds)
    assert panel.content == "" and panel.embeds[0]["title"] == "Standings"
    assert panel.attachments[0].filename == "standings.png" and panel.button("Note") is not None
    rec = await emu.click(env.bob, panel, label="Note")
    note = (await emu.wait_until(lambda: rec.followups))[0]
    assert note.ephemeral and note.visible_to == env.bob.id and note.attachments[0].width == 4
    await emu.click(env.carol, panel, label="Remove")
    await emu.wait_until(lambda: panel.deleted)
    assert panel not in emu.channel_messages(env.general)


async def test_private_thread_membership_and_rest_lookups(env):
    emu, bot = env.emu, env.bot
    channel = await bot.fetch_channel(env.general.id)
    thread = await channel.create_thread(name="secret")  # discord.py's default: a private thread
    model = emu.channel(thread.id)
    assert model.type == 12 and model.member_ids == {bot.user.id}
    with pytest.raises(EmulatorError, match="private thread"):
        await emu.send_message(env.alice, model, "let me in")
    await thread.add_user(discord.Object(env.alice.id))
    await emu.send_message(env.alice, model, "thanks")
    await thread.edit(archived=True, locked=True)
    assert model.archived and model.locked
    with pytest.raises(discord.HTTPException) as info:
        await thread.send("closed")
    assert info.value.code == 50083
    member = await bot.get_guild(env.guild.id).fetch_member(env.mod.id)
    assert [r.name for r in member.roles] == ["@everyone", "Moderator"]
