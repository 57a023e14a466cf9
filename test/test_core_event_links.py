"""Each event's link to the event that ended its state (schema version 12, core/store/event_links.py): equal to what
the old read seeks (EventRows.following without links) after random writes of every kind on the events table
(inserts with tied stamps, retractions and their undoing, re-pointed objects, moved stamps, changed kinds and labels,
deletes, an object's events retracted in one statement) and after random histories with thinning, moves, removals
and twin joins, on both backends; the names of the changes equal the old read's; migrate, merge and recover keep
them; a store of version 11 or 10 is read as it is (the old read), then migrated with its links filled."""

from __future__ import annotations

import random
import sqlite3 as stdlib_sqlite3

import pytest
from core_helpers import IMMEDIATE
from test_core_event_names import bounce
from test_core_place_labels import THIN, WALL, WITHOUT_EVENT_LINKS, feed, random_frames

from tempomem_ros.core import Memory
from tempomem_ros.core.store import recovery, transfer
from tempomem_ros.core.store.event_links import NEXT_END
from tempomem_ros.core.store.events import EventRows
from tempomem_ros.core.store.schema import SCHEMA_VERSION

KINDS = ("appeared", "moved", "removed", "reappeared", "relabelled", "forgotten")


def links(m: Memory) -> dict:
    """{event id: (ended_by, ended_label)} as stored, every row (retracted ones too)."""
    return {int(r[0]): (None if r[1] is None else int(r[1]), r[2])
            for r in m._conn.execute("SELECT id, ended_by, ended_label FROM events").fetchall()}


def recount(m: Memory) -> dict:
    """The same from the old read: each row's key sought (EventRows.following, not linked)."""
    rows = m._conn.execute("SELECT id, object_id, stamp FROM events").fetchall()
    asks = [(int(o), (float(s), int(i))) for i, o, s in rows]
    got = EventRows(m._store).following(asks)
    return {k[1]: (None if got[(o, k)][0] is None else int(got[(o, k)][0]["id"]), got[(o, k)][1]) for o, k in asks}


def names(m: Memory) -> list:
    return [(e.id, e.kind, e.label) for e in m.changes()]


def old_names(m: Memory) -> list:
    """The names by the old read (the links left unread)."""
    m._reads._events.linked = False
    try:
        return names(m)
    finally:
        m._reads._events.linked = True


def _write(m: Memory, sql: str, args=()) -> None:
    with m._store.transaction():
        m._conn.execute(sql, args)


def random_write(m: Memory, rng: random.Random) -> str:
    """One random write on the events table, of a kind some code path makes; returns what it did."""
    ids = [int(r[0]) for r in m._conn.execute("SELECT id FROM events ORDER BY id").fetchall()]
    op = rng.random() if ids else 0.0
    stamp, oid = float(rng.randrange(8)), rng.randint(1, 3)
    if op < 0.4:
        kind = rng.choice(KINDS)
        _write(m, "INSERT INTO events (stamp, recorded_at, kind, object_id, label) VALUES (?, ?, ?, ?, ?)",
               (stamp, stamp, kind, oid, rng.choice(("mug", "cup", "vase"))))
        return f"insert: {kind} {oid} {stamp}"
    i = rng.choice(ids)
    for bar, what, sql, args in (
            (0.5, "retract", "UPDATE events SET retracted = 1 WHERE id = ?", (i,)),
            (0.55, "unretract", "UPDATE events SET retracted = 0 WHERE id = ?", (i,)),
            (0.63, "repoint", "UPDATE events SET object_id = ? WHERE id = ?", (oid, i)),
            (0.71, "restamp", "UPDATE events SET stamp = ? WHERE id = ?", (stamp, i)),
            (0.78, "rekind", "UPDATE events SET kind = ? WHERE id = ?", (rng.choice(KINDS), i)),
            (0.84, "relabel", "UPDATE events SET label = ? WHERE id = ?", (rng.choice(("mug", "cup")), i)),
            (0.92, "delete", "DELETE FROM events WHERE id = ?", (i,)),
            (1.01, "retract all", "UPDATE events SET retracted = 1 WHERE object_id = ?", (oid,))):
        if op < bar:
            _write(m, sql, args)
            return f"{what}: {args}"
    raise AssertionError(op)


@pytest.mark.parametrize("seed", range(3))
def test_the_links_equal_the_old_read_after_random_writes_of_every_kind(store, seed):
    rng = random.Random(1412 + seed)
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        done, ended, relabelled = [], 0, 0
        for _ in range(120 if store.postgres else 400):
            done.append(random_write(m, rng))
            got = links(m)
            assert got == recount(m), done[-6:]
            ended += any(end is not None for end, _ in got.values())
            relabelled += any(label is not None for _, label in got.values())
        assert {d.split(":")[0] for d in done} >= {"insert", "retract", "unretract", "repoint", "restamp", "rekind",
                                                "relabel", "delete", "retract all"}
        assert ended > 50 and relabelled > 10  # after many writes some state had ended, some named by a relabelling


@pytest.mark.parametrize("seed", range(6))
def test_the_links_equal_the_old_read_after_random_histories_and_name_as_it_did(store, seed):
    rng = random.Random(1411 + seed)
    with Memory.open(store("m"), embedding_dim=4, config=THIN, clock=lambda: WALL) as m:
        feed(m, random_frames(rng), {})
        assert links(m) == recount(m)
        assert names(m) == old_names(m)


def test_a_past_change_names_its_ending_by_id_and_reads_its_row_only_when_the_name_chains(store, monkeypatch):
    """The mug's appearance at A asked after twelve later changes: its link gives the removal at A by id and the
    removal's row is not read (A's views give no other label the share); the old read returned that row."""
    mem = Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE)
    bounce(mem, 6)
    appeared, removed = mem.changes()[:2]
    read: list = []
    by_ids = EventRows.by_ids
    monkeypatch.setattr(EventRows, "by_ids", lambda self, ids: read.append(sorted(ids)) or by_ids(self, ids))
    key = (appeared.object_id, (appeared.stamp, appeared.id))
    assert mem._reads._events.following([key]) == {key: (removed.id, None)}
    assert [(e.id, e.label) for e in mem.changes(0, 15)] == [(appeared.id, "mug")] and read == []
    old = EventRows(mem._store).following([key])[key]
    assert int(old[0]["id"]) == removed.id and old[1] is None
    mem.close()


def _version(path: str, version: int) -> None:
    """What schema version 11 wrote (no links), or 10 (no label tallies either)."""
    con = stdlib_sqlite3.connect(path)
    for stmt in WITHOUT_EVENT_LINKS:
        con.execute(stmt)
    if version == 10:
        for stmt in ("DROP TRIGGER place_labels_insert", "DROP TRIGGER place_labels_update",
                     "DROP TRIGGER place_labels_delete", "DROP TABLE place_labels"):
            con.execute(stmt)
    con.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(version),))
    con.commit()
    con.close()


@pytest.mark.parametrize("version", (11, 10))
def test_an_older_store_is_read_as_it_is_then_migrated_with_its_links(tmp_path, version):
    path = str(tmp_path / "m.db")
    with Memory.open(path, embedding_dim=4, config=THIN, clock=lambda: WALL) as m:
        feed(m, random_frames(random.Random(1418)), {})
        want = names(m)
        want_links = links(m)
    _version(path, version)
    with Memory.open(path, embedding_dim=4, readonly=True) as ro:  # read as it is: the states sought
        assert ro._meta["schema_version"] == str(version) and not ro._reads._events.linked
        assert names(ro) == want
    with Memory.open(path, embedding_dim=4, config=THIN, clock=lambda: WALL) as m:
        assert m._meta["schema_version"] == str(SCHEMA_VERSION) == "17" and m._reads._events.linked
        assert links(m) == recount(m) == want_links and names(m) == want
        feed(m, random_frames(random.Random(1419)), {})  # the triggers keep them from now on
        assert links(m) == recount(m) and names(m) == old_names(m)


def test_a_copied_recovered_or_merged_store_keeps_its_links(store, tmp_path):
    """migrate, recover and merge (ids shifted, objects joined across the two stores): the copied events' links
    equal a recount of the copy, and the names the old read's."""
    paths = [str(tmp_path / "a.db"), str(tmp_path / "b.db")]
    for path, seed in zip(paths, (4, 7)):
        with Memory.open(path, embedding_dim=4, config=THIN, clock=lambda: WALL) as m:
            feed(m, random_frames(random.Random(1411 + seed)), {})
    transfer.migrate(paths[0], store("copy"))
    recovery.recover(paths[0], str(tmp_path / "recovered.db"))
    report = transfer.merge(paths[0], paths[1], store("merged"), config=THIN)
    assert report["offsets"]["events"] > 0
    for address in (store("copy"), str(tmp_path / "recovered.db"), store("merged")):
        with Memory.open(address, embedding_dim=4, config=THIN, clock=lambda: WALL) as m:
            got = links(m)
            assert got == recount(m) and any(end is not None for end, _ in got.values())
            assert names(m) == old_names(m)



def test_a_store_whose_link_triggers_were_dropped_is_read_by_seeking_and_relinked_by_a_writers_open(store):
    """Triggers dropped behind the memory's back (by hand, a tool that copies tables without them): the writes after
    leave the links stale. A read-only open then seeks the states (the old read), and the next writer's open puts
    the triggers back and fills the links again, so no name is read from a stale link."""
    address = store("m")
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        bounce(m, 3)
        appeared, removed = m.changes()[:2]
    drops = (["DROP TRIGGER events_links ON events"] if store.postgres else
             [f"DROP TRIGGER events_links_{w}" for w in ("insert", "update", "delete")])
    for stmt in drops:
        store.raw(address, stmt)
    mark = "%s" if store.postgres else "?"
    store.raw(address, f"UPDATE events SET retracted = 1 WHERE id = {mark}", (removed.id,))  # unlinked: stale
    with Memory.open(address, embedding_dim=4, readonly=True) as ro:
        stale, fresh = links(ro), recount(ro)
        assert not ro._reads._events.linked
        want = names(ro)  # sought
    assert stale[appeared.id][0] == removed.id != fresh[appeared.id][0]
    with Memory.open(address, embedding_dim=4, config=IMMEDIATE) as m:
        assert m._reads._events.linked and links(m) == recount(m) == fresh and names(m) == want
        _write(m, "UPDATE events SET retracted = 0 WHERE id = ?", (removed.id,))  # kept again from here on
        assert links(m) == recount(m) and links(m)[appeared.id][0] == removed.id


def _rows_updated(m: Memory, sql: str, args) -> int:
    """The event rows the triggers rewrote for one statement (SQLite: the connection's changes, less the
    statement's own row; PostgreSQL: the transaction's updates of events)."""
    with m._store.transaction():
        if m.backend == "sqlite":
            before = m._conn.total_changes
            m._conn.execute(sql, args)
            return m._conn.total_changes - before - 1
        count = "SELECT n_tup_upd FROM pg_stat_xact_user_tables WHERE relid = to_regclass('events')"
        before = int(m._conn.execute(count).fetchone()[0])
        m._conn.execute(sql, args)
        return int(m._conn.execute(count).fetchone()[0]) - before


def test_a_write_rewrites_only_the_links_it_changes_and_seeks_the_endings(store):
    """A cup relabelled 40 times where it stands (its state never ended): the 41st relabelling changes no link, so
    no row is rewritten (the stretch of 42 rows was rewritten twice before: 84 rows a write, a cost that grew with
    the square of a long state's events since each row's ending was found by scanning the rows after it, 50
    relabellings after 400 cost 0.86 s of CPU, 11 ms with the endings index, event_links.py). Its move
    then rewrites the links that change: 42 endings, 41 relabellings (those before the last one)."""
    ins = "INSERT INTO events (stamp, recorded_at, kind, object_id, label) VALUES (?, ?, ?, 1, ?)"
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        _write(m, ins, (0.0, 0.0, "appeared", "cup"))
        for i in range(1, 41):
            _write(m, ins, (float(i), float(i), "relabelled", ("mug", "cup")[i % 2]))
        assert _rows_updated(m, ins, (41.0, 41.0, "relabelled", "mug")) == 0
        assert _rows_updated(m, ins, (50.0, 50.0, "moved", "mug")) == 42 + 41
        assert links(m) == recount(m)
        if m.backend == "sqlite":  # each ending is one seek of the object's endings
            plan = " ".join(r[3] for r in m._conn.execute(f"EXPLAIN QUERY PLAN SELECT {NEXT_END} FROM events"))
            assert "SEARCH x USING INDEX events_endings (object_id=? AND stamp>?)" in plan, plan


def test_postgresqls_dialect_leaves_a_comparison_with_a_subquery_unaliased():
    """IS DISTINCT FROM (SELECT ...) compares with a scalar subquery (relink's filter): naming it as a derived table
    (FROM (SELECT ...) AS sub1) was a syntax error that failed every event write on PostgreSQL."""
    from tempomem_ros.core.postgres.dialect import translate

    sql = "SELECT a FROM (SELECT 1 AS a) WHERE a IS DISTINCT FROM (SELECT 2) AND a is not distinct from (select 1)"
    assert translate(sql).sql == ("SELECT a FROM (SELECT 1 AS a) AS sub1 WHERE a IS DISTINCT FROM (SELECT 2) "
                                  "AND a is not distinct from (select 1)")
