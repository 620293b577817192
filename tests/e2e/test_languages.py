"""Texts per audience: one table, a Japanese and an English player. Each one's DMs and private
answers follow their own Discord language; the thread follows the table's. (A small stand-in
catalog, so the wording of the real one may change; the last test runs the shipped catalog.)"""
from __future__ import annotations

import json

import pytest

import bot.i18n as i18n

from .test_table import last, open_table, start

CATALOG = {
    "Your move in {title}.": "{title}：あなたの番です。",
    "{title} #{id}": "{title} 第{id}卓",
    "My hand": "手札",
    "That choice is not on the menu.": "その選択肢はメニューにありません。",
    "Waiting for: {who}": "待っている人：{who}",
    ", ": "、",
}


@pytest.fixture
def japanese(monkeypatch, tmp_path):
    folder = tmp_path / "i18n"
    folder.mkdir()
    (folder / "ja.json").write_text(json.dumps(CATALOG, ensure_ascii=False), "utf-8")
    monkeypatch.setattr(i18n, "_CATALOG_DIR", folder)
    monkeypatch.delitem(i18n._catalogs, "ja", raising=False)
    yield
    i18n._catalogs.pop("ja", None)


async def test_each_player_reads_their_own_language_and_the_thread_the_tables(japanese, table):
    w, emu = table, table.emu
    w.bob.locale = "ja"
    lobby = await open_table(w, w.alice, w.bob, track="usa")
    await emu.click(w.bob, lobby, label="Join")  # any interaction tells the bot bob's language
    thread = await start(w, lobby, w.alice)
    board = last(emu.messages_in(thread), lambda m: m.attachments)
    assert "Waiting for:" in board.content and "待っている人" not in board.content  # the table's language
    alice_dm = await emu.wait_until(lambda: last(emu.dm_messages(w.alice), lambda m: m.selects))
    bob_dm = await emu.wait_until(lambda: last(emu.dm_messages(w.bob), lambda m: m.selects))
    assert "Your move in" in alice_dm.content and "あなたの番です" not in alice_dm.content
    assert "あなたの番です" in bob_dm.content and "第1卓" in bob_dm.content
    # a private answer: bob's in Japanese, alice's in English
    select = bob_dm.selects[0]
    from bot.emulator.interactions import MESSAGE_COMPONENT
    for user, dm, expected in ((w.bob, bob_dm, "その選択肢はメニューにありません。"),
                               (w.alice, alice_dm, "That choice is not on the menu.")):
        rec = await emu.interactions.run(emu.interactions.create(
            MESSAGE_COMPONENT, user, emu.channel(dm.channel_id),
            {"custom_id": dm.selects[0]["custom_id"], "component_type": 3, "values": ["nope"]}, source=dm))
        await emu.wait_until(lambda: rec.followups)
        assert rec.followups[0].content == expected
    assert select["custom_id"].startswith("mv:1:")


async def test_a_table_can_be_opened_in_another_language(japanese, table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa", language="ja")
    assert "手札" not in lobby.content  # the lobby has no such text; its buttons are the catalog's
    thread = await start(w, lobby, w.alice)
    board = last(emu.messages_in(thread), lambda m: m.attachments)
    assert "待っている人" in board.content and "、" in board.content
    assert board.button_labels == ["手札"]
    assert (await w.bot.store.game(1)).locale == "ja"


async def test_a_japanese_table_with_the_real_catalog(table):
    """The shipped catalog end to end: a Japanese table and a Japanese player see no English."""
    w, emu = table, table.emu
    w.bob.locale = "ja"
    lobby = await open_table(w, w.alice, track="usa", language="ja")
    lobby_text = emu.message(lobby).content
    assert "アメリカサーキット、グリッドはランダム" in lobby_text and "track" not in lobby_text
    await emu.click(w.bob, lobby, label="参加")  # the lobby's buttons are Japanese too
    await emu.click(w.alice, lobby, label="開始")
    thread = await emu.wait_until(lambda: (emu.threads(w.general) or [None])[0])
    await emu.wait_until(lambda: any(m.attachments for m in emu.messages_in(thread)))
    board = last(emu.messages_in(thread), lambda m: m.attachments)
    assert board.button_labels == [i18n.tr("ja", "My hand")] and "Waiting for" not in board.content
    bob_dm = await emu.wait_until(lambda: last(emu.dm_messages(w.bob), lambda m: m.selects))
    assert "あなたの番です" in bob_dm.content
    words = [o["label"] for o in bob_dm.selects[0]["options"]] + [bob_dm.selects[0]["placeholder"]]
    assert all(not any(w_ in text for w_ in ("Gear", "Heat", "Stress", "Speed")) for text in words), words
