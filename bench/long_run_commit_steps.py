"""What a commit does on a long run's store, counted: SQLite VM steps (x100) and thread CPU of each commit of the probe.

    .venv/bin/python bench/long_run_commit_steps.py out/lr/thin-off.db.day30
    .venv/bin/python bench/long_run_commit_steps.py out/lr/thin-off.db.day30 --drop-triggers place_labels_insert \\
        place_labels_update place_labels_delete

Why: a write-side change (a trigger, an index) costs a few per cent of a commit, less than this machine's load moves
a timed commit (long_run_paired.py's commit rounds: main's own two runs differed by 4 ms of 75). The VM steps a
commit runs are the same on every run, so two trees, or one store with and without a trigger, compare exactly.
The probe is long_run_paired.py's (bench_long_run.continuous_frames: the household's patrol from the start of day
``--days``, ``--probe-s`` of it), committed every bench_long_run.COMMIT_EVERY frames into a copy of the store
(the store itself is never written). ``--drop-triggers`` drops the named triggers from the copy first.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sqlite3
import tempfile
import time

import numpy as np

from tempomem_ros.core import Memory
from tempomem_ros.tools.household import Household, HouseholdConfig

spec = importlib.util.spec_from_file_location(
    "bench_long_run", os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_long_run.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def probe_parser(doc: str) -> argparse.ArgumentParser:
    """The arguments of a probe into a kept store (this bench's and long_run_pg_triggers.py's)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("store", help="a store the bench kept (NAME.db.day30); copied, never written")
    ap.add_argument("--days", type=int, default=30, help="the bench's --days: the probe patrols day --days")
    ap.add_argument("--looks-per-day", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--probe-s", type=float, default=30.0)
    ap.add_argument("--retention", default="thin", choices=["thin", "keep-all"])
    return ap


def probe_frames(args) -> tuple[int, list]:
    """(the store's feature dimension, the probe's frames): the household's patrol from the start of day --days."""
    con = sqlite3.connect(f"file:{args.store}?mode=ro", uri=True)
    dim = int(dict(con.execute("SELECT key, value FROM meta").fetchall())["embedding_dim"])
    con.close()
    house = Household(HouseholdConfig(days=args.days, looks_per_day=args.looks_per_day, features=False, dim=dim,
                                      seed=args.seed, tour_first_day=True))
    return dim, list(bench.continuous_frames(house, args.days, args.probe_s))


def main(argv=None) -> int:
    ap = probe_parser(__doc__)
    ap.add_argument("--drop-triggers", nargs="*", default=[], help="triggers dropped from the copy first")
    args = ap.parse_args(argv)
    dim, probe = probe_frames(args)
    with tempfile.TemporaryDirectory(prefix="long_run_commit_steps_") as tmp:
        copy = os.path.join(tmp, "store.db")
        shutil.copy(args.store, copy)
        if args.drop_triggers:
            con = sqlite3.connect(copy)
            for name in args.drop_triggers:
                con.execute(f"DROP TRIGGER {name}")
            con.commit()
            con.close()
        memory = Memory.open(copy, embedding_dim=dim, config={"retention": {"mode": args.retention}})
        steps = [0]

        def tick() -> int:
            steps[0] += 1
            return 0

        memory._conn.set_progress_handler(tick, 100)
        vm, cpu = [], []
        for k, frame in enumerate(probe, 1):
            memory.add(bench.without_features(frame.observations), frame.view)
            if k % bench.COMMIT_EVERY == 0 or k == len(probe):
                s0, c0 = steps[0], time.thread_time()
                memory.commit()
                cpu.append((time.thread_time() - c0) * 1e3)
                vm.append(steps[0] - s0)
        memory.close()
    dropped = f", triggers dropped: {' '.join(args.drop_triggers)}" if args.drop_triggers else ""
    print(f"{args.store}{dropped}: {len(vm)} commits of {args.probe_s:g} s of frames; VM steps x100 a commit mean "
          f"{np.mean(vm):.1f}, p50 {np.percentile(vm, 50):.0f}, p95 {np.percentile(vm, 95):.0f}; CPU p50 "
          f"{np.percentile(cpu, 50):.2f} ms, p95 {np.percentile(cpu, 95):.2f} ms (load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
