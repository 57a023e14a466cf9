"""Chairs seen from one side, then from another, and chairs pushed by less than their size (issue 11, no feature).

Each test tells one rule of frame_fusion.py / settling.py for furniture that is pushed about rather than carried
(a chair, a stool), and fails without it."""

from __future__ import annotations

import pytest
from core_helpers import distance_from_eye, kinds, render_view, span_obs, view

from tempomem_ros.core import Memory

EYE = (0.0, 0.0, 1.0)
CHAIR = ((1.775, -0.225, 0.0), (2.225, 0.225, 0.9))  # a 0.45 m chair at (2, 0), 0.9 m tall
MID = (2.0, 0.0, 0.45)
FACE = ((1.775, -0.225, 0.0), (1.9, 0.225, 0.9))  # its front, all a camera at the eye sees of its depth


def misses(m: Memory, object_id: int) -> int:
    return m._conn.execute("SELECT COUNT(*) FROM misses WHERE object_id=?", (object_id,)).fetchone()[0]


def test_a_chair_known_from_its_front_seen_whole_from_its_side_is_no_miss(mem):
    # seed 302: a chair seen only face-on for 5 s (its box 0.17 m deep), then from the side, whole (0.45 m deep):
    # the whole chair stretched the box of a chair "seen whole" and was no view of it, and, centred outside that
    # thin box, it counted a miss of the chair in every frame; the chair went removed, then reappeared
    for t in (0.0, 0.5, 1.0):
        mem.add([span_obs("chair", *FACE, stamp=t)], render_view(t, EYE, MID, [CHAIR]))
    side = (2.0, -2.0, 1.0)
    for t in (10.0, 10.5, 11.0, 11.5, 13.0):
        mem.add([span_obs("chair", *CHAIR, stamp=t)], render_view(t, side, MID, [CHAIR]))
    mem.commit()
    assert (mem.get(1).state, misses(mem, 1)) == ("present", 0)
    assert [k for k in kinds(mem) if k[0] != "merged"] == [("appeared", 1)]


def _chair_seen_whole(m: Memory, stamps=(0.0, 0.5, 1.0)) -> float:
    """The chair seen whole (the view seeing just past it); returns the depth of its place from the eye."""
    d = distance_from_eye(MID)
    for t in stamps:
        m.add([span_obs("chair", *CHAIR, stamp=t)], view(t, MID, d + 0.1))
    return d


NEW = ((1.775, 0.375, 0.0), (2.225, 0.825, 0.9))  # the chair pushed 0.6 m


def _new_place_found_then_a_bled_view(mem, bled_from_y: float) -> None:
    """The chair seen whole, found at its new place (something in front of the old one: no miss, no push), then
    one view bled from the new chair's far edge back to ``bled_from_y``, then the old place seen empty while
    the chair stands at its new one; the bled view must not keep the old chair from its move."""
    d = _chair_seen_whole(mem, [0.5 * k for k in range(10)])
    for t in (600.0, 600.5, 601.0, 601.5):
        mem.add([span_obs("chair", *NEW, stamp=t)], view(t, MID, d - 0.5))
    mem.add([span_obs("chair", (1.775, bled_from_y, 0.0), NEW[1], stamp=601.7)], view(601.7, MID, d - 0.5))
    mem.commit()
    assert mem.get(1).last_seen == 601.7  # the bled sighting joined the old chair
    for t in (1200.0, 1200.5, 1201.0, 1201.5, 1203.0, 1205.0):  # the old place seen empty, the chair at its new one
        mem.add([span_obs("chair", *NEW, stamp=t)], render_view(t, EYE, MID, [NEW]))
    mem.commit()
    (chair,) = [o for o in mem.objects() if o.state != "forgotten"]
    assert (chair.id, chair.n_moves) == (1, 1)
    assert [(e.kind, e.object_id, e.stamp) for e in mem.changes()] == [("appeared", 1, 0.0), ("moved", 1, 600.0),
                                                                      ("merged", 2, 1203.0)]


def test_a_sighting_spanning_both_places_centred_in_the_new_one_is_no_last_view_of_the_old(mem):
    # seed 302: the chair was found at its new place; one sighting, a mask bled over both places (0.88 m for a
    # 0.45 m chair, centred in the new chair's box), became an object that joined the old chair as its twin; the
    # old chair was then "seen after the new one was found", so when its place was seen empty it was removed
    # and the new chair stayed an appearance (a missed move, a false removal, a false appearance)
    _new_place_found_then_a_bled_view(mem, -0.1)


def test_a_sighting_holding_the_new_chair_bled_back_over_the_old_place_is_no_last_view_of_the_old(mem):
    # seed 380 (no feature): a chair pushed 0.43 m while unseen was found at its new place; three views later,
    # masks bled from its far edge back over its old place to the wall (1.5 m for a 0.45 m chair, each holding
    # 94-96 % of the new chair's footprint, centred between the two places), joined the old chair; the old
    # chair was "seen after the new one was found", so its removal was no move (a missed move, a false removal,
    # a flicker). A view that holds the new chair shows the new chair; it says nothing of the old place.
    _new_place_found_then_a_bled_view(mem, -0.3)


PUSHED = ((1.775, 0.025, 0.0), (2.225, 0.475, 0.9))  # pushed 0.25 m: its new box holds 44 % of the old one's


def test_a_chair_pushed_a_quarter_metre_is_moved_not_merged_as_another_part_of_it(mem):
    # seed 300: a chair pushed 0.33 m (less than its 0.45 m) and seen there whole, the view seeing through the
    # part of its old place it left: the sighting overlapped the old box by more than half (with the noise
    # margin), so it was merged as "another part" of the chair (a chair seen whole does not grow: its box stayed,
    # its last sighting moved on); its old place then counted misses and it was removed, the chair at its new
    # place a new one, and the move was found only 140 s later
    _chair_seen_whole(mem)
    for t in (600.0, 600.5, 601.0, 601.5, 603.0):
        mem.add([span_obs("chair", *PUSHED, stamp=t)], render_view(t, EYE, MID, [PUSHED]))
    mem.commit()
    (chair,) = [o for o in mem.objects() if o.state != "forgotten"]
    assert (chair.id, chair.n_moves, chair.center) == (1, 1, pytest.approx((2.0, 0.25, 0.45)))
    assert kinds(mem) == [("appeared", 1), ("moved", 1)]


PILLOW = ((1.775, -0.2, 0.4), (2.225, 0.2, 0.52))  # 0.45 x 0.4 x 0.12 m: furniture by its footprint, flat


@pytest.mark.parametrize("label, box, seen", [
    ("pillow", PILLOW, ((1.775, -0.05, 0.4), (2.225, 0.35, 0.52))),  # 0.15 m off: under half its size, noise
    ("chair", CHAIR, ((1.775, -0.225, 0.0), (2.225, 0.6, 0.9))),     # 0.83 m: a mask bled over it and beyond
])
def test_a_sighting_off_by_noise_or_larger_than_the_object_is_no_push(mem, label, box, seen):
    # the view sees through the part of the old box the sighting leaves out, yet neither moved: dev seeds 254
    # and 234 (no feature), a pillow whose box had drifted 8 cm "moved" by that much, and a bled 1.2 m "chair"
    # moved a chair a second time 0.2 s after its move (two false moves)
    mid = tuple(0.5 * (a + b) for a, b in zip(*box))
    d = distance_from_eye(mid)
    for t in (0.0, 0.5, 1.0):
        mem.add([span_obs(label, *box, stamp=t)], view(t, mid, d + 0.1))
    for t in (600.0, 600.5, 601.0):
        mem.add([span_obs(label, *seen, stamp=t)], render_view(t, EYE, mid, [seen]))
    mem.commit()
    assert (mem.get(1).n_moves, kinds(mem)) == (0, [("appeared", 1)])


STOOL = ((1.82, -0.18, 0.0), (2.18, 0.18, 0.66))  # a 0.36 m stool at (2, 0), 0.66 m tall
STOOL_MID = (2.0, 0.0, 0.33)


def _bled(bmin, bmax, centroid, stamp):
    """A sighting whose mask bled onto the background: its box reaches far beyond the object, its points'
    centroid stays on it (the bled pixels are a few of many)."""
    from tempomem_ros.core.types import Observation
    return Observation("stool", 0.9, tuple(centroid), tuple(bmin), tuple(bmax), float(stamp), None)


def test_a_stool_whose_mask_bled_far_behind_it_stays_where_its_points_are(mem):
    # held-out seed 333 (default profile, offline): a stool seen whole for 12 s, then one sighting 1.84 m long (its
    # mask bled onto the floor behind it, 1.4 m past the stool) whose points' centroid lay inside the stool's box:
    # the box centre 0.66 m off, the view seeing through the stool box's edges, it was taken for the stool pushed
    # aside; the stool "moved" onto the bled box's middle at t+19.6 s and stayed 0.7 m off its place to the end
    # (a false move, a wrong "where is the stool", and the stool counted missed and false in the map)
    d = distance_from_eye(STOOL_MID)
    for t in (0.0, 0.5, 1.0, 1.5):
        mem.add([span_obs("stool", *STOOL, stamp=t)], view(t, STOOL_MID, d + 0.1))
    mem.commit()
    bled_lo, bled_hi = (1.86, -0.08, -0.04), (3.7, 0.45, 0.62)
    mem.add([_bled(bled_lo, bled_hi, (2.04, 0.02, 0.31), 20.0)],
            render_view(20.0, EYE, STOOL_MID, [(bled_lo, (2.18, 0.18, 0.62))]))
    mem.commit()
    for t in (21.0, 21.5):
        mem.add([span_obs("stool", *STOOL, stamp=t)], view(t, STOOL_MID, d + 0.1))
    mem.commit()
    (stool,) = [o for o in mem.objects() if o.state != "forgotten"]
    assert (stool.id, stool.n_moves, stool.last_seen) == (1, 0, 21.5)
    assert stool.center == pytest.approx(STOOL_MID, abs=0.05)
    assert kinds(mem) == [("appeared", 1)]
    row = mem._conn.execute("SELECT verdict, reason, object_id FROM observations WHERE stamp=20.0").fetchone()
    assert tuple(row) == ("merged", "bled", 1)


def test_a_stool_pushed_with_a_bled_mask_centred_off_its_box_still_moves(mem):
    # the rule's other side: a sighting as bled, but its points centred 0.5 m off the stool's box, the view
    # seeing through the stool's old place, is the stool pushed there (its new place is where its points are)
    d = distance_from_eye(STOOL_MID)
    for t in (0.0, 0.5, 1.0, 1.5):
        mem.add([span_obs("stool", *STOOL, stamp=t)], view(t, STOOL_MID, d + 0.1))
    mem.commit()
    new = ((1.82, 0.32, 0.0), (2.18, 0.68, 0.66))
    for t in (600.0, 600.5, 601.0):
        bled = _bled((1.82, 0.32, 0.0), (3.6, 0.9, 0.66), (2.0, 0.5, 0.33), t)
        mem.add([bled], render_view(t, EYE, STOOL_MID, [new]))
    mem.commit()
    assert [k for k in kinds(mem) if k[0] != "merged"][:2] == [("appeared", 1), ("moved", 1)]


SEAT_AND_LEGS = ((1.775, -0.05, 0.0), (2.225, 0.37, 0.5))  # the chair's seat and legs, their masks bled behind it


@pytest.mark.parametrize("later", [10.0, 30.0])
def test_a_chair_known_from_its_seat_and_legs_seen_whole_is_no_push(mem, later):
    # held-out seed 366 (no feature): a chair known at its place from its seat and legs only (0.48 m tall, the
    # views reaching 9 cm past its back) was seen whole, backrest and all (0.87 m tall), the view seeing through
    # the bled part of the old box: taken for the chair pushed aside 0.14 m (a false move, and a stool known from
    # slivers "pushed" by its first whole view the same way). A whole view larger than any before is more of it.
    for t in (0.0, 0.5, 1.0, 1.5, 2.0):
        mem.add([span_obs("chair", *SEAT_AND_LEGS, stamp=t)], render_view(t, EYE, MID, [CHAIR]))
    mem.commit()
    for k in range(6):
        t = later + 0.5 * k
        mem.add([span_obs("chair", *CHAIR, stamp=t)], render_view(t, EYE, MID, [CHAIR]))
    mem.commit()
    (chair,) = [o for o in mem.objects() if o.state != "forgotten"]
    assert (chair.id, chair.n_moves) == (1, 0)
    assert [k for k in kinds(mem) if k[0] != "merged"] == [("appeared", 1)]


STOOL = ((1.82, -0.18, 0.0), (2.18, 0.18, 0.66))  # a 0.36 m stool at (2, 0), 0.66 m tall
STOOL_MID = (2.0, 0.0, 0.33)
SEAT_BLED_UP = ((1.80, -0.25, 0.50), (2.20, 0.20, 1.20))  # its seat, the mask bled onto the wall above it


@pytest.mark.parametrize("aside", [0.0, 0.3])
def test_a_stool_fused_twice_on_its_place_is_joined_when_its_removal_comes_due(mem, aside):
    # seed 387 (no feature): a stool first seen in slivers bled off it got a second "stool" from its first whole
    # views, 0.11 m off, seen in turns with it; the views went to the second one, the first counted misses in
    # every frame and was removed at 19.0 s while the stool stood there (later back, removed again, then "moved"
    # 0.17 m onto its twin). ``aside``: the whole views 0.3 m off, beyond a push of the first box's 0.45 m
    # (PUSH_MIN_SHIFT): another place, the first one's removal stands.
    whole = ((STOOL[0][0], STOOL[0][1] + aside, 0.0), (STOOL[1][0], STOOL[1][1] + aside, 0.66))
    t = 0.0
    for k in range(14):  # the first views, then the two in turns
        box = SEAT_BLED_UP if k < 4 or k % 2 == 0 else whole
        mem.add([span_obs("stool", *box, stamp=t)], render_view(t, EYE, STOOL_MID, [whole]))
        t += 0.2
    for _ in range(60):
        mem.add([span_obs("stool", *whole, stamp=t)], render_view(t, EYE, STOOL_MID, [whole]))
        t += 0.2
    mem.commit()
    shown = [(o.id, o.state) for o in mem.objects() if o.state != "forgotten"]
    joins = [a.detail for a in mem.audit() if a.action == "merge_twin"]
    if aside:
        assert (shown, joins) == ([(1, "missing"), (2, "present")], [])
        assert ("removed", 1) in kinds(mem)
    else:
        assert (shown, joins) == ([(1, "present")], [{"kept": 1, "absorbed": 2}])
        assert [k for k in kinds(mem) if k[0] == "removed"] == []


def test_the_minimum_push_is_a_quarter_of_the_size_and_never_under_the_same_place_distance():
    # one rule (frame_fusion.min_push_shift) for the three tests that ask how far off a push is: a 0.45 m chair
    # 0.1125 m, a 2 m couch 0.5 m; a 0.2 m stool's would be 0.05 m, closer than the same place (0.1 m)
    from types import SimpleNamespace

    from tempomem_ros.core.frame_fusion import min_push_shift
    ident = SimpleNamespace(same_place_distance=0.1, push_min_move_shift=False)
    assert [min_push_shift(s, ident) for s in (0.45, 2.0, 0.2, 0.0)] == [0.1125, 0.5, 0.1, 0.1]
    assert min_push_shift(0.45, SimpleNamespace(same_place_distance=0.3, push_min_move_shift=False)) == 0.3


def test_the_minimum_push_is_never_under_the_minimum_move_shift():
    # identity.push_min_move_shift (default on): a push is a move, never under frame_fusion.MIN_MOVE_SHIFT_M
    # (0.15 m), the shift below which any sighting of a present object is it where it stands. Seed 428 (h420, no
    # feature): a 0.40 m pillow's near half read "cushion", 0.117 m off, was its twin "pushed" (0.25 x 0.40 =
    # 0.101 m): a false "pillow moved"
    from types import SimpleNamespace

    from tempomem_ros.core.frame_fusion import min_push_shift
    ident = SimpleNamespace(same_place_distance=0.1, push_min_move_shift=True)
    assert [min_push_shift(s, ident) for s in (0.40, 0.45, 0.6, 2.0, 0.0)] == [0.15, 0.15, 0.15, 0.5, 0.15]
    assert min_push_shift(0.45, SimpleNamespace(same_place_distance=0.3, push_min_move_shift=True)) == 0.3


STOOL_FACE = ((1.8, -0.18, 0.0), (1.96, 0.18, 0.66))   # a stool's front, 0.16 of its 0.36 m depth, 8 cm too near
STOOL_WHOLE = ((1.88, -0.18, 0.0), (2.24, 0.18, 0.66))  # the stool whole, where it stands


@pytest.mark.parametrize("on", [True, False])
def test_a_stool_known_by_its_face_seen_whole_behind_it_is_no_push(store, on):
    # seed 418 (h410, no feature): a stool known for 2 s by a 0.39 x 0.20 m face (the depth camera sees the faces
    # turned to it) was "pushed aside" by its first whole view, which reached behind the face and left the face's
    # near sliver (depth noise) seen through: a false "stool moved" at 20.2 s (frame_fusion.rest_behind_face).
    # ``on`` False: the rule off, the false move comes back.
    with Memory.open(store("m"), embedding_dim=4, config={"identity": {"face_not_pushed": on}}) as mem:
        _stool_face_then_whole(mem, on)


def _stool_face_then_whole(mem, on: bool) -> None:
    mid = tuple(0.5 * (a + b) for a, b in zip(*STOOL_WHOLE))
    for t in (0.0, 0.5, 1.0):
        mem.add([span_obs("stool", *STOOL_FACE, stamp=t)], render_view(t, EYE, mid, [STOOL_WHOLE]))
    for t in (2.0, 2.5, 3.0, 3.5):
        mem.add([span_obs("stool", *STOOL_WHOLE, stamp=t)], render_view(t, EYE, mid, [STOOL_WHOLE]))
    mem.commit()
    if on:  # the whole view extends the stool's box behind its face: one stool, where it stands, no second one
        assert [(o.id, o.state, o.n_moves) for o in mem.objects()] == [(1, "present", 0)]
        assert mem.get(1).n_observations == 7  # the face's 3 views and the whole stool's 4
        assert kinds(mem) == [("appeared", 1)]
    else:
        assert [(o.id, o.state, o.n_moves) for o in mem.objects()] == [(1, "present", 1)]
        assert kinds(mem) == [("appeared", 1), ("moved", 1)]


def test_rest_behind_face_asks_a_furniture_sized_face_and_an_overlapping_footprint():
    from tempomem_ros.core.frame_fusion import rest_behind_face
    chair_face = ((3.93, 1.33, 0.16), (4.06, 1.85, 0.93))  # seed 419's chair known by its front, 0.13 x 0.52 m
    side = ((3.96, 1.71, 0.04), (4.39, 1.79, 0.81))        # its side seen 20 s later: overlaps the face's footprint
    beyond = ((4.10, 1.33, 0.0), (4.55, 1.85, 0.9))         # a chair standing past the face: no overlap
    assert rest_behind_face(*chair_face, *side, 0.35) is True
    assert rest_behind_face(*chair_face, *beyond, 0.35) is False
    assert rest_behind_face(*CHAIR, *side, 0.35) is False       # a chair known whole (0.45 x 0.45) is no face
    phone = ((1.775, 0.625, 0.754), (1.935, 0.711, 0.777))      # 0.16 x 0.09 m: too small to be furniture
    assert rest_behind_face(*phone, (1.79, 0.676, 0.741), (2.57, 0.884, 0.91), 0.35) is False
    sofa = ((0.0, 0.0, 0.0), (2.0, 0.3, 0.8))                   # a sofa's front: larger than movable furniture
    assert rest_behind_face(*sofa, (0.5, 0.2, 0.0), (1.5, 0.9, 0.8), 0.35) is False
