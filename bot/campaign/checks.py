"""What the world looks like after the crash phase, judged from the bot's database (read-only)
and what Discord shows: lost or duplicated announcements, missing menus, missing results, lobbies
left open, orphaned threads."""
from __future__ import annotations

import json
from typing import Any, Iterable

from bot.delivery import words
from bot.games.base import GameError
from bot.games.registry import engines

from .players import actionable
from .common import Db, Index, attachment_key, live_components, pngs, progress

RESULT_IMAGES = {"heat": 2}  # the final post: board + results; a game without a results image: 1
REMINDER = "a reminder"


def thread_of(emu: Any, game: dict) -> Any:
    ref = game["thread_id"] or game["channel_id"]
    try:
        return emu.channel(ref)
    except Exception:
        return None


def announcements_missing(emu: Any, db: Db, index: Index, games: list[dict]) -> tuple[int, int]:
    """(public event lines never posted in the game's thread, games whose log does not replay)."""
    missing = broken = 0
    eng = engines()
    for game in games:
        if game["status"] == "lobby" or game["snapshot"] is None:
            continue
        engine = eng[game["kind"]]
        names = [n for _, _, n in db.seats(game["id"])]
        place = thread_of(emu, game)
        texts = [m.content for m in index.messages(place.id)] if place is not None else []
        try:
            state = engine.new_game(json.loads(game["options"]), len(names), game["seed"])
            for _, seat, action in db.actions(game["id"]):
                state, events = engine.apply(state, seat, json.loads(action))
                for e in events:
                    if e.to is None:
                        line = words(e.text, names, "en")
                        if not any(line in t for t in texts):
                            missing += 1
        except (GameError, KeyError, ValueError, TypeError):
            broken += 1
    return missing, broken


def menus_missing(emu: Any, db: Db, index: Index, games: list[dict], closed: set[int]) -> int:
    """Seats the game waits for whose newest DM offers no move: no live components, or only
    preferences and an already-sent choice (closed DMs excepted)."""
    eng = engines()
    count = 0
    for game in games:
        if game["status"] != "active" or game["snapshot"] is None:
            continue
        engine = eng[game["kind"]]
        users = {s: u for s, u, _ in db.seats(game["id"])}
        for seat in engine.to_act(json.loads(game["snapshot"])):
            user = users.get(seat)
            if user is None or user in closed:
                continue
            dms = index.dms(emu.user(user))
            if not dms or not actionable(dms[-1]):
                count += 1
    return count


def duplicates(messages: Iterable[Any], anywhere_with_images: bool, with_components: bool = False) -> int:
    """Identical content and identical attachments (and, for DMs, the same components: a new menu
    with the same hand is not a repeat): anywhere (posts with images, when asked), or one right
    after the other. Reminders may repeat."""
    count, seen, previous, first = 0, {}, None, None
    for m in messages:
        if REMINDER in m.content:
            continue
        comps = tuple(c.get("custom_id") for c in m.all_components()) if with_components else ()
        key = (m.content, attachment_key(m), comps)
        if (anywhere_with_images and m.attachments and key in seen) or key == previous:
            count += 1
            if count <= 3:
                earlier = seen.get(key, first)
                gap = ((m.id >> 22) - (earlier.id >> 22)) / 1000 if earlier is not None else float("nan")
                progress(f"duplicate in channel {m.channel_id}: message {m.id} {m.content[:120]!r} "
                         f"({len(m.attachments)} attachments), {gap:.1f} s after {earlier and earlier.id}")
        seen[key] = m
        previous, first = key, m
    return count


def announcements_duplicated(emu: Any, index: Index, games: list[dict], users: Iterable[Any]) -> int:
    count = 0
    places = {g["thread_id"] or g["channel_id"] for g in games if g["status"] != "lobby"}
    for place in places:
        count += duplicates(index.messages(place), anywhere_with_images=True)
    for user in users:
        count += duplicates(index.dms(user), anywhere_with_images=False, with_components=True)
    return count


def results_missing(emu: Any, index: Index, games: list[dict]) -> int:
    """Finished games whose last board post lacks the results image (Heat: 2 PNGs; others: 1)."""
    count = 0
    for game in games:
        if game["status"] != "finished":
            continue
        place = thread_of(emu, game)
        boards = [m for m in index.messages(place.id) if pngs(m)] if place is not None else []
        if not boards or pngs(boards[-1]) < RESULT_IMAGES.get(game["kind"], 1):
            count += 1
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
