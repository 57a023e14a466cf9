"""The placements' label tallies (schema version 11, core/store/place_labels.py): equal to a recount from scratch
after random histories with thinning, moves, removals and twin joins, on both backends; the names of the changes
equal those the old read gives (counting the kept sightings); an older store is migrated with its counts."""

from __future__ import annotations

import random
import sqlite3 as stdlib_sqlite3

import pytest
from core_helpers import IMMEDIATE, box_obs, distance_from_eye, view

from tempomem_ros.core import Memory
from tempomem_ros.core.store import recovery, transfer
from tempomem_ros.core.store.place_labels import PlaceLabelRows
from tempomem_ros.core.store.schema import SCHEMA_VERSION
from tempomem_ros.core.tally import decode_ints

A = (2.0, 0.0, 0.8)
B = (0.0, 2.0, 0.8)
C = (-2.0, 0.0, 0.8)
OFF = (A[0] + 0.05, A[1], A[2])
PLACES = (A, B, C)
WALL = 2.0e9
#: what a store before schema version 12 lacks (test_core_event_links.py): the events' links and their triggers
WITHOUT_EVENT_LINKS = ("DROP TRIGGER events_links_insert", "DROP TRIGGER events_links_update",
                       "DROP TRIGGER events_links_delete", "ALTER TABLE events DROP COLUMN ended_by",
                       "ALTER TABLE events DROP COLUMN ended_label")
THIN = {**IMMEDIATE, "retention": {"mode": "thin", "settle_s": 20.0, "compact_every_s": 5.0, "time_samples": 4,
                                   "twin_hold_s": 30.0}}


def seen(p):
    return distance_from_eye(p) + 0.04


def empty(p):
    return distance_from_eye(p) + 1.0


def random_frames(rng: random.Random) -> list:
    """(observations, view, commit now) of a mug-or-cup wandering over A, B and C: stays of 10-80 frames at 2 Hz
    (up to 160 after a place left unseen), each read "mug" with its own odds; between stays it is seen gone from
    its place (a look a commit) before or after it is seen at the next (a move, or one found when the old place
    is seen empty), or a look-alike is glimpsed beside it (a twin to join)."""
    frames, t, at = [], 0.0, rng.randrange(3)

    def gone(p):
        nonlocal t
        for _ in range(4):
            frames.append(([], view(t, p, empty(p)), True))
            t += 1.0

    late = None  # a place left without being seen empty (seen so after the next stay)
    for _ in range(rng.randint(4, 8)):
        p = PLACES[at]
        odds = rng.choice((0.0, 0.3, 0.7, 1.0))
        for _ in range(rng.randint(10, 160 if late is not None else 80)):
            label = "mug" if rng.random() < odds else "cup"
            frames.append(([box_obs(label, p, stamp=t, conf=rng.uniform(0.6, 0.95))], view(t, p, seen(p)), False))
            t += 0.5
        if late is not None:
            gone(late)
            late = None
        t += rng.choice((5.0, 40.0))
        step, nxt = rng.random(), rng.randrange(3)
        if step < 0.25 and p == A:  # a look-alike beside it, never seen with it: a twin the mug may absorb
            frames += [([box_obs("cup", OFF, stamp=t + 0.5 * k)], view(t + 0.5 * k, A, seen(A)), False)
                       for k in range(2)]
            t += 1.0
        elif nxt != at and step < 0.6:
            gone(p)
        elif nxt != at:
            late = p
        at = nxt
    return frames


def feed(m: Memory, frames, labels: dict, commit_every: int = 5) -> None:
    """Add and commit; ``labels`` gathers every stored sighting's label (id -> label) before it can be thinned."""
    for k, (obs, v, *now) in enumerate(frames, 1):
        m.add(obs, v)
        if k % commit_every == 0 or k == len(frames) or any(now):
            m.commit()
            labels.update({int(r[0]): str(r[1]) for r in m._conn.execute("SELECT id, label FROM observations")})


def recount(m: Memory, labels: dict) -> dict:
    """{(placement, label): (kept, thinned)} from scratch: the stored sightings, and the ids the tallies hold
    (thinned sightings) with the labels they were stored with."""
    out: dict = {}
    for p, label in m._conn.execute("SELECT placement_id, label FROM observations WHERE placement_id IS NOT NULL"):
        k, t = out.get((int(p), label), (0, 0))
        out[(int(p), label)] = (k + 1, t)
    for p, n, ids in m._conn.execute("SELECT placement_id, n, ids FROM tallies WHERE kind='sighting' AND "
                                     "placement_id IS NOT NULL"):
        for i in decode_ints(ids, int(n)):
            key = (int(p), labels[int(i)])
            k, t = out.get(key, (0, 0))
            out[key] = (k, t + 1)
    return out


def tallied(m: Memory) -> dict:
    ids = [int(r[0]) for r in m._conn.execute("SELECT id FROM placements")]
    return {(p, label): kt for p, by in PlaceLabelRows(m._store, tallied=True).counts(ids).items()
            for label, kt in by.items()}


def names(m: Memory) -> list:
    return [(e.id, e.kind, e.label) for e in m.changes()]


@pytest.mark.parametrize("seed", range(10))
def test_the_tallies_equal_a_recount_after_random_histories_and_name_as_the_sightings_did(store, seed):
    rng = random.Random(1411 + seed)
    labels: dict = {}
    with Memory.open(store("m"), embedding_dim=4, config=THIN, clock=lambda: WALL) as m:
        feed(m, random_frames(rng), labels)
        got = tallied(m)
        assert got == recount(m, labels)
        assert sum(t for _, t in got.values()) == m.retention_stats()["thinned_sightings"] > 0
        for o in m.objects():  # by placement, the counts retention reports
            by = {}
            for (p, _), (k, t) in got.items():
                by[p] = (by.get(p, (0, 0))[0] + k, by.get(p, (0, 0))[1] + t)
            for c in m.sighting_counts(o.id):
                assert by.pop(c["placement_id"], (0, 0)) == (c["kept"], c["thinned"])
        with_tallies = names(m)
        m._reads._place_labels.tallied = False  # the read before version 11: the kept sightings counted
        assert names(m) == with_tallies


def test_a_move_found_after_thinning_carries_its_thinned_sightings_by_label(store):
    """A mug (every fourth view "cup") at B, then at C, both thinned, then found to be the mug from A moved twice
    (B seen empty, then A: its sightings and tallies re-pointed, Settling._rehome_moves): every thinned sighting is
    counted at the placement its tally names, under the label it was read with."""
    labels: dict = {}
    frames = [([box_obs("mug", A, stamp=t)], view(t, A, seen(A))) for t in (0.0, 0.5, 1.0)]
    frames += [([box_obs("cup" if k % 4 == 0 else "mug", B, stamp=600.0 + 0.5 * k)], view(600.0 + 0.5 * k, B, seen(B)))
               for k in range(200)]
    frames += [([box_obs("mug", C, stamp=900.0 + 0.5 * k)], view(900.0 + 0.5 * k, C, seen(C))) for k in range(200)]
    frames += [([], view(t, B, empty(B))) for t in (1010.0, 1010.5, 1011.0, 1012.5)]
    frames += [([], view(1300.0 + 0.5 * k, A, empty(A))) for k in range(8)]
    with Memory.open(store("m"), embedding_dim=4, config={"retention": {"mode": "thin"}}, clock=lambda: WALL) as m:
        feed(m, frames, labels)
        assert [e.kind for e in m.changes()] == ["appeared", "moved", "moved", "merged"]
        got = tallied(m)
        assert got == recount(m, labels)
        by_place = {}
        for (p, label), (k, t) in got.items():
            by_place.setdefault(p, {})[label] = k + t
        assert sorted(by_place.values(), key=lambda d: sorted(d.items())) == [
            {"cup": 50, "mug": 150}, {"mug": 3}, {"mug": 200}]
        assert any(t for (_, label), (_, t) in got.items() if label == "cup")  # thinned, still counted as cups


def test_a_twin_joined_after_thinning_moves_its_sightings_counts(store):
    """A mug seen 250 s at A (thinned), a "cup" glimpsed beside it twice, then the mug again: the cup is the mug's
    twin, joined (merge_twin): its two sightings are counted at the mug's placement under "cup", its own placement
    counts none, and the tallies equal a recount."""
    rng = random.Random(4)
    labels: dict = {}
    frames = [([box_obs("mug", tuple(a + rng.gauss(0.0, 0.004) for a in A), stamp=0.5 * k)], view(0.5 * k, A, seen(A)),
               False) for k in range(500)]
    with Memory.open(store("m"), embedding_dim=4, config={"retention": {"mode": "thin"}}, clock=lambda: WALL) as m:
        feed(m, frames, labels)
        feed(m, [([box_obs("cup", OFF, stamp=t)], view(t, A, seen(A)), False) for t in (400.0, 400.5)], labels,
             commit_every=2)
        twin_place = m._conn.execute("SELECT id FROM placements WHERE object_id = 2").fetchone()[0]
        assert tallied(m)[(twin_place, "cup")] == (2, 0)
        feed(m, [([box_obs("mug", A, stamp=401.0)], view(401.0, A, seen(A)), False)], labels, commit_every=1)
        assert [a.detail for a in m.audit() if a.action == "merge_twin"] == [{"kept": 1, "absorbed": 2}]
        got = tallied(m)
        assert got == recount(m, labels)
        mug_place = m._conn.execute("SELECT placement_id FROM objects WHERE id = 1").fetchone()[0]
        assert got[(mug_place, "cup")] == (2, 0) and (twin_place, "cup") not in got
        assert got[(mug_place, "mug")][0] + got[(mug_place, "mug")][1] == 501 and got[(mug_place, "mug")][1] > 300


def _version_10(path: str) -> None:
    """What schema version 10 wrote: no label tallies (nor version 12's event links)."""
    con = stdlib_sqlite3.connect(path)
    for stmt in (*WITHOUT_EVENT_LINKS, "DROP TRIGGER place_labels_insert", "DROP TRIGGER place_labels_update",
                 "DROP TRIGGER place_labels_delete", "DROP TABLE place_labels",
                 "UPDATE meta SET value='10' WHERE key='schema_version'"):
        con.execute(stmt)
    con.commit()
    con.close()


def test_a_version_10_store_is_read_as_it_is_then_migrated_with_its_counts(tmp_path):
    path = str(tmp_path / "m.db")
    labels: dict = {}
    with Memory.open(path, embedding_dim=4, config=THIN, clock=lambda: WALL) as m:
        feed(m, random_frames(random.Random(7)), labels)
        want = names(m)
        before = tallied(m)
    _version_10(path)
    with Memory.open(path, embedding_dim=4, readonly=True) as ro:  # read as it is: the sightings counted
        assert ro._meta["schema_version"] == "10" and names(ro) == want
    with Memory.open(path, embedding_dim=4, config=THIN, clock=lambda: WALL) as m:
        assert m._meta["schema_version"] == str(SCHEMA_VERSION) == "17"
        got = tallied(m)
        # kept by label as before; the sightings thinned before the migration counted per placement, label unknown
        assert {k: v[0] for k, v in got.items() if v[0]} == {k: v[0] for k, v in before.items() if v[0]}
        thinned = {}
        for (p, _), (_, t) in before.items():
            thinned[p] = thinned.get(p, 0) + t
        assert {p: t for (p, label), (_, t) in got.items() if t} == {p: t for p, t in thinned.items() if t}
        assert {label for (_, label), (_, t) in got.items() if t} == {""}
        assert names(m) == want
        for i, n, ids in m._conn.execute("SELECT id, n, ids FROM tallies WHERE kind='sighting'").fetchall():
            labels.update({int(i): "" for i in decode_ints(ids, int(n))})  # thinned before: label unknown
        # the triggers count from now on: a new sighting, and the next pass thins the rest of the history
        feed(m, [([box_obs("cup", A, stamp=2000.0 + 0.5 * k)], view(2000.0 + 0.5 * k, A, seen(A))) for k in range(60)],
             labels)
        after = tallied(m)
        assert after == recount(m, labels) and sum(t for _, t in after.values()) > sum(t for _, t in got.values())


def test_a_copied_recovered_or_merged_store_keeps_its_label_tallies(store, tmp_path):
    """Copying (migrate), recovering and merging thinned stores: the copied observations' triggers count the kept
    sightings, the thinned ones come from the source's tallies (shifted by the merge's placement offset, and
    re-pointed with any object the merge joins): equal to a recount of the copy."""
    stores, labels = [str(tmp_path / "a.db"), str(tmp_path / "b.db")], [{}, {}]
    for path, seen_labels, seed in zip(stores, labels, (4, 7)):
        with Memory.open(path, embedding_dim=4, config=THIN, clock=lambda: WALL) as m:
            feed(m, random_frames(random.Random(1411 + seed)), seen_labels)
            want = tallied(m)
            assert sum(t for _, t in want.values()) > 0
    transfer.migrate(stores[0], store("copy"))
    with Memory.open(store("copy"), embedding_dim=4, config=THIN, clock=lambda: WALL) as m:
        assert tallied(m) == recount(m, labels[0]) == want_a(stores[0])
    recovery.recover(stores[0], str(tmp_path / "recovered.db"))
    with Memory.open(str(tmp_path / "recovered.db"), embedding_dim=4, readonly=True) as m:
        assert tallied(m) == want_a(stores[0])
    report = transfer.merge(stores[0], stores[1], store("merged"), config=THIN)
    shift = report["offsets"]["observations"]
    both = {**labels[0], **{i + shift: label for i, label in labels[1].items()}}
    with Memory.open(store("merged"), embedding_dim=4, config=THIN, clock=lambda: WALL) as m:
        assert tallied(m) == recount(m, both)
        assert sum(t for _, t in tallied(m).values()) == sum(t for p in stores for _, t in want_a(p).values())


def want_a(path: str) -> dict:
    with Memory.open(path, embedding_dim=4, readonly=True) as m:
        return tallied(m)


def _version_4(path: str) -> None:
    """What schema version 4 wrote: neither retention's tables (version 5) nor the label tallies (version 11)."""
    con = stdlib_sqlite3.connect(path)
    for stmt in (*WITHOUT_EVENT_LINKS, "DROP TRIGGER place_labels_insert", "DROP TRIGGER place_labels_update",
                 "DROP TRIGGER place_labels_delete", "DROP TABLE place_labels", "DROP TABLE tallies",
                 "DROP TABLE fold_state", "DROP TABLE coseen", "DROP TABLE frame_depths", "DROP INDEX misses_frame",
                 "ALTER TABLE observations DROP COLUMN retained",
                 "UPDATE meta SET value='4' WHERE key='schema_version'"):
        con.execute(stmt)
    con.commit()
    con.close()


def test_a_store_older_than_retention_is_copied_and_merged_with_its_label_counts(store, tmp_path):
    """A store written before version 5 has no tallies (nothing was thinned): migrate and merge copy it (they read
    any version from 1), its sightings counted by the copied observations' triggers, none thinned. Before the
    fix the thinned counts were read from its missing tallies ("no such table: tallies")."""
    paths = [str(tmp_path / "a.db"), str(tmp_path / "b.db")]
    for path, place in zip(paths, (A, C)):
        with Memory.open(path, embedding_dim=4, config={**IMMEDIATE, "retention": {"mode": "keep-all"}}) as m:
            for k, label in enumerate(("mug", "cup", "mug")):
                m.add([box_obs(label, place, stamp=1.0 + k)], view(1.0 + k, place, seen(place)))
                m.commit()
        _version_4(path)
    transfer.migrate(paths[0], store("copy"))
    with Memory.open(store("copy"), readonly=True) as m:
        assert tallied(m) == {(1, "mug"): (2, 0), (1, "cup"): (1, 0)}
    report = transfer.merge(paths[0], paths[1], store("merged"))
    assert report["offsets"]["placements"] == 1 and report["joined"] == []
    with Memory.open(store("merged"), readonly=True) as m:
        assert tallied(m) == {(1, "mug"): (2, 0), (1, "cup"): (1, 0), (2, "mug"): (2, 0), (2, "cup"): (1, 0)}


def test_a_migration_raced_by_another_opener_keeps_the_labels_of_later_thinned_sightings(tmp_path):
    """Two writers open a version-10 store at once: both read version 10, one migrates first and thins (its tallies
    keep the labels of the sightings thinned), then the other takes the lock: it reads the version again and finds
    nothing to do. Before the fix it ran version 11's step again, refilling the tallies: every thinned sighting's
    label became unknown ('')."""
    from tempomem_ros.core.store import schema as sqlite_schema

    path = str(tmp_path / "m.db")
    labels: dict = {}
    with Memory.open(path, embedding_dim=4, config=THIN, clock=lambda: WALL) as m:
        feed(m, random_frames(random.Random(1411)), labels)
        before = tallied(m)
        assert {label for (_, label), (_, t) in before.items() if t} == {"cup", "mug"}
    conn = sqlite_schema.connect(path, False)
    try:
        sqlite_schema.migrate(conn, 10)  # the late opener, which read version 10 before the first one migrated
    finally:
        conn.close()
    with Memory.open(path, embedding_dim=4, readonly=True) as m:
        assert m._meta["schema_version"] == "17" and tallied(m) == before


def test_the_triggers_of_both_backends_count_every_write_of_a_sighting_alike(store):
    """Writes the code does not make today (a sighting relabelled, taken off its placement, put on another under an
    odd label, a write of other columns, a no-op re-point) and deletions, one at a time: the same rows, exactly, on
    SQLite's three triggers and PostgreSQL's one."""
    def rows(m):
        return [tuple(r) for r in m._conn.execute(
            "SELECT placement_id, label, kept, thinned FROM place_labels ORDER BY placement_id, label")]

    with Memory.open(store("m"), embedding_dim=4, config={**IMMEDIATE, "retention": {"mode": "keep-all"}}) as m:
        for k in range(3):
            m.add([box_obs("mug", A, stamp=1.0 + k)], view(1.0 + k, A, seen(A)))
            m.commit()
        got = [rows(m)]
        for stmt in ("UPDATE observations SET label='cup' WHERE id=1",
                     "UPDATE observations SET label='cup' WHERE id=1",
                     "UPDATE observations SET placement_id=NULL WHERE id=2",
                     "UPDATE observations SET placement_id=7, label='Mug ' WHERE id=2",
                     "UPDATE observations SET label='mug', placement_id=1 WHERE id=2",
                     "UPDATE observations SET confidence=0.5 WHERE id=3",
                     "DELETE FROM observations WHERE id=1",
                     "UPDATE observations SET placement_id=placement_id WHERE id=3",
                     "DELETE FROM observations WHERE id IN (2, 3)"):
            with m._store.transaction():
                m._conn.execute(stmt)
            got.append(rows(m))
    cup, mug, odd = (1, "cup"), (1, "mug"), (7, "Mug ")
    assert got == [[(*mug, 3, 0)], [(*cup, 1, 0), (*mug, 2, 0)], [(*cup, 1, 0), (*mug, 2, 0)],
                   [(*cup, 1, 0), (*mug, 1, 0)], [(*cup, 1, 0), (*mug, 1, 0), (*odd, 1, 0)],
                   [(*cup, 1, 0), (*mug, 2, 0), (*odd, 0, 0)], [(*cup, 1, 0), (*mug, 2, 0), (*odd, 0, 0)],
                   [(*cup, 0, 1), (*mug, 2, 0), (*odd, 0, 0)], [(*cup, 0, 1), (*mug, 2, 0), (*odd, 0, 0)],
                   [(*cup, 0, 1), (*mug, 0, 2), (*odd, 0, 0)]]
