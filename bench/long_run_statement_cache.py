"""bench_long_run's paired phase on two kept stores as main read them (the driver's statement cache of 100, id lists
of every length) and as this tree does (schema.STATEMENT_CACHE, id lists padded: rows.id_chunks), side by side in one
run: what each service costs on the last day over day 1, before -> after.

    .venv/bin/python bench/long_run_statement_cache.py out/lr/thin-off.db.day1 out/lr/thin-off.db.day30 --rounds 3

Why: was_seen by id cost x1.36-1.38 CPU at p95 on day 30 (docs/RESULTS.md section 6, stop 50) though it cites
fewer sightings and runs fewer SQLite VM steps there. pysqlite3's statement cache (cached_statements, 100 by
default) ranks its entries by use and puts a new statement last, where the next new one evicts it; the statement
texts vary with the ids an "IN (...)" list holds, so the day-30 store, whose labels name more objects, runs more of
them (distinct texts printed below), and a statement first run once the cache is full (was_seen#1's, last in the
phase's order) is prepared anew at every call. Four read-only memories: day 1 and the last day opened with a cache
of 100, read with id lists unpadded (rows.padded_length replaced by the identity while they run: "before"), and
again with schema.STATEMENT_CACHE and padded lists ("after"); each round runs bench_long_run.paired_services
(one round of ``--calls`` requests a service, day 1 and the last day call by call) on the before pair and on the
after pair, in an order flipped each round; CPU times are pooled over the rounds. Then the statements prepared per
was_seen#1 call on each memory (SQLite calls the authorizer while it prepares a statement, never while it runs one;
setting it expires the cached statements, so 20 calls warm first). The household must be the bench's.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sqlite3
import time


from tempomem_ros.core import Memory, rows
from tempomem_ros.core.store import schema
from tempomem_ros.semantics.text_encoder import HashingTextEncoder
from tempomem_ros.tools.household import ITEMS

spec = importlib.util.spec_from_file_location(
    "bench_long_run", os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_long_run.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

DRIVER_DEFAULT = 100  # pysqlite3's (and the standard library's before Python 3.11) cached_statements
PADDED_LENGTH = rows.padded_length


def unpadded(on: bool) -> None:
    """Id lists of every length (main's statements) while ``on``, padded (this tree's) otherwise."""
    rows.padded_length = (lambda n, size=rows.SQL_ID_CHUNK: n) if on else PADDED_LENGTH


class Texts:
    """The connection's execute, recording each statement text (the trace callback gives them expanded)."""

    def __init__(self, conn):
        self._c, self.texts = conn, set()

    def execute(self, sql, *args):
        self.texts.add(sql)
        return self._c.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._c, name)


def open_pair(paths, cache: int, dim: int, features: bool) -> list[Memory]:
    saved = schema.STATEMENT_CACHE
    schema.STATEMENT_CACHE = cache
    try:
        stores = [Memory.open(p, embedding_dim=dim, readonly=True, label_encoder=HashingTextEncoder(),
                              clip_text_encoder=bench.TextTower(dim) if features else None) for p in paths]
    finally:
        schema.STATEMENT_CACHE = saved
    for m in stores:
        m._store.conn = Texts(m._store.conn)
    return stores


def prepares_per_call(m: Memory, calls) -> float:
    n = [0]

    def auth(action, *_):
        if action == sqlite3.SQLITE_SELECT:  # the same code in pysqlite3
            n[0] += 1
        return 0

    conn = m._store.conn._c
    conn.set_authorizer(auth)
    try:
        for call in calls[:20]:
            call()
        n[0] = 0
        for call in calls:
            call()
    finally:
        conn.set_authorizer(None)
    return n[0] / len(calls)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("first", help="the store as it was at the end of day 1 (bench --keep: NAME.db.day1)")
    ap.add_argument("last", help="the later store (NAME.db.day30)")
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    dim, features = bench.kept_store_settings(args.first)
    labels = sorted({item[0] for item in ITEMS})
    t0 = time.perf_counter()
    print(f"load {os.getloadavg()[0]:.2f}; {args.first} against {args.last} (features {'on' if features else 'off'}); "
          f"statement cache before {DRIVER_DEFAULT}, after {schema.STATEMENT_CACHE}", flush=True)
    pairs = {"before": open_pair((args.first, args.last), DRIVER_DEFAULT, dim, features),
             "after": open_pair((args.first, args.last), schema.STATEMENT_CACHE, dim, features)}
    asked = (*bench.SERVICES, *bench.SAME_QUESTION)
    cpu = {k: {side: {s: [] for s in asked} for side in ("first", "last")} for k in pairs}
    for rnd in range(args.rounds):
        for k in (("before", "after") if rnd % 2 == 0 else ("after", "before")):
            unpadded(k == "before")
            try:
                got = bench.paired_services(*pairs[k], labels, args.calls, 1, args.seed)
            finally:
                unpadded(False)
            for side in ("first", "last"):
                for s in asked:
                    cpu[k][side][s] += got[side][s]["cpu"]
    print(f"CPU p50 / p95 ms, day 1 -> last day, and the last day's p95 over day 1's; {args.rounds} rounds of "
          f"{args.calls} calls a service and side for each cache; {time.perf_counter() - t0:.0f} s, load "
          f"{os.getloadavg()[0]:.2f}")
    for s in asked:
        cells = []
        for k in pairs:
            a, b = cpu[k]["first"][s], cpu[k]["last"][s]
            cells.append(f"{k}: {bench.pct(a, 50):5.3f} / {bench.pct(a, 95):5.3f} -> {bench.pct(b, 50):5.3f} / "
                         f"{bench.pct(b, 95):5.3f} x{bench.ratio(a, b, 95):.2f} (p50 x{bench.ratio(a, b, 50):.2f})")
        print(f"  {s:14s} " + "   ".join(cells))
    lo, hi = bench.house_t0(0), pairs["before"][0].latest_stamp()
    ids = [o.id for o in pairs["before"][0].objects() if o.state in ("present", "missing")]
    for k, (old, new) in pairs.items():
        cells = []
        for side, m in (("day 1", old), ("last day", new)):
            calls = [lambda m=m, oid=int(ids[i % len(ids)]): m.was_seen(object_id=oid, since=lo, until=hi)
                     for i in range(args.calls)]
            unpadded(k == "before")
            try:
                prepared = prepares_per_call(m, calls)
            finally:
                unpadded(False)
            cells.append(f"{side}: {len(m._store.conn.texts)} distinct statement texts, "
                         f"{prepared:.2f} SELECTs prepared a was_seen#1 call")
        print(f"  {k:6s} " + "; ".join(cells))
    for pair in pairs.values():
        for m in pair:
            m._store.conn = m._store.conn._c
            m.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
