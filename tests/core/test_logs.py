import logging

from bot.config import load_settings
from bot.logs import setup_logging

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789"


def test_token_is_redacted_and_discord_debug_is_capped(tmp_path):
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "BOT_STATE_DIR": str(tmp_path), "BOT_LOG_LEVEL": "DEBUG"}, None)
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        setup_logging(settings)
        logging.getLogger("bot.test").warning("connecting with %s", TOKEN)
        logging.getLogger("discord.http").debug("POST /channels/1/messages with {'content': 'your hand'}")
        for h in root.handlers:
            h.flush()
        text = (tmp_path / "bot.log").read_text()
        assert TOKEN not in text and "connecting with [token]" in text
        assert "your hand" not in text  # discord.py payload dumps stay out of the log
    finally:
        for h in list(root.handlers):
            if h not in before:
                root.removeHandler(h)
                h.close()
        logging.getLogger("discord").setLevel(logging.NOTSET)


async def test_no_level_writes_a_snapshot_to_the_log(tmp_path):
    """aiosqlite logs every statement with its parameters at DEBUG: hands and deck orders."""
    from bot.store import PromptUpdate, Store

    settings = load_settings({"BOT_STATE_DIR": str(tmp_path), "BOT_LOG_LEVEL": "DEBUG"}, None)
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        setup_logging(settings)
        store = await Store.open(tmp_path / "db.sqlite3")
        gid = await store.create_game("heat", 1, 2, 10, "ann", {}, 7)
        await store.start(gid, None, {"hand": ["SECRET-CARD"]}, [PromptUpdate(0, "h")])
        await store.commit_move(gid, 0, 0, {"type": "a"}, {"deck": ["SECRET-DECK"]}, False, [])
        await store.game(gid)
        await store.close()
        logging.getLogger("bot.test").debug("debug lines of our own still arrive")
        for h in root.handlers:
            h.flush()
        text = (tmp_path / "bot.log").read_text()
        assert "debug lines of our own still arrive" in text
        assert "SECRET" not in text
    finally:
        for h in list(root.handlers):
            if h not in before:
                root.removeHandler(h)
                h.close()
        for name in ("discord", "aiosqlite"):
            logging.getLogger(name).setLevel(logging.NOTSET)
