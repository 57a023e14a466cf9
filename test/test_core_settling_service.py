"""The Settling service (core/settling.py) on a store alone, without the Memory facade or its mixins: a Memory writes
the input and is closed; the service then runs on a bare connection to the file, built from the store, its
statements (store/settling_rows.py) and the collaborators it is handed, with stand-ins for fusion's five rules
(issue 16: services, not mixins). Results are exact, and so is what must be absent; the same step through the
facade writes exactly the same store."""

from __future__ import annotations

import inspect
import shutil
from types import SimpleNamespace

import pytest
from core_helpers import box_obs, distance_from_eye, dump_tables, view

from tempomem_ros.core import Memory, settling
from tempomem_ros.core.config import MemoryConfig
from tempomem_ros.core.frame_fusion import CommitCounts
from tempomem_ros.core.maintenance import Maintenance, RetentionHooks
from tempomem_ros.core.relations_store import RelationKeeper
from tempomem_ros.core.retention import Retention
from tempomem_ros.core.settling import FusionHooks, Settling, overlapping_halves
from tempomem_ros.core.store import Store
from tempomem_ros.core.store.graph_writes import GraphWrites, WriteState
from tempomem_ros.core.store.maintenance_rows import MaintenanceRows
from tempomem_ros.core.store.placements import PlacementRows
from tempomem_ros.core.store.reads import StoreReads
from tempomem_ros.core.store.retention_rows import RetentionRows
from tempomem_ros.core.store.schema import open_connection, sqlite3
from tempomem_ros.core.store.settling_rows import SettlingRows

WALL = 7000.0  # the wall clock of every write (frames up to 611 s must not lie ahead of it)
KEEP = {"retention": {"mode": "keep-all"}}  # nothing thinned: every sighting stays a row the test can name
A = (2.0, 0.0, 0.8)
B = (0.0, 2.0, 0.8)
OFF = (A[0] + 0.05, A[1], A[2])
SEEN_A = distance_from_eye(A) + 0.04   # depth at A when something stands there
EMPTY_A = distance_from_eye(A) + 1.0   # depth at A when the place is empty (the wall behind)
SEEN_B = distance_from_eye(B) + 0.04


def _scene(path: str, batches, config: dict) -> None:
    """Write the input through a Memory (fusion and the settling step), one commit a batch, then close it."""
    with Memory.open(path, embedding_dim=4, config=config, clock=lambda: WALL, vector_index="off") as m:
        for batch in batches:
            for obs, v in batch:
                m.add(obs, v)
            m.commit()


class Service:
    """The settling step on a bare connection: store, WriteState, GraphWrites, maintenance and retention, and
    stand-ins for fusion's rules that record what they were asked."""

    def __init__(self, path: str, now: float):
        self.conn, _ = open_connection(path, False)
        self.conn.row_factory = sqlite3.Row
        cfg = MemoryConfig.from_dict(KEEP)
        self.store = Store(self.conn, clock=lambda: WALL)
        meta = {r[0]: r[1] for r in self.conn.execute("SELECT key, value FROM meta")}
        relations = RelationKeeper(self.store, cfg.relations)
        reads = StoreReads(self.store, cfg, readonly=False, has_sources=True)
        self.state = WriteState()
        self.graph = GraphWrites(self.store, relations, cfg.relations, self.state, now=lambda: now,
                                 wall_clock=lambda: WALL)
        self.asked: list[tuple] = []

        def known_confusion(a: str, b: str) -> bool:
            self.asked.append(("known_confusion", a, b))
            return False

        def unasked(name: str):
            def hook(*args, **kwargs):
                raise AssertionError(f"fusion's {name} was asked")
            return hook

        retention = Retention(self.store, RetentionRows(self.store), reads, cfg, meta=meta, now=lambda: now,
                              known_confusion=known_confusion, overlapping_halves=overlapping_halves)
        maintenance = Maintenance(self.store, self.graph, MaintenanceRows(self.store, wall_clock=lambda: WALL),
                                  reads, relations, cfg, self.state, fuse_pending=unasked("fuse_pending"),
                                  now=lambda: now, retention=RetentionHooks.of(retention))
        self.settling = Settling(
            self.store, self.graph, SettlingRows(self.store), PlacementRows(self.store), reads, cfg, self.state,
            maintenance=maintenance, retention=retention,
            fusion=FusionHooks(growth_limit=unasked("growth_limit"), identity_rows=unasked("identity_rows"),
                               known_confusion=known_confusion, remove=unasked("remove"),
                               run_confirms=unasked("run_confirms")))

    def rows(self, sql: str, *args) -> list[tuple]:
        return [tuple(r) for r in self.conn.execute(sql, args)]

    def close(self) -> None:
        self.conn.close()


def test_the_settling_step_is_a_service_and_writes_no_sql():
    assert "ReconcileMixin" not in [c.__name__ for c in Memory.__mro__]
    source = inspect.getsource(settling)
    assert "execute" not in source and "_conn" not in source and "SELECT" not in source
    # no mixin is left: fusion calls the settling step, and the settling step fusion, through the services
    assert Memory.__mro__ == (Memory, object)
    forwarders = ("_settle", "_finish_removals", "_growth_limit", "_identity_rows", "_known_confusion", "_remove",
                  "_run_confirms")
    assert [n for n in forwarders if hasattr(Memory, n)] == []


def test_overlapping_halves_is_the_twin_rule_retention_asks_too():
    def box(c, half):
        return SimpleNamespace(**{f"{e}_{k}": c[i] + s * half[i] for i, k in enumerate("xyz")
                                  for e, s in (("min", -1), ("max", 1))})  # an object row's box, read by attribute

    laptop = box((1.0, 0.0, 0.75), (0.17, 0.12, 0.01))
    assert overlapping_halves(laptop, box((1.0, 0.0, 0.79), (0.17, 0.12, 0.01)))   # 4 cm higher: one laptop
    assert not overlapping_halves(box((0.0, 0.0, 0.45), (0.23, 0.23, 0.45)),
                                  box((0.6, 0.0, 0.45), (0.23, 0.23, 0.45)))          # a chair pushed 0.6 m


def _mug_then_cup(path: str) -> None:
    """Object 1 mug at A (sightings 1-3, 6), object 2 "cup" 5 cm beside it (sightings 4, 5: tentative, its
    "appeared" held), never seen in one frame with it; written with twin_merge off, so the two stay apart."""
    _scene(path, [[([box_obs("mug", A, stamp=t)], view(t, A, SEEN_A)) for t in (0.0, 0.5, 1.0)],
                  [([box_obs("cup", OFF, stamp=t)], view(t, A, SEEN_A)) for t in (100.0, 100.5)],
                  [([box_obs("mug", A, stamp=101.0)], view(101.0, A, SEEN_A))]],
           {**KEEP, "identity": {"twin_merge": False}})


def test_twins_never_seen_together_are_joined_and_the_join_recorded(tmp_path):
    path, copy = str(tmp_path / "m.db"), str(tmp_path / "copy.db")
    _mug_then_cup(path)
    shutil.copy(path, copy)
    s = Service(path, now=101.0)
    counters, touched = CommitCounts(), set()
    try:
        assert s.rows("SELECT id, label, state FROM objects ORDER BY id") == [(1, "mug", "present"),
                                                                             (2, "cup", "tentative")]
        with s.store.transaction():
            cup = s.graph.object_row(2)
            s.settling.settle(101.0, {1: [cup]}, counters, touched)
        assert s.rows("SELECT id, label, state, first_seen, last_seen, n_observations, placement_id FROM objects "
                      "ORDER BY id") == [(1, "mug", "present", 0.0, 101.0, 6, 1),
                                         (2, "cup", "forgotten", 100.0, 100.5, 2, None)]
        # the cup's sightings are the mug's, at its placement; their label mass went with them
        assert s.rows("SELECT id, object_id, placement_id FROM observations ORDER BY id") == \
            [(1, 1, 1), (2, 1, 1), (3, 1, 1), (4, 1, 1), (5, 1, 1), (6, 1, 1)]
        assert s.rows("SELECT object_id, label, mass FROM label_mass ORDER BY object_id, label") == \
            [(1, "cup", pytest.approx(1.8)), (1, "mug", pytest.approx(3.6)), (2, "cup", pytest.approx(1.8))]
        assert s.rows("SELECT id, t_from, t_last, t_to, current, closed_reason FROM placements ORDER BY id") == \
            [(1, 0.0, 101.0, None, 1, ""), (2, 100.0, 100.5, 101.0, 0, "merged")]
        assert s.rows("SELECT object_id, kind, stamp, wall_time, reason, label, active FROM tombstones") == \
            [(2, "merged", 101.0, WALL, "the same object as #1, never seen together", "cup", 0)]
        assert s.rows("SELECT id, kind, object_id, status, resolved_at, reason, event_id FROM held_events "
                      "ORDER BY id") == [(1, "appeared", 1, "published", 1.0, "confirmed", 1),
                                         (2, "appeared", 2, "retracted", 101.0,
                                          "the same object as #1, never seen together", None)]
        assert s.rows("SELECT stamp, wall_time, action, object_ids, observation_ids, detail FROM audit "
                      "WHERE id > 6") == [(101.0, WALL, "merge_twin", "[1, 2]", "[4, 5]",
                                           '{"absorbed": 2, "kept": 1}')]
        # absent: no event (nothing of the cup was published: no "merged"; the mug keeps its label: no
        # "relabelled", no label_history row), no move, nothing relabelled
        assert s.rows("SELECT id, kind, object_id, retracted FROM events") == [(1, "appeared", 1, 0)]
        assert s.rows("SELECT COUNT(*) FROM label_history") == [(0,)]
        assert (s.state.events, counters.moved, counters.removed, s.state.relabelled) == (0, 0, 0, set())
        assert touched == {1, 2}
        assert s.asked == [("known_confusion", "mug", "cup")]  # labels differ; the sightings interleave
    finally:
        s.close()
    with Memory.open(copy, embedding_dim=4, config=KEEP, clock=lambda: WALL, vector_index="off") as m:
        with m._store.transaction():
            m._settling.settle(101.0, {1: [m._graph.object_row(2)]}, CommitCounts(), set())
    assert dump_tables(path) == dump_tables(copy)  # the service alone writes exactly what the facade writes


def _mug_moved_unseen(path: str) -> None:
    """Object 1 mug at A (sightings 1-3); 599 s later a mug at B (object 2, sightings 4-6: its "appeared" held,
    it may be the first one moved); then A seen empty three times: object 1's removal is decided, due at 612 s."""
    _scene(path, [[([box_obs("mug", A, stamp=t)], view(t, A, SEEN_A)) for t in (0.0, 0.5, 1.0)] +
                  [([box_obs("mug", B, stamp=t)], view(t, B, SEEN_B)) for t in (600.0, 600.5, 601.0)] +
                  [([], view(t, A, EMPTY_A)) for t in (610.0, 610.5, 611.0)]], KEEP)


def test_a_removal_due_whose_look_alike_appeared_elsewhere_is_reconciled_as_a_move(tmp_path):
    path, copy = str(tmp_path / "m.db"), str(tmp_path / "copy.db")
    _mug_moved_unseen(path)
    shutil.copy(path, copy)
    s = Service(path, now=611.0)
    counters, touched = CommitCounts(), set()
    try:
        assert s.rows("SELECT id, state, removal_due, first_miss FROM objects ORDER BY id") == \
            [(1, "present", 612.0, 610.0), (2, "present", None, None)]
        with s.store.transaction():
            s.settling.finish_removals(612.0, counters, touched, before=True)  # strictly before: not yet due
        assert (counters.moved, touched, s.rows("SELECT COUNT(*) FROM audit WHERE id > 6")) == (0, set(), [(0,)])
        with s.store.transaction():
            s.settling.finish_removals(612.0, counters, touched)
        # one mug that moved: #1 takes #2's place, state and sightings; #2 is retired as merged
        assert s.rows("SELECT id, state, n_moves, n_observations, first_seen, last_seen, placement_id, misses, "
                      "first_miss, removal_due, cx, cy, cz FROM objects ORDER BY id") == \
            [(1, "present", 1, 6, 0.0, 601.0, 3, 0, None, None, *B),
             (2, "forgotten", 0, 3, 600.0, 601.0, None, 0, None, None, *B)]
        assert s.rows("SELECT id, object_id, t_from, t_last, t_to, current, opened_by, closed_reason FROM placements "
                      "ORDER BY id") == [(1, 1, 0.0, 1.0, 600.0, 0, "appeared", "moved"),
                                         (2, 2, 600.0, 601.0, 612.0, 0, "appeared", "merged"),
                                         (3, 1, 600.0, 601.0, None, 1, "moved", "")]
        assert s.rows("SELECT id, object_id, placement_id FROM observations ORDER BY id") == \
            [(1, 1, 1), (2, 1, 1), (3, 1, 1), (4, 1, 3), (5, 1, 3), (6, 1, 3)]
        # the move is stamped when the mug was first seen at B, with the evidence of that placement
        assert s.rows("SELECT id, stamp, recorded_at, kind, object_id, label, before_id, after_id, evidence, detail, "
                      "retracted FROM events ORDER BY id") == \
            [(1, 0.0, 611.0, "appeared", 1, "mug", None, 1, "[1]", "{}", 0),
             (2, 600.0, 611.0, "moved", 1, "mug", 1, 3, "[4, 5, 6]", '{"decided_at": 612.0, "joined": 2}', 0)]
        assert s.rows("SELECT id, object_id, status, resolved_at, reason FROM held_events ORDER BY id") == \
            [(1, 1, "published", 1.0, "confirmed"), (2, 2, "retracted", 612.0, "the same object as #1, moved")]
        assert s.rows("SELECT object_id, kind, reason, active FROM tombstones") == \
            [(2, "merged", "the same object as #1, moved", 0)]
        assert s.rows("SELECT stamp, action, object_ids, observation_ids, detail FROM audit WHERE id > 6") == \
            [(612.0, "reconcile_move", "[1, 2]", "[4, 5, 6]",
              '{"first_miss": 610.0, "from_placement": 1, "joined": 2, "kept": 1, "to_placement": 3}')]
        assert (counters.moved, counters.removed, touched, s.state.change_times, s.state.events) == \
            (1, 0, {1, 2}, {1: 600.0}, 1)
        # absent: no "removed" (fusion's remove was never asked), no "merged" (#2 had published nothing)
        assert s.rows("SELECT COUNT(*) FROM events WHERE kind IN ('removed', 'merged')") == [(0,)]
        assert s.asked == []
    finally:
        s.close()
    with Memory.open(copy, embedding_dim=4, config=KEEP, clock=lambda: WALL, vector_index="off") as m:
        with m._store.transaction():
            m._settling.finish_removals(612.0, CommitCounts(), set())
    assert dump_tables(path) == dump_tables(copy)
