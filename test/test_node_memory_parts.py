"""The memory node's parts without DDS: opening and closing its Memories (nodes/memory_store.py: three, and a stager
on PostgreSQL), the commit cycle (nodes/commit_cycle.py), the checks made at configure (memory_node_params.py) and its
diagnostics level (diagnostics.py)."""

from __future__ import annotations

import os
import threading

os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
os.environ.setdefault("ROS_DOMAIN_ID", "117")

import pytest  # noqa: E402

rclpy = pytest.importorskip("rclpy")

from node_helpers import Log  # noqa: E402

from tempomem_ros.core.config import MemoryConfig  # noqa: E402
from tempomem_ros.core.errors import InvalidInputError, StoreFullError, TempoMemError  # noqa: E402
from tempomem_ros.core.memory import Memory  # noqa: E402
from tempomem_ros.nodes import diagnostics as diag  # noqa: E402
from tempomem_ros.nodes import memory_store as store  # noqa: E402
from tempomem_ros.nodes.commit_cycle import CommitCycle  # noqa: E402
from tempomem_ros.nodes.frame_ingest import StoreHealth  # noqa: E402
from tempomem_ros.nodes.memory_node_params import NODE_PARAMETERS, check_choices, check_fleet_frame  # noqa: E402

PARAMS = {spec.name: spec.default for spec in NODE_PARAMETERS}


def test_the_store_address_expands_a_file_path_but_never_a_database_address(monkeypatch, tmp_path):
    monkeypatch.setenv("ROS_HOME", str(tmp_path))
    monkeypatch.setenv("TM_DIR", "/data")
    assert store.store_address("") == str(tmp_path / "tempomem" / "memory.db") == store.default_store_path()
    assert store.store_address("$TM_DIR/m.db") == "/data/m.db"
    assert store.store_address("postgresql://robot@host/$db") == "postgresql://robot@host/$db"


def test_the_readers_open_read_only_beside_the_writer_and_close_in_any_order(tmp_path):
    address = str(tmp_path / "m.db")
    writer = store.open_writer(address, PARAMS.get, MemoryConfig(), "map")
    reader, viewer = store.open_readers(address, PARAMS.get, MemoryConfig(), None, pytest.fail)
    try:
        assert reader.readonly and viewer.readonly and not writer.readonly
        assert reader.path == viewer.path == writer.path
    finally:
        for memory in (viewer, reader, writer, None):
            store.close_memory(memory, pytest.fail)


def test_the_nodes_frames_are_staged_beside_its_own_commit_on_postgresql_and_after_it_on_sqlite(store):
    """Stop 44 left the node's staging behind its own commits: one writer Memory, one lock, so a frame waited for a
    whole commit of 50 (12.4 s at load 8-11) and the inbox overwrote 400 of 617. On PostgreSQL the node stages through
    a connection of its own (memory_store.open_stager): a frame received while its writer is inside a commit is staged
    before that commit ends, the commit fuses exactly the frames it read, the next one the new frame. On SQLite (one
    writer holds the file) the stager is the writer and the frame is staged once the commit ended. Every frame
    received is staged."""
    from node_helpers import A, B, frame, mug_msg

    from tempomem_ros.nodes import memory_store as store_mod  # the module's name `store` is the fixture's here
    from tempomem_ros.nodes.frame_ingest import FrameIngest

    address = store()
    params = {**PARAMS, "embedding_dim": 4}
    writer = store_mod.open_writer(address, params.get, MemoryConfig(source="robot_a"), "map")
    stager = store_mod.open_stager(address, params.get, MemoryConfig(source="robot_a"), "map", writer)
    assert (stager is writer) == (not store.postgres) and not stager.readonly
    counters, log = diag.NodeCounters(), Log()
    ingest = FrameIngest(lambda: stager, counters, StoreHealth(log, counters), log, param=params.get,
                         world_frame="map")
    ingest.start()
    try:
        for t in (1.0, 2.0):
            ingest.on_message(frame(t, [mug_msg(A)], A, 2.1))
        assert wait_until(lambda: counters.staged_frames == 2)
        real, during = writer._fusion.fuse_frame, []

        def fuse_frame(frame_row, *args):
            if not during:  # the node's robot sends a frame while its writer fuses the first of two
                ingest.on_message(frame(3.0, [mug_msg(B)], B, 2.1))
                during.append(wait_until(lambda: counters.staged_frames == 3, timeout=3.0))
            return real(frame_row, *args)

        writer._fusion.fuse_frame = fuse_frame
        stats = writer.commit()
        writer._fusion.fuse_frame = real
        assert during == [store.postgres]  # staged inside the commit on PostgreSQL only
        assert wait_until(lambda: counters.staged_frames == 3)
        assert len(stats.frame_ids) == 2 and writer.pending() == 1
        assert len(writer.commit().frame_ids) == 1 and writer.pending() == 0
        assert sorted(o.label for o in writer.objects()) == ["mug", "mug"]
        assert (counters.received, counters.handled, counters.dropped, ingest.waiting()) == (3, 3, {}, 0)
    finally:
        ingest.close()
        if stager is not writer:
            store_mod.close_memory(stager, pytest.fail, fuse=False)
        store_mod.close_memory(writer, pytest.fail)


def wait_until(condition, timeout: float = 15.0) -> bool:
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def test_a_reader_is_closed_when_the_viewer_cannot_open(monkeypatch, tmp_path):
    address = str(tmp_path / "m.db")
    writer = store.open_writer(address, PARAMS.get, MemoryConfig(), "map")
    opened, real_open = [], Memory.open

    def open_twice(*args, **kwargs):
        if opened:
            raise TempoMemError("no second reader")
        opened.append(real_open(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(Memory, "open", open_twice)
    with pytest.raises(TempoMemError, match="no second reader"):
        store.open_readers(address, PARAMS.get, MemoryConfig(), None, pytest.fail)
    assert opened[0]._conn is None  # closed
    writer.close()


def test_a_close_that_fails_is_reported_not_raised():
    class Full:
        def close(self):
            raise StoreFullError("database or disk is full")

    failures = []
    store.close_memory(Full(), failures.append)
    assert [str(e) for e in failures] == ["database or disk is full"]


class Writer:
    def __init__(self):
        self.staged, self.fail, self.commits = 0, None, 0

    def pending(self):
        return self.staged

    def commit(self, max_frames=None):
        if self.fail is not None:
            raise self.fail
        fused = self.staged if max_frames is None else min(max_frames, self.staged)
        self.commits, self.staged = self.commits + 1, self.staged - fused
        self.batches = getattr(self, "batches", []) + [fused]
        return type("Stats", (), {"elapsed_ms": 1.5, "changed": True, "frame_ids": tuple(range(fused))})()


class Scene:
    def __init__(self):
        self.dirty, self.published, self.behind = False, [], False

    def follow_store(self):
        self.dirty = self.dirty or self.behind

    def after_commit(self, force):
        self.published.append((self.dirty, force))


class Ingest:
    def flush(self):
        pass


def _cycle(writer, scene, context_ok=lambda: True, fuses=True, max_frames=0, budget_s=0.0):
    counters, log = diag.NodeCounters(), Log()
    health = StoreHealth(log, counters)
    return CommitCycle(lambda: (writer, scene, Ingest()), counters, health, log, context_ok=context_ok,
                       fuses=fuses, max_frames=max_frames, budget_s=budget_s), counters, health, log


def test_a_tick_fuses_a_backlog_in_bounded_commits_and_only_while_its_period_lasts():
    """commit_max_frames: no commit fuses more than that many frames. With time left in the tick the backlog is
    worked off in bounded commits (120 frames by 50: 50, 50, 20); with none left (budget 0) one bounded commit a tick,
    the rest at the next ticks. 0 keeps one commit of every staged frame."""
    writer = Writer()
    cycle, counters, _, _ = _cycle(writer, Scene(), max_frames=50, budget_s=60.0)
    writer.staged = 120
    cycle.on_timer()
    assert (writer.batches, writer.staged, counters.commits) == ([50, 50, 20], 0, 3)
    writer = Writer()
    cycle, counters, _, _ = _cycle(writer, Scene(), max_frames=50, budget_s=0.0)
    writer.staged = 120
    cycle.on_timer()
    assert (writer.batches, writer.staged) == ([50], 70)
    cycle.on_timer()
    cycle.on_timer()
    assert (writer.batches, writer.staged, counters.commits) == ([50, 50, 20], 0, 3)
    writer = Writer()
    cycle, _, _, _ = _cycle(writer, Scene(), max_frames=0, budget_s=60.0)
    writer.staged = 120
    cycle.on_timer()
    assert writer.batches == [120]


def test_a_drain_fuses_every_frame_staged_when_it_began_past_the_ticks_time():
    """Deactivation drains: with no time left in the tick (budget 0) a backlog of 120 over commit_max_frames 50 is
    fused in bounded commits (50, 50, 20) and published; a tick would have left 70 staged. While another robot keeps
    staging (10 frames a commit) the drain stops once as many were fused as were staged when it began."""
    writer, scene = Writer(), Scene()
    cycle, counters, _, _ = _cycle(writer, scene, max_frames=50, budget_s=0.0)
    writer.staged = 120
    cycle.commit_and_publish(force=False, drain=True)
    assert (writer.batches, writer.staged, counters.commits, scene.published) == ([50, 50, 20], 0, 3, [(True, False)])
    writer = Writer()
    cycle, counters, _, _ = _cycle(writer, Scene(), max_frames=50, budget_s=0.0)
    writer.staged = 100
    cycle.commit_and_publish(force=False, drain=True)
    assert (writer.batches, writer.staged) == ([50, 50], 0)  # no empty third commit

    class Fleet(Writer):
        def commit(self, max_frames=None):
            stats = super().commit(max_frames)
            self.staged += 50
            return stats

    fleet = Fleet()
    cycle, counters, _, _ = _cycle(fleet, Scene(), max_frames=50, budget_s=0.0)
    fleet.staged = 120
    cycle.commit_and_publish(force=False, drain=True)
    assert (fleet.batches, fleet.staged) == ([50, 50, 50], 120)


def test_a_node_that_does_not_fuse_only_stages_and_publishes_once_the_fuser_changed_the_store():
    """fuse_staged false (a fleet's robot beside one fuser): the timer never commits; the scene is published once
    the store's audit moved (another writer fused), not on every tick."""
    writer, scene = Writer(), Scene()
    cycle, counters, _, _ = _cycle(writer, scene, fuses=False)
    writer.staged = 2
    cycle.on_timer()
    assert (writer.commits, writer.staged, counters.commits, scene.published) == (0, 2, 0, [(False, False)])
    scene.behind = True
    cycle.on_timer()
    assert (writer.commits, writer.staged, scene.published[-1]) == (0, 2, (True, False))
    assert counters.store_pending == 2  # every robot's staged frames, for the diagnostics


def test_staged_frames_are_warned_of_only_when_the_fuser_did_not_bring_them_down():
    assert [diag.unfused(p, b) for p, b in [(5, None), (5, 9), (5, 5), (9, 5), (0, 0), (None, None), (None, 3)]] == [
        0, 0, 5, 9, 0, 0, 0]


def test_a_node_that_fuses_reports_no_store_backlog():
    writer, scene = Writer(), Scene()
    cycle, counters, _, _ = _cycle(writer, scene)
    writer.staged = 2
    cycle.on_timer()
    assert counters.store_pending is None
    assert "store_pending_frames" not in diag.memory_values(counters, StoreHealth(Log(), counters), 0, 0)


def test_a_commit_marks_the_scene_dirty_and_a_store_failure_is_retried_on_the_next_tick():
    writer, scene = Writer(), Scene()
    cycle, counters, health, log = _cycle(writer, scene)
    writer.staged, writer.fail = 3, StoreFullError("database or disk is full")
    cycle.on_timer()
    assert (counters.commit_errors, health.state, writer.commits) == (1, "full", 0)
    assert counters.last_error == "database or disk is full" and scene.published == []  # the store's own words
    writer.fail = None
    cycle.on_timer()
    assert (writer.commits, counters.commits, counters.last_commit_ms, health.state) == (1, 1, 1.5, "ok")
    assert scene.published == [(True, False)]
    assert log.lines == [("error", "store full: database or disk is full"),
                         ("info", "store accepts writes again (was full)")]


def test_a_tick_skips_while_a_commit_runs_and_nothing_is_counted_while_shutting_down():
    writer, scene = Writer(), Scene()
    cycle, counters, _, _ = _cycle(writer, scene)
    writer.staged = 1
    with cycle.paused() as held:
        assert held
        worker = threading.Thread(target=cycle.on_timer)
        worker.start()
        worker.join()
    assert writer.commits == 0 and writer.staged == 1  # skipped, not queued
    cycle.commit_and_publish(force=True)
    assert writer.commits == 1 and scene.published == [(True, True)]
    stopping = Writer()
    stopping.staged, stopping.fail = 1, RuntimeError("context invalid")
    quiet, quiet_counters, _, quiet_log = _cycle(stopping, Scene(), context_ok=lambda: False)
    quiet.on_timer()
    assert quiet_counters.commit_errors == 0 and quiet_log.lines == []
    loud, loud_counters, _, loud_log = _cycle(stopping, Scene())
    loud.on_timer()
    assert loud_counters.commit_errors == 1 and loud_log.lines == [("error", "commit failed: context invalid")]
    _cycle(None, Scene())[0].on_timer()  # the store is closed: nothing to do


def test_configure_refuses_a_bad_choice_or_a_fleet_robot_outside_the_map():
    check_choices(PARAMS.get)
    with pytest.raises(InvalidInputError, match="time_source must be stamp or clock, got 'wall'"):
        check_choices({**PARAMS, "time_source": "wall"}.get)
    with pytest.raises(InvalidInputError, match="observation_durability must be one of volatile, transient_local"):
        check_choices({**PARAMS, "observation_durability": "persistent"}.get)
    check_fleet_frame("", "odom")
    check_fleet_frame("robot_1", "map")
    with pytest.raises(InvalidInputError, match="robot_id 'robot_1' reports in world_frame 'odom'"):
        check_fleet_frame("robot_1", "odom")


def test_the_memory_diagnostics_level_puts_the_store_first():
    counters, health = diag.NodeCounters(), StoreHealth(Log(), diag.NodeCounters())
    assert diag.memory_status(counters, health, 0) == (diag.OK, "ok")
    counters.drop("invalid")
    assert diag.memory_status(counters, health, 0) == (diag.WARN, "1 message(s) dropped")
    assert diag.memory_status(counters, health, 2) == (diag.ERROR, "2 commit error(s)")
    assert diag.memory_status(counters, health, 0, 7) == (
        diag.WARN, "7 staged frame(s) wait to be fused, no fewer than at the last report: is the fleet's fuser "
                   "(tempomem fuse, or a node with fuse_staged true) running?")
    health.failed(StoreFullError("database or disk is full"))
    assert diag.memory_status(counters, health, 2) == (diag.ERROR, "store full: database or disk is full")
