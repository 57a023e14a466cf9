"""PostgreSQL schema version 13: what a staged sighting costs the server (postgres/schema.py PLACE_LABELS_TRIGGERS,
STAGED_FREE_INDEXES).

Why: with one fuser beside four robots a robot's commit is its staging, and the sightings' INSERT was its largest
server cost: the label tallies' trigger called for every staged row (placement_id is NULL until the fuser sets it)
and an entry in every index of observations, those of columns a staged row has no value in included. These tests
pin the two things version 13 changes and that the reads and tallies stay what they were.
"""

from __future__ import annotations

import psycopg
import pytest
from core_helpers import IMMEDIATE, box_obs
from store_backends import Stores

from tempomem_ros.core import Memory
from tempomem_ros.core.config import MemoryConfig
from tempomem_ros.core.postgres import schema as pg_schema

# What version 12 had (postgres/schema.py): one trigger without WHEN, the four indexes over every row.
VERSION12 = [
    "DROP TRIGGER place_labels_insert ON observations", "DROP TRIGGER place_labels_update ON observations",
    "DROP TRIGGER place_labels_delete ON observations", pg_schema.PLACE_LABELS_TRIGGER,
    "DROP INDEX observations_object", "CREATE INDEX observations_object ON observations(object_id, stamp, id)",
    "DROP INDEX observations_candidate", "CREATE INDEX observations_candidate ON observations(candidate_id)",
    "DROP INDEX observations_placement", pg_schema.OBSERVATIONS_PLACEMENT_INDEX,
    "DROP INDEX observations_verdict", "CREATE INDEX observations_verdict ON observations(verdict)",
    "UPDATE meta SET value = '12' WHERE key = 'schema_version'",
]

WANT_INDEXES = {
    "observations_object": "(object_id, stamp, id) WHERE (object_id IS NOT NULL)",
    "observations_candidate": "(candidate_id) WHERE (candidate_id IS NOT NULL)",
    "observations_placement": "(placement_id, stamp, id) WHERE (placement_id IS NOT NULL)",
    "observations_verdict": "(verdict) WHERE (verdict <> 'pending'::text)",
}
WANT_TRIGGERS = {
    "place_labels_insert": "AFTER INSERT ON observations FOR EACH ROW WHEN ((new.placement_id IS NOT NULL))",
    "place_labels_update": "AFTER UPDATE OF placement_id, label ON observations FOR EACH ROW WHEN "
                           "(((old.placement_id IS DISTINCT FROM new.placement_id) OR (old.label IS DISTINCT FROM "
                           "new.label)))",
    "place_labels_delete": "AFTER DELETE ON observations FOR EACH ROW WHEN ((old.placement_id IS NOT NULL))",
}
TALLY = "SELECT placement_id, label, kept, thinned FROM place_labels ORDER BY placement_id, label"


@pytest.fixture
def pg(pg_cluster):
    stores = Stores("postgresql", None, pg_cluster)
    try:
        yield stores
    finally:
        stores.cleanup()


def _config() -> MemoryConfig:
    return MemoryConfig.from_dict({**IMMEDIATE, "source": "robot_a"})


def _schema_of(pg: Stores, address: str) -> tuple[dict, dict]:
    """({index: its columns and predicate}, {place_labels trigger: its timing, events and WHEN}) of the store."""
    indexes = {name: d.split(" USING btree ", 1)[1] for name, d in pg.raw(
        address, "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() "
                 "AND indexname = ANY(%s)", (list(WANT_INDEXES),))}
    triggers = {name: d.split(f"{name} ", 1)[1].replace(f"{schema}.", "").replace(
        " EXECUTE FUNCTION tempomem_place_labels()", "") for name, d, schema in pg.raw(
        address, "SELECT tgname, pg_get_triggerdef(t.oid), current_schema() FROM pg_trigger t "
                 "WHERE tgrelid = to_regclass('observations') AND tgname LIKE 'place_labels%%'")}
    return indexes, triggers


def test_a_fresh_and_a_migrated_version_12_store_have_the_triggers_with_when_and_the_partial_indexes(pg):
    fresh, old = pg("fresh"), pg("old")
    for address in (fresh, old):
        with Memory.open(address, embedding_dim=4, config=_config()) as m:
            m.add([box_obs("mug", (1.0, 0.0, 0.5), stamp=1.0)])
            m.commit()
    assert _schema_of(pg, fresh) == (WANT_INDEXES, WANT_TRIGGERS)
    for stmt in VERSION12:
        pg.raw(old, stmt)
    aged_indexes, aged_triggers = _schema_of(pg, old)
    assert aged_indexes["observations_verdict"] == "(verdict)" and set(aged_triggers) == {"place_labels_kept"}
    with Memory.open(old, embedding_dim=4, config=_config()) as m:  # the writer migrates
        m.add([box_obs("mug", (1.0, 0.0, 0.5), stamp=2.0)])
        m.commit()
    assert pg.raw(old, "SELECT value FROM meta WHERE key = 'schema_version'") == [("17",)]
    assert _schema_of(pg, old) == (WANT_INDEXES, WANT_TRIGGERS)
    assert pg.raw(old, TALLY) == [(1, "mug", 2, 0)]  # kept by the new triggers after the migration


def _calls(con) -> int:
    """The label tallies' function's calls in this transaction (track_functions = 'pl', set locally)."""
    return con.execute("SELECT COALESCE(pg_stat_get_xact_function_calls('tempomem_place_labels'::regproc), 0)"
                       ).fetchone()[0]


def test_the_tally_function_runs_only_for_a_row_it_changes(pg):
    """A staged sighting (no placement) calls nothing; a fused one, a re-pointed or relabelled one and a deleted
    placed one call it once each and keep the tallies; an update that leaves placement and label as they were and
    the deletion of an unplaced sighting call nothing. Version 12 called it for every row written (20 a staged
    frame)."""
    address = pg()
    with Memory.open(address, embedding_dim=4, config=_config()) as m:
        m.add([box_obs("mug", (1.0, 0.0, 0.5), stamp=1.0)])
        m.commit()
    with psycopg.connect(address) as con:  # one transaction: its function calls are counted before any flush
        con.execute("SET LOCAL track_functions = 'pl'")
        (frame,) = con.execute("SELECT frame_id FROM observations").fetchone()
        insert = ("INSERT INTO observations (frame_id, stamp, recorded_at, label, confidence, cx, cy, cz, min_x, "
                  "min_y, min_z, max_x, max_y, max_z, placement_id) VALUES (%s, 3, 3, %s, 0.9, 0, 0, 0, 0, 0, 0, "
                  "1, 1, 1, %s) RETURNING id")
        staged = [con.execute(insert, (frame, "cup", None)).fetchone()[0] for _ in range(20)]
        assert _calls(con) == 0
        (placed,) = con.execute(insert, (frame, "cup", 1)).fetchone()
        assert _calls(con) == 1
        con.execute("UPDATE observations SET placement_id = 1 WHERE id = %s", (staged[0],))  # fused
        con.execute("UPDATE observations SET label = 'bowl' WHERE id = %s", (staged[0],))  # relabelled
        assert _calls(con) == 3
        con.execute("UPDATE observations SET placement_id = 1, label = 'bowl', verdict = 'merged' WHERE id = %s",
                    (staged[0],))  # the same placement and label
        con.execute("UPDATE observations SET label = label WHERE id = ANY(%s)", (staged[1:],))
        con.execute("DELETE FROM observations WHERE id = ANY(%s)", (staged[1:],))
        assert _calls(con) == 3
        con.execute("DELETE FROM observations WHERE id = %s", (placed,))  # thinned
        assert _calls(con) == 4
        assert con.execute(TALLY).fetchall() == [(1, "bowl", 1, 0), (1, "cup", 0, 1), (1, "mug", 1, 0)]


def _plan(con, sql: str, types: str = "", args: str = "") -> str:
    """The generic plan of ``sql`` with parameters of ``types`` (the store's statements are prepared with
    parameters: a partial index must serve them whatever the values)."""
    if not types:
        return "\n".join(r[0] for r in con.execute("EXPLAIN " + sql))
    con.execute(f"PREPARE q({types}) AS {sql}")
    try:
        return "\n".join(r[0] for r in con.execute(f"EXPLAIN EXECUTE q({args})"))
    finally:
        con.execute("DEALLOCATE q")


def test_the_reads_by_object_placement_and_verdict_use_the_partial_indexes_and_staged_rows_are_not_in_them(pg):
    """Every read that names a value still finds its index (the planner proves the predicate from a strict
    comparison, for any parameter), in its order; the fuser's read of a frame's pending sightings does not AND the
    verdict index with the frame's (version 12's plan: every pending row of the store read a frame); a scan for the
    NULLs a staged row has finds no index to use."""
    address = pg()
    with Memory.open(address, embedding_dim=4, config=_config()) as m:
        m.add([box_obs("mug", (1.0, 0.0, 0.5), stamp=1.0)])
        m.commit()
    robot = Memory.open(address, embedding_dim=4, config=_config())
    robot.add([box_obs("cup", (3.0, 0.0, 0.5), stamp=2.0)])
    robot.close(fuse=False)  # staged, not fused
    with psycopg.connect(address, autocommit=True) as con:  # tiny tables: the planner must be told to use indexes
        con.execute("SET enable_seqscan = off")
        con.execute("SET plan_cache_mode = force_generic_plan")
        uses = [
            ("SELECT id FROM observations WHERE object_id = $1 ORDER BY stamp DESC, id DESC LIMIT 50", "bigint", "1",
             "Index Only Scan Backward using observations_object"),
            ("SELECT id FROM observations WHERE object_id IN ($1, $2) AND stamp >= $3 AND stamp <= $4",
             "bigint, bigint, float8, float8", "1, 2, 0, 9", "observations_object"),
            ("SELECT id FROM observations WHERE placement_id = $1 ORDER BY stamp DESC, id DESC LIMIT $2",
             "bigint, bigint", "1, 5", "Index Only Scan Backward using observations_placement"),
            ("SELECT id FROM observations WHERE placement_id IN ($1, $2)", "bigint, bigint", "1, 2",
             "observations_placement"),
            ("SELECT id FROM observations WHERE reject_key IS NULL AND verdict='rejected' ORDER BY id", "", "",
             "observations_verdict"),
            ("SELECT id FROM observations WHERE candidate_id = $1", "bigint", "1", "observations_candidate"),
        ]
        for sql, types, args, want in uses:
            assert want in _plan(con, sql, types, args), sql
        pending = _plan(con, "SELECT id FROM observations WHERE frame_id = $1 AND verdict = 'pending' ORDER BY id",
                        "bigint", "2")
        assert "observations_frame" in pending and "observations_verdict" not in pending
        for column in ("object_id", "candidate_id", "placement_id"):
            assert f"observations_{column.split('_')[0]}" not in _plan(
                con, f"SELECT id FROM observations WHERE {column} IS NULL")
        assert "observations_verdict" not in _plan(con, "SELECT id FROM observations WHERE verdict = 'pending'")
        assert con.execute("SELECT label, verdict FROM observations ORDER BY id").fetchall() == [
            ("mug", "created"), ("cup", "pending")]
