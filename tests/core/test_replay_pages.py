"""Issue #35: `/game replay` steps through a finished game's boards and then, on one more page, the
results and statistics its end posted (bot/replay.py `show`, its buttons bot/components.py
replay_view): for every game, the same images, reached by the buttons; an abandoned game has no such
page, and a game from older rules says why its statistics are missing."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from PIL import Image

from bot import replay
from bot.delivery import title_of
from bot.games.registry import engines
from bot.store import Game, Seat
from rendering.registry import renderer
from rendering.stats import end_stats

ENGINES = engines()
GAMES = {  # kind: (options, players, seed): short seeded games, played by the automatic player
    "heat": ({"track": "usa"}, 2, 3),
    "pon": ({}, 3, 5),
    "pole": ({"circuit": "monaco", "bots": 1}, 2, 2),
    "rallyman": ({"stage": "Rally4"}, 2, 5),
    "steamworks": ({}, 2, 5),
}
NAMES = ["ゆきこ", "José Müller", "Ωmega"]
SHOW = os.environ.get("REPLAY_PAGES_PNG")  # a folder: the end pages' images are saved there to look at


def played(kind: str) -> tuple[Game, list[tuple[int, dict[str, Any]]]]:
    engine = ENGINES[kind]
    options, n, seed = GAMES[kind]
    options = engine.validate_options(options, n)
    state, actions = engine.new_game(options, n, seed), []
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        action = engine.auto_action(state, seat)
        actions.append((seat, action))
        state, _ = engine.apply(state, seat, action)
    seats = [Seat(s, 100 + s, NAMES[s], True, 0, "") for s in range(n)]
    game = Game(1, kind, 7, 8, 9, None, 100, "finished", options, seed, len(actions), state, seats=seats)
    return game, actions


@dataclass
class Sent:
    content: str
    files: list[bytes]
    buttons: list[tuple[str, bool]]  # (custom_id, disabled)


@dataclass
class Interaction:
    """What show() uses of a discord.Interaction: the first answer, then edits in place."""

    pages: list[Sent] = field(default_factory=list)

    def record(self, content: str, files: list[discord.File], view: discord.ui.View) -> None:
        data = [f.fp.read() for f in files]
        buttons = [(b.custom_id, b.disabled) for b in view.children if isinstance(b, discord.ui.Button)]
        self.pages.append(Sent(content, data, buttons))

    @property
    def followup(self) -> Any:
        async def send(content: str, *, files: list[discord.File], view: discord.ui.View, ephemeral: bool) -> None:
            assert ephemeral
            self.record(content, files, view)

        return SimpleNamespace(send=send)

    async def edit_original_response(self, *, content: str, attachments: list[discord.File], view: Any) -> None:
        self.record(content, attachments, view)


class Table:
    """The table's services that show() uses, over one game and its log."""

    def __init__(self, game: Game, actions: list[tuple[int, dict[str, Any]]], locale: str = "en") -> None:
        self.engines, self.locale, self.replies = ENGINES, locale, []
        self.store = SimpleNamespace(actions=self._actions)
        self._log = actions

    async def _actions(self, game_id: int) -> list[tuple[int, dict[str, Any]]]:
        return self._log

    def audience(self, interaction: Any) -> str:
        return self.locale

    def title(self, game: Game) -> Any:
        return title_of(self.engines[game.kind], game)

    def renderer(self, kind: str) -> Any:
        return renderer(kind)

    async def reply(self, interaction: Any, content: Any, **kwargs: Any) -> None:
        self.replies.append(content)


async def page(table: Table, game: Game, k: int | None, edit: bool = False) -> Sent:
    shown = Interaction()
    await replay.show(table, shown, game, k, edit)  # type: ignore[arg-type]
    return shown.pages[-1]


@pytest.fixture(scope="module", params=sorted(GAMES))
def finished(request) -> tuple[Game, list[tuple[int, dict[str, Any]]]]:
    return played(request.param)


async def test_after_the_last_board_the_results_and_statistics_the_end_posted(finished):
    game, actions = finished
    engine, table = ENGINES[game.kind], Table(game, actions)
    boards, whole = replay.turn_starts(engine, game, actions)
    assert whole and len(boards) > 2
    pages = len(boards) + 1
    first = await page(table, game, None)
    assert f"board 1 of {len(boards)}" in first.content and len(first.files) == 1
    assert first.buttons == [("rp:1:1", True), ("rp:1:2", False)]
    last = await page(table, game, len(boards), edit=True)
    assert f"board {len(boards)} of {len(boards)}" in last.content
    assert last.buttons[1] == (f"rp:1:{pages}", False)  # Next leads on to the results and statistics
    end = await page(table, game, pages, edit=True)
    assert end.buttons == [(f"rp:1:{len(boards)}", False), (f"rp:1:{pages}", True)]
    assert f"the results and statistics, after board {len(boards)}" in end.content
    # The same images as the game's end posted after its last board: the results, then the statistics.
    names = [s.name for s in game.seats]
    results = renderer(game.kind).results
    assert results is not None
    stats = end_stats(engine, game.options, len(game.seats), game.seed, actions, game.snapshot, names, "en")
    assert end.files == [results(engine.view(game.snapshot, None), names, "en"), stats]
    places = engine.placings(game.snapshot)
    order = sorted(range(len(names)), key=lambda s: (places[s], s))
    assert "Results: " + ", ".join(f"{places[s]}. {names[s]}" for s in order) in end.content
    assert (await page(table, game, 10**4)).content == end.content  # past the end: the last page
    if SHOW:
        for n, data in enumerate(end.files):
            Image.open(io.BytesIO(data)).save(Path(SHOW) / f"{game.kind}-end-{n}.png")


async def test_the_end_page_in_japanese(finished):
    game, actions = finished
    end = await page(Table(game, actions, "ja"), game, 10**4)
    assert "結果：" in end.content and "結果と統計" in end.content and len(end.files) == 2
    assert Image.open(io.BytesIO(end.files[1])).width == 780


async def test_an_abandoned_game_has_its_boards_and_no_results_page():
    game, actions = played("pon")
    cut = len(actions) // 2
    engine = ENGINES["pon"]
    state = engine.new_game(game.options, len(game.seats), game.seed)
    for seat, action in actions[:cut]:
        state, _ = engine.apply(state, seat, action)
    game.status, game.snapshot = "abandoned", state
    table = Table(game, actions[:cut])
    boards, _ = replay.turn_starts(engine, game, actions[:cut])
    last = await page(table, game, 10**4)
    assert f"board {len(boards)} of {len(boards)}" in last.content and len(last.files) == 1
    assert last.buttons[1] == (f"rp:1:{len(boards)}", True)


async def test_a_game_from_older_rules_shows_its_results_and_says_why_no_statistics():
    game, actions = played("rallyman")
    game.snapshot = {**game.snapshot, "rules_version": ENGINES["rallyman"].rules_version - 1}
    end = await page(Table(game, actions), game, 10**4)
    assert "Results: " in end.content and "played under older rules cannot be drawn again" in end.content
    assert len(end.files) == 1  # the results image alone


async def test_a_game_still_going_is_not_replayed():
    game, actions = played("pon")
    game.status = "active"
    table = Table(game, actions)
    shown = Interaction()
    await replay.show(table, shown, game, None, False)  # type: ignore[arg-type]
    assert not shown.pages and "Only a finished game" in str(table.replies[0].key)
