"""What one service call does on day 1 and on a later day: statements, SQLite VM steps, CPU, and its cost per object.

    .venv/bin/python bench/long_run_calls.py out/lr/thin-off.db.day1 out/lr/thin-off.db.day30
    .venv/bin/python bench/long_run_calls.py STORE.day1 STORE.day30 --services current is_present --statements
    .venv/bin/python bench/long_run_calls.py STORE.day1 STORE.day30 --history-pages
    .venv/bin/python bench/long_run_calls.py STORE.day1 STORE.day30 --services scene_as_of --no-fit --scene-pages

Why: long_run_paired.py says how much more a call costs on day 30; this says what grows. For each service, over
the paired phase's requests (bench_long_run.service_calls, the same seed): the statements a call sends (SQLite's
trace callback), the VM steps it runs (a progress handler every 100 instructions: rows read, in effect), and its
thread-CPU p50 / p95. The fit (unless ``--no-fit``) asks each item label alone and fits CPU = F + a * N over the
labels (N: the objects the answer describes; best of 7 x 30 calls): a per-call F and a per-object a that stay put
from day 1 to 30 mean the growth is the answer's, not the store's. ``--per-label SERVICE`` prints each label's
cost on both days. ``--scene-pages`` times scene_as_of over every request and over full pages alone, paired.
``--scene-parts`` measures the page's and the count's statements alone on full pages.
``--history-pages`` times the History service's response (a page of k sightings, the total, the placements: every
one as before i14-r7, or a page of 20, 10 or 5 and their total) at k = 200, 100, 50 and 20, and without the
placements, paired.
``--services`` also takes the paired phase's same-question requests (changes@1: the changes of day 1; as_of#1 ...).
With ``--statements N`` the N statements that ran the most VM steps a call, with their count a call.
The household must be the bench's; the stores are opened read-only.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import os
import time

import numpy as np

from tempomem_ros.core import Memory
from tempomem_ros.semantics.text_encoder import HashingTextEncoder
from tempomem_ros.tools.household import ITEMS

spec = importlib.util.spec_from_file_location(
    "bench_long_run", os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_long_run.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

FIT = {"current": lambda m, lbl, t: m.temporal("current", label=lbl),
       "previous": lambda m, lbl, t: m.temporal("previous", label=lbl),
       "as_of": lambda m, lbl, t: m.temporal("as_of", label=lbl, t=t),
       "is_present": lambda m, lbl, t: m.is_present(label=lbl)}


def open_store(path: str) -> Memory:
    dim, features = bench.kept_store_settings(path)
    return Memory.open(path, embedding_dim=dim, readonly=True, label_encoder=HashingTextEncoder(),
                       clip_text_encoder=bench.TextTower(dim) if features else None)


def per_call(memory: Memory, calls, show: int) -> dict:
    """Statements, VM steps (x100) and CPU ms of each call, over ``calls`` (warm: each called once first); ``top``:
    the ``show`` statements that ran the most VM steps, each with its count and steps a call (the steps counted
    while a statement was the last one traced: SQLite traces a statement as it starts)."""
    conn = memory._conn
    texts: collections.Counter = collections.Counter()
    by_text: collections.Counter = collections.Counter()
    steps = [0]
    last = [""]

    def step() -> int:
        steps[0] += 1
        by_text[last[0]] += 1
        return 0

    def trace(sql: str) -> None:
        last[0] = " ".join(sql.split())[:110]
        texts[last[0]] += 1

    for call in calls:
        call()
    conn.set_trace_callback(trace)
    conn.set_progress_handler(step, 100)
    try:
        for call in calls:
            call()
    finally:
        conn.set_trace_callback(None)
        conn.set_progress_handler(None, 0)
    cpu = []
    for _ in range(5):
        for call in calls:
            c = time.thread_time()
            call()
            cpu.append((time.thread_time() - c) * 1e3)
    n = len(calls)
    return {"statements": sum(texts.values()) / n, "vm100": steps[0] / n, "cpu50": float(np.percentile(cpu, 50)),
            "cpu95": float(np.percentile(cpu, 95)),
            "top": [(texts[k] / n, v / n, k) for k, v in by_text.most_common(show)]}


def _best_cpu_us(call, rounds: int, calls: int) -> float:
    """Thread-CPU µs of one call, the best of `rounds` rounds of `calls` calls: the minimum is the figure least
    disturbed by the other processes on this noisy 2-core machine."""
    best = []
    for _ in range(rounds):
        c = time.thread_time()
        for _ in range(calls):
            call()
        best.append((time.thread_time() - c) / calls * 1e6)
    return min(best)


def fit(memory: Memory, service: str, labels: list[str]) -> tuple[float, float, int]:
    """(F us, a us per object, largest N): CPU of one call by label = F + a * N, least squares over the labels."""
    t = memory.latest_stamp() - 20 * 3600.0
    ns, us = [], []
    for lbl in labels:
        n = len(memory.objects_labelled(lbl))
        if not n:
            continue
        FIT[service](memory, lbl, t)
        ns.append(n)
        us.append(_best_cpu_us(lambda: FIT[service](memory, lbl, t), rounds=7, calls=30))
    a, f = np.polyfit(ns, us, 1)
    return float(f), float(a), max(ns)


def per_label(stores: list[Memory], service: str, labels: list[str]) -> None:
    """Each item label asked alone of both stores: the objects described, CPU (best of 5 x 20 calls) and the state
    of the object the answer is about (a missing one is answered from its removal)."""
    for lbl in labels:
        cells = []
        for m in stores:
            t = m.latest_stamp() - 20 * 3600.0
            answer = FIT[service](m, lbl, t)
            us = _best_cpu_us(lambda: FIT[service](m, lbl, t), rounds=5, calls=20)  # noqa: B023 (called at once)
            n = len(m.objects_labelled(lbl))
            state = answer.objects[0].state if answer.objects else "-"
            cells.append(f"{n:2d} objects {us:6.0f} us {state:8s}")
        print(f"  {lbl:11s} " + "   ".join(cells))


def history_pages(stores: list[Memory], labels: list[str], calls: int) -> None:
    """The History service's response (nodes/services.py: page, total, placements) for the label's first object,
    at several page sizes of sightings and of placements, and without either; paired, 10 rounds, thread-CPU p95
    day 1 -> last."""
    # the placements: True = every one (unpaged, the service before i14-r7), an int P = a page of P and the total
    variants = (("k=200 + total + placements", 200, True), ("k=100 + total + placements", 100, True),
                ("k=50 + total + placements", 50, True), ("k=20 + total + placements", 20, True),
                ("k=20 + placements page 20 + totals", 20, 20), ("k=20 + placements page 10 + totals", 20, 10),
                ("k=20 + placements page 5 + totals", 20, 5),
                ("k=200 + total", 200, False), ("k=50 + total", 50, False), ("k=20 + total (history@k20)", 20, False),
                ("placements alone", 0, True), ("placements page 20 + total", 0, 20))
    for name, k, with_placements in variants:
        plans = []
        for m in stores:
            plan = []
            for i in range(calls):
                objs = m.objects_labelled(labels[i % len(labels)])
                if objs:
                    oid = objs[0].id
                    plan.append(lambda m=m, oid=oid: ((m.history(oid, k=k), m.history_count(oid)) if k else ())
                                + (() if with_placements is False else (m.placements(oid),) if with_placements is True
                                   else (m.placements(oid, k=with_placements), m.placement_count(oid))))
            plans.append(plan)
        rows = [sum(len(x) for call in plan for x in call() if not isinstance(x, int)) for plan in plans]
        cpu: list[list[float]] = [[], []]
        for rnd in range(10):
            for i in range(len(plans[0])):
                for side in ((0, 1) if (i + rnd) % 2 == 0 else (1, 0)):
                    c = time.thread_time()
                    plans[side][i]()
                    cpu[side].append((time.thread_time() - c) * 1e3)
        p95 = [float(np.percentile(c, 95)) for c in cpu]
        print(f"  {name:38s} rows {rows[0]:6d} -> {rows[1]:6d}   CPU p95 {p95[0]:6.3f} -> {p95[1]:6.3f} ms "
              f"x{p95[1] / p95[0]:.2f}")


def scene_pages(stores: list[Memory], calls: int, seed: int) -> None:
    """scene_as_of as the paired phase asks it (a page of 50 from the start and the total, at the same random times
    of each store's span), paired, 10 rounds, thread-CPU: over every request, and over the requests whose page is
    full (50 rows) alone. Why: on day 1 the store knows fewer objects at most times of its day, so fewer than half
    its pages are full and its p95 is drawn from a lower quantile of the full pages' cost; on day 30 nearly every
    page is full. Full pages against full pages is the cost of the same answer size on both days; the parts (the
    page's SQL, its placement and object infos, the count) say which of them grows."""
    plans = [bench.service_calls(m, [""], np.random.default_rng(seed), calls)["scene_as_of"] for m in stores]
    full = [[len(call()[0]) == 50 for call in plan] for plan in plans]
    cpu: list[list[float]] = [[], []]
    for rnd in range(10):
        for i in range(calls):
            for side in ((0, 1) if (i + rnd) % 2 == 0 else (1, 0)):
                c = time.thread_time()
                plans[side][i]()
                cpu[side].append((time.thread_time() - c) * 1e3)
    every = [float(np.percentile(c, 95)) for c in cpu]
    only = [float(np.percentile([x for k, x in enumerate(c) if full[side][k % calls]], 95))
            for side, c in enumerate(cpu)]
    print(f"  full pages (50 rows) {sum(full[0])} -> {sum(full[1])} of {calls}")
    print(f"  every request       CPU p95 {every[0]:6.3f} -> {every[1]:6.3f} ms x{every[1] / every[0]:.2f}")
    print(f"  full pages alone    CPU p95 {only[0]:6.3f} -> {only[1]:6.3f} ms x{only[1] / only[0]:.2f}")


def scene_parts(stores: list[Memory], calls: int, seed: int) -> None:
    """The two statements of scene_as_of's full pages alone (store/placements.py: the page of 50, in object order,
    and the count), at the paired phase's times: VM steps (x100) and rows each, and thread-CPU p95, paired, 10
    rounds. Why: the whole call grows with its answer (scene_pages); of its parts, only these two read rows the answer
    does not return (the page walks past objects not shown or not there at t; the count reads every placement that
    began by t of every shown object), so their growth over the rows they give is what the store's age adds."""
    rows_of = [m._temporal._placement_rows for m in stores]
    times = []
    for m in stores:  # the times service_calls draws (one uniform draw a request), full pages only below
        rng, now = np.random.default_rng(seed), m.latest_stamp()
        times.append([float(rng.uniform(bench.house_t0(0), now)) for _ in range(calls)])
    full = [[t for t in ts if len(r.as_of(t, k=50)) == 50] for r, ts in zip(rows_of, times)]
    parts = {"page of 50": lambda r, t: r.as_of(t, k=50), "count": lambda r, t: r.count_as_of(t)}
    for name, part in parts.items():
        vm, got = [], []
        for m, r, ts in zip(stores, rows_of, full):
            steps = [0]

            def step(steps=steps) -> int:
                steps[0] += 1
                return 0

            m._conn.set_progress_handler(step, 100)
            try:
                out = [part(r, t) for t in ts]
            finally:
                m._conn.set_progress_handler(None, 0)
            vm.append(steps[0] / max(len(ts), 1))
            got.append(sum(x if isinstance(x, int) else len(x) for x in out) / max(len(ts), 1))
        cpu: list[list[float]] = [[], []]
        n = min(len(f) for f in full)
        for rnd in range(10):
            for i in range(n):
                for side in ((0, 1) if (i + rnd) % 2 == 0 else (1, 0)):
                    c = time.thread_time()
                    part(rows_of[side], full[side][i])
                    cpu[side].append((time.thread_time() - c) * 1e3)
        p95 = [float(np.percentile(c, 95)) for c in cpu]
        print(f"  {name:10s} full pages {len(full[0])} -> {len(full[1])}   rows a call {got[0]:6.1f} -> "
              f"{got[1]:6.1f}   VM steps x100 {vm[0]:6.1f} -> {vm[1]:6.1f}   CPU p95 {p95[0]:.3f} -> {p95[1]:.3f} ms "
              f"x{p95[1] / p95[0]:.2f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("first", help="the store at the end of day 1 (bench_long_run.py --keep: NAME.db.day1)")
    ap.add_argument("last", help="the later store (NAME.db.day30)")
    ap.add_argument("--services", nargs="+", default=["current", "previous", "as_of", "is_present", "history"],
                    choices=(*bench.SERVICES, *bench.SAME_QUESTION))
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--statements", type=int, nargs="?", const=8, default=0,
                    help="also list the N statements a call sends most often")
    ap.add_argument("--no-fit", action="store_true")
    ap.add_argument("--history-pages", action="store_true")
    ap.add_argument("--per-label", choices=sorted(FIT), help="also each item label alone, day 1 and last")
    ap.add_argument("--scene-pages", action="store_true",
                    help="scene_as_of over every request and over full pages alone, paired")
    ap.add_argument("--scene-parts", action="store_true",
                    help="scene_as_of's page and count statements on full pages alone, paired")
    args = ap.parse_args(argv)
    labels = sorted({item[0] for item in ITEMS})
    stores = [open_store(p) for p in (args.first, args.last)]
    print(f"load {os.getloadavg()[0]:.2f}; {args.first} against {args.last}; per call, over {args.calls} requests")
    plans = [bench.service_calls(m, labels, np.random.default_rng(args.seed), args.calls) for m in stores]
    # the same-question requests (about day 1 alone), as the paired phase asks them (bench.paired_services)
    lo, hi = bench.house_t0(0), stores[0].latest_stamp()
    ids = [o.id for o in stores[0].objects() if o.state in ("present", "missing")]
    for m, plan in zip(stores, plans):
        plan.update(bench.same_question_calls(m, labels, lo, hi, np.random.default_rng(args.seed + 1), args.calls, ids))
    for s in args.services:
        got = [per_call(m, plan[s], args.statements) for m, plan in zip(stores, plans)]
        print(f"  {s:12s} statements {got[0]['statements']:5.2f} -> {got[1]['statements']:5.2f}   VM steps x100 "
              f"{got[0]['vm100']:6.1f} -> {got[1]['vm100']:6.1f}   CPU p50 {got[0]['cpu50']:.3f} -> "
              f"{got[1]['cpu50']:.3f} ms, p95 {got[0]['cpu95']:.3f} -> {got[1]['cpu95']:.3f} ms")
        for side, g in zip(("first", "last"), got):
            for n, vm, text in g["top"]:
                print(f"      {side:5s} {n:6.2f} a call, VM steps x100 {vm:7.2f}  {text}")
        if s in FIT and not args.no_fit:
            fits = [fit(m, s, labels) for m in stores]
            print(f"  {'':12s} CPU = F + a * objects: F {fits[0][0]:5.0f} -> {fits[1][0]:5.0f} us, a {fits[0][1]:5.1f} "
                  f"-> {fits[1][1]:5.1f} us an object (labels of up to {fits[0][2]} -> {fits[1][2]} objects)")
    if args.per_label:
        print(f"{args.per_label} of each label alone (day 1 | last):")
        per_label(stores, args.per_label, labels)
    if args.scene_pages:
        print("scene_as_of (page of 50 + total), paired (day 1 -> last):")
        scene_pages(stores, args.calls, args.seed)
    if args.scene_parts:
        print("scene_as_of's statements on full pages, paired (day 1 -> last):")
        scene_parts(stores, args.calls, args.seed)
    if args.history_pages:
        print("History service response, paired (day 1 -> last):")
        history_pages(stores, labels, args.calls)
    for m in stores:
        m.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
