"""Hostile input through the memory node's topic and every service field (issue 12), and storage failures
while it runs. Each refusal is asserted exactly (the drop reason counted in /diagnostics, or the service's
error naming the field), never an "internal error", and the stored scene is asserted unchanged.
"""

from __future__ import annotations

import math
import os
import threading

os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")

import pytest  # noqa: E402

rclpy = pytest.importorskip("rclpy")

from builtin_interfaces.msg import Time  # noqa: E402
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus  # noqa: E402
from geometry_msgs.msg import Point  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy  # noqa: E402
from node_helpers import A, Talks, frame, mug_msg, obs_msg, table_msg, wait_for  # noqa: E402

from tempomem_ros import srv, topics  # noqa: E402
from tempomem_ros.msg import ObservationArray  # noqa: E402
from tempomem_ros.nodes import conversions as conv  # noqa: E402
from tempomem_ros.nodes.executor import BoundedMultiThreadedExecutor  # noqa: E402
from tempomem_ros.nodes.memory_node import MemoryNode  # noqa: E402

BIG = 2**63          # one beyond SQLite's largest id
UINT64_MAX = 2**64 - 1


class Node(Talks):
    """A memory node and a tester in one context, spun in a background thread."""

    def __init__(self, store: str, durability: str = "volatile", name: str = "memory_node", **params) -> None:
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        try:
            self._start(store, durability, name, params)
        except BaseException:
            self.close()  # a failed start leaves no node, thread or context behind
            raise

    def _start(self, store: str, durability: str, name: str, params: dict) -> None:
        overrides = [Parameter("store_path", value=store), Parameter("commit_rate_hz", value=20.0),
                     Parameter("diagnostics_rate_hz", value=20.0),
                     Parameter("observation_durability", value=durability)]
        overrides += [Parameter(k, value=v) for k, v in params.items()]
        self.node = MemoryNode(name, context=self.context, parameter_overrides=overrides)
        assert self.node.autostart_ok
        self.tester = rclpy.create_node(f"{name}_tester", context=self.context)
        self.diagnostics: list[DiagnosticArray] = []
        # /diagnostics is shared by every node of the domain: keep this node's own (its store is unique).
        self.tester.create_subscription(
            DiagnosticArray, "/diagnostics",
            lambda m: self.diagnostics.append(m) if m.status and m.status[0].hardware_id == store else None, 10)
        qos = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL if durability == "transient_local"
                         else DurabilityPolicy.VOLATILE)
        self.pub = self.tester.create_publisher(ObservationArray, topics.OBSERVATIONS, qos)
        self.executor = BoundedMultiThreadedExecutor(num_threads=4, context=self.context)
        self.executor.add_node(self.node)
        self.executor.add_node(self.tester)
        self.thread = threading.Thread(target=self.executor.spin, name="tempomem_test_spin", daemon=True)
        self.thread.start()
        self.clients: dict = {}
        assert wait_for(lambda: self.pub.get_subscription_count() > 0), "the node did not subscribe within 15 s"

    def values(self, after: int = 0) -> tuple[int, str, dict]:
        """(level, message, key -> value) of a diagnostics message published after ``after`` were seen."""
        assert wait_for(lambda: len(self.diagnostics) > after + 1)
        status = self.diagnostics[-1].status[0]
        return status.level, status.message, {kv.key: kv.value for kv in status.values}

    def scene(self):
        """What the store says, through the services: objects and placements now, and the newest stamp."""
        now = self.call("scene_as_of", srv.SceneAsOf, time=conv.to_time(1e6), k=1000)
        past = self.call("scene_as_of", srv.SceneAsOf, time=conv.to_time(11.0), k=1000)
        return ([(o.id, o.label, conv.from_point(o.center), conv.from_point(o.bbox_min), conv.from_point(o.bbox_max))
                 for o in now.objects],
                [(p.object_id, conv.from_point(p.center), conv.from_point(p.bbox_min)) for p in past.placements],
                self.node.writer.latest_stamp())


def story(h: Node) -> None:
    h.publish([frame(10.0 + i, [mug_msg(A), table_msg()], A, 2.1) for i in range(3)])


# ----------------------------------------------------------------------- tests with a node of their own
# They run before the module's shared node (the "hostile" fixture, set up at its first use) exists: two
# memory nodes in one domain would both serve /tempomem/*, and a client could reach the other one.
def test_define_region_echoes_no_control_characters(tmp_path):
    h = Node(str(tmp_path / "m.db"), name="memory_node_region")
    try:
        r = h.call("define_region", srv.DefineRegion, label="kit\x1b[31mchen\x07\n", bbox_min=Point(),
                   bbox_max=Point(x=1.0, y=1.0, z=1.0))
        assert (r.success, r.message) == (True, "defined region #1 (kit [31mchen)")
        story(h)
        f = h.call("forget", srv.Forget, object_id=1, reason="because\x1b[2J\x07 reasons")
        assert (f.success, f.message) == (True, "forgot object #1 (mug): because [2J reasons")
    finally:
        h.close()


# ------------------------------------------------------------------------------------------ storage failures
def crowd(stamp: float):
    """60 new objects: fusing them needs new pages."""
    from core_helpers import box_obs
    return [box_obs(f"thing{j}", (0.5 * j, 8.0, 0.5), stamp=stamp) for j in range(60)]


def fill_disk(writer) -> None:
    """A full disk, as SQLite reports it: no page beyond the current size (max_page_count), and the free
    pages the file already has (fused frames' depth images are freed) used up by a scratch table."""
    with writer._lock:
        con = writer._conn
        con.execute("CREATE TABLE IF NOT EXISTS scratch (b BLOB)")
        con.execute("PRAGMA max_page_count=" + str(con.execute("PRAGMA page_count").fetchone()[0]))
        for size in (4096, 512, 64):
            try:
                while True:
                    con.execute("INSERT INTO scratch VALUES (zeroblob(?))", (size,))
            except Exception:  # noqa: BLE001 - SQLITE_FULL: exactly the point
                pass


def free_disk(writer) -> None:
    with writer._lock:
        writer._conn.execute("PRAGMA max_page_count=4294967294")
        writer._conn.execute("DROP TABLE scratch")


def test_a_full_disk_keeps_the_node_running_and_it_resumes(tmp_path):
    h = Node(str(tmp_path / "m.db"), name="memory_node_full")
    try:
        story(h)
        before = h.scene()
        writer = h.node.writer
        fill_disk(writer)
        target = h.node.counters.handled + 5
        for i in range(5):
            h.pub.publish(frame(40.0 + i, [mug_msg((2.0, 1.0 + 0.3 * i, 0.8))], A, 2.1))
        assert wait_for(lambda: h.node.counters.handled >= target)
        assert wait_for(lambda: len(h.node._retry) > 0)
        level, message, values = h.values(len(h.diagnostics))
        assert level == DiagnosticStatus.ERROR and message.startswith("store full: ")
        assert values["store_state"] == "full" and "(database or disk is full)" in values["store_error"]
        with h.node._commits_paused():  # a frame staged but not fused: forget must fuse it first
            free_disk(writer)
            writer.add(crowd(45.0), stamp=45.0)
            fill_disk(writer)
            forget = h.call("forget", srv.Forget, object_id=1, reason="x")
        assert (forget.success, forget.message) == (
            False, "forget failed: the disk is full (database or disk is full)")
        assert h.call("query", srv.Query, question="where is the table").error == ""  # reads still work
        assert h.scene()[:2] == before[:2]
        free_disk(writer)
        assert wait_for(lambda: len(h.node._retry) == 0 and writer.pending() == 0)
        assert wait_for(lambda: h.values(len(h.diagnostics))[2]["store_state"] == "ok")
        level, _, values = h.values(len(h.diagnostics))
        assert level == DiagnosticStatus.OK and values["retried"] != "0"
        assert h.node.counters.dropped == {} and writer.latest_stamp() == 45.0
        assert h.node.counters.staged_frames == 8
    finally:
        h.close()


def test_closing_on_a_full_disk_logs_instead_of_raising(tmp_path):
    h = Node(str(tmp_path / "m.db"), name="memory_node_close")
    try:
        story(h)
        writer = h.node.writer
        h.executor.shutdown()
        h.thread.join(timeout=10.0)
        for i in range(5):
            writer.add(crowd(50.0 + i), stamp=50.0 + i)
        fill_disk(writer)
        h.node.close_store()  # must not raise
        assert h.node.writer is None and h.node.counters.last_error.startswith("close: close failed: the disk")
    finally:
        h.context.try_shutdown()
        h.node.destroy_node()
        h.tester.destroy_node()


# ------------------------------------------------------------------------------------- restarts (item 7)
def test_transient_local_observations_survive_a_restart_without_duplicates(tmp_path):
    """With observation_durability transient_local the node receives what a transient-local publisher kept
    (here: frames published before the node existed); a restarted node gets them again and skips them."""
    store = str(tmp_path / "m.db")
    context = rclpy.Context()
    rclpy.init(context=context)
    publisher = rclpy.create_node("early_publisher", context=context)
    qos = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)
    pub = publisher.create_publisher(ObservationArray, topics.OBSERVATIONS, qos)
    for i in range(4):
        pub.publish(frame(10.0 + i, [mug_msg(A)], A, 2.1))
    try:
        for run in range(2):
            h = Node(store, durability="transient_local", name=f"memory_node_tl{run}")
            try:
                assert wait_for(lambda: h.node.counters.handled >= 4)
                assert wait_for(lambda: h.node.writer.pending() == 0)
                assert h.node.writer.frame_counts()["fused"] == 4
                assert h.node.counters.dropped == ({} if run == 0 else {"duplicate": 4})
            finally:
                h.close()
    finally:
        publisher.destroy_node()
        context.try_shutdown()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """One node: the story, then every hostile frame and request; results recorded for the tests below."""
    h = Node(str(tmp_path_factory.mktemp("hostile") / "m.db"))
    r: dict = {}
    try:
        story(h)
        r["before"] = h.scene()
        frames = {}
        m = frame(20.0, [obs_msg("mug", (-1e30, -1e30, -1e30), (1e30, 1e30, 1e30))], A, 2.1)
        frames["1e30 box"] = m
        m = frame(21.0, [mug_msg(A)], A, 2.1)
        o = m.observations[0]
        o.center.x = o.bbox_min.x = o.bbox_max.x = 1e300
        frames["1e300 centre"] = m
        frames["15 m box"] = frame(22.0, [obs_msg("mug", (-6.0, -7.0, 0.0), (9.0, 8.0, 1.0))], A, 2.1)
        m = frame(23.0, [mug_msg(A)], A, 2.1)
        m.header.stamp = Time(sec=2**31 - 1)
        frames["2038"] = m
        m = frame(24.0, [mug_msg(A)], A, 2.1)
        m.header.stamp = Time(sec=24, nanosec=4_000_000_000)
        frames["nanosec 4e9"] = m
        frames["1001 observations"] = frame(25.0, [mug_msg((0.01 * i, 3.0, 0.5)) for i in range(1001)], A, 2.1)
        m = frame(26.0, [mug_msg(A)], A, 2.1)
        m.observations[0].feature = [1e20] * 32
        frames["feature overflow"] = m
        m = frame(27.0, [mug_msg(A)], A, 2.1)
        m.observations[0].feature = [1.0] * 7
        frames["feature size"] = m
        m = frame(28.0, [mug_msg(A)], A, 2.1)
        m.view.fx = m.view.fy = 1e-300
        frames["fx 1e-300"] = m
        m = frame(29.0, [mug_msg(A)], A, 2.1)
        m.view.pose.position.x = 1e30
        frames["camera off the map"] = m
        n_diag = len(h.diagnostics)
        h.publish(list(frames.values()))
        r["dropped"] = dict(h.node.counters.dropped)
        r["after_frames"] = h.scene()
        r["diag"] = h.values(len(h.diagnostics))
        r["diag_count_before"] = n_diag
        # a day ahead of "now": quarantined, then the old timeline continues and it is refused
        h.publish([frame(86_400.0, [obs_msg("mug", (0.0, -4.0, 0.0), (8.0, 4.0, 1.0))], A, 2.1)])
        r["quarantined_now"] = h.node.writer.quarantined()
        r["latest_while_quarantined"] = h.node.writer.latest_stamp()
        h.publish([frame(13.0, [mug_msg(A), table_msg()], A, 2.1)])
        r["after_quarantine"] = h.scene()
        r["counters"] = h.node.counters
        r["frame_counts"] = h.node.writer.frame_counts()
        r["responses"] = {name: h.call(*call[:2], **call[2]) for name, call in REQUESTS.items()}
        r["after_requests"] = h.scene()
        r["valid_after"] = h.call("query", srv.Query, question="where is the mug")
        r["diag_after_requests"] = h.values(len(h.diagnostics))
    finally:
        h.close()  # before the tests read what was recorded: no node of this fixture spins beside them
    return r


def time_of(sec=0, nanosec=0):
    return Time(sec=sec, nanosec=nanosec)


Q, T, R, S = srv.Query, srv.TemporalQuery, srv.RelationalQuery, srv.SceneAsOf
# name -> (service, type, fields, expected error fragment)
REQUESTS = {
    "history 2**63": ("history", srv.History, dict(object_id=BIG), "object_id must be in 1..9223372036854775807"),
    "history uint64 max": ("history", srv.History, dict(object_id=UINT64_MAX), "object_id must be in 1.."),
    "forget 2**63": ("forget", srv.Forget, dict(object_id=BIG, reason="x"), "object_id must be in 1.."),
    "forget huge reason": ("forget", srv.Forget, dict(object_id=1, reason="r" * 1_000_000),
                           "reason is 1000000 characters long, at most 500"),
    "relational anchor_id 2**63": ("relational_query", R, dict(relation="on", anchor_id=BIG),
                                   "anchor_id must be in 1.."),
    "relational huge anchor": ("relational_query", R, dict(relation="on", anchor="t" * 5000),
                               "anchor (or anchor_id) is 5000 characters long, at most 120"),
    "relational control chars": ("relational_query", R, dict(relation="on\x1b[2J\x07" + "x" * 5000, anchor="t"),
                                 "unknown relation 'on [2J "),
    "temporal object_id 2**63": ("temporal_query", T, dict(operation="current", object_id=BIG),
                                 "object_id must be in 1.."),
    "temporal nanosec 4e9": ("temporal_query", T, dict(operation="as_of", label="mug",
                                                       time=time_of(11, 4_000_000_000)),
                             "time.nanosec must be in 0..999999999, got 4000000000"),
    "temporal huge label": ("temporal_query", T, dict(operation="current", label="m" * 200),
                            "label (or object_id) is 200 characters long, at most 120"),
    "temporal huge operation": ("temporal_query", T, dict(operation="x" * 100000, label="mug"),
                                "unknown operation 'xxxxxxxx"),
    "query year 33658": ("query", Q, dict(question="where was the mug at 1000000000000"),
                         "I only know the past and the present"),
    "query 1e20 minutes ago": ("query", Q, dict(question="where was the mug 100000000000000000000 minutes ago"),
                               "outside the times a memory can answer about"),
    "query 1 MB": ("query", Q, dict(question="find " + "x" * 1_000_000), "question is 1000005 characters long"),
    "query k": ("query", Q, dict(question="where is the mug", k=2**31 - 1), "k must be in 1..1000"),
    "semantic 1 MB": ("semantic_query", srv.SemanticQuery, dict(text="x" * 1_000_000),
                      "text is 1000000 characters long, at most 1000"),
    "semantic k": ("semantic_query", srv.SemanticQuery, dict(text="mug", k=-(2**31)), "k must be in 1..1000"),
    "spatial huge label": ("spatial_query", srv.SpatialQuery, dict(center=Point(), radius=1.0, label="l" * 121),
                           "label is 121 characters long, at most 120"),
    "spatial inf radius": ("spatial_query", srv.SpatialQuery, dict(center=Point(), radius=math.inf),
                           "radius must be a finite number > 0"),
    "spatial inf centre": ("spatial_query", srv.SpatialQuery, dict(center=Point(x=math.inf), radius=1.0),
                           "center must be finite"),
    "changes since nanosec": ("changes", srv.Changes, dict(since=time_of(1, 1_000_000_000)),
                              "since.nanosec must be in 0..999999999"),
    "changes until nanosec": ("changes", srv.Changes, dict(until=time_of(1, 4_294_967_295)),
                              "until.nanosec must be in 0..999999999"),
    "scene time nanosec": ("scene_as_of", S, dict(time=time_of(11, 2_000_000_000)),
                           "time.nanosec must be in 0..999999999"),
    "scene nan radius": ("scene_as_of", S, dict(time=time_of(11), radius=math.nan), "radius must be 0"),
    "scene k": ("scene_as_of", S, dict(time=time_of(11), k=5000), "k must be in 1..1000"),
    "check object_id 2**63": ("check", srv.Check, dict(check="moved", object_id=BIG), "object_id must be in 1.."),
    "check anchor_id 2**63": ("check", srv.Check, dict(check="on", label="mug", anchor_id=BIG),
                              "anchor_id must be in 1.."),
    "check time nanosec": ("check", srv.Check, dict(check="on", label="mug", anchor="table",
                                                    time=time_of(11, 2_000_000_000)), "time.nanosec must be in"),
    "check since nanosec": ("check", srv.Check, dict(check="seen", label="mug", since=time_of(1, 1_000_000_000)),
                            "since.nanosec must be in"),
    "check control chars": ("check", srv.Check, dict(check="\x1b[5m" + "c" * 10000, label="mug"),
                            "unknown check '[5mccc"),
    "check huge label": ("check", srv.Check, dict(check="moved", label="m" * 200),
                         "label (or object_id) is 200 characters long"),
    "relational time nanosec": ("relational_query", R, dict(relation="on", anchor="table",
                                                            time=time_of(11, 2_000_000_000)),
                                "time.nanosec must be in"),
    "temporal since nanosec": ("temporal_query", T, dict(operation="history", label="mug",
                                                         since=time_of(1, 2_000_000_000)), "since.nanosec must be in"),
    "changes huge kind": ("changes", srv.Changes, dict(kinds=["\x07" + "k" * 10000]), "unknown event kind 'kkk"),
    "region 1e30": ("define_region", srv.DefineRegion, dict(label="hall", bbox_min=Point(x=-1e30),
                                                             bbox_max=Point(x=1.0, y=1.0, z=1.0)),
                    "bbox_min (-1e+30, 0.0, 0.0) lies outside the world bound"),
    "region huge label": ("define_region", srv.DefineRegion, dict(label="k" * 121, bbox_min=Point(),
                                                                   bbox_max=Point(x=1.0, y=1.0, z=1.0)),
                          "label is 121 characters long, at most 120"),
}


def error_of(response) -> str:
    """The refusal: error (queries), message (mutations), or for a question refused by the understander its
    answer (understood = false)."""
    if hasattr(response, "understood") and not response.understood and not response.error:
        return response.answer
    return response.error if hasattr(response, "error") else ("" if response.success else response.message)


# ------------------------------------------------------------------------------------------------- topic
FRAME_REASONS = {"world_bound": 3, "extent": 1, "stamp_future": 1, "invalid": 2, "too_many_observations": 1,
                 "feature_norm": 1, "intrinsics": 1}


def test_every_hostile_frame_is_dropped_under_its_reason(hostile):
    assert hostile["dropped"] == FRAME_REASONS


def test_hostile_frames_change_nothing_stored(hostile):
    assert hostile["after_frames"] == hostile["before"]


def test_drops_by_reason_are_in_diagnostics(hostile):
    level, message, values = hostile["diag"]
    assert level == DiagnosticStatus.WARN and message == "10 message(s) dropped"
    assert {k: int(v) for k, v in values.items() if k.startswith("dropped.")} == \
        {f"dropped.{k}": v for k, v in FRAME_REASONS.items()}
    assert values["store_state"] == "ok" and values["retry_queue"] == "0"


def test_a_frame_a_day_ahead_is_quarantined_then_refused(hostile):
    assert (hostile["quarantined_now"], hostile["latest_while_quarantined"]) == (1, 12.0)
    c = hostile["counters"]
    assert (c.quarantined, c.released, c.refused) == (1, 0, 1)
    assert hostile["frame_counts"]["refused"] == 1 and hostile["frame_counts"]["quarantined"] == 0
    objects, placements, latest = hostile["after_quarantine"]
    assert latest == 13.0 and objects == hostile["before"][0] and placements == hostile["before"][1]


# ---------------------------------------------------------------------------------------------- services
@pytest.mark.parametrize("name", list(REQUESTS))
def test_every_malformed_request_gets_a_clear_error(hostile, name):
    error = error_of(hostile["responses"][name])
    assert REQUESTS[name][3] in error, error
    assert not error.startswith("internal error")
    assert len(error) < 400 and "\x1b" not in error and "\x07" not in error


def test_malformed_requests_change_nothing(hostile):
    assert hostile["after_requests"][:2] == hostile["after_quarantine"][:2]
    r = hostile["valid_after"]
    assert (r.error, r.understood, r.operation) == ("", True, "current")


def test_refused_requests_are_counted(hostile):
    _, _, values = hostile["diag_after_requests"]
    answered = 2  # the two questions with absurd times are answered (understood = false), not refused
    assert int(values["refused_requests"]) == len(REQUESTS) - answered
    assert int(values["refused_requests.history"]) == 2 and int(values["refused_requests.define_region"]) == 2
