"""A removal whose missing frames reported a thing of its kind over its place joins the older object those sightings
were fused into (identity.held_in_misses_share, settling.Settling._held_in_misses; issue 11, false removals).

h470 seeds 474 and 477 (no feature): a laptop twin born beside the laptop was removed from frames that each reported
the laptop over its place, the sightings fused into the laptop. The box-only host rules are set so they refuse here
(glimpse_host_ratio 1: no _part_host; sliver_host off), as they refused in those seeds (the hosts had moved), so each
test shows what this rule alone decides; each is run with the rule on and off, on both store backends (the rule's
read, SettlingRows.miss_frames_and_sightings, is SQL of its own)."""

from __future__ import annotations

import dataclasses

import pytest
from core_helpers import box_obs, distance_from_eye, kinds, look_again, side_by_side, span_obs, view

from tempomem_ros.core import Memory
from tempomem_ros.core.config import MemoryConfig

LAPTOP, HALF = (2.0, 0.0, 0.6), (0.12, 0.16, 0.11)
DL = distance_from_eye(LAPTOP)
TWIN = ((1.90, 0.04, 0.49), (2.06, 0.28, 0.55))   # half of it inside the laptop's box, sticking out 12 cm in y
BESIDE = (2.0, 0.45, 0.6)                          # a second laptop beside the first, its own place


def _memory(store, share: float) -> Memory:
    cfg = MemoryConfig()
    cfg = dataclasses.replace(cfg, identity=dataclasses.replace(
        cfg.identity, held_in_misses_share=share, glimpse_host_ratio=1.0, sliver_host=False))
    return Memory.open(store("m"), embedding_dim=4, config=cfg)


def _laptop_and_twin(mem, twin=TWIN) -> None:
    # the laptop seen whole; two minutes later a look that reports it and, in the same frames, a second "laptop"
    # box half over it (a split report: the two are reported together, so no twin rule joins them)
    for t in (0.0, 0.5, 1.0, 1.5, 2.0):
        mem.add([box_obs("laptop", LAPTOP, HALF, stamp=t)], view(t, LAPTOP, DL))
    mem.commit()
    for t in (133.8, 134.0, 134.5, 135.2, 137.0, 139.0, 141.0):
        mem.add([box_obs("laptop", LAPTOP, HALF, stamp=t), span_obs("laptop", *twin, stamp=t)],
                view(t, LAPTOP, DL))
    mem.commit()
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "laptop", "present"),
                                                                 (2, "laptop", "present")]


@pytest.mark.parametrize("share", [0.5, 0.0])
def test_a_twin_missed_in_frames_that_report_its_kind_over_it_is_joined_not_removed(store, share):
    mem = _memory(store, share)
    _laptop_and_twin(mem)
    # a look 2.5 minutes later: every frame reports the laptop and the twin alone is missed
    look_again(mem, lambda t: [box_obs("laptop", LAPTOP, HALF, stamp=t)], LAPTOP, DL)
    states = [(o.id, o.state) for o in mem.objects()]
    if share:
        assert states == [(1, "present"), (2, "forgotten")]
        assert kinds(mem) == [("appeared", 1), ("merged", 2)]   # its held "appeared" withdrawn with the join
        assert [a.detail for a in mem.audit() if a.action == "merge_twin"] == [{"absorbed": 2, "kept": 1}]
        assert [a for a in mem.audit() if a.action == "remove"] == []
    else:
        assert states == [(1, "present"), (2, "missing")]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 2)]


@pytest.mark.parametrize("share", [0.5, 0.0])
def test_a_twin_whose_place_the_look_saw_empty_is_removed(store, share):
    # the frames that missed it reported nothing there (the laptop dropped too): no evidence of its kind, removed
    mem = _memory(store, share)
    _laptop_and_twin(mem)
    look_again(mem, lambda t: [box_obs("laptop", LAPTOP, HALF, stamp=t)] if t == 287.0 else [], LAPTOP, DL)
    assert (2, "missing") in [(o.id, o.state) for o in mem.objects()]
    assert ("removed", 2) in kinds(mem)
    assert [a for a in mem.audit() if a.action == "merge_twin"] == []


@pytest.mark.parametrize("share", [0.5, 0.0])
def test_a_twin_mostly_outside_the_laptop_is_removed(store, share):
    # the laptop's sightings lie over the twin's place (a sixth of it), but the laptop's box holds under half of it
    # (identity.held_in_misses_share): a thing of its own beside the laptop, taken away, is removed
    mem = _memory(store, share)
    _laptop_and_twin(mem, twin=((1.90, 0.12, 0.49), (2.06, 0.36, 0.55)))
    look_again(mem, lambda t: [box_obs("laptop", LAPTOP, HALF, stamp=t)], LAPTOP, DL)
    assert [(o.id, o.state) for o in mem.objects()] == [(1, "present"), (2, "missing")]
    assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 2)]


@pytest.mark.parametrize("share", [0.5, 0.0])
def test_a_laptop_taken_from_beside_another_is_removed(store, share):
    # two laptops side by side, seen together; the second is taken away and the first is reported in every frame
    # of the look: the first's sightings lie beside the second's place, not over it
    mem = _memory(store, share)
    side_by_side(mem, "laptop", LAPTOP, BESIDE, HALF, DL)
    assert [(o.id, o.state) for o in mem.objects()] == [(1, "present"), (2, "present")]
    look_again(mem, lambda t: [box_obs("laptop", LAPTOP, HALF, stamp=t)], LAPTOP, DL)
    assert [(o.id, o.state) for o in mem.objects()] == [(1, "present"), (2, "missing")]
    assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 2)]


@pytest.mark.parametrize("share", [0.5, 0.0])
def test_a_thing_seen_alone_before_a_laptop_was_set_over_it_is_removed_when_taken(store, share):
    # the small "laptop" was seen alone for a while (its own thing, no split of the laptop), then a laptop was set
    # down half over it and the two were reported together; the small one is taken away and every frame of the look
    # reports the laptop over its place: a younger object hosts nothing (only an older one, whose split a twin
    # born beside it may be): removed, not joined into the laptop
    mem = _memory(store, share)
    for t in (0.0, 0.5, 1.0, 1.5, 2.0):
        mem.add([span_obs("laptop", *TWIN, stamp=t)], view(t, LAPTOP, DL))
    mem.commit()
    for t in (133.8, 134.0, 134.5, 135.2, 137.0, 139.0, 141.0):
        mem.add([box_obs("laptop", LAPTOP, HALF, stamp=t), span_obs("laptop", *TWIN, stamp=t)],
                view(t, LAPTOP, DL))
    mem.commit()
    assert [(o.id, o.state) for o in mem.objects()] == [(1, "present"), (2, "present")]
    look_again(mem, lambda t: [box_obs("laptop", LAPTOP, HALF, stamp=t)], LAPTOP, DL)
    assert [(o.id, o.state) for o in mem.objects()] == [(1, "missing"), (2, "present")]
    assert ("removed", 1) in kinds(mem)
    assert [a for a in mem.audit() if a.action == "merge_twin"] == []


def test_the_frames_share_counts_the_missing_frames_that_reported_nothing(store):
    # the laptop is reported over the twin's place in the first 3 of the 7 frames that missed it up to its removal,
    # the others report nothing: 3 < HELD_FRAMES_SHARE x 7, so no host and the twin is removed. The frames the rule
    # counts are all the missing frames, those without a sighting too (SettlingRows.miss_frames_and_sightings:
    # misses LEFT JOIN sightings; an inner join counts 3 frames and joins the twin to the laptop)
    mem = _memory(store, 0.5)
    _laptop_and_twin(mem)
    look_again(mem, lambda t: [box_obs("laptop", LAPTOP, HALF, stamp=t)] if t <= 287.5 else [], LAPTOP, DL)
    assert (2, "missing") in [(o.id, o.state) for o in mem.objects()]
    assert ("removed", 2) in kinds(mem)
    assert [a for a in mem.audit() if a.action == "merge_twin"] == []
