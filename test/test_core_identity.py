"""Identity and absence without a per-instance feature (issue 11): confused labels, twins, looks, holds.

Every test runs the default configuration (holds on), except where it says otherwise.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from core_helpers import IMMEDIATE, box_obs, distance_from_eye, kinds, render_view, span_obs, view

from tempomem_ros.core import CameraView, Memory
from tempomem_ros.core.absence import expected_mask_px, visible_fractions
from tempomem_ros.core.config import AbsenceConfig, MemoryConfig
from tempomem_ros.core.persistence import AbsenceState, add_miss, add_misses, gone

A = (2.0, 0.0, 0.8)
B = (0.0, 2.0, 0.8)
DA = distance_from_eye(A)
DB = distance_from_eye(B)
SEEN = DA + 0.04      # depth at A when something stands there
EMPTY = DA + 1.0      # depth at A when the place is empty (the wall behind)


def test_a_confused_label_at_the_mugs_place_adds_label_mass_not_a_twin(mem):
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (1.5, 2.0, 2.5):  # the segmenter calls it a cup for a run of frames, boxes 1 cm off
        mem.add([box_obs("cup", (A[0] + 0.01, A[1], A[2]), stamp=t)], view(t, A, SEEN))
    mem.commit()
    (mug,) = mem.objects()
    assert (mug.label, mug.state, mug.n_observations) == ("mug", "present", 6)
    assert mug.label_mass == pytest.approx({"mug": 2.7, "cup": 2.7})
    assert kinds(mem) == [("appeared", 1)]  # no second object, no removal, no relabelling (margin)
    assert mem._conn.execute("SELECT COUNT(*) FROM misses").fetchone()[0] == 0  # a confusion is no absence


# 5 cm off on an 8 cm box: the same place (each box holds the other's centre, IoU 0.41), but geometry alone
# scores 0.56 < 0.62: whether the label counts as agreeing decides.
OFF = (A[0] + 0.05, A[1], A[2])


def test_a_different_label_at_the_place_after_a_long_absence_is_a_new_object_but_no_absence(mem):
    # Ten minutes unseen, then a "bowl" where the mug stood (boxes 5 cm apart): not the mug (no known
    # confusion, not recent), but a sighting at its very place is no evidence that the place is empty
    # either (it may be the mug under a label never seen confused before): the mug is not declared gone.
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (600.0, 600.5, 601.0, 601.5, 602.0, 603.5):
        mem.add([box_obs("bowl", OFF, stamp=t)], view(t, A, SEEN))
    mem.commit()
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "mug", "present"), (2, "bowl", "present")]
    assert mem._conn.execute("SELECT COUNT(*) FROM misses").fetchone()[0] == 0


def test_a_look_alike_at_a_small_objects_core_place_is_no_absence_though_its_fused_box_grew(mem):
    # Seed 252 (no feature): a bottle's noisy sightings grew its fused box to 13 x 13 x 31 cm; on a visit ten
    # minutes later it was seen only as "vase" (no known confusion, not recent). The whole view of it overlaps
    # the fused box by IoU 0.28 (< same_place_iou 0.3), so every frame counted a miss and the bottle was removed,
    # then seen back as "bottle". Against its core box (mean centre +- its largest single view) the same view
    # is at its very place: no miss.
    half = (0.035, 0.035, 0.125)
    for t, d in ((0.0, (0.03, 0.0, 0.03)), (0.5, (-0.03, 0.03, -0.03)), (1.0, (0.0, -0.03, 0.0))):
        mem.add([box_obs("bottle", (A[0] + d[0], A[1] + d[1], A[2] + d[2]), half=half, stamp=t)],
                view(t, A, SEEN))
    mem.commit()
    (bottle,) = mem.objects()
    assert [round(h - lo, 2) for lo, h in zip(bottle.bbox_min, bottle.bbox_max)] == [0.13, 0.13, 0.31]
    for t in (600.0, 600.5, 601.0, 601.5, 602.0, 603.5):
        mem.add([box_obs("vase", A, half=(0.03, 0.03, 0.12), stamp=t)], view(t, A, SEEN))
    mem.commit()
    assert mem.get(1).state == "present"
    assert mem._conn.execute("SELECT COUNT(*) FROM misses WHERE object_id=1").fetchone()[0] == 0
    assert ("removed", 1) not in kinds(mem)


def test_misses_in_the_look_that_saw_an_object_are_a_dropout_not_its_absence(mem):
    # Seeds 249, 251, 254 (no feature): an object seen, then not reported for a frame or a few while the camera
    # still looked (its depth there), was removed minutes later with the stamp of that dropout, long before it
    # left; seeds 252, 256, 257: a dropout of a second or two in one look removed it, and it "reappeared". Misses
    # within absence.look_gap_s of the last sighting are the look that saw it: none is counted.
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (1.1, 1.5, 2.0, 2.5, 3.0, 4.0):  # nothing reported, the mug's surface still in the depth
        mem.add([], view(t, A, SEEN))
    mem.commit()
    assert mem.get(1).state == "present"
    assert mem._conn.execute("SELECT COUNT(*) FROM misses").fetchone()[0] == 0
    for t in (600.0, 600.5, 601.0, 601.5, 602.0, 603.0):  # the next visit sees the place empty: removed then
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    assert mem.get(1).state == "missing"
    (removed,) = [e for e in mem.changes() if e.kind == "removed"]
    assert removed.stamp == 600.0


def test_the_dropout_exception_is_its_own_kind_overlapping_its_box_from_outside(mem):
    # Seed 251: a chair pushed 0.3 m (less than its size) had its front edge at the new place merged into the old
    # chair, so every frame of that look was "within 3 s of a sighting"; a chair sighting reaching into the old box
    # from outside it lets that look count misses (the move was found), another label or a view centred inside does
    # not (tempomem_ros/core/frame_fusion.py, _own_kind_beside).
    from tempomem_ros.core.frame_fusion import StagedObs

    half = np.array((0.225, 0.225, 0.45))
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("chair", A, half=tuple(half), stamp=t)], view(t, A, SEEN))
    mem.commit()
    row = mem._graph.object_row(1)

    def sighting(label, dx):
        c = np.array((A[0] + dx, A[1], A[2]))
        return StagedObs(99, 1.5, label, 0.9, c, c - half, c + half, None, 0)

    assert mem._fusion._own_kind_beside(row, [sighting("chair", 0.30)])        # pushed: overlaps, centred outside
    assert not mem._fusion._own_kind_beside(row, [sighting("table", 0.30)])    # another kind there says nothing
    assert not mem._fusion._own_kind_beside(row, [sighting("chair", 0.10)])    # centred inside: a view of it
    assert not mem._fusion._own_kind_beside(row, [sighting("chair", 0.60)])    # beside, not overlapping


def test_a_learned_confusion_holds_after_a_long_absence(mem):
    for t in (0.0, 0.5, 1.0, 1.5):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (2.0, 2.5):  # seen moments ago: "cup" there is the mug, and the pair is learned
        mem.add([box_obs("cup", OFF, stamp=t)], view(t, A, SEEN))
    mem.commit()
    assert mem._fusion.known_confusion("cup", "mug") and not mem._fusion.known_confusion("bowl", "mug")
    for t in (600.0, 600.5):  # the next visit starts with "cup" from this side
        mem.add([box_obs("cup", OFF, stamp=t)], view(t, A, SEEN))
    mem.commit()
    (mug,) = mem.objects()
    assert (mug.label, mug.state, mug.n_observations) == ("mug", "present", 8)
    assert mug.label_mass == pytest.approx({"mug": 3.6, "cup": 3.6})
    assert kinds(mem) == [("appeared", 1)]


def test_two_look_alikes_side_by_side_stay_two_and_keep_their_labels(mem):
    remote, phone = (1.0, 0.0, 0.45), (1.0, 0.1, 0.45)
    half_r, half_p = (0.03, 0.03, 0.015), (0.03, 0.035, 0.01)
    for i in range(4):
        mem.add([box_obs("remote", remote, half_r, stamp=i), box_obs("phone", phone, half_p, stamp=i)])
    for i in range(4, 7):  # they trade labels for three frames
        mem.add([box_obs("phone", remote, half_r, stamp=i), box_obs("remote", phone, half_p, stamp=i)])
    mem.commit()
    objs = mem.objects()
    assert [(o.label, o.n_observations, o.state) for o in objs] == [("remote", 7, "present"),
                                                                    ("phone", 7, "present")]
    assert [e.kind for e in mem.changes()] == ["appeared", "appeared"]  # no relabelled flip-flop


# A sofa (2.0 x 0.9 x 0.9 m) and a shelf (0.6 x 1.1 x 1.9 m), and a sliver of each as a segmenter reports it under
# another name of its kind: seed 399's 5 x 9 x 20 cm "couch" at the sofa's corner, seed 388's "bookshelf" over the
# shelf's lower boards.
WHOLES = {
    "sofa": ((1.0, -0.45, 0.0), (3.0, 0.45, 0.9), (1.02, -0.43, 0.02), (1.08, -0.35, 0.22)),
    "shelf": ((4.0, 1.0, 0.0), (4.6, 2.1, 1.9), (4.08, 1.05, 0.05), (4.45, 1.55, 1.6)),
}


@pytest.mark.parametrize("whole, name", [("sofa", "couch"), ("shelf", "bookshelf"), ("shelf", "bookcase")])
@pytest.mark.parametrize("with_whole", [False, True], ids=["alone", "with the whole"])
def test_a_sliver_under_another_name_of_its_kind_is_a_view_of_it_not_a_new_object(mem, whole, name, with_whole):
    # Seeds 399 and 388 (no feature): the name was new to the memory (no learned confusion), the sliver far smaller
    # than the object (not its very place), so it became an object of its own inside it, then a false "appeared"
    # and a false "removed". Synonyms and closed compounds name one kind (labels.SYNONYMS, KIND_OF): a view of it.
    lo, hi, slo, shi = WHOLES[whole]
    for t in (0.0, 0.5, 1.0):
        mem.add([span_obs(whole, lo, hi, stamp=t)])
    for t in (600.0, 600.5, 601.0):  # a visit ten minutes later: not "seen moments ago"
        whole_too = [span_obs(whole, lo, hi, stamp=t)] if with_whole else []
        mem.add([span_obs(name, slo, shi, stamp=t, conf=0.6), *whole_too])
    mem.commit()
    (obj,) = mem.objects()
    assert (obj.label, obj.state, obj.n_observations) == (whole, "present", 6)
    # alone, the sliver is the object's sighting of the frame (label mass); beside the whole, a part of it (none)
    assert obj.label_mass == pytest.approx({whole: 5.4} if with_whole else {whole: 2.7, name: 1.8})
    assert kinds(mem) == [("appeared", 1)]


@pytest.mark.parametrize("a, b", [("sofa", "couch"), ("chair", "armchair"), ("shelf", "bookshelf")])
def test_two_things_of_one_kind_under_two_names_side_by_side_stay_two(mem, a, b):
    # Synonyms agree, but one object takes one sighting a frame and two side by side hold neither's centre: an L of
    # two sofas read "sofa" and "couch", an armchair beside a chair stay two, also when they trade names.
    half = (0.45, 0.4, 0.45)
    left, right = (1.0, 0.0, 0.45), (1.0, 0.95, 0.45)
    for i in range(4):
        mem.add([box_obs(a, left, half, stamp=i), box_obs(b, right, half, stamp=i)])
    for i in range(4, 6):
        mem.add([box_obs(b, left, half, stamp=i), box_obs(a, right, half, stamp=i)])
    mem.commit()
    assert [(o.label, o.n_observations, o.state) for o in mem.objects()] == [(a, 6, "present"), (b, 6, "present")]
    assert kinds(mem) == [("appeared", 1), ("appeared", 2)]


def test_a_patrol_of_ten_looks_makes_an_object_missing():
    def patrol(path, **config):
        with Memory.open(path, embedding_dim=4, config=config or None) as m:
            for t in (0.0, 0.5, 1.0):
                m.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
            for k in range(10):  # one glance every two minutes, unoccluded, never seeing the mug
                m.add([], view(120.0 * (k + 1), A, EMPTY))
            m.add([], view(1202.0, B, DB + 1.0))  # looking elsewhere: time passes, the removal has held
            m.commit()
            return m.get(1).state, [(e.kind, e.stamp) for e in m.changes()]

    import tempfile

    with tempfile.TemporaryDirectory() as d:
        state, events = patrol(f"{d}/a.db")
        assert state == "missing"
        assert events == [("appeared", 0.0), ("removed", 120.0)]  # decided at the third look, stamped at the first
        # one look alone is not enough: two glances are 2/3 of the evidence
        with Memory.open(f"{d}/b.db", embedding_dim=4) as m:
            for t in (0.0, 0.5, 1.0):
                m.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
            m.add([], view(120.0, A, EMPTY))
            m.add([], view(240.0, A, EMPTY))
            m.add([], view(400.0, B, DB + 1.0))
            m.commit()
            assert m.get(1).state == "present"


def test_persistence_arithmetic():
    s = AbsenceState()
    for t in (0.0, 0.3, 0.6):  # one look of three misses within 0.6 s: a full unit, but shorter than 1 s
        s = add_miss(s, t, look_gap_s=3.0, misses_to_remove=3)
    assert (s.evidence, s.looks, s.look_misses) == (pytest.approx(1.0), 1, 3)
    assert not gone(s, evidence_to_remove=1.0, min_absence_s=1.0)
    s = add_miss(s, 0.9, look_gap_s=3.0, misses_to_remove=3)  # a fourth miss adds nothing to that look
    assert s.evidence == pytest.approx(1.0) and not gone(s, evidence_to_remove=1.0, min_absence_s=1.0)
    s = add_miss(s, 1.2, look_gap_s=3.0, misses_to_remove=3)
    assert gone(s, evidence_to_remove=1.0, min_absence_s=1.0)  # spans 1.2 s now
    t = add_miss(AbsenceState(), 0.0, look_gap_s=3.0, misses_to_remove=3)
    t = add_miss(t, 10.0, look_gap_s=3.0, misses_to_remove=3)   # two looks, 2/3
    assert (t.looks, t.first_miss) == (2, 0.0) and not gone(t, evidence_to_remove=1.0, min_absence_s=1.0)
    t = add_miss(t, 20.0, look_gap_s=3.0, misses_to_remove=3)
    assert gone(t, evidence_to_remove=1.0, min_absence_s=1.0)


def test_add_misses_folds_misses_into_the_state_and_the_due_time_as_one_miss_at_a_time_does():
    """The fuser (one miss a frame) and settling (replaying the misses after a joined twin's last sighting) share
    persistence.add_misses: the due time is removal_hold_s after the miss that decided, and a due time already
    set stays."""
    acfg = AbsenceConfig(short_look_misses=0)   # 3 misses over >= 1 s, looks 3 s apart, a 1 s hold
    stamps = (0.0, 0.3, 0.6, 0.9, 1.2, 1.5)
    state, due = add_misses(AbsenceState(), None, stamps, acfg)
    s, d = AbsenceState(), None
    for t in stamps:
        s, d = add_misses(s, d, (t,), acfg)
    assert (state, due) == (s, d)
    assert due == pytest.approx(1.2 + acfg.removal_hold_s)   # decided at 1.2 s, not at 0.6 s (shorter than 1 s)
    assert add_misses(AbsenceState(), 5.0, stamps, acfg)[1] == 5.0
    assert add_misses(AbsenceState(), None, (0.0, 10.0), acfg) == (
        AbsenceState(pytest.approx(2 / 3), 2, 10.0, 1, 0.0, 10.0), None)   # two looks of one miss: 2/3, not due
    assert add_misses(AbsenceState(), None, (), acfg) == (AbsenceState(), None)


def test_absence_state_of_row_reads_the_columns_a_miss_writes(mem):
    """AbsenceState.of_row is what the fuser adds a miss to and what settling's guarded join asks gone() of: read
    from a store row it is the state add_misses wrote, and a row with no miss since its sighting is the empty state."""
    mem.add([box_obs("mug", A)], view(0.0, A, SEEN))
    mem.commit()
    assert AbsenceState.of_row(mem._graph.object_row(1)) == AbsenceState()
    for t in (1.0, 1.3):  # two misses of one look: short of a removal
        mem.add([], view(t, A, EMPTY))
        mem.commit()
    row = mem._graph.object_row(1)
    state = AbsenceState.of_row(row)
    assert row.removal_due is None
    assert state == add_misses(AbsenceState(), None, (1.0, 1.3), mem.config.absence)[0]
    assert state == AbsenceState(pytest.approx(2 / 3), 1, 1.0, 2, 1.0, 1.3)  # one look of 2 of 3 misses


def test_a_removal_is_stamped_by_its_first_full_look_not_by_a_dropout_before_it(mem):
    """Seed 328 (no feature): a cup missed in two frames at 1385.8 s (a segmenter's dropout; it stood there until
    it was moved at 1561.2 s), then in a full look at 1576.2 s, was reported removed at 1385.8 s: a false removal.
    The two misses still add evidence (two looks decide); the change is dated by the look that showed it well."""
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (100.0, 100.1):   # a weak look: two missed frames
        mem.add([], view(t, A, EMPTY))
    for t in (200.0, 200.1, 200.2):   # a full look, 0.2 s long: decides only with the weak look before it
        mem.add([], view(t, A, EMPTY))
    mem.add([], view(210.0, B, DB + 1.0))
    mem.commit()
    assert mem.get(1).state == "missing"
    assert [(e.kind, e.object_id, e.stamp) for e in mem.changes()] == [("appeared", 1, 0.0), ("removed", 1, 200.0)]
    assert [o.id for o, _ in mem.scene_as_of(150.0)] == [1]   # still there as of 150 s
    assert mem.scene_as_of(205.0) == []


def test_a_removal_seen_only_in_weak_looks_keeps_its_first_miss(mem):
    """Patrol glances of one frame each are alike: the first dates the change (persistence.evidenced_since)."""
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (100.0, 200.0, 300.0):
        mem.add([], view(t, A, EMPTY))
    mem.add([], view(310.0, B, DB + 1.0))
    mem.commit()
    assert [(e.kind, e.object_id, e.stamp) for e in mem.changes()] == [("appeared", 1, 0.0), ("removed", 1, 100.0)]


def test_a_removal_contradicted_within_its_hold_publishes_nothing(mem):
    for t in (0.0, 0.5):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (10.0, 10.5, 11.0):  # three misses over 1 s: decided, held until 12.0
        mem.add([], view(t, A, EMPTY))
    mem.add([box_obs("mug", A, stamp=11.5)], view(11.5, A, SEEN))  # it was there after all
    mem.add([], view(20.0, B, DB + 1.0))
    mem.commit()
    assert mem.get(1).state == "present"
    assert kinds(mem) == [("appeared", 1)]  # no removed / reappeared flicker
    assert mem.temporal("count_moves", label="mug").count == 0


def test_an_object_is_confirmed_by_three_sightings_over_a_second_and_keeps_its_first_stamp(mem):
    for t in (5.0, 5.1, 5.2):  # three frames of a reflection: never confirmed
        mem.add([box_obs("mug", A, stamp=t)])
    mem.commit()
    assert [(o.id, o.state) for o in mem.objects()] == [(1, "tentative")]
    assert mem.objects(state="present") == [] and mem.changes() == [] and mem.scene_as_of(6.0) == []
    assert not mem.ask("where is the mug").found
    mem.add([box_obs("mug", A, stamp=6.5)])
    mem.commit()
    assert mem.get(1).state == "present"
    (appeared,) = mem.changes()
    assert (appeared.kind, appeared.stamp, appeared.recorded_at) == ("appeared", 5.0, 6.5)


def test_sightings_half_an_hour_apart_are_no_confirming_run(mem):
    mem.add([box_obs("phone", A, stamp=19.0)])  # a blob at the wall ...
    for t in (1807.0, 1807.2):  # ... and two more at the same place thirty minutes later: 3 sightings over 1788 s
        mem.add([box_obs("phone", A, stamp=t)])
    mem.commit()
    assert [(o.id, o.state, o.n_observations) for o in mem.objects()] == [(1, "tentative", 3)]
    assert mem.changes() == [] and mem.objects(state="present") == []
    mem.add([box_obs("phone", A, stamp=1808.2)])  # the third of the new run, 1.2 s after its first: confirmed
    mem.commit()
    assert mem.get(1).state == "present"
    (appeared,) = mem.changes()
    assert (appeared.kind, appeared.object_id, appeared.stamp) == ("appeared", 1, 19.0)  # its first evidence


def test_a_run_is_broken_by_a_gap_longer_than_confirm_gap_s(store):
    with Memory.open(store("g"), embedding_dim=4, config={"identity": {"confirm_gap_s": 5.0}}) as gap:
        for t in (0.0, 0.5, 6.0):  # 5.5 s after the one before: the count starts anew at 6.0
            gap.add([box_obs("mug", A, stamp=t)])
        gap.commit()
        assert gap.get(1).state == "tentative"
        for t in (10.0, 11.0):  # 6.0, 10.0, 11.0: three sightings, no gap over 5 s, spanning 5 s
            gap.add([box_obs("mug", A, stamp=t)])
        gap.commit()
        assert gap.get(1).state == "present"


def test_a_glimpse_whose_place_is_then_seen_empty_is_dismissed_without_an_event(mem):
    mem.add([box_obs("mug", A, stamp=0.0)], view(0.0, A, SEEN))
    for t in (1.0, 1.5, 2.0, 3.5):
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    (mug,) = mem.objects()
    assert mug.state == "forgotten" and mem.changes() == []
    assert [a.action for a in mem.audit()][-1] == "dismiss"
    (tomb,) = mem._conn.execute("SELECT kind, active FROM tombstones").fetchall()
    assert tuple(tomb) == ("dismissed", 0)


def test_a_look_alike_found_while_the_first_was_unseen_is_that_one_moved_once_its_place_is_seen_empty(mem):
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (600.0, 600.5, 601.0):  # next visit: a mug at B first; nobody knows yet if it is a second one
        mem.add([box_obs("mug", B, stamp=t)], view(t, B, DB + 0.04))
    mem.commit()
    assert [(o.id, o.state) for o in mem.objects()] == [(1, "present"), (2, "present")]
    assert kinds(mem) == [("appeared", 1)]  # the mug at B is held: it may be the first one moved
    for t in (610.0, 610.5, 611.0, 612.5):  # then A is seen empty
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    objs = mem.objects()
    assert [(o.id, o.state, o.n_moves, o.n_observations) for o in objs] == [(1, "present", 1, 6),
                                                                          (2, "forgotten", 0, 3)]
    assert kinds(mem) == [("appeared", 1), ("moved", 1)]
    moved = mem.changes()[1]
    assert moved.stamp == 600.0 and moved.before.center == pytest.approx(A) and moved.after.center == pytest.approx(B)
    hist = mem.temporal("history", label="mug")
    assert [(p.t_from, p.t_to) for p in hist.placements] == [(0.0, 600.0), (600.0, None)]
    assert mem.temporal("as_of", label="mug", t=300.0).placements[0].center == pytest.approx(A)
    assert {h.object_id for h in mem.history(1)} == {1}  # the observations of #2 now belong to #1
    assert [a.action for a in mem.audit() if a.action == "reconcile_move"] == ["reconcile_move"]
    (tomb,) = mem._conn.execute("SELECT object_id, kind, active FROM tombstones").fetchall()
    assert tuple(tomb) == (2, "merged", 0)


C = (-2.0, 0.0, 0.8)
DC = distance_from_eye(C)


def test_a_look_alike_that_moved_on_before_the_first_place_was_seen_empty_is_that_one_moved_twice(mem):
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (600.0, 600.5, 601.0, 601.5):  # a mug at B while A is out of view: held, then published
        mem.add([box_obs("mug", B, stamp=t)], view(t, B, DB + 0.04))
    for t in (900.0, 900.5, 901.0, 901.5):  # it moves on to C (B seen empty next): a move of #2
        mem.add([box_obs("mug", C, stamp=t)], view(t, C, DC + 0.04))
    for t in (910.0, 910.5, 911.0, 912.5):
        mem.add([], view(t, B, DB + 1.0))
    mem.commit()
    assert [(o.id, o.state, o.n_moves) for o in mem.objects()] == [(1, "present", 0), (2, "present", 1),
                                                                   (3, "forgotten", 0)]
    assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("moved", 2)]
    for t in (1200.0, 1200.5, 1201.0, 1202.5):  # then, at last, A is seen empty: #1 went to B, then to C
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    assert [(o.id, o.state, o.n_moves, o.n_observations) for o in mem.objects()] == [
        (1, "present", 2, 11), (2, "forgotten", 1, 8), (3, "forgotten", 0, 4)]
    # #2's events are retracted; a "merged" says so (they had been published)
    assert kinds(mem) == [("appeared", 1), ("moved", 1), ("moved", 1), ("merged", 2)]
    first, second = mem.changes()[1:3]
    assert (first.stamp, second.stamp) == (600.0, 900.0)
    assert first.before.center == pytest.approx(A) and first.after.center == pytest.approx(B)
    assert second.before.center == pytest.approx(B) and second.after.center == pytest.approx(C)
    assert first.after.id == second.before.id   # one placement at B, #1's copy of #2's
    hist = mem.temporal("history", label="mug")
    assert [(p.t_from, p.t_to) for p in hist.placements] == [(0.0, 600.0), (600.0, 900.0), (900.0, None)]
    assert [p.center for p in hist.placements] == [pytest.approx(A), pytest.approx(B), pytest.approx(C)]
    assert mem.temporal("as_of", label="mug", t=700.0).placements[0].center == pytest.approx(B)
    assert mem.temporal("count_moves", label="mug").count == 2
    # every sighting is #1's, each in its placement's copy; #2's own placements stay as they were, closed
    rows = mem._conn.execute("SELECT o.object_id, p.object_id, p.cx FROM observations o JOIN placements p "
                             "ON p.id = o.placement_id").fetchall()
    assert {(a, b) for a, b, _ in rows} == {(1, 1)} and len(rows) == 11
    assert [tuple(r) for r in mem._conn.execute(
        "SELECT object_id, current, closed_reason FROM placements WHERE object_id=2 ORDER BY id")] == [
        (2, 0, "moved"), (2, 0, "merged")]
    (audit,) = [a for a in mem.audit() if a.action == "reconcile_move" and a.detail["kept"] == 1]
    assert audit.detail["moves_rehomed"] == 1 and len(audit.detail["placements"]) == 2
    assert [e.kind for e in mem.events(object_id=2)] == ["merged"]
    assert [tuple(r) for r in mem._conn.execute("SELECT kind, retracted FROM events WHERE object_id=2 ORDER BY id")] \
        == [("appeared", 1), ("moved", 1), ("merged", 0)]


def test_a_second_mug_seen_soon_after_the_first_is_not_a_move(mem):
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (3.0, 3.5, 4.0):  # 2 s later, elsewhere (< identity.min_gap_s): another instance
        mem.add([box_obs("mug", B, stamp=t)], view(t, B, DB + 0.04))
    for t in (10.0, 10.5, 11.0, 12.5):
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    assert [(o.id, o.state, o.n_moves) for o in mem.objects()] == [(1, "missing", 0), (2, "present", 0)]
    assert sorted(kinds(mem)) == [("appeared", 1), ("appeared", 2), ("removed", 1)]


def test_twins_at_one_place_never_seen_together_are_joined_and_the_join_recorded(mem):
    for t in (0.0, 0.5):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    mem.commit()
    # 100 s later "cup" at the mug's place: not recent, no known confusion -> a second object (a twin)
    mem.add([box_obs("cup", OFF, stamp=100.0)], view(100.0, A, SEEN))
    mem.add([box_obs("cup", OFF, stamp=100.5)], view(100.5, A, SEEN))
    assert mem.commit().created == 1
    # then "mug" again: the two were never seen in one frame and their sightings interleave -> one object
    mem.add([box_obs("mug", A, stamp=101.0)], view(101.0, A, SEEN))
    mem.commit()
    objs = mem.objects()
    assert [(o.id, o.label, o.state, o.n_observations) for o in objs] == [(1, "mug", "present", 5),
                                                                          (2, "cup", "forgotten", 2)]
    assert [a.detail for a in mem.audit() if a.action == "merge_twin"] == [{"kept": 1, "absorbed": 2}]
    assert kinds(mem) == [("appeared", 1)]  # the twin's appearance was held, then withdrawn


def test_a_twin_that_outweighs_the_label_relabels_with_a_record_and_may_be_a_removed_one_moved(mem):
    for t in (0.0, 0.5, 1.0):  # a cup at B, then B seen empty: removed
        mem.add([box_obs("cup", B, stamp=t)], view(t, B, DB + 0.04))
    for t in (100.0, 100.5, 101.0, 102.5):
        mem.add([], view(t, B, DB + 1.0))
    for t in (300.0, 300.5, 301.0, 301.5):   # at A, read "mug" (weakly): a mug, no cup moved
        mem.add([box_obs("mug", A, stamp=t, conf=0.4)], view(t, A, SEEN))
    mem.commit()
    for t in (600.0, 600.3, 600.6):   # later "cup" at its place, surely: a twin (not yet confirmed)
        mem.add([box_obs("cup", OFF, stamp=t, conf=0.95)], view(t, A, SEEN))
    mem.commit()
    assert [(o.id, o.label, o.state) for o in mem.objects()][1:] == [(2, "mug", "present"), (3, "cup", "tentative")]
    mem.add([box_obs("mug", A, stamp=601.0, conf=0.4)], view(601.0, A, SEEN))   # interleaved: one object
    mem.commit()
    assert [(a.action, a.detail.get("kept"), a.detail.get("absorbed", a.detail.get("joined"))) for a in mem.audit()
            if a.action in ("merge_twin", "reconcile_move")] == [("merge_twin", 2, 3), ("reconcile_move", 1, 2)]
    # the join made it read "cup" (recorded), so it is the removed cup, moved (before the fix: a second cup)
    assert [tuple(r) for r in mem._conn.execute("SELECT object_id, old_label, new_label FROM label_history")] \
        == [(2, "mug", "cup")]
    assert [(o.id, o.label, o.state, o.n_moves, o.n_observations) for o in mem.objects()] == [
        (1, "cup", "present", 1, 11), (2, "cup", "forgotten", 0, 8), (3, "cup", "forgotten", 0, 3)]
    assert [(e.kind, e.object_id, e.stamp) for e in mem.changes()] == [
        ("appeared", 1, 0.0), ("removed", 1, 100.0), ("moved", 1, 300.0), ("merged", 2, 601.0)]
    assert [tuple(r) for r in mem._conn.execute("SELECT kind, retracted FROM events WHERE object_id=2 ORDER BY id")] \
        == [("appeared", 1), ("relabelled", 1), ("merged", 0)]
    assert mem.objects_labelled("mug") == [] and [o.id for o in mem.objects_labelled("cup")] == [1]


def test_two_detections_in_one_frame_are_two_objects_however_close(mem):
    mug, other = (1.0, 1.0, 0.5), (1.0, 1.085, 0.5)  # two mugs touching, both detected together
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", mug, stamp=t), box_obs("mug", other, stamp=t)])
    mem.commit()
    assert [(o.state, o.n_observations) for o in mem.objects()] == [("present", 3), ("present", 3)]


def test_one_object_reported_in_two_parts_in_one_frame_is_one_sighting(mem):
    # a stool seen whole, then reported as seat and legs (two "stool" instances) in every frame: one stool
    seat, legs = ((2.0, 0.0, 0.44), (0.2, 0.2, 0.02)), ((2.0, 0.0, 0.21), (0.2, 0.2, 0.21))
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("stool", (2.0, 0.0, 0.23), (0.2, 0.2, 0.23), stamp=t)])
    ids = []
    for t in (2.0, 2.5, 3.0):
        ids += mem.add([box_obs("stool", *legs, stamp=t), box_obs("stool", *seat, stamp=t)])
    mem.commit()
    (stool,) = mem.objects()
    assert (stool.state, stool.n_observations) == ("present", 6)
    assert stool.bbox_min == pytest.approx((1.8, -0.2, 0.0)) and stool.bbox_max == pytest.approx((2.2, 0.2, 0.46))
    recs = [mem.observation(i) for i in ids]
    assert [(r.verdict, r.reason, r.object_id) for r in recs[1::2]] == [("merged", "part", 1)] * 3


def test_a_laptop_first_seen_in_two_parts_is_one_object(mem):
    # base (flat) and screen (standing on its back edge) reported apart from the first frame: no whole known
    base, screen = ((1.0, 1.0, 0.51), (0.16, 0.12, 0.01)), ((1.0, 1.1, 0.63), (0.16, 0.01, 0.11))  # base larger
    ids = []
    for t in (0.0, 0.5, 1.0):
        ids += mem.add([box_obs("laptop", *screen, stamp=t), box_obs("laptop", *base, stamp=t)])
    mem.commit()
    (laptop,) = mem.objects()
    assert (laptop.label, laptop.state, laptop.n_observations) == ("laptop", "present", 3)
    assert laptop.bbox_min == pytest.approx((0.84, 0.88, 0.5))
    assert laptop.bbox_max == pytest.approx((1.16, 1.12, 0.74))
    recs = [mem.observation(i) for i in ids]
    assert [(r.verdict, r.reason, r.object_id) for r in recs[0::2]] == [("merged", "part", 1)] * 3  # screens
    assert "part" not in {r.reason for r in recs[1::2]}


LAPTOP = ((1.0, 1.005, 0.62), (0.16, 0.125, 0.12))                     # open: base and standing screen
SCREEN = ((1.0, 1.12, 0.63), (0.16, 0.01, 0.11))                       # standing on the back edge
SLIVER = ((1.0, 0.895, 0.51), (0.16, 0.015, 0.01))                     # 3 cm of the base at the front


@pytest.mark.parametrize("seen_whole_first", [True, False])
def test_a_laptop_seen_whole_then_as_screen_and_a_sliver_of_its_base_is_one_sighting(mem, seen_whole_first):
    # held-out seed 247 (no feature): the screen and a sliver of the base, reported apart in the same frames,
    # do not stack (the screen stands behind the sliver); inside the laptop seen whole they are parts of it
    ids = []
    if seen_whole_first:
        for t in (0.0, 0.5, 1.0):
            mem.add([box_obs("laptop", *LAPTOP, stamp=t)])
    for t in (2.0, 2.5, 3.0):
        ids += mem.add([box_obs("laptop", *SCREEN, stamp=t), box_obs("laptop", *SLIVER, stamp=t)])
    mem.commit()
    if seen_whole_first:
        (laptop,) = mem.objects()
        assert (laptop.state, laptop.n_observations) == ("present", 6)
        recs = [mem.observation(i) for i in ids]
        assert [(r.verdict, r.reason, r.object_id) for r in recs[1::2]] == [("merged", "part", 1)] * 3
    else:  # nothing known whole: a screen and a sliver that do not stack stay two (two things side by side)
        assert [(o.label, o.state, o.n_observations) for o in mem.objects()] == [("laptop", "present", 3)] * 2


@pytest.mark.parametrize("label, parts", [("stool", 1), ("mug", 2)])
def test_a_sliver_inside_an_object_matched_in_the_same_frame_is_a_part_of_it(mem, label, parts):
    # dev seed 12 (no feature): a 3 cm sliver of a stool's leg reported beside the whole stool in the same
    # frames became a second stool inside the first (never joinable: seen together), later "removed"; a mug
    # standing on the stool's seat is another thing (its label neither agrees nor is a known confusion)
    # the stool's box bled to 0.8 x 0.6 m by its first views (a merged mask), so the sliver and a whole view of
    # the stool together span too little of it to be joined as the parts of one sighting (_known_whole)
    ids = []
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("stool", (2.2, 0.1, 0.33), (0.4, 0.3, 0.33), stamp=t)])
    for t in (2.0, 2.5, 3.0):
        ids += mem.add([box_obs("stool", (2.0, 0.0, 0.33), (0.18, 0.18, 0.33), stamp=t),
                        box_obs(label, (2.15, 0.15, 0.25), (0.015, 0.015, 0.1), stamp=t)])
    mem.commit()
    assert [o.label for o in mem.objects()] == ["stool", label][:parts]
    reasons = [mem.observation(i).reason for i in ids[1::2]]
    assert reasons == (["part"] * 3 if parts == 1 else ["created", "", ""])


@pytest.mark.parametrize("label, objects", [("bench", ["stool", "stool"]), ("mug", ["stool", "mug", "stool"])])
def test_a_part_of_a_stool_tracked_on_its_own_under_a_confused_label_is_joined_though_seen_together(
        mem, label, objects):
    # dev seeds 12, 248, 249 (no feature): a stool whose box had grown with a bled view held a "bench" of the
    # stool's own size; the two were reported in the same frames, so they were never joined, and the bench went
    # removed and back. Once "bench" is a known confusion of "stool", the bench inside the stool is a part of
    # it. A mug inside the stool's box stays a mug.
    stool, bled, other, half = (2.0, 0.0, 0.33), (0.4, 0.3, 0.33), (5.0, 0.0, 0.33), (0.18, 0.18, 0.33)
    for t in (0.0, 0.5, 1.0):  # reported together before any stool was called a bench: two objects
        mem.add([box_obs("stool", stool, bled, stamp=t), box_obs(label, stool, half, stamp=t),
                 box_obs("stool", other, half, stamp=t)])
    for t, lbl in ((303.0, "stool"), (303.5, "bench"), (304.0, "bench")):  # the other stool read "bench" now
        mem.add([box_obs(lbl, other, half, stamp=t)])                      # and then: a known confusion
    for t in (305.0, 305.5):
        mem.add([box_obs("stool", stool, bled, stamp=t), box_obs(label, stool, half, stamp=t)])
    mem.commit()
    assert [o.label for o in mem.objects() if o.state != "forgotten"] == objects


def test_a_stool_seat_reported_thick_and_its_legs_are_one_stool_from_the_first_frame(mem):
    # the seat 7 cm tall as reported (depth noise, the legs' tops in its mask): no slab by 6 cm, still flat
    seat, legs = ((2.0, 0.0, 0.655), (0.18, 0.18, 0.035)), ((2.0, 0.0, 0.31), (0.17, 0.28, 0.3))
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("stool", *legs, stamp=t), box_obs("stool", *seat, stamp=t)])
    mem.commit()
    (stool,) = mem.objects()
    assert (stool.state, stool.n_observations) == ("present", 3)
    assert stool.bbox_min == pytest.approx((1.82, -0.28, 0.01)) and stool.bbox_max == pytest.approx((2.18, 0.28, 0.69))


@pytest.mark.parametrize("legs_top, n_objects", [(0.55, 1), (0.47, 2)])
def test_a_seat_reported_a_few_cm_above_its_legs_top_is_one_stool_but_not_a_hand_span_above(mem, legs_top, n_objects):
    # held-out seed 234 (no feature): legs seen from 4 m came up to 0.52-0.55 m under a seat reported from
    # 0.61-0.62 m; joined only within 5 cm, the stool became four objects that flickered removed/reappeared
    seat, legs = ((2.0, 0.0, 0.635), (0.18, 0.18, 0.015)), ((2.0, 0.0, legs_top / 2), (0.17, 0.2, legs_top / 2))
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("stool", *legs, stamp=t), box_obs("stool", *seat, stamp=t)])
    mem.commit()
    assert [o.label for o in mem.objects()] == ["stool"] * n_objects


def test_a_look_alike_label_centred_in_a_grown_box_in_turns_with_it_is_the_same_object(mem):
    # seed 239 (no feature): a book's box had grown to 28 x 45 cm; a "laptop" of the book's own size, 2 cm from
    # its centre, read in turns with "book" (a persistent confusion of one view), became a twin that flickered
    book, grown, own = (2.0, 0.0, 0.8), (0.14, 0.225, 0.06), (0.07, 0.11, 0.02)
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("book", book, grown, stamp=t)])
    for t in (300.0, 300.5, 301.0):
        mem.add([box_obs("laptop", (2.02, 0.0, 0.8), own, stamp=t)])
    mem.add([box_obs("book", book, grown, stamp=301.5)])
    mem.add([box_obs("laptop", (2.02, 0.0, 0.8), own, stamp=302.0)])
    mem.commit()
    assert [(o.label, o.state) for o in mem.objects() if o.state != "forgotten"] == [("book", "present")]


def test_a_mug_standing_on_a_table_in_turns_with_it_stays_a_mug(mem):
    # centred 40 cm above the table's centre: not concentric, however the sightings interleave
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("table", (2.0, 0.0, 0.4), (0.6, 0.4, 0.4), stamp=t)])
    for t in (300.0, 300.5, 301.0):
        mem.add([box_obs("mug", (2.0, 0.0, 0.85), stamp=t)])
    mem.add([box_obs("table", (2.0, 0.0, 0.4), (0.6, 0.4, 0.4), stamp=301.5)])
    mem.add([box_obs("mug", (2.0, 0.0, 0.85), stamp=302.0)])
    mem.commit()
    assert [(o.label, o.state) for o in mem.objects()] == [("table", "present"), ("mug", "present")]


def test_two_plates_stacked_and_never_seen_as_one_stay_two(mem):
    plate, on_plate = ((1.0, 1.0, 0.51), (0.12, 0.12, 0.01)), ((1.0, 1.0, 0.53), (0.12, 0.12, 0.01))
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("plate", *plate, stamp=t), box_obs("plate", *on_plate, stamp=t)])
    mem.commit()
    assert [(o.state, o.n_observations) for o in mem.objects()] == [("present", 3), ("present", 3)]


def test_two_books_stacked_stay_two_and_a_jar_on_a_jar_too(mem):
    book, on_book = ((1.0, 1.0, 0.515), (0.1, 0.14, 0.015)), ((1.0, 1.0, 0.545), (0.1, 0.14, 0.015))
    jar, on_jar = ((2.0, 1.0, 0.56), (0.04, 0.04, 0.06)), ((2.0, 1.0, 0.68), (0.04, 0.04, 0.06))
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("book", *book, stamp=t), box_obs("book", *on_book, stamp=t),
                 box_obs("jar", *jar, stamp=t), box_obs("jar", *on_jar, stamp=t)])
    mem.commit()
    assert sorted((o.label, o.state, o.n_observations) for o in mem.objects()) == [
        ("book", "present", 3), ("book", "present", 3), ("jar", "present", 3), ("jar", "present", 3)]


def test_a_thin_object_at_a_grazing_angle_cannot_be_missed():
    """The perception drops what its eroded mask cannot hold; the absence test must not count it."""
    cfg = AbsenceConfig()
    phone_lo, phone_hi = np.array([[1.925, -0.04, 0.44]]), np.array([[2.075, 0.04, 0.46]])
    depth = np.full((60, 80), 3.0, np.float32)
    from core_helpers import look_at

    far_flat = CameraView(look_at((-2.0, 0.0, 0.5), (2.0, 0.0, 0.45)), 500.0, 500.0, 320.0, 240.0, 640, 480, 6.0,
                          depth, 0.0, 50)
    near_above = CameraView(look_at((1.2, 0.0, 1.2), (2.0, 0.0, 0.45)), 500.0, 500.0, 320.0, 240.0, 640, 480, 6.0,
                            depth, 0.0, 50)
    px_far = expected_mask_px(far_flat, phone_lo, phone_hi, cfg, 1.0)[0]
    px_near = expected_mask_px(near_above, phone_lo, phone_hi, cfg, 1.0)[0]
    # edge-on from 4 m: a sliver of a few pixels, under 2 x 50; from above at 1 m: thousands
    assert px_far < 2 * 50 < px_near


def small_view(stamp: float, target, depth: float) -> CameraView:
    """view() of a pipeline whose perception drops masks under 13 px (a 320x240 camera's scaled minimum)."""
    return dataclasses.replace(view(stamp, target, depth), min_object_pixels=13)


@pytest.mark.parametrize("distance, removed", [(3.25, True), (3.75, False)])
def test_keys_are_missed_where_their_mask_would_clear_the_floor_and_not_where_it_would_not(mem, distance, removed):
    # dev seed 1: keys (6 x 10 x 3 cm) reported with 14-25 px masks were expected at 15-23 px, under the old
    # 2 x 13 px, and their removal was never seen. At 3.25 m their expected mask is 25.6 px (>= the 20 px floor,
    # under 2 x 13), at 3.75 m 16.5 px (under the floor: the perception might not report them; no miss)
    keys, half = (distance, 0.0, 0.8), (0.03, 0.05, 0.015)
    d = distance_from_eye(keys)
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("keys", keys, half, stamp=t)], small_view(t, keys, d + 0.02))
    for t in (10.0, 10.5, 11.0, 12.5):
        mem.add([], small_view(t, keys, d + 1.0))
    mem.commit()
    (obj,) = mem.objects()
    assert (obj.state, kinds(mem)) == (("missing", [("appeared", 1), ("removed", 1)]) if removed
                                       else ("present", [("appeared", 1)]))


def test_what_changed_leaves_out_merges(mem):
    # a twin whose appearance was published is withdrawn with a 'merged' event, kept out of "what changed"
    with Memory.open(mem.path.replace("m.db", "p.db"), embedding_dim=4,
                     config={"identity": {"reconcile_window_s": 0.0}}) as m:
        for t in (0.0, 0.5, 1.0, 1.5):
            m.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
        for t in (100.0, 100.5, 101.0):  # a twin, confirmed and published at once (no reconcile window)
            m.add([box_obs("cup", OFF, stamp=t)], view(t, A, SEEN))
        m.commit()
        assert [e.kind for e in m.changes()] == ["appeared", "appeared"]
        m.add([box_obs("mug", A, stamp=101.5)], view(101.5, A, SEEN))  # within the removal's hold: it stays
        m.commit()
        assert [(e.kind, e.object_id) for e in m.changes()] == [("appeared", 1), ("merged", 2)]
        assert [e.kind for e in m.ask("what changed").events] == ["appeared"]


def _chair_seen_whole(m: Memory):
    """A 0.45 m chair at (2, 0, 0.45) seen whole in three frames (the view seeing just past it): (its centre, its
    half size, the depth of its place from the eye)."""
    chair, half = (2.0, 0.0, 0.45), (0.225, 0.225, 0.45)
    d = distance_from_eye(chair)
    for t in (0.0, 0.5, 1.0):
        m.add([box_obs("chair", chair, half, stamp=t)], view(t, chair, d + 0.1))
    return chair, half, d


def test_a_chair_pushed_aside_by_less_than_its_size_moved_while_a_partial_view_merges(mem, store):
    chair, half, d = _chair_seen_whole(mem)
    # the seat and legs only (the lower half, inside the fused box), the view seeing through the rest: a part
    mem.add([box_obs("chair", (2.0, 0.0, 0.25), (0.225, 0.225, 0.25), stamp=2.0)], view(2.0, chair, d + 2.0))
    mem.commit()
    assert [(o.state, o.n_moves, o.n_observations) for o in mem.objects()] == [("present", 0, 4)]
    # pushed 0.5 m (about its size) and seen there, the view seeing through its old place: a move
    pushed = (2.0, 0.5, 0.45)
    mem.add([box_obs("chair", pushed, half, stamp=600.0)], view(600.0, chair, d + 2.0))
    mem.commit()
    (obj,) = mem.objects()
    assert (obj.n_moves, obj.center) == (1, pytest.approx(pushed))
    assert [e.kind for e in mem.changes()] == ["appeared", "moved"]
    # without a view that sees through the old place: the chair was seen whole, so a chair half a metre off
    # is no part of it; another chair (held) until the old place is looked at
    with Memory.open(store("n"), embedding_dim=4) as m:
        _chair_seen_whole(m)
        m.add([box_obs("chair", pushed, half, stamp=600.0)], view(600.0, chair, d - 0.5))  # something in front
        m.commit()
        assert [(o.state, o.n_moves, o.n_observations) for o in m.objects()] == [("present", 0, 3),
                                                                               ("tentative", 0, 1)]


@pytest.mark.parametrize("phone_there", [True, False])
def test_a_look_alike_sighting_over_a_small_object_is_no_large_object_pushed_aside(mem, phone_there):
    # held-out seed 247 (no feature): a 0.36 m "tablet" (furniture-sized by extend_min_extent), and a phone
    # 0.45 m from it; ten minutes later a "tablet" sighting 4 cm above the phone's box while the view sees
    # through the tablet's place: the phone under a confused label, not the tablet pushed onto the phone
    tablet, d = (2.0, 0.0, 0.81), distance_from_eye((2.0, 0.0, 0.81))
    for t in (0.0, 0.5, 1.0):
        obs = [box_obs("tablet", tablet, (0.18, 0.125, 0.01), stamp=t)]
        if phone_there:
            obs.append(box_obs("phone", (2.0, 0.45, 0.81), (0.075, 0.04, 0.01), stamp=t))
        mem.add(obs, view(t, tablet, d + 0.05))
    # the sighting 0.2 m long: over half the tablet's size (a smaller one is no push at all, PUSH_MIN_VIEW_SHARE),
    # so that only the phone under it keeps it from moving the tablet
    mem.add([box_obs("tablet", (2.0, 0.45, 0.85), (0.1, 0.04, 0.01), stamp=600.0)], view(600.0, tablet, d + 2.0))
    mem.commit()
    moved = [e.object_id for e in mem.changes() if e.kind == "moved"]
    assert (mem.get(1).n_moves, moved) == ((0, []) if phone_there else (1, [1]))


def test_a_tentative_glimpse_of_its_label_does_not_hide_a_chair_pushed_aside(mem):
    # seed 241 (no feature): a sliver of the pushed chair, seen first, was a tentative "chair" of its own; the
    # chair then was one of two chairs, so the whole chair seen at its new place was never tested as pushed
    chair, half, d = _chair_seen_whole(mem)
    pushed = (2.0, 0.5, 0.45)
    # a 4 cm sliver of its far edge, something in front of the old place: no push, a tentative chair
    mem.add([box_obs("chair", (2.0, 0.705, 0.45), (0.225, 0.02, 0.45), stamp=600.0)], view(600.0, chair, d - 0.5))
    mem.add([box_obs("chair", pushed, half, stamp=600.5)], view(600.5, chair, d + 2.0))
    mem.commit()
    chair_row = mem.get(1)
    assert (chair_row.n_moves, chair_row.center) == (1, pytest.approx(pushed))
    assert [(e.kind, e.object_id) for e in mem.changes()] == [("appeared", 1), ("moved", 1)]


def test_views_of_a_pushed_chair_merged_into_its_old_place_do_not_hide_the_move(mem):
    # seed 248 (no feature): a chair pushed 0.42 m (less than its size) was found at its new place while its old
    # place was hidden; views of its backrest, standing in the overlap of the two boxes, merged into the old chair
    # after the new one was first seen, so the old chair's removal was no move (a missed move, a false removal)
    (chair, half, d), new = _chair_seen_whole(mem), (2.0, 0.42, 0.45)
    for t in (600.0, 600.5, 601.0, 601.5):  # something in front of the old place: no miss, no push
        mem.add([box_obs("chair", new, half, stamp=t)], view(t, chair, d - 0.5))
        mem.add([box_obs("chair", (2.0, 0.21, 0.7), (0.2, 0.012, 0.2), stamp=t + 0.2)], view(t + 0.2, chair, d - 0.5))
    mem.commit()
    # the chair at its new place took views in turns with the backrest's, never in one frame: held tentative
    # (identity.confirm_turns_m) until seen twice with no backrest view between, at 1200.5 s; the end is the same
    assert [(o.id, o.state, o.n_observations) for o in mem.objects()] == [(1, "present", 7), (2, "tentative", 4)]
    for t in (1200.0, 1200.5, 1201.0, 1201.5, 1203.0, 1205.0):  # the old place seen empty, the chair at its new one
        mem.add([box_obs("chair", new, half, stamp=t)],
                render_view(t, (0.0, 0.0, 1.0), chair, [((1.775, 0.195, 0.0), (2.225, 0.645, 0.9))]))
    mem.commit()
    (moved,) = [o for o in mem.objects() if o.state != "forgotten"]
    assert (moved.id, moved.n_moves, moved.center) == (1, 1, pytest.approx(new, abs=0.02))
    # the new chair's "appeared" had been published: withdrawn, a "merged" event says so
    assert [(e.kind, e.object_id, e.stamp) for e in mem.changes()] == [("appeared", 1, 0.0), ("moved", 1, 600.0),
                                                                      ("merged", 2, 1203.0)]


OLD_CHAIR = ((1.775, -0.225, 0.0), (2.225, 0.225, 0.9))
PUSHED_CHAIR = ((2.125, -0.225, 0.0), (2.575, 0.225, 0.9))  # pushed 0.35 m, less than its 0.45 m width


@pytest.mark.parametrize("pushed", [True, False])
def test_a_chair_pushed_less_than_its_width_and_read_stool_is_missed_where_the_view_sees_its_old_place(
        store, pushed):
    # the displaced rule alone: the partly-visible rule (absence.partly_visible_fraction) is off here; by default
    # 56 % of a chair in view is a reported mask, so the chair left standing is missed too (below)
    cfg = MemoryConfig.from_dict({"absence": {"partly_visible_fraction": 1.0}})
    with Memory.open(store("m"), embedding_dim=4, config=cfg) as mem:
        _chair_pushed_or_not(mem, pushed)


def test_a_chair_left_standing_half_in_view_and_never_reported_counts_misses(tmp_path):
    # the partly-visible rule's price: a detector that never reports a chair 56 % in view, thousands of pixels,
    # for 3 s was taken at its word. With absence.partial_look_furniture (on by default since stop 53) one such look
    # weighs half a unit (partial_looks.py) and the chair stays until another look (h490 498); off, it is removed
    with Memory.open(str(tmp_path / "m.db"), embedding_dim=4) as mem:
        _chair_pushed_or_not(mem, False, expect_default=True)
    with Memory.open(str(tmp_path / "off.db"), embedding_dim=4,
                     config={"absence": {"partial_look_furniture": False}}) as mem:
        _chair_pushed_or_not(mem, False, expect_default="off")


def _chair_pushed_or_not(mem, pushed, expect_default=False):
    for t in (0.0, 0.5, 1.0):
        mem.add([span_obs("chair", *OLD_CHAIR, stamp=t)], render_view(t, (0.0, 0.0, 1.0), (2.0, 0.0, 0.45),
                                                                      [OLD_CHAIR]))
    # later, a look that leaves the far half of the old box out of the image (too little of it in view for
    # an ordinary miss: the absence test's visible fraction is 0.56 here) and a "stool" where the chair now is
    world = [PUSHED_CHAIR] if pushed else [OLD_CHAIR, PUSHED_CHAIR]  # else: a stool beside the chair
    for t in (600.0, 600.5, 601.0, 601.5, 603.0):
        mem.add([span_obs("stool", *PUSHED_CHAIR, stamp=t)], render_view(t, (2.2, -2.0, 1.0), (3.2, 0.0, 0.45),
                                                                         world))
    mem.commit()
    chair = mem.get(1)
    misses = mem._conn.execute("SELECT COUNT(*) FROM misses WHERE object_id=1").fetchone()[0]
    if pushed:  # the view sees through the part of the old box the stool does not cover: the chair is gone
        assert (chair.state, misses) == ("missing", 4)
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1)]  # both stamped 600.0
        assert [e.stamp for e in mem.changes()] == [0.0, 600.0, 600.0]
    elif expect_default == "off":
        assert (chair.state, misses) == ("missing", 4)
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1)]
    elif expect_default:
        assert (chair.state, misses) == ("present", 5)   # every frame of the look a miss, none deciding
        assert kinds(mem) == [("appeared", 1), ("appeared", 2)]
    else:
        assert (chair.state, misses) == ("present", 0)
        assert kinds(mem) == [("appeared", 1), ("appeared", 2)]


@pytest.mark.parametrize("b_first_seen, moved", [(15.0, False), (500.0, True)])
def test_a_look_alike_found_early_in_a_long_absence_is_another_one_not_the_removed_one_moved(
        mem, b_first_seen, moved):
    # seed 243 (no feature): a wallet seen at 0-1 s, a second wallet first seen 7 m away at 19.6 s, the first
    # wallet's place seen empty only at 620 s: the first wallet was taken for moved in the 15 s between. A move
    # in the first tenth of the time the place went unseen is less likely than a removal any time in it.
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("wallet", A, stamp=t)], view(t, A, SEEN))
    for t in (b_first_seen, b_first_seen + 0.5, b_first_seen + 1.0):
        mem.add([box_obs("wallet", B, stamp=t)], view(t, B, DB + 0.04))
    for t in (620.0, 620.5, 621.0, 622.5):
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    if moved:
        assert kinds(mem) == [("appeared", 1), ("moved", 1), ("merged", 2)]  # B's published "appeared" withdrawn
    else:
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1)]


def removed_at_a(m: Memory, label: str = "mug") -> None:
    """A ``label`` seen at A (0-1 s), then A seen empty: removed."""
    for t in (0.0, 0.5, 1.0):
        m.add([box_obs(label, A, stamp=t)], view(t, A, SEEN))
    for t in (10.0, 10.5, 11.0, 12.5):
        m.add([], view(t, A, EMPTY))
    m.commit()


def test_one_glimpse_of_a_removed_objects_label_elsewhere_is_no_move(mem):
    removed_at_a(mem)
    mem.add([box_obs("mug", B, stamp=100.0)], view(100.0, B, DB + 0.04))
    mem.commit()
    assert [(o.id, o.state, o.n_moves) for o in mem.objects()] == [(1, "missing", 0), (2, "tentative", 0)]
    assert kinds(mem) == [("appeared", 1), ("removed", 1)]


def test_a_glimpse_of_its_label_while_the_removal_is_held_is_no_move(mem):
    # dev seed 1: a spurious "book" blob on a wall a second after the book's place was seen empty was taken for
    # the book moved there; the blob's place, seen empty later, then removed the book a second time
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (10.0, 10.5, 11.0):  # gone, held until 12.0
        mem.add([], view(t, A, EMPTY))
    mem.add([box_obs("mug", B, stamp=11.5)], view(11.5, B, DB + 0.04))  # one glimpse elsewhere in the hold
    mem.add([], view(12.5, A, EMPTY))
    mem.commit()
    assert [(o.id, o.state, o.n_moves) for o in mem.objects()] == [(1, "missing", 0), (2, "tentative", 0)]
    assert kinds(mem) == [("appeared", 1), ("removed", 1)]


def test_a_removed_object_confirmed_elsewhere_moved_there_stamped_at_its_first_sighting(mem):
    removed_at_a(mem)
    for t in (100.0, 100.5, 101.0):
        mem.add([box_obs("mug", B, stamp=t)], view(t, B, DB + 0.04))
    mem.commit()
    assert [(o.id, o.state, o.n_moves) for o in mem.objects()] == [(1, "present", 1), (2, "forgotten", 0)]
    assert kinds(mem) == [("appeared", 1), ("removed", 1), ("moved", 1)]
    moved = mem.changes()[2]
    assert moved.stamp == 100.0 and moved.after.center == pytest.approx(B)
    assert [h.stamp for h in mem.history(1)] == [0.0, 0.5, 1.0, 100.0, 100.5, 101.0]


def test_a_new_object_relabelled_to_a_removed_ones_label_is_that_one_moved(mem):
    removed_at_a(mem, "bowl")
    for t in (100.0, 100.5, 101.0):  # the new place's view calls it a basket first
        mem.add([box_obs("basket", B, stamp=t)], view(t, B, DB + 0.04))
    mem.commit()
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "bowl", "missing"), (2, "basket", "present")]
    for t in (110.0, 110.5, 111.0, 111.5, 112.0):
        mem.add([box_obs("bowl", B, stamp=t)], view(t, B, DB + 0.04))
    mem.commit()
    assert [(o.id, o.label, o.state, o.n_moves) for o in mem.objects()] == [(1, "bowl", "present", 1),
                                                                           (2, "bowl", "forgotten", 0)]
    # the basket's "appeared" had been published: withdrawn by a 'merged' event (left out of "what changed")
    assert kinds(mem) == [("appeared", 1), ("removed", 1), ("moved", 1), ("merged", 2)]
    moved, merged = mem.changes()[2:]
    assert moved.stamp == 100.0 and moved.after.center == pytest.approx(B)
    assert merged.stamp > 110.0 and merged.stamp <= 112.0
    assert [e.kind for e in mem.ask("what changed").events] == ["appeared", "removed", "moved"]


@pytest.mark.parametrize("book_share", [True, False])
def test_a_removed_object_showing_a_look_alike_label_is_found_by_its_label_mass(mem, book_share):
    # dev seed 247 (no feature): a book shown as "laptop" (book 12.1, laptop 10.4 of its mass) was taken from the
    # shelf's bottom board and found as "book" on its top board; by shown labels the move was a removal and a new
    # book. With a fifth of its mass "book" it is the book moved; with none, a laptop removed and a new book.
    readings = ["laptop", "laptop", "laptop", "book", "book"] if book_share else ["laptop"] * 5
    for i, label in enumerate(readings):
        mem.add([box_obs(label, A, stamp=0.5 * i)], view(0.5 * i, A, SEEN))
    for t in (10.0, 10.5, 11.0, 12.5):
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "laptop", "missing")]
    for t in (100.0, 100.5, 101.0, 105.0, 110.5):  # seen on past settling.LOOKALIKE_MOVE_WAIT_S: no "laptop"
        mem.add([box_obs("book", B, stamp=t)], view(t, B, DB + 0.04))    # turned up for it meanwhile
    mem.commit()
    if book_share:
        # found, it shows the label its mass now favours, with the relabelling on record
        assert [(o.id, o.label, o.state, o.n_moves) for o in mem.objects()] == [(1, "book", "present", 1),
                                                                               (2, "book", "forgotten", 0)]
        assert kinds(mem) == [("appeared", 1), ("removed", 1), ("moved", 1), ("relabelled", 1)]
        assert mem.changes()[2].stamp == 100.0
    else:
        assert [(o.id, o.state, o.n_moves) for o in mem.objects()] == [(1, "missing", 0), (2, "present", 0)]
        assert kinds(mem) == [("appeared", 1), ("removed", 1), ("appeared", 2)]


def removed_at(m: Memory, place, label: str, t0: float) -> None:
    """A ``label`` seen at ``place`` (t0 to t0 + 1 s), then the place seen empty: removed."""
    d = distance_from_eye(place)
    for t in (t0, t0 + 0.5, t0 + 1.0):
        m.add([box_obs(label, place, stamp=t)], view(t, place, d + 0.04))
    for t in (t0 + 10.0, t0 + 10.5, t0 + 11.0, t0 + 12.5):
        m.add([], view(t, place, d + 1.0))
    m.commit()


@pytest.mark.parametrize("mug_back", [False, True])
def test_a_look_alike_wait_keeps_its_removed_object_while_the_new_ones_readings_come_in(mem, mug_back):
    # seed 321 (no feature): a bowl removed at 602 s, a mug removed at 1492 s; the mug, moved while unseen, was
    # found at 1802 s read "bowl" (mug a third of its mass): the wait for the mug began; more "bowl" views of the
    # same side brought "mug" under a fifth of its mass, and the bowl removed 1200 s before took it at once: a false
    # "bowl moved", the mug left removed. The wait now decides for the mug unless the mug can no longer be it
    # (``mug_back``: the mug seen again at its place during the wait; then the bowl is the one that moved).
    removed_at(mem, C, "bowl", 0.0)
    removed_at(mem, A, "mug", 50.0)
    readings = [(100.0, "bowl"), (100.5, "mug"), (101.0, "bowl")] + [(101.5 + 0.5 * i, "bowl") for i in range(7)]
    for t, label in readings:  # mug 1 of 10 readings by 104.5 s, still inside the 10 s wait
        mem.add([box_obs(label, B, stamp=t)], view(t, B, DB + 0.04))
        if mug_back and t == 102.0:
            mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
        mem.commit()
    mem.add([box_obs("bowl", B, stamp=110.5)], view(110.5, B, DB + 0.04))  # past settling.LOOKALIKE_MOVE_WAIT_S
    mem.commit()
    if mug_back:
        assert [(o.id, o.label, o.state, o.n_moves) for o in mem.objects()] == [
            (1, "bowl", "present", 1), (2, "mug", "present", 0), (3, "bowl", "forgotten", 0)]
        assert [(e.kind, e.object_id, e.stamp) for e in mem.changes()][4:] == [("moved", 1, 100.0),
                                                                              ("reappeared", 2, 102.0)]
        return
    # before: [(1, "bowl", "present", 1), (2, "mug", "missing", 0), ...] and ("moved", 1) at 100.0
    assert [(o.id, o.state, o.n_moves) for o in mem.objects()] == [
        (1, "missing", 0), (2, "present", 1), (3, "forgotten", 0)]
    # the mug found shows the label its mass now favours (bowl 8.1, mug 3.6), with the relabelling on record
    assert kinds(mem) == [("appeared", 1), ("removed", 1), ("appeared", 2), ("removed", 2), ("moved", 2),
                          ("relabelled", 2)]
    moved = mem.changes()[4]
    assert moved.stamp == 100.0 and moved.after.center == pytest.approx(B)


def test_an_old_glimpse_of_the_removed_ones_label_does_not_hold_a_look_alike_wait(mem):
    # seed 321 (no feature): a "mug" glimpsed once across the room at 1487 s, never confirmed, held the wait of a
    # new object read "bowl" (mug 38 % of its mass) found at 1802 s to the end of the run. Only an unconfirmed one
    # seen in the wait (settling.LOOKALIKE_MOVE_WAIT_S) holds it, as the remote glimpsed 4 s after the phone was
    # found in seed 290 (test_a_look_alike_is_the_removed_object_moved_only_if_nothing_of_its_own_label_turns_up).
    removed_at(mem, A, "mug", 50.0)
    mem.add([box_obs("mug", C, stamp=70.0)], view(70.0, C, DC + 0.04))  # one glimpse, 30 s before
    mem.commit()
    for t, label in [(100.0, "bowl"), (100.5, "mug"), (101.0, "bowl"), (101.5, "bowl"), (102.0, "mug"),
                     (105.0, "bowl"), (110.5, "bowl")]:
        mem.add([box_obs(label, B, stamp=t)], view(t, B, DB + 0.04))
        mem.commit()
    # before: [(1, "missing", 0), (2, "tentative", 0), (3, "present", 0)] and no move until 220 s
    assert [(o.id, o.label, o.state, o.n_moves) for o in mem.objects()] == [
        (1, "mug", "present", 1), (2, "mug", "tentative", 0), (3, "bowl", "forgotten", 0)]
    assert kinds(mem) == [("appeared", 1), ("removed", 1), ("moved", 1)]
    assert mem.changes()[2].stamp == 100.0


def test_a_stool_seat_seen_alone_above_its_box_is_no_stool_pushed_aside(mem):
    # dev seed 236 (no feature): the seat of a stool seen alone from above, centred 0.33 m over the stool's box and
    # 8 cm beside it, while the view saw through the stool's legs; a 3-D shift took it for the stool pushed aside and
    # moved the stool in its first second. Pushed along the floor is sideways: the stool 0.55 m to the side is a push.
    stool, half = (2.0, 0.0, 0.33), (0.2, 0.2, 0.33)
    d = distance_from_eye(stool)
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("stool", stool, half, stamp=t)], view(t, stool, d + 0.1))
    mem.add([box_obs("stool", (2.08, 0.0, 0.70), (0.14, 0.16, 0.02), stamp=1.5)], view(1.5, stool, d + 2.0))
    mem.commit()
    assert [(o.state, o.n_moves) for o in mem.objects()] == [("present", 0)]
    assert kinds(mem) == [("appeared", 1)]
    mem.add([box_obs("stool", (2.0, 0.55, 0.33), half, stamp=600.0)], view(600.0, stool, d + 2.0))
    mem.commit()
    assert [(o.state, o.n_moves) for o in mem.objects()] == [("present", 1)]
    assert kinds(mem) == [("appeared", 1), ("moved", 1)]


def test_one_bled_sighting_does_not_inflate_keys_and_a_look_alike_there_is_no_twin(mem):
    # keys (8 x 8 x 4 cm) seen four times, then once with a mask bled onto the background (0.6 m wide, as the
    # generator's keys were once in 150 sightings), then seen as "toy" (a look-alike) from another side
    keys, half = (1.0, 1.0, 0.52), (0.04, 0.04, 0.02)
    for t in (0.0, 0.5, 1.0, 1.5):
        mem.add([box_obs("keys", keys, half, stamp=t)])
    mem.add([box_obs("keys", (1.2, 1.2, 0.52), (0.3, 0.3, 0.05), stamp=2.0)])
    mem.commit()
    (obj,) = [o for o in mem.objects() if o.state != "forgotten"]  # the bled sighting made a twin, joined
    size = np.subtract(obj.bbox_max, obj.bbox_min)
    # the mean of five boxes (one cut to 0.5 m by the growth bound): 0.16 m, where the union made it 0.5 m
    assert size.tolist() == pytest.approx([0.164, 0.164, 0.052], abs=1e-3)
    for t in (3.0, 3.5, 4.0, 4.5):
        mem.add([box_obs("toy", keys, half, stamp=t)])
    mem.commit()
    assert [(o.id, o.label, o.n_observations) for o in mem.objects() if o.state != "forgotten"] == [(1, "keys", 9)]


def test_a_table_seen_end_by_end_keeps_the_union_of_its_views(mem):
    # a 1.4 m table swept by a camera that sees 0.8 m of it at a time: a large object keeps the union of its
    # views (their mean would be 0.8 m long)
    for t, x in enumerate((0.7, 0.85, 1.0, 1.15, 1.3, 1.0)):
        mem.add([box_obs("table", (x, 0.0, 0.375), (0.4, 0.45, 0.375), stamp=0.5 * t)])
    mem.commit()
    (table,) = mem.objects()
    assert table.bbox_min == pytest.approx((0.3, -0.45, 0.0)) and table.bbox_max == pytest.approx((1.7, 0.45, 0.75))


def test_a_sliver_merged_after_the_look_alike_appeared_does_not_keep_them_two(mem):
    # the mug seen at A, then a mug at B; at 605 a 4 mm sliver at A merges into the first mug (a leg's edge at
    # the image border, for a chair): it is no view of the mug, so the mug at B is still "found after the
    # first was last seen" and A seen empty makes it a move, not a removal beside a second mug
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (600.0, 600.5, 601.0):
        mem.add([box_obs("mug", B, stamp=t)], view(t, B, DB + 0.04))
    mem.add([box_obs("mug", A, (0.002, 0.002, 0.005), stamp=605.0)])
    mem.commit()
    assert [(o.id, o.n_observations) for o in mem.objects()] == [(1, 4), (2, 3)]
    for t in (610.0, 610.5, 611.0, 612.5):
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    assert [(o.id, o.state, o.n_moves) for o in mem.objects()] == [(1, "present", 1), (2, "forgotten", 0)]
    # the mug at B stayed held (the first mug, unseen in a real view since before it appeared, may have moved
    # there): never published, so nothing is withdrawn
    assert kinds(mem) == [("appeared", 1), ("moved", 1)]


def test_a_real_view_after_the_look_alike_appeared_keeps_them_two(mem):
    # the same with a whole view of the mug at A at 605: two mugs, and A seen empty removes the first
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    for t in (600.0, 600.5, 601.0):
        mem.add([box_obs("mug", B, stamp=t)], view(t, B, DB + 0.04))
    mem.add([box_obs("mug", A, stamp=605.0)])
    for t in (610.0, 610.5, 611.0, 612.5):
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    assert [(o.id, o.state, o.n_moves) for o in mem.objects()] == [(1, "missing", 0), (2, "present", 0)]
    assert ("moved", 1) not in kinds(mem)


def half_hidden_views(min_object_pixels: int):
    """A mug at A behind a post that hides the half of it at y < 0.005 (4 of its 9 absence samples stay in view),
    seen at 0-6 s, then its place seen empty with the post still there, in two looks (one look of partial views alone
    is half the evidence a removal needs: partial_looks.py)."""
    mug_lo, mug_hi = np.subtract(A, (0.04, 0.04, 0.05)), np.add(A, (0.04, 0.04, 0.05))
    post = ((1.5, -0.2, 0.0), (1.52, 0.005, 1.6))
    eye = (0.0, 0.0, 1.0)
    seen = [(t, [box_obs("mug", A, stamp=t)], render_view(t, eye, A, [post, (mug_lo, mug_hi)]))
            for t in (0.0, 0.5, 1.0, 3.0, 6.0)]
    empty = [(t, [], render_view(t, eye, A, [post])) for t in (20.0, 20.5, 21.0, 22.5, 60.0, 60.5, 61.0, 62.5)]
    return [(t, obs, dataclasses.replace(v, min_object_pixels=min_object_pixels)) for t, obs, v in seen + empty]


@pytest.mark.parametrize("min_object_pixels, edge, removed", [(0, False, True), (50, False, False), (0, True, False)])
def test_a_half_hidden_object_is_missed_where_its_visible_part_alone_is_a_reported_mask(store, min_object_pixels,
                                                                                         edge, removed):
    # dev seed 15: a plant on the floor half behind chair legs (44-56 % of its samples visible, ~500 px of mask
    # expected of them) was never missed after it moved; with a 50-px perception minimum the visible half of a
    # mug at 2 m (~130 px) is under 3 x the 75 px detectable floor: no miss, as before. With
    # absence.hidden_near_edge on (off by default since stop 49), the mug's samples in view lie 3.75 px from the
    # post's edge, within the 12 px its pose and box may be off at 2 m: no miss either (that rule's price for a small
    # thing)
    reach = {"edge_pose_deg": 0.8, "edge_place_m": 0.02} if edge else {"edge_pose_deg": 0.0, "edge_place_m": 0.0}
    config = {"absence": reach}
    views = half_hidden_views(min_object_pixels)
    v = views[-1][2]
    lo, hi = np.subtract(A, (0.04, 0.04, 0.05))[None], np.add(A, (0.04, 0.04, 0.05))[None]
    acfg = dataclasses.replace(AbsenceConfig(), edge_pose_deg=0.8 if edge else 0.0, edge_place_m=0.02 if edge else 0.0)
    frac = visible_fractions(v, lo, hi, acfg)[0]
    assert frac == pytest.approx(0.0 if edge else 4 / 9)
    with Memory.open(store("m"), embedding_dim=4, config=config) as mem:
        for t, obs, view_ in views:
            mem.add(obs, view_)
        mem.commit()
        (obj,) = mem.objects()
        assert (obj.state, kinds(mem)) == (("missing", [("appeared", 1), ("removed", 1)]) if removed
                                           else ("present", [("appeared", 1)]))
        if removed:   # stamped at the second look, the one that decided it (partial_looks.py)
            assert [round(e.stamp, 1) for e in mem.changes() if e.kind == "removed"] == [60.0]


def test_a_removal_published_after_the_object_was_seen_elsewhere_is_retracted_by_its_move(mem):
    # dev seed 3: a plant moved at 948 s was seen at its new place from 1054.6 s (not yet confirmed there), its
    # old place's removal (stamped 1062.8 s) was published, and when the two were found one object (1204.9 s)
    # "what changed" still listed the removal beside the move
    for t in (0.0, 0.5, 1.0, 6.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    mem.add([box_obs("mug", B, stamp=100.0)], view(100.0, B, DB + 0.04))  # one sighting at B: tentative
    for t in (110.0, 110.5, 111.0, 112.5):
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    assert kinds(mem) == [("appeared", 1), ("removed", 1)]
    (removal_id,) = [r[0] for r in mem._conn.execute("SELECT id FROM events WHERE kind='removed'")]
    for t in (200.0, 200.5, 201.0):  # B confirmed: the mug, moved there before its old place was seen empty
        mem.add([box_obs("mug", B, stamp=t)], view(t, B, DB + 0.04))
    mem.commit()
    assert kinds(mem) == [("appeared", 1), ("moved", 1)]
    moved = mem.changes()[1]
    assert moved.stamp == 100.0
    assert [tuple(r) for r in mem._conn.execute("SELECT id, retracted FROM events WHERE kind='removed'")] == \
        [(removal_id, 1)]
    (detail,) = [r[0] for r in mem._conn.execute("SELECT detail FROM events WHERE kind='moved'")]
    assert json.loads(detail)["supersedes"] == [removal_id]
    (audit,) = [a for a in mem.audit() if a.action == "reconcile_move"]
    assert audit.detail["retracted_removals"] == [removal_id]


def test_a_move_that_retracts_a_later_removal_ends_the_old_placement_when_the_new_one_begins(mem):
    # the long run (laptop #179) and the case above: the mug seen at B from 100 s, its place A seen empty from
    # 110 s (removal, placement closed at 110), the two found one object at 200 s; the move's placement began at
    # 100 s while A's held until 110 s: two places at once, the mug listed twice by scene_as_of(105)
    for t in (0.0, 0.5, 1.0, 6.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    mem.add([box_obs("mug", B, stamp=100.0)], view(100.0, B, DB + 0.04))
    for t in (110.0, 110.5, 111.0, 112.5):
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    for t in (200.0, 200.5, 201.0):
        mem.add([box_obs("mug", B, stamp=t)], view(t, B, DB + 0.04))
    mem.commit()
    rows = [tuple(r) for r in mem._conn.execute(
        "SELECT t_from, t_last, t_to, current, opened_by, closed_reason FROM placements WHERE object_id=1 "
        "ORDER BY t_from, id")]
    assert rows == [(0.0, 6.0, 100.0, 0, "appeared", "moved"), (100.0, 201.0, None, 1, "moved", "")]
    assert mem.placement_overlaps() == []
    assert [(o.id, p.t_from) for o, p in mem.scene_as_of(105.0)] == [(1, 100.0)]
    # the amendment is audited with what it rewrote: placement 1 ended at 110 s, closed "removed", before the move
    (move,) = [a.detail for a in mem.audit() if a.action == "reconcile_move"]
    assert (move["from_placement"], move["retracted_removals"], move["amended_placement"]) == (
        1, [2], {"id": 1, "t_to_was": 110.0, "closed_reason_was": "removed", "t_to": 100.0})


def test_placement_overlaps_names_an_objects_two_placements_that_hold_at_once(mem):
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    mem.commit()
    assert mem.placement_overlaps() == []
    (pid,) = [r[0] for r in mem._conn.execute("SELECT id FROM placements")]
    mem._conn.execute("INSERT INTO placements (object_id, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, "
                      "region_id, t_from, t_last, t_to, current, opened_by) "
                      "VALUES (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5, 0.5, 0.8, 0, 'moved')")
    (other,) = [r[0] for r in mem._conn.execute("SELECT id FROM placements WHERE id != ?", (pid,))]
    assert mem.placement_overlaps() == [(1, pid, other)]


def test_a_joined_twin_widens_a_placement_back_no_further_than_the_end_of_the_one_before(mem):
    # seed 330 (default, main): a twin first seen 0.4 s before its chair's push was stamped, joined into the
    # pushed-to placement, widened it back over the old placement's end: two placements at once for 0.4 s
    from tempomem_ros.core.store.settling_rows import SettlingRows
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t)], view(t, A, SEEN))
    mem.commit()
    rows = SettlingRows(mem._store)
    rows.widen_placement(1, -5.0, 1.0)  # nothing before it: widened as asked
    mem._conn.execute("UPDATE placements SET t_to=10.0, current=0, closed_reason='moved' WHERE id=1")
    mem._conn.execute("INSERT INTO placements (object_id, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, "
                      "region_id, t_from, t_last, t_to, current, opened_by) "
                      "VALUES (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10.0, 10.0, NULL, 1, 'moved')")
    (pid,) = [r[0] for r in mem._conn.execute("SELECT id FROM placements WHERE current=1")]
    rows.widen_placement(pid, 9.6, 12.0)
    assert [tuple(r) for r in mem._conn.execute("SELECT id, t_from, t_last, t_to FROM placements ORDER BY id")] == \
        [(1, -5.0, 1.0, 10.0), (pid, 10.0, 12.0, None)]
    assert mem.placement_overlaps() == []


STOOL = ((1.8, -0.2, 0.0), (2.2, 0.2, 0.45))
BENCH = ((1.8, -0.12, 0.3), (2.0, 0.12, 0.45))  # a part of the stool read "bench", inside its box


@pytest.mark.parametrize("span, withdrawn", [(1.0, True), (8.0, False)])
def test_a_glimpse_under_another_label_inside_an_older_object_is_withdrawn_not_removed(mem, span, withdrawn):
    # dev seed 12: a "bench" read for 1.5 s inside a stool became an object, and was reported removed minutes
    # later when the stool was seen without it; seen over more than identity.glimpse_s it is removed as before
    eye, target = (0.0, 0.0, 1.0), (2.0, 0.0, 0.25)
    for t in (0.0, 0.5, 1.0, 6.0):
        mem.add([span_obs("stool", *STOOL, stamp=t)], render_view(t, eye, target, [STOOL]))
    for t in np.linspace(100.0, 100.0 + span, 4):
        mem.add([span_obs("stool", *STOOL, stamp=float(t)), span_obs("bench", *BENCH, stamp=float(t))],
                render_view(float(t), eye, target, [STOOL]))
    mem.commit()
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "stool", "present"), (2, "bench", "present")]
    for t in (300.0, 300.5, 301.0, 302.5):  # the stool seen, no bench reading
        mem.add([span_obs("stool", *STOOL, stamp=t)], render_view(t, eye, target, [STOOL]))
    mem.commit()
    if withdrawn:
        assert [(o.id, o.state) for o in mem.objects()] == [(1, "present"), (2, "forgotten")]
        assert kinds(mem) == [("appeared", 1), ("forgotten", 2)]
        assert [a.action for a in mem.audit()].count("dismiss_glimpse") == 1
        (tomb,) = mem._conn.execute("SELECT object_id, kind FROM tombstones").fetchall()
        assert tuple(tomb) == (2, "dismissed")
    else:
        assert [(o.id, o.state) for o in mem.objects()] == [(1, "present"), (2, "missing")]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 2)]


@pytest.mark.parametrize("case", ["pushed", "soon", "larger"])
def test_a_chairs_twin_found_pushed_aside_is_its_move_not_a_box_halfway(mem, case):
    # dev seeds 241, 243 (no feature): a chair pushed diagonally by less than its size, found at its new place
    # with its old place hidden, became a second chair, joined as a twin "never seen together", and the join
    # refolded both places into one box halfway between them: the move was never reported
    chair, half, d = _chair_seen_whole(mem)
    mem.commit()
    new = (2.2, 0.2, 0.45)
    # "soon": found 5 s after the chair's last view (identity.min_gap_s is 10 s): no push, a twin as before;
    # "larger": a box 0.7 m wide (a bled mask over the chair and beside it) is no chair pushed there; covering most
    # of the chair's box, it is the chair where it stands, merged in place (frame_fusion._bled_over), no twin
    t0 = 6.0 if case == "soon" else 600.0
    seen_half = (0.35, 0.35, 0.45) if case == "larger" else half
    for k in range(5):
        mem.add([box_obs("chair", new, seen_half, stamp=t0 + 0.5 * k)], view(t0 + 0.5 * k, chair, d - 0.5))
        mem.commit()
    moves = [a.detail for a in mem.audit() if a.action == "reconcile_move"]
    twins = [a.detail for a in mem.audit() if a.action == "merge_twin"]
    chair_row = mem.get(1)
    if case == "pushed":
        assert (chair_row.n_moves, chair_row.center) == (1, pytest.approx(new))
        assert [(e.kind, e.object_id, e.stamp) for e in mem.changes()] == [("appeared", 1, 0.0), ("moved", 1, 600.0)]
        assert moves == [{"first_miss": None, "from_placement": 1, "joined": 2, "kept": 1, "pushed": True,
                          "to_placement": 3}] and twins == []
    elif case == "larger":
        assert chair_row.n_moves == 0 and moves == [] and twins == []
        assert [e.kind for e in mem.changes()] == ["appeared"]
        assert [tuple(r) for r in mem._conn.execute(
            "SELECT verdict, reason, object_id FROM observations WHERE stamp >= 600 ORDER BY id")] == \
            [("merged", "bled", 1)] * 5
    else:
        assert chair_row.n_moves == 0 and moves == [] and twins == [{"kept": 1, "absorbed": 2}]
        assert [e.kind for e in mem.changes()] == ["appeared"]


@pytest.mark.parametrize("sliver", [True, False])
def test_a_sliver_beside_a_laptop_is_no_laptop_pushed_aside(mem, sliver):
    # dev seed 244 (no feature): a 2 x 11 x 16 cm sliver of a laptop's edge just outside its 0.37 m box, the view
    # seeing through the rest of the box, was taken for the laptop pushed aside: a move onto its own place
    laptop, half = (2.0, 0.0, 0.86), (0.185, 0.1, 0.125)
    d = distance_from_eye(laptop)
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("laptop", laptop, half, stamp=t)], view(t, laptop, d + 0.1))
    seen_at, seen_half = ((2.0, 0.16, 0.86), (0.01, 0.055, 0.08)) if sliver else ((2.0, 0.3, 0.86), half)
    mem.add([box_obs("laptop", seen_at, seen_half, stamp=600.0)], view(600.0, laptop, d + 2.0))
    mem.commit()
    assert mem.get(1).n_moves == (0 if sliver else 1)
    assert [e.kind for e in mem.changes() if e.object_id == 1] == (["appeared"] if sliver else ["appeared", "moved"])


@pytest.mark.parametrize("shift, moved", [(0.11, False), (0.25, True)])
def test_a_laptop_seen_a_hand_off_its_place_is_where_it_stands_not_moved(mem, shift, moved):
    # seeds 322 and 329 (default, offline): a laptop known edge-on (0.11 x 0.40 m), then a wider view of itself
    # 11 cm off its box's centre, the view seeing through the rest of the box, was taken for the laptop pushed
    # aside: "laptop moved" by 11 cm in every "what changed" window. Within frame_fusion.MIN_MOVE_SHIFT_M (0.15 m)
    # it is merged where it stands (no event, one placement); 0.25 m off it is still a move (the smallest true
    # move on seeds 320-329: 0.32 m)
    laptop = (2.0, 0.0, 0.86)
    d = distance_from_eye(laptop)
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("laptop", laptop, (0.055, 0.2, 0.14), stamp=t)], view(t, laptop, d + 0.1))
    mem.add([box_obs("laptop", (2.0 + shift, -0.03, 0.85), (0.1, 0.15, 0.11), stamp=600.0)],
            view(600.0, laptop, d + 2.0))
    mem.commit()
    assert [o.id for o in mem.objects() if o.state != "forgotten"] == [1]
    assert mem.get(1).n_moves == (1 if moved else 0)
    assert [e.kind for e in mem.changes()] == (["appeared", "moved"] if moved else ["appeared"])
    assert len(mem.placements(1)) == (2 if moved else 1)


@pytest.mark.parametrize("immediate", [False, True])
@pytest.mark.parametrize("label, half, place", [
    ("bottle", (0.04, 0.04, 0.12), (2.0, 0.0, 0.3)),    # off the table onto the floor: the same floor spot
    ("mug", (0.04, 0.04, 0.05), (2.0, 0.12, 0.8)),      # 12 cm aside, while it was missing
])
def test_a_missing_thing_seen_near_its_place_moved_there_not_merged_in_place(store, label, half, place, immediate):
    # review of stop 35: the in-place guard of _move (MIN_MOVE_SHIFT_M) measured the floor only and applied to a
    # missing object too: the bottle "reappeared" at z 0.68 (its box averaged with the floor view's) and a second
    # bottle appeared on the floor; the mug reappeared half-way, at y 0.06. A missing object's place was already
    # judged not this one, and a shift is measured in 3D: both are one object, moved, at the new place. With
    # holds off (core_helpers.IMMEDIATE) the sighting reaches _move directly; with the defaults, settling's.
    mem = Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE if immediate else None)
    a = (2.0, 0.0, 0.8)
    d = distance_from_eye(a)
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs(label, a, half, stamp=t)], view(t, a, d + 0.1))
    mem.commit()
    for i in range(12):   # its place seen empty
        mem.add([], view(100.0 + 0.5 * i, a, d + 2.0))
        mem.commit()
    assert mem.get(1).state == "missing"
    for i in range(3):
        mem.add([box_obs(label, place, half, stamp=600.0 + 0.5 * i)], view(600.0 + 0.5 * i, a, d + 2.0))
        mem.commit()
    assert [o.id for o in mem.objects() if o.state != "forgotten"] == [1]
    assert [e.kind for e in mem.changes()] == ["appeared", "removed", "moved"]
    assert mem.get(1).state == "present"
    assert np.allclose(mem.get(1).center, place, atol=0.02)
    mem.close()


@pytest.mark.parametrize("called_chair, objects", [(True, ["stool", "chair"]), (False, ["stool", "chair", "chair"])])
def test_a_seat_read_as_what_the_stool_itself_was_called_is_a_part_of_it(mem, called_chair, objects):
    # seed 296 (no feature): a stool's seat read "chair" for 21 views stayed a "chair" inside the stool and was
    # removed twice while the stool stood there. The stool itself had been called "chair" (6.0 of its mass), but
    # among all the memory's chairs and stools the pair was no known confusion (1.6 %). A stool never called
    # "chair" keeps a chair-labelled thing inside its box apart (this object's own evidence, nothing else).
    stool, whole, seat = (2.0, 0.0, 0.33), (0.2, 0.2, 0.33), ((2.0, 0.0, 0.64), (0.17, 0.17, 0.02))
    for k in range(60):  # a chair elsewhere and the stool, each seen whole 60 times: chairs and stools are
        t = 0.025 * k     # known to the memory apart, so one "chair" call of the stool is no known confusion
        mem.add([box_obs("stool", stool, whole, stamp=t), box_obs("chair", (5.0, 0.0, 0.45), (0.22, 0.22, 0.45),
                                                                  stamp=t)])
    for t in (2.0, 2.5):  # the whole stool read "chair" at its own place: label mass, not a twin
        mem.add([box_obs("chair" if called_chair else "stool", stool, whole, stamp=t)])
    for t in (3.0, 3.5, 4.0, 4.5):  # then its seat alone read "chair", reported with the stool
        mem.add([box_obs("stool", stool, whole, stamp=t), box_obs("chair", *seat, stamp=t)])
    mem.commit()
    shown = [o for o in mem.objects() if o.state != "forgotten"]
    assert [o.label for o in shown] == objects
    assert (shown[0].label_mass.get("chair", 0.0) > 0) == called_chair


@pytest.mark.parametrize("own_label_found", [True, False])
def test_a_look_alike_is_the_removed_object_moved_only_if_nothing_of_its_own_label_turns_up(mem, own_label_found):
    # seed 290 (no feature): a remote's place was seen empty as a new phone was found on the same table; the
    # phone was taken for the remote moved at once, and the remote, found across the room moments later, became
    # a second remote. Now a look-alike waits settling.LOOKALIKE_MOVE_WAIT_S (10 s) for one of the remote's own
    # label, and one still unconfirmed (a glimpse) keeps it waiting.
    for i, label in enumerate(["remote", "remote", "remote", "phone", "phone"]):
        mem.add([box_obs(label, A, stamp=0.5 * i)], view(0.5 * i, A, SEEN))
    for t in (10.0, 10.5, 11.0, 12.5):
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "remote", "missing")]
    for t in (100.0, 100.5, 101.0):  # a phone found elsewhere: the remote moved there?
        mem.add([box_obs("phone", B, stamp=t)], view(t, B, DB + 0.04))
    if own_label_found:
        mem.add([box_obs("remote", C, stamp=102.0)], view(102.0, C, DC + 0.04))  # a glimpse of a remote ...
    for t in (104.0, 108.0, 112.0):  # ... while the phone is seen on past the 10 s
        mem.add([box_obs("phone", B, stamp=t)], view(t, B, DB + 0.04))
    if own_label_found:
        for t in (115.0, 115.5, 116.0):  # ... confirmed 13 s after: it is the remote, moved
            mem.add([box_obs("remote", C, stamp=t)], view(t, C, DC + 0.04))
    mem.commit()
    shown = [(o.id, o.label, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten"]
    moved = [e for e in mem.changes() if e.kind == "moved"]
    if own_label_found:  # the phone is a phone; the remote moved to C, stamped at its first sighting there
        assert shown == [(1, "remote", "present", 1), (2, "phone", "present", 0)]
        assert kinds(mem) == [("appeared", 1), ("removed", 1), ("appeared", 2), ("moved", 1)]
        assert moved[0].stamp == 102.0 and moved[0].after.center == pytest.approx(C)
    else:  # nothing else turned up: the look-alike is the remote moved (now shown as what it is read as)
        assert shown == [(1, "phone", "present", 1)]
        assert kinds(mem) == [("appeared", 1), ("removed", 1), ("moved", 1), ("relabelled", 1)]
        assert moved[0].stamp == 100.0 and moved[0].after.center == pytest.approx(B)


def test_things_in_a_bookshelf_once_read_as_them_are_no_parts_of_it(mem):
    # the rule that joins a stool's seat read "chair" to the stool (the stool's own "chair" mass) takes only a part
    # spanning at least half the host's footprint: books standing in a bookshelf read "book" once stay books
    shelf, whole = (2.0, 0.0, 0.9), (0.4, 0.15, 0.9)
    for k in range(60):
        t = 0.025 * k
        mem.add([box_obs("bookshelf", shelf, whole, stamp=t), box_obs("book", (5.0, 0.0, 0.9), (0.1, 0.1, 0.12),
                                                                      stamp=t)])
    for t in (2.0, 2.5):  # the whole bookshelf read "book": label mass, not a twin
        mem.add([box_obs("book", shelf, whole, stamp=t)])
    for t in (3.0, 3.5, 4.0, 4.5):  # then a book in it (0.2 of its 0.8 m), reported with the bookshelf
        mem.add([box_obs("bookshelf", shelf, whole, stamp=t), box_obs("book", (1.8, 0.0, 0.6), (0.1, 0.1, 0.12),
                                                                          stamp=t)])
    mem.commit()
    shown = [o for o in mem.objects() if o.state != "forgotten"]
    assert [o.label for o in shown] == ["bookshelf", "book", "book"]
    assert shown[0].label_mass.get("book", 0.0) > 1.0  # it was called "book": only the size keeps the book apart


D = (0.0, -2.0, 0.8)
DD = distance_from_eye(D)


def _mug_seen(m: Memory, place, depth, times) -> None:
    for t in times:
        m.add([box_obs("mug", place, stamp=t)], view(t, place, depth + 0.04))


@pytest.fixture
def waiting(store):
    """A memory with the mover wait on (identity.mover_window_s 600 s; off by default, docs/MEMORY.md)."""
    with Memory.open(store("w"), embedding_dim=4, config={"identity": {"mover_window_s": 600.0}}) as m:
        yield m


@pytest.mark.parametrize("c_then", ["empty", "seen", "unlooked", "default"])
def test_a_new_object_waits_for_the_place_of_an_unseen_one_of_its_label_before_a_removed_one_takes_it(
        mem, waiting, c_then):
    # seeds 240 and 305 (no feature): a removed laptop (its place seen empty 15 minutes before) was taken at once
    # for a laptop found on a seat, though the other laptop, unseen since before, had moved there: its own place,
    # seen empty later, then removed it falsely. The removed one is taken only once the other's place is seen
    # with it (or not looked at within identity.mover_window_s); seen empty, it is the other one that moved. The
    # wait is off by default (0 s): the removed one takes the new one at once, whatever follows.
    if c_then != "default":
        mem = waiting
    _mug_seen(mem, A, DA, (0.0, 0.5, 1.0))
    _mug_seen(mem, C, DC, (0.2, 0.7, 1.2))
    for t in (10.0, 10.5, 11.0, 12.5):  # the mug at A taken away
        mem.add([], view(t, A, EMPTY))
    _mug_seen(mem, B, DB, (100.0, 100.5, 101.0, 110.0))  # a mug on B: A's come back, or C's moved?
    if c_then in ("empty", "default"):
        for t in (150.0, 150.5, 151.0, 152.5):
            mem.add([], view(t, C, DC + 1.0))
    elif c_then == "seen":
        _mug_seen(mem, C, DC, (150.0, 150.5))
    elif c_then == "unlooked":  # C not looked at: still undecided 300 s later (A's mug does not take B yet) ...
        mem.add([], view(400.0, D, DD + 1.0))
        mem.commit()
        assert [e.kind for e in mem.changes()] == ["appeared", "appeared", "removed"]
    mem.add([], view(710.0, D, DD + 1.0))  # ... and decided after identity.mover_window_s (600 s)
    mem.commit()
    shown = [(o.id, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten"]
    if c_then == "empty":  # C's mug moved to B; A's stays taken away
        assert shown == [(1, "missing", 0), (2, "present", 1)]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1), ("moved", 2)]
    elif c_then == "default":  # no wait: A's mug came back to B; C's place seen empty then removes C's
        assert shown == [(1, "present", 1), (2, "missing", 0)]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1), ("moved", 1), ("removed", 2)]
    else:  # C's mug is at C (or unknown): A's came back to B
        assert shown == [(1, "present", 1), (2, "present", 0)]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1), ("moved", 1)]
    (moved,) = [e for e in mem.changes() if e.kind == "moved"]
    assert moved.stamp == 100.0 and moved.after.center == pytest.approx(B)


@pytest.mark.parametrize("c_then", ["empty", "seen"])
def test_a_new_object_found_while_another_of_its_label_is_being_missed_waits_for_that_removal(mem, c_then):
    # seed 389 (no feature): a "cup" (a bottle read so) removed 900 s before took a cup found at its new place at
    # once, in the look whose frames were counting the cup's old place empty; that removal came due 6 s later: a
    # false "cup moved", a false removal, a missed move. The new one waits for the removal being counted: it takes
    # it (one move), or, when the place turns out held (a sighting clears the misses), the removed one takes it.
    _mug_seen(mem, A, DA, (0.0, 0.5, 1.0))
    _mug_seen(mem, C, DC, (0.2, 0.7, 1.2))
    for t in (10.0, 10.5, 11.0, 12.5):  # the mug at A taken away: removed
        mem.add([], view(t, A, EMPTY))
    mem.add([], view(99.0, C, DC + 1.0))  # C's place seen empty (its first miss) ...
    _mug_seen(mem, B, DB, (100.0, 100.5, 101.0))  # ... in the look that finds a mug on B (confirmed at 101 s)
    if c_then == "empty":
        for t in (101.5, 102.0, 104.0):
            mem.add([], view(t, C, DC + 1.0))
    else:
        _mug_seen(mem, C, DC, (101.5, 102.0))
    mem.add([], view(200.0, D, DD + 1.0))
    mem.commit()
    shown = [(o.id, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten"]
    if c_then == "empty":  # C's mug moved to B; A's stays taken away
        assert shown == [(1, "missing", 0), (2, "present", 1)]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1), ("moved", 2)]
    else:  # C's mug is at C: A's came back to B
        assert shown == [(1, "present", 1), (2, "present", 0)]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1), ("moved", 1)]
    (moved,) = [e for e in mem.changes() if e.kind == "moved"]
    assert moved.stamp == 100.0 and moved.after.center == pytest.approx(B)


def _seen_as(m: Memory, place, depth, labels, t0: float, step: float = 0.5) -> None:
    for i, label in enumerate(labels):
        t = t0 + step * i
        m.add([box_obs(label, place, stamp=t)], view(t, place, depth + 0.04))


@pytest.mark.parametrize("c_then", ["empty", "seen"])
def test_a_reading_in_one_look_does_not_give_a_new_thing_to_a_removed_look_alike_before_its_own_labels_place(
        mem, c_then):
    # seed 399 (no feature): a cup unseen since 1216 s had moved; found at 1730 s read "cup" in nearly every view,
    # its appearance held for the cup's place, it was taken at 1803 s by a mug removed at 1204 s, on the first
    # "mug" reading (one look): a false "mug moved", a missed cup move, and the cup's place seen empty 1.3 s later
    # a false removal. Now the unseen cup's place is asked first: seen empty, the cup moved; seen there, the mug.
    _seen_as(mem, A, DA, ["mug"] * 6 + ["cup"], 0.0)  # a mug (called "cup" once, 14 % of its mass) at A ...
    _seen_as(mem, C, DC, ["cup", "cup", "cup", "cup", "mug"], 0.2)  # ... a cup at C: cup / mug a known confusion
    for t in (10.0, 10.5, 11.0, 12.5):  # the mug at A taken away: removed
        mem.add([], view(t, A, EMPTY))
    _seen_as(mem, B, DB, ["cup"] * 6, 100.0, step=4.0)  # a "cup" on B (held: C's cup may have moved there) ...
    _seen_as(mem, B, DB, ["mug", "cup"], 130.0)  # ... read "mug" once, 30 s on
    mem.commit()
    assert [e.kind for e in mem.changes()] == ["appeared", "appeared", "removed"]  # neither joined yet
    if c_then == "empty":
        for t in (150.0, 150.5, 151.0, 152.5):
            mem.add([], view(t, C, DC + 1.0))
    else:
        _seen_as(mem, C, DC, ["cup", "cup"], 150.0)
    mem.add([], view(200.0, D, DD + 1.0))
    mem.commit()
    shown = [(o.id, o.label, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten"]
    if c_then == "empty":  # C's cup moved to B; A's mug stays taken away
        assert shown == [(1, "mug", "missing", 0), (2, "cup", "present", 1)]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1), ("moved", 2)]
    else:  # the cup is at C: the mug came back to B (its mass keeps it a mug), as before the rule
        assert shown == [(1, "mug", "present", 1), (2, "cup", "present", 0)]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 1), ("moved", 1)]
    (moved,) = [e for e in mem.changes() if e.kind == "moved"]
    assert moved.stamp == 100.0 and moved.after.center == pytest.approx(B)


@pytest.mark.parametrize("found_at", ["the_mugs_place", "a_free_place", "the_mugs_place_with_the_vases_feature",
                                      "the_place_of_a_thing_found_since"])
def test_a_look_alike_read_at_another_objects_very_place_is_no_removed_objects_move(mem, found_at):
    # seed 386 (no feature): a mug's place looked at 164 s after its last sighting was read "vase" (5 cm off its box,
    # no known confusion, not seen within 30 s): a new "vase" there, and a vase whose place was then seen empty took
    # it for its move: a false "vase moved" onto the mug, a missed move of the real vase. A thing at the very place
    # of an older object never reported with it is that object read otherwise; a vase found at a free place is the
    # vase moved, and so is one whose feature is the vase's, not the mug's (features tell them apart), and one at the
    # place of a thing first seen after the vase was last seen (seeds 385, 387: the moved thing itself, read "vase"
    # at its new place first, then by its label, was such a thing).
    feat = found_at.endswith("feature")
    mug_f, vase_f = ((1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0)) if feat else (None, None)
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("mug", A, stamp=t, feature=mug_f)], view(t, A, DA + 0.04))
    for t in (0.2, 0.7, 1.2):
        mem.add([box_obs("vase", C, stamp=t, feature=vase_f)], view(t, C, DC + 0.04))
    place, depth = (B, DB + 0.04) if found_at == "a_free_place" else (OFF, SEEN)
    if found_at == "the_place_of_a_thing_found_since":  # a "bowl" read on B, first seen after the vase's last sighting
        for t in (50.0, 50.5, 51.0):
            mem.add([box_obs("bowl", B, stamp=t)], view(t, B, DB + 0.04))
        place, depth = (B[0] + 0.05, B[1], B[2]), DB + 0.04
    for t in (100.0, 100.5, 101.0, 101.5):  # a "vase" read at the mug's place (5 cm off), or on B
        mem.add([box_obs("vase", place, stamp=t, feature=vase_f)], view(t, place, depth))
    for t in (111.0, 111.5, 112.0, 113.5):  # the vase's place seen empty
        mem.add([], view(t, C, DC + 1.0))
    mem.add([], view(200.0, D, DD + 1.0))
    mem.commit()
    moved = [(e.object_id, e.stamp) for e in mem.changes() if e.kind == "moved"]
    if found_at == "the_mugs_place":
        assert moved == []
        assert [(e.kind, e.object_id) for e in mem.changes() if e.object_id == 2] == [("appeared", 2), ("removed", 2)]
        assert [(o.id, o.label, o.state) for o in mem.objects() if o.id <= 2] == [(1, "mug", "present"),
                                                                                  (2, "vase", "missing")]
    else:
        assert moved == [(2, 100.0)]
        shown = [(o.id, o.label, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten"]
        assert shown[:2] == [(1, "mug", "present", 0), (2, "vase", "present", 1)]
        assert [o[1] for o in shown[2:]] == (["bowl"] if found_at == "the_place_of_a_thing_found_since" else [])


def test_a_removal_takes_a_new_object_no_removed_one_claims_before_one_a_removed_one_waits_on(waiting):
    mem = waiting
    # seed 302 (no feature): a pillow read "cushion" at its new place (601.6 s) and a second pillow moved
    # elsewhere (1202.2 s), whose removed look-alike waited on the first pillow's place (above); when that place
    # was seen empty, the first pillow took the later "pillow" (its own label) and left the "cushion" a false
    # appearance and the removed pillow a missed move. An object no removed one can be comes first.
    for i, label in enumerate(["pillow"] * 6 + ["cushion"] * 2):  # P at A, read "cushion" now and then
        mem.add([box_obs("pillow" if label == "pillow" else "cushion", A, stamp=0.25 * i)], view(0.25 * i, A, SEEN))
    for t in (0.1, 0.6, 1.1, 54.0, 55.0):  # X at C, seen until 55 s
        mem.add([box_obs("pillow", C, stamp=t)], view(t, C, DC + 0.04))
    for t in (50.0, 50.5, 51.0):  # a "cushion" at B: X was seen after it, so only P can be it
        mem.add([box_obs("cushion", B, stamp=t)], view(t, B, DB + 0.04))
    for t in (60.0, 60.5, 61.0, 62.5):  # X taken away
        mem.add([], view(t, C, DC + 1.0))
    for t in (100.0, 100.5, 101.0):  # a pillow at D: X come back (it waits on P's place)
        mem.add([box_obs("pillow", D, stamp=t)], view(t, D, DD + 0.04))
    for t in (110.0, 110.5, 111.0, 112.5):  # P's place seen empty
        mem.add([], view(t, A, EMPTY))
    mem.add([], view(710.0, (0.0, 3.0, 0.8), 5.0))  # a frame after identity.mover_window_s (600 s)
    mem.commit()
    shown = [(o.id, o.label, o.state, o.n_moves) for o in mem.objects() if o.state != "forgotten"]
    assert shown == [(1, "pillow", "present", 1), (2, "pillow", "present", 1)]
    moves = sorted((e.object_id, e.stamp) for e in mem.changes() if e.kind == "moved")
    assert moves == [(1, 50.0), (2, 100.0)]
    # the cushion's published appearance withdrawn, and a "merged" event says so
    assert [e.kind for e in mem.changes() if e.object_id == 3] == ["merged"]


@pytest.mark.parametrize("offset, objects", [(0.17, 1), (0.40, 2)])
def test_a_pillow_seen_in_turns_as_a_cushion_from_another_side_is_one_object_unless_beside_it(mem, offset, objects):
    # seed 305 (no feature): a pillow on the floor (a 0.35 x 0.15 m view) seen for 1 s as a "cushion" from another
    # side (0.08 x 0.38 m, 0.17 m off): boxes overlapping by half, alike in size, never in one frame, but too
    # different for same_place: a second object, a false "appeared". One 0.40 m off is another thing beside it.
    p, q = (2.0, 0.0, 0.07), (2.0 + offset * 0.6, offset * 0.8, 0.07)
    for t in (0.0, 0.5, 1.0, 1.5):
        mem.add([box_obs("pillow", p, (0.17, 0.07, 0.06), stamp=t)], view(t, p, distance_from_eye(p) + 0.04))
    for t in (2.0, 2.5, 3.0):
        mem.add([box_obs("cushion", q, (0.04, 0.19, 0.06), stamp=t)], view(t, q, distance_from_eye(q) + 0.04))
    mem.add([box_obs("pillow", p, (0.17, 0.07, 0.06), stamp=3.5)], view(3.5, p, distance_from_eye(p) + 0.04))
    mem.commit()
    shown = [(o.label, o.state) for o in mem.objects() if o.state != "forgotten"]
    assert shown == ([("pillow", "present")] if objects == 1 else [("pillow", "present"), ("cushion", "present")])


@pytest.mark.parametrize("face_z, objects", [(0.105, 1), (0.185, 2)])
def test_a_pillows_flat_face_read_as_a_blanket_in_turns_with_it_is_one_object(mem, face_z, objects):
    # seed 350 (no feature): a pillow on the floor (its box 0.36 x 0.40 x 0.18 m) seen from one side as a 3 cm slab
    # inside that box, read "blanket" for 3 views in 2.6 s, in turns with "pillow" and never with it in one frame:
    # boxes overlapping by half, alike on the floor, but 6 x thinner, so the size test kept a "blanket" in the map
    # where the pillow lay. A slab lying above the pillow's box (a blanket folded on top of it) is another thing.
    p = (2.0, 0.0, 0.07)
    q = (2.06, 0.075, face_z)
    for t in (0.0, 0.5, 1.0, 1.5):
        mem.add([box_obs("pillow", p, (0.18, 0.20, 0.09), stamp=t)], view(t, p, distance_from_eye(p) + 0.04))
    for t in (2.0, 2.5, 3.0):
        mem.add([box_obs("blanket", q, (0.17, 0.095, 0.015), stamp=t)], view(t, q, distance_from_eye(q) + 0.04))
    mem.add([box_obs("pillow", p, (0.18, 0.20, 0.09), stamp=3.5)], view(3.5, p, distance_from_eye(p) + 0.04))
    mem.commit()
    shown = [(o.label, o.state) for o in mem.objects() if o.state != "forgotten"]
    assert shown == ([("pillow", "present")] if objects == 1 else [("pillow", "present"), ("blanket", "present")])
    if objects == 1:
        assert [a.detail for a in mem.audit() if a.action == "merge_twin"] == [{"kept": 1, "absorbed": 2}]
        assert kinds(mem) == [("appeared", 1), ("merged", 2)]  # the blanket's "appeared" withdrawn


@pytest.mark.parametrize("together", [False, True])
def test_a_twin_that_took_an_objects_sightings_is_joined_when_its_removal_comes_due(mem, together):
    # seed 348 (no feature): a bottle's first views fell 8 cm beside it (a 4 cm deep box); the next views, 9 cm
    # off that box, scored under the merge threshold and became a second "bottle" that took every later view, in
    # turns with the first, never with it in one frame; the first object's box, off the bottle, counted misses and
    # was removed while the bottle stood there. ``together``: two bottles side by side, reported in one frame while
    # both were there, and the one beside A then taken away: its removal stands.
    off = (A[0], A[1] + 0.08, A[2])
    bottle = [((A[0] - 0.035, A[1] - 0.035, A[2] - 0.12), (A[0] + 0.035, A[1] + 0.035, A[2] + 0.12))]
    both = bottle + [((off[0] - 0.035, off[1] - 0.02, off[2] - 0.12), (off[0] + 0.035, off[1] + 0.02, off[2] + 0.12))]
    eye = (0.0, 0.0, 1.0)
    for k in range(8):
        t = 0.2 * k
        first = box_obs("bottle", off, (0.055, 0.02, 0.10), stamp=t)
        second = box_obs("bottle", A, (0.035, 0.035, 0.12), stamp=t)
        seen = [first, second] if together else [first if k % 2 == 0 else second]
        mem.add(seen, render_view(t, eye, A, both if together else bottle))
    for k in range(40):  # only the bottle at A from now on (misses count 3 s after the look that saw it)
        t = 1.6 + 0.2 * k
        mem.add([box_obs("bottle", A, (0.035, 0.035, 0.12), stamp=t)], render_view(t, eye, A, bottle))
    mem.commit()
    shown = [(o.id, o.label, o.state) for o in mem.objects() if o.state != "forgotten"]
    if together:
        assert shown == [(1, "bottle", "missing"), (2, "bottle", "present")]
        assert ("removed", 1) in kinds(mem)
    else:
        assert shown == [(1, "bottle", "present")]
        assert [a.detail for a in mem.audit() if a.action == "merge_twin"] == [{"kept": 1, "absorbed": 2}]
        assert [k for k in kinds(mem) if k[0] == "removed"] == []


def test_a_laptops_base_tracked_on_its_own_is_joined_to_the_laptop_when_seen_whole_not_removed(mem):
    # seed 307 (no feature): a laptop's base, reported beside the laptop for 36 s, became an object of its own
    # (its views stuck out of the laptop's fused box by 7 cm); seen whole again, the laptop held the base's place,
    # and the base was removed while the laptop stood there. Its removal now joins it to the laptop.
    whole, base = (0.12, 0.17, 0.12), (0.10, 0.06, 0.015)
    at = (A[0] - 0.09, A[1] + 0.10, A[2] - 0.10)  # 7 cm out of the laptop's box, towards the camera
    laptop = [(np.subtract(A, whole), np.add(A, whole))]
    both = laptop + [(np.subtract(at, base), np.add(at, base))]
    eye = (0.0, 0.0, 1.0)
    for t in (0.0, 0.5, 1.0, 1.5):
        mem.add([box_obs("laptop", A, whole, stamp=t)], render_view(t, eye, A, laptop))
    for t in (20.0, 20.5, 21.0, 30.0, 40.0):  # the laptop and its base, two instances in each frame
        mem.add([box_obs("laptop", A, whole, stamp=t), box_obs("laptop", at, base, stamp=t)],
                render_view(t, eye, A, both))
    mem.commit()
    assert [(o.id, o.state) for o in mem.objects()] == [(1, "present"), (2, "present")]
    for t in (100.0, 100.5, 101.0, 102.0, 103.0, 110.0):  # the laptop seen whole again, a minute later
        mem.add([box_obs("laptop", A, whole, stamp=t)], render_view(t, eye, A, laptop))
    mem.commit()
    assert [(o.id, o.state, o.n_observations) for o in mem.objects()] == [(1, "present", 20), (2, "forgotten", 5)]
    assert kinds(mem) == [("appeared", 1), ("merged", 2)]  # no "removed"; the base's appearance withdrawn


def test_a_book_on_a_closed_laptop_seen_in_turns_with_it_stays_a_book(mem):
    # review of session 33: the rule joining alike boxes seen in turns under two labels (a pillow read "cushion")
    # must not join a book lying on a closed laptop: 2-3 cm boxes 2.5 cm apart in height overlap by half only by
    # overlapping_halves' 5 cm floor; their heights do not overlap at all
    lap, book = (0.17, 0.12, 0.01), (0.12, 0.09, 0.015)
    on = (A[0], A[1], A[2] + 0.025)
    laptop = [(np.subtract(A, lap), np.add(A, lap))]
    both = laptop + [(np.subtract(on, book), np.add(on, book))]
    eye = (0.0, 0.0, 1.0)
    for t in (0.0, 0.5, 1.0, 1.5):
        mem.add([box_obs("laptop", A, lap, stamp=t)], render_view(t, eye, A, laptop))
    for k in range(8):
        t = 10.0 + 0.5 * k
        seen = box_obs("book", on, book, stamp=t) if k % 2 == 0 else box_obs("laptop", A, lap, stamp=t)
        mem.add([seen], render_view(t, eye, A, both))
    mem.commit()
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "laptop", "present"), (2, "book", "present")]
    assert kinds(mem) == [("appeared", 1), ("appeared", 2)]


def _book_views(m: Memory, times, seen_as, eye=(0.0, 0.0, 1.0)):
    """A book lying at A (a shelf 0.8 m up), rendered whole; each frame reports it as ``seen_as`` (lo, hi)."""
    book = [((A[0] - 0.11, A[1] - 0.10, A[2] - 0.06), (A[0] + 0.11, A[1] + 0.10, A[2] + 0.06))]
    for t in times:
        m.add([span_obs("book", *seen_as, stamp=t)], render_view(t, eye, A, book))


def test_a_flat_thing_seen_at_two_heights_is_one_object_not_one_removed_while_the_other_is_seen(mem):
    # seed 311 (no feature): a book lying on a high shelf, seen level with its edge, gave boxes of its front
    # (1.33-1.37 m); seen from afar, boxes of its top (1.43-1.44 m). Two objects of one label over one
    # footprint, 6 cm apart in height (stacked allows 5, overlapping_halves 5 between centres): each frame's
    # sighting went to one, and the other counted misses while the book lay there, removed four times.
    front = ((A[0] - 0.10, A[1] - 0.03, A[2] - 0.06), (A[0] + 0.10, A[1] + 0.08, A[2] - 0.02))
    top = ((A[0] - 0.13, A[1] - 0.10, A[2] + 0.04), (A[0] + 0.09, A[1] + 0.10, A[2] + 0.05))
    _book_views(mem, (0.0, 0.5, 1.0, 1.5), front)
    _book_views(mem, (100.0, 100.5, 101.0, 101.5), top)
    _book_views(mem, (200.0, 200.5, 201.0, 201.5, 202.0, 203.5), front)
    mem.commit()
    # each top view (scored too low against the front's box to merge) is joined as a twin in its frame
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "book", "present")] + [
        (i, "book", "forgotten") for i in (2, 3, 4, 5)]
    assert [a.detail for a in mem.audit() if a.action == "merge_twin"] == [{"kept": 1, "absorbed": i}
                                                                           for i in (2, 3, 4, 5)]
    assert kinds(mem) == [("appeared", 1)]  # no removal, no move (before: two objects, the book "moved" twice)


def test_two_books_stacked_seen_together_stay_two(mem):
    # the same two boxes reported in one frame are two things (a book on a book), never joined
    lower = ((A[0] - 0.10, A[1] - 0.10, A[2] - 0.06), (A[0] + 0.10, A[1] + 0.10, A[2] + 0.01))
    upper = ((A[0] - 0.12, A[1] - 0.09, A[2]), (A[0] + 0.09, A[1] + 0.10, A[2] + 0.06))
    book = [((A[0] - 0.12, A[1] - 0.10, A[2] - 0.06), (A[0] + 0.10, A[1] + 0.10, A[2] + 0.06))]
    for t in (0.0, 0.5, 1.0, 1.5, 100.0, 100.5):
        mem.add([span_obs("book", *lower, stamp=t), span_obs("book", *upper, stamp=t)],
                render_view(t, (0.0, 0.0, 1.0), A, book))
    mem.commit()
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "book", "present"), (2, "book", "present")]
    assert kinds(mem) == [("appeared", 1), ("appeared", 2)]


@pytest.mark.parametrize("upper, lower, one", [
    (((0.0, 0.0, 1.43), (0.22, 0.20, 1.44)), ((0.01, 0.06, 1.33), (0.21, 0.08, 1.37)), True),  # a book's top, front
    (((0.0, 0.0, 1.33), (0.19, 0.26, 1.71)), ((0.0, 0.0, 0.85), (0.18, 0.25, 1.24)), False),  # a plant a board down
    (((0.0, 0.0, 1.50), (0.22, 0.20, 1.52)), ((0.01, 0.06, 1.33), (0.21, 0.08, 1.37)), False),  # 13 cm apart
    (((0.30, 0.0, 1.43), (0.52, 0.20, 1.44)), ((0.01, 0.06, 1.33), (0.21, 0.08, 1.37)), False),  # side by side
])
def test_one_flat_thing_at_two_heights_but_not_a_tall_thing_moved_a_board_down(upper, lower, one):
    # seed 314 (no feature): a 38 cm plant moved from one shelf board to the one below (0.5 m) left boxes 10 cm
    # apart in height over one footprint; without the flatness test it was joined as a twin of its old self,
    # and its move became a removal and an appearance
    from tempomem_ros.core.association import one_footprint
    assert one_footprint(*upper, *lower, tol=0.02) is one
    assert one_footprint(*lower, *upper, tol=0.02) is one


def test_an_object_joined_by_a_move_earlier_in_the_same_frames_removals_is_not_handled_again(mem):
    """Removals due in one frame are read as one list; handling one may change another (review of stop 35). A mug
    seen at A, then at B 0.5 m off (a second object, never moved), then both places seen empty in the same frames:
    both removals fall due together; A's is taken for the mug moved to B (B joined into it, retired). Read from
    the list, B was then handled again: dismissed as a glimpse, a second "forgotten" for an object already joined
    (Settling._still_due)."""
    b = (A[0], A[1] + 0.5, A[2])
    for t in (0.0, 0.5, 1.0, 1.5):
        mem.add([box_obs("mug", A, stamp=t)], view(t, b, SEEN))
    for t in (100.0, 100.5, 101.0, 101.5, 102.0):   # at B, A out of view
        mem.add([box_obs("mug", b, stamp=t)], view(t, (A[0], A[1] + 1.5, A[2]), EMPTY))
    for t in (110.0, 110.5, 111.0, 111.5, 112.0, 113.0, 120.0):   # both places seen empty in one view
        mem.add([], view(t, (A[0], A[1] + 0.25, A[2]), EMPTY))
    mem.commit()
    assert [(o.id, o.state, o.n_moves) for o in mem.objects()] == [(1, "present", 1), (2, "forgotten", 0)]
    assert [(e.kind, e.object_id, e.stamp) for e in mem.changes()] == [("appeared", 1, 0.0), ("moved", 1, 100.0)]
    assert [a.action for a in mem.audit() if a.action not in ("create", "merge")] == ["reconcile_move"]


@pytest.mark.parametrize("reopen_at", [102.5, 104.5])
def test_a_look_alike_wait_keeps_its_removed_object_across_a_restart(store, reopen_at):
    # The wait of the test above, with the memory closed and opened again inside it (review of stop 36): the
    # choice was kept in the process only, so the reopened memory chose again from the label mass and the bowl
    # removed 50 s before the mug took the new object (the old false "bowl moved"). The held "appeared" row now
    # names the removed look-alike its wait runs for (held_events.lookalike_id, schema version 10).
    address = store("m")
    m = Memory.open(address, embedding_dim=4)
    removed_at(m, C, "bowl", 0.0)
    removed_at(m, A, "mug", 50.0)
    readings = [(100.0, "bowl"), (100.5, "mug"), (101.0, "bowl")] + [(101.5 + 0.5 * i, "bowl") for i in range(7)]
    for t, label in readings:
        if t == reopen_at:
            m.close()
            # what the store holds mid-wait: the new object's held "appeared" names the mug (before: no such column)
            assert store.raw(address, "SELECT object_id, lookalike_id FROM held_events WHERE status = 'held'") == [
                (3, 2)]
            m = Memory.open(address, embedding_dim=4)
        m.add([box_obs(label, B, stamp=t)], view(t, B, DB + 0.04))
        m.commit()
    m.add([box_obs("bowl", B, stamp=110.5)], view(110.5, B, DB + 0.04))  # past settling.LOOKALIKE_MOVE_WAIT_S
    m.commit()
    try:
        # before: [(1, "present", 1), (2, "missing", 0), ...] and ("moved", 1) at 100.0: the bowl taken for it
        assert [(o.id, o.state, o.n_moves) for o in m.objects()] == [
            (1, "missing", 0), (2, "present", 1), (3, "forgotten", 0)]
        assert kinds(m) == [("appeared", 1), ("removed", 1), ("appeared", 2), ("removed", 2), ("moved", 2),
                            ("relabelled", 2)]
        assert m.changes()[4].stamp == 100.0
    finally:
        m.close()


def seen_at(m: Memory, place, readings, t0: float, step: float = 0.5) -> None:
    """``readings`` (labels) of one thing at ``place``, ``step`` s apart from ``t0``, each committed."""
    d = distance_from_eye(place)
    for i, label in enumerate(readings):
        t = t0 + step * i
        m.add([box_obs(label, place, stamp=t)], view(t, place, d + 0.04))
        m.commit()


@pytest.mark.parametrize("called_so", ["both ways", "never at its new place"])
def test_a_removed_object_once_called_by_a_known_look_alike_label_is_found_under_it(mem, called_so):
    # seed 336 (no feature): a pillow (pillow 75.2, blanket 10.8 of its mass) taken away while unseen was found on
    # the floor read "blanket" from that side (pillow 0.9 of the new one's 6.6); pillow/blanket was a known
    # confusion of the memory, but neither share reached identity.label_share, so the pillow was never a candidate:
    # a removal and a new "blanket". Called by each other's label, under a fifth each way, of labels known to be
    # confused, the two are one object moved ("both ways"). Not when the new one was never called by the removed
    # one's label (seed 331: a wallet removed, a new "phone" never read "wallet": two objects). The pair is learned
    # here from a blanket at C, read "pillow" too.
    seen_at(mem, C, ["blanket", "pillow", "blanket", "pillow", "blanket"], 0.0)
    seen_at(mem, A, ["pillow"] * 9 + ["blanket", "blanket"], 20.0)  # blanket 2 of 11 readings: under a fifth
    for t in (40.0, 40.5, 41.0, 42.5):
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    assert mem._fusion.known_confusion("pillow", "blanket")
    assert [(o.id, o.label, o.state) for o in mem.objects()] == [(1, "blanket", "present"), (2, "pillow", "missing")]
    # found 60 s later at B, read "blanket" five times, then "pillow" once (1 of 6: under a fifth), past
    # settling.LOOKALIKE_MOVE_WAIT_S with no "pillow" object turning up; its appearance is held while the blanket at
    # C, unseen since, may have moved there (Settling._may_have_moved_here), until C is seen in place
    pillow = "blanket" if called_so == "never at its new place" else "pillow"
    seen_at(mem, B, ["blanket"] * 5 + [pillow], 100.0, step=2.2)
    seen_at(mem, C, ["blanket"] * 3, 111.5)
    seen_at(mem, B, ["blanket"], 113.0)
    if called_so == "both ways":
        # before: [(1, present), (2, missing, 0), (3, "blanket", present, 0)], a removal and an appearance
        assert [(o.id, o.label, o.state, o.n_moves) for o in mem.objects()] == [
            (1, "blanket", "present", 0), (2, "pillow", "present", 1), (3, "blanket", "forgotten", 0)]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 2), ("moved", 2)]
        moved = mem.changes()[3]
        assert moved.stamp == 100.0 and moved.after.center == pytest.approx(B)
    else:
        assert [(o.id, o.label, o.state, o.n_moves) for o in mem.objects()] == [
            (1, "blanket", "present", 0), (2, "pillow", "missing", 0), (3, "blanket", "present", 0)]
        assert kinds(mem) == [("appeared", 1), ("appeared", 2), ("removed", 2), ("appeared", 3)]


@pytest.mark.parametrize("together", [False, True])
def test_a_view_beside_a_wallet_read_as_a_removed_phone_is_the_wallet_not_the_phone_moved(mem, together):
    # seed 328 (no feature): a wallet seen in 86 of 88 views in 22 s; one view read "phone" (8 x 5 x 1 cm, 6 cm
    # off the wallet's box) scored under the merge threshold and became a new object; two later views of the
    # wallet, in frames where the wallet took no other, went to it (its very place, seen within 30 s), made it
    # "wallet" and confirmed it 15 s after its first view, past the look-alike wait; a phone removed 900 s before
    # took it for its move (a false "phone moved", a phone in the map). ``together``: a real phone laid beside
    # the wallet, reported in the same frames as it: the removed phone found there, moved.
    removed_at_a(mem, "phone")
    wallet, thin = (0.06, 0.05, 0.015), (0.04, 0.025, 0.005)
    beside = (B[0], B[1] + 0.07, B[2])
    depth = DB + 0.04
    for t in (100.0, 100.5, 101.0):
        mem.add([box_obs("wallet", B, wallet, stamp=t)], view(t, B, depth))
    for t, label in ((101.5, "phone"), (120.0, "wallet" if not together else "phone"),
                     (120.5, "wallet" if not together else "phone")):
        seen = [box_obs(label, beside, thin, stamp=t)]
        mem.add(seen + [box_obs("wallet", B, wallet, stamp=t)] if together else seen, view(t, B, depth))
        mem.add([box_obs("wallet", B, wallet, stamp=t + 0.2)], view(t + 0.2, B, depth))
    for t in (121.0, 121.5, 122.0):
        mem.add([box_obs("wallet", B, wallet, stamp=t)], view(t, B, depth))
    mem.commit()
    shown = [(o.id, o.label, o.state, o.n_moves) for o in mem.objects()]
    if together:
        assert shown == [(1, "phone", "present", 1), (2, "wallet", "present", 0), (3, "phone", "forgotten", 0)]
        assert kinds(mem) == [("appeared", 1), ("removed", 1), ("appeared", 2), ("moved", 1)]
    else:
        assert shown == [(1, "phone", "missing", 0), (2, "wallet", "present", 0), (3, "wallet", "forgotten", 0)]
        # no move; the twin's published relabelling withdrawn by a "merged" event
        assert kinds(mem) == [("appeared", 1), ("removed", 1), ("appeared", 2), ("merged", 3)]
        assert [a.detail for a in mem.audit() if a.action == "merge_twin"] == [{"kept": 2, "absorbed": 3}]
        assert [h.stamp for h in mem.history(2)] == pytest.approx(  # the twin's three views are the wallet's
            [100.0, 100.5, 101.0, 101.5, 101.7, 120.0, 120.2, 120.5, 120.7, 121.0, 121.5, 122.0])


@pytest.mark.parametrize("called", [False, True])
def test_a_due_removal_takes_a_look_alike_for_its_move_only_if_one_was_called_by_the_others_label(mem, called):
    # seed 341 (no feature): a cup's place seen empty; a vase found 320 s before elsewhere (25 views, none "cup";
    # the cup never called "vase"), cup and vase a known confusion of the memory through other objects, was taken
    # for the cup moved there and relabelled "vase": a false "vase moved", the vase's appearance withdrawn.
    # ``called``: one of the new one's views read "cup": the cup moved, as before.
    c = (1.0, 1.0, 0.8)
    dc = distance_from_eye(c)
    for k, t in enumerate((0.0, 0.5, 1.0, 1.5, 2.0, 2.5)):  # a vase elsewhere, read "cup" in two views of six
        mem.add([box_obs("cup" if k in (1, 3) else "vase", c, stamp=t)], view(t, c, dc + 0.04))
    for t in (3.0, 3.5, 4.0):  # the cup at A
        mem.add([box_obs("cup", A, stamp=t)], view(t, A, SEEN))
    for k, t in enumerate((100.0, 100.5, 101.0, 101.5)):  # a vase at B
        label = "cup" if called and k == 2 else "vase"
        mem.add([box_obs(label, B, stamp=t)], view(t, B, DB + 0.04))
    mem.commit()
    assert mem._fusion.known_confusion("cup", "vase")
    for t in (200.0, 200.5, 201.0, 202.5):  # the cup's place seen empty
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    shown = [(o.id, o.label, o.state, o.n_moves) for o in mem.objects()]
    if called:
        assert shown == [(1, "vase", "present", 0), (2, "cup", "present", 1), (3, "vase", "forgotten", 0)]
        assert [k for k in kinds(mem) if k[0] in ("moved", "removed")] == [("moved", 2)]
    else:
        assert shown == [(1, "vase", "present", 0), (2, "cup", "missing", 0), (3, "vase", "present", 0)]
        assert [k for k in kinds(mem) if k[0] in ("moved", "removed")] == [("removed", 2)]


TALL, SHORT = (0.04, 0.04, 0.14), (0.04, 0.04, 0.04)  # a bottle 28 cm tall, a cup 8 cm tall


@pytest.mark.parametrize("found", ["short", "tall"])
def test_a_removed_tall_thing_read_cup_takes_no_short_cup_found_later_for_its_move(mem, found):
    # seed 365 (no feature): a bottle read "cup" in nearly all its sightings (cup 123.5, bottle 3.9), 0.28 m tall,
    # taken away; a cup 0.08 m tall found 0.3 m away was taken for it moved: a false "cup moved", a missed "cup
    # appeared" (seeds 377 and 326 alike). A thing moved stands as tall as before (settling.alike_in_height).
    # ``tall``: a thing as tall found there is it moved, as before.
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("cup", A, TALL, stamp=t)], view(t, A, SEEN))
    for t in (10.0, 10.5, 11.0, 12.5):
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    half = SHORT if found == "short" else (0.04, 0.04, 0.13)
    for t in (100.0, 100.5, 101.0):
        mem.add([box_obs("cup", B, half, stamp=t)], view(t, B, DB + 0.04))
    mem.commit()
    shown = [(o.id, o.state, o.n_moves) for o in mem.objects()]
    if found == "short":  # before: [(1, "present", 1), (2, "forgotten", 0)], a move
        assert shown == [(1, "missing", 0), (2, "present", 0)]
        assert kinds(mem) == [("appeared", 1), ("removed", 1), ("appeared", 2)]
    else:
        assert shown == [(1, "present", 1), (2, "forgotten", 0)]
        assert kinds(mem) == [("appeared", 1), ("removed", 1), ("moved", 1)]


@pytest.mark.parametrize("found", ["short", "tall"])
def test_a_due_removal_of_a_tall_thing_takes_no_short_look_alike_seen_before_for_its_move(mem, found):
    # the other order (seed 377's bottle, seed 365's): the cup at B is seen first while A is out of view, then
    # A is seen empty: the due removal looks for a look-alike first seen since (Settling._moved_here).
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("cup", A, TALL, stamp=t)], view(t, A, SEEN))
    half = SHORT if found == "short" else (0.04, 0.04, 0.13)
    for t in (100.0, 100.5, 101.0, 101.5):
        mem.add([box_obs("cup", B, half, stamp=t)], view(t, B, DB + 0.04))
    for t in (110.0, 110.5, 111.0, 112.5):
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    shown = [(o.id, o.state, o.n_moves) for o in mem.objects()]
    if found == "short":
        assert shown == [(1, "missing", 0), (2, "present", 0)]
        assert [k for k in kinds(mem) if k[0] in ("moved", "removed")] == [("removed", 1)]
    else:
        assert shown == [(1, "present", 1), (2, "forgotten", 0)]
        assert [k for k in kinds(mem) if k[0] in ("moved", "removed")] == [("moved", 1)]


TOP_ONLY, WHOLE_PLANT = (0.06, 0.06, 0.07), (0.06, 0.06, 0.18)  # a plant's top 0.14 m tall, the plant 0.36 m


@pytest.mark.parametrize("known", ["top", "whole"])
def test_a_removed_things_known_box_is_a_lower_bound_of_its_height(mem, known):
    # seed 373 (stop 40): a plant moved to the floor was kept as its top only (0.135 m of its 0.35 m, its bottom
    # hidden); put back on a counter and seen whole at 0.41 m, a symmetric height rule made it a removal and an
    # appearance. A known box bounds its thing's height from below (settling.alike_in_height): a new box taller
    # than the removed one's can be it moved (``top``: a move, before refused); one much shorter cannot (``whole``:
    # the plant known whole, a thing of its top's height found: two things, before taken for its move on main).
    before, found = (TOP_ONLY, WHOLE_PLANT) if known == "top" else (WHOLE_PLANT, TOP_ONLY)
    for t in (0.0, 0.5, 1.0):
        mem.add([box_obs("plant", A, before, stamp=t)], view(t, A, SEEN))
    for t in (10.0, 10.5, 11.0, 12.5):
        mem.add([], view(t, A, EMPTY))
    mem.commit()
    for t in (100.0, 100.5, 101.0):
        mem.add([box_obs("plant", B, found, stamp=t)], view(t, B, DB + 0.04))
    mem.commit()
    shown = [(o.id, o.state, o.n_moves) for o in mem.objects()]
    if known == "top":  # the symmetric rule: [(1, "missing", 0), (2, "present", 0)], a removal and an appearance
        assert shown == [(1, "present", 1), (2, "forgotten", 0)]
        assert kinds(mem) == [("appeared", 1), ("removed", 1), ("moved", 1)]
    else:  # main: [(1, "present", 1), (2, "forgotten", 0)], a false "moved"
        assert shown == [(1, "missing", 0), (2, "present", 0)]
        assert kinds(mem) == [("appeared", 1), ("removed", 1), ("appeared", 2)]


TOP_VIEW = (0.06, 0.06, 0.04)  # 8 cm of the plant's top (its top at the whole plant's, its bottom unseen)


@pytest.mark.parametrize("found_z, on, moved", [
    (0.94, True, True),     # its top at the removed plant's top: the plant's top seen, it moved
    (0.94, False, False),   # the rule off: as main, a removal and an appearance
    (0.80, True, False),    # as short, its top 0.14 m below the plant's: another thing
])
def test_a_new_box_topped_at_a_removed_things_top_is_its_top_seen(store, found_z, on, moved):
    # seed 418 (h410, no feature): a backpack 0.43 m tall moved while unseen was found from afar, its first views
    # its top (1 cm, then 0.1 m tall); its old place seen empty 8 s later did not take it for its move (much
    # shorter: settling.alike_in_height): a false "removed", a false "appeared", a missed move
    # (settling.top_seen_alike). A short thing whose top stands lower is still another thing.
    with Memory.open(store("m"), embedding_dim=4, config={"identity": {"top_view_move": on}}) as mem:
        for t in (0.0, 0.5, 1.0):
            mem.add([box_obs("plant", A, WHOLE_PLANT, stamp=t)], view(t, A, SEEN))
        for t in (10.0, 10.5, 11.0, 12.5):
            mem.add([], view(t, A, EMPTY))
        mem.commit()
        for t in (100.0, 100.5, 101.0):
            mem.add([box_obs("plant", (B[0], B[1], found_z), TOP_VIEW, stamp=t)], view(t, B, DB + 0.04))
        mem.commit()
        shown = [(o.id, o.state, o.n_moves) for o in mem.objects()]
        if moved:
            assert shown == [(1, "present", 1), (2, "forgotten", 0)]
            assert kinds(mem) == [("appeared", 1), ("removed", 1), ("moved", 1)]
        else:
            assert shown == [(1, "missing", 0), (2, "present", 0)]
            assert kinds(mem) == [("appeared", 1), ("removed", 1), ("appeared", 2)]


def test_top_seen_alike_asks_the_top_within_the_height_slack_and_the_bottom_above_it():
    from types import SimpleNamespace

    from tempomem_ros.core.settling import top_seen_alike
    removed = SimpleNamespace(min_z=0.0, max_z=0.43)
    box = [(0.33, 0.43), (0.33, 0.34), (0.33, 0.52), (0.33, 0.54), (0.05, 0.43), (0.11, 0.43)]
    assert [top_seen_alike(removed, SimpleNamespace(min_z=lo, max_z=hi)) for lo, hi in box] == \
        [True, True, True, False, False, True]
