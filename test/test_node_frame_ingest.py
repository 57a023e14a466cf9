"""FrameIngest and StoreHealth without DDS (nodes/frame_ingest.py): frames staged in arrival order, held in a
bounded queue while the store refuses writes for a reason that heals, dropped and counted otherwise."""

from __future__ import annotations

import os

os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
os.environ.setdefault("ROS_DOMAIN_ID", "117")

import pytest  # noqa: E402

rclpy = pytest.importorskip("rclpy")

from node_helpers import A, Log, frame, mug_msg  # noqa: E402

from tempomem_ros.core.errors import StoreFullError, StoreIOError  # noqa: E402
from tempomem_ros.core.types import StageResult  # noqa: E402
from tempomem_ros.nodes.diagnostics import NodeCounters  # noqa: E402
from tempomem_ros.nodes.frame_ingest import FrameIngest, StoreHealth  # noqa: E402


class Writer:
    """Stages into a list; refuses with ``fail`` (an exception) while it is set."""

    def __init__(self):
        self.staged: list[float] = []
        self.fail: Exception | None = None

    def frame_staged(self, stamp, n):
        return stamp in self.staged

    def stage(self, observations, view, stamp):
        if self.fail is not None:
            raise self.fail
        self.staged.append(stamp)
        return StageResult(len(self.staged), (), "pending", (), ())


def _ingest(writer, **params):
    counters, log = NodeCounters(), Log()
    health = StoreHealth(log, counters)
    values = {"observation_durability": "volatile", "store_retry_frames": 2, **params}
    return FrameIngest(lambda: writer, counters, health, log, param=values.__getitem__, world_frame="map"), \
        counters, health, log


def test_frames_wait_while_the_store_is_full_and_go_in_arrival_order():
    writer = Writer()
    ingest, counters, health, log = _ingest(writer)
    ingest.on_message(frame(1.0, [mug_msg(A)], A, 2.1))
    writer.fail = StoreFullError("database or disk is full")
    for t in (2.0, 3.0, 4.0):
        ingest.on_message(frame(t, [mug_msg(A)], A, 2.1))
    assert writer.staged == [1.0]
    assert len(ingest.retry) == 2 and counters.dropped == {"store_full": 1}  # the queue holds 2: the third dropped
    assert (health.state, health.error) == ("full", "database or disk is full")
    assert log.lines[0] == ("error", "store full: database or disk is full")  # once per change of state
    writer.fail = None
    ingest.flush()
    assert writer.staged == [1.0, 2.0, 3.0] and not ingest.retry
    assert (counters.retried, counters.staged_frames, counters.received, counters.handled) == (2, 3, 4, 4)
    assert health.state == "ok" and log.lines[-1] == ("info", "store accepts writes again (was full)")


def test_a_frame_in_another_frame_or_a_duplicate_is_dropped_and_counted():
    writer = Writer()
    ingest, counters, _, _ = _ingest(writer, observation_durability="transient_local")
    other = frame(1.0, [mug_msg(A)], A, 2.1)
    other.header.frame_id = "odom"
    ingest.on_message(other)
    ingest.on_message(frame(2.0, [mug_msg(A)], A, 2.1))
    ingest.on_message(frame(2.0, [mug_msg(A)], A, 2.1))  # sent again by a transient-local publisher
    assert writer.staged == [2.0]
    assert counters.dropped == {"frame": 1, "duplicate": 1}


def test_without_a_retry_queue_a_refused_frame_is_dropped():
    writer = Writer()
    ingest, counters, health, _ = _ingest(writer, store_retry_frames=0)
    writer.fail = StoreIOError("disk I/O error")
    ingest.on_message(frame(1.0, [mug_msg(A)], A, 2.1))
    assert not ingest.retry and writer.staged == []
    assert counters.dropped == {"store_io_error": 1} and health.state == "io_error"


def test_closing_stages_what_waits_and_reports_what_the_store_still_refuses():
    writer = Writer()
    ingest, _, _, log = _ingest(writer)
    writer.fail = StoreFullError("database or disk is full")
    ingest.on_message(frame(1.0, [mug_msg(A)], A, 2.1))
    ingest.on_message(frame(2.0, [mug_msg(A)], A, 2.1))
    ingest.close()
    assert not ingest.retry and writer.staged == []
    assert log.lines[-1] == ("error", "2 received frame(s) were never stored: the store still refuses writes "
                                      "(database or disk is full)")
    writer.fail = None
    ingest.on_message(frame(3.0, [mug_msg(A)], A, 2.1))
    ingest.close()  # nothing waits: nothing to report
    assert writer.staged == [3.0] and log.lines[-1][0] == "info"


class BusyWriter(Writer):
    """A writer held by something else (a commit of a fleet's backlog, a mutation) until ``free`` is set."""

    def __init__(self):
        super().__init__()
        import threading

        self.free = threading.Event()
        self.entered = threading.Event()

    def stage(self, observations, view, stamp):
        self.entered.set()
        assert self.free.wait(10.0)
        return super().stage(observations, view, stamp)


def test_frames_the_inbox_replaced_while_the_writer_was_busy_are_counted_and_the_rest_staged_in_order():
    """The callback only queues (it never waits for the writer); the staging thread is held by a busy writer while 7
    more frames arrive into an inbox of 3: the 4 oldest waiting are replaced, each counted under dropped.overwritten,
    and the rest are staged in arrival order once the writer is free. Before start() (and after stop()) a frame is
    staged in the callback, as before."""
    writer = BusyWriter()
    ingest, counters, _, log = _ingest(writer, observation_queue_depth=3)
    ingest.start()
    ingest.on_message(frame(1.0, [mug_msg(A)], A, 2.1))
    assert writer.entered.wait(10.0)  # the thread holds frame 1, waiting for the writer
    for t in range(2, 9):
        ingest.on_message(frame(float(t), [mug_msg(A)], A, 2.1))  # returns at once: the writer is still busy
    assert ingest.waiting() == 3 and counters.dropped == {"overwritten": 4}
    assert counters.received == 8 and counters.handled == 4
    writer.free.set()
    ingest.stop()
    assert writer.staged == [1.0, 6.0, 7.0, 8.0]
    assert (counters.staged_frames, counters.handled, ingest.waiting()) == (4, 8, 0)
    ingest.on_message(frame(9.0, [mug_msg(A)], A, 2.1))  # stopped: staged in the callback
    assert writer.staged[-1] == 9.0 and counters.dropped == {"overwritten": 4}
    assert "overwritten" in log.lines[0][1]


def test_counts_updated_from_several_threads_at_once_are_never_lost():
    """NodeCounters counts under one lock: two threads (the callback and the staging thread) dropping and handling
    100,000 frames each count 200,000 of each. Without it one thread's increment overwrote the other's (a lost
    ``handled`` hangs the waits on it, test/node_helpers.py and tools/evaluation/pipeline.py)."""
    import sys
    import threading

    counters = NodeCounters()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter allows

    def count():
        for _ in range(100_000):
            counters.count(handled=1)
            counters.drop("overwritten", "replaced")

    try:
        threads = [threading.Thread(target=count) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert (counters.handled, counters.dropped, counters.last_error) == (200_000, {"overwritten": 200_000}, "replaced")


def test_every_frame_received_beside_the_staging_thread_is_handled_once_staged_or_dropped():
    """The callback queues 3,000 frames (a third in another frame, dropped by the staging thread) into an inbox of 5
    while the thread stages: every frame is handled exactly once, staged or counted under its reason."""
    writer = Writer()
    ingest, counters, _, _ = _ingest(writer, observation_queue_depth=5)
    ingest.start()
    for t in range(3000):
        msg = frame(float(t), [mug_msg(A)], A, 2.1)
        if t % 3 == 0:
            msg.header.frame_id = "odom"
        ingest.on_message(msg)
    ingest.stop()
    dropped = counters.dropped
    assert set(dropped) <= {"frame", "overwritten"}
    assert counters.received == counters.handled == 3000
    assert counters.staged_frames == len(writer.staged) == 3000 - sum(dropped.values())
    assert writer.staged == sorted(writer.staged) and all(t % 3 for t in writer.staged)
