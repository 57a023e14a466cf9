"""A mutation on a fleet's store is ordered against the staged frames by stamp (Memory._fuse_pending, docs/FLEET.md).

Why: a forget or define_region on PostgreSQL fused every robot's staged backlog first and held the writer for
seconds (bench_fleet_services: forget p95 7.1 s). Now it fuses only the frames stamped at or before the fused graph's
newest stamp S (stragglers), is stamped S, and leaves later frames to the fuser. Determinism is asserted exactly: the
graph equals that of one writer fusing the frames through S, mutating, then fusing the rest. SQLite (one writer)
keeps "fuse everything first".
"""

from __future__ import annotations

import contextlib

from core_helpers import IMMEDIATE, box_obs

from tempomem_ros.core import Memory

MUG = (2.0, 0.0, 0.8)
CUP = (0.0, 2.0, 0.8)
PLATE = (1.0, 1.0, 0.8)
BOOK = (1.5, -1.0, 0.8)


def graph(m: Memory) -> dict:
    """What a mutation's order can change: every object, event, sighting and relation (wall times left out)."""
    return {
        "objects": [(o.id, o.label, o.state) for o in m.objects()],
        "events": [(e.kind, e.object_id, e.stamp) for e in m.changes()],
        "observations": [(o.id, o.label, o.verdict, o.object_id, o.source) for o in m.observations()],
        "pending": m.pending(),
    }


def fused_early(m: Memory) -> None:
    """robot_a's three frames, fused."""
    for stamp, label, at in ((1.0, "mug", MUG), (2.0, "cup", CUP), (3.0, "mug", MUG)):
        m.stage([box_obs(label, at, stamp=stamp)], source="robot_a")
    m.commit()


def straggler(m: Memory) -> None:
    m.stage([box_obs("plate", PLATE, stamp=2.5)], source="robot_b")  # stamped before the fused graph's newest


def later(m: Memory) -> None:
    m.stage([box_obs("mug", MUG, stamp=4.0)], source="robot_b")  # the forgotten mug seen again after S
    m.stage([box_obs("book", BOOK, stamp=5.0)], source="robot_b")


def test_a_forget_on_a_fleet_store_comes_before_later_staged_frames_and_equals_the_stamp_ordered_replay(store):
    fleet = store("fleet")
    with Memory.open(fleet, embedding_dim=4, config=IMMEDIATE) as m:
        fused_early(m)
        straggler(m)
        later(m)
        mug = next(o.id for o in m.objects() if o.label == "mug")
        assert m.pending() == 3
        assert m.forget(mug, "user asked") is True
        if not store.postgres:  # one writer: every staged frame is fused before the mutation, as before
            assert m.pending() == 0
            assert [e for e in m.changes() if e.kind == "forgotten"][0].stamp == 5.0
            return
        # the straggler (2.5 <= S = 3) was fused first; the frames stamped 4 and 5 wait for the fuser
        assert m.pending() == 2
        assert [o.label for o in m.observations() if o.verdict == "pending"] == ["mug", "book"]
        assert [(e.kind, e.stamp) for e in m.changes() if e.kind == "forgotten"] == [("forgotten", 3.0)]
        region = m.define_region("shelf", (-3.0, -3.0, 0.0), (3.0, 3.0, 2.0))
        assert m.pending() == 2 and region == 1
        m.commit()
        got = graph(m)
    ref = store("ref")
    with Memory.open(ref, embedding_dim=4, config=IMMEDIATE) as m:
        fused_early(m)
        straggler(m)
        m.commit()
        m.forget(mug, "user asked")
        m.define_region("shelf", (-3.0, -3.0, 0.0), (3.0, 3.0, 2.0))
        later(m)
        m.commit()
        want = graph(m)
    assert got == want
    assert want["pending"] == 0 and ("forgotten", mug, 3.0) in want["events"]
    # the forgotten mug's later sighting did not land on it; the book after it was fused
    assert [o for o in want["objects"] if o[1] == "book"] and (mug, "mug", "forgotten") in want["objects"]


def test_a_mutation_with_every_staged_frame_at_or_before_the_fused_now_fuses_them_first(store):
    """Where the stamps say so, the meaning is "fuse first": the same graph as committing, then forgetting."""
    results = []
    for name, commit_first in (("a", False), ("b", True)):
        with Memory.open(store(name), embedding_dim=4, config=IMMEDIATE) as m:
            fused_early(m)
            straggler(m)
            if commit_first:
                m.commit()
            mug = next(o.id for o in m.objects() if o.label == "mug")
            m.forget(mug, "user asked")
            results.append(graph(m))
    assert results[0] == results[1]
    assert results[0]["pending"] == 0 and any(o[1] == "plate" for o in results[0]["objects"])


def before_the_lock(m: Memory, action) -> None:
    """Run ``action`` once, just before m's next write transaction begins: where another process's commit lands
    between what a mutation did before its transaction (_fuse_pending) and the fusion lock it takes."""
    inner = m._store.transaction

    @contextlib.contextmanager
    def transaction():
        m._store.transaction = inner
        action()
        with inner() as s:
            yield s

    m._store.transaction = transaction


def test_a_fuser_commit_before_the_mutation_takes_the_lock_is_ordered_before_the_mutation(store):
    """A fuser process fuses the mug seen at 4.0 (and the book at 5.0) after the forget's _fuse_pending, before its
    lock. The forget's stamp is read under the lock: 5.0, after the sighting it follows, the graph of one writer that
    fused everything, then forgot. Read before the lock it was S = 3.0: the mug seen at 4.0, then "forgotten at 3.0"."""
    fleet = store("fleet")
    with Memory.open(fleet, embedding_dim=4, config=IMMEDIATE) as m, \
            Memory.open(fleet, embedding_dim=4, config=IMMEDIATE) as fuser:
        fused_early(m)
        later(m)
        mug = next(o.id for o in m.objects() if o.label == "mug")
        before_the_lock(m, fuser.commit)
        assert m.forget(mug, "user asked") is True
        got = graph(m)
    with Memory.open(store("ref"), embedding_dim=4, config=IMMEDIATE) as m:
        fused_early(m)
        later(m)
        m.commit()
        m.forget(mug, "user asked")
        want = graph(m)
    assert got == want
    assert [e for e in want["events"] if e[0] == "forgotten"] == [("forgotten", mug, 5.0)]
    assert want["pending"] == 0 and (mug, "mug", "forgotten") in want["objects"]


def test_an_object_forgotten_by_another_writer_before_the_lock_is_not_forgotten_twice(store):
    """The row's state is read under the lock: forget() says False and writes no second tombstone."""
    fleet = store("fleet")
    with Memory.open(fleet, embedding_dim=4, config=IMMEDIATE) as m, \
            Memory.open(fleet, embedding_dim=4, config=IMMEDIATE) as other:
        fused_early(m)
        mug = next(o.id for o in m.objects() if o.label == "mug")
        before_the_lock(m, lambda: other.forget(mug, "the other writer"))
        assert m.forget(mug, "user asked") is False
        assert [(e.kind, e.object_id) for e in m.changes() if e.kind == "forgotten"] == [("forgotten", mug)]
        assert m.get(mug).state == "forgotten"
