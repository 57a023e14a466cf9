"""The Retention service on a store alone, without the Memory facade or its mixins: a Memory that keeps everything
(retention.mode keep-all) writes the input and is closed; the service then runs on a bare connection to the file,
built from the store, its statements (store/retention_rows.py) and the collaborators it is handed (issue 16:
services, not mixins). Results are exact, and so is what must be gone."""

from __future__ import annotations

import inspect

from core_helpers import IMMEDIATE, box_obs

from tempomem_ros.core import Memory, retention, tally
from tempomem_ros.core.config import MemoryConfig
from tempomem_ros.core.maintenance import RetentionHooks
from tempomem_ros.core.store.reads import StoreReads
from tempomem_ros.core.retention import PUBLIC, Retention
from tempomem_ros.core.store.schema import open_connection, sqlite3
from tempomem_ros.core.store import Store
from tempomem_ros.core.store.retention_rows import RetentionRows

WALL = 7.0
NOW = 135.0   # the newest stamp of the scene: with settle_s 10, frames stamped up to 125 have settled
THIN = {**IMMEDIATE, "retention": {"mode": "thin", "settle_s": 10.0, "compact_every_s": 0.0, "time_samples": 2,
                                   "recent_per_placement": 5, "observation_features": "float32"}}


def _scene(path: str) -> None:
    """Frames 1..30 (stamps 101..130): a mug (object 1, sightings 1, 3, .., 59) and a book 0.6 m away (object 2,
    sightings 2, 4, .., 60) detected together; frames 31..35 (stamps 131..135): a cup elsewhere (object 3,
    sightings 61..65). One frame a commit; nothing thinned (keep-all)."""
    cfg = {**IMMEDIATE, "retention": {"mode": "keep-all"}}
    with Memory.open(path, embedding_dim=4, config=cfg, clock=lambda: 2.0e9, vector_index="off") as m:
        for k in range(1, 31):
            m.add([box_obs("mug", (1.0, 0, 0.5), stamp=100.0 + k), box_obs("book", (1.6, 0, 0.5), stamp=100.0 + k)])
            m.commit()
        for k in range(31, 36):
            m.add([box_obs("cup", (4.0, 0, 0.5), stamp=100.0 + k)])
            m.commit()


class Service:
    """Retention on a bare connection, with narrow stand-ins for what fusion and the settling step answer."""

    def __init__(self, path: str):
        self.conn, _ = open_connection(path, False)
        self.conn.row_factory = sqlite3.Row
        cfg = MemoryConfig.from_dict(THIN)
        self.store = Store(self.conn, clock=lambda: WALL)
        meta = {r[0]: r[1] for r in self.conn.execute("SELECT key, value FROM meta")}
        self.asked: list[tuple] = []

        def known_confusion(a: str, b: str) -> bool:
            self.asked.append((a, b))
            return a == b

        self.retention = Retention(self.store, RetentionRows(self.store),
                                   StoreReads(self.store, cfg, readonly=False, has_sources=True), cfg, meta=meta,
                                   now=lambda: NOW, known_confusion=known_confusion,
                                   overlapping_halves=lambda a, b: False)

    def rows(self, sql: str, *args) -> list[tuple]:
        return [tuple(r) for r in self.conn.execute(sql, args)]

    def dump(self) -> dict:
        names = [r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return {n: self.rows(f"SELECT * FROM {n}") for n in names}

    def close(self) -> None:
        self.conn.close()


def _thinned(tmp_path) -> Service:
    path = str(tmp_path / "m.db")
    _scene(path)
    s = Service(path)
    with s.store.transaction():
        s.retention.compact_settled()
    return s


def test_memory_exposes_exactly_the_public_methods_of_retention_and_retention_writes_no_sql():
    for name in PUBLIC:
        assert getattr(Memory, name).__wrapped__.__wrapped__ is getattr(Retention, name), name
    functions = {f for f in vars(Retention).values() if inspect.isfunction(f)}
    exposed = {name for name, v in vars(Memory).items()
               if getattr(getattr(v, "__wrapped__", None), "__wrapped__", None) in functions}
    assert exposed == set(PUBLIC) == {"sighting_counts", "retention_stats"}
    assert "RetentionMixin" not in [c.__name__ for c in Memory.__mro__]
    # the service's API for other services is not the facade's
    api = {n for n, v in vars(Retention).items() if inspect.isfunction(v) and not n.startswith("_")}
    assert api - set(PUBLIC) == {"split_depth", "stage_depth", "drop_staged_depths", "pending_frames",
                                 "compact_settled", "tallied_sightings", "tallied_in", "fold_start", "repointing",
                                 "rehoming", "split", "seen_together", "thinned_observation", "close_tally_days"}
    assert not any(hasattr(Memory, n) for n in api - set(PUBLIC))
    source = inspect.getsource(retention)
    assert "execute" not in source and "_conn" not in source and "SELECT" not in source


def test_retention_hooks_are_the_services_bound_methods(tmp_path):
    path = str(tmp_path / "m.db")
    _scene(path)
    s = Service(path)
    try:
        hooks = RetentionHooks.of(s.retention)
        for name in ("tallied_sightings", "fold_start", "repointing", "split"):
            assert getattr(hooks, name) == getattr(s.retention, name), name
    finally:
        s.close()


def test_a_thinning_pass_on_a_store_alone(tmp_path):
    s = _thinned(tmp_path)
    try:
        # per placement: the first sighting (cited by its 'appeared' event: bits processed|cited), the first of
        # each of two time bins (112) and the five newest settled (121..125); 126..130 have not settled
        mug = [1, 23, 41, 43, 45, 47, 49]
        assert s.rows("SELECT id, frame_id, object_id, placement_id, retained FROM observations WHERE object_id=1 "
                      "ORDER BY id") == \
            [(1, 1, 1, 1, 3)] + [(i, (i + 1) // 2, 1, 1, 1) for i in mug[1:]] + \
            [(i, (i + 1) // 2, 1, 1, 0) for i in range(51, 60, 2)]
        assert s.rows("SELECT id FROM observations WHERE object_id=2 ORDER BY id") == \
            [(i + 1,) for i in mug] + [(i,) for i in range(52, 61, 2)]
        thinned = [i for i in range(1, 50, 2) if i not in mug]
        assert len(thinned) == 18
        marks = ",".join("?" for _ in thinned)
        assert s.rows(f"SELECT COUNT(*) FROM observations WHERE id IN ({marks})", *thinned) == [(0,)]
        assert s.rows("SELECT id, retained FROM observations WHERE object_id=3 ORDER BY id") == \
            [(61, 2), (62, 0), (63, 0), (64, 0), (65, 0)]   # the cup's 'appeared' event cites 61; nothing settled
        # frames: those of a kept sighting are compacted, the others of the pass deleted, later ones untouched
        assert s.rows("SELECT id, status FROM frames ORDER BY id") == \
            [(f, "compacted") for f in (1, 12, 21, 22, 23, 24, 25)] + [(f, "fused") for f in range(26, 36)]
        # tallies: one 'stamps' row recording the pass's stamps, one sighting row per placement
        assert s.rows("SELECT id, kind, object_id, placement_id, group_key, n, t_first, t_last, id_first, id_last, "
                      "thinned_at FROM tallies ORDER BY id") == \
            [(1, "stamps", None, None, "", 26, 101.0, 125.0, 1, 50, NOW),
             (2, "sighting", 1, 1, "", 18, 102.0, 120.0, 3, 39, NOW),
             (3, "sighting", 2, 2, "", 18, 102.0, 120.0, 4, 40, NOW)]
        (ids2, n2), (ids3, n3) = s.rows("SELECT ids, n FROM tallies WHERE kind='sighting' ORDER BY id")
        assert tally.decode_ints(ids2, n2).tolist() == thinned
        assert tally.decode_ints(ids3, n3).tolist() == [i + 1 for i in thinned]
        assert s.retention.tallied_in([1], 101.0, 110.0) == (9, (110.0, 19, 1))    # 102..110: ids 3..19
        # the mug's and the cup's tallies both end at 120.0: the latest is the later by (stamp, id), as among kept
        # sightings (newest first by stamp, then id), whichever tally is read first (main took the first read)
        assert s.retention.tallied_in([1, 2], 0.0, 1e9) == (36, (120.0, 40, 2))
        assert s.retention.tallied_in([2, 1], 0.0, 1e9, (0.0, 130.0)) == (36, (120.0, 40, 2))
        assert s.retention.tallied_in([1, 2], 0.0, 1e9, (1e9, 2e9)) == (36, (120.0, 40, 2))
        assert s.retention.tallied_in([3], 0.0, 1e9) == (0, None)
        assert s.retention.thinned_observation(3) == ("observation 3 was thinned by retention: a sighting of object "
                                                      "#1 at placement #1, stamp 102.000000, counted in tally #2")
        assert s.retention.thinned_observation(1) is None and s.retention.thinned_observation(61) is None
        # what else the pass wrote: the pair seen together, each placement's fold as of its last settled sighting,
        # the cursors, no hold for a twin; the merge audit rows of settled sightings went, one 'thin' row came
        assert s.rows("SELECT a, b FROM coseen") == [(1, 2)]
        assert s.rows("SELECT placement_id, object_id, cut_stamp, cut_id, n, exact, late FROM fold_state "
                      "ORDER BY placement_id") == [(1, 1, 125.0, 49, 25, 1, "[]"), (2, 2, 125.0, 50, 25, 1, "[]")]
        assert s.rows("SELECT key, value FROM meta WHERE key LIKE 'retention%' ORDER BY key") == \
            [("retention_audit_seen", "50"), ("retention_events_seen", "3"), ("retention_held_seen", "3"),
             ("retention_twin_hold", "{}")]
        assert s.rows("SELECT id, action FROM audit ORDER BY id") == \
            [(1, "create"), (2, "create")] + [(i, "merge") for i in range(51, 61)] + [(61, "create")] + \
            [(i, "merge") for i in range(62, 66)] + [(66, "thin")]
        assert s.rows("SELECT stamp, wall_time, object_ids, observation_ids, detail FROM audit WHERE id=66") == [(
            NOW, WALL, "[1, 2]", "[]",
            '{"audit_rows_dropped": {"merge": 48}, "features": {"compacted": 0, "format": "float32"}, "frames": '
            '{"dropped": 18, "first_id": 1, "kept": 7, "last_id": 25}, "held_for_twins": 0, "horizon": 125.0, '
            '"misses_dropped": 0, "objects": [1, 2], "rejected_dropped": 0, "settle_s": 10.0, "sightings": '
            '{"by_placement": {"1": 18, "2": 18}, "dropped": 36, "kept": 14}, "why": "retention: settled sightings '
            'beyond the kept sample are counted in tallies, not kept"}')]
        # the counts: kept + thinned = n_observations
        assert s.retention.sighting_counts(1) == [{"placement_id": 1, "kept": 12, "thinned": 18}]
        assert s.rows("SELECT n_observations FROM objects WHERE id=1") == [(30,)]
        assert s.retention.tallied_sightings(1) == 18 and s.retention.tallied_sightings(3) == 0
        assert s.retention.retention_stats() == {
            "observations": 29, "frames": 17, "misses": 0, "audit": 18, "tally_rows": 3, "tally_bytes": 122,
            "coseen_pairs": 1, "fold_states": 2, "thinned_sightings": 36, "thinned_rejecteds": 0,
            "thinned_misses": 0, "label_looks": 3, "label_look_counts": 0}  # one visit each: nothing to fold
        # a rebuild of the mug continues from the saved fold with the sightings after its cut
        state, rest, exact = s.retention.fold_start(1, 1, [{"id": 49, "stamp": 125.0}, {"id": 51, "stamp": 126.0}])
        assert (state.n, state.key, rest, exact) == (25, (125.0, 49), [{"id": 51, "stamp": 126.0}], True)
        # the mug and the book are 0.6 m apart: neither is a possible twin of the other, so no label rule was asked
        assert s.asked == []
        # nothing more has settled: a second pass at the same "now" changes nothing
        before = s.dump()
        with s.store.transaction():
            s.retention.compact_settled()
        assert s.dump() == before
    finally:
        s.close()


def test_sightings_repointed_take_their_tallies_fold_and_seen_together_pairs_along(tmp_path):
    """The mug (object 1) joins the cup (object 3, placement 3) as a twin would: its tally, its saved fold (every
    sighting of placement 3 comes after the cut) and the objects it was seen with follow; nothing stays with 1."""
    s = _thinned(tmp_path)
    try:
        assert s.retention.seen_together(1, 2) and not s.retention.seen_together(2, 3)
        assert not s.retention.seen_together(1, 3)
        with s.store.transaction():
            s.retention.repointing(1, 3, 3)
            assert s.store.caches.coseen == {(1, 2), (2, 3)}   # the cache follows the rows
        assert s.rows("SELECT id, kind, object_id, placement_id, n FROM tallies ORDER BY id") == \
            [(1, "stamps", None, None, 26), (2, "sighting", 3, 3, 18), (3, "sighting", 2, 2, 18)]
        assert s.rows("SELECT COUNT(*) FROM tallies WHERE object_id=1 OR placement_id=1") == [(0,)]
        assert s.rows("SELECT a, b FROM coseen ORDER BY a, b") == [(1, 2), (2, 3)]   # no (1, 3): never together
        assert s.rows("SELECT placement_id, object_id, cut_stamp, cut_id, n, exact, late FROM fold_state "
                      "ORDER BY placement_id") == [(2, 2, 125.0, 50, 25, 1, "[]"), (3, 3, 125.0, 49, 25, 1, "[]")]
        assert s.retention.seen_together(2, 3) and not s.retention.seen_together(1, 3)
        assert s.retention.tallied_sightings(3) == 18 and s.retention.tallied_sightings(1) == 0
        # the observations themselves are re-pointed by the caller (the settling step, maintenance), not here
        assert s.rows("SELECT COUNT(*) FROM observations WHERE object_id=1") == [(12,)]
    finally:
        s.close()


def test_a_placement_rehomed_takes_its_tally_and_fold_to_its_copy(tmp_path):
    """Settling._rehome_moves: the book's (object 2) placement 2 is copied as placement 3 of the cup (object 3):
    the tally and fold of placement 2 go with it, the book's pairs follow to the cup."""
    s = _thinned(tmp_path)
    try:
        with s.store.transaction():
            s.retention.rehoming(2, 3, {2: 3})
        assert s.rows("SELECT id, kind, object_id, placement_id, n FROM tallies ORDER BY id") == \
            [(1, "stamps", None, None, 26), (2, "sighting", 1, 1, 18), (3, "sighting", 3, 3, 18)]
        assert s.rows("SELECT placement_id, object_id, cut_id FROM fold_state ORDER BY placement_id") == \
            [(1, 1, 49), (3, 3, 50)]
        assert s.rows("SELECT a, b FROM coseen ORDER BY a, b") == [(1, 2), (1, 3)]
        assert s.rows("SELECT value FROM meta WHERE key='retention_twin_hold'") == [("{}",)]
    finally:
        s.close()


MIDNIGHT = 86400.0 * 20000   # 2024-10-04 00:00 UTC: a day boundary (retention.TALLY_DAY_S) inside the scene
SPANS = ((None, None), (MIDNIGHT - 20, MIDNIGHT + 30), (MIDNIGHT - 5, MIDNIGHT + 5), (MIDNIGHT, MIDNIGHT + 3),
         (MIDNIGHT - 3, MIDNIGHT - 0.5), (MIDNIGHT + 4, None), (None, MIDNIGHT - 9))


def _midnight_scene(m: Memory) -> None:
    """The mug and the book of _scene seen together in 35 frames a second apart, 14 before midnight and 21 from it
    (stamps MIDNIGHT - 14 .. MIDNIGHT + 20); one frame a commit, thinning (THIN: settled after 10 s)."""
    for k in range(-14, 21):
        m.add([box_obs("mug", (1.0, 0, 0.5), stamp=MIDNIGHT + k), box_obs("book", (1.6, 0, 0.5), stamp=MIDNIGHT + k)])
        m.commit()


def _sighting_tallies(m: Memory) -> list[tuple]:
    return [tuple(r) for r in m._conn.execute(
        "SELECT id, object_id, placement_id, n, t_first - ?, t_last - ?, id_first, id_last FROM tallies "
        "WHERE kind='sighting' ORDER BY id", (MIDNIGHT, MIDNIGHT))]


def _answers(m: Memory) -> list:
    return [m.was_seen(object_id=o, since=lo, until=hi) for o in (1, 2) for lo, hi in SPANS] + \
        [m.sighting_counts(o) for o in (1, 2)]


def test_sighting_tallies_hold_one_day_and_an_older_store_is_split_with_the_same_answers(store, monkeypatch):
    """Why one day a row: a row that counted a placement's sightings for its whole life made "seen in the last 8 h"
    decode the month (retention.TALLY_DAY_S). A store thinned before (one row a placement, as with a day of 10^12 s)
    is split on a writer's open: the same answers, nothing deleted, one 'tally_days' audit row; a store thinned now
    holds the same rows from the start."""
    old = store("old")
    monkeypatch.setattr(retention, "TALLY_DAY_S", 1e12)
    with Memory.open(old, embedding_dim=4, config=THIN, clock=lambda: 2.0e9, vector_index="off") as m:
        _midnight_scene(m)
        before = _answers(m)
        # settled by the last pass: stamps up to MIDNIGHT + 10; thinned: MIDNIGHT - 13 .. + 5 but the kept sample
        # (the first sighting, MIDNIGHT + 0 as a time sample, the 5 newest settled) -- one row a placement
        assert _sighting_tallies(m) == [(8, 1, 1, 18, -13.0, 5.0, 3, 39), (9, 2, 2, 18, -13.0, 5.0, 4, 40)]
    assert [a.count for a in before[:7]] == [35, 35, 11, 4, 3, 17, 6] == [a.count for a in before[7:14]]
    assert before[14:] == [[{"placement_id": 1, "kept": 17, "thinned": 18}],
                           [{"placement_id": 2, "kept": 17, "thinned": 18}]]
    monkeypatch.undo()
    split = [(8, 1, 1, 13, -13.0, -1.0, 3, 27), (9, 2, 2, 13, -13.0, -1.0, 4, 28), (28, 1, 1, 5, 1.0, 5.0, 31, 39),
             (29, 2, 2, 5, 1.0, 5.0, 32, 40)]
    audit = [("tally_days", 5.0, "[]", "[]", '{"day_s": 86400.0, "rows_added": 2, "rows_split": 2, "sightings": 36, '
              '"why": "retention: a sighting tally row holds one day, so that a window reads the rows it meets"}')]
    for _ in range(2):   # the writer's open splits the rows; the next open finds nothing to split
        with Memory.open(old, embedding_dim=4, config=THIN, clock=lambda: 2.0e9, vector_index="off") as m:
            assert _sighting_tallies(m) == split
            assert [tuple(r) for r in m._conn.execute(
                "SELECT action, stamp - ?, object_ids, observation_ids, detail FROM audit WHERE action='tally_days'",
                (MIDNIGHT,))] == audit
            assert _answers(m) == before
    new = store("new")
    with Memory.open(new, embedding_dim=4, config=THIN, clock=lambda: 2.0e9, vector_index="off") as m:
        _midnight_scene(m)
        assert _sighting_tallies(m) == [(8, 1, 1, 13, -13.0, -1.0, 3, 27), (9, 2, 2, 13, -13.0, -1.0, 4, 28),
                                        (24, 1, 1, 5, 1.0, 5.0, 31, 39), (25, 2, 2, 5, 1.0, 5.0, 32, 40)]
        assert _answers(m) == before
