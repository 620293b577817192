"""The /heat rules pages agree with the engine and the command (issue #33): page 1 names every
circuit /heat new offers with its laps, in both languages; the Legends range is one number pair
on the rules page, the command and the engine."""

from __future__ import annotations

import re

import pytest

from bot import rules_pages
from bot.games.heat import ENGINE as E
from bot.games.heat import content, rules
from bot.i18n import msg, render
from cogs.heat import HeatCog


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_page_one_names_every_circuit_with_its_laps(locale):
    _, body = rules_pages.pages("heat", locale)[0]
    laps = {"en": "({n} laps)", "ja": "（{n}周）"}[locale]
    for key in content.offered_tracks():
        tr = content.tracks()[key]
        name = render(msg(tr.name), locale)
        assert name in body, (locale, name)
        after = body[body.index(name) :]
        assert laps.format(n=tr.laps) in after, (locale, name)  # its laps follow it (shared or its own)


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_one_legends_range_everywhere(locale):
    most = rules.MAX_CARS - E.min_seats  # one player and five Legends: six cars
    page = next(body for title, body in rules_pages.pages("heat", locale) if "legends:2" in body)
    assert re.search(rf"1\s*[–〜-]\s*{most}", page.split("legends:2", 1)[1][:20]), page[:200]
    cmd = HeatCog.new  # (an app_commands.Command)
    legends = next(p for p in cmd.parameters if p.name == "legends")
    assert (legends.min_value, legends.max_value) == (1, most)
    assert E.validate_options({"legends": most}, 1)["legends"] == most
    with pytest.raises(Exception):
        E.validate_options({"legends": most + 1}, 1)
