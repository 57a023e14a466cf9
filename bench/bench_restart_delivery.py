"""Which frames reach a memory_node restarted while a publisher keeps streaming, and why the others do not.

Run: .venv/bin/python bench/bench_restart_delivery.py [--restarts 3] [--signal KILL|INT] [--rate 10]
     [--durability volatile|transient_local]

A publisher process streams ObservationArray frames at --rate Hz (frame n is stamped 1000 + n / rate, so
the store says which frames arrived) with the perception node's QoS (reliable, keep last 10, volatile).
A memory_node process is killed with --signal and started again, --restarts times. Per restart the script
prints, on one time axis (seconds after the signal): the new node's "active" log line (its subscription
exists), the moment the publisher's matched-subscription count changed (what discovery told it), and the
first frame the new node staged (its publish time); then how many frames were lost while the node was down,
before it was active, and after it was active (not yet discovered by the publisher: lost to discovery).
With --durability transient_local both sides use TRANSIENT_LOCAL with depth 50 (what README recommends).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE_STAMP = 1000.0


# ------------------------------------------------------------------------------------------------ publisher
def run_publisher(rate: float, log_path: str, durability: str, duration: float) -> int:
    import rclpy
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

    from tempomem_ros import topics
    from tempomem_ros.msg import Observation, ObservationArray

    rclpy.init()
    node = rclpy.create_node("restart_publisher")
    qos = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=10 if durability == "volatile" else 50,
                     reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.VOLATILE if durability == "volatile"
                     else DurabilityPolicy.TRANSIENT_LOCAL)
    pub = node.create_publisher(ObservationArray, topics.OBSERVATIONS, qos)
    log = open(log_path, "w", buffering=1)
    state = {"n": 0, "count": -1, "t0": time.time()}

    def tick():
        now = time.time()
        poll_matched()
        n = state["n"]
        msg = ObservationArray()
        stamp = BASE_STAMP + n / rate
        msg.header.stamp.sec, msg.header.stamp.nanosec = int(stamp), int(round((stamp % 1) * 1e9)) % 1_000_000_000
        msg.header.frame_id = "map"
        o = Observation(label="mug", confidence=0.9, n_points=100)
        o.center.x, o.center.y, o.center.z = 1.0, 0.0, 0.5
        o.bbox_min.x, o.bbox_min.y, o.bbox_min.z = 0.96, -0.04, 0.45
        o.bbox_max.x, o.bbox_max.y, o.bbox_max.z = 1.04, 0.04, 0.55
        msg.observations = [o]
        pub.publish(msg)
        log.write(json.dumps({"event": "published", "t": now, "n": n}) + "\n")
        state["n"] = n + 1
        if now - state["t0"] > duration:
            raise SystemExit(0)

    def poll_matched():  # between frames too: 20 ms resolution
        count = pub.get_subscription_count()
        if count != state["count"]:
            log.write(json.dumps({"event": "matched", "t": time.time(), "count": count}) + "\n")
            state["count"] = count

    node.create_timer(1.0 / rate, tick)
    node.create_timer(0.02, poll_matched)

    try:
        rclpy.spin(node)
    except SystemExit:
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    return 0


# -------------------------------------------------------------------------------------------------- driver
def start_node(store: str, log, durability: str) -> subprocess.Popen:
    cmd = [sys.executable, "-u", "-m", "tempomem_ros.nodes.memory_node", "--ros-args", "-p", f"store_path:={store}",
           "-p", "commit_rate_hz:=10.0"]
    if durability != "volatile":
        cmd += ["-p", f"observation_durability:={durability}"]
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)


def active_time(log_path: str, after: float) -> float | None:
    """Wall time of the first "active:" log line after ``after`` (rclpy prints [INFO] [<epoch>] ...)."""
    with open(log_path) as f:
        for line in f:
            if "active: subscribed" in line:
                t = float(line.split("[")[2].split("]")[0])
                if t > after:
                    return t
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--restarts", type=int, default=3)
    ap.add_argument("--signal", choices=("KILL", "INT", "TERM"), default="KILL")
    ap.add_argument("--rate", type=float, default=10.0)
    ap.add_argument("--durability", choices=("volatile", "transient_local"), default="volatile")
    ap.add_argument("--down-s", type=float, default=0.5, help="seconds between the signal and the restart")
    ap.add_argument("--up-s", type=float, default=12.0, help="seconds each node runs")
    ap.add_argument("--publisher", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--log", help=argparse.SUPPRESS)
    ap.add_argument("--duration", type=float, default=0.0, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.publisher:
        return run_publisher(args.rate, args.log, args.durability, args.duration)

    from tempomem_ros.core import Memory

    tmp = tempfile.mkdtemp(prefix="restart_")
    store, pub_log, node_log_path = (os.path.join(tmp, n) for n in ("m.db", "pub.jsonl", "node.log"))
    node_log = open(node_log_path, "w")
    total = args.up_s * (args.restarts + 1) + args.down_s * args.restarts + 6.0
    node = start_node(store, node_log, args.durability)
    time.sleep(3.0)  # the first node is up before the stream starts
    pub = subprocess.Popen([sys.executable, "-u", os.path.abspath(__file__), "--publisher", "--log", pub_log,
                            "--rate", str(args.rate), "--durability", args.durability, "--duration", str(total)],
                           cwd=ROOT)
    signals = []
    try:
        time.sleep(args.up_s)
        for _ in range(args.restarts):
            t_signal = time.time()
            node.send_signal(getattr(signal, f"SIG{args.signal}"))
            node.wait(timeout=30)
            time.sleep(args.down_s)
            t_start = time.time()
            node = start_node(store, node_log, args.durability)
            signals.append((t_signal, t_start))
            time.sleep(args.up_s)
    finally:
        t_end = time.time()
        node.send_signal(signal.SIGINT)
        node.wait(timeout=30)
        pub.wait(timeout=60)
        node_log.close()
    events = [json.loads(line) for line in open(pub_log)]
    published = {e["n"]: e["t"] for e in events if e["event"] == "published"}
    matched = [(e["t"], e["count"]) for e in events if e["event"] == "matched"]
    with Memory.open(store, readonly=True) as m:
        stamps = [r.stamp for r in m.observations()]
    received = {round((s - BASE_STAMP) * args.rate) for s in stamps}
    print(f"signal SIG{args.signal}, {args.rate:g} Hz, durability {args.durability}, {args.restarts} restarts, "
          f"{len(published)} frames published, {len(received)} staged")
    for i, (t_signal, t_start) in enumerate(signals):
        t_active = active_time(node_log_path, t_start)
        t_next = signals[i + 1][0] if i + 1 < len(signals) else t_end
        window = [n for n, t in published.items() if t_start <= t < t_next]
        changes = [(round(t - t_signal, 2), c) for t, c in matched if t_signal - 0.05 <= t <= t_signal + args.up_s]
        got = [n for n in window if n in received]
        first = min(got) if got else None
        t_first = published[first] if first is not None else None
        lost_down = [n for n, t in published.items() if t_signal <= t < t_start and n not in received]
        lost_before_active = [n for n in window if n not in received and t_active and published[n] < t_active]
        lost_after_active = [n for n in window if n not in received and t_active and published[n] >= t_active]

        def rel(t, t_signal=t_signal):
            return None if t is None else round(t - t_signal, 2)

        print(f"restart {i + 1}: started +{rel(t_start)} s, active +{rel(t_active)} s, first frame staged "
              f"+{rel(t_first)} s; publisher's matched count (s after signal, count): {changes}")
        print(f"  frames published while down: {len(lost_down)} lost of "
              f"{sum(1 for t in published.values() if t_signal <= t < t_start)}; after the restart: "
              f"{len(lost_before_active)} lost before the node was active, {len(lost_after_active)} lost after "
              f"it was active, {len(got)} staged")
    print(f"logs: {tmp}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
