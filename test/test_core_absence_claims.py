"""A surface at an object's place that belongs to another reported instance is no view of its place empty
(absence.claimed_surface): seed 343's bottle hidden in a plant's foliage counted misses and was removed."""

from __future__ import annotations

import numpy as np
from core_helpers import box_obs, render_view, span_obs

from tempomem_ros.core.absence import claimed_surface, visible_fractions
from tempomem_ros.core.config import AbsenceConfig

EYE = (0.0, 0.0, 1.0)
BOTTLE = (2.0, 0.0, 0.8)
HALF = (0.035, 0.035, 0.125)                      # 7 x 7 x 25 cm, standing on a board at z 0.675
B_LO, B_HI = np.subtract(BOTTLE, HALF), np.add(BOTTLE, HALF)
FOLIAGE = ((1.93, -0.1, 0.68), (2.2, 0.1, 1.0))   # leaves 3 cm in front of the bottle's front (within 5 cm)
PLANT = ((1.9, -0.1, 0.675), (2.2, 0.1, 1.05))    # the plant's reported box: the bottle's place is inside it
BOARD = ((1.7, -0.5, 0.6), (2.3, 0.5, 0.675))     # the shelf board it stands on
SHELF = ((1.7, -0.5, 0.0), (2.35, 0.5, 1.8))      # the shelf's reported box, holding the bottle's place too
MUG = ((1.9, 0.2, 0.675), (2.0, 0.3, 0.8))        # a mug reported beside it
BACK = ((2.3, -0.5, 0.0), (2.35, 0.5, 1.8))       # the shelf's back panel, behind the bottle


def fractions(view, claims):
    lo, hi = B_LO[None], B_HI[None]
    return visible_fractions(view, lo, hi, AbsenceConfig(), claims=claims)[0]


def boxes(*spans):
    """Claims of reported instances that may hold the bottle's surfaces (visible_fractions' claims)."""
    lo, hi = np.array([s[0] for s in spans], float), np.array([s[1] for s in spans], float)
    return lo, hi, np.ones((1, len(spans)), bool)


def test_leaves_at_the_bottles_place_read_as_its_front_unless_a_reported_plant_holds_them():
    v = render_view(20.0, EYE, BOTTLE, [FOLIAGE, BOARD, BACK])
    assert fractions(v, None) == 1.0              # the depth alone: every sample within 5 cm of the front
    assert fractions(v, boxes(PLANT)) == 0.0      # the plant's instance holds every one of those surfaces
    assert fractions(v, boxes(MUG)) == 1.0        # an instance beside it holds none of them
    lo, hi, _ = boxes(PLANT)
    assert fractions(v, (lo, hi, np.zeros((1, 1), bool))) == 1.0   # the plant, older than the bottle, may not


def test_what_the_object_stands_on_and_what_is_behind_its_place_are_never_claimed():
    v = render_view(20.0, EYE, BOTTLE, [BOARD, BACK])   # the bottle gone: its place seen through to the back
    assert fractions(v, boxes(SHELF)) == 1.0
    lo, hi = B_LO[None], B_HI[None]
    surface = np.array([[[2.0, 0.0, 0.675], [2.0, 0.0, 0.70], [2.3, 0.0, 0.8], [2.0, 0.0, 0.8], [1.96, 0.0, 0.8]]])
    # the board under it (at and within 5 cm above its bottom), the back panel behind it: not claimed; a surface
    # in its middle or at its front: claimed
    assert claimed_surface(surface, lo, hi, *boxes(SHELF)[:2], 0.05).tolist() == [[False, False, False, True, True]]
    assert claimed_surface(surface, lo, hi, *boxes(BOARD)[:2], 0.05).tolist() == [[False, False, False, False, False]]


LOOKS = (100.0, 100.5, 101.0, 200.0, 200.5, 201.0)


def test_a_bottle_inside_a_reported_plants_place_is_not_removed(mem):
    # seed 343: the bottle stood inside the plant moved back beside it, no pixel of it reported; 5 misses in two
    # looks removed it, and a new vase was joined as its move. The plant was known while the bottle was still seen
    # (first seen at 4.2 s, the bottle last seen 1352 s later), as here (first seen at 0.5 s, the bottle at 1.5 s)
    for t in (0.0, 0.5, 1.0, 1.5):
        plant = [span_obs("plant", *PLANT, stamp=t)] if t > 0.0 else []
        mem.add([box_obs("bottle", BOTTLE, HALF, stamp=t)] + plant,
                render_view(t, EYE, BOTTLE, [(B_LO, B_HI), BOARD, BACK]))
    for t in LOOKS:   # two looks at the place, the bottle behind leaves within 5 cm of its front
        mem.add([span_obs("plant", *PLANT, stamp=t)], render_view(t, EYE, BOTTLE, [FOLIAGE, (B_LO, B_HI), BOARD, BACK]))
    mem.commit()
    assert sorted((o.label, o.state) for o in mem.objects()) == [("bottle", "present"), ("plant", "present")]
    assert sorted(e.kind for e in mem.changes()) == ["appeared", "appeared"]


def test_unclaimed_leaves_at_its_place_still_count_as_before(mem, store):
    # the same depth with no instance reported there: a surface at its front, nothing else holds it: a miss
    # (what a detector's dropout looks like; evidence over looks decides)
    for t in (0.0, 0.5, 1.0, 1.5):
        mem.add([box_obs("bottle", BOTTLE, HALF, stamp=t)], render_view(t, EYE, BOTTLE, [(B_LO, B_HI), BOARD, BACK]))
    for t in LOOKS:
        mem.add([], render_view(t, EYE, BOTTLE, [FOLIAGE, (B_LO, B_HI), BOARD, BACK]))
    mem.commit()
    assert [(o.label, o.state) for o in mem.objects()] == [("bottle", "missing")]
    assert sorted(e.kind for e in mem.changes()) == ["appeared", "removed"]


CARTON = ((1.97, -0.15, 0.675), (2.27, 0.15, 1.0))          # a carton set where the bottle stood
CARTON_SEEN = ((1.96, -0.16, 0.675), (2.28, 0.16, 1.0))     # its reported box, a centimetre larger than its faces


def test_a_bottle_taken_away_and_a_carton_set_in_its_place_is_removed(mem):
    # The carton, first seen after the bottle's last sighting, may be what was put where it stood: its surface at
    # the bottle's place shows the bottle gone. Claimed by the carton's instance (first seen after the bottle), the
    # bottle's place was never seen in four looks, and the bottle stayed present, under the carton, for good.
    for t in (0.0, 0.5, 1.0, 1.5):
        mem.add([box_obs("bottle", BOTTLE, HALF, stamp=t)], render_view(t, EYE, BOTTLE, [(B_LO, B_HI), BOARD, BACK]))
    for t in (100.0, 100.5, 101.0, 200.0, 200.5, 201.0, 300.0, 300.5, 301.0, 400.0, 400.5, 401.0):
        mem.add([span_obs("box", *CARTON_SEEN, stamp=t)], render_view(t, EYE, BOTTLE, [CARTON, BOARD, BACK]))
    mem.commit()
    assert sorted((o.label, o.state) for o in mem.objects()) == [("bottle", "missing"), ("box", "present")]
    assert sorted(e.kind for e in mem.changes()) == ["appeared", "appeared", "removed"]


NEAR_BACK = ((2.045, -0.5, 0.0), (2.095, 0.5, 1.8))    # a shelf's back 1 cm behind the bottle
NEAR_BOARD = ((1.7, -0.5, 0.6), (2.045, 0.5, 0.675))
NEAR_SHELF = ((1.7, -0.5, 0.0), (2.095, 0.5, 1.8))     # the shelf's reported box


def test_a_back_just_behind_the_place_is_never_claimed():
    # the back 1 cm behind the bottle's box lies within the tolerance of its place, inside the shelf's box: but it
    # is beyond where every sample's ray leaves the box, seen through the place (claimed, the fraction read 0.0)
    v = render_view(20.0, EYE, BOTTLE, [NEAR_BOARD, NEAR_BACK])
    assert fractions(v, boxes(NEAR_SHELF)) == 1.0
    v = render_view(20.0, EYE, BOTTLE, [FOLIAGE, NEAR_BOARD, NEAR_BACK])   # leaves in front of it still claimed
    assert fractions(v, boxes(NEAR_SHELF)) == 0.0


def test_a_bottle_taken_from_before_a_shelfs_back_is_removed(mem):
    # the shelf first seen after the bottle and while it was seen (it may claim), the bottle standing 1 cm before
    # its back: taken away, its place shows the back, seen through the place, and the bottle is removed
    for t in (0.0, 0.5, 1.0, 1.5):
        shelf = [span_obs("shelf", *NEAR_SHELF, stamp=t)] if t > 0.0 else []
        mem.add([box_obs("bottle", BOTTLE, HALF, stamp=t)] + shelf,
                render_view(t, EYE, BOTTLE, [(B_LO, B_HI), NEAR_BOARD, NEAR_BACK]))
    for t in LOOKS:
        mem.add([span_obs("shelf", *NEAR_SHELF, stamp=t)], render_view(t, EYE, BOTTLE, [NEAR_BOARD, NEAR_BACK]))
    mem.commit()
    assert sorted((o.label, o.state) for o in mem.objects()) == [("bottle", "missing"), ("shelf", "present")]
    assert sorted(e.kind for e in mem.changes()) == ["appeared", "appeared", "removed"]
