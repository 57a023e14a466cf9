"""A closed placement is history: the trigger placements_closed_immutable (schema version 10, SQLite and
PostgreSQL) refuses any change of it, reopening included, but for the one amendment graph_writes.end_removal_at_move
makes (a removal retracted by a move ends at the move). Every test runs on both backends (store_backends.py)."""
from __future__ import annotations

import pytest
from core_helpers import box_obs, distance_from_eye, view

from tempomem_ros.core import Memory

A, B = (2.0, 0.0, 0.8), (0.0, 2.0, 0.8)
COLUMNS = "t_from, t_last, t_to, current, opened_by, closed_reason"


def _removed_then_found_elsewhere(m) -> tuple[int, int]:
    """The mug seen at A (10-12 s), A seen empty (20-22 s: removed, closed at 20 s), the mug seen at B from 30 s
    (the removed mug moved: its twin's placement closed "merged", a new one opened "moved"): (the removed
    placement's id, the open one's)."""
    for i in range(3):
        m.add([box_obs("mug", A, stamp=10 + i)], view(10 + i, A, distance_from_eye(A) + 0.04))
    for i in range(3):
        m.add([], view(20 + i, A, distance_from_eye(A) + 1.0))
    for t in (30.0, 30.5, 31.0):
        m.add([box_obs("mug", B, stamp=t)], view(t, B, distance_from_eye(B) + 0.04))
    m.commit()
    rows = [tuple(r) for r in m._conn.execute(f"SELECT id, {COLUMNS} FROM placements ORDER BY id")]
    assert [r[1:] for r in rows] == [(10.0, 12.0, 20.0, 0, "appeared", "removed"),
                                     (30.0, 31.0, 31.0, 0, "appeared", "merged"),
                                     (30.0, 31.0, None, 1, "moved", "")]
    return rows[0][0], rows[2][0]


def _placements(m) -> list[tuple]:
    return [tuple(r) for r in m._conn.execute(f"SELECT id, {COLUMNS} FROM placements ORDER BY id")]


def test_end_removal_at_move_leaves_an_open_placement_as_it_is(store):
    # review of integ37, M1: on PostgreSQL the first UPDATE's rowcount (-1, pipelined) did not stop it, and the
    # open placement was closed "moved" with no event or audit; SQLite changed nothing
    with Memory.open(store("m"), embedding_dim=4) as m:
        removed, open_ = _removed_then_found_elsewhere(m)
        before = _placements(m)
        with m._store.transaction():
            got = [m._graph.end_removal_at_move(open_, 0.0), m._graph.end_removal_at_move(open_, 30.5)]
        assert (got, _placements(m)) == ([None, None], before)


def test_end_removal_at_move_amends_only_a_removal_that_ends_after_the_move(store):
    with Memory.open(store("m"), embedding_dim=4) as m:
        removed, open_ = _removed_then_found_elsewhere(m)
        before = _placements(m)
        with m._store.transaction():  # ends no later than the move (20 <= 25), or None: nothing to amend
            assert [m._graph.end_removal_at_move(removed, 25.0), m._graph.end_removal_at_move(None, 0.0)] == [
                None, None]
        assert _placements(m) == before
        with m._store.transaction():  # the move at 11 s, before the last sighting: ends at the last sighting
            got = m._graph.end_removal_at_move(removed, 11.0)
        assert got == {"id": removed, "t_to_was": 20.0, "closed_reason_was": "removed", "t_to": 12.0}
        assert _placements(m) == [(removed, 10.0, 12.0, 12.0, 0, "appeared", "moved"), *before[1:]]
        with m._store.transaction():  # closed "moved" now: once only
            assert m._graph.end_removal_at_move(removed, 10.0) is None
        assert _placements(m)[0] == (removed, 10.0, 12.0, 12.0, 0, "appeared", "moved")


def test_a_closed_placement_cannot_be_reopened_or_changed_but_for_the_one_amendment(store):
    # review of integ37, M3: `SET current=1` reopened a closed placement (current and closed_reason were not in
    # the trigger's columns), and then everything could be rewritten
    with Memory.open(store("m"), embedding_dim=4) as m:
        removed, open_ = _removed_then_found_elsewhere(m)
        before = _placements(m)
        refused = [
            "current = 1",
            "current = 1, t_to = NULL, closed_reason = ''",
            "closed_reason = 'forgotten'",
            "closed_reason = ''",
            "opened_by = 'moved'",
            "closed_reason = 'moved', t_to = 21.0",            # later than it ended
            "closed_reason = 'moved', t_to = 11.0",            # before its last sighting
            "closed_reason = 'moved', t_to = NULL",
            "t_to = 15.0",                                     # the end only with the reason
            "closed_reason = 'moved', t_to = 15.0, cx = cx + 1",
            "closed_reason = 'moved', t_to = 15.0, t_last = 13.0",
            "closed_reason = 'moved', t_to = 15.0, current = 1",
        ]
        for change in refused:
            with pytest.raises(Exception, match="a closed placement is immutable"):
                with m._store.transaction():
                    m._conn.execute(f"UPDATE placements SET {change} WHERE id = ?", (removed,))
            assert _placements(m) == before, change
        with m._store.transaction():  # the amendment, in one statement
            m._conn.execute("UPDATE placements SET closed_reason = 'moved', t_to = 15.0 WHERE id = ?", (removed,))
        amended = (removed, 10.0, 12.0, 15.0, 0, "appeared", "moved")
        assert _placements(m) == [amended, *before[1:]]
        for change in ("t_to = 14.0", "closed_reason = 'removed'", "closed_reason = 'moved', t_to = 14.0",
                       "current = 1"):  # and once only: a placement closed "moved" is as immutable as any
            with pytest.raises(Exception, match="a closed placement is immutable"):
                with m._store.transaction():
                    m._conn.execute(f"UPDATE placements SET {change} WHERE id = ?", (removed,))
        assert _placements(m) == [amended, *before[1:]]
        with m._store.transaction():  # the open one may change
            m._conn.execute("UPDATE placements SET t_last = 31.5 WHERE id = ?", (open_,))
        assert _placements(m)[2] == (open_, 30.0, 31.5, None, 1, "moved", "")


# The trigger versions 4-9 created (SQLite, PostgreSQL): current and closed_reason not among its columns.
V9_TRIGGER = {
    "sqlite": ["DROP TRIGGER placements_closed_immutable",
               """CREATE TRIGGER placements_closed_immutable
    BEFORE UPDATE OF object_id, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, region_id, t_from, t_last,
    t_to ON placements WHEN OLD.current = 0
    BEGIN SELECT RAISE(ABORT, 'a closed placement is immutable'); END"""],
    "postgresql": ["DROP TRIGGER placements_closed_immutable ON placements",
                   """CREATE TRIGGER placements_closed_immutable
    BEFORE UPDATE OF object_id, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, region_id, t_from, t_last,
    t_to ON placements FOR EACH ROW WHEN (OLD.current = 0)
    EXECUTE FUNCTION tempomem_closed_placement_immutable()"""],
}


def test_a_version_9_store_gains_the_trigger_that_refuses_reopening(store):
    address = store("m")
    with Memory.open(address, embedding_dim=4) as m:
        removed, _ = _removed_then_found_elsewhere(m)
        before = _placements(m)
    for stmt in V9_TRIGGER[store.backend] + ["ALTER TABLE held_events DROP COLUMN lookalike_id",
                                             "UPDATE meta SET value = '9' WHERE key = 'schema_version'"]:
        store.raw(address, stmt)  # make it what version 9 wrote
    reopen = "UPDATE placements SET current = 1 WHERE id = " + str(removed)
    with Memory.open(address, embedding_dim=4) as m:  # the writer migrates
        assert _placements(m) == before
        assert m._conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "17"
        with pytest.raises(Exception, match="a closed placement is immutable"):
            with m._store.transaction():
                m._conn.execute(reopen)
        with m._store.transaction():
            assert m._graph.end_removal_at_move(removed, 15.0) == {
                "id": removed, "t_to_was": 20.0, "closed_reason_was": "removed", "t_to": 15.0}
        assert _placements(m)[0] == (removed, 10.0, 12.0, 15.0, 0, "appeared", "moved")
