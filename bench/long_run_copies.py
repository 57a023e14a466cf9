"""Why a long-run store's answers describe more objects on day 30 than on day 1: each object the item labels name,
matched to the household's truth.

    .venv/bin/python bench/bench_long_run.py --retention thin --features off --keep --out out/lr
    .venv/bin/python bench/long_run_copies.py out/lr/thin-off.db.day1 out/lr/thin-off.db.day30 --days 1 30

Every present or missing object of an item label (what current / previous / as_of describe) is matched to the
nearest spot (within 0.3 m) of a household thing of its label. A routine thing's object is "at its spot" when the
thing stands there at the store's newest stamp, otherwise a "stale copy": the thing has left that spot. For a stale
copy the household is re-rendered (tools/household.py's ray caster, 8 poses of each look: 4 frames x 2 pan
extremes) at every look of the spot's room after the thing last left it, with a phantom box where it stood: how
many coarse depth pixels of the empty spot the robot had in view. 0 pixels: the memory could not know the thing
had left. The memory's own record (misses, looks of absence, last sighting) is printed beside it. Read-only;
nothing is timed. The household must be the bench's (``--looks-per-day``, ``--seed``; the tour on day 1).
"""

from __future__ import annotations

import argparse
import collections
import math
import sqlite3

import numpy as np

from tempomem_ros.tools.household import (CAMERA_HEIGHT, ITEMS, PITCH, ROOMS, T0, Household, HouseholdConfig)
from tempomem_ros.tools.scenegen.render import look_pose

MATCH_M = 0.3


def spot_pixels(house: Household, thing, spot: int, start: float, xy, yaw0) -> int:
    """Most coarse depth pixels of the (empty) spot in view at any of 8 poses of the look starting at ``start``."""
    room, lo, hi = thing.spots[spot]
    world = [w for w in house.present(start) if w[1] == room and w[0] is not thing]
    wl = np.array([w[2] for w in world] + [lo]).reshape(-1, 3)
    wh = np.array([w[3] for w in world] + [hi]).reshape(-1, 3)
    n = int(round(house.config.look_s * house.config.fps))
    best = 0
    for i in (0, n // 4, n // 2, 3 * n // 4):
        for pan in (0.05, 0.15):
            pose = look_pose((xy[0], xy[1], CAMERA_HEIGHT), yaw0 + pan * math.sin(2 * math.pi * i / n), PITCH)
            part = house.caster.cast(pose, *ROOMS[room], wl, wh).part
            best = max(best, int(np.count_nonzero(part == len(world))))
    return best


def last_left(house: Household, thing, spot: int, days: int) -> float | None:
    """Stamp of the thing's last step away from ``spot`` within the first ``days`` days (day 0 starts at spot 0)."""
    where, out = 0, None
    for day in range(days):
        for stamp, s in house._schedule(thing, day):
            if where == spot and s != spot:
                out = stamp
            where = s
    return out


def report(path: str, days: int, looks_per_day: int, seed: int, verbose: bool) -> collections.Counter:
    house = Household(HouseholdConfig(days=days, looks_per_day=looks_per_day, features=False, seed=seed,
                                      tour_first_day=True))
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    t_end = con.execute("SELECT MAX(stamp) FROM frames").fetchone()[0]
    labels = {item[0] for item in ITEMS}
    spots = [(th, s, 0.5 * (lo + hi)) for th in house.things if th.label in labels
             for s, (_, lo, hi) in enumerate(th.spots)]
    looks = [lk for d in range(days) for lk in house._looks(d)]
    rows = con.execute("SELECT id, COALESCE(pinned_label, label), state, cx, cy, cz, last_seen, misses, absence_looks "
                       "FROM objects WHERE state IN ('present', 'missing') ORDER BY id").fetchall()
    con.close()
    kinds: collections.Counter = collections.Counter()
    per_spot: dict = collections.defaultdict(list)
    for oid, label, state, cx, cy, cz, last_seen, misses, absence_looks in rows:
        if label not in labels:
            continue
        c = np.array([cx, cy, cz])
        near = min(((float(np.linalg.norm(sc - c)), th, s) for th, s, sc in spots if th.label == label),
                   key=lambda x: x[0], default=None)
        if near is None or near[0] > MATCH_M:
            kinds[f"no spot within {MATCH_M} m, {state}"] += 1
            continue
        _, th, s = near
        per_spot[(th.oid, s)].append(oid)
        if not th.routine:
            kinds[f"static thing, {state}"] += 1
            continue
        now = house.spot_at(th, t_end)
        if now == s:
            kinds[f"routine thing at its spot, {state}"] += 1
            continue
        left = last_left(house, th, s, days)
        px = [spot_pixels(house, th, s, start, xy, yaw) for start, room, xy, yaw in looks
              if room == th.spots[s][0] and left is not None and start > left]
        seen = sum(1 for p in px if p > 0)
        view = "in view since it left" if seen else "not in view since it left"
        kinds[f"stale copy, {state}, old spot {view}"] += 1
        if verbose:
            print(f"  #{oid} {label} {state}: thing {th.oid} left spot {s} at {(left - T0) / 3600:.2f} h "
                  f"(now at {now}); memory: last seen {(last_seen - T0) / 3600:.2f} h, misses {misses}, "
                  f"looks of absence {absence_looks}; looks of the room since: {len(px)}, px of the empty spot {px}")
    two = sum(1 for v in per_spot.values() if len(v) > 1)
    print(f"{path}: {sum(kinds.values())} objects of item labels described; spots holding 2+ objects: {two}")
    for k, n in sorted(kinds.items()):
        print(f"  {n:4d}  {k}")
    return kinds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stores", nargs="+")
    ap.add_argument("--days", type=int, nargs="+", required=True, help="days the store holds, one per store")
    ap.add_argument("--looks-per-day", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per stale copy")
    args = ap.parse_args(argv)
    if len(args.days) != len(args.stores):
        ap.error("give one --days per store")
    for path, days in zip(args.stores, args.days):
        report(path, days, args.looks_per_day, args.seed, args.verbose)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
