"""What the world looks like after the games, judged from the bot's database (read-only) and what
Discord shows: lost or duplicated announcements, games that do not replay to their snapshot,
missing or stale menus, missing results, lobbies left open, orphaned threads.

Every game that started is judged, finished ones too: their action log is read from the archive
it is packed into at the end (Db.actions)."""

from __future__ import annotations

import importlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional

from bot.delivery import clip, words
from bot.games.base import GameError
from bot.games.registry import engines
from bot.i18n import default_locale

from .common import Db, Index, attachment_key, live_components, progress
from .players import actionable

REMINDER = "a reminder"
MOVE_ID = re.compile(r"mv:([0-9]+):([0-9]+):([0-9]+):[bs][0-9]+")


def thread_of(emu: Any, game: dict) -> Any:
    ref = game["thread_id"] or game["channel_id"]
    try:
        return emu.channel(ref)
    except Exception:
        return None


def normal(state: Any) -> Any:
    """A state as its JSON snapshot reads back (tuples become lists, keys strings)."""
    return json.loads(json.dumps(state))


@dataclass
class Replayed:
    """A game rebuilt from its seed and stored action log with the engine."""

    game: dict
    names: list[str]
    locale: str
    lines: list[str] = field(default_factory=list)  # public lines in order, as the thread words them
    versions: list[int] = field(default_factory=list)  # the version each line came with
    state: Any = None  # the replayed state (None: the log does not replay)
    problem: Optional[str] = None  # why the game does not replay to its snapshot


def replay(db: Db, game: dict) -> Replayed:
    """Replay `game`; a problem is: the log does not apply, its versions are not 1..n with n the
    game's version, the replayed state differs from the stored snapshot, or the game's status
    disagrees with the engine on whether it is over."""
    engine = engines()[game["kind"]]
    names = [n for _, _, n in db.seats(game["id"])]
    out = Replayed(game, names, game.get("locale") or default_locale())
    actions = db.actions(game["id"])
    version = 0
    try:
        state = engine.new_game(json.loads(game["options"]), len(names), game["seed"])
        for version, seat, action in actions:
            state, events = engine.apply(state, seat, json.loads(action))
            public = [clip(words(e.text, names, out.locale)) for e in events if e.to is None]
            out.lines += public
            out.versions += [version] * len(public)
    except (GameError, KeyError, ValueError, TypeError, IndexError) as err:
        out.problem = f"does not replay at version {version}: {type(err).__name__}: {err}"
        return out
    out.state = state
    versions = [v for v, _, _ in actions]
    replayed, snap = normal(state), json.loads(game["snapshot"]) if game["snapshot"] else {}
    if versions != list(range(1, len(versions) + 1)) or len(versions) != game["version"]:
        out.problem = (
            f"its log holds versions {versions[:3]}..{versions[-3:]} but the game is at version {game['version']}"
        )
    elif replayed != snap:
        keys = sorted(k for k in set(snap) | set(replayed) if snap.get(k) != replayed.get(k))
        out.problem = f"the replayed state differs from the snapshot in {keys[:8]}"
    elif game["status"] in ("active", "finished") and engine.is_over(state) != (game["status"] == "finished"):
        out.problem = f"status {game['status']} but the engine says over={engine.is_over(state)}"
    return out


def replays(db: Db, games: list[dict]) -> list[Replayed]:
    """Every game that started (active, finished, abandoned), replayed."""
    return [replay(db, g) for g in games if g["status"] != "lobby" and g["snapshot"] is not None]


def replay_failures(replayed: list[Replayed]) -> int:
    count = 0
    for r in replayed:
        if r.problem:
            count += 1
            progress(f"game {r.game['id']} ({r.game['kind']}): {r.problem}")
    return count


def thread_posts(emu: Any, index: Index, game: dict) -> list[Any]:
    """The bot's messages where the game plays (its thread; in a channel, those since its lobby)."""
    place = thread_of(emu, game)
    if place is None:
        return []
    posts = index.messages(place.id)
    if not game["thread_id"] and game["lobby_message_id"]:
        posts = [m for m in posts if m.id > game["lobby_message_id"]]
    return posts


def thread_lines(posts: list[Any]) -> list[tuple[Any, str]]:
    """(message, line) for every line of every post, in the thread's order."""
    return [(m, line) for m in posts for line in m.content.split("\n")]


def common_in_order(a: list[str], b: list[str]) -> int:
    """The length of the longest common subsequence of `a` and `b` (bit-parallel: one big-int
    step per line of `a`, so a long game's thread is aligned in milliseconds)."""
    masks: dict[str, int] = {}
    for j, x in enumerate(b):
        masks[x] = masks.get(x, 0) | (1 << j)
    full = (1 << len(b)) - 1
    v = full
    for x in a:
        u = v & masks.get(x, 0)
        v = ((v + u) | (v - u)) & full
    return len(b) - bin(v).count("1")


def lines_missing(expected: list[str], shown: list[str]) -> int:
    """Expected lines the thread does not show in order: the most of them the thread shows as a
    subsequence are there, every other one is missing (an identical line elsewhere, earlier or
    later, does not stand in for a lost one)."""
    return len(expected) - common_in_order(expected, shown)


def lines_repeated(expected: list[str], shown: list[str]) -> Counter:
    """Lines the thread shows more often than the game said them (within one edited post too)."""
    said = Counter(expected)
    seen = Counter(line for line in shown if line in said)
    return Counter({line: n - said[line] for line, n in seen.items() if n > said[line]})


def unshown_versions(r: Replayed, shown: list[str], cells: int = 4_000_000) -> list[int]:
    """The versions of the lines a longest common subsequence leaves out (for the report: where
    lines repeat, which copy is the lost one is a guess; empty past `cells` table cells)."""
    a, b = r.lines, shown
    if len(a) * len(b) > cells:
        return []
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        row, below, x = table[i], table[i + 1], a[i]
        for j in range(len(b) - 1, -1, -1):
            row[j] = below[j + 1] + 1 if x == b[j] else max(below[j], row[j + 1])
    lost, i, j = set(), 0, 0
    while i < len(a):
        if j < len(b) and a[i] == b[j] and table[i][j] == table[i + 1][j + 1] + 1:
            i, j = i + 1, j + 1
        elif j < len(b) and table[i][j + 1] >= table[i + 1][j]:
            j += 1
        else:
            lost.add(r.versions[i])
            i += 1
    return sorted(lost)


def dump(folder: Optional[Path], r: Replayed, posts: list[Any], what: str) -> None:
    """The game's lines (with their versions) and its thread's posts (with their nonces, whether
    edited, how many images) in `folder`, to see what went wrong."""
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"game-{r.game['id']}-{r.game['kind']}.txt"
    if path.exists():
        return
    thread = [
        f"-- message {m.id} nonce={m.nonce} edited={bool(m.edited_timestamp)} images={len(m.attachments)}\n" + m.content
        for m in posts
    ]
    path.write_text(
        f"{what}\n\n== the game's public lines ==\n"
        + "\n".join(f"v{v}\t{line}" for v, line in zip(r.versions, r.lines))
        + "\n\n== the thread's posts ==\n"
        + "\n".join(thread)
        + "\n",
        encoding="utf-8",
    )
    progress(f"game {r.game['id']}: its lines and its thread's are in {path}")


def announcements_missing(emu: Any, index: Index, replayed: list[Replayed], folder: Optional[Path] = None) -> int:
    """Public event lines of a game (its log replayed; events with to=None, seats named) that its
    thread does not show in order."""
    count = 0
    for r in replayed:
        posts = thread_posts(emu, index, r.game)
        shown = [line for _, line in thread_lines(posts)]
        missing = lines_missing(r.lines, shown)
        if missing:
            dump(folder, r, posts, f"{missing} lines missing")
            absent = list((Counter(r.lines) - Counter(shown)).elements())
            why = f"{absent[0][:100]!r} never shown" if absent else "shown out of order"
            progress(
                f"game {r.game['id']} ({r.game['kind']}): {missing} of {len(r.lines)} lines missing "
                f"(of versions {unshown_versions(r, shown)[:12]}), {why}"
            )
        count += missing
    return count


def duplicates(
    messages: Iterable[Any],
    anywhere: bool,
    with_components: bool = False,
    folder: Optional[Path] = None,
    only: Optional[set[int]] = None,
) -> list[Any]:
    """Messages repeating an earlier one: identical content and attachments (and, for DMs, the same
    components: a new menu with the same hand is not a repeat), anywhere when `anywhere`, else
    right after it. Reminders may repeat. Only the messages in `only` (ids) are counted, the others
    are what they may repeat. Each one found is described in folder/duplicates.txt."""
    out: list[Any] = []
    seen: dict[Any, Any] = {}
    previous = None
    for m in messages:
        if REMINDER in m.content:
            continue
        comps = tuple(c.get("custom_id") for c in m.all_components()) if with_components else ()
        key = (m.content, attachment_key(m), comps)
        counted = only is None or m.id in only
        if counted and ((anywhere and key in seen) or key == previous):
            out.append(m)
            earlier = seen.get(key)
            gap = ((m.id >> 22) - (earlier.id >> 22)) / 1000 if earlier is not None else float("nan")
            said = (
                f"duplicate in channel {m.channel_id}: message {m.id} {m.content[:120]!r} "
                f"({len(m.attachments)} attachments), {gap:.1f} s after {earlier and earlier.id}"
            )
            if len(out) <= 3:
                progress(said)
            if folder is not None:
                folder.mkdir(parents=True, exist_ok=True)
                with open(folder / "duplicates.txt", "a", encoding="utf-8") as fh:
                    fh.write(f"{said}\n  components {list(comps)}\n  content:\n{m.content}\n\n")
        seen[key] = m
        previous = key
    return out


def announcements_duplicated(
    emu: Any, index: Index, replayed: list[Replayed], users: Iterable[Any], folder: Optional[Path] = None
) -> int:
    """In a game's thread: each event line shown more often than the game said it (a repeated
    post, or a line repeated inside an edited round post), and each repeated post that carries no
    event line (a board said twice). In DMs: a message with components identical to an earlier
    one, or two identical messages in a row."""
    count = 0
    for r in replayed:
        posts = thread_posts(emu, index, r.game)
        said = set(r.lines)
        shown = [line for _, line in thread_lines(posts)]
        repeated = lines_repeated(r.lines, shown)
        if repeated:
            dump(folder, r, posts, f"{sum(repeated.values())} lines shown too often")
            line, n = repeated.most_common(1)[0]
            progress(
                f"game {r.game['id']} ({r.game['kind']}): {sum(repeated.values())} lines shown too often, "
                f"{line[:100]!r} {n} more"
            )
        count += sum(repeated.values())
        # Posts with no event line: a board (images) said twice anywhere, a text post (a ping, a
        # title left when its "Waiting for" line went) twice in a row.
        bare = [m for m in posts if not any(line in said for line in m.content.split("\n"))]
        count += len(duplicates([m for m in bare if m.attachments], anywhere=True, folder=folder))
        # (a text post repeats the post right before it in the thread: two pings for one player's
        # next decisions, with the moves' posts between them, are no repeat)
        text = {m.id for m in bare if not m.attachments}
        count += len(duplicates(posts, anywhere=False, folder=folder, only=text))
    for user in users:
        dms = index.dms(user)
        menus = [m for m in dms if m.all_components()]
        count += len(duplicates(menus, anywhere=True, with_components=True, folder=folder))
        count += len(duplicates([m for m in dms if not m.all_components()], anywhere=False, folder=folder))
    return count


def menu_versions(m: Any, game_id: int, seat: int) -> list[int]:
    """Prompt versions in the live move components of `m` for this game's seat."""
    out = []
    for c in m.all_components():
        match = MOVE_ID.fullmatch(c.get("custom_id") or "")
        if match and not c.get("disabled") and int(match[1]) == game_id and int(match[3]) == seat:
            out.append(int(match[2]))
    return out


def menus_missing(emu: Any, db: Db, index: Index, games: list[dict], closed: set[int]) -> int:
    """Seats the game waits for (engine.to_act of the stored snapshot) whose newest DM with this
    game's controls offers no move (no live components, or only preferences and an already-sent
    choice) or offers a stale one (made for an older prompt version than the seat's, so a click is
    refused). Players with closed DMs excepted."""
    eng = engines()
    count = 0
    for game in games:
        if game["status"] != "active" or game["snapshot"] is None:
            continue
        engine = eng[game["kind"]]
        seats = {
            s: (u, v)
            for s, u, v in db.query("SELECT seat, user_id, prompt_version FROM seats WHERE game_id = ?", (game["id"],))
        }
        for seat in engine.to_act(json.loads(game["snapshot"])):
            if seat not in seats or seats[seat][0] in closed:
                continue
            user, version = seats[seat]
            dms = [m for m in index.dms(emu.user(user)) if live_components(m)]
            menu = next((m for m in reversed(dms) if menu_versions(m, game["id"], seat)), None)
            if menu is None or not actionable(menu):
                why = "no DM with its controls" if menu is None else "its newest menu offers no move"
            elif max(menu_versions(menu, game["id"], seat)) != version:
                why = f"its newest menu is stale (version {max(menu_versions(menu, game['id'], seat))}, seat at {version})"
            else:
                continue
            count += 1
            progress(f"game {game['id']} ({game['kind']}) seat {seat}: {why}")
    return count


def renderer(kind: str) -> Any:
    return importlib.import_module(f"rendering.{kind}")


def results_image(r: Replayed) -> Optional[bytes]:
    """The results image the game's last post should carry (None: the game draws none)."""
    draw = getattr(renderer(r.game["kind"]), "render_results", None)
    if draw is None or r.state is None:
        return None
    return draw(engines()[r.game["kind"]].view(r.state, None), r.names, r.locale)


def is_animation(message: Any) -> bool:
    """The whole game as one animated image, posted after the results (bot/replay.py)."""
    return bool(message.attachments) and all("-replay." in a.filename for a in message.attachments)


def board_posts(emu: Any, index: Index, game: dict) -> list[Any]:
    """The game's posts that carry board (or results) images: not its closing animation."""
    return [m for m in thread_posts(emu, index, game) if m.attachments and not is_animation(m)]


def results_missing(emu: Any, index: Index, replayed: list[Replayed]) -> int:
    """Finished games whose last post with images lacks the results image (drawn here from the
    replayed final state and compared byte for byte; every game draws one)."""
    count = 0
    for r in replayed:
        if r.game["status"] != "finished":
            continue
        boards = board_posts(emu, index, r.game)
        expected = results_image(r)
        if not boards:
            ok = False
        elif expected is None:
            ok = r.state is None  # a log that does not replay is counted as a replay failure
        else:
            ok = any(a.data == expected for a in boards[-1].attachments)
        if not ok:
            count += 1
            progress(f"game {r.game['id']} ({r.game['kind']}): finished without its results image")
    return count


def lobbies_left_live(emu: Any, index: Index, games: list[dict]) -> int:
    """Messages still carrying Join/Start buttons although their game is no longer a lobby (a
    lobby message no game points to counts when no game of its channel is still a lobby)."""
    by_message = {g["lobby_message_id"]: g for g in games if g["lobby_message_id"]}
    open_channels = {g["channel_id"] for g in games if g["status"] == "lobby"}
    count = 0
    for channel_id in {g["channel_id"] for g in games}:
        for m in index.messages(channel_id):
            if not (live_components(m) and any(b.get("label") in ("Join", "Start") for b in m.buttons)):
                continue
            game = by_message.get(m.id)
            if (game is not None and game["status"] != "lobby") or (game is None and channel_id not in open_channels):
                count += 1
    return count


def threads_orphaned(emu: Any, index: Index, games: list[dict]) -> int:
    """Threads the bot opened in a game channel that no game plays in (games.thread_id)."""
    used = {g["thread_id"] for g in games if g["thread_id"]}
    count = 0
    for channel_id in {g["channel_id"] for g in games}:
        for th in emu.threads(emu.channel(channel_id)):
            if th.owner_id == emu.bot.id and th.id not in used:
                count += 1
    return count
