"""The development tools, apart from the product (issue #29): nothing in bot (outside this package),
cogs or rendering imports them; tests/core/test_import_direction.py checks it. A tool may import the
product, never the reverse. `python -m bot` (bot/__main__.py) is the one product module that starts
them: `sandbox`, `bench`, `arena`, `campaign`.

  emulator/   a local Discord (REST + gateway on 127.0.0.1) the unmodified bot talks to
  sandbox/    the real bot against the emulator, driven from a prompt (`python -m bot sandbox`)
  bench/      performance figures (`python -m bot bench`) and each game's playout, render and
              balance measurements (`python -m bot.tools.bench.<module>`)
  campaign/   the attack campaign against the real bot through the emulator (`python -m bot campaign`)
  arena.py    seeded games between the AI levels (`python -m bot arena`)
  pgserver.py a throwaway PostgreSQL server for the tests and the bench
"""
