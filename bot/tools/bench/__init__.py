"""Measurements, one figure per line as `name: value unit`; none of them is a test.

figures      `python -m bot bench`: the whole set (engine, renders, the live bot, the store)
live, child, store, pg, prompts
             the live bot's figures: a move's database work, REST calls, start-up and catch-up
             over a cached many-games database (SQLite, and PostgreSQL through ../pgserver.py)
images       `python -m bot.tools.bench.images`: board images, still and animated, per format
engines      `python -m bot.tools.bench.engines`: random-playout speed of every engine, against
             an older revision side by side
heat, pole, pon, rallyman, steamworks
             one game's playouts (and render) per second
rallyman_styles, steamworks_balance
             game-balance studies: Rallyman's driving styles against the par times, Steam
             Works' personas' win shares
"""
