"""What opening a store costs and how a store on read-only media can be opened.

Run: .venv/bin/python bench/bench_store_open.py [--sizes 10000 100000] [--repeats 3] [--no-media]
Prints (1) the time of SQLite's quick_check (what Memory.open runs before a read-write open) and of a whole
Memory.open for stores of N objects with 5 observations each (bulk-loaded as in bench_core.py), and
(2) which SQLite open modes read a store from a read-only bind mount (needs root or user namespaces; done
in a private mount namespace that vanishes with the process): a cleanly closed store (no -wal / -shm), a
copy taken with its -wal and -shm, and one with its -wal but no -shm.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_core import populate  # noqa: E402

from tempomem_ros.core import Memory  # noqa: E402
from tempomem_ros.core.store.schema import sqlite3  # noqa: E402

MODES = ("mode=ro", "mode=ro&nolock=1", "mode=ro&immutable=1")
PROBE = textwrap.dedent("""
    import sys
    from tempomem_ros.core.store.schema import sqlite3
    for q in %r:
        try:
            c = sqlite3.connect(f"file:{sys.argv[1]}?{q}", uri=True)
            n = c.execute("SELECT count(*) FROM observations").fetchone()[0]
            print(f"    {q:22s} reads {n} observations")
        except Exception as exc:
            print(f"    {q:22s} fails: {exc}")
    from tempomem_ros.core import Memory, TempoMemError
    try:
        with Memory.open(sys.argv[1], readonly=True) as m:
            print(f"    Memory.open(readonly=True): {len(m.observations())} observations (immutable={m.immutable})")
    except TempoMemError as exc:
        print(f"    Memory.open(readonly=True): {type(exc).__name__}: {exc}")
""") % (MODES,)


def timing(sizes, repeats):
    print("quick_check and Memory.open (read-write) by store size, median of", repeats)
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = os.path.join(tmp, f"m{n}.db")
            m = Memory.open(path, embedding_dim=32, vector_index="off")
            populate(m, n, side=50.0, feature_dim=32, obs_per_object=5)
            m.close()
            mb = os.path.getsize(path) / 2**20
            checks, opens, opens_off = [], [], []
            for _ in range(repeats):
                con = sqlite3.connect(path)
                t = time.perf_counter()
                con.execute("PRAGMA quick_check(5)").fetchall()
                checks.append(time.perf_counter() - t)
                con.close()
                t = time.perf_counter()
                Memory.open(path, vector_index="off").close()
                opens.append(time.perf_counter() - t)
                t = time.perf_counter()
                Memory.open(path, vector_index="off", check="off").close()
                opens_off.append(time.perf_counter() - t)
            print(f"  {n:>7} objects, {mb:6.0f} MB: quick_check {statistics.median(checks) * 1e3:7.0f} ms, "
                  f"open {statistics.median(opens) * 1e3:7.0f} ms (check='off': "
                  f"{statistics.median(opens_off) * 1e3:.0f} ms)")


def media():
    print("opening from a read-only bind mount (SQLite modes, then Memory.open(readonly=True))")
    with tempfile.TemporaryDirectory() as tmp:
        live = os.path.join(tmp, "live.db")
        with Memory.open(live, embedding_dim=4) as m:
            from tempomem_ros.core import Observation
            m.add([Observation("mug", 0.9, (1, 0, 0.5), (0.95, -0.05, 0.45), (1.05, 0.05, 0.55), 1.0)])
        cases = {"clean": ("",), "with -wal and -shm": ("", "-wal", "-shm"), "with -wal, no -shm": ("", "-wal")}
        writer = Memory.open(live, embedding_dim=4)
        from tempomem_ros.core import Observation
        writer.add([Observation("cup", 0.9, (2, 0, 0.5), (1.95, -0.05, 0.45), (2.05, 0.05, 0.55), 2.0)])
        writer.commit()  # in the -wal, not checkpointed
        probe = os.path.join(tmp, "probe.py")
        with open(probe, "w") as f:
            f.write(PROBE)
        for name, suffixes in cases.items():
            d = os.path.join(tmp, name.replace(" ", "_").replace(",", ""))
            os.makedirs(d)
            src = os.path.join(tmp, "clean.db") if name == "clean" else live
            if name == "clean":
                shutil.copy(live, src)  # a copy of the main file only (as after a clean close)
                con = sqlite3.connect(src)
                con.execute("PRAGMA journal_mode=WAL")
                con.close()
            for s in suffixes:
                if os.path.exists(src + s):
                    shutil.copy(src + s, os.path.join(d, "m.db" + s))
            mnt = d + "_ro"
            os.makedirs(mnt)
            cmd = (f"mount --bind {d} {mnt} && mount -o remount,bind,ro {mnt} && "
                   f"{sys.executable} {probe} {mnt}/m.db")
            print(f"  {name} ({', '.join(sorted(os.listdir(d)))}):")
            res = subprocess.run(["unshare", "-m", "sh", "-c", cmd], capture_output=True, text=True)
            if res.returncode != 0 and not res.stdout:
                print(f"    cannot bind-mount read-only here: {res.stderr.strip()}")
                break
            print(res.stdout.rstrip())
        writer.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10000, 100000])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-media", action="store_true")
    args = ap.parse_args(argv)
    timing(args.sizes, args.repeats)
    if not args.no_media:
        media()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
