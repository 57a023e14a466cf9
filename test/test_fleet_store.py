"""Sources and the shared frame, on both backends (docs/FLEET.md).

Why here and not in the fleet process tests: which robot saw what is part of every stored row, so it must
hold for one writer on SQLite exactly as for a fleet on PostgreSQL; these run in-process through the one
``store`` fixture (test/store_backends.py).
"""

from __future__ import annotations

import sqlite3 as stdlib_sqlite3

import pytest
from core_helpers import IMMEDIATE, box_obs, make_version5

from tempomem_ros.core import Memory
from tempomem_ros.core.config import MemoryConfig
from tempomem_ros.core.errors import InvalidInputError, SchemaError
from tempomem_ros.core.store.schema import SCHEMA_VERSION


#: What drops the label tallies' triggers of the current PostgreSQL schema (version 13: one a write).
DROP_PLACE_LABEL_TRIGGERS = tuple(f"DROP TRIGGER {name} ON observations"
                                  for name in ("place_labels_insert", "place_labels_update", "place_labels_delete"))


def config(source: str) -> MemoryConfig:
    return MemoryConfig.from_dict({**IMMEDIATE, "source": source})


def test_every_frame_observation_and_audit_row_names_its_source(store):
    address = store()
    with Memory.open(address, embedding_dim=4, config=config("robot_a")) as m:
        first = m.add([box_obs("mug", (1.0, 0.0, 0.5), stamp=1.0)])
        second = m.add([box_obs("mug", (1.0, 0.0, 0.5), stamp=2.0)], source="robot_b")
        m.commit()
        (mug,) = m.objects_labelled("mug")
        assert [(o.id, o.source) for o in m.history(mug.id)] == [(first[0], "robot_a"), (second[0], "robot_b")]
        assert m.observation(second[0]).source == "robot_b"
        assert m.sources_of([second[0], first[0], second[0]]) == ("robot_b", "robot_a", "robot_b")
        assert m.sources_of([]) == ()
        audit = m.audit()
        assert audit and {a.source for a in audit} == {"robot_a"}  # the writer, whoever saw the frames
        answer = m.ask("where is the mug")
        assert answer.evidence and answer.evidence_sources == m.sources_of(answer.evidence)
        assert set(answer.evidence_sources) <= {"robot_a", "robot_b"}


def test_a_memory_without_a_source_stamps_the_empty_one(store):
    with Memory.open(store(), embedding_dim=4, config=IMMEDIATE) as m:
        (oid,) = m.add([box_obs("cup", (0.0, 1.0, 0.5), stamp=1.0)])
        m.commit()
        assert m.observation(oid).source == ""
        assert {a.source for a in m.audit()} == {""}


@pytest.mark.parametrize("bad", ["-x", "/robot", ".hidden", "a b", "x" * 65, "robot\n", 7, "é"])
def test_a_malformed_source_is_refused_and_nothing_is_stored(store, bad):
    with Memory.open(store(), embedding_dim=4, config=IMMEDIATE) as m:
        with pytest.raises(InvalidInputError, match="source must be"):
            m.add([box_obs("cup", (0.0, 1.0, 0.5), stamp=1.0)], source=bad)
        assert m.observations() == []
        assert m.audit() == []
    with pytest.raises(InvalidInputError, match="source must be"):
        MemoryConfig.from_dict({"source": bad})


def test_a_writer_in_another_frame_is_refused(store):
    address = store()
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE, world_frame="map") as m:
        m.add([box_obs("cup", (0.0, 1.0, 0.5), stamp=1.0)])
    with pytest.raises(SchemaError, match="'map'.*'odom'|'odom'.*'map'"):
        Memory.open(address, embedding_dim=4, config=IMMEDIATE, world_frame="odom")
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:  # no frame named: the store's is used
        assert len(m.observations()) == 1


def test_a_shared_database_is_only_created_in_map(store):
    if not store.postgres:
        path = store()
        with Memory.open(path, embedding_dim=4, world_frame="odom") as m:  # one robot's file may use any frame
            m.add([box_obs("cup", (0.0, 1.0, 0.5), stamp=1.0)])
        with pytest.raises(SchemaError, match="'odom'"):
            Memory.open(path, embedding_dim=4, world_frame="map")
        return
    with pytest.raises(SchemaError, match="kept in the 'map' frame"):
        Memory.open(store(), embedding_dim=4, world_frame="odom")


def test_a_version_5_sqlite_store_gains_sources_keeping_its_rows(tmp_path):
    """SQLite version 5 -> 6 adds the source columns; the rows written before carry the empty source, and a
    read-only open of the old store reads them as such without migrating it."""
    path = str(tmp_path / "m.db")
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:
        (oid,) = m.add([box_obs("mug", (1.0, 0.0, 0.5), stamp=1.0)], source="robot_a")
        m.commit()
        before = [(a.id, a.action) for a in m.audit()]
    make_version5(path)
    with Memory.open(path, embedding_dim=4, readonly=True) as ro:
        assert ro.observation(oid).source == "" and ro.sources_of([oid]) == ("",)
        assert [(a.id, a.action, a.source) for a in ro.audit()] == [(i, action, "") for i, action in before]
    con = stdlib_sqlite3.connect(path)
    assert con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == "5"  # not migrated
    con.close()
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE, world_frame="odom") as m:  # no frame recorded yet
        assert m.observation(oid).source == ""
        assert [(a.id, a.action) for a in m.audit()] == before
        (new,) = m.add([box_obs("mug", (1.0, 0.0, 0.5), stamp=2.0)], source="robot_b")
        assert m.observation(new).source == "robot_b"
    con = stdlib_sqlite3.connect(path)  # migrated to the current version (10; 7: the partial frames_pending index)
    assert con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == str(SCHEMA_VERSION) == "17"
    assert con.execute("SELECT sql FROM sqlite_master WHERE name='frames_pending'").fetchone()[0].endswith(
        "WHERE status <> 'compacted'")
    # version 8: a placement's newest observations (the evidence every answer cites) read from the index alone
    assert con.execute("SELECT sql FROM sqlite_master WHERE name='observations_placement'").fetchone()[0].endswith(
        "ON observations(placement_id, stamp)")
    plan = [r[3] for r in con.execute("EXPLAIN QUERY PLAN SELECT id FROM observations WHERE placement_id=? "
                                      "ORDER BY stamp DESC, id DESC LIMIT 5", (1,))]
    assert plan == ["SEARCH observations USING COVERING INDEX observations_placement (placement_id=?)"]
    # and the sighting tallies a "was it seen since" question counts, by their last stamp (not every tally since
    # the object's first day)
    plan = [r[3] for r in con.execute("EXPLAIN QUERY PLAN SELECT object_id, n FROM tallies WHERE kind='sighting' "
                                      "AND object_id IN (?) AND +t_first <= ? AND t_last >= ?", (1, 9e99, 5.0))]
    assert plan == ["SEARCH tallies USING INDEX tallies_sighting_last (object_id=? AND t_last>?)"]
    con.close()


def test_the_query_side_can_run_as_a_role_that_may_only_read(pg_cluster, monkeypatch):
    """A role granted by grant_reader reads the memory through a read-only Memory; it cannot write, even with a
    writable open; its password comes from libpq's environment (PGPASSWORD), never from the address."""
    from tempomem_ros.core.errors import StoreAccessError
    from tempomem_ros.core.postgres.roles import grant_reader

    schema_name, owner = pg_cluster.new_schema()
    try:
        with Memory.open(owner, embedding_dim=4, config=config("robot_a")) as m:
            (oid,) = m.add([box_obs("mug", (1.0, 0.0, 0.5), stamp=1.0)])
            m.commit()
        role = f"reader_{schema_name}"
        pg_cluster.sandbox.add_role(role, "s3cret-reader")
        granted = grant_reader(owner, role)
        assert {"objects", "observations", "audit", "meta"} <= set(granted)
        reader = owner.replace("postgresql://tempomem@", f"postgresql://{role}@", 1)
        assert reader != owner and "s3cret" not in reader
        monkeypatch.setenv("PGPASSWORD", "s3cret-reader")
        with Memory.open(reader, readonly=True) as ro:
            assert [o.label for o in ro.objects()] == ["mug"] and ro.observation(oid).source == "robot_a"
            assert "s3cret" not in ro.path
        with pytest.raises(StoreAccessError, match="permission denied|read-only") as err:
            with Memory.open(reader, embedding_dim=4) as rw:
                rw.add([box_obs("cup", (0.0, 1.0, 0.5), stamp=2.0)])
        assert "s3cret" not in str(err.value)
        with Memory.open(owner, readonly=True) as m:
            assert [o.label for o in m.observations()] == ["mug"]  # nothing written
    finally:
        pg_cluster.drop_schema(schema_name)


def test_a_role_granted_before_version_11_reads_the_label_tallies_its_migration_made(pg_cluster, monkeypatch):
    """grant_reader grants the tables a store has; a version-10 store has no place_labels. The writer's migration
    creates it and grants it to the roles that read the memory, so the query side's role still names changes (the
    naming reads the tallies). Before the fix: permission denied for table place_labels."""
    from tempomem_ros.core.postgres.roles import grant_reader

    schema_name, owner = pg_cluster.new_schema()
    try:
        with Memory.open(owner, embedding_dim=4, config=config("robot_a")) as m:
            m.add([box_obs("mug", (1.0, 0.0, 0.5), stamp=1.0)])
            m.commit()
        for stmt in (*DROP_PLACE_LABEL_TRIGGERS, "DROP FUNCTION tempomem_place_labels()",
                     "DROP TABLE place_labels", "UPDATE meta SET value = '10' WHERE key = 'schema_version'"):
            pg_cluster.sandbox.psql(f"SET search_path = {schema_name}; {stmt}", "tempomem_tests")
        role = f"reader_{schema_name}"
        pg_cluster.sandbox.add_role(role, "s3cret-reader")
        assert "place_labels" not in grant_reader(owner, role)
        with Memory.open(owner, embedding_dim=4, config=config("robot_a")) as m:  # the writer migrates
            assert m._meta["schema_version"] == "17"
        monkeypatch.setenv("PGPASSWORD", "s3cret-reader")
        reader = owner.replace("postgresql://tempomem@", f"postgresql://{role}@", 1)
        with Memory.open(reader, readonly=True) as ro:
            assert ro._reads._place_labels.kept_by_label([1]) == {1: {"mug": 1}}
            assert [(e.kind, e.label) for e in ro.changes()] == [("appeared", "mug")]
    finally:
        pg_cluster.drop_schema(schema_name)


# The indexes PostgreSQL schema version 6 had where versions 7, 8, 9 and 13 changed or added one
# (postgres/schema.py).
PG_VERSION6_INDEXES = {
    "frames_pending": "CREATE INDEX frames_pending ON frames(status, stamp, id)",
    "observations_placement": "CREATE INDEX observations_placement ON observations(placement_id)",
    "observations_object": "CREATE INDEX observations_object ON observations(object_id, stamp, id)",
    "observations_candidate": "CREATE INDEX observations_candidate ON observations(candidate_id)",
    "observations_verdict": "CREATE INDEX observations_verdict ON observations(verdict)",
    "tallies_sighting_last": None,  # did not exist
    "placements_current": None,  # did not exist (version 9)
    "placements_object": "CREATE INDEX placements_object ON placements(object_id, t_from, id)",
}


def _pg_indexes(store, address: str) -> dict[str, str]:
    """{index name: its definition without the schema name} of every index of the store's schema."""
    rows = store.raw(address, "SELECT indexname, indexdef, schemaname FROM pg_indexes "
                              "WHERE schemaname = current_schema() ORDER BY indexname")
    return {name: definition.replace(f" ON {schema}.", " ON ") for name, definition, schema in rows}


def _make_pg_version6(store, address: str) -> None:
    """Turn a PostgreSQL store into what schema version 6 created (its frames_pending and observations_placement
    indexes, no tallies_sighting_last or placements_current, no held_events.lookalike_id), as a database created
    before version 7 is."""
    for name, old in PG_VERSION6_INDEXES.items():
        store.raw(address, f"DROP INDEX {name}")
        if old is not None:
            store.raw(address, old)
    store.raw(address, "ALTER TABLE held_events DROP COLUMN lookalike_id")  # version 10's
    for stmt in (*DROP_PLACE_LABEL_TRIGGERS, "DROP FUNCTION tempomem_place_labels()",
                 "DROP TABLE place_labels"):  # version 11's (13's triggers)
        store.raw(address, stmt)
    store.raw(address, "DROP TABLE label_looks")  # version 16's
    store.raw(address, "DROP TABLE label_look_counts")  # version 17's
    store.raw(address, "ALTER TABLE label_mass DROP COLUMN excess")
    store.raw(address, "UPDATE meta SET value = '6' WHERE key = 'schema_version'")


def _held_columns(store, address: str) -> list[tuple]:
    """(name, type) of every column of held_events, in order."""
    return store.raw(address, "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = "
                              "current_schema() AND table_name = 'held_events' ORDER BY ordinal_position")


def test_a_postgresql_store_has_the_indexes_of_sqlite_version_10_fresh_and_migrated(pg_cluster):
    """Schema parity: SQLite version 8 reads a placement's newest observations and the sighting tallies since a
    time through two indexes, version 9 an object's current placement through a partial one, version 10 keeps a
    held appearance's look-alike wait in held_events.lookalike_id; a fresh PostgreSQL store has them (version 10
    too), and a version-6 database gains
    them by the forward migration of its first writable open, keeping its rows; a read-only open of it refuses
    (needs migration) and changes nothing. The migrated store's indexes are the fresh one's, name for name, and so
    are its held_events columns."""
    from tempomem_ros.core.postgres import schema as pg_schema

    from store_backends import Stores

    store = Stores("postgresql", None, pg_cluster)
    try:
        fresh, old = store("fresh"), store("old")
        for address in (fresh, old):
            with Memory.open(address, embedding_dim=4, config=config("robot_a")) as m:
                (oid,) = m.add([box_obs("mug", (1.0, 0.0, 0.5), stamp=1.0)])
                m.commit()
        want = _pg_indexes(store, fresh)
        assert pg_schema.SCHEMA_VERSION == 17
        assert store.raw(fresh, "SELECT value FROM meta WHERE key = 'schema_version'") == [("17",)]
        held_columns = _held_columns(store, fresh)
        assert held_columns[-2:] == [("reason", "text"), ("lookalike_id", "bigint")]
        assert want["placements_current"] == ("CREATE INDEX placements_current ON placements USING btree "
                                              "(object_id, t_from, id) WHERE (current = 1)")
        assert want["placements_object"] == ("CREATE INDEX placements_object ON placements USING btree "
                                             "(object_id, t_from, id, t_to)")
        assert want["placements_start"] == "CREATE INDEX placements_start ON placements USING btree (t_from, object_id)"
        assert want["observations_placement"] == ("CREATE INDEX observations_placement ON observations USING btree "
                                                  "(placement_id, stamp, id) WHERE (placement_id IS NOT NULL)")
        assert want["tallies_sighting_last"] == ("CREATE INDEX tallies_sighting_last ON tallies USING btree "
                                                 "(object_id, t_last) WHERE (kind = 'sighting'::text)")
        assert want["frames_pending"] == ("CREATE INDEX frames_pending ON frames USING btree (status, stamp, id) "
                                          "WHERE (status <> 'compacted'::text)")
        _make_pg_version6(store, old)
        aged = _pg_indexes(store, old)
        assert "tallies_sighting_last" not in aged and "placements_current" not in aged
        assert aged["placements_object"] == ("CREATE INDEX placements_object ON placements USING btree "
                                             "(object_id, t_from, id)")
        assert aged["observations_placement"] == ("CREATE INDEX observations_placement ON observations USING btree "
                                                  "(placement_id)")
        assert set(aged) == set(want) - {"tallies_sighting_last", "placements_current", "place_labels_pkey",
                                      "label_looks_pkey", "label_look_counts_pkey"}
        assert _held_columns(store, old) == held_columns[:-1]
        with pytest.raises(SchemaError, match="needs migration"):
            Memory.open(old, readonly=True)
        assert store.raw(old, "SELECT value FROM meta WHERE key = 'schema_version'") == [("6",)]
        with Memory.open(old, embedding_dim=4, config=config("robot_a")) as m:  # the writer migrates
            assert [(o.id, o.label) for o in m.objects()] == [(oid, "mug")]
        assert store.raw(old, "SELECT value FROM meta WHERE key = 'schema_version'") == [("17",)]
        assert _pg_indexes(store, old) == want and _held_columns(store, old) == held_columns
        # version 11: the placements' label tallies, filled by the migration and kept by its trigger from then on
        tally = "SELECT placement_id, label, kept, thinned FROM place_labels ORDER BY placement_id, label"
        assert store.raw(old, tally) == store.raw(fresh, tally) == [(1, "mug", 1, 0)]
        with Memory.open(old, embedding_dim=4, config=config("robot_a")) as m:
            m.add([box_obs("mug", (1.0, 0.0, 0.5), stamp=2.0)])
            m.commit()
        assert store.raw(old, tally) == [(1, "mug", 2, 0)]
        assert store.raw(old, "SELECT object_id, lookalike_id FROM held_events") == [(oid, None)]
        # the citation read walks observations_placement in its order, from the index alone: no sort after the scan
        import psycopg

        with psycopg.connect(old, autocommit=True) as con:  # a one-row table: the planner must be told to use it
            con.execute("SET enable_seqscan = off")
            plan = "\n".join(r[0] for r in con.execute(
                "EXPLAIN SELECT id FROM observations WHERE placement_id = 1 ORDER BY stamp DESC, id DESC LIMIT 5"))
        assert "Index Only Scan Backward using observations_placement on observations" in plan and "Sort" not in plan
        # and an object's current placement from the partial index of current placements (version 9), in its order
        with psycopg.connect(old, autocommit=True) as con:
            con.execute("SET enable_seqscan = off")
            plan = "\n".join(r[0] for r in con.execute(
                "EXPLAIN SELECT id FROM placements WHERE object_id = 1 AND current = 1 ORDER BY t_from, id LIMIT 1"))
        assert "using placements_current on placements" in plan and "Sort" not in plan
    finally:
        store.cleanup()
