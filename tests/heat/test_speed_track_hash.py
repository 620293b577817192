"""A Track hashes its fields once (issue #34): the AI's caches keyed by the race's track are asked for
every space a look-ahead judges, and hashing every corner and space each time was a third of a strong
decision. The hash stays the dataclass's (equal Tracks hash alike) and stays out of copies and pickles
(str hashes differ between processes)."""

from __future__ import annotations

import copy
import pickle
from dataclasses import fields, replace

from bot.games.heat import content


def _field_hash(tr: content.Track) -> int:
    return hash(tuple(getattr(tr, f.name) for f in fields(tr)))


def test_a_track_hashes_its_fields_once():
    tr = replace(content.tracks()["usa"])  # (a fresh Track: no hash kept yet)
    assert hash(tr) == _field_hash(tr)
    assert vars(tr)["_hash"] == _field_hash(tr)  # kept by the first hash
    # A second hash reads the kept one (a changed kept value shows it is the one returned).
    object.__setattr__(tr, "_hash", 12345)
    assert hash(tr) == 12345


def test_equal_tracks_hash_alike_and_differ_otherwise():
    usa = content.tracks()["usa"]
    hash(usa)
    again = replace(usa)
    assert again == usa and hash(again) == hash(usa)
    longer = content.lapped_track("usa", None, (), usa.laps + 1)
    assert longer != usa and hash(longer) == _field_hash(longer)


def test_the_kept_hash_stays_out_of_copies_and_pickles():
    tr = content.tracks()["italy"]
    hash(tr)
    for other in (pickle.loads(pickle.dumps(tr)), copy.deepcopy(tr), copy.copy(tr)):
        assert other == tr
        assert "_hash" not in vars(other)
        assert hash(other) == hash(tr)
