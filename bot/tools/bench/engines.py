"""`python -m bot.tools.bench.engines [--old REV] [--seconds S] [--only GAME ...] [--cpu]`:
random-playout speed of every engine, today's code against an older commit's (default 86b3c4c,
issue #34's baseline), side by side in one run: the old tree is extracted with `git archive`
into a temporary folder and both are measured in child processes, alternately, so the machine's
noise falls on both alike.

Prints, per game, `engine_<game>_playouts_per_s` (today), `engine_<game>_playouts_per_s_old` and
`engine_<game>_speedup` (today / old). A playout: a seeded 3-player game (PON: 3, the rest too)
to the end, each move chosen at random among the seat's decisions. `--only heat` (or several
games) measures those games alone. `--cpu` times each child by its own CPU time (process_time)
instead of the clock on the wall: on a shared, busy machine the time a child waits for a core
then counts for neither side.

`--ceiling` also prints `engine_<game>_harness_per_s`: the same loop with every engine answer
(whose turn, the legal actions, the next state) recorded beforehand and handed back, so only the
bench's own work is timed (its random choices, the filter of preferences); and
`engine_<game>_speedup_ceiling` (harness / old): the speedup an engine taking no time at all would
show, the most any engine change can reach in this bench.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
KINDS = ("heat", "pon", "pole", "rallyman", "steamworks")
OPTIONS = {"pole": {"circuit": "monaco"}, "rallyman": {"stage": "Rally4 SS1"}}

CHILD = r"""
import json, random, sys, time
from bot.games.registry import engines
kind, seconds, options = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
clock = time.process_time if sys.argv[4:] == ["cpu"] else time.perf_counter
e = engines()[kind]
opts = e.validate_options(dict(options), 3)
done, started, seed = 0, clock(), 0
while clock() - started < seconds or done == 0:
    rnd = random.Random(seed)
    s = e.new_game(opts, 3, seed)
    for _ in range(20000):
        if e.is_over(s):
            break
        seat = rnd.choice(e.to_act(s))
        acts = [a for a in e.legal_actions(s, seat) if a.get("type") != "prefs"]
        s, _ = e.apply(s, seat, rnd.choice(acts))
    done, seed = done + 1, seed + 1
print(json.dumps(done / (clock() - started)))
"""

# The bench's loop alone: each playout's engine answers recorded first (its moves as CHILD chooses
# them), then the loop run again with the recorded answers handed back in the same order.
HARNESS = r"""
import json, random, sys, time
from bot.games.registry import engines
kind, seconds, options = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
clock = time.process_time if sys.argv[4:] == ["cpu"] else time.perf_counter
e = engines()[kind]
opts = e.validate_options(dict(options), 3)
games = []
for seed in range(5):
    rnd, s, answers = random.Random(seed), e.new_game(opts, 3, seed), []
    for _ in range(20000):
        if e.is_over(s):
            break
        to_act = e.to_act(s)
        seat = rnd.choice(to_act)
        legal = e.legal_actions(s, seat)
        nxt = e.apply(s, seat, rnd.choice([a for a in legal if a.get("type") != "prefs"]))
        answers.append((to_act, legal, nxt))
        s = nxt[0]
    games.append(answers)
done, started = 0, clock()
while clock() - started < seconds or done == 0:
    answers = games[done % len(games)]
    rnd = random.Random(done % len(games))
    for to_act, legal, nxt in answers:  # (is_over, to_act, legal_actions and apply: each a recorded answer)
        seat = rnd.choice(to_act)
        acts = [a for a in legal if a.get("type") != "prefs"]
        s, _ = nxt
        rnd.choice(acts)
    done += 1
print(json.dumps(done / (clock() - started)))
"""


def measure(tree: Path, kind: str, seconds: float, cpu: bool = False, child: str = CHILD) -> float:
    out = subprocess.run(
        [sys.executable, "-c", child, kind, str(seconds), json.dumps(OPTIONS.get(kind, {}))] + (["cpu"] if cpu else []),
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.bench.engines", description=__doc__.split("\n")[1])
    parser.add_argument("--old", default="86b3c4c", help="the commit to compare with")
    parser.add_argument("--seconds", type=float, default=8.0, help="per game and side, in two halves")
    parser.add_argument("--only", nargs="+", choices=KINDS, default=list(KINDS), help="these games only")
    parser.add_argument("--cpu", action="store_true", help="time the children by their CPU time")
    parser.add_argument("--ceiling", action="store_true", help="also the bench's loop alone and the speedup ceiling")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp)
        archive = subprocess.run(["git", "archive", args.old], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        for kind in [k for k in KINDS if k in args.only]:
            new_rates, old_rates = [], []
            for _ in range(2):  # alternately, so a busy moment falls on both
                new_rates.append(measure(ROOT, kind, args.seconds / 2, args.cpu))
                old_rates.append(measure(old, kind, args.seconds / 2, args.cpu))
            new, was = sum(new_rates) / 2, sum(old_rates) / 2
            print(f"engine_{kind}_playouts_per_s: {new:.2f} /s", flush=True)
            print(f"engine_{kind}_playouts_per_s_old: {was:.2f} /s", flush=True)
            print(f"engine_{kind}_speedup: {new / was:.2f} x", flush=True)
            if args.ceiling:
                harness = measure(ROOT, kind, args.seconds / 2, args.cpu, HARNESS)
                print(f"engine_{kind}_harness_per_s: {harness:.2f} /s", flush=True)
                print(f"engine_{kind}_speedup_ceiling: {harness / was:.2f} x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
