"""Schema version 15 (core/store/schema.py KEPT_SIGHTING_FREE_INDEXES): a kept sighting and a compacted frame enter
only the indexes a read uses. No source index; the verdict and candidate indexes hold the rejected sightings and
nothing else, and the reads of rejected sightings use them; a version-14 store is read as it is and migrated by a
writer's open, with the same answers."""

from __future__ import annotations

from core_helpers import box_obs, distance_from_eye, view

from tempomem_ros.core import Memory
from tempomem_ros.core.store.schema import SCHEMA_VERSION
from tempomem_ros.core.store.schema import sqlite3 as store_sqlite3

A = (2.0, 0.0, 0.8)
GHOST = (3.0, 3.0, 0.4)
SEEN = distance_from_eye(A) + 0.04
WALL = 2.0e9  # the wall clock of the memory (2033): no stamp is "in the future"
# the indexes of observations and frames as version 14 made them
VERSION14 = ["DROP INDEX observations_candidate", "DROP INDEX observations_verdict",
             "CREATE INDEX observations_candidate ON observations(candidate_id)",
             "CREATE INDEX observations_verdict ON observations(verdict)",
             "CREATE INDEX frames_source ON frames(source, stamp)",
             "CREATE INDEX observations_source ON observations(source, stamp)",
             "UPDATE meta SET value='14' WHERE key='schema_version'"]


def _store(path: str) -> None:
    """A mug seen 300 times (thinned to its sample, its frames compacted) beside a low-confidence ghost rejected
    300 times under one key (thinned per key), 150 s of stamps."""
    cfg = {"rejection": {"promote_count": 100000}}
    with Memory.open(path, embedding_dim=4, config=cfg, clock=lambda: WALL) as m:
        for k in range(300):
            m.add([box_obs("mug", A, stamp=0.5 * k), box_obs("ghost", GHOST, stamp=0.5 * k, conf=0.1)],
                  view(0.5 * k, A, SEEN))
            if k % 5 == 4:
                m.commit()
        m.commit()


def _indexes(con) -> dict[str, str]:
    return {name: sql for name, sql in con.execute(
        "SELECT name, sql FROM sqlite_master WHERE type='index' AND tbl_name IN ('observations', 'frames') "
        "AND sql IS NOT NULL")}


def _answers(m: Memory) -> tuple:
    return ([(o.id, o.label, o.state, o.n_observations) for o in m.objects()],
            [(r.id, r.verdict, r.object_id, r.candidate_id) for r in m.observations("rejected")],
            [r.id for r in m.observations("merged")], m.retention_stats()["thinned_rejecteds"])


def test_kept_sightings_and_compacted_frames_enter_only_the_indexes_a_read_uses(tmp_path):
    path = str(tmp_path / "s.db")
    _store(path)
    con = store_sqlite3.connect(path)
    indexes = _indexes(con)
    assert "frames_source" not in indexes and "observations_source" not in indexes
    assert indexes["observations_verdict"].endswith("ON observations(verdict) WHERE verdict = 'rejected'")
    assert indexes["observations_candidate"].endswith("ON observations(candidate_id) WHERE verdict = 'rejected'")
    verdicts = dict(con.execute("SELECT verdict, COUNT(*) FROM observations GROUP BY verdict").fetchall())
    assert verdicts["merged"] > 20 and 0 < verdicts["rejected"] < 300  # kept samples of both, the rest thinned
    for name in ("observations_verdict", "observations_candidate"):  # the rejected sightings, and only those
        assert con.execute(f"SELECT COUNT(*) FROM observations INDEXED BY {name} WHERE verdict = 'rejected'") \
            .fetchone()[0] == verdicts["rejected"]
    assert con.execute("SELECT COUNT(*) FROM frames WHERE status='compacted'").fetchone()[0] > 10
    # the reads of rejected sightings (RetentionRows.processed_rejected_of_candidate / _of_key, FusionRows'
    # sightings of a key) use the partial indexes; the fuser's pending sightings of a frame its frame index
    plans = {q: " ".join(str(r[3]) for r in con.execute("EXPLAIN QUERY PLAN " + q, args)) for q, args in (
        ("SELECT id FROM observations WHERE candidate_id IS ? AND verdict='rejected' AND reason=? AND "
         "reject_key IS NULL AND (retained & 1) = 1", (None, "low_confidence")),
        ("SELECT id FROM observations WHERE reject_key = ? AND verdict='rejected' AND reason=? AND "
         "(retained & 1) = 1", ("k", "low_confidence")),
        ("SELECT id FROM observations WHERE reject_key=? AND verdict='rejected' ORDER BY id", ("k",)),
        ("SELECT id FROM observations WHERE frame_id=? AND verdict='pending' ORDER BY id", (1,)))}
    assert list(plans.values()) == [
        "SEARCH observations USING INDEX observations_candidate (candidate_id=?)",
        "SEARCH observations USING INDEX observations_verdict (verdict=?)",
        "SEARCH observations USING INDEX observations_verdict (verdict=?)",
        "SEARCH observations USING INDEX observations_frame (frame_id=?)"], plans
    con.close()


def test_a_version_14_store_is_read_as_it_is_then_migrated_with_the_same_answers(tmp_path):
    path = str(tmp_path / "v14.db")
    _store(path)
    with Memory.open(path, embedding_dim=4, readonly=True) as m:
        want = _answers(m)
    assert len(want[1]) > 0 and len(want[2]) > 20
    con = store_sqlite3.connect(path)
    for stmt in VERSION14:
        con.execute(stmt)
    con.commit()
    con.close()
    with Memory.open(path, embedding_dim=4, readonly=True) as m:  # read as it is: not migrated
        assert _answers(m) == want
        assert m._conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == "14"
    with Memory.open(path, embedding_dim=4, clock=lambda: WALL) as m:  # the writer migrates
        assert _answers(m) == want
    con = store_sqlite3.connect(path)
    assert con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == str(SCHEMA_VERSION) \
        == "17"
    indexes = _indexes(con)
    assert "frames_source" not in indexes and "observations_source" not in indexes
    assert all(indexes[n].endswith("WHERE verdict = 'rejected'") for n in ("observations_verdict",
                                                                          "observations_candidate"))
    assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    con.close()
