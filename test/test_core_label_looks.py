"""fusion.label_look_cap: one look (a visit of the object x the view sector the camera sees it from) adds at most
the cap to a label's mass, so a segmenter's confusion that persists through one look is one look's evidence
(docs/MEMORY.md, "The shown label"; held-out 490's backpack shown as "suitcase", 497's pillow as "cushion")."""
from __future__ import annotations

import copy

import pytest
from core_helpers import IMMEDIATE, box_obs, view

from tempomem_ros.core import Memory

AT = (2.0, 1.0, 0.5)
GAP = 600.0  # between visits, as the scenes' visits (any gap over fusion.label_look_gap_s)


def open_mem(store, cap: float, name: str = "m") -> Memory:
    cfg = copy.deepcopy(IMMEDIATE)
    cfg["fusion"] = {"label_look_cap": cap}
    cfg["retention"] = {"mode": "keep-all"}  # every sighting kept: their confidences are checked
    return Memory.open(store(name), embedding_dim=4, clock=lambda: 1e6, config=cfg)


def look(mem, t0: float, labels, conf: float = 0.8, eye=(0.0, 0.0, 1.0)) -> float:
    """One look: a sighting of the thing at AT every 0.1 s under each label in turn, from ``eye``."""
    t = t0
    for label in labels:
        mem.add([box_obs(label, AT, stamp=t, conf=conf)], view(t, AT, 2.5, eye=eye))
        t += 0.1
    mem.commit()
    return t


def only(mem):
    (obj,) = [o for o in mem.objects() if o.state in ("present", "tentative")]
    return obj


@pytest.mark.parametrize("cap", [5.0, 0.0])
def test_a_confusion_persisting_through_one_look_does_not_outweigh_a_label_seen_in_three(store, cap):
    # a backpack read "backpack" in three visits (10 sightings each), then "suitcase" in every frame of a fourth
    # visit (60 sightings, after two read right): 490's backpack
    with open_mem(store, cap) as mem:
        for k in range(3):
            look(mem, k * GAP, ["backpack"] * 10)
        look(mem, 3 * GAP, ["backpack"] * 2 + ["suitcase"] * 60)
        obj = only(mem)
        raw = {"backpack": 32 * 0.8, "suitcase": 60 * 0.8}
        if cap:
            # capped: backpack 5 + 5 + 5 + 1.6, suitcase 5: still a backpack, no relabel
            assert obj.label == "backpack"
            assert mem._fusion.shown_label_mass(obj.id) == pytest.approx({"backpack": 16.6, "suitcase": 5.0})
            assert mem._conn.execute("SELECT COUNT(*) FROM label_history").fetchone()[0] == 0
        else:  # uncapped (before): 48 against 25.6 relabels it
            assert obj.label == "suitcase"
        # the stored mass stays every sighting's confidence (what the known confusions and label shares read),
        # as the sightings keep the confidences they were reported with
        assert obj.label_mass == pytest.approx(raw)
        sums = dict(mem._conn.execute("SELECT label, SUM(confidence) FROM observations GROUP BY label").fetchall())
        assert sums == pytest.approx(raw)


@pytest.mark.parametrize("cap", [5.0, 0.0])
def test_a_first_label_from_one_confused_look_gives_way_to_the_label_of_the_others(store, cap):
    # a pillow first read "cushion" through a whole visit (40 sightings), then "pillow" in three visits of 12:
    # 497's pillow
    with open_mem(store, cap) as mem:
        look(mem, 0.0, ["cushion"] * 40)
        for k in range(1, 4):
            look(mem, k * GAP, ["pillow"] * 12)
        # capped: pillow 15 against cushion 5; uncapped: 28.8 against 32, below the margin (stays "cushion")
        assert only(mem).label == ("pillow" if cap else "cushion")


def test_a_label_that_dominates_one_look_is_not_flipped_by_stray_reads_in_other_looks(store):
    # a mug seen long in one visit, then in four short visits read "mug" with a stray "cup" (low confidence) each
    with open_mem(store, 5.0) as mem:
        look(mem, 0.0, ["mug"] * 50)
        for k in range(1, 5):
            look(mem, k * GAP, ["mug", "cup", "mug"], conf=0.5)
        obj = only(mem)
        assert obj.label == "mug"
        assert mem._fusion.shown_label_mass(obj.id) == pytest.approx({"mug": 5.0 + 4 * 1.0, "cup": 4 * 0.5})


def test_a_label_seen_in_one_look_only_stays_as_read(store):
    # one look, read "mug" first, then "cup" in the rest of the frames: both reach the cap, the first read stays
    # (uncapped, 40 "cup" against 10 "mug" would relabel it)
    with open_mem(store, 5.0) as mem:
        look(mem, 0.0, ["mug"] * 10 + ["cup"] * 40)
        assert only(mem).label == "mug"
    # ... and a look whose first read was a stray flip is the label of the rest of its frames
    with open_mem(store, 5.0, "m2") as mem:
        look(mem, 0.0, ["cup"] + ["mug"] * 20)
        assert only(mem).label == "mug"


def test_each_view_sector_of_one_visit_is_a_look_of_its_own(store):
    # one visit: the camera sees the thing from +x for 20 frames, then from -x for 20, all read "mug": two caps
    with open_mem(store, 5.0) as mem:
        t = look(mem, 0.0, ["mug"] * 20, eye=(4.0, 1.0, 1.2))
        look(mem, t, ["mug"] * 20, eye=(0.0, 1.0, 1.2))
        obj = only(mem)
        assert mem._fusion.shown_label_mass(obj.id) == pytest.approx({"mug": 10.0})
        assert obj.label_mass == pytest.approx({"mug": 40 * 0.8})
