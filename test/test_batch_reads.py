"""Answers a commit keeps across its frames (core/store/batch_reads.py, issue 15): each is what the store answers,
also after the batch's own writes changed it.

Every test forces the batch on (caches.batch), on both backends: what is kept and how a write changes it is the
same logic on each (Memory.commit keeps it only on PostgreSQL). Each answer is compared with the store's own (the
same call with no batch), and the statements sent are counted: a kept answer sends none.
- removals due: a miss that makes an object's removal due is read by the next frame; a sighting clears it;
- held events: an event held in the batch is read although a read before found none;
- label pairs: a label mass row added in the batch makes a pair (an object's mass cached or not); a mass rebuilt
  forgets them all;
- label mass grown on a cached object: the entry equals what the store reads back, to the last bit.
- the 18 frames of test_fuser_batch_reads' story fused in one commit: removals due, held events and label pairs
  are asked of the store fewer times than once per frame, and the graph is the one each read made when asked gives.
"""

from __future__ import annotations

from core_helpers import IMMEDIATE, box_obs
from test_fuser_batch_reads import _stage, _state

from tempomem_ros.core import Memory
from tempomem_ros.core.persistence import AbsenceState
from tempomem_ros.core.store.base import Store
from tempomem_ros.core.store.batch_reads import BatchReads

A, B = (2.0, 0.0, 0.8), (0.0, 2.0, 0.8)


class _Counted:
    """The store's connection, counting the statements sent through it (their text, in order)."""

    def __init__(self, conn):
        self._conn = conn
        self.sent: list[str] = []

    def execute(self, sql, *args, **kw):
        self.sent.append(sql)
        return self._conn.execute(sql, *args, **kw)

    def __getattr__(self, name):
        return getattr(self._conn, name)


def _open(store, name: str) -> tuple[Memory, int]:
    """A memory with a mug at A and a book at B (one commit); the frame id of that commit."""
    m = Memory.open(store(name), embedding_dim=4, config=IMMEDIATE, clock=lambda: 7.0)
    m.add([box_obs("mug", A, stamp=1.0), box_obs("book", B, stamp=1.0)])
    stats = m.commit()
    return m, int(stats.frame_ids[0])


def _by_label(m: Memory) -> dict:
    """label -> the object's row (ObjectRow)."""
    return {o.label: m._graph.object_row(o.id) for o in m.objects()}


def _store_answer(m: Memory, ask):
    """What ``ask()`` answers with no batch kept (the store's own answer), the batch left as it was."""
    batch, m._store.caches.batch = m._store.caches.batch, None
    try:
        return ask()
    finally:
        m._store.caches.batch = batch


def _count(m: Memory, ask):
    """(answer, statements sent) of ``ask()``."""
    counted = _Counted(m._store.conn)
    m._store.conn = counted
    try:
        return ask(), len(counted.sent)
    finally:
        m._store.conn = counted._conn


def test_a_removal_made_due_in_the_batch_is_read_by_the_next_frame(store):
    m, frame_id = _open(store, "due")
    mug = _by_label(m)["mug"]
    settling, fusion = m._settling._rows, m._fusion._rows

    def due(stamp, before=False):
        return [int(o.id) for o in settling.removals_due(stamp, before=before)]

    with m._store.transaction():
        m._store.caches.batch = BatchReads(until=100.0)
        assert _count(m, lambda: due(100.0)) == ([], 1)   # the objects with a removal due read once
        assert _count(m, lambda: due(100.0)) == ([], 0)   # none due: the store is not asked
        miss = AbsenceState(evidence=1.0, looks=1, look_start=50.0, look_misses=1, first_miss=50.0, last_miss=50.0)
        fusion.add_miss(mug.id, frame_id, mug.placement_id, 50.0, 0.9, miss, 60.0)  # a frame's miss: due at 60
        assert _count(m, lambda: due(59.0)) == ([], 0)
        # due by 60: the store is asked, and answers as it does with nothing kept
        for stamp, before, want in ((60.0, True, []), (60.0, False, [mug.id]), (61.0, True, [mug.id])):
            assert _count(m, lambda: due(stamp, before)) == (want, 1)
            assert _store_answer(m, lambda: due(stamp, before)) == want
        fusion.mark_missing(mug.id)  # removed: nothing is due any more, and the store is not asked
        assert _count(m, lambda: due(100.0)) == ([], 0)
        assert _store_answer(m, lambda: due(100.0)) == []
        fusion.add_miss(mug.id, frame_id, mug.placement_id, 70.0, 0.9, miss, None)  # a miss not yet due
        assert _count(m, lambda: due(100.0)) == ([], 0)
        # a removal due after the batch's last frame (until, 100): read by a frame past it, which asks the store
        book = _by_label(m)["book"]
        fusion.add_miss(book.id, frame_id, book.placement_id, 80.0, 0.9, miss, 120.0)
        assert _count(m, lambda: due(100.0)) == ([], 0)
        assert _count(m, lambda: due(130.0)) == ([book.id], 1)
        m._store.caches.batch = None
    m.close()


def test_a_removal_due_set_by_a_twin_join_is_read_by_the_batch(store):
    # review of stop 35: SettlingRows.set_absence (a joined twin's sightings restart the kept object's absence,
    # Settling._absence_since_sighting) wrote removal_due without telling the batch: the batch answered [] where
    # the store answered the mug
    m, _ = _open(store, "join")
    mug = _by_label(m)["mug"]
    settling = m._settling._rows
    with m._store.transaction():
        m._store.caches.batch = BatchReads(until=10.0)
        assert [int(o.id) for o in settling.removals_due(5.0, before=False)] == []
        state = AbsenceState(evidence=2.0, looks=1, look_start=2.0, look_misses=2, first_miss=2.0, last_miss=3.0)
        settling.set_absence(mug.id, 3, state, 4.0)
        assert [int(o.id) for o in settling.removals_due(5.0, before=False)] == [mug.id]
        assert _store_answer(m, lambda: [int(o.id) for o in settling.removals_due(5.0, before=False)]) == [mug.id]
        m._store.caches.batch = None
    m.close()


def test_an_event_held_in_the_batch_is_read_although_none_was(store):
    m, _ = _open(store, "held")
    mug = _by_label(m)["mug"]
    settling, fusion = m._settling._rows, m._fusion._rows
    with m._store.transaction():
        for held in settling.held_with_objects():  # publish what the first commit held: none is left
            settling.resolve_held(int(held["id"]), "published", 2.0, "test", None)
        m._store.caches.batch = BatchReads(until=100.0)
        assert _count(m, settling.held_with_objects) == ([], 1)
        assert _count(m, settling.held_with_objects) == ([], 0)  # none held since: the store is not asked
        fusion.hold_event(3.0, "appeared", mug.id, None, mug.placement_id, [1])
        rows, sent = _count(m, settling.held_with_objects)
        assert sent == 1 and [(r["kind"], int(r["object_id"])) for r in rows] == [("appeared", mug.id)]
        assert [tuple(r) for r in rows] == [tuple(r) for r in _store_answer(m, settling.held_with_objects)]
        m._store.caches.batch = None
    m.close()


def test_a_label_pair_made_in_the_batch_is_read(store):
    m, _ = _open(store, "pairs")
    objs = _by_label(m)
    mug, book = int(objs["mug"].id), int(objs["book"].id)
    fusion, graph, caches = m._fusion._rows, m._graph, m._store.caches

    def together(*labels):
        return _count(m, lambda: fusion.labels_together(list(labels)))

    with m._store.transaction():
        caches.batch = BatchReads(until=100.0)
        assert together("mug", "cup", "book") == (set(), 1)
        assert together("cup", "mug") == (set(), 0)  # among the labels asked: kept
        graph.label_mass(mug)  # cached by the writer: the new pair is known without asking
        graph.add_mass(mug, "cup", 0.5)
        want = {frozenset(("mug", "cup"))}
        assert together("mug", "cup") == (want, 0)
        assert _store_answer(m, lambda: fusion.labels_together(["mug", "cup"])) == want
        caches.label_mass.pop(book, None)  # not cached: "cup" is asked of the store again
        graph.add_mass(book, "cup", 0.5)
        want = {frozenset(("mug", "cup")), frozenset(("book", "cup"))}
        assert together("mug", "cup", "book") == (want, 1)
        assert together("book", "cup") == ({frozenset(("book", "cup"))}, 0)
        graph.rebuild_label_mass(book)  # from its one "book" sighting: the pair is gone, and asked again
        assert together("book", "cup") == (set(), 1)
        assert _store_answer(m, lambda: fusion.labels_together(["book", "cup"])) == set()
        # a label never asked is read with every label asked before (one statement, then all kept)
        assert together("vase", "mug") == (set(), 1)
        assert together("mug", "cup", "vase") == ({frozenset(("mug", "cup"))}, 0)
        caches.batch = None
    m.close()


def test_label_mass_grown_on_a_cached_object_is_what_the_store_reads_back(store):
    m, _ = _open(store, "mass")
    mug = int(_by_label(m)["mug"].id)
    graph, caches = m._graph, m._store.caches
    with m._store.transaction():
        graph.add_mass(mug, "cup", 0.1)
        graph.label_mass(mug)  # cached
        for mass in (0.2, 0.7, 1e-17, 0.3):  # sums that round: the cached one must round as the store's did
            graph.add_mass(mug, "cup", mass)
            kept, sent = _count(m, lambda: graph.label_mass(mug))
            caches.label_mass.pop(mug)
            assert sent == 0 and list(kept.items()) == list(graph.label_mass(mug).items())
        assert kept["cup"] == ((0.1 + 0.2) + 0.7 + 1e-17) + 0.3
    m.close()


def test_a_batch_asks_the_store_less_and_fuses_as_each_read_made_when_asked(store, monkeypatch):
    kept = store("kept")
    with Memory.open(kept, embedding_dim=4, config=IMMEDIATE, clock=lambda: 7.0) as m:
        _stage(m)
        if store.backend == "sqlite":  # the batch is PostgreSQL's (Store.reads_in_batches): forced on here
            monkeypatch.setattr(Store, "reads_in_batches", property(lambda self: True))
        counted = _Counted(m._store.conn)
        m._store.conn = counted
        stats = m.commit()
        m._store.conn = counted._conn
        monkeypatch.undo()
        assert len(stats.frame_ids) == 18 and m._store.caches.batch is None
        batched = _state(m)
    sent = " | ".join(counted.sent)
    # without the batch: twice a frame for removals due, once for held events, twice for label pairs
    assert sent.count("removal_due IS NOT NULL AND removal_due") < 36
    assert sent.count("FROM held_events h JOIN objects") < 18
    assert sent.count("SELECT DISTINCT x.label, y.label") < 36
    monkeypatch.setattr(Store, "reads_in_batches", property(lambda self: False))
    with Memory.open(store("own"), embedding_dim=4, config=IMMEDIATE, clock=lambda: 7.0) as m:
        _stage(m)
        m.commit()
        assert _state(m) == batched
    events = [line.split("kind=")[1].split(",")[0] for line in batched if line.startswith("ChangeEventInfo")]
    assert events == ["'appeared'", "'appeared'", "'removed'", "'moved'", "'appeared'", "'removed'"]
