"""Service latency of the memory node under load: p50 / p95 per service (target p95 <= 20 ms).

Setup: a store of N objects (default 10,000: supports with one item on each, in a grid) is built once
through the core and cached (--store); the memory node runs as a separate process on it (as deployed),
a publisher streams ObservationArray frames at 10 Hz (each re-observing a few objects, with a camera view
and coarse depth, so commits, absence reasoning and graph publishing all run), and a client calls each
service repeatedly, one call at a time. Latency = client-side round trip (request sent -> response in).
scene_as_of is asked for one default page (50 objects) of the whole scene at a random offset; reading the
whole 10k-object scene page by page (1000 per call) is printed as a figure of its own. The node's own
counters (commits, scene graphs published, their last durations) close the report, from /diagnostics.

    ROS_DOMAIN_ID=115 ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST .venv/bin/python bench/bench_services.py
    options: --objects N --calls K --store PATH --rate HZ --label-encoder none|minilm|hashing --skip SERVICE...

Prints one line per service; figures are machine-dependent and never asserted.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import threading
import time

os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
os.environ.setdefault("ROS_DOMAIN_ID", "115")

import numpy as np  # noqa: E402

from tempomem_ros.core import Memory, Observation  # noqa: E402

SUPPORTS = ("table", "desk", "shelf", "counter", "stool")
ITEMS = ("mug", "book", "bottle", "plant", "phone")
SPACING = 1.5  # metres between cells: no relation crosses cells
VARIANTS = 250  # labels are "<kind> <n % VARIANTS>": about 4 objects share a label at 10k objects
EMBEDDING_DIM = 32
T0 = 1000.0


def cell_boxes(k: int):
    """Support k and the item standing on it: (label, lo, hi) twice."""
    cols = int(math.ceil(math.sqrt(5000)))
    x, y = (k % cols) * SPACING, (k // cols) * SPACING
    support = (f"{SUPPORTS[k % 5]} {k % VARIANTS}", (x - 0.3, y - 0.3, 0.0), (x + 0.3, y + 0.3, 0.75))
    item = (f"{ITEMS[(k // 5) % 5]} {k % VARIANTS}", (x - 0.04, y - 0.04, 0.75), (x + 0.04, y + 0.04, 0.85))
    return support, item


def observation(label, lo, hi, stamp, conf=0.9) -> Observation:
    c = tuple((a + b) / 2 for a, b in zip(lo, hi))
    return Observation(label, conf, c, lo, hi, stamp)


def build_store(path: str, n_objects: int) -> None:
    """Every object seen in three frames over 2 s (identity.confirm_observations over identity.appear_hold_s):
    seen once, an object stays tentative and the store would hold no present object at all."""
    cells = n_objects // 2
    t = time.perf_counter()
    with Memory.open(path, embedding_dim=EMBEDDING_DIM) as m:
        per_frame = 100
        batches = list(range(0, cells, per_frame))
        for r in range(3):  # stamps rise: round r at T0 + r s, batch f 0.01 s later (all before T0 + 50)
            for f, start in enumerate(batches):
                obs = []
                for k in range(start, min(cells, start + per_frame)):
                    for label, lo, hi in cell_boxes(k):
                        obs.append(observation(label, lo, hi, T0 + r * 1.0 + f * 0.01))
                m.add(obs)
                if f % 10 == 9:
                    m.commit()
            m.commit()
            print(f"  built round {r + 1} of 3 ({time.perf_counter() - t:.0f} s)", flush=True)
        count = len(m.objects("present"))
    print(f"store: {count} objects built in {time.perf_counter() - t:.1f} s -> {path}", flush=True)


def store_objects(path: str) -> int:
    if not os.path.exists(path):
        return 0
    with Memory.open(path, embedding_dim=EMBEDDING_DIM) as m:  # writable: a cached older store is migrated
        return len(m.objects("present"))


# ------------------------------------------------------------------------------------------------ ROS side
def frame_msg(stamp: float, cells: list[int]):
    from tempomem_ros.msg import Observation as ObsMsg
    from tempomem_ros.msg import ObservationArray
    from tempomem_ros.nodes import conversions as conv

    msg = ObservationArray()
    msg.header.stamp = conv.to_time(stamp)
    msg.header.frame_id = "map"
    for k in cells:
        for label, lo, hi in cell_boxes(k):
            c = [(a + b) / 2 for a, b in zip(lo, hi)]
            msg.observations.append(
                ObsMsg(
                    label=label,
                    confidence=0.9,
                    center=conv.to_point(c),
                    bbox_min=conv.to_point(lo),
                    bbox_max=conv.to_point(hi),
                    n_points=200,
                )
            )
    # a camera 3 m above the first cell looking straight down, coarse depth 60x80 at floor distance
    (_, lo, hi), _ = cell_boxes(cells[0])
    x, y = (lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2
    v = msg.view
    v.pose.position = conv.to_point((x, y, 3.0))
    v.pose.orientation.x, v.pose.orientation.y, v.pose.orientation.z, v.pose.orientation.w = (
        1.0,
        0.0,
        0.0,
        0.0,
    )
    v.fx = v.fy = 500.0
    v.cx, v.cy, v.width, v.height, v.max_range, v.depth_scale = 320.0, 240.0, 640, 480, 6.0, 0.125
    v.depth.height, v.depth.width, v.depth.encoding, v.depth.step = 60, 80, "32FC1", 320
    v.depth.data = np.full((60, 80), 3.0, dtype="<f4").tobytes()
    return msg


def requests(service: str, i: int, n_objects: int, rng: np.random.Generator, latest: float):
    from builtin_interfaces.msg import Time

    from tempomem_ros import srv
    from tempomem_ros.nodes import conversions as conv

    cells = n_objects // 2
    k = int(rng.integers(0, cells))
    (s_label, s_lo, s_hi), (i_label, _, _) = cell_boxes(k)
    oid = int(rng.integers(1, n_objects + 1))
    if service == "query":
        questions = (
            f"where is the {i_label}",
            f"what is on the {s_label}",
            f"where was the {i_label} before",
            "what changed in the last 10 seconds",
            f"what is within 1 m of {(s_lo[0] + s_hi[0]) / 2:.2f} {(s_lo[1] + s_hi[1]) / 2:.2f} 0.5",
        )
        return srv.Query, srv.Query.Request(question=questions[i % len(questions)])
    if service == "spatial_query":
        c = ((s_lo[0] + s_hi[0]) / 2, (s_lo[1] + s_hi[1]) / 2, 0.5)
        return srv.SpatialQuery, srv.SpatialQuery.Request(center=conv.to_point(c), radius=1.0)
    if service == "relational_query":
        if i % 2:
            return srv.RelationalQuery, srv.RelationalQuery.Request(relation="on", anchor=s_label)
        return srv.RelationalQuery, srv.RelationalQuery.Request(relation="near", anchor_id=oid)
    if service == "semantic_query":
        return srv.SemanticQuery, srv.SemanticQuery.Request(text=f"find the {i_label}", k=5)
    if service == "temporal_query":
        ops = ("current", "previous", "history", "count_moves", "last_seen", "duration")
        return srv.TemporalQuery, srv.TemporalQuery.Request(operation=ops[i % len(ops)], object_id=oid)
    if service == "changes":
        return srv.Changes, srv.Changes.Request(since=conv.to_time(latest - 10.0), until=Time())
    if service == "scene_as_of":  # one default page (50 objects) of the whole 10k-object scene at that time
        offset = int(rng.integers(0, max(1, n_objects - 250)))
        return srv.SceneAsOf, srv.SceneAsOf.Request(time=conv.to_time(T0 + 50.0), offset=offset)
    if service == "scene_as_of 2m":  # what was around here then (center + radius)
        c = ((s_lo[0] + s_hi[0]) / 2, (s_lo[1] + s_hi[1]) / 2, 0.5)
        return srv.SceneAsOf, srv.SceneAsOf.Request(time=conv.to_time(T0 + 50.0), center=conv.to_point(c),
                                                    radius=2.0)
    if service == "history":
        return srv.History, srv.History.Request(object_id=oid)
    if service == "check":  # the yes/no questions, by label and by id
        checks = ("on", "present", "moved", "seen", "missing", "near")
        kind = checks[i % len(checks)]
        if kind == "on":
            return srv.Check, srv.Check.Request(check=kind, label=i_label, anchor=s_label)
        if kind == "near":
            return srv.Check, srv.Check.Request(check=kind, object_id=oid, anchor=s_label)
        return srv.Check, srv.Check.Request(check=kind, label=i_label)
    if service == "forget":  # a different object each call (forgetting one twice is refused)
        return srv.Forget, srv.Forget.Request(object_id=1 + (i * 7919) % n_objects, reason="bench")
    if service == "define_region":
        lo = (s_lo[0] - 0.5, s_lo[1] - 0.5, -0.1)
        return srv.DefineRegion, srv.DefineRegion.Request(
            label=f"area {i}",
            bbox_min=conv.to_point(lo),
            bbox_max=conv.to_point((lo[0] + 1.6, lo[1] + 1.6, 2.0)),
        )
    raise ValueError(service)


SERVICES = (
    "query",
    "spatial_query",
    "relational_query",
    "semantic_query",
    "temporal_query",
    "changes",
    "scene_as_of",
    "scene_as_of 2m",
    "history",
    "check",
    "forget",
    "define_region",
)


def read_whole_scene(client, n_objects: int) -> None:
    """Read the whole scene as of a time page by page (1000 per call), as a client that needs it all does:
    printed as a figure of its own, it is not a single-call latency."""
    from tempomem_ros import srv
    from tempomem_ros.nodes import conversions as conv

    t, offset, calls, total = time.perf_counter(), 0, 0, None
    while total is None or offset < total:
        response = client.call(srv.SceneAsOf.Request(time=conv.to_time(T0 + 50.0), k=1000, offset=offset),
                               timeout_sec=30.0)
        if response is None or response.error or not response.objects:
            print(f"whole-scene read failed at offset {offset}", file=sys.stderr)
            return
        total, offset, calls = response.total, offset + len(response.objects), calls + 1
    print(f"whole scene as of a time: {offset} of {total} objects in {calls} pages of <= 1000, "
          f"{(time.perf_counter() - t) * 1e3:.0f} ms")


def node_command(store: str, *, commit_rate: float, publish_interval: float, label_encoder: str,
                 **params) -> list[str]:
    """The memory node as ``main()`` starts it (a process of its own, its 3-thread executor) on ``store``; ``params``:
    more node parameters (bench_fleet_services.py: robot_id, fuse_staged)."""
    values = {"store_path": store, "embedding_dim": EMBEDDING_DIM, "commit_rate_hz": commit_rate,
              "publish_min_interval_s": publish_interval, "label_encoder": label_encoder, **params}
    cmd = [sys.executable, "-c", "import sys; from tempomem_ros.nodes.memory_node import main; sys.exit(main())",
           "--ros-args"]
    for name, value in values.items():
        cmd += ["-p", f"{name}:={str(value).lower() if isinstance(value, bool) else value}"]
    return cmd + ["--log-level", "warn"]


def stop_node(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


def refused(response) -> bool:
    """No response, or one that says the request failed (``error`` set, or ``success`` false)."""
    return response is None or bool(getattr(response, "error", "")) or getattr(response, "success", True) is False


class ServiceClient:
    """The bench's side of one memory node: an rclpy node (rclpy.init is the caller's) spun by one thread, a reliable
    observation publisher, one client per SERVICES entry and the node's /diagnostics.

    Why one thread: rclpy's MultiThreadedExecutor busy-waits on occupied callback groups, which here added the
    client's own stalls to the measured service latency."""

    def __init__(self, n_objects: int, name: str = "bench_services") -> None:
        import rclpy
        from diagnostic_msgs.msg import DiagnosticArray
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.qos import QoSProfile, ReliabilityPolicy

        from tempomem_ros import topics
        from tempomem_ros.msg import ObservationArray

        self.node = rclpy.create_node(name)
        self.executor = SingleThreadedExecutor()
        self.executor.add_node(self.node)
        self._spinner = threading.Thread(target=self.executor.spin, daemon=True)
        self._spinner.start()
        self.pub = self.node.create_publisher(ObservationArray, topics.OBSERVATIONS,
                                              QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE))
        self.diagnostics: list = []
        self.node.create_subscription(DiagnosticArray, "/diagnostics", self.diagnostics.append, 10)
        self.clients = {}
        for service in SERVICES:
            srv_type = requests(service, 0, n_objects, np.random.default_rng(0), T0)[0]
            self.clients[service] = self.node.create_client(srv_type, f"/tempomem/{service.split()[0]}")

    def wait(self, timeout: float = 60.0) -> str | None:
        """Wait for every service and for the node's subscription; the first service missing, or None."""
        for service, client in self.clients.items():
            if not client.wait_for_service(timeout_sec=timeout):
                return service
        deadline = time.monotonic() + 30.0
        while self.pub.get_subscription_count() == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        return None

    def gone(self, timeout: float = 20.0) -> bool:
        """Wait until no service of an earlier node is still known (a node stopped before this client was made may
        linger in discovery for a moment, and a call to it would wait out its timeout); whether none is left."""
        deadline = time.monotonic() + timeout
        while any(c.service_is_ready() for c in self.clients.values()):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)
        return True

    def call(self, service: str, request) -> tuple[float, bool]:
        """One call: (client-side round trip in ms, whether it was answered without an error)."""
        ms, response = self.call_response(service, request)
        return ms, not refused(response)

    def call_response(self, service: str, request):
        """One call: (client-side round trip in ms, the response; None when none came within 30 s)."""
        t = time.perf_counter()
        try:
            response = self.clients[service].call(request, timeout_sec=30.0)
        except TimeoutError:  # rclpy's Client.call raises it where older versions returned None
            response = None
        return (time.perf_counter() - t) * 1e3, response

    def node_values(self) -> dict:
        """The node's last /diagnostics values ({} before the first)."""
        if not self.diagnostics:
            return {}
        return {kv.key: kv.value for kv in self.diagnostics[-1].status[0].values}

    def close(self) -> None:
        self.executor.shutdown()
        self.node.destroy_node()


class Streamer:
    """Publishes ``frame_msg(*frame(i))`` for i = 0, 1, ... every 1 / rate s on a thread of its own, on a fixed
    schedule (a late frame does not shift the next); ``published`` counts them."""

    def __init__(self, pub, rate: float, frame) -> None:
        self.published = 0
        self.seconds = 0.0  # how long it streamed (start to stop)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(pub, rate, frame), daemon=True)

    def _run(self, pub, rate, frame) -> None:
        next_t = start = time.monotonic()
        while not self._stop.is_set():
            pub.publish(frame_msg(*frame(self.published)))
            self.published += 1
            next_t += 1.0 / rate
            self._stop.wait(max(0.0, next_t - time.monotonic()))
        self.seconds = time.monotonic() - start

    def start(self) -> "Streamer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5.0)


NODE_FIGURES = ("staged_frames", "commits", "last_commit_ms", "graphs_published", "last_publish_ms", "dropped")


def run(args) -> int:
    import rclpy

    proc = subprocess.Popen(node_command(args.store, commit_rate=args.commit_rate,
                                         publish_interval=args.publish_interval, label_encoder=args.label_encoder))
    rclpy.init()
    client = ServiceClient(args.objects)
    streamer = None
    try:
        missing = client.wait()
        if missing is not None:
            print(f"service {missing} not available", file=sys.stderr)
            return 1
        rng_frames = np.random.default_rng(1)

        def frame(i: int):  # a few random cells re-observed, one world clock from T0 + 100
            return T0 + 100.0 + i / args.rate, sorted({int(c) for c in rng_frames.integers(0, args.objects // 2,
                                                                                             size=5)})

        streamer = Streamer(client.pub, args.rate, frame).start()
        time.sleep(args.warmup)
        rng = np.random.default_rng(2)
        print(f"{'service':<18} {'calls':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}  errors")
        for name in SERVICES:
            if name in args.skip:
                continue
            lat, errors = [], 0
            for i in range(args.calls):
                _, request = requests(name, i, args.objects, rng, T0 + 100.0 + streamer.published / args.rate)
                ms, ok = client.call(name, request)
                lat.append(ms)
                errors += not ok
            p50, p95 = np.percentile(lat, 50), np.percentile(lat, 95)
            print(f"{name:<18} {len(lat):>5} {p50:>8.1f} {p95:>8.1f} {max(lat):>8.1f}  {errors}", flush=True)
        read_whole_scene(client.clients["scene_as_of"], args.objects)
        print(f"observation frames published during the run: {streamer.published} at {args.rate:g} Hz")
        values = client.node_values()
        if values:  # what the node did meanwhile, as it reports it
            print("node: " + ", ".join(f"{k} {values.get(k, '?')}" for k in NODE_FIGURES))
    finally:
        if streamer is not None:
            streamer.stop()
        client.close()
        rclpy.try_shutdown()
        stop_node(proc)
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--objects", type=int, default=10000)
    p.add_argument("--calls", type=int, default=200, help="calls per service")
    p.add_argument("--rate", type=float, default=10.0, help="observation frames per second")
    p.add_argument("--commit-rate", type=float, default=2.0, help="node commit_rate_hz")
    p.add_argument("--publish-interval", type=float, default=0.0, help="node publish_min_interval_s")
    p.add_argument("--warmup", type=float, default=3.0, help="seconds of streaming before measuring")
    p.add_argument("--label-encoder", default="none", choices=("none", "minilm", "hashing"),
                   help="node label_encoder (semantic_query embeds the question with it)")
    p.add_argument(
        "--store",
        default=None,
        help="pristine store (built there once if missing); each run "
        "works on a copy, so runs start from the same state",
    )
    p.add_argument("--skip", nargs="*", default=[], choices=SERVICES)
    args = p.parse_args(argv)
    args.store = args.store or f"/tmp/tempomem_bench_{args.objects}.db"
    have = store_objects(args.store)
    if have < args.objects:
        if os.path.exists(args.store):
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(args.store + suffix):
                    os.remove(args.store + suffix)
        print(f"building a store of {args.objects} objects (cached at {args.store}) ...", flush=True)
        build_store(args.store, args.objects)
    else:
        print(f"store: {have} present objects in {args.store} (cached; delete it to rebuild)")
    work = args.store + ".run.db"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(work + suffix):
            os.remove(work + suffix)
    shutil.copyfile(args.store, work)
    args.store = work
    return run(args)


if __name__ == "__main__":
    raise SystemExit(main())
