"""The /rules pages quote designed numbers (starting money, mechanic costs, pass coins, clocks,
belts); balance passes change them, so each quoted number is read back from the content here."""

from pathlib import Path

import pytest

from bot.games.steamworks.engine import SETUP

RULES = Path(__file__).resolve().parents[2] / "data" / "steamworks" / "rules"
DASH = {"en": "–", "ja": "～"}


def _page(locale: str) -> str:
    return (RULES / f"{locale}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_the_starting_money_range_is_the_personas(locale):
    money = [p.money for p in SETUP.personas.values()]
    assert f"£{min(money)}{DASH[locale]}£{max(money)}" in _page(locale)


@pytest.mark.parametrize(
    "locale, words", [("en", "a start tile plus {}–{} persona tiles"), ("ja", "ペルソナタイル{}～{}枚")]
)
def test_the_persona_tile_count_range_is_the_personas(locale, words):
    extra = [len(p.tiles) - 1 for p in SETUP.personas.values()]  # the first is the start tile
    assert words.format(min(extra), max(extra)) in _page(locale)


def test_costs_pass_coins_clocks_and_belts_are_the_content():
    page = _page("en")
    cost, income = SETUP.mechanic_cost, SETUP.pass_income
    assert cost[0] == 0 and f"The 2nd costs £{cost[1]}, the 3rd £{cost[2]} and the 4th £{cost[3]}." in page
    assert (
        income[0] == income[1]
        and f"you take £{income[1]} (1st or 2nd mechanic), £{income[2]} (3rd) or £{income[3]} (4th)" in page
    )
    clocks = {n: c[0] for n, c in SETUP.clocks.items()}
    assert all(len(set(c)) == 1 for c in SETUP.clocks.values())  # the page quotes one count per age
    assert f"{clocks[2]} with 2 players, {clocks[3]} with 3, {clocks[4]} with 4, {clocks[5]} with 5" in page
    assert SETUP.belt[2] == SETUP.belt[3] and SETUP.belt[4] == SETUP.belt[5]
    assert f"({SETUP.belt[2]} spaces with 2–3 players, {SETUP.belt[4]} with 4–5)" in page
