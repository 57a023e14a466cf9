"""An object fused from views of two look-alikes beside it, left between them (Settling._chimera_host): joined to one
of them when its removal comes due, not removed."""

from __future__ import annotations

import copy

import pytest
from core_helpers import IMMEDIATE, Between, live, memory_with_identity, span_obs, twin_joins

from tempomem_ros.core import Memory

# two mugs on a shelf and the box between them (seed 417: 18 cm apart, the box between 3 cm off each)
LEFT = ((1.96, 0.00, 0.85), (2.05, 0.09, 0.95))
MIDDLE = ((1.96, 0.10, 0.85), (2.05, 0.19, 0.95))
RIGHT = ((1.96, 0.20, 0.85), (2.05, 0.29, 0.95))
AT = (2.0, 0.145, 0.9)
MUGS = Between("mug", LEFT, MIDDLE, RIGHT, AT)


def _views_of_the_mugs_went_to_the_middle(mem):
    # the state a first look fused from views of each mug leaves (seed 417): a view of the left mug (observation 1)
    # and one of the right mug (observation 3) are the middle object's
    assert [tuple(r) for r in mem._conn.execute("SELECT id, object_id FROM observations WHERE id IN (1, 3)")] == \
        [(1, 1), (3, 3)]
    mem._conn.execute("UPDATE observations SET object_id = 2 WHERE id IN (1, 3)")


def test_a_box_between_two_mugs_fused_from_views_of_each_is_joined_not_removed(store):
    with memory_with_identity(store, chimera_join=True) as mem:
        MUGS.three_in_one_frame(mem, "mug")
        _views_of_the_mugs_went_to_the_middle(mem)
        MUGS.both_seen(mem)
        # its place seen with both mugs reported counted misses; its removal came due and it was joined to the left
        # mug (one view each: the tie goes to the older), no "removed" published, its "appeared" withdrawn
        assert twin_joins(mem) == [{"kept": 1, "absorbed": 2}]
        assert live(mem) == [(1, "mug", "present"), (3, "mug", "present")]
        assert mem.get(2).state == "forgotten"
        assert [(e.kind, e.object_id) for e in mem.changes(since=0)] == [("appeared", 1), ("appeared", 3),
                                                                          ("merged", 2)]
        assert mem.get(1).first_seen == 0.0 and mem.get(1).last_seen == 303.5
        assert mem.get(3).n_observations == 11


def test_the_mug_that_holds_more_of_its_views_takes_it(store):
    with memory_with_identity(store, chimera_join=True) as mem:
        MUGS.three_in_one_frame(mem, "mug")
        _views_of_the_mugs_went_to_the_middle(mem)
        mem._conn.execute("UPDATE observations SET object_id = 2 WHERE id = 6")  # a second view of the right mug
        MUGS.both_seen(mem)
        assert twin_joins(mem) == [{"kept": 3, "absorbed": 2}]
        assert live(mem) == [(1, "mug", "present"), (3, "mug", "present")]


def test_a_third_mug_between_two_taken_away_is_removed(store):
    # its views were of its own place: a thing between two of its kind, gone
    with memory_with_identity(store, chimera_join=True) as mem:
        MUGS.three_in_one_frame(mem, "mug")
        MUGS.both_seen(mem)
        assert twin_joins(mem) == []
        assert live(mem) == [(1, "mug", "present"), (2, "mug", "missing"), (3, "mug", "present")]
        assert [(e.kind, e.object_id) for e in mem.changes(since=0)] == [("appeared", 1), ("appeared", 2),
                                                                          ("appeared", 3), ("removed", 2)]


def test_views_of_only_one_mug_beside_it_make_no_chimera(store):
    # a view of the left mug alone went to it: the twin tests decide that pair; here it is removed as before
    with memory_with_identity(store, chimera_join=True) as mem:
        MUGS.three_in_one_frame(mem, "mug")
        mem._conn.execute("UPDATE observations SET object_id = 2 WHERE id = 1")
        MUGS.both_seen(mem)
        assert twin_joins(mem) == []
        assert live(mem) == [(1, "mug", "present"), (2, "mug", "missing"), (3, "mug", "present")]


def test_a_cup_between_two_mugs_is_no_chimera_of_them(store):
    # another shown label: a cup between two mugs is a thing of its own, removed when its place is seen empty
    with memory_with_identity(store, chimera_join=True) as mem:
        MUGS.three_in_one_frame(mem, "cup")
        _views_of_the_mugs_went_to_the_middle(mem)
        MUGS.both_seen(mem)
        assert twin_joins(mem) == []
        assert live(mem) == [(1, "mug", "present"), (2, "cup", "missing"), (3, "mug", "present")]


@pytest.mark.parametrize("join", [True, False])
def test_chimera_join_decides_between_a_join_and_a_removal(store, join):
    with memory_with_identity(store, chimera_join=join) as mem:
        MUGS.three_in_one_frame(mem, "mug")
        _views_of_the_mugs_went_to_the_middle(mem)
        MUGS.both_seen(mem)
        events = [(e.kind, e.object_id) for e in mem.changes(since=0)]
        if join:
            assert twin_joins(mem) == [{"kept": 1, "absorbed": 2}]
            assert live(mem) == [(1, "mug", "present"), (3, "mug", "present")]
            assert events == [("appeared", 1), ("appeared", 3), ("merged", 2)]
        else:
            assert twin_joins(mem) == []
            assert live(mem) == [(1, "mug", "present"), (2, "mug", "missing"), (3, "mug", "present")]
            assert events == [("appeared", 1), ("appeared", 2), ("appeared", 3), ("removed", 2)]


def test_a_mug_seen_at_its_own_place_since_views_of_both_went_to_it_is_removed(store):
    # its first views were of each mug (as seed 417's), then fifty frames showed it at its own place between them: a
    # third mug, taken away. Its 50 newest sightings (what _chimera_host reads) are all of its place: removed; read
    # whole, the two old views would have joined it to the left mug. Every sighting kept (thinning keeps the first
    # views and drops most of the rest: 20 of its 55 here)
    cfg = copy.deepcopy(IMMEDIATE)
    cfg["retention"] = {"mode": "keep-all"}
    with Memory.open(store("m"), embedding_dim=4, config=cfg) as mem:
        MUGS.three_in_one_frame(mem, "mug")
        _views_of_the_mugs_went_to_the_middle(mem)
        for i in range(50):
            t = 2.0 + 0.5 * i
            mem.add([span_obs("mug", *LEFT, stamp=t), span_obs("mug", *MIDDLE, stamp=t),
                     span_obs("mug", *RIGHT, stamp=t)], MUGS.camera(t))
            mem.commit()
        MUGS.both_seen(mem)
        assert twin_joins(mem) == []
        assert live(mem) == [(1, "mug", "present"), (2, "mug", "missing"), (3, "mug", "present")]
        assert [(e.kind, e.object_id) for e in mem.changes(since=0)] == [("appeared", 1), ("appeared", 2),
                                                                          ("appeared", 3), ("removed", 2)]
