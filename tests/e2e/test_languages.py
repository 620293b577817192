"""Texts per audience: one table, a Japanese and an English player. Each one's DMs and private
answers follow their own Discord language; the thread follows the table's. (A small stand-in
catalog, so the wording of the real one may change; the last test runs the shipped catalog.)"""

from __future__ import annotations

import json
import re

import pytest

import bot.i18n as i18n

from bot.tools.emulator.tables import last, open_table, start

CATALOG = {
    "Your move in {title}.": "{title}：あなたの番です。",
    "{title} #{id}": "{title} 第{id}卓",
    "My hand": "手札",
    "That choice is not on the menu.": "その選択肢はメニューにありません。",
    "Waiting for: {who}": "待っている人：{who}",
    ", ": "、",
}

SAME_IN_JAPANESE = {"PON"}  # the game's name in its Japanese rules (seed 001) is "PON" too


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
    from bot.tools.emulator.interactions import MESSAGE_COMPONENT

    for user, dm, expected in (
        (w.bob, bob_dm, "その選択肢はメニューにありません。"),
        (w.alice, alice_dm, "That choice is not on the menu."),
    ):
        rec = await emu.interactions.run(
            emu.interactions.create(
                MESSAGE_COMPONENT,
                user,
                emu.channel(dm.channel_id),
                {"custom_id": dm.selects[0]["custom_id"], "component_type": 3, "values": ["nope"]},
                source=dm,
            )
        )
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


async def test_slash_commands_reach_discord_with_japanese_texts_and_english_names(table):
    """Every game's commands as registered with the emulator: each description (groups, commands,
    options) and each choice name carries a `ja` localization from the catalog; command, group and
    option names have none (they stay as typed: /heat new track:)."""
    emu = table.emu
    commands = emu.global_commands
    assert {c["name"] for c in commands} >= {"heat", "pon", "pole", "rallyman", "steamworks", "games", "game"}
    missing, named = [], []

    def walk(path: str, o: dict) -> None:
        if o.get("name_localizations"):
            named.append((path, o["name_localizations"]))
        if o.get("description"):
            ja = (o.get("description_localizations") or {}).get("ja")
            if not ja or ja == o["description"] or len(ja) > 100:
                missing.append((path, o["description"]))
        for c in o.get("choices") or []:
            ja = (c.get("name_localizations") or {}).get("ja")
            if re.fullmatch(r"[A-Z]|\d+", c["name"]) or c["name"] in SAME_IN_JAPANESE:
                continue  # a bare letter or number, or a name the Japanese rules write the same
            if not ja or ja == c["name"]:
                missing.append((f"{path} choice", c["name"]))
        for sub in o.get("options") or []:
            walk(f"{path} {sub['name']}", sub)

    for c in commands:
        walk("/" + c["name"], c)
    assert not named, named
    assert not missing, missing
    pole = next(c for c in commands if c["name"] == "pole")
    new = next(o for o in pole["options"] if o["name"] == "new")
    circuit = next(o for o in new["options"] if o["name"] == "circuit")
    monaco = next(c for c in circuit["choices"] if c["value"] == "monaco")
    assert (
        monaco["name"] == "Monaco (6 laps)" and monaco["name_localizations"]["ja"] == "モナコ（6周）"
    )  # (#30: full-width punctuation in Japanese)
