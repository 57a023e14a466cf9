"""Every service of the memory node on a fleet's PostgreSQL memory: p50 / p95 per service while 4 robots x 10 Hz x
20 observations stage into the same database of 10,000 objects, and the same run on SQLite with one robot, side by
side in one invocation (issue 15: service p95 <= 30 ms for every service).

bench_fleet.py measures the fleet's queries as core calls (a read-only Memory in a process of its own), without ROS;
bench_services.py measures every service through ROS, but on SQLite only. This puts the two together, each piece
imported from where it is: the store of bench_fleet (built once, cached: --store; migrated with ``tempomem migrate``
into a throwaway PostgreSQL 15 + PostGIS cluster, fsync on, unix socket only), the memory node as bench_services
starts it (a process of its own, its 3-thread executor) with ``robot_id`` robot_0 and the store's address, and
bench_services' client calling every service of nodes/services.py (bench_services.SERVICES: query, spatial_query,
relational_query, semantic_query, temporal_query, changes, scene_as_of (a page, and center + radius), history,
check, forget, define_region), round and round, one call at a time, during the whole load.

The fleet is shaped as fleet.launch.py deploys it (docs/FLEET.md): every robot only stages, one fuses.
- Robot 0 is the node's own robot: bench_services' publisher streams it robot 0's frames of bench_fleet (10 cells
  of its quarter, a support and an item each, a camera view with coarse depth) at 10 Hz over ROS, and the node
  stages them; robots 1-3 are bench_fleet's robot workers in --fuser mode (processes, staging only), on the same
  world clock.
- ``--fuser node`` (the default, fleet.launch.py's ``fuser:=first``): the asked node is the fleet's fuser
  (``fuse_staged`` true): its commit timer (``commit_rate_hz``, 2 Hz) fuses every robot's staged frames, in the
  process that answers the services. ``--fuser process``: the asked node only stages (``fuse_staged`` false, every
  other robot's node in the launch), and bench_fleet's fuser process fuses (as ``fuser:=none`` with ``tempomem
  fuse`` beside the fleet, or another robot's fusing node, polling every 5 ms instead of a 2 Hz timer); the
  fused-visible latency (robots 1-3's frames: staged -> the fuser's COMMIT) is printed then. Either way forget and
  define_region fuse what is staged first ("fuse before persist"), through the asked node's writer.
The SQLite run: one robot (the node's stream over the whole map), the node fusing, no other writer.

    ROS_DOMAIN_ID=136 ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST .venv/bin/python bench/bench_fleet_services.py
        [--seconds 60] [--fuser node process] [--store PATH] [--skip-sqlite] [--skip SERVICE ...] [--quick]

Prints figures and the load average at each run's start; asserts none (the machine is shared). ``--quick``: 200
objects, 6 s a run (test/test_bench_fleet_services.py: every service answered, none refused).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
os.environ.setdefault("ROS_DOMAIN_ID", "115")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_fleet as fleet  # noqa: E402
import bench_services as services  # noqa: E402
import numpy as np  # noqa: E402

QUICK_OBJECTS = 200
QUICK_SECONDS = 6.0
#: The stream's and the robots' world clock starts here (bench_fleet.robot: T0 + 200 + seconds since the release).
WORLD_START = services.T0 + 200.0
NODE_ROBOT = "robot_0"
#: The warm-up round's request index: one the measured rounds (0, 1, ...) never reach before N_OBJECTS rounds (forget
#: asks object 1 + i * 7919 mod N_OBJECTS: the warm-up's is never one of theirs).
WARM_FIRST = -1


def world_now(start_at: float) -> float:
    return WORLD_START + (time.time() - start_at)


def ask_every_service(client: services.ServiceClient, until: float, start_at: float, first: int = 0,
                      rounds: int | None = None, skip: tuple = ()) -> dict:
    """Call every service in turn, one call at a time, until the wall clock ``until`` (or for ``rounds`` rounds):
    {service: {"ms": [...], "refused": n, "unanswered": n}}; call i of a service asks request ``first + i``.
    Round and round rather than one service after another, so every service is asked under the same load."""
    rng = np.random.default_rng(2 + first)
    out = {name: {"ms": [], "refused": 0, "unanswered": 0} for name in services.SERVICES if name not in skip}
    i = first
    while (time.time() < until) if rounds is None else (i < first + rounds):
        for name in out:
            _, request = services.requests(name, i, fleet.N_OBJECTS, rng, world_now(start_at))
            ms, response = client.call_response(name, request)
            out[name]["ms"].append(ms)
            out[name]["refused"] += services.refused(response)
            if response is None:
                out[name]["unanswered"] += 1
                print(f"  {name}: no answer within 30 s (world time {world_now(start_at) - WORLD_START:.1f} s)",
                      file=sys.stderr, flush=True)
        i += 1
    return out


def run_node(store: str, *, n_robots: int, fuser: str, seconds: float, warmup: float, commit_rate: float,
             skip: tuple = ()) -> dict:
    """One run: the node on ``store`` (robot_0, fusing unless ``fuser`` is 'process'), robot 0's frames streamed to
    it, robots 1..n_robots-1 staging beside it (and bench_fleet's fuser with ``fuser`` 'process'), every service
    asked from ``warmup`` s after the release to ``seconds``. Returns the figures."""
    client = services.ServiceClient(fleet.N_OBJECTS, name="bench_fleet_services")
    if not client.gone():  # the previous run's node
        client.close()
        raise SystemExit("the previous run's node still answers")
    load = os.getloadavg()[0]
    proc = subprocess.Popen(services.node_command(
        store, commit_rate=commit_rate, publish_interval=0.0, label_encoder="none", robot_id=NODE_ROBOT,
        fuse_staged=fuser == "node"))
    streamer, workers = None, []
    try:
        missing = client.wait(timeout=120.0)
        if missing is not None:
            raise SystemExit(f"service {missing} not available")
        # One round before the load, not measured: a node that has just opened its store answers its first calls
        # slowly (1-2 s for the first question: readers and caches warm up), which is no fleet's steady state.
        ask_every_service(client, 0.0, time.time(), first=WARM_FIRST, rounds=1, skip=skip)
        start_at = time.time() + 5.0  # every worker has opened its store by then
        workers = [fleet.spawn_robot(store, r, n_robots, seconds, start_at, stage_only=True)
                   for r in range(1, n_robots)]
        if fuser == "process":
            workers.append(fleet.spawn("fuser", store, seconds, start_at))
        time.sleep(max(0.0, start_at - time.time()))
        streamer = services.Streamer(client.pub, fleet.RATE_HZ, lambda i: (
            world_now(start_at), fleet.robot_cells(0, n_robots, i))).start()
        time.sleep(warmup)
        calls = ask_every_service(client, start_at + seconds, start_at, skip=skip)
        streamer.stop()
        results = fleet.gather(workers, seconds + 300)
        workers = []
        time.sleep(1.5)  # the node's diagnostics after the last frames (1 Hz)
        node = client.node_values()
    finally:
        if streamer is not None:
            streamer.stop()
        for w in workers:  # a failure above: no worker outlives the bench
            w.kill()
        client.close()
        services.stop_node(proc)
    robots = results[:n_robots - 1]
    figures = {"load": load, "calls": calls, "node": node, "published": streamer.published,
               "streamed_s": streamer.seconds, "robots": n_robots,
               "add_ms": sum((r["add_ms"] for r in robots), []),
               "late_frames": sum(r["late_frames"] for r in robots), "fuser": None}
    if fuser == "process":
        figures["fuser"] = fleet.fused_visible(robots, results[-1]["batches"], others_fuse=True)
        figures["fuser"]["lock_waits"] = results[-1]["lock_waits"]
    return figures


def report(title: str, figures: dict, seconds: float) -> None:
    print(f"{title}\n  load average at the start: {figures['load']:.2f} ({os.cpu_count()} CPUs)")
    print(f"  {'service':<18} {'calls':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}  refused unanswered")
    for name, c in figures["calls"].items():
        lat = c["ms"]
        print(f"  {name:<18} {len(lat):>5} {fleet.pct(lat, 50):>8.1f} {fleet.pct(lat, 95):>8.1f} "
              f"{max(lat, default=float('nan')):>8.1f}  {c['refused']:>7} {c['unanswered']:>10}")
    print(f"  frames streamed to the node: {figures['published']} in {figures['streamed_s']:.1f} s "
          f"({figures['published'] / max(figures['streamed_s'], 1e-9):.1f}/s)")
    a, others = figures["add_ms"], f"robots 1-{figures['robots'] - 1}"
    if a:
        print(f"  {others}: {len(a)} frames staged ({len(a) / seconds:.1f}/s), staging p50 {fleet.pct(a, 50):.1f} ms "
              f"p95 {fleet.pct(a, 95):.1f} ms, more than 50 ms late: {figures['late_frames']}")
    fz = figures["fuser"]
    if fz is not None:
        v = fz["visible_ms"]
        print(f"  fused-visible ({others}, staged -> the fuser's COMMIT): p50 {fleet.pct(v, 50):.1f} ms p95 "
              f"{fleet.pct(v, 95):.1f} ms max {max(v, default=float('nan')):.1f} ms ({len(v)} frames; "
              f"{fz['elsewhere']} fused first by the node's forget / define_region); fuser batches "
              f"{len(fz['batch_frames'])}, frames p50 {fleet.pct(fz['batch_frames'], 50):.0f}, its commits that found "
              f"the fusion lock held past 5 s: {fz['lock_waits']}")
    if figures["node"]:
        keys = ("received", *services.NODE_FIGURES, "dropped.overwritten", "ingest_waiting", "store_pending_frames",
                "retry_queue", "refused_requests")
        print("  node: " + ", ".join(f"{k} {figures['node'][k]}" for k in keys if k in figures["node"]))


def side_by_side(runs: list[tuple[str, dict]]) -> None:
    print("\n" + f"{'p50 / p95 ms':<18}" + "".join(f" {name:>24}" for name, _ in runs))
    for service in runs[0][1]["calls"]:
        cells = []
        for _, figures in runs:
            c = figures["calls"][service]
            failed = f" ({c['refused']} refused)" if c["refused"] else ""
            cells.append(f"{fleet.pct(c['ms'], 50):.1f} / {fleet.pct(c['ms'], 95):.1f}{failed}")
        print(f"{service:<18}" + "".join(f" {c:>24}" for c in cells))
    print(f"{'worst p95':<18}" + "".join(
        f" {max(fleet.pct(c['ms'], 95) for c in f['calls'].values()):>24.1f}" for _, f in runs))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="seconds of load a run (the robots' time)")
    ap.add_argument("--warmup", type=float, default=3.0, help="seconds of load before the first call")
    ap.add_argument("--robots", type=int, default=4, help="robots on PostgreSQL, the node's own included")
    ap.add_argument("--fuser", nargs="+", choices=("node", "process"), default=["node"],
                    help="who fuses on PostgreSQL, one run each: the asked node (fleet.launch.py fuser:=first) or "
                         "bench_fleet's fuser process beside a node that only stages")
    ap.add_argument("--commit-rate", type=float, default=2.0, help="node commit_rate_hz (the default)")
    ap.add_argument("--store", default=None, help="the SQLite store built once (bench_fleet.build_store), cached")
    ap.add_argument("--skip-sqlite", action="store_true")
    ap.add_argument("--skip", nargs="*", default=[], choices=services.SERVICES, help="services not asked")
    ap.add_argument("--quick", action="store_true", help=f"{QUICK_OBJECTS} objects, {QUICK_SECONDS:g} s a run")
    args = ap.parse_args(argv)
    if args.quick:
        args.seconds, args.warmup = QUICK_SECONDS, 1.5
        if fleet.N_OBJECTS != QUICK_OBJECTS:  # bench_fleet's constants are read at import (its workers' too)
            os.environ["TEMPOMEM_BENCH_OBJECTS"] = str(QUICK_OBJECTS)
            os.execv(sys.executable, [sys.executable, os.path.abspath(__file__), *sys.argv[1:]])
    store = args.store or os.path.join(tempfile.gettempdir(), f"tempomem_bench_fleet_{fleet.N_OBJECTS}.db")
    if not os.path.exists(store):
        fleet.build_store(store)
    import rclpy

    rclpy.init()
    runs = []
    try:
        for mode in args.fuser:  # each on a fresh copy of the store, in a cluster of its own
            with fleet.served_store(store, "tempomem_bench_fleet_services_") as address:
                pg = run_node(address, n_robots=args.robots, fuser=mode, seconds=args.seconds,
                              warmup=args.warmup, commit_rate=args.commit_rate, skip=tuple(args.skip))
            fused_by = "the node fuses" if mode == "node" else "the node stages, a fuser process fuses"
            report(f"PostgreSQL, {args.robots} robots x {fleet.RATE_HZ:.0f} Hz x {2 * fleet.CELLS_PER_FRAME} "
                   f"observations, {fleet.N_OBJECTS} objects ({fused_by})", pg, args.seconds)
            runs.append((f"PG {args.robots} robots, {mode}", pg))
        if not args.skip_sqlite:
            work = tempfile.mkdtemp(prefix="tempomem_bench_fleet_services_")
            try:
                copy = os.path.join(work, "sqlite.db")
                shutil.copyfile(store, copy)
                lite = run_node(copy, n_robots=1, fuser="node", seconds=args.seconds, warmup=args.warmup,
                                commit_rate=args.commit_rate, skip=tuple(args.skip))
            finally:
                shutil.rmtree(work, ignore_errors=True)
            report(f"SQLite, 1 robot x {fleet.RATE_HZ:.0f} Hz x {2 * fleet.CELLS_PER_FRAME} observations, "
                   f"{fleet.N_OBJECTS} objects (the node fuses)", lite, args.seconds)
            runs.append(("SQLite 1 robot", lite))
    finally:
        rclpy.try_shutdown()
    side_by_side(runs)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
