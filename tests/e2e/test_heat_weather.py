"""/heat new weather:True through the emulator: the lobby names the module, the race starts with
a weather tile and road tokens, and the board shows them (a taller image with the weather band)."""

from __future__ import annotations

import io

from PIL import Image

from rendering import heat as H

from bot.tools.emulator.tables import last, open_table, start


async def test_weather_option_from_lobby_to_board(table):
    w, emu = table, table.emu
    lobby = await open_table(w, w.alice, w.bob, track="usa", weather=True)
    assert "weather and road conditions (drawn at the start)" in emu.message(lobby).content
    thread = await start(w, lobby, w.alice)
    board = last(emu.messages_in(thread), lambda m: m.attachments)
    image = Image.open(io.BytesIO(board.attachments[0].data))
    assert image.height > H.board_size(2)[1]  # the weather band is there
