"""Day 1 against a later day of a long run, side by side: bench_long_run.py's paired phase (5) on two kept stores.

    .venv/bin/python bench/bench_long_run.py --retention thin --features off --keep --out out/lr
    .venv/bin/python bench/long_run_paired.py out/lr/thin-off.db.day1 out/lr/thin-off.db.day30

Why a script of its own: the month takes most of an hour, the latency comparison a few minutes; on a shared
machine the comparison is the part worth repeating (another time of day, another load) on the same stores. Every
service is called on read-only copies of both stores in turn, call by call, ``--rounds`` times ``--calls``
requests, and the probe's frames (the household's continuous patrol from the start of day ``--days``, as the
bench's probe) are committed into fresh copies of both, commit by commit in turn, ``--commit-rounds`` times.
Prints wall and thread-CPU p50 / p95 for each side, the ratio of the p95s, and what the answers say on each side.
The household must be the bench's (``--days``, ``--looks-per-day``, ``--seed`` as given to it; the embedding
dimension and whether features are on are read from the store).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import tempfile
import time
import types

from tempomem_ros.core import Memory
from tempomem_ros.semantics.text_encoder import HashingTextEncoder
from tempomem_ros.tools.household import ITEMS, Household, HouseholdConfig

spec = importlib.util.spec_from_file_location(
    "bench_long_run", os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_long_run.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("first", help="the store as it was at the end of day 1 (bench --keep: NAME.db.day1)")
    ap.add_argument("last", help="the later store (NAME.db.day30)")
    ap.add_argument("--retention", default="thin", choices=["thin", "keep-all"])
    ap.add_argument("--days", type=int, default=30, help="the bench's --days: the probe patrols day --days")
    ap.add_argument("--looks-per-day", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--commit-rounds", type=int, default=3)
    ap.add_argument("--probe-s", type=float, default=30.0)
    args = ap.parse_args(argv)
    dim, features = bench.kept_store_settings(args.first)
    labels = sorted({item[0] for item in ITEMS})
    encoder = HashingTextEncoder()
    t0 = time.perf_counter()
    print(f"load {os.getloadavg()[0]:.2f}; {args.first} against {args.last} ({args.retention}, features "
          f"{'on' if features else 'off'}, {dim}-d)", flush=True)
    stores = [Memory.open(p, embedding_dim=dim, readonly=True, label_encoder=encoder,
                          clip_text_encoder=bench.TextTower(dim) if features else None)
              for p in (args.first, args.last)]
    paired = bench.paired_services(*stores, labels, args.calls, args.rounds, args.seed)
    for m in stores:
        m.close()
    shown = (*bench.SERVICES, *bench.SAME_QUESTION)
    if args.commit_rounds > 0:
        house = Household(HouseholdConfig(days=args.days, looks_per_day=args.looks_per_day, features=features,
                                          dim=dim, seed=args.seed, tour_first_day=True))
        probe = list(bench.continuous_frames(house, args.days, args.probe_s))
        with tempfile.TemporaryDirectory(prefix="long_run_paired_") as tmp:
            run = types.SimpleNamespace(path=os.path.join(tmp, "probe.db"), features=features,
                                        config={"retention": {"mode": args.retention}})
            both = bench.paired_commits(run, args.first, args.last, probe, args.commit_rounds, dim)
        for side in ("first", "last"):
            paired[side]["commit"] = both[side]
        shown = ("commit", *shown)
    pct, ratio = bench.pct, bench.ratio
    print(f"wall p50 / p95 ms, CPU p50 / p95 ms, last over first at p95 (wall, CPU); {args.rounds} x {args.calls} "
          f"calls a service, {args.commit_rounds} rounds of {args.probe_s:g} s of frames; "
          f"{time.perf_counter() - t0:.0f} s, load {os.getloadavg()[0]:.2f}:")
    for s in shown:
        a, b = paired["first"][s], paired["last"][s]
        print(f"  {s:14s} first: {pct(a['wall'], 50):7.2f} / {pct(a['wall'], 95):7.2f} cpu {pct(a['cpu'], 50):7.2f} / "
              f"{pct(a['cpu'], 95):7.2f}   last: {pct(b['wall'], 50):7.2f} / {pct(b['wall'], 95):7.2f} cpu "
              f"{pct(b['cpu'], 50):7.2f} / {pct(b['cpu'], 95):7.2f}   x{ratio(a['wall'], b['wall'], 95):.3f} "
              f"x{ratio(a['cpu'], b['cpu'], 95):.3f}")
        if "says" in a:
            print(f"  {'':14s} the answers say: " + ", ".join(
                f"{k} {a['says'][k]} -> {b['says'][k]}" for k in sorted(set(a["says"]) | set(b["says"]))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
