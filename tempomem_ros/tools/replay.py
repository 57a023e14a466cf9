"""``tempomem_replay``: play a ROS 2 bag into live topics, without rosbag2.

Why a tool of our own: ``ros2 bag play`` is not installable here, and the evaluation wants to run the
nodes and the player in one process (deterministic, no second DDS participant to discover). The bag is
read with ``rosbags`` and every message is published as the raw CDR bytes stored in the bag, so nothing
is decoded or re-encoded on the way: what a subscriber receives is byte-for-byte what was recorded.

Timing follows the bag's receive timestamps divided by ``rate``; ``rate=0`` (``--fast``) publishes as
fast as possible with a small configurable gap so that reliable subscribers can keep up.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tempomem_ros.core.errors import TempoMemError
from tempomem_ros.tools import bagio

CLOCK_TOPIC = "/clock"
CLOCK_TYPE = "rosgraph_msgs/msg/Clock"
DEFAULT_GAP_S = 0.002
EXIT_OK, EXIT_ERROR, EXIT_INTERRUPTED = 0, 1, 130


class ReplayError(TempoMemError):
    """The replay cannot start: bad options, a type rclpy cannot import, an unreadable bag."""


@dataclass
class ReplayStats:
    published: int = 0
    per_topic: dict = field(default_factory=dict)   # published topic name -> count
    bag_start_ns: int = 0
    bag_end_ns: int = 0
    first_ns: int | None = None                      # bag time of the first message played
    last_ns: int | None = None                       # bag time of the last message played
    wall_s: float = 0.0
    subscribers_ready: bool = True                   # False when --wait-subscribers timed out
    stopped: bool = False                            # True when the stop event ended the replay early


def resolve_type(msgtype: str):
    """The rclpy message class of a type string such as ``sensor_msgs/msg/Image``."""
    try:
        pkg, kind, name = bagio.normalize_type(msgtype).split("/")
    except bagio.BagError as exc:
        raise ReplayError(str(exc)) from None
    try:
        module = importlib.import_module(f"{pkg}.{kind}")
    except ImportError as exc:
        raise ReplayError(f"cannot import the Python interfaces of {msgtype} ({pkg}.{kind}): {exc}") from None
    try:
        return getattr(module, name)
    except AttributeError:
        raise ReplayError(f"{pkg}.{kind} has no message {name!r} (needed for {msgtype})") from None


def parse_remaps(items: Iterable[str]) -> dict[str, str]:
    """``a:=b`` pairs to a dict; both names are made absolute so they match bag topics."""
    remap: dict[str, str] = {}
    for item in items:
        if ":=" not in item:
            raise ReplayError(f"remap {item!r} is not of the form from:=to")
        src, dst = (s.strip() for s in item.split(":=", 1))
        if not src or not dst:
            raise ReplayError(f"remap {item!r} has an empty side")
        remap[_absolute(src)] = _absolute(dst)
    return remap


def _absolute(name: str) -> str:
    return name if name.startswith("/") else "/" + name


def make_qos(reliability: str, depth: int):
    from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

    policies = {"reliable": ReliabilityPolicy.RELIABLE, "best_effort": ReliabilityPolicy.BEST_EFFORT}
    if reliability not in policies:
        raise ReplayError(f"unknown QoS reliability {reliability!r}; use reliable or best_effort")
    if int(depth) < 1:
        raise ReplayError(f"QoS depth must be >= 1, got {depth}")
    return QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=int(depth), reliability=policies[reliability],
                      durability=DurabilityPolicy.VOLATILE)


class ProgressLine:
    """A single stderr line rewritten in place with ``\\r``; at most ``hz`` updates a second."""

    def __init__(self, stream=None, hz: float = 5.0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.period = 1.0 / hz
        self._last = -1e9
        self._width = 0

    def __call__(self, count: int, bag_elapsed_s: float, bag_total_s: float, final: bool = False) -> None:
        now = time.monotonic()
        if not final and now - self._last < self.period:
            return
        self._last = now
        pct = 100.0 * bag_elapsed_s / bag_total_s if bag_total_s > 0 else 100.0
        text = f"[replay] {count} msgs  {bag_elapsed_s:8.2f}/{bag_total_s:.2f} s  ({pct:5.1f}%)"
        pad = max(0, self._width - len(text))
        self._width = len(text)
        self.stream.write("\r" + text + " " * pad + ("\n" if final else ""))
        self.stream.flush()


def replay_bag(path: str | Path, node, rate: float = 1.0, *, topics: Iterable[str] | None = None,
               remap: Mapping[str, str] | None = None, start_offset: float = 0.0, clock: bool = False,
               clock_hz: float = 40.0, qos: str = "reliable", depth: int = 100,
               wait_subscribers: float = 0.0, gap: float = DEFAULT_GAP_S, max_wait: float | None = None,
               ack_timeout: float = 2.0,
               spin: Callable[[float], None] | None = None, progress: Callable | None = None,
               stop: threading.Event | None = None,
               before_publish: Callable[[str], None] | None = None) -> ReplayStats:
    """Publish a bag's messages on ``node`` (an rclpy Node) and return what was played.

    rate: speed factor (1 = real time); 0 = as fast as possible with ``gap`` seconds between messages.
    topics: bag topics to play (default all); remap: bag topic -> published topic.
    start_offset: seconds of bag time to skip from the start. clock: also publish rosgraph_msgs/Clock
    with the bag time (before each message and at ``clock_hz`` while waiting).
    wait_subscribers: seconds to wait until every publisher has a subscriber (0 = do not wait).
    max_wait: with rate > 0, the longest wall-clock wait between two messages; longer silences in the
    bag (the minutes between two visits of a generated scene) are cut short. Stamps are unchanged.
    ack_timeout: with reliable QoS, how long to wait at the end for subscribers to acknowledge.
    spin: called with a timeout instead of sleeping, e.g. ``executor.spin_once``, so that subscribers in
    the same thread keep receiving while the replay waits. stop: an Event that ends the replay early.
    before_publish: called with the bag topic before each of its messages is published; it may block (flow
    control: tools/evaluation/pipeline.py waits there until the subscriber has room) or raise to end the replay.
    """
    if rate < 0:
        raise ReplayError(f"rate must be >= 0 (0 = as fast as possible), got {rate}")
    if start_offset < 0:
        raise ReplayError(f"start offset must be >= 0 s, got {start_offset}")
    if gap < 0:
        raise ReplayError(f"gap must be >= 0 s, got {gap}")
    if max_wait is not None and max_wait < 0:
        raise ReplayError(f"max wait must be >= 0 s, got {max_wait}")
    if clock and clock_hz <= 0:
        raise ReplayError(f"clock rate must be > 0 Hz, got {clock_hz}")
    remap = dict(remap or {})
    profile = make_qos(qos, depth)
    try:
        summary = bagio.read_connections(path)
        bag_start, bag_end = bagio.bag_time_range(path)
    except bagio.BagError as exc:
        raise ReplayError(str(exc)) from None
    types_by_topic = {s.topic: s.msgtype for s in summary}
    wanted = list(types_by_topic) if topics is None else [_absolute(t) for t in topics]
    missing = [t for t in wanted if t not in types_by_topic]
    if missing:
        raise ReplayError(f"bag {path} has no topic(s) {missing}; it has {sorted(types_by_topic)}")
    unknown_remaps = sorted(set(remap) - set(types_by_topic))
    if unknown_remaps:
        raise ReplayError(f"remapped topic(s) {unknown_remaps} are not in the bag")

    publishers = {}
    for topic in wanted:
        publishers[topic] = node.create_publisher(resolve_type(types_by_topic[topic]), remap.get(topic, topic),
                                                  profile)
    clock_pub = node.create_publisher(resolve_type(CLOCK_TYPE), CLOCK_TOPIC, make_qos("reliable", 10)) \
        if clock else None
    clock_cls = resolve_type(CLOCK_TYPE) if clock else None

    stats = ReplayStats(bag_start_ns=bag_start, bag_end_ns=bag_end)
    wait = _Waiter(spin, stop)
    if wait_subscribers > 0:
        deadline = time.monotonic() + wait_subscribers
        while not all(p.get_subscription_count() > 0 for p in publishers.values()):
            if time.monotonic() >= deadline or not wait.until(min(deadline, time.monotonic() + 0.05)):
                stats.subscribers_ready = all(p.get_subscription_count() > 0 for p in publishers.values())
                break

    def publish_clock(bag_ns: int) -> None:
        from builtin_interfaces.msg import Time

        clock_pub.publish(clock_cls(clock=Time(sec=bag_ns // 1_000_000_000, nanosec=bag_ns % 1_000_000_000)))

    start_ns = bag_start + int(round(start_offset * 1e9))
    total_s = max(0.0, (bag_end - start_ns) / 1e9)
    t_wall0 = time.monotonic()
    first_ns = None
    prev_ns = None
    skipped_s = 0.0   # wall time cut out of long silences (max_wait)
    completed = False
    try:
        for msg in bagio.iter_messages(path, wanted, start_ns=start_ns):
            if first_ns is None:
                first_ns = prev_ns = msg.timestamp_ns
            if rate > 0:
                silence = (msg.timestamp_ns - prev_ns) / 1e9 / rate
                if max_wait is not None and silence > max_wait:
                    skipped_s += silence - max_wait
                prev_ns = msg.timestamp_ns
                target = t_wall0 + (msg.timestamp_ns - first_ns) / 1e9 / rate - skipped_s
                if clock:
                    while time.monotonic() < target:
                        now = time.monotonic()
                        bag_now = first_ns + int((now - t_wall0 + skipped_s) * rate * 1e9)
                        publish_clock(min(bag_now, msg.timestamp_ns))
                        if not wait.until(min(target, now + 1.0 / clock_hz)):
                            break
                if not wait.until(target):
                    stats.stopped = True
                    break
            elif stats.published and gap > 0 and not wait.until(time.monotonic() + gap):
                stats.stopped = True
                break
            if clock:
                publish_clock(msg.timestamp_ns)
            if before_publish is not None:
                before_publish(msg.topic)
            publishers[msg.topic].publish(msg.rawdata)
            out_topic = remap.get(msg.topic, msg.topic)
            stats.per_topic[out_topic] = stats.per_topic.get(out_topic, 0) + 1
            stats.published += 1
            stats.first_ns = first_ns
            stats.last_ns = msg.timestamp_ns
            if progress is not None:
                progress(stats.published, (msg.timestamp_ns - start_ns) / 1e9, total_s)
        completed = not stats.stopped
    except bagio.BagError as exc:
        raise ReplayError(str(exc)) from None
    finally:
        stats.wall_s = time.monotonic() - t_wall0
        if qos == "reliable" and completed:
            # destroying a writer drops samples not yet acknowledged: let subscribers confirm the tail
            from rclpy.duration import Duration

            for pub in publishers.values():
                pub.wait_for_all_acked(Duration(seconds=ack_timeout))
        for pub in publishers.values():
            node.destroy_publisher(pub)
        if clock_pub is not None:
            node.destroy_publisher(clock_pub)
    if progress is not None:
        done_s = (stats.last_ns - start_ns) / 1e9 if stats.last_ns is not None else 0.0
        progress(stats.published, done_s, total_s, final=True)
    return stats


class _Waiter:
    """Waits until a monotonic deadline by spinning or sleeping; False when the stop event is set."""

    def __init__(self, spin: Callable[[float], None] | None, stop: threading.Event | None) -> None:
        self.spin = spin
        self.stop = stop

    def until(self, deadline: float) -> bool:
        while True:
            if self.stop is not None and self.stop.is_set():
                return False
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return True
            step = min(remaining, 0.05)
            if self.spin is not None:
                self.spin(step)
            else:
                time.sleep(step)


# ------------------------------------------------------------------------------------------------ CLI


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tempomem_replay",
                                description="Play a ROS 2 bag (sqlite3 or mcap) into live topics.")
    p.add_argument("bag", help="rosbag2 directory (contains metadata.yaml)")
    p.add_argument("--rate", type=float, default=1.0, help="speed factor; 0 = as fast as possible (default 1)")
    p.add_argument("--fast", action="store_true", help="as fast as possible (same as --rate 0)")
    p.add_argument("--gap", type=float, default=DEFAULT_GAP_S,
                   help=f"seconds between messages when fast (default {DEFAULT_GAP_S})")
    p.add_argument("--max-wait", type=float, default=None, metavar="SECONDS",
                   help="cut wall-clock waits between messages to at most this (skips long silences)")
    p.add_argument("--clock", action="store_true", help="publish /clock from bag time")
    p.add_argument("--clock-hz", type=float, default=40.0, help="/clock rate while waiting (default 40)")
    p.add_argument("--start-offset", type=float, default=0.0, help="skip this many seconds of bag time")
    p.add_argument("--topics", nargs="+", default=None, metavar="TOPIC", help="play only these bag topics")
    p.add_argument("--remap", nargs="+", default=[], metavar="FROM:=TO", help="publish bag topic FROM as TO")
    p.add_argument("--qos", choices=("reliable", "best_effort"), default="reliable")
    p.add_argument("--depth", type=int, default=100, help="publisher history depth (default 100)")
    p.add_argument("--wait-subscribers", type=float, default=0.0, metavar="SECONDS",
                   help="wait up to this long for every topic to have a subscriber")
    p.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    return p


def main(argv: list[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    ros_args: list[str] = []
    if "--ros-args" in args_in:
        cut = args_in.index("--ros-args")
        args_in, ros_args = args_in[:cut], args_in[cut:]
    args = build_parser().parse_args(args_in)
    rate = 0.0 if args.fast else args.rate
    try:
        remap = parse_remaps(args.remap)
    except ReplayError as exc:
        print(f"tempomem_replay: {exc}", file=sys.stderr)
        return EXIT_ERROR

    import rclpy
    from rclpy.signals import SignalHandlerOptions

    # Python's own SIGINT handling: Ctrl-C raises KeyboardInterrupt wherever the replay waits, and the
    # node is torn down below instead of rclpy shutting the context under our feet.
    context = rclpy.Context()
    rclpy.init(args=["tempomem_replay", *ros_args], context=context,
               signal_handler_options=SignalHandlerOptions.NO)
    node = None
    progress = None if args.no_progress else ProgressLine()
    try:
        node = rclpy.create_node("tempomem_replay", context=context)
        stats = replay_bag(args.bag, node, rate, topics=args.topics, remap=remap, start_offset=args.start_offset,
                           clock=args.clock, clock_hz=args.clock_hz, qos=args.qos, depth=args.depth,
                           wait_subscribers=args.wait_subscribers, gap=args.gap, max_wait=args.max_wait,
                           progress=progress)
        if not stats.subscribers_ready:
            print("tempomem_replay: warning: not every topic had a subscriber when playback started",
                  file=sys.stderr)
        return EXIT_OK
    except KeyboardInterrupt:
        if progress is not None:
            sys.stderr.write("\n")
        print("tempomem_replay: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except TempoMemError as exc:
        print(f"tempomem_replay: {exc}", file=sys.stderr)
        return EXIT_ERROR
    finally:
        try:
            if node is not None:
                node.destroy_node()
            context.try_shutdown()
        except KeyboardInterrupt:  # a second Ctrl-C during teardown must not print a traceback either
            pass


if __name__ == "__main__":
    sys.exit(main())
