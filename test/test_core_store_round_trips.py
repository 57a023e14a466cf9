"""Round trips of a commit on PostgreSQL (postgres/connection.py Traffic, fetch_many; store/base.py fetch_each) and
the reads fusion makes ahead of its loops (frame_fusion.py _prefetch_confusions, _prefetch_scoring).

Why: a batch of reads is only allowed to save waits, never to change a decision. Each test runs the same frames
twice into two stores of one backend, once with the reads made ahead (PostgreSQL's default) and once with every
read made when asked (Store.reads_in_batches forced off), and asserts the same rows in every table that holds a
decision; on PostgreSQL it also asserts the waits the batches remove.
"""

from __future__ import annotations

import pytest
from core_helpers import box_obs

from tempomem_ros.core import Memory
from tempomem_ros.core.store.base import Store, fetch_each

JOINT = ("SELECT COALESCE(SUM(MIN(x.mass, y.mass)), 0) FROM label_mass x JOIN label_mass y "
         "ON y.object_id = x.object_id AND y.label = ? WHERE x.label = ?")
DECISIONS = {
    "objects": "SELECT id, label, pinned_label, state, n_observations, n_moves, cx, cy, cz, confidence FROM objects "
               "ORDER BY id",
    "observations": "SELECT id, verdict, reason, object_id, candidate_id, score FROM observations ORDER BY id",
    "label_mass": "SELECT object_id, label, mass FROM label_mass ORDER BY object_id, label",
    "events": "SELECT id, kind, object_id, label, previous_label, stamp FROM events ORDER BY id",
    "relations": "SELECT * FROM relations ORDER BY id",
}


def _frames():
    """A mug sometimes called a cup (its label mass learns the confusion), a bowl beside it, a table under both, and
    a shelf; then frames where each is seen under both names side by side, so that the part join and the scoring
    both ask known_confusion of pairs that are, and are not, confused."""
    frames = []
    for i in range(8):
        t = float(i)
        frames.append([box_obs("mug" if i % 3 else "cup", (0.0, 0.0, 0.80), stamp=t),
                       box_obs("bowl", (0.25, 0.0, 0.80), stamp=t),
                       box_obs("table", (0.1, 0.0, 0.40), half=(0.5, 0.5, 0.38), stamp=t),
                       box_obs("shelf", (2.0, 0.0, 0.5), half=(0.3, 0.2, 0.5), stamp=t)])
    for i in range(8, 12):
        t = float(i)
        frames.append([box_obs("cup", (0.01, 0.0, 0.80), stamp=t), box_obs("mug", (0.26, 0.0, 0.80), stamp=t),
                       box_obs("bowl", (2.0, 0.0, 1.05), stamp=t),
                       box_obs("table", (0.1, 0.0, 0.40), half=(0.5, 0.5, 0.38), stamp=t)])
    return frames


def _run(address: str) -> tuple[dict, list]:
    waits = []
    with Memory.open(address, embedding_dim=8) as m:
        for frame in _frames():
            m.add(frame)
            traffic = getattr(m._conn, "traffic", None)
            if traffic is not None:
                traffic.reset()
            m.commit()
            if traffic is not None:
                waits.append((traffic.round_trips, traffic.waited_by_sql[JOINT]))
    return waits


def _decisions(store, address) -> dict:
    return {name: store.raw(address, sql) for name, sql in DECISIONS.items()}


def test_reads_made_ahead_decide_as_reads_made_when_asked(store, monkeypatch):
    batched = _run(store("ahead"))
    monkeypatch.setattr(Store, "reads_in_batches", property(lambda self: False))
    asked = _run(store("asked"))
    ahead_rows, asked_rows = _decisions(store, store("ahead")), _decisions(store, store("asked"))
    assert ahead_rows == asked_rows
    labels_of: dict = {}
    for object_id, label, _ in ahead_rows["label_mass"]:
        labels_of.setdefault(object_id, set()).add(label)
    assert {"cup", "mug"} in labels_of.values()  # the confusion was learned: known_confusion had a "yes" to give
    # the relation keeper's reads ahead (relations_store.py) fed the relations: the mug and the bowl on the table,
    # near each other
    assert {r[2] for r in ahead_rows["relations"]} == {"near", "on"}
    if not store.postgres:
        assert batched == [] and asked == []
        return
    # asked: one wait per label pair of the frame (4 labels: 6 pairs), plus the pairs asked after the frame's
    # first write (settling, identity), which are asked when needed either way; ahead: the part join's 6 pairs in
    # one wait, the scoring's candidates' pairs in one more (the first frame has no candidate), and the same
    # later pairs
    later = [joint - 6 for _, joint in asked]
    assert all(n >= 0 for n in later) and any(n > 0 for n in later)
    assert [joint for _, joint in batched] == [(1 if i == 0 else 2) + n for i, n in enumerate(later)]
    assert all(a[0] < b[0] for a, b in zip(batched, asked))


def test_fetch_each_is_a_loop_of_execute(store):
    address = store("m")
    with Memory.open(address, embedding_dim=8) as m:
        m.add([box_obs("mug", (0.0, 0.0, 0.8)), box_obs("bowl", (1.0, 0.0, 0.8))])
        m.commit()
        conn = m._conn
        sql = "SELECT id, label FROM objects WHERE label = ? ORDER BY id"
        params = [("bowl",), ("nothing",), ("mug",), ("bowl",)]
        expected = [[tuple(r) for r in conn.execute(sql, p).fetchall()] for p in params]
        traffic = getattr(conn, "traffic", None)
        before = None if traffic is None else traffic.round_trips
        got = [[tuple(r) for r in rows] for rows in fetch_each(conn, sql, params)]
        assert got == expected
        assert [len(rows) for rows in got] == [1, 0, 1, 1]
        if traffic is not None:
            assert traffic.round_trips - before == 1
            with pytest.raises(ValueError):
                conn.fetch_many("UPDATE objects SET label = ? WHERE id = 1", [("x",)])


def test_staged_sightings_get_their_ids_in_order(store):
    """Memory.add stages a frame's sightings with one insert_observations: the ids ascend in the frame's order, on
    PostgreSQL in one wait (insert_many), and a second frame's continue after them."""
    address = store("m")
    with Memory.open(address, embedding_dim=8) as m:
        labels = ["mug", "bowl", "plate", "cup", "vase"]
        first = m.stage([box_obs(lbl, (0.3 * i, 0.0, 0.8), stamp=1.0) for i, lbl in enumerate(labels)])
        traffic = getattr(m._conn, "traffic", None)
        if traffic is not None:
            traffic.reset()
        second = m.stage([box_obs(lbl, (0.3 * i, 0.0, 0.8), stamp=2.0) for i, lbl in enumerate(labels[:3])])
        if traffic is not None:
            assert traffic.waited_by_sql[m._staging._INSERT_OBSERVATION] == 1
    ids = list(first.observation_ids) + list(second.observation_ids)
    assert ids == list(range(ids[0], ids[0] + 8))
    rows = store.raw(address, "SELECT id, label, frame_id FROM observations ORDER BY id")
    assert [(r[0], r[1]) for r in rows] == list(zip(ids, labels + labels[:3]))
    assert [r[2] for r in rows] == [first.frame_id] * 5 + [second.frame_id] * 3
