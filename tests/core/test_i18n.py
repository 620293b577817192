import discord
from discord import app_commands

from bot import i18n
from bot.app import CatalogTranslator


def test_messages_follow_the_locale_and_fall_back_to_english(monkeypatch):
    monkeypatch.setitem(i18n._catalogs, "ja", {"Your move in {title}.": "{title}：あなたの番です。"})
    try:
        i18n.set_locale("ja")
        assert i18n.t("Your move in {title}.", title="Heat #1") == "Heat #1：あなたの番です。"
        assert i18n.t("Done: {label}", label="x") == "Done: x"  # not in the catalog: English
    finally:
        i18n.set_locale("en")
    assert i18n.t("Your move in {title}.", title="Heat #1") == "Your move in Heat #1."


async def test_slash_command_texts_use_the_catalogs(monkeypatch):
    monkeypatch.setitem(i18n._catalogs, "ja", {"Open a Heat table in this channel": "このチャンネルでHeatの卓を開く"})
    tr = CatalogTranslator()
    ctx = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_description, None)
    text = app_commands.locale_str("Open a Heat table in this channel")
    assert await tr.translate(text, discord.Locale.japanese, ctx) == "このチャンネルでHeatの卓を開く"
    assert await tr.translate(text, discord.Locale.french, ctx) is None
