"""SceneFeed: after any sequence of mutations an incremental refresh equals a full read of the store."""

from __future__ import annotations

import random

import pytest
from core_helpers import IMMEDIATE, box_obs, distance_from_eye, span_obs, view

from tempomem_ros.core import Memory
from tempomem_ros.core.scene_feed import SceneFeed

LABELS = ("mug", "book", "phone", "plant", "bottle")


def full_read(m: Memory):
    objects = sorted(m.objects("present") + m.objects("missing"), key=lambda o: o.id)
    return objects, m.relations()


def assert_matches(feed: SceneFeed, reader: Memory):
    snap = feed.refresh()
    objects, relations = full_read(reader)
    assert list(snap.objects) == objects
    assert list(snap.relations) == relations
    return snap


def random_step(m: Memory, rng: random.Random, t: float) -> None:
    """One mutation of the kinds the node sees: sightings (new, re-seen, moved), empty looks at a place
    (absence), forget, relabel, a region, decay."""
    kind = rng.choice(["see", "see", "see", "move", "look", "forget", "update", "region", "decay"])
    present = m.objects("present")
    if kind == "see" or not present:
        obs = [span_obs("table", (2.0, -0.5, 0.0), (3.0, 0.5, 0.75), stamp=t)]
        for _ in range(rng.randint(1, 3)):
            x, y = rng.choice([(2.2, 0.0), (2.5, 0.2), (2.8, -0.3), (0.5, 2.0), (-1.0, 1.5)])
            z = 0.8 if x > 2 else 0.4
            obs.append(box_obs(rng.choice(LABELS), (x, y, z), stamp=t))
        m.add(obs, view(t, (2.5, 0.0, 0.8), distance_from_eye((2.5, 0.0, 0.8)) + 0.05))
    elif kind == "move":
        o = rng.choice(present)
        m.add([box_obs(o.label, (o.center[0] + 1.5, o.center[1] + 1.0, o.center[2]), stamp=t)])
    elif kind == "look":  # look at an object's place and see nothing there: misses, then a removal
        o = rng.choice(present)
        m.add([], view(t, o.center, distance_from_eye(o.center) + 1.0))
    elif kind == "forget":
        m.forget(rng.choice(present).id, "test")
    elif kind == "update":
        m.update(rng.choice(present).id, label=rng.choice(LABELS) + " x")
    elif kind == "region":
        lo = (rng.uniform(-2, 2), rng.uniform(-2, 2), 0.0)
        m.define_region(f"area {t:.0f}", lo, (lo[0] + 2.0, lo[1] + 2.0, 2.0))
    elif kind == "decay":
        m.decay(t, half_life_s=50.0, min_confidence=0.05)
    m.commit()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_incremental_refreshes_equal_full_reads(store, seed):
    path = store("m")
    rng = random.Random(seed)
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:
        with Memory.open(path, embedding_dim=4, readonly=True) as reader:
            feed = SceneFeed(reader, resync_s=1e9)
            first = assert_matches(feed, reader)
            assert first.full and first.objects == ()
            for step in range(60):
                random_step(m, rng, 10.0 + 2.0 * step)
                assert_matches(feed, reader)
            assert feed.full_reads >= 2  # the first read, and after each define_region
            assert feed.incremental_reads >= 30


def test_a_refresh_without_mutations_is_unchanged_and_keeps_identities(store):
    path = store("m")
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:
        m.add([span_obs("table", (0, 0, 0), (1, 1, 0.75), stamp=1.0), box_obs("mug", (0.5, 0.5, 0.8), stamp=1.0)])
        m.commit()
        with Memory.open(path, embedding_dim=4, readonly=True) as reader:
            feed = SceneFeed(reader, resync_s=1e9)
            a = feed.refresh()
            b = feed.refresh()
            assert a.full and a.changed and not b.full and not b.changed
            assert all(x is y for x, y in zip(a.objects, b.objects)) and len(b.objects) == 2
            assert sorted(r.relation for r in b.relations) == ["near", "near", "on"]  # mug on table; near both ways
            m.add([box_obs("mug", (0.5, 0.5, 0.8), stamp=2.0)])
            m.commit()
            c = feed.refresh()
            mug = next(o for o in c.objects if o.label == "mug")
            table = next(o for o in c.objects if o.label == "table")
            assert c.changed and not c.full and c.touched == frozenset({mug.id})
            assert table is next(o for o in a.objects if o.label == "table")  # untouched: same object
            assert mug.last_seen == 2.0


def test_an_unknown_audit_action_and_the_resync_period_force_a_full_read(store):
    path = store("m")
    now = [0.0]
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", (0.5, 0.5, 0.8), stamp=1.0)])
        m.commit()
        with Memory.open(path, embedding_dim=4, readonly=True) as reader:
            feed = SceneFeed(reader, resync_s=60.0, clock=lambda: now[0])
            feed.refresh()
            m.define_region("kitchen", (0, 0, 0), (1, 1, 2))  # touches objects it does not list
            assert feed.refresh().full
            assert not feed.refresh().full
            now[0] = 61.0
            assert feed.refresh().full


def test_behind_says_whether_another_writer_changed_the_store_since_the_last_refresh(tmp_path):
    """How a memory node that does not fuse (fuse_staged false) learns that the fleet's fuser fused."""
    path = str(tmp_path / "m.db")
    with Memory.open(path, embedding_dim=4, config=IMMEDIATE) as writer, Memory.open(path, readonly=True) as reader:
        feed = SceneFeed(reader, resync_s=1e9)
        assert feed.behind()  # nothing read yet
        feed.refresh()
        assert not feed.behind()
        writer.add([box_obs("mug", (1.0, 0.0, 0.8), stamp=1.0)])
        assert not feed.behind()  # staged only: nothing fused
        writer.commit()
        assert feed.behind()
        assert [o.label for o in feed.refresh().objects] == ["mug"]
        assert not feed.behind()
