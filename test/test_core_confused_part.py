"""A thing reported in one frame with a larger object, inside its box, under a label the memory knows as confused
with the larger's, is a part of it only if it spans identity.part_confusion_share of its footprint
(settling.Settling._confused_part, _thing_on_host; issue 11, h490r seed 492: a laptop on a sofa joined to the sofa
once a bled "laptop" view joined to the sofa had made the two labels a known confusion).

Each test runs with the rule on (0.3, the default) and off (0.0: the join as before); the stool's seat bled past the
stool also at 0.95, a share its 0.77 falls under, to show that only the size refuses it."""

from __future__ import annotations

import dataclasses

import pytest
from core_helpers import box_obs, distance_from_eye, kinds, twin_joins, view

from tempomem_ros.core import Memory
from tempomem_ros.core.config import MemoryConfig

SOFA, SOFA_HALF = (3.0, 0.0, 0.45), (1.2, 0.45, 0.45)        # 2.4 x 0.9 x 0.9 m
LAPTOP, LAPTOP_HALF = (3.0, 0.0, 0.55), (0.17, 0.12, 0.10)   # on its seat: 0.34 m, 0.14 of the sofa's footprint
STOOL, STOOL_HALF = (3.0, 0.0, 0.33), (0.22, 0.22, 0.33)     # 0.44 x 0.44 x 0.66 m
SEAT, SEAT_HALF = (3.0, 0.0, 0.62), (0.17, 0.17, 0.03)       # its seat: 0.34 m, 0.77 of the stool's footprint
SEAT_OUT = (3.0, 0.15, 0.62), (0.17, 0.17, 0.03)              # the seat bled 10 cm past the stool in y


def _memory(store, share: float, look_cap: float = 0.0) -> Memory:
    # labels counted in full (fusion.label_look_cap 0): these tests are about the join, not the label shown (counted
    # per look, a part's or a bled look's label outvotes the host's here: test_a_part_joined_in_its_hosts_look_...)
    cfg = MemoryConfig()
    cfg = dataclasses.replace(cfg, identity=dataclasses.replace(cfg.identity, part_confusion_share=share),
                              fusion=dataclasses.replace(cfg.fusion, label_look_cap=look_cap))
    return Memory.open(store("m"), embedding_dim=4, config=cfg)


def _cam(t: float, at) -> object:
    return view(t, at, distance_from_eye(at) + 0.5)


def _seen_together_then_confused(mem, big: str, big_at, big_half, small: str, small_at, small_half) -> None:
    # the big one reported alone for 10 s, then the two together for 2 s (two objects); then two frames in which
    # the big one is reported under the small one's label at its own place (a mask of the small thing bled over
    # it), the small one reported too: the big one takes that label's mass, and the pair becomes a known
    # confusion; then both reported together again
    for i in range(20):
        t = 0.5 * i
        mem.add([box_obs(big, big_at, big_half, stamp=t)], _cam(t, big_at))
    for i in range(5):
        t = 10.0 + 0.5 * i
        mem.add([box_obs(big, big_at, big_half, stamp=t), box_obs(small, small_at, small_half, stamp=t)],
                _cam(t, big_at))
    mem.commit()
    assert [(o.id, o.label) for o in mem.objects()] == [(1, big), (2, small)]
    for t in (13.0, 13.5):
        mem.add([box_obs(small, big_at, big_half, stamp=t), box_obs(small, small_at, small_half, stamp=t)],
                _cam(t, big_at))
    mem.commit()
    assert mem._fusion._rows.joint_mass(*sorted((big, small))) >= 1.0  # fusion.confusion_min_mass: now known
    for i in range(4):
        t = 14.0 + 0.5 * i
        mem.add([box_obs(big, big_at, big_half, stamp=t), box_obs(small, small_at, small_half, stamp=t)],
                _cam(t, big_at))
    mem.commit()


@pytest.mark.parametrize("share", [0.3, 0.0])
def test_a_laptop_on_a_sofa_stays_its_own_object_when_the_labels_are_a_known_confusion(store, share):
    mem = _memory(store, share)
    _seen_together_then_confused(mem, "sofa", SOFA, SOFA_HALF, "laptop", LAPTOP, LAPTOP_HALF)
    states = [(o.id, o.label, o.state) for o in mem.objects()]
    if share:
        assert states == [(1, "sofa", "present"), (2, "laptop", "present")]
        assert twin_joins(mem) == []
    else:  # as before: the laptop joined to the sofa as a part of it
        assert states == [(1, "sofa", "present"), (2, "laptop", "forgotten")]
        assert twin_joins(mem) == [{"absorbed": 2, "kept": 1}]


@pytest.mark.parametrize("share", [0.3, 0.0])
def test_a_stools_seat_read_by_a_confused_label_is_still_joined_to_the_stool(store, share):
    # a real part of a larger object: the seat spans 0.77 of the stool's footprint, over the share
    mem = _memory(store, share)
    _seen_together_then_confused(mem, "stool", STOOL, STOOL_HALF, "bench", SEAT, SEAT_HALF)
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "stool", "present"), (2, "bench", "forgotten")]
    assert twin_joins(mem) == [{"absorbed": 2, "kept": 1}]


@pytest.mark.parametrize("share", [0.3, 0.0])
def test_a_laptop_beside_the_sofa_stays_two(store, share):
    # side by side (the laptop on a side table off the sofa's box): never a part, whatever the confusion
    mem = _memory(store, share)
    beside = (SOFA[0] + SOFA_HALF[0] + 0.35, 0.0, 0.55)
    _seen_together_then_confused(mem, "sofa", SOFA, SOFA_HALF, "laptop", beside, LAPTOP_HALF)
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "sofa", "present"), (2, "laptop", "present")]
    assert twin_joins(mem) == []


# _thing_on_host (settling.Settling._held_in_misses): the removal of a thing reported with a larger object of a
# confused label comes due from misses counted while bled views of its label over the larger one's place were fused
# into the larger one; the larger one is its host only if the thing spans the share of its footprint

def _missed_under_bled_views(mem, big_at, big_half, small: str) -> None:
    # a look 2.5 minutes later: every frame reports one mask of the small one's label bled over the whole big one
    # (fused into the big one, which holds that label's mass), nothing at the small one's own box: it is missed
    for t in (160.0, 160.25, 160.5, 160.75, 161.0, 161.25, 161.5, 162.0, 163.5):
        mem.add([box_obs(small, big_at, big_half, stamp=t)], _cam(t, big_at))
    mem.commit()


@pytest.mark.parametrize("share", [0.3, 0.0])
def test_a_laptop_missed_under_bled_laptop_views_of_the_sofa_is_removed_not_joined_to_it(store, share):
    # the laptop (0.14 of the sofa's footprint) was reported with the sofa; its misses were counted while "laptop"
    # views over its place were fused into the sofa: with the rule, the sofa is no host of it (removed); with
    # _thing_on_host skipped, _held_in_misses joins it to the sofa after the look (seed 492's 1817.6 s)
    mem = _memory(store, share)
    _seen_together_then_confused(mem, "sofa", SOFA, SOFA_HALF, "laptop", LAPTOP, LAPTOP_HALF)
    if share:  # (share 0: already joined by _twins, test_a_laptop_on_a_sofa_stays_its_own_object_...)
        assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "sofa", "present"),
                                                                     (2, "laptop", "present")]
    _missed_under_bled_views(mem, SOFA, SOFA_HALF, "laptop")
    states = [(o.id, o.label, o.state) for o in mem.objects()]
    if share:
        assert states == [(1, "sofa", "present"), (2, "laptop", "missing")]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 2)]
        assert twin_joins(mem) == []
    else:
        assert states == [(1, "sofa", "present"), (2, "laptop", "forgotten")]
        assert kinds(mem) == [("appeared", 1), ("merged", 2)]
        assert twin_joins(mem) == [{"absorbed": 2, "kept": 1}]
        assert [a for a in mem.audit() if a.action == "remove"] == []


@pytest.mark.parametrize("share", [0.3, 0.0, 0.95])
def test_a_stools_seat_missed_under_bled_bench_views_of_the_stool_is_joined_to_it(store, share):
    # a real part under a confused label, bled 10 cm past the stool's box (so no _part_inside, no _confused_part):
    # it spans 0.77 of the stool's footprint, so at the default share the stool hosts it in _held_in_misses and it
    # is joined, not removed; only a share above 0.77 (0.95 here) makes _thing_on_host refuse it
    mem = _memory(store, share)
    _seen_together_then_confused(mem, "stool", STOOL, STOOL_HALF, "bench", *SEAT_OUT)
    for i in range(8):   # seen together past identity.glimpse_s
        t = 16.0 + 0.5 * i
        mem.add([box_obs("stool", STOOL, STOOL_HALF, stamp=t), box_obs("bench", *SEAT_OUT, stamp=t)],
                _cam(t, STOOL))
    mem.commit()
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "stool", "present"), (2, "bench", "present")]
    assert twin_joins(mem) == []
    _missed_under_bled_views(mem, STOOL, STOOL_HALF, "bench")
    states = [(o.id, o.label, o.state) for o in mem.objects()]
    if share < 0.9:
        assert states == [(1, "stool", "present"), (2, "bench", "forgotten")]
        assert kinds(mem) == [("appeared", 1), ("merged", 2)]
        assert twin_joins(mem) == [{"absorbed": 2, "kept": 1}]
        assert [a for a in mem.audit() if a.action == "remove"] == []
    else:
        assert states == [(1, "stool", "present"), (2, "bench", "missing")]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 2)]
        assert twin_joins(mem) == []


@pytest.mark.xfail(strict=True, reason="known weakness of fusion.label_look_cap (stop 52): the seat's own looks bring "
                   "their own cap into the stool at the join, so 'bench' outweighs 'stool' (merging the two objects' "
                   "current looks at the join mended this but lost 26 questions on h470, h470r and h460)")
def test_a_part_joined_in_its_hosts_look_keeps_the_hosts_label_with_labels_counted_per_look(store):
    mem = _memory(store, 0.3, look_cap=MemoryConfig().fusion.label_look_cap)
    _seen_together_then_confused(mem, "stool", STOOL, STOOL_HALF, "bench", SEAT, SEAT_HALF)
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "stool", "present"), (2, "bench", "forgotten")]
