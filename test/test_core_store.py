"""The store: staging and transactions, fuse-before-persist, read-only, schema checks, input validation."""

from __future__ import annotations

import math
import sqlite3 as stdlib_sqlite3

import numpy as np
import pytest
from core_helpers import IMMEDIATE, box_obs, distance_from_eye, unit, view

from tempomem_ros.core import (
    CameraView,
    InvalidInputError,
    Memory,
    Observation,
    ReadOnlyError,
    SchemaError,
    StoreError,
    TempoMemError,
    UnknownIdError,
)
from tempomem_ros.core.store.schema import SCHEMA_VERSION


def test_error_hierarchy():
    for cls in (SchemaError, ReadOnlyError, InvalidInputError, UnknownIdError, StoreError):
        assert issubclass(cls, TempoMemError)
    assert TempoMemError.__name__ != "MemoryError"


def test_add_writes_at_once_and_commit_fuses(store):
    path = store("m")
    m = Memory.open(path, embedding_dim=4, config=IMMEDIATE)
    ids = m.add([box_obs("mug", (1, 0, 0.5), stamp=1), box_obs("book", (2, 0, 0.5), stamp=1)])
    assert ids == [1, 2]
    # Another connection already sees the staged observations (written at once, verdict pending).
    with Memory.open(path, embedding_dim=4, readonly=True) as ro:
        assert [r.verdict for r in ro.observations()] == ["pending", "pending"]
        assert ro.objects() == []
    stats = m.commit()
    assert (stats.observations_committed, stats.created, stats.merged, stats.rejected, stats.objects_after) == \
        (2, 2, 0, 0, 2)
    assert stats.elapsed_ms >= 0
    m.close()


def test_staged_observations_survive_a_crash_and_fuse_on_reopen(store):
    path = store("m")
    m = Memory.open(path, embedding_dim=4, config=IMMEDIATE)
    m.add([box_obs("mug", (1, 0, 0.5), stamp=1)])
    m._conn.close()  # the process dies before commit: no close(), no fusion
    m._conn = None
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as again:
        assert again.pending() == 1
        again.commit()
        assert [o.label for o in again.objects()] == ["mug"]


def test_a_failed_commit_leaves_nothing_half_fused(store, monkeypatch):
    path = store("m")
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", (1, 0, 0.5), stamp=1)])
        m.commit()
        m.add([box_obs("mug", (1, 0, 0.5), stamp=2), box_obs("book", (3, 0, 0.5), stamp=2)])

        def boom(*a, **k):
            raise RuntimeError("disk on fire")
        monkeypatch.setattr(m._relations, "update", boom)
        with pytest.raises(RuntimeError):
            m.commit()
        monkeypatch.undo()
        assert [o.n_observations for o in m.objects()] == [1]
        assert [r.verdict for r in m.observations()] == ["created", "pending", "pending"]
        m.commit()
        assert [(o.label, o.n_observations) for o in m.objects()] == [("mug", 2), ("book", 1)]


def test_fuse_before_persist_with_interleaved_maintenance(store):
    path = store("m")
    m = Memory.open(path, embedding_dim=4, config=IMMEDIATE)
    m.add([box_obs("mug", (1, 0, 0.5), stamp=1)])
    m.define_region("kitchen", (0, -1, 0), (2, 1, 2))          # fuses first
    m.add([box_obs("book", (1.5, 0, 0.5), stamp=2)])
    m.decay(3.0, half_life_s=1e6, min_confidence=0.0)           # fuses first
    m.add([box_obs("keys", (0.5, 0, 0.5), stamp=3)])
    m.update(1, label="coffee mug")                             # fuses first
    m.add([box_obs("bowl", (0.2, 0, 0.5), stamp=4)])
    m.forget(2, "test")                                          # fuses first
    m.add([box_obs("plant", (1.8, 0, 0.5), stamp=5)])
    m.close()                                                    # fuses first
    with Memory.open(path, embedding_dim=4, readonly=True) as ro:
        verdicts = [r.verdict for r in ro.observations()]
        assert verdicts == ["created"] * 5
        assert ro.pending() == 0
        assert [o.label for o in ro.objects(state="present")] == ["coffee mug", "keys", "bowl", "plant"]


def test_readonly_refuses_every_mutator(store):
    path = store("m")
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", (1, 0, 0.5), stamp=1)])
    with Memory.open(path, embedding_dim=4, readonly=True) as ro:
        calls = [
            lambda: ro.add([box_obs("mug", (1, 0, 0.5), stamp=2)]), ro.commit, lambda: ro.forget(1, "x"),
            lambda: ro.update(1, label="cup"), lambda: ro.define_region("r", (0, 0, 0), (1, 1, 1)),
            lambda: ro.decay(10, half_life_s=1, min_confidence=0.1), ro.consolidate, ro.resplit,
        ]
        for call in calls:
            with pytest.raises(ReadOnlyError):
                call()
        assert [o.label for o in ro.objects()] == ["mug"]


def test_readonly_open_of_a_missing_file_is_a_clear_error(store):
    with pytest.raises(StoreError, match="does not exist"):
        Memory.open(store("nope"), embedding_dim=4, readonly=True)


def test_schema_checks(store):
    path = store("m")
    Memory.open(path, embedding_dim=4, config=IMMEDIATE).close()
    with pytest.raises(SchemaError, match="embedding_dim=4"):
        Memory.open(path, embedding_dim=8, config=IMMEDIATE)
    store.raw(path, "UPDATE meta SET value='99' WHERE key='schema_version'")
    with pytest.raises(SchemaError, match="newer"):
        Memory.open(path, embedding_dim=4, config=IMMEDIATE)


def test_a_version_1_store_is_migrated_by_the_writer_only(tmp_path):
    """SQLite's own history (versions 1-6); the PostgreSQL schema starts at 6 (test_fleet_store.py)."""
    path = str(tmp_path / "m.db")
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:
        m.add([Observation("mug", 0.9, (0, 0, 0.5), (-0.04, -0.04, 0.45), (0.04, 0.04, 0.55), 1.0)])
    con = stdlib_sqlite3.connect(path)  # make it a version 1 store: no as-of index
    con.execute("DROP INDEX placements_asof")
    con.execute("UPDATE meta SET value='1' WHERE key='schema_version'")
    con.commit()
    con.close()
    with pytest.raises(SchemaError, match="needs migration"):
        Memory.open(path, embedding_dim=4, readonly=True)
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:
        assert [o.label for o, _ in m.scene_as_of(2.0)] == ["mug"]
    con = stdlib_sqlite3.connect(path)
    names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    version = con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0]
    con.close()
    assert "placements_asof" in names and version == str(SCHEMA_VERSION)
    with Memory.open(path, embedding_dim=4, readonly=True) as ro:
        assert ro.scene_count_as_of(2.0) == 1


def _moved_mug_and_a_book(path: str) -> None:
    """A store whose mug moved twice (three placements, the newest current) beside a book that stayed."""
    a = (2.0, 0.0, 0.8)
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", a, stamp=0), box_obs("book", (-2.0, 0.0, 0.8), stamp=0)])
        for i in range(3):
            m.add([], view(10 + i, a, distance_from_eye(a) + 1.0))
        m.add([box_obs("mug", (a[0], a[1] + 0.15, a[2]), stamp=40)])
        for i in range(3):
            m.add([], view(50 + i, a, distance_from_eye(a) + 1.0))
        m.add([box_obs("mug", (a[0], a[1] + 0.30, a[2]), stamp=80)])
        m.commit()


def _answers(m) -> list:
    """What the current-placement reads serve: current / previous / as_of by label, the cited evidence, the scene."""
    return [m.temporal(op, label=lbl, **({"t": 45.0} if op == "as_of" else {}))
            for op in ("current", "previous", "as_of") for lbl in ("mug", "book")] + [
        m.current_evidence([1, 2]), m.scene_as_of(90.0), [(p.id, p.t_from, p.t_to) for p in m.placements(1)]]


def _rows(path: str) -> dict:
    """Every row of every table of the file (the vector index's own virtual table through its shadow tables: the
    stdlib sqlite3 cannot load sqlite-vec)."""
    con = stdlib_sqlite3.connect(path)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' AND "
                                           "sql NOT LIKE '%USING vec0%' ORDER BY name")]
        return {n: con.execute(f"SELECT * FROM {n}").fetchall() for n in names}
    finally:
        con.close()


def _current_index_rows(path: str) -> tuple[list, list]:
    """(placement ids the partial index holds, placement ids with current = 1 read from the table itself)."""
    con = stdlib_sqlite3.connect(path)
    try:
        indexed = [r[0] for r in con.execute("SELECT id FROM placements INDEXED BY placements_current "
                                             "WHERE current = 1 ORDER BY id")]
        table = [r[0] for r in con.execute("SELECT id FROM placements NOT INDEXED WHERE current = 1 ORDER BY id")]
    finally:
        con.close()
    return indexed, table


def test_a_version_8_store_gains_the_current_placements_index_keeping_its_rows(tmp_path):
    """Version 8 -> 9 adds placements_current (the current placements, for reads that would walk an object's
    placements from its oldest) and t_to to placements_object (the as-of scene's count): a read-only open reads a
    version-8 store as it is, with the same answers; the first writable open migrates it, every row unchanged, and
    the current-placement reads then search the new index, the count the widened one; the new index holds exactly
    the current placements, also after a later move."""
    path = str(tmp_path / "m.db")
    _moved_mug_and_a_book(path)
    with Memory.open(path, embedding_dim=4, readonly=True) as ro:
        want = _answers(ro)
    assert [(p[0], p[2] is None) for p in want[-1]] == [(1, False), (3, False), (4, True)]  # the mug moved twice
    con = stdlib_sqlite3.connect(path)  # make it what version 8 wrote
    con.execute("DROP INDEX placements_current")
    con.execute("DROP INDEX placements_object")
    con.execute("CREATE INDEX placements_object ON placements(object_id, t_from, id)")
    con.execute("ALTER TABLE held_events DROP COLUMN lookalike_id")  # version 10's
    con.execute("UPDATE meta SET value='8' WHERE key='schema_version'")
    con.commit()
    con.close()
    rows = _rows(path)
    with Memory.open(path, embedding_dim=4, readonly=True) as ro:  # read-compatible: not migrated, same answers
        assert _answers(ro) == want
    assert _rows(path) == rows
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:  # the writer migrates
        assert _answers(m) == want
    migrated = _rows(path)
    assert migrated.pop("meta") != rows.pop("meta")  # the version changed, and version 10's column came
    assert migrated.pop("held_events") == [r + (None,) for r in rows.pop("held_events")]
    assert migrated == rows
    con = stdlib_sqlite3.connect(path)
    assert con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == str(SCHEMA_VERSION) == "17"
    assert con.execute("SELECT sql FROM sqlite_master WHERE name='placements_current'").fetchone()[0].endswith(
        "ON placements(object_id, t_from) WHERE current = 1")
    assert con.execute("SELECT sql FROM sqlite_master WHERE name='placements_object'").fetchone()[0].endswith(
        "ON placements(object_id, t_from, id, t_to)")
    assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    plans = [[r[3] for r in con.execute("EXPLAIN QUERY PLAN " + q, (1,))] for q in (
        "SELECT id FROM placements WHERE object_id=? AND current=1",
        "SELECT * FROM placements WHERE object_id=? AND current=1 ORDER BY t_from, id LIMIT 1",
        "SELECT p.id FROM objects o JOIN placements p ON p.id = (SELECT q.id FROM placements q WHERE "
        "q.object_id = o.id AND q.current = 1 ORDER BY q.t_from, q.id LIMIT 1) WHERE o.id IN (?)")]
    # the size of the scene as of a time tests t_to from the index of an object's placements, not from their rows
    count = [r[3] for r in con.execute("EXPLAIN QUERY PLAN SELECT count(*) FROM objects o JOIN placements p ON "
                                       "p.object_id = o.id WHERE o.state IN ('present', 'missing') AND p.t_from <= ? "
                                       "AND (p.t_to IS NULL OR p.t_to > ?)", (1.0, 1.0))]
    con.close()
    assert count[-1].startswith("SEARCH p USING COVERING INDEX placements_object (object_id=? AND t_from<")
    # (COVERING or not depends on the SQLite build the stdlib module links)
    assert [len(p) for p in plans] == [1, 1, 4] and all(
        p[-1].startswith(("SEARCH placements USING ", "SEARCH q USING ")) and
        p[-1].endswith("INDEX placements_current (object_id=?)") for p in plans)
    assert _current_index_rows(path) == ([2, 4], [2, 4])
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:  # a move after the migration
        for i in range(3):
            m.add([], view(90 + i, (2.0, 0.3, 0.8), distance_from_eye((2.0, 0.3, 0.8)) + 1.0))
        m.add([box_obs("mug", (2.0, 0.45, 0.8), stamp=120)])
        m.commit()
        assert [(p.id, p.t_to is None) for p in m.placements(1)] == [(1, False), (3, False), (4, False), (5, True)]
        assert m.temporal("current", label="mug").placements[0].id == 5
    assert _current_index_rows(path) == ([2, 5], [2, 5])


def _held_appearance_in_a_look_alike_wait(path: str) -> None:
    """A store inside a look-alike wait (settling.Settling._lookalike_too_soon): a mug removed, then a new object
    read "bowl" at another place 1 s ago (twice "bowl", once "mug"), its "appeared" held."""
    a, b = (2.0, 0.0, 0.8), (0.0, 2.0, 0.8)
    with Memory.open(path, embedding_dim=4) as m:
        for t in (0.0, 0.5, 1.0):
            m.add([box_obs("mug", a, stamp=t)], view(t, a, distance_from_eye(a) + 0.04))
        for t in (10.0, 10.5, 11.0, 12.5):
            m.add([], view(t, a, distance_from_eye(a) + 1.0))
        m.commit()
        for t, label in ((100.0, "bowl"), (100.5, "mug"), (101.0, "bowl")):
            m.add([box_obs(label, b, stamp=t)], view(t, b, distance_from_eye(b) + 0.04))
            m.commit()


def test_a_version_9_store_gains_the_look_alike_wait_of_its_held_appearances(tmp_path):
    """Version 9 -> 10 adds held_events.lookalike_id, the removed look-alike a held appearance's wait runs for
    (settling.py: kept in the store so that a restart inside the wait decides for the same object). A read-only open
    reads a version-9 store as it is; the first writable open migrates it, every row unchanged but for the new column
    (NULL: a wait begun before the migration is chosen again once), and the next frame records the wait."""
    path = str(tmp_path / "m.db")
    _held_appearance_in_a_look_alike_wait(path)
    con = stdlib_sqlite3.connect(path)
    assert con.execute("SELECT object_id, kind, lookalike_id FROM held_events WHERE status = 'held'").fetchall() == [
        (2, "appeared", 1)]
    con.execute("ALTER TABLE held_events DROP COLUMN lookalike_id")  # make it what version 9 wrote
    con.execute("UPDATE meta SET value='9' WHERE key='schema_version'")
    con.commit()
    con.close()
    rows = _rows(path)
    with Memory.open(path, embedding_dim=4, readonly=True) as ro:  # read-compatible: not migrated
        assert [(o.id, o.label, o.state) for o in ro.objects()] == [(1, "mug", "missing"), (2, "bowl", "present")]
    assert _rows(path) == rows
    Memory.open(path, embedding_dim=4).close()  # the writer migrates
    migrated = _rows(path)
    assert migrated.pop("meta") != rows.pop("meta")
    assert migrated.pop("held_events") == [r + (None,) for r in rows.pop("held_events")]
    assert migrated == rows
    con = stdlib_sqlite3.connect(path)
    assert con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == str(SCHEMA_VERSION) == "17"
    con.close()
    with Memory.open(path, embedding_dim=4) as m:
        m.add([box_obs("bowl", (0.0, 2.0, 0.8), stamp=101.5)], view(101.5, (0.0, 2.0, 0.8),
                                                                    distance_from_eye((0.0, 2.0, 0.8)) + 0.04))
        m.commit()
    con = stdlib_sqlite3.connect(path)
    assert con.execute("SELECT object_id, lookalike_id FROM held_events WHERE status = 'held'").fetchall() == [(2, 1)]
    con.close()


def test_feature_model_mismatch(store):
    path = store("m")
    Memory.open(path, embedding_dim=4, feature_model="open_clip:ViT-B-32", config=IMMEDIATE).close()
    with pytest.raises(SchemaError, match="ViT-B-32"):
        Memory.open(path, embedding_dim=4, feature_model="open_clip:RN50", config=IMMEDIATE)


def test_raw_sqlite_errors_do_not_leak(tmp_path):
    path = tmp_path / "m.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError):
        Memory.open(str(path), embedding_dim=4, config=IMMEDIATE)


BAD = [
    (Observation("mug", 0.9, (math.nan, 0, 0), (0, 0, 0), (1, 1, 1), 1.0), "center must be finite"),
    (Observation("mug", 0.9, (0.5, 0.5, math.inf), (0, 0, 0), (1, 1, 1), 1.0), "center must be finite"),
    (Observation("mug", 0.9, (2, 0.5, 0.5), (0, 0, 0), (1, 1, 1), 1.0), "outside its box"),
    (Observation("mug", 1.5, (0.5, 0.5, 0.5), (0, 0, 0), (1, 1, 1), 1.0), "within 0..1"),
    (Observation("mug", -0.1, (0.5, 0.5, 0.5), (0, 0, 0), (1, 1, 1), 1.0), "within 0..1"),
    (Observation("mug", 0.9, (0.5, 0.5, 0.5), (0, 0, 0), (1, 1, 1), 1.0, np.ones(7, np.float32)), "dimension 7"),
    (Observation("mug", 0.9, (0.5, 0.5), (0, 0, 0), (1, 1, 1), 1.0), "three numbers"),
    (Observation("mug", 0.9, (0.5, 0.5, 0.5), (1, 0, 0), (0, 1, 1), 1.0), "bbox_min must not exceed"),
    (Observation("mug", 0.9, (0.5, 0.5, 0.5), (0, 0, 0), (1, 1, 1), math.nan), "stamp must be finite"),
]


@pytest.mark.parametrize("bad,message", BAD)
def test_invalid_input_rejects_the_whole_batch(store, bad, message):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", (1, 0, 0.5), stamp=0)])
        m.commit()
        with pytest.raises(InvalidInputError, match=message):
            m.add([box_obs("book", (2, 0, 0.5), stamp=1), bad])
        assert m.pending() == 0
        assert len(m.observations()) == 1
        assert [o.label for o in m.objects()] == ["mug"]


def test_invalid_view_is_rejected(store):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        bad_pose = np.eye(4)
        bad_pose[0, 0] = 2.0
        view = CameraView(bad_pose, 500, 500, 320, 240, 640, 480, 5.0, np.ones((60, 80), np.float32), 1.0)
        with pytest.raises(InvalidInputError, match="orthonormal"):
            m.add([box_obs("mug", (1, 0, 0.5), stamp=1)], view)
        with pytest.raises(InvalidInputError, match="needs a stamp"):
            m.add([])
        assert m.pending() == 0


def test_unknown_ids_raise_the_unknown_id_error(store):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        for call in (lambda: m.get(42), lambda: m.history(42), lambda: m.forget(42, "x"),
                     lambda: m.update(42, label="cup"), lambda: m.placements(42), lambda: m.contents(42),
                     lambda: m.get("1")):
            with pytest.raises(UnknownIdError):
                call()


def test_objects_filter_by_state(store):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", (1, 0, 0.5), stamp=1), box_obs("book", (3, 0, 0.5), stamp=1)])
        m.commit()
        m.forget(2, "spurious")
        assert [o.id for o in m.objects()] == [1, 2]
        assert [o.id for o in m.objects(state="present")] == [1]
        assert [o.id for o in m.objects(state="forgotten")] == [2]
        assert m.objects(state="missing") == []
        with pytest.raises(InvalidInputError):
            m.objects(state="gone")


def test_spatial_query_order_radius_label_and_k(store):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", (1, 0, 0.5), stamp=1), box_obs("cup", (0, 1, 0.5), stamp=1),
               box_obs("mug", (0.5, 0, 0.5), stamp=1), box_obs("book", (3, 3, 0.5), stamp=1)])
        m.commit()
        hits = m.spatial((0, 0, 0.5), 1.01)
        assert [(h.object.id, round(h.score, 6)) for h in hits] == [(3, 0.5), (1, 1.0), (2, 1.0)]
        assert [h.object.id for h in m.spatial((0, 0, 0.5), 1.01, label="mug")] == [3, 1]
        assert [h.object.id for h in m.spatial((0, 0, 0.5), 1.01, k=1)] == [3]
        assert m.spatial((10, 10, 10), 0.5) == []
        for bad in (dict(center=(math.nan, 0, 0), radius=1), dict(center=(0, 0, 0), radius=0),
                    dict(center=(0, 0, 0), radius=-1)):
            with pytest.raises(InvalidInputError):
                m.spatial(**bad)
        with pytest.raises(InvalidInputError):
            m.spatial((0, 0, 0), 1, k=0)


def test_features_are_stored_as_float32_blobs(store):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", (1, 0, 0.5), stamp=1, feature=unit([1, 2, 3, 4]))])
        m.commit()
        blob = m._conn.execute("SELECT feature FROM objects WHERE id=1").fetchone()[0]
        assert np.allclose(np.frombuffer(blob, np.float32), unit([1, 2, 3, 4]))


def test_embedding_dim_is_taken_from_an_existing_store(store):
    path = store("m")
    with pytest.raises(SchemaError, match="needs embedding_dim"):
        Memory.open(path, config=IMMEDIATE)
    Memory.open(path, embedding_dim=6, config=IMMEDIATE).close()
    with Memory.open(path, readonly=True) as ro:
        assert ro.embedding_dim == 6


def test_events_after_id_is_a_cursor_in_id_order(store):
    from core_helpers import distance_from_eye, view
    a = (2.0, 0.0, 0.8)
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", a, stamp=0)], view(0, a, distance_from_eye(a) + 0.04))
        m.add([box_obs("book", (5, 5, 0.5), stamp=30)])
        for i in range(3):  # the removal is decided at t=42 but stamped with its first miss (40)
            m.add([], view(40 + i, a, distance_from_eye(a) + 1.0))
        m.commit()
        assert [(e.id, e.kind, e.stamp) for e in m.events(after_id=1)] == [(2, "appeared", 30.0), (3, "removed", 40.0)]
        assert [e.id for e in m.events(after_id=0, limit=1)] == [1]
        assert m.events(after_id=3) == []
