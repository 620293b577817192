"""What the emulator's tests share: a game opened and started through the emulator."""

from __future__ import annotations


async def new_game(env, user=None):
    rec = await env.emu.slash(user or env.alice, env.general, "heat", "new", track="usa")
    assert rec.callback_type == 4
    return rec.response
