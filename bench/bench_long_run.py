"""Long run: a month of a simulated household; store size per robot-hour and per day, commit and service latency
at day 1, 10 and 30, with retention (thinning) and without (keep-all = today's behaviour), features on and off.

    .venv/bin/python bench/bench_long_run.py            # 30 days, thin + keep-all, 512-d features on + off
    .venv/bin/python bench/bench_long_run.py --quick    # CI size: 2 days, 32-d features (about 40 s)
    options: --days N --looks-per-day N --retention thin keep-all --features on off --calls N --seed N
             --continuous-min M --warmup-s S --out DIR --keep

Setup (tools/household.py): four rooms, 171 things, ~17 in view, 19 objects on daily routines, groceries and
parcels that come and go, spurious blobs, low-confidence and confused detections, CLIP-like 512-d features
(features on) or none (off). The robot operates 8 h a day; its camera runs at 10 Hz in ``--looks-per-day`` looks
of 3 s (time is compressed: between looks the stamps jump), committed every 5 frames (2 Hz). Day 1 starts with a
mapping tour (tools/household.py Household.tour: 16 corner looks and 18 looks aimed at the furniture, before the
day's looks; ``--no-tour``: without); the bench prints how many objects the item labels name in each store, since
answers describe them all (of the house's 55: 28 / 43 / 44 on day 1 / 10 / 30 at cc185f0, when items stood inside
furniture; see docs/RESULTS.md section 6 for the figures since).
Every memory (one per retention x features) gets the same frames, one after the other, frame by frame (side by
side: the same machine state for all).

Phases and figures:
1. The month. Per day: commit latency of every commit (p50 / p95 / p99 / max at day 1, 10, 30), store size at
   the day's end (after a WAL checkpoint: the database file is the whole store), SQLite pages and free pages.
   Then a commit probe: the same ``--probe-s`` of frames committed into a copy of the day-1 store and into the
   last day's store, commit by commit in turn, so that day 1 and day 30 are timed in the same machine state.
2. One robot-hour at 10 Hz, measured: after day 30 the robot patrols without pause (looks back to back) for
   ``--warmup-s`` (so that the window of unthinned sightings, retention.settle_s, is as full at the start as at
   the end) and then ``--continuous-min`` minutes; the store's growth over those minutes (the larger of the
   file's growth and the growth of the pages in use, so that free pages taken up count), scaled to an hour, is
   the figure per robot-hour. (Per simulated day, a day's changes come with only looks x 30 frames.)
3. Services: each store as it was at the end of day 1, 10 and 30 (copies taken then, SQLite backup API) is opened
   read-only, as the memory node's services read it, and every service is called ``--calls`` times per store,
   the stores in rotation (the same machine state for day 1 and day 30): current, previous, history (the History
   service: its default page of the 20 newest observations, their total, the placements), history@k20 (the same
   page and total without the placements, which are not paged), as_of, changes (the last 8 h),
   scene_as_of (a page of 50 + the total), semantic (hashing label encoder; with features also a CLIP-like text
   tower), was_seen (the last 8 h; it reads tallies), and the yes/no checks is_present and did_move (the last 8 h).
4. Opening the 30-day store (writer and read-only), and semantic recall@10 of float16 / int8 object features
   against float32 (the store keeps objects' features float32 and kept sightings' features float16).
5. Paired, day 1 against the last day, at the very end and in the same process: every service is called on a
   read-only copy of the day-1 store and of the last day's store in turn, call by call (the order flipped each call
   and round), ``--paired-rounds`` times the same ``--calls`` requests, and the same questions about day 1 alone
   (SAME_QUESTION: @1 by label and time, #1 by the id of an object the day-1 store shows, so that both sides
   describe the same object); then ``--paired-commit-rounds`` times the
   probe's frames are committed into fresh copies of both stores, commit by commit in turn. It prints wall and
   thread-CPU p50 / p95 for each side and the ratio of the p95s. Why: on a machine shared with other jobs (2 cores
   at load 4-7 here) a p95 of 1-2 ms calls is scheduling noise, and the month's day-1 and day-30 figures (and
   phases 1b and 3, 200 calls and 60 commits a side, once) were far apart or too few; side by side the noise falls on
   both sides alike, many rounds make the p95 itself stable, and CPU time (time.thread_time: the memory is one
   thread) leaves out the waits for a core. The last line's latencies come from this phase.

Where the bench's time goes (cProfile of ``--quick``): the memory's own add and commit are about 95 % (fuse_frame
alone 81 %: frame fusion, settling, SQLite); the household's frames (ray-cast depth, observations, features) about
4 %, so a faster simulation cannot shorten the run; the month of four memories takes about an hour on an idle
machine (keep-all's commits reach p95 near 2 s at day 30 with features). bench/long_run_paired.py reruns phase 5
alone on two kept stores (--keep).

Targets (issue 14, this machine): <= 50 MB per robot-hour with 512-d features, <= 10 MB without; commit p95 and
every service p95 at day 30 within 10 % of day 1; the 30-day store opens in < 2 s; no VACUUM needed (free pages
are reused). Figures are machine-dependent and never asserted; the last line is

    long run: <MB> MB per robot-hour (features on), <MB> MB (off); commit p95 day1 <ms> day30 <ms>; query p95 day1
    <ms> day30 <ms>; worst p95 day30/day1 x<ratio> (<memory> <service>), CPU x<ratio> (<memory> <service>)

for the first retention given (thin by default; commit p95 of the features-on memory, query p95 = the slowest
service's p95, both from the paired phase 5; the worst ratio over commit and every service of both memories).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import shutil
import sqlite3 as stdlib_sqlite3
import sys
import tempfile
import time

import numpy as np

from tempomem_ros.core import Memory, MemoryConfig
from tempomem_ros.core.store.schema import sqlite3 as store_sqlite3
from tempomem_ros.semantics.text_encoder import HashingTextEncoder
from tempomem_ros.tools.household import DAY_S, ITEMS, T0, Household, HouseholdConfig, without_features
from tempomem_ros.tools.scenegen.features import _direction

COMMIT_EVERY = 5
HISTORY_PAGE = 20  # the History service's default page (nodes/services.py DEFAULT_HISTORY_K; 200 before i14-r6)
# and its default page of placements (DEFAULT_HISTORY_PLACEMENTS; every placement, unpaged, before i14-r7)
HISTORY_PLACEMENTS_PAGE = 20
SERVICES = ("current", "previous", "history", "history@k20", "as_of", "changes", "scene_as_of", "semantic", "was_seen",
            "is_present", "did_move")
HISTORY_SHORT_PAGE = 20  # history@k20: a page that the label's first object fills on day 1 as on day 30
# the paired phase's questions about day 1 alone, asked of both stores (same_question_calls): by label and time, and
# by the id of an object the day-1 store shows (#1: one object described on both sides, like with like)
SAME_QUESTION = ("as_of@1", "scene_as_of@1", "changes@1", "current#1", "previous#1", "as_of#1", "was_seen#1")
FEATURE_MODEL = "household-clip-like"
TEXTS = ("something to drink from", "my keys", "a book to read", "the laptop", "where can I sit", "a plate",
         "headphones", "a bottle of water", "glasses", "the remote control")


class TextTower:
    """A CLIP text tower stand-in for the CLIP-like features: the class direction of the last word."""

    name = FEATURE_MODEL

    def __init__(self, dim: int):
        self.dim = dim

    def encode(self, texts):
        return np.stack([_direction(f"class:{t.split()[-1]}", self.dim) for t in texts]).astype(np.float32)


def pct(values, q) -> float:
    return float(np.percentile(values, q)) if len(values) else float("nan")


def store_bytes(path: str) -> dict:
    """Checkpoint the WAL into the database (a separate connection, as any SQLite tool would) and measure."""
    con = stdlib_sqlite3.connect(path)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = con.execute("PRAGMA page_size").fetchone()[0]
        pages = con.execute("PRAGMA page_count").fetchone()[0]
        free = con.execute("PRAGMA freelist_count").fetchone()[0]
    finally:
        con.close()
    wal = path + "-wal"
    return {"file": os.path.getsize(path) + (os.path.getsize(wal) if os.path.exists(wal) else 0),
            "pages": pages, "free_pages": free, "page_size": page}


def kept_store_settings(path: str) -> tuple[int, bool]:
    """(embedding_dim, features on) of a kept store, read from its meta table without opening it as a Memory
    (which needs both to open it): the long_run_* scripts take stores by path."""
    con = stdlib_sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
    finally:
        con.close()
    return int(meta["embedding_dim"]), bool(meta.get("feature_model"))


def contents(path: str) -> dict[str, int] | None:
    """Bytes of each table with its indexes (SQLite's dbstat, when this build has it), largest first."""
    con = stdlib_sqlite3.connect(path)
    try:
        rows = con.execute("SELECT s.name, m.tbl_name, SUM(s.pgsize) FROM dbstat s LEFT JOIN sqlite_master m "
                           "ON m.name = s.name GROUP BY s.name").fetchall()
    except stdlib_sqlite3.Error:
        return None
    finally:
        con.close()
    out: dict[str, int] = {}
    for name, table, size in rows:
        key = table or name
        out[key] = out.get(key, 0) + int(size)
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def held_back(path: str, settle_s: float) -> int:
    """Settled sightings not thinned yet: held back for a possible twin (retention.twin_hold_s) or behind a
    backlog. They are the working window beyond retention.settle_s; growth measured while it fills is not growth
    that stays."""
    con = stdlib_sqlite3.connect(path)
    try:
        newest = con.execute("SELECT MAX(stamp) FROM frames").fetchone()[0] or 0.0
        return int(con.execute("SELECT COUNT(*) FROM observations WHERE (retained & 1) = 0 AND stamp <= ?",
                               (newest - settle_s,)).fetchone()[0])
    finally:
        con.close()


def snapshot(path: str, dest: str) -> None:
    src, dst = stdlib_sqlite3.connect(path), stdlib_sqlite3.connect(dest)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()


class Run:
    """One memory of the comparison: retention mode x features."""

    def __init__(self, workdir: str, retention: str, features: bool, dim: int, settings: dict | None = None):
        self.retention, self.features = retention, features
        self.config = {"retention": {"mode": retention, **(settings or {})}}
        self.name = f"{retention}/{'on' if features else 'off'}"
        self.path = os.path.join(workdir, f"{retention}-{'on' if features else 'off'}.db")
        self.dim = dim
        self.memory = Memory.open(self.path, embedding_dim=dim, config=self.config,
                                  feature_model=FEATURE_MODEL if features else None)
        self.commits: dict[int, list[float]] = {}
        self.days: list[dict] = []
        self.snapshots: dict[int, str] = {}
        self.continuous: dict = {}

    def add(self, frame) -> None:
        obs = frame.observations if self.features else without_features(frame.observations)
        self.memory.add(obs, frame.view)

    def commit(self, day: int) -> None:
        t = time.perf_counter()
        self.memory.commit()
        self.commits.setdefault(day, []).append((time.perf_counter() - t) * 1e3)


def feed(runs, frames, day: int) -> int:
    n = 0
    for frame in frames:
        for r in runs:
            r.add(frame)
        n += 1
        if n % COMMIT_EVERY == 0:
            for k in range(len(runs)):  # rotate who commits first
                runs[(n // COMMIT_EVERY + k) % len(runs)].commit(day)
    for r in runs:
        r.commit(day)
    return n


def continuous_frames(house: Household, day: int, seconds: float):
    """Looks back to back for ``seconds`` from the start of ``day``'s operation: the camera never pauses."""
    return house.frames(day, house.continuous_looks(day, house.config.start_hour, seconds))


def house_t0(day: int) -> float:
    return T0 + day * DAY_S


# ------------------------------------------------------------------------------------------------ services
def service_calls(memory: Memory, labels: list[str], rng: np.random.Generator, calls: int) -> dict:
    """(service -> list of zero-argument callables), the same kinds of requests for every store."""
    now = memory.latest_stamp()
    first = house_t0(0)
    out = {s: [] for s in SERVICES}
    for i in range(calls):
        lbl = labels[i % len(labels)]
        t = float(rng.uniform(first, now))
        out["current"].append(lambda lbl=lbl: memory.temporal("current", label=lbl))
        out["previous"].append(lambda lbl=lbl: memory.temporal("previous", label=lbl))
        out["as_of"].append(lambda lbl=lbl, t=t: memory.temporal("as_of", label=lbl, t=t))
        out["changes"].append(lambda: memory.changes(now - 8 * 3600.0))
        out["scene_as_of"].append(lambda t=t: (memory.scene_as_of(t, k=50, offset=0), memory.scene_count_as_of(t)))
        out["semantic"].append(lambda i=i: memory.semantic(TEXTS[i % len(TEXTS)], k=10))
        out["was_seen"].append(lambda lbl=lbl: memory.was_seen(label=lbl, since=now - 8 * 3600.0))
        # the yes/no checks (core/checks.py) answer from where the object is now or was last seen
        out["is_present"].append(lambda lbl=lbl: memory.is_present(label=lbl))
        out["did_move"].append(lambda lbl=lbl: memory.did_move(label=lbl, since=now - 8 * 3600.0))

        def history(lbl=lbl):
            objs = memory.objects_labelled(lbl)
            if objs:
                oid = objs[0].id  # as the History service reads it: its default pages of sightings and placements
                return (memory.history(oid, k=HISTORY_PAGE), memory.history_count(oid),   # and their totals
                        memory.placements(oid, k=HISTORY_PLACEMENTS_PAGE), memory.placement_count(oid))
            return None

        out["history"].append(history)

        def history_page(lbl=lbl):
            objs = memory.objects_labelled(lbl)
            if objs:  # one page of HISTORY_SHORT_PAGE and the total, without the placements: the cost of a page
                oid = objs[0].id
                return memory.history(oid, k=HISTORY_SHORT_PAGE), memory.history_count(oid)
            return None

        out["history@k20"].append(history_page)
    return out


def measure_services(stores: dict, labels: list[str], calls: int, seed: int) -> dict:
    """stores: key -> read-only Memory. Returns key -> service -> latencies (ms); stores called in rotation."""
    plans = {key: service_calls(m, labels, np.random.default_rng(seed), calls) for key, m in stores.items()}
    for m in stores.values():  # warm caches (labels, feature matrix) once, as a running node has them
        m.semantic(TEXTS[0], k=10)
    out = {key: {s: [] for s in SERVICES} for key in stores}
    keys = list(stores)
    for s in SERVICES:
        for i in range(calls):
            for j in range(len(keys)):
                key = keys[(i + j) % len(keys)]
                t = time.perf_counter()
                plans[key][s][i]()
                out[key][s].append((time.perf_counter() - t) * 1e3)
    return out


def recall_at_10(memory: Memory, dim: int) -> dict:
    """Recall@10 of float16 and int8 object features against float32, over the class queries of the house."""
    from tempomem_ros.core import featurecodec
    from tempomem_ros.core.rows import blob_to_feature

    rows = memory._conn.execute("SELECT id, feature FROM objects WHERE state='present' AND feature IS NOT NULL "
                                "ORDER BY id").fetchall()
    f32 = np.stack([blob_to_feature(r[1]) for r in rows])
    tower = TextTower(dim)
    queries = tower.encode(sorted({item[0] for item in ITEMS}))
    out = {}
    for fmt in ("float16", "int8"):
        q = np.stack([featurecodec.decode(featurecodec.encode(v, fmt)) for v in f32])
        hits = []
        for v in queries:
            top = set(np.argsort(-(f32 @ v), kind="stable")[:10])
            got = set(np.argsort(-(q @ v), kind="stable")[:10])
            hits.append(len(top & got) / 10)
        cos = np.sum(f32 * q, axis=1) / (np.linalg.norm(f32, axis=1) * np.linalg.norm(q, axis=1))
        out[fmt] = {"recall_at_10": float(np.mean(hits)), "min_cosine": float(cos.min()),
                    "bytes": len(featurecodec.encode(f32[0], fmt))}
    out["objects"] = len(rows)
    return out


def open_seconds(path: str, dim: int) -> dict:
    out = {}
    for label, kw in (("writer", {}), ("read-only", {"readonly": True})):
        times = []
        for _ in range(3):
            t = time.perf_counter()
            Memory.open(path, embedding_dim=dim, **kw).close()
            times.append(time.perf_counter() - t)
        out[label] = max(times)
    return out


# ------------------------------------------------------------------------------------------------ paired
def timed(fn) -> tuple[float, float]:
    """(wall ms, CPU ms of this thread) of one call. CPU time leaves out the time the thread waited for a core,
    which on a shared machine is most of a p95's noise."""
    w, c = time.perf_counter(), time.thread_time()
    fn()
    return (time.perf_counter() - w) * 1e3, (time.thread_time() - c) * 1e3


def answer_size(result) -> collections.Counter:
    """What one service result holds: objects described, placements and evidence ids cited, events; the rows of a
    page and its total (history, scene_as_of), or a list's length (changes, semantic)."""
    out: collections.Counter = collections.Counter()
    if result is None:
        return out
    if hasattr(result, "evidence"):  # an Answer
        out.update(objects=len(result.objects), placements=len(result.placements), evidence=len(result.evidence),
                   events=len(result.events))
    elif isinstance(result, tuple):  # history: (page, total, placements); scene_as_of: (page, total)
        for part in result:
            if isinstance(part, int):
                out["total"] += part
            else:
                out["rows"] += len(part)
    else:
        out["rows"] += len(result)
    return out


def answer_sizes(calls) -> collections.Counter:
    """answer_size summed over one pass of the requests: what the answers say, which their work grows with."""
    return sum((answer_size(call()) for call in calls), collections.Counter())


def same_question_calls(memory: Memory, labels: list[str], lo: float, hi: float, rng: np.random.Generator,
                        calls: int, ids=()) -> dict:
    """Questions about day 1 alone (times in [lo, hi], the day-1 store's span): as_of of every label, scene_as_of
    and the changes of the whole day. Asked of the day-1 store and of the last day's store they get (nearly) the
    same answers, so what they cost more on the last day is the store's age, not what the answer says.

    With ``ids`` (the objects the day-1 store shows, present or missing) also current / previous / as_of (t in day 1)
    / was_seen (during day 1) of one object by id (#1). Why: asked by label, an answer describes every object of the
    label, and on the last day a label names more objects (the moved things' copies, bench/long_run_copies.py:
    44 -> 63 for the item labels over the month), so by label the two stores are not asked like with like."""
    out = {s: [] for s in SAME_QUESTION}
    for i in range(calls):
        lbl, t = labels[i % len(labels)], float(rng.uniform(lo, hi))
        out["as_of@1"].append(lambda lbl=lbl, t=t: memory.temporal("as_of", label=lbl, t=t))
        out["scene_as_of@1"].append(lambda t=t: (memory.scene_as_of(t, k=50, offset=0), memory.scene_count_as_of(t)))
        out["changes@1"].append(lambda: memory.changes(lo, hi))
        oid = int(ids[i % len(ids)]) if len(ids) else None
        out["current#1"].append(lambda oid=oid: oid and memory.temporal("current", object_id=oid))
        out["previous#1"].append(lambda oid=oid: oid and memory.temporal("previous", object_id=oid))
        out["as_of#1"].append(lambda oid=oid, t=t: oid and memory.temporal("as_of", object_id=oid, t=t))
        out["was_seen#1"].append(lambda oid=oid: oid and memory.was_seen(object_id=oid, since=lo, until=hi))
    return out


def paired_services(old: Memory, new: Memory, labels: list[str], calls: int, rounds: int, seed: int) -> dict:
    """Every service called on the day-1 store and the last day's store in turn, call by call, the order flipped
    each call and each round, ``rounds`` times the same ``calls`` requests; then the same-question services
    (same_question_calls). Returns side -> service -> {"wall": [ms], "cpu": [ms], "says": Counter} (side "first",
    "last")."""
    plans = {"first": service_calls(old, labels, np.random.default_rng(seed), calls),
             "last": service_calls(new, labels, np.random.default_rng(seed), calls)}
    lo, hi = house_t0(0), old.latest_stamp()
    ids = [o.id for o in old.objects() if o.state in ("present", "missing")]
    for side, m in (("first", old), ("last", new)):
        plans[side].update(same_question_calls(m, labels, lo, hi, np.random.default_rng(seed + 1), calls, ids))
    asked = (*SERVICES, *SAME_QUESTION)
    for side in plans:  # warm caches once, as a running node has them, and the statement caches: one call each
        for s in asked:
            plans[side][s][0]()
    out = {side: {s: {"wall": [], "cpu": []} for s in asked} for side in plans}
    for rnd in range(rounds):
        for s in asked:
            for i in range(calls):
                for side in (("first", "last") if (i + rnd) % 2 == 0 else ("last", "first")):
                    w, c = timed(plans[side][s][i])
                    out[side][s]["wall"].append(w)
                    out[side][s]["cpu"].append(c)
    for side in plans:
        for s in asked:
            out[side][s]["says"] = answer_sizes(plans[side][s])
    return out


def paired_commits(run: "Run", first: str, last: str, frames, rounds: int, dim: int) -> dict:
    """The same frames committed into fresh copies of the day-1 store and the last day's store, commit by commit
    in turn (the order flipped each commit and each round), ``rounds`` times. Returns side -> {"wall", "cpu"}."""
    out = {side: {"wall": [], "cpu": []} for side in ("first", "last")}
    for rnd in range(rounds):
        mems = {}
        for side, src in (("first", first), ("last", last)):
            copy = f"{run.path}.paired-{side}"
            snapshot(src, copy)
            mems[side] = Memory.open(copy, embedding_dim=dim, config=run.config,
                                     feature_model=FEATURE_MODEL if run.features else None)
        for k, frame in enumerate(frames, 1):
            obs = frame.observations if run.features else without_features(frame.observations)
            for m in mems.values():
                m.add(obs, frame.view)
            if k % COMMIT_EVERY == 0 or k == len(frames):
                for side in (("first", "last") if (k // COMMIT_EVERY + rnd) % 2 == 0 else ("last", "first")):
                    w, c = timed(mems[side].commit)
                    out[side]["wall"].append(w)
                    out[side]["cpu"].append(c)
        for side, m in mems.items():
            m.close()
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(f"{run.path}.paired-{side}{suffix}"):
                    os.remove(f"{run.path}.paired-{side}{suffix}")
    return out


def ratio(a: list[float], b: list[float], q: float) -> float:
    """percentile q of b over percentile q of a (the last day against day 1)."""
    return pct(b, q) / pct(a, q) if len(a) and pct(a, q) > 0 else float("nan")


# ------------------------------------------------------------------------------------------------ main
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("--looks-per-day", type=int, default=12)
    ap.add_argument("--retention", nargs="+", default=["thin", "keep-all"], choices=["thin", "keep-all"])
    ap.add_argument("--features", nargs="+", default=["on", "off"], choices=["on", "off"])
    ap.add_argument("--dim", type=int, default=512)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--continuous-min", type=float, default=4.0)
    ap.add_argument("--warmup-s", type=float, default=90.0)
    ap.add_argument("--probe-s", type=float, default=30.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--paired-rounds", type=int, default=10,
                    help="rounds of the paired service measure (each: --calls calls per service and side)")
    ap.add_argument("--paired-commit-rounds", type=int, default=3,
                    help="rounds of the paired commit measure (each: --probe-s of frames into fresh copies)")
    ap.add_argument("--twin-hold-s", type=float, default=None,
                    help="retention.twin_hold_s of every memory (default: the configuration's default)")
    ap.add_argument("--retention-set", nargs="+", default=[], metavar="KEY=VALUE",
                    help="other retention settings of every memory, e.g. time_samples=8 (numbers as numbers)")
    ap.add_argument("--no-tour", action="store_true",
                    help="no mapping tour on day 1 (tools/household.py tour_first_day)")
    ap.add_argument("--quick", action="store_true", help="CI size: 2 days of 4 looks, 32-d features, few calls")
    ap.add_argument("--out", default="out/bench_long_run")
    ap.add_argument("--keep", action="store_true", help="keep the stores (in --out) instead of a temp dir")
    args = ap.parse_args(argv)
    if args.quick:
        args.days, args.looks_per_day, args.dim, args.calls = 2, 4, 32, 5
        args.continuous_min, args.warmup_s, args.probe_s = 1 / 3, 6.0, 3.0
        args.paired_rounds, args.paired_commit_rounds = 2, 1
    t_start = time.perf_counter()
    os.makedirs(args.out, exist_ok=True)
    workdir = args.out if args.keep else tempfile.mkdtemp(prefix="long_run_", dir=args.out)
    snap_days = sorted({0, min(9, args.days - 1), args.days - 1})
    print(f"machine: {platform.node()} {os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f} "
          f"{os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}; python {platform.python_version()}, "
          f"SQLite {store_sqlite3.sqlite_version}", flush=True)
    cfg = HouseholdConfig(days=args.days, looks_per_day=args.looks_per_day, features="on" in args.features,
                          dim=args.dim, seed=args.seed, tour_first_day=not args.no_tour)
    house = Household(cfg)
    settings = {} if args.twin_hold_s is None else {"twin_hold_s": args.twin_hold_s}
    for item in args.retention_set:
        key, _, value = item.partition("=")
        try:
            settings[key] = json.loads(value)   # numbers and lists as such
        except ValueError:
            settings[key] = value               # a word (mode=keep-all) as text
    runs = [Run(workdir, ret, feat == "on", args.dim, settings) for ret in args.retention for feat in args.features]
    tour = f"; day 1 starts with a mapping tour of {len(house.tour())} looks" if cfg.tour_first_day else "; no tour"
    print(f"household: {cfg.frames_per_day} frames a day ({cfg.looks_per_day} looks of {cfg.look_s:g} s at "
          f"{cfg.fps:g} Hz over {cfg.hours_per_day:g} h){tour}, {args.days} days; memories: "
          f"{', '.join(r.name for r in runs)}", flush=True)
    frames_total = obs_total = in_view = 0
    for day in range(args.days):
        t0 = time.perf_counter()
        frames = list(house.frames(day))
        frames_total += len(frames)
        obs_total += sum(len(f.observations) for f in frames)
        in_view += sum(f.in_view for f in frames)
        feed(runs, frames, day)
        for r in runs:
            size = store_bytes(r.path)
            stats = r.memory.retention_stats()
            r.days.append({"day": day + 1, **size, **stats, "frames": frames_total, "observations_fed": obs_total})
            if day in snap_days:
                # a copy also of the last day: the probe and the robot-hour below write into the store, and the
                # services of "day 30" were measured on it after them (an hour of patrol more) before this copy
                dest = f"{r.path}.day{day + 1}"
                snapshot(r.path, dest)
                r.snapshots[day + 1] = dest
        line = "  ".join(f"{r.name} {r.days[-1]['file'] / 1e6:8.2f} MB p95 {pct(r.commits[day], 95):6.1f} ms"
                         for r in runs)
        print(f"day {day + 1:2d} ({time.perf_counter() - t0:5.1f} s, load {os.getloadavg()[0]:.2f}): {line}",
              flush=True)
    t_month = time.perf_counter() - t_start
    print(f"month: {frames_total} frames, {obs_total} observations ({obs_total / max(frames_total, 1):.1f} a frame, "
          f"{in_view / max(frames_total, 1):.1f} in view), {t_month:.0f} s", flush=True)

    # 1b. commit probe: the same frames committed into the store of day 1 (a copy) and the one of the last day,
    # commit by commit in turn (the same machine state for both, unlike day 1 and day 30 of the run itself)
    t0 = time.perf_counter()
    day = args.days
    probe = list(continuous_frames(house, day, args.probe_s))
    probes: dict = {}
    for r in runs:
        copy = f"{r.path}.probe"
        snapshot(r.snapshots[snap_days[0] + 1], copy)
        old = Memory.open(copy, embedding_dim=args.dim, config=r.config,
                          feature_model=FEATURE_MODEL if r.features else None)
        times: dict[str, list[float]] = {"first": [], "last": []}
        for k, frame in enumerate(probe, 1):
            obs = frame.observations if r.features else without_features(frame.observations)
            old.add(obs, frame.view)
            r.memory.add(obs, frame.view)
            if k % COMMIT_EVERY == 0 or k == len(probe):
                pair = [("first", old), ("last", r.memory)]
                for name, mem in (pair if (k // COMMIT_EVERY) % 2 else pair[::-1]):
                    t = time.perf_counter()
                    mem.commit()
                    times[name].append((time.perf_counter() - t) * 1e3)
        old.close()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(copy + suffix):
                os.remove(copy + suffix)
        probes[r.name] = times
    print(f"commit probe: {len(probe)} frames into the stores of day {snap_days[0] + 1} and {args.days}, "
          f"{time.perf_counter() - t0:.0f} s", flush=True)

    # 2. one robot-hour at 10 Hz, measured over continuous operation after the month
    t0 = time.perf_counter()
    warm = [f for f in continuous_frames(house, day, args.warmup_s + args.probe_s) if f.stamp > probe[-1].stamp]
    feed(runs, warm, day)
    before = {r.name: store_bytes(r.path) for r in runs}
    tables_before = {r.name: contents(r.path) for r in runs}
    settle_s = MemoryConfig().retention.settle_s
    held_before = {r.name: held_back(r.path, settle_s) for r in runs}
    stats_before = {r.name: r.memory.retention_stats() for r in runs}
    last = max(f.stamp for f in warm)
    cont = [f for f in continuous_frames(house, day, args.probe_s + args.warmup_s + 60.0 * args.continuous_min)
            if f.stamp > last]
    # fed a minute at a time: the live pages after each minute show whether the growth is steady or a transient
    # (the sample of each placement spreading over more frames when the looks of the month give way to a patrol)
    per_min = int(round(60.0 * cfg.fps))
    minutes: dict[str, list[int]] = {r.name: [] for r in runs}
    for k in range(0, len(cont), per_min):
        feed(runs, cont[k:k + per_min], day + 1)
        for r in runs:
            s = store_bytes(r.path)
            minutes[r.name].append((s["pages"] - s["free_pages"]) * s["page_size"])
    seconds = (len(cont)) / cfg.fps
    for r in runs:
        after = store_bytes(r.path)
        stats = r.memory.retention_stats()
        grown = after["file"] - before[r.name]["file"]
        live = (after["pages"] - after["free_pages"] - before[r.name]["pages"] + before[r.name]["free_pages"]) \
            * after["page_size"]
        # the larger of the file's growth and the growth of the pages in use: free pages taken up count as growth
        r.continuous = {"seconds": seconds, "grown_bytes": grown, "live_grown_bytes": live,
                        # --continuous-min 0: no patrol measured, no figure (it divided by zero)
                        "mb_per_robot_hour": max(grown, live) / 1e6 * 3600.0 / seconds if seconds else None,
                        "observations": sum(len(f.observations) for f in cont),
                        "tally_bytes": stats["tally_bytes"] - stats_before[r.name]["tally_bytes"],
                        "thinned": stats["thinned_sightings"] - stats_before[r.name]["thinned_sightings"],
                        "free_pages_after": after["free_pages"], "commit_ms": r.commits.get(day + 1, []),
                        "live_bytes_by_minute": minutes[r.name],
                        "held_back": [held_before[r.name], held_back(r.path, settle_s)]}
        tables_after, tables_start = contents(r.path), tables_before[r.name]
        if tables_after is not None and tables_start is not None:  # what the hour's growth is made of (dbstat)
            grew = {k: tables_after.get(k, 0) - tables_start.get(k, 0) for k in set(tables_after) | set(tables_start)}
            r.continuous["table_growth_bytes"] = dict(sorted(grew.items(), key=lambda kv: -kv[1]))
    print(f"continuous: {len(warm)} warm-up + {len(cont)} frames ({seconds:.0f} s at {cfg.fps:g} Hz), "
          f"{time.perf_counter() - t0:.0f} s", flush=True)
    for r in runs:
        r.memory.close()

    # 3. services on the stores of day 1, 10 and 30, read-only, in rotation
    t0 = time.perf_counter()
    labels = sorted({item[0] for item in ITEMS})
    encoder = HashingTextEncoder()
    results, named = {}, {}
    truth = sum(1 for th, *_ in house.present(T0 + (args.days - 1) * DAY_S + 12 * 3600.0) if th.label in labels)
    for features in sorted({r.features for r in runs}):
        stores = {}
        for r in (r for r in runs if r.features == features):
            for d, path in r.snapshots.items():
                stores[(r.name, d)] = Memory.open(path, embedding_dim=args.dim, readonly=True, label_encoder=encoder,
                                                  clip_text_encoder=TextTower(args.dim) if features else None)
        results.update(measure_services(stores, labels, args.calls, args.seed))
        for key, m in stores.items():  # what the answers describe: objects (present or missing) per label
            named[key] = sum(len(m.objects_labelled(lbl)) for lbl in labels)
            m.close()
    print(f"services: {args.calls} calls per service and store, {time.perf_counter() - t0:.0f} s", flush=True)

    # 4. opening the last store; semantic recall of compact features
    opens = {r.name: open_seconds(r.path, args.dim) for r in runs}
    recall = None
    thin_on = next((r for r in runs if r.features and r.retention == "thin"), None) or next(
        (r for r in runs if r.features), None)
    if thin_on is not None:
        with Memory.open(thin_on.path, embedding_dim=args.dim, readonly=True) as m:
            recall = recall_at_10(m, args.dim)

    # 5. paired: day 1 against the last day, interleaved call by call and commit by commit, many rounds
    t0 = time.perf_counter()
    paired = {}
    first_day, final_day = snap_days[0] + 1, snap_days[-1] + 1
    for r in runs:
        stores = [Memory.open(r.snapshots[d], embedding_dim=args.dim, readonly=True, label_encoder=encoder,
                              clip_text_encoder=TextTower(args.dim) if r.features else None)
                  for d in (first_day, final_day)]
        paired[r.name] = paired_services(*stores, labels, args.calls, args.paired_rounds, args.seed)
        for m in stores:
            m.close()
        if args.paired_commit_rounds > 0:
            both = paired_commits(r, r.snapshots[first_day], r.snapshots[final_day], probe,
                                  args.paired_commit_rounds, args.dim)
            for side in ("first", "last"):
                paired[r.name][side]["commit"] = both[side]
    print(f"paired: {args.paired_rounds} rounds of {args.calls} calls per service and side, "
          f"{args.paired_commit_rounds} rounds of {len(probe)} frames committed per side, "
          f"{time.perf_counter() - t0:.0f} s", flush=True)

    # ------------------------------------------------------------------------------------------ report
    first, mid, last_day = snap_days[0] + 1, snap_days[len(snap_days) // 2] + 1, snap_days[-1] + 1
    shown = sorted({first, mid, last_day})
    print()
    print(f"store (MB at the end of day; growth a simulated day of {cfg.frames_per_day} frames = days 2..{last_day}):")
    print(f"  {'memory':14s} {'day ' + str(first):>9s} {'day ' + str(mid):>9s} {'day ' + str(last_day):>9s} "
          f"{'MB/day':>8s} {'B/obs':>7s} {'free pages':>10s} {'kept obs':>9s} {'thinned':>10s} {'tally B/obs':>11s}")
    for r in runs:
        d = {x["day"]: x for x in r.days}
        growth = (d[last_day]["file"] - d[first]["file"]) / max(1, last_day - first) / 1e6
        tb = d[last_day]["tally_bytes"] / max(1, d[last_day]["thinned_sightings"])
        print(f"  {r.name:14s} {d[first]['file'] / 1e6:9.2f} {d[mid]['file'] / 1e6:9.2f} "
              f"{d[last_day]['file'] / 1e6:9.2f} {growth:8.2f} {d[last_day]['file'] / obs_total:7.0f} "
              f"{d[last_day]['free_pages']:10d} {d[last_day]['observations']:9d} "
              f"{d[last_day]['thinned_sightings']:10d} {tb:11.2f}")
    print("one robot-hour at 10 Hz after the month (continuous patrol; growth of the store, scaled to an hour):")
    for r in runs:
        c = r.continuous
        if c["mb_per_robot_hour"] is None:
            print(f"  {r.name:14s} not measured (--continuous-min 0)")
            continue
        print(f"  {r.name:14s} {c['mb_per_robot_hour']:9.2f} MB per robot-hour  ({c['grown_bytes'] / 1e6:.2f} MB in "
              f"{c['seconds']:.0f} s, {c['observations']} observations; live pages "
              f"{c['live_grown_bytes'] / 1e6:.2f} MB; tallies {c['tally_bytes'] / max(1, c['thinned']):.2f} B per "
              f"thinned sighting; free pages after {c['free_pages_after']})")
        live0 = before[r.name]["pages"] - before[r.name]["free_pages"]
        series = [live0 * before[r.name]["page_size"], *c["live_bytes_by_minute"]]
        if r.retention == "thin":
            print(f"  {'':14s} settled sightings held back (possible twins) at the start -> end: "
                  f"{c['held_back'][0]} -> {c['held_back'][1]}")
        print(f"  {'':14s} live pages grown each minute (MB): "
              + " ".join(f"{(b - a) / 1e6:+.3f}" for a, b in zip(series, series[1:])))
        grew = c.get("table_growth_bytes")
        if grew:
            scale = 3600.0 / c["seconds"] / 1e6
            print(f"  {'':14s} per robot-hour by table (MB): "
                  + ", ".join(f"{k} {v * scale:+.2f}" for k, v in grew.items() if abs(v * scale) >= 0.05))
    print(f"commit latency ms (p50 / p95 / p99 / max; {COMMIT_EVERY} frames a commit):")
    for r in runs:
        parts = []
        for d in shown:
            v = r.commits[d - 1]
            parts.append(f"day {d}: {pct(v, 50):.1f} / {pct(v, 95):.1f} / {pct(v, 99):.1f} / {max(v):.1f}")
        print(f"  {r.name:14s} " + "   ".join(parts))
    print(f"commit probe ms (p50 / p95): the same {len(probe)} frames into the store of day {first} and of day "
          f"{last_day}, commit by commit in turn:")
    for r in runs:
        a, b = probes[r.name]["first"], probes[r.name]["last"]
        print(f"  {r.name:14s} day {first}: {pct(a, 50):.1f} / {pct(a, 95):.1f}   day {last_day}: {pct(b, 50):.1f} / "
              f"{pct(b, 95):.1f}")
    print(f"objects the {len(labels)} item labels name in the stores of day {', '.join(map(str, shown))} (the house "
          f"holds {truth} under those labels): " + "; ".join(
              f"{r.name} " + " / ".join(str(named[(r.name, d)]) for d in shown) for r in runs))
    print(f"service latency ms (p50 / p95), read-only stores of day {', '.join(map(str, shown))} in rotation:")
    for r in runs:
        for s in SERVICES:
            vals = [results[(r.name, d)][s] for d in shown]
            print(f"  {r.name:14s} {s:12s} " + "   ".join(
                f"day {d}: {pct(v, 50):7.2f} / {pct(v, 95):7.2f}" for d, v in zip(shown, vals)))
    print(f"paired, day {first} against day {last_day} (read-only copies of the day's end, and commits into fresh "
          f"copies; the two stores in turn, call by call; {args.paired_rounds} x {args.calls} calls a service and "
          f"{args.paired_commit_rounds} x {len(probe) // COMMIT_EVERY} commits a side): wall p50 / p95 ms, CPU p50 / "
          f"p95 ms, and day {last_day} over day {first} at p95 (wall, CPU):")
    for r in runs:
        for s in (*(("commit",) if args.paired_commit_rounds > 0 else ()), *SERVICES, *SAME_QUESTION):
            a, b = paired[r.name]["first"][s], paired[r.name]["last"][s]
            print(f"  {r.name:14s} {s:12s} day {first}: {pct(a['wall'], 50):7.2f} / {pct(a['wall'], 95):7.2f} "
                  f"cpu {pct(a['cpu'], 50):7.2f} / {pct(a['cpu'], 95):7.2f}   day {last_day}: "
                  f"{pct(b['wall'], 50):7.2f} / {pct(b['wall'], 95):7.2f} cpu {pct(b['cpu'], 50):7.2f} / "
                  f"{pct(b['cpu'], 95):7.2f}   x{ratio(a['wall'], b['wall'], 95):.3f} "
                  f"x{ratio(a['cpu'], b['cpu'], 95):.3f}")
            if "says" in a:
                print(f"  {'':14s} {'':12s} the answers say (summed over the {args.calls} requests, day {first} -> "
                      f"{last_day}): " + ", ".join(f"{k} {a['says'][k]} -> {b['says'][k]}"
                                                  for k in sorted(set(a["says"]) | set(b["says"]))))
    print("what the last stores hold (MB by table with its indexes, SQLite dbstat; the 6 largest):")
    for r in runs:
        c = contents(r.path)
        if c is None:
            print("  (dbstat is not available in this SQLite build)")
            break
        print(f"  {r.name:14s} " + ", ".join(f"{k} {v / 1e6:.2f}" for k, v in list(c.items())[:6]))
    print("open the last store (s, slowest of 3): " + "; ".join(
        f"{name} writer {o['writer']:.3f} read-only {o['read-only']:.3f}" for name, o in opens.items()))
    if recall is not None:
        print(f"semantic recall@10 against float32 ({recall['objects']} objects, {len(labels)} class queries): "
              + "; ".join(f"{fmt} {recall[fmt]['recall_at_10']:.3f} (min cosine {recall[fmt]['min_cosine']:.5f}, "
                          f"{recall[fmt]['bytes']} B)" for fmt in ("float16", "int8")))
    print(f"machine at the end: load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}; "
          f"total {time.perf_counter() - t_start:.0f} s")
    report = {"args": vars(args), "frames": frames_total, "observations": obs_total, "labels_truth": truth,
              "objects_named": {f"{name} day{d}": n for (name, d), n in named.items()},
              "runs": {r.name: {"days": r.days, "continuous": {k: v for k, v in r.continuous.items()
                                                              if k != "commit_ms"},
                                "commit_p95": {d: pct(v, 95) for d, v in r.commits.items()},
                                "services": {f"day{d}": {s: {"p50": pct(results[(r.name, d)][s], 50),
                                                             "p95": pct(results[(r.name, d)][s], 95)}
                                                         for s in SERVICES} for d in shown},
                                "commit_probe": {k: {"p50": pct(v, 50), "p95": pct(v, 95)}
                                                 for k, v in probes[r.name].items()},
                                "open_s": opens[r.name]} for r in runs},
              "recall": recall,
              "paired": {name: {side: {s: {k: ({"p50": pct(v, 50), "p95": pct(v, 95), "n": len(v)} if k != "says"
                                               else dict(v)) for k, v in clocks.items()}
                                       for s, clocks in sides.items()}
                                for side, sides in per.items()} for name, per in paired.items()}}
    with open(os.path.join(args.out, "report.json"), "w") as fh:
        json.dump(report, fh, indent=1, default=str)

    def line(ret: str) -> str:
        sel = {r.features: r for r in runs if r.retention == ret}
        on, off = sel.get(True), sel.get(False)
        ref = on or off
        # the paired measure (day 1 and the last day in turn, in the same process at the end): the month's own
        # day-1 and day-30 figures were taken hours apart, under whatever else the machine ran then
        side = paired[ref.name]
        c1, c30 = ((pct(side[d]["commit"]["wall"], 95) for d in ("first", "last")) if args.paired_commit_rounds > 0
                   else (pct(ref.commits[first - 1], 95), pct(ref.commits[last_day - 1], 95)))
        q1 = max(pct(paired[r.name]["first"][s]["wall"], 95) for r in sel.values() for s in SERVICES)
        q30 = max(pct(paired[r.name]["last"][s]["wall"], 95) for r in sel.values() for s in SERVICES)
        worst = {}
        for clock in ("wall", "cpu"):
            worst[clock] = max((ratio(paired[r.name]["first"][s][clock], paired[r.name]["last"][s][clock], 95),
                                f"{r.name} {s}") for r in sel.values() for s in paired[r.name]["first"])
        mb_on, mb_off = (f"{r.continuous['mb_per_robot_hour']:.2f}"
                         if r and r.continuous["mb_per_robot_hour"] is not None else "-" for r in (on, off))
        return (f"{mb_on} MB per robot-hour (features on), {mb_off} MB (off); commit p95 day{first} "
                f"{c1:.1f} ms day{last_day} {c30:.1f} ms; query p95 day{first} {q1:.1f} ms day{last_day} {q30:.1f} ms; "
                f"worst p95 day{last_day}/day{first} x{worst['wall'][0]:.2f} ({worst['wall'][1]}), CPU "
                f"x{worst['cpu'][0]:.2f} ({worst['cpu'][1]})")

    for ret in args.retention[1:]:
        print(f"long run ({ret}): {line(ret)}")
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"long run: {line(args.retention[0])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
