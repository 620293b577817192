"""Engine menus as Discord components: a text naming another player (Pole Position's
"Attack <seat:0> from ...") shows that player's name in every label, description and placeholder."""

from __future__ import annotations

from bot.components import menu_view
from bot.games.base import seat_ref
from bot.i18n import msg


def test_menu_texts_name_the_seats():
    menu = [
        {
            "kind": "select",
            "placeholder": msg("Fight {who}?", who=seat_ref(1)),
            "options": [
                {"label": msg("Attack {who}", who=seat_ref(0)), "value": "a", "description": f"behind {seat_ref(1)}"}
            ],
        },
        {"kind": "buttons", "options": [{"label": f"Let {seat_ref(0)} through", "value": "b"}]},
    ]
    view = menu_view(7, 3, 1, menu, "en", ["ゆきこ", "José"])
    select, button = view.children
    assert select.placeholder == "Fight José?"
    assert (select.options[0].label, select.options[0].description) == ("Attack ゆきこ", "behind José")
    assert button.label == "Let ゆきこ through"
    assert "<seat:" not in str(menu_view(7, 3, 1, menu, "en", ["a", "b"]).children[0].options[0].label)
