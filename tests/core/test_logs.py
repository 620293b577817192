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
