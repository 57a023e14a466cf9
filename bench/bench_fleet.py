"""A fleet on one memory: 4 robots x 10 Hz x 20 observations into one PostgreSQL store of 10,000 objects, and
the same load of one robot on SQLite, side by side in one run (issue 15 targets: commit p95 <= 25 ms, every
query p95 <= 30 ms).

Setup: the 10,000-object store of bench/bench_services.py (5,000 cells, a support and an item on each) is
built once in SQLite (cached: --store) and copied into a throwaway PostgreSQL cluster (fsync on, unix socket
only) with ``tempomem migrate`` (core/store/transfer.py). Each robot is a process of its own with its own writer
Memory (source robot_N): every 0.1 s it stages one frame re-observing 10 cells of its quarter of the map (20
observations, a camera view with coarse depth, as the memory node stages a message) and commits it; a commit
fuses every robot's pending frames (docs/FLEET.md). One more process asks the queries the node's services
run, one at a time, through a read-only Memory as the node's query side does. Latencies are of the core calls
(Memory.add, Memory.commit, the query methods), without ROS transport.

    .venv/bin/python bench/bench_fleet.py [--seconds 20] [--robots 4] [--store /tmp/tempomem_bench_10k.db] [--fuser]
        [--server-setting NAME=VALUE ...]

``--fuser`` (docs/FLEET.md, "Staging beside fusion"): the robots only stage (add(): durable once it returns, which is
what a robot's "commit" is then), and one more process, the fuser, fuses every staged frame in batches; printed per
frame: the staging time, and the fused-visible latency (add() returned -> the fuser's COMMIT of the batch holding it).

Vector path in every figure: exact (float32 features, numpy re-ranking; no pgvector on this machine). Prints
figures; asserts none (the machine is shared: read them next to the load average printed with them).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
from bench_services import EMBEDDING_DIM, T0, cell_boxes, observation  # noqa: E402

from tempomem_ros.core import CameraView, Memory  # noqa: E402
from tempomem_ros.core.memory import FLEET_FUSE_BATCH  # noqa: E402

N_OBJECTS = int(os.environ.get("TEMPOMEM_BENCH_OBJECTS", "10000"))  # --objects (read by the workers too)
CELLS = N_OBJECTS // 2
CELLS_PER_FRAME = 10  # 20 observations
RATE_HZ = 10.0
QUERIES = ("spatial", "ask_where", "ask_on", "history", "scene_as_of", "relational", "objects_labelled")


def build_store(path: str) -> None:
    """10,000 present objects, 100 cells per commit, each confirmed by its first sighting (the build's own
    identity settings; the robots run the defaults): three sightings per object made the build take most of an
    hour on this shared machine.

    The build also resolves each new object's "appeared" event in the commit that confirms it
    (identity.reconcile_window_s 0). Why: with the default 120 s window and every build commit 0.01 s apart,
    every object's event stayed held for the whole build (an object of its label unseen since might have moved
    here), and each commit re-examined every held event, each through a scan of every label
    (FrameFusion.identity_rows): 2,200 held events cost 26 of a commit's 28 s at 2,200 objects, so the build
    grew cubically and did not finish (the reason the first figures were at 2,000 objects). Now 10,000 objects
    are built in about 100 s (1-2 s a commit). The robots' commits run the defaults; the build's events are
    published rather than published by the first default commit below, which changes no object."""
    t = time.perf_counter()
    build = {"identity": {"confirm_observations": 1, "appear_hold_s": 0.0, "reconcile_window_s": 0.0}}
    with Memory.open(path, embedding_dim=EMBEDDING_DIM, config=build) as m:
        for f, start in enumerate(range(0, CELLS, 100)):
            m.add([observation(label, lo, hi, T0 + 0.01 * f) for k in range(start, min(CELLS, start + 100))
                   for label, lo, hi in cell_boxes(k)])
            m.commit()
        count = len(m.objects("present"))
    # The first commit of the default configuration on the new store does one-time work over every object
    # (it took tens of seconds): done now, so that it is not timed as a robot's commit.
    with Memory.open(path, embedding_dim=EMBEDDING_DIM) as m:
        m.add([observation(label, lo, hi, T0 + 150.0) for label, lo, hi in cell_boxes(0)], camera_over(0, T0 + 150.0))
        m.commit()
    print(f"store: {count} present objects built in {time.perf_counter() - t:.1f} s -> {path}", flush=True)


def camera_over(k: int, stamp: float) -> CameraView:
    """A camera 3 m above cell k looking straight down, coarse depth 60x80 at floor distance."""
    (_, lo, hi), _ = cell_boxes(k)
    x, y = (lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2
    pose = np.eye(4)
    pose[:3, :3] = np.diag([1.0, -1.0, -1.0])  # optical z down
    pose[:3, 3] = (x, y, 3.0)
    return CameraView(pose, 500.0, 500.0, 320.0, 240.0, 640, 480, 6.0, np.full((60, 80), 3.0, np.float32), stamp)


def robot_cells(index: int, n_robots: int, i: int) -> list[int]:
    """The cells robot ``index`` of ``n_robots`` re-observes in its frame ``i``: the next 10 of its quarter of the map,
    round and round (bench_fleet_services.py streams robot 0's to the memory node)."""
    quarter = CELLS // n_robots
    return [index * quarter + (i * CELLS_PER_FRAME + j) % quarter for j in range(CELLS_PER_FRAME)]


def robot(address: str, index: int, n_robots: int, seconds: float, start_at: float, fuser: bool = False) -> dict:
    """One robot: a frame every 0.1 s, staged (add) and then committed. With ``fuser`` the robot only stages: its
    frame is durable once add() returns (what "commit" means to it then), and the fuser process fuses it; the
    robot records when each frame was staged (wall clock) so that the fused-visible latency can be measured."""
    from tempomem_ros.core.errors import StoreLockedError

    adds, commits, staged_at = [], [], []
    traffic = []  # per committed frame: (round trips, statements, pipelined, sent) of its commit (PostgreSQL only)
    late = locked = 0
    with Memory.open(address, embedding_dim=EMBEDDING_DIM, config={"source": f"robot_{index}"}) as m:
        while time.time() < start_at:
            time.sleep(0.001)
        t_start = time.monotonic()
        i = 0
        while True:
            due = t_start + i / RATE_HZ
            now = time.monotonic()
            if now - t_start >= seconds:
                break
            if due > now:
                time.sleep(due - now)
            else:
                late += now - due > 0.05
            stamp = T0 + 200.0 + (time.monotonic() - t_start)  # the robots' clocks agree: one world time
            cells = robot_cells(index, n_robots, i)
            obs = [observation(label, lo, hi, stamp) for k in cells for label, lo, hi in cell_boxes(k)]
            t0 = time.perf_counter()
            try:  # as the memory node: a frame the lock timed out on is kept (here: counted) and the robot goes on
                staged = m.stage(obs, camera_over(cells[0], stamp))
                t1 = time.perf_counter()
                if fuser:
                    staged_at.append((staged.frame_id, time.time()))
                    adds.append((t1 - t0) * 1e3)
                    i += 1
                    continue
                before = m.store_traffic()
                m.commit()
                t2 = time.perf_counter()
                after = m.store_traffic()
                if before is not None:
                    traffic.append([after[k] - before[k] for k in ("round_trips", "statements", "pipelined")] +
                                   # statements sent to the server (set-based writes and reads: one each); a tree
                                   # before them sent every statement
                                   [after.get("server_statements", after["statements"])
                                    - before.get("server_statements", before["statements"])])
                adds.append((t1 - t0) * 1e3)
                commits.append((t2 - t1) * 1e3)
            except StoreLockedError:
                locked += 1
            i += 1
        for _ in range(20 if not fuser else 0):  # fuse what is still pending (close would, without retrying the lock)
            try:
                m.commit()
                break
            except StoreLockedError:
                locked += 1
        if fuser:  # the fuser drains what this robot staged; close() would fuse it here, under the fusion lock
            while m.pending():
                time.sleep(0.05)
    return {"add_ms": adds, "commit_ms": commits, "late_frames": late, "lock_timeouts": locked, "traffic": traffic,
            "staged_at": staged_at}


#: How often the fuser looks for staged frames when it found none (a count of pending frames: one round trip).
FUSER_POLL_S = 0.005


def fuser(address: str, seconds: float, start_at: float, max_frames: int | None = FLEET_FUSE_BATCH) -> dict:
    """The one fusing writer: while the robots stage, it fuses the frames staged so far, at most ``max_frames`` in one
    transaction (one commit() of its own Memory, in stamp, source, id order, one fsync), then looks again. Why bounded
    (50 by default, as `tempomem fuse` and the memory node's commit_max_frames; --fuser-max-frames 0: every staged
    frame): unbounded, its batches behind a backlog (192-631 frames at stop 44) held the fusion lock past another
    writer's 5 s timeout. Records per batch its frames, wall time and the wall clock at which the batch became visible
    (after COMMIT)."""
    from tempomem_ros.core.errors import StoreLockedError

    batches, lock_waits = [], 0
    m = Memory.open(address, embedding_dim=EMBEDDING_DIM, config={"source": "fuser"})
    try:
        while time.time() < start_at:
            time.sleep(0.001)
        end = time.monotonic() + seconds + 2.0  # the robots' last frames too
        while time.monotonic() < end or m.pending():
            if not m.pending():
                time.sleep(FUSER_POLL_S)
                continue
            t0 = time.perf_counter()
            try:
                stats = m.commit(max_frames)
            except StoreLockedError:
                # another writer held the fusion lock past the timeout (bench_fleet_services: a node's forget fuses
                # what is staged first): the frames stay staged; try again, as `tempomem fuse` does
                lock_waits += 1
                continue
            batches.append({"frames": list(stats.frame_ids), "ms": (time.perf_counter() - t0) * 1e3,
                            "visible_at": time.time()})
    finally:
        m.close(fuse=False)  # its loop ended with nothing staged; a frame staged since is the next fuser's
    return {"batches": batches, "lock_waits": lock_waits}


def asker(address: str, seconds: float, start_at: float) -> dict:
    rng = np.random.default_rng(7)
    out: dict[str, list] = {q: [] for q in QUERIES}
    with Memory.open(address, readonly=True) as m:
        while time.time() < start_at:
            time.sleep(0.001)
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end:
            q = QUERIES[i % len(QUERIES)]
            t0 = time.perf_counter()
            ask_one(m, q, rng)
            out[q].append((time.perf_counter() - t0) * 1e3)
            i += 1
    return out


def ask_one(m: Memory, q: str, rng) -> None:
    """One query of kind ``q`` about a cell drawn from ``rng`` (bench_query_trips.py asks the same)."""
    k = int(rng.integers(0, CELLS))
    (s_label, s_lo, s_hi), (i_label, i_lo, i_hi) = cell_boxes(k)
    if q == "spatial":
        m.spatial(tuple((a + b) / 2 for a, b in zip(i_lo, i_hi)), 1.0)
    elif q == "ask_where":
        m.ask(f"where is the {i_label}")
    elif q == "ask_on":
        m.ask(f"what is on the {s_label}")
    elif q == "history":
        m.temporal("history", label=i_label)
    elif q == "scene_as_of":
        # a page of 50 after a random object (keyset paging: a client's next page), not at an offset (walked)
        m.scene_as_of(T0 + 50.0, k=50, after=(int(rng.integers(0, N_OBJECTS - 50)), 0))
    elif q == "relational":
        m.relational("on", s_label)
    elif q == "objects_labelled":
        m.objects_labelled(i_label)


def pct(values, p) -> float:
    return float(np.percentile(values, p)) if values else float("nan")


def spawn(worker: str, address: str, seconds: float, start_at: float, *extra: str) -> subprocess.Popen:
    """One worker process of this bench (robot, fuser or asker) on ``address``, released at ``start_at``; its figures
    are the last line of its output (gather). bench_fleet_services.py starts robots and the fuser beside a node."""
    return subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", worker, "--address", address,
                             "--seconds", str(seconds), "--start-at", str(start_at), *extra],
                            stdout=subprocess.PIPE, text=True)


def spawn_robot(address: str, index: int, n_robots: int, seconds: float, start_at: float,
                stage_only: bool) -> subprocess.Popen:
    """Robot ``index`` of ``n_robots`` (its quarter of the map, source robot_<index>); ``stage_only``: --fuser."""
    return spawn("robot", address, seconds, start_at, "--index", str(index), "--robots", str(n_robots),
                 *(["--fuser"] if stage_only else []))


def gather(procs: list[subprocess.Popen], timeout: float) -> list[dict]:
    """Each worker's figures, in the order given; SystemExit when one failed."""
    results = []
    for p in procs:
        out, _ = p.communicate(timeout=timeout)
        if p.returncode != 0:
            raise SystemExit(f"a worker failed (exit {p.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def run_load(address: str, n_robots: int, seconds: float, use_fuser: bool = False,
             fuser_max_frames: int = FLEET_FUSE_BATCH) -> dict:
    """Start the robots and the asker (and with ``use_fuser`` the fuser, batches of at most ``fuser_max_frames``, 0:
    every staged frame) as processes, release them at once, gather their figures."""
    start_at = time.time() + 3.0  # every process has opened its store by then
    procs = [spawn_robot(address, r, n_robots, seconds, start_at, use_fuser) for r in range(n_robots)]
    if use_fuser:
        procs.append(spawn("fuser", address, seconds, start_at, "--fuser-max-frames", str(fuser_max_frames)))
    procs.append(spawn("asker", address, seconds, start_at))
    results = gather(procs, seconds + 300)
    robots, queries = results[:n_robots], results[-1]
    out = {"add_ms": sum((r["add_ms"] for r in robots), []), "commit_ms": sum((r["commit_ms"] for r in robots), []),
           "late_frames": sum(r["late_frames"] for r in robots),
           "lock_timeouts": sum(r["lock_timeouts"] for r in robots), "queries": queries,
           "traffic": sum((r["traffic"] for r in robots), []), "fuser": None}
    if use_fuser:
        out["fuser"] = fused_visible(robots, results[n_robots]["batches"])
    return out


def fused_visible(robots: list[dict], batches: list[dict], others_fuse: bool = False) -> dict:
    """Per staged frame: wall seconds from its add() returning (durably staged) to the COMMIT of the fuser's batch
    that held it (fused and visible to every reader). Every staged frame must be fused exactly once, by the fuser
    unless ``others_fuse``: another writer's forget or define_region fuses what is staged first (docs/FLEET.md),
    so then a frame the fuser's batches lack is counted (``elsewhere``) and left out of the latencies."""
    visible = {}
    for b in batches:
        for fid in b["frames"]:
            if fid in visible:
                raise SystemExit(f"frame {fid} fused twice")
            visible[fid] = b["visible_at"]
    staged = dict(fid_t for r in robots for fid_t in r["staged_at"])
    missing = sorted(set(staged) - set(visible))
    if missing and not others_fuse:
        raise SystemExit(f"{len(missing)} staged frames never fused")
    return {"visible_ms": [(visible[f] - t) * 1e3 for f, t in staged.items() if f in visible],
            "batch_frames": [len(b["frames"]) for b in batches], "batch_ms": [b["ms"] for b in batches],
            "elsewhere": len(missing)}


def report(name: str, figures: dict, seconds: float) -> None:
    c, a = figures["commit_ms"] or [float("nan")], figures["add_ms"] or [float("nan")]
    if figures.get("fuser") is not None:
        c = a
    print(f"{name}: {len(c)} frames committed in {seconds:.0f} s ({len(c) / seconds:.1f} commits/s), "
          f"frames staged more than 50 ms late: {figures['late_frames']}, frames refused after a "
          f"{5:.0f} s lock wait: {figures['lock_timeouts']}")
    print(f"  {'stage (add)':<18} p50 {pct(a, 50):6.1f} ms   p95 {pct(a, 95):6.1f} ms   max {max(a):6.1f} ms")
    fz = figures.get("fuser")
    if fz is not None:  # the robots only stage: their commit is the staging; the fuser fuses in batches
        v, n, b = fz["visible_ms"], fz["batch_frames"], fz["batch_ms"]
        print(f"  {'commit (staged)':<18} p50 {pct(a, 50):6.1f} ms   p95 {pct(a, 95):6.1f} ms   (= stage: durable "
              f"once add() returns; {len(a) / seconds:.1f} frames/s staged)")
        print(f"  {'fused-visible':<18} p50 {pct(v, 50):6.1f} ms   p95 {pct(v, 95):6.1f} ms   max {max(v):6.1f} ms"
              f"   (staged -> fuser's COMMIT, {len(v)} frames)")
        print(f"  {'fuser batches':<18} {len(n)}: frames p50 {pct(n, 50):4.0f} max {max(n):3d}   "
              f"batch ms p50 {pct(b, 50):6.1f} p95 {pct(b, 95):6.1f}")
    else:
        print(f"  {'commit':<18} p50 {pct(c, 50):6.1f} ms   p95 {pct(c, 95):6.1f} ms   max {max(c):6.1f} ms")
    if figures["traffic"]:
        # Counted, not timed: the same on a loaded machine as on an idle one (postgres/connection.py Traffic).
        # A commit fuses every robot's pending frames, so with several robots one commit may carry several.
        t = np.asarray(figures["traffic"], dtype=float)
        print(f"  {'per commit':<18} round trips p50 {np.median(t[:, 0]):5.0f} mean {t[:, 0].mean():6.1f}   "
              f"statements p50 {np.median(t[:, 1]):5.0f} mean {t[:, 1].mean():6.1f}   "
              f"pipelined p50 {np.median(t[:, 2]):5.0f} mean {t[:, 2].mean():6.1f}   "
              f"sent to the server p50 {np.median(t[:, 3]):5.0f} mean {t[:, 3].mean():6.1f}")
    for q, values in figures["queries"].items():
        print(f"  {q:<18} p50 {pct(values, 50):6.1f} ms   p95 {pct(values, 95):6.1f} ms   "
              f"max {max(values):6.1f} ms   ({len(values)} calls)")


@contextlib.contextmanager
def served_copy(store: str, work: str, extra_conf: dict | None = None):
    """``store`` migrated into a throwaway PostgreSQL 15 + PostGIS server (fsync on, unix socket only) under
    ``work``: yields its address, the rows migrated and the seconds the migration took; the server stops after.
    ``extra_conf``: more server settings (bench_stage_profile.py loads pg_stat_statements)."""
    from tempomem_ros.core.store import transfer
    from tempomem_ros.tools.pg_sandbox import PgSandbox

    with PgSandbox.start(durable=True, root=os.path.join(work, "pg"), extra_conf=extra_conf) as pg:
        pg.create_database("fleet")
        pg.psql("CREATE EXTENSION postgis", "fleet")
        address = pg.url("fleet")
        t = time.perf_counter()
        rows = transfer.migrate(store, address)
        yield address, rows, time.perf_counter() - t


@contextlib.contextmanager
def served_store(store: str, prefix: str, extra_conf: dict | None = None):
    """``store`` (built first if it does not exist) served by a throwaway server (served_copy) in a temporary
    folder of its own, removed after: yields the server's address."""
    if not os.path.exists(store):
        build_store(store)
    work = tempfile.mkdtemp(prefix=prefix)
    os.chmod(work, 0o755)  # the server runs as the postgres system user when this runs as root
    try:
        with served_copy(store, work, extra_conf) as (address, _rows, _seconds):
            yield address
    finally:
        shutil.rmtree(work, ignore_errors=True)


#: Settings a bench may not change: a staged frame acknowledged must survive a crash.
DURABILITY = ("fsync", "synchronous_commit", "full_page_writes")


def server_settings(pairs: list[str]) -> dict:
    """{name: value} of ``--server-setting NAME=VALUE`` arguments; a ValueError for a malformed one or one that
    weakens durability."""
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not re.fullmatch(r"[a-z_][a-z0-9_.]*", name) or not value:
            raise ValueError(f"--server-setting {pair!r}: not NAME=VALUE")
        if name in DURABILITY:
            raise ValueError(f"--server-setting {name}: refused, it weakens durability")
        out[name] = value
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--robots", type=int, default=4)
    ap.add_argument("--store", default=os.path.join(tempfile.gettempdir(), "tempomem_bench_fleet_10k.db"))
    ap.add_argument("--skip-sqlite", action="store_true")
    ap.add_argument("--objects", type=int, default=None, help="objects in the store (default 10,000)")
    ap.add_argument("--fuser", action="store_true",
                    help="PostgreSQL: robots only stage; one fuser process fuses every staged frame in batches")
    ap.add_argument("--server-setting", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting of the PostgreSQL server (repeatable), e.g. commit_delay=100: a fleet's server "
                         "may use its group commit; fsync, synchronous_commit and full_page_writes are refused")
    ap.add_argument("--fuser-max-frames", type=int, default=FLEET_FUSE_BATCH, metavar="N",
                    help=f"--fuser: frames the fuser fuses per batch at most (default {FLEET_FUSE_BATCH}, as `tempomem "
                         "fuse` and the memory node's commit_max_frames; 0: every staged frame)")
    ap.add_argument("--worker", choices=("robot", "asker", "fuser"))
    ap.add_argument("--address")
    ap.add_argument("--index", type=int, default=0)
    ap.add_argument("--start-at", type=float, default=0.0)
    args = ap.parse_args()
    if args.objects is not None and args.objects != N_OBJECTS:  # the constants are read at import: start again
        os.environ["TEMPOMEM_BENCH_OBJECTS"] = str(args.objects)
        os.execv(sys.executable, [sys.executable, __file__, *[a for a in sys.argv[1:]]])
    if args.worker == "robot":
        print(json.dumps(robot(args.address, args.index, args.robots, args.seconds, args.start_at, args.fuser)))
        return
    if args.worker == "fuser":
        print(json.dumps(fuser(args.address, args.seconds, args.start_at, args.fuser_max_frames or None)))
        return
    if args.worker == "asker":
        print(json.dumps(asker(args.address, args.seconds, args.start_at)))
        return

    if not os.path.exists(args.store):
        build_store(args.store)
    work = tempfile.mkdtemp(prefix="tempomem_bench_fleet_")
    os.chmod(work, 0o755)  # the server runs as the postgres system user when this runs as root
    try:
        print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
        print("vector path: exact (float32 features, numpy re-ranking; pgvector is not installed)")
        settings = server_settings(args.server_setting)
        if settings:
            print("server settings: " + ", ".join(f"{k}={v}" for k, v in settings.items()))
        with served_copy(args.store, work, settings or None) as (address, rows, seconds):
            print(f"migrated the {rows['objects']}-object store into PostgreSQL 15 + PostGIS (fsync on) in "
                  f"{seconds:.1f} s")
            pg_figures = run_load(address, args.robots, args.seconds, args.fuser, args.fuser_max_frames)
        report(f"PostgreSQL, {args.robots} robots x {RATE_HZ:.0f} Hz x {2 * CELLS_PER_FRAME} observations"
               + (f" (robots stage, one fuser fuses, batches of at most {args.fuser_max_frames or 'every staged'}"
                  " frame(s))" if args.fuser else " (each robot commits)"),
               pg_figures, args.seconds)
        if not args.skip_sqlite:
            copy = os.path.join(work, "sqlite.db")
            shutil.copyfile(args.store, copy)
            sqlite_figures = run_load(copy, 1, args.seconds)
            report(f"SQLite, 1 robot x {RATE_HZ:.0f} Hz x {2 * CELLS_PER_FRAME} observations", sqlite_figures,
                   args.seconds)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
