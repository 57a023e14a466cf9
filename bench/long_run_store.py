"""What a long-run store keeps and why: the figures behind docs/RESULTS.md section 6's explanations.

    .venv/bin/python bench/bench_long_run.py --days 2 --continuous-min 12 --retention thin --features off \
        --keep --out out/lr
    .venv/bin/python bench/long_run_store.py out/lr/thin-off.db --window-s 780
    .venv/bin/python bench/long_run_store.py out/lr/thin-off.db.day1 out/lr/thin-off.db.day30 --labels
    .venv/bin/python bench/long_run_store.py out/lr/thin-off.db.day1 out/lr/thin-off.db.day30 --answers

For the last ``--window-s`` seconds of stamps (less the unsettled last retention.settle_s): how many frames are
kept and what refers to them (kept sightings, sightings held back for a possible twin, misses), and the events of
the window by kind. With ``--labels``: how many objects (present or missing) the household's labels name in each
store (what current / previous / as_of answers describe). With ``--answers``: what the long-run bench's service
requests (bench_long_run.service_calls, the same seed) get back from each store, summed over the requests: objects
described, placements and evidence ids cited, rows of pages and events; the work an answer does grows with these,
so a service slower on day 30 than on day 1 with more of them is slower because it says more. Read-only; nothing is
timed.
"""

from __future__ import annotations

import argparse
import collections
import sqlite3

from tempomem_ros.core import Memory, MemoryConfig
from tempomem_ros.core.retention import PROCESSED
from tempomem_ros.tools.household import ITEMS


def frames_report(path: str, window_s: float) -> None:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    newest = con.execute("SELECT MAX(stamp) FROM frames").fetchone()[0]
    lo, hi = newest - window_s, newest - MemoryConfig().retention.settle_s
    frames = [r[0] for r in con.execute("SELECT id FROM frames WHERE stamp BETWEEN ? AND ?", (lo, hi))]
    why: dict[int, set] = collections.defaultdict(set)
    inside = "SELECT id FROM frames WHERE stamp BETWEEN ? AND ?"
    for fid, retained in con.execute(f"SELECT frame_id, retained FROM observations WHERE frame_id IN ({inside})",
                                     (lo, hi)):
        why[fid].add("kept sighting" if retained & PROCESSED else "held back")
    for (fid,) in con.execute(f"SELECT frame_id FROM misses WHERE frame_id IN ({inside})", (lo, hi)):
        why[fid].add("miss")
    span = hi - lo
    print(f"{path}: {len(frames)} frames kept from the last {span:.0f} s settled (the window less settle_s)")
    for reasons, n in collections.Counter(" + ".join(sorted(why[f])) for f in frames).most_common():
        print(f"  {n:6d} ({100.0 * n / max(len(frames), 1):4.1f} %)  {reasons or 'nothing (pending)'}")
    events = con.execute("SELECT kind, COUNT(*) FROM events WHERE stamp >= ? GROUP BY kind ORDER BY kind",
                         (lo,)).fetchall()
    print("  events in the window: " + ", ".join(f"{k} {n}" for k, n in events))
    con.close()


def _open_readonly(path: str) -> Memory:
    """The store opened read-only with the embedding size it was made with."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    dim = int(con.execute("SELECT value FROM meta WHERE key='embedding_dim'").fetchone()[0])
    con.close()
    return Memory.open(path, embedding_dim=dim, readonly=True)


def labels_report(path: str) -> None:
    labels = sorted({item[0] for item in ITEMS})
    m = _open_readonly(path)
    try:
        named = {lbl: len(m.objects_labelled(lbl)) for lbl in labels}
    finally:
        m.close()
    top = sorted(named.items(), key=lambda kv: -kv[1])[:5]
    print(f"{path}: the {len(labels)} labels name {sum(named.values())} objects; most: "
          + ", ".join(f"{lbl} {n}" for lbl, n in top))


def answers_report(path: str, calls: int, seed: int) -> None:
    import importlib.util
    import os

    import numpy as np

    spec = importlib.util.spec_from_file_location(
        "bench_long_run", os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_long_run.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    labels = sorted({item[0] for item in ITEMS})
    m = _open_readonly(path)
    try:
        plans = bench.service_calls(m, labels, np.random.default_rng(seed), calls)
        sizes = {s: bench.answer_sizes(plans[s]) for s in bench.SERVICES}
    finally:
        m.close()
    print(f"{path}: {calls} requests a service, summed: " + "; ".join(
        f"{s} " + " ".join(f"{k} {v}" for k, v in sorted(c.items()) if v) for s, c in sizes.items()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stores", nargs="+")
    ap.add_argument("--window-s", type=float, default=780.0)
    ap.add_argument("--labels", action="store_true", help="objects named per household label instead")
    ap.add_argument("--answers", action="store_true",
                    help="what the long-run bench's service requests get back from each store instead")
    ap.add_argument("--calls", type=int, default=200, help="--answers: requests a service (the bench's --calls)")
    ap.add_argument("--seed", type=int, default=1, help="--answers: the bench's --seed")
    args = ap.parse_args(argv)
    for path in args.stores:
        if args.answers:
            answers_report(path, args.calls, args.seed)
        elif args.labels:
            labels_report(path)
        else:
            frames_report(path, args.window_s)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
