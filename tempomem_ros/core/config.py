"""Configuration of the memory: every threshold the fusion, identity, absence and relation rules use.

Why a validated dataclass: the defaults below are the documented behaviour (docs/MEMORY.md), a node loads
overrides from YAML, and a typo or an out-of-range value must fail at load time with a message naming the
key, not silently change what the memory believes. Weights of the fusion score must sum to 1 so that the
merge threshold keeps its meaning.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field

from .errors import InvalidInputError

#: A source (robot id): what a ROS namespace or node name may hold, so that it is the robot's name as launched.
SOURCE_PATTERN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./-]{0,63}|")
SOURCE_RULE = "'' or up to 64 letters, digits, '_', '.', '/', '-' (not starting with '.', '/' or '-')"


@dataclass(frozen=True)
class FusionConfig:
    # score = w_geometry * geometry + w_iou * iou + w_feature * cosine + w_label * label_match
    w_geometry: float = 0.2              # weight of the geometry term (the four weights sum to 1)
    w_iou: float = 0.2                   # weight of the box IoU term
    w_feature: float = 0.5               # weight of the feature cosine (used only when both sides have one)
    w_label: float = 0.1                 # weight of the label match
    merge_threshold: float = 0.62        # score at or above which a sighting merges into an object
    reject_confidence: float = 0.30      # sightings below this confidence are stored but rejected
    candidate_dilation: float = 0.25     # metres added to the observation box to find candidates
    geometry_scale: float = 0.25         # metres: geometry term = 1 - dist(centroid, candidate box) / scale
    box_padding: float = 0.02            # metres per side, so that thin objects have a volume for IoU
    box_clamp_factor: float = 1.0        # half extent <= factor * largest single-observation extent
    box_growth_factor: float = 2.0       # one observation may bring at most this x the object's largest fused
                                         # single-view extent into its box (fusion.merge_geometry)
    mean_box_after: int = 3              # an object with this many sightings and a box under mean_box_below
    mean_box_below: float = 0.25         # metres on every axis keeps the weighted mean of its sightings'
                                         # boxes, not their union (one bled mask no longer inflates it); 0 = off
    size_quantile_after: int = 10        # after this many sightings an object's size (ext) tracks this quantile
    size_quantile: float = 0.9           # of its sightings' extents instead of their maximum (one bled mask no
    size_step: float = 0.05              # longer sets it for good); step = share of the size per sighting; 0 = off
    size_quantile_below: float = 0.8     # metres: only while the size is under this on every axis of the floor
                                         # plane (a table or a sofa is seen in parts: its views' quantile is a part)
    size_consensus_share: float = 0.8    # every size_quantile_after sightings, an object still over that size whose
                                         # views agree it is small (this share of them under it, together under it)
                                         # is refolded from those views alone (core/size_consensus.py); 0 = off
    confidence_gain: float = 0.5         # c <- c + (1 - c) * obs_conf * gain
    label_mode: str = "exact"            # "exact" (whole words) | "embedding" (label encoder cosine)
    # Geometry first (association.py): a sighting at an object's very place, at a similar size, is that
    # object under a confused label when the object was seen recently or the two labels are known confusions.
    same_place_tol: float = 0.02         # metres: each box must contain the other's centre within this
    same_place_ratio: float = 2.5        # ... no axis may be longer than this x the other's ...
    same_place_iou: float = 0.3          # ... and the boxes (grown by same_place_tol) overlap at least this much
    recent_s: float = 30.0               # an object seen this recently is still there: another label at its
                                         # place is a confusion, whatever the pair
    lookalike_width: bool = False        # a sighting of another label (a known confusion) at a small object's
                                         # place, the object unseen for over recent_s, much wider than the
                                         # object's steady views there (identity.move_width_ratio x and 4 cm), is
                                         # not that object: a vase (0.12 m) put where a bottle (0.07 m) had stood
                                         # became the bottle (seed 535, h530) (frame_fusion.wider_than_views).
                                         # Off: the twin test (identity.twin_width_test) alone mends seed 535,
                                         # and this one made a bled view of a vase a duplicate (dev seed 3)
    own_label_first: bool = True         # an object takes the sighting of its own label before another label's
                                         # (frame_fusion.own_label_first: the neighbour's sighting at its very
                                         # place no longer wins it on score, its own making a twin)
    confusion_min_share: float = 0.05    # label pairs the segmenter confused at least this often (share of
    confusion_min_mass: float = 1.0      # ... the smaller label's mass) and with at least this much mass
    relabel_margin: float = 1.25         # the shown label changes only when another label's mass exceeds it
                                         # by this factor (no flip-flop between look-alikes) ...
    relabel_lead: float = 5.0            # ... or by this much mass (about six confident sightings)
    label_look_cap: float = 5.0          # the shown label: one look (a visit x a view sector) gives a label at most
                                         # this much mass (a persistent confusion from one side is one look's evidence,
                                         # not a hundred sightings'); 0 = uncapped (as before stop 52)
    label_look_sectors: int = 4          # a look's view sector: azimuth of the camera around the object
    label_look_gap_s: float = 30.0       # a new visit starts when the object was not seen for this long


@dataclass(frozen=True)
class IdentityConfig:
    # An unmatched observation re-identifies an object far from its place (a move) when:
    feature_threshold: float = 0.60      # cosine between features, when both sides have one: CLIP crops of one
                                         # object seen from two sides agree ~0.71, two mugs ~0.64 (so features only
                                         # veto what is clearly something else; the label and the place decide)
    min_gap_s: float = 10.0              # a look-alike found sooner after an object's last sighting is
                                         # another instance, not that object moved (settling.py)
    move_window_share: float = 0.1       # ... and one found in the first tenth of the time between that sighting and
                                         # the first look at its empty place is another instance too: a move squeezed
                                         # into 15 s of a 10-minute absence is 40 x less likely than a removal
    scan_limit: int = 50                 # more same-label objects than this: only missing ones may move
    extend_factor: float = 2.0           # unique object within this x its extent: same object, not a move ...
    extend_min_extent: float = 0.35      # ... for objects at least this large (m): small ones are seen whole
    same_place_distance: float = 0.10    # a missing object re-seen within this (or half its size): reappeared
    reconcile_window_s: float = 120.0    # a new object seen while a look-alike was unseen elsewhere may be that
                                         # one moved: decided when the old place is seen (empty: a move), for
                                         # at most this long; its "appeared" is held until then
    mover_window_s: float = 0.0          # ... and a removed look-alike is taken for it (come back) only once
                                         # that unseen one's place is seen with it, or after this long: seen
                                         # empty, that one is the object that moved (settling._release_held).
                                         # Off (0) by default: 600 s won 6 questions on seeds 300-309 and lost
                                         # 10 on 230-259 (moves still waiting when the run ended)
    appear_hold_s: float = 1.0           # an object is confirmed (shown, its "appeared" published) once its
    confirm_observations: int = 3        # sightings span this long and number at least this many: a
                                         # reflection repeated for 2-3 frames never is
    confirm_gap_s: float = 30.0          # ... in one run: a sighting more than this after the one before starts
                                         # the count anew (noise blobs at one wall 30 minutes apart are no object)
    confirm_turns_m: float = 0.10        # ... and not while an older present object within this (m) of its box, of
                                         # an agreeing label, a known confusion or at its very place, was seen in
                                         # frames since its first sighting but never in one frame with it: one
                                         # thing's views taken in turns (FrameFusion._in_turns_beside; 0 = off)
    twin_merge: bool = True              # merge objects at one place that were never seen together
    chimera_join: bool = True            # an object whose views were of two look-alikes beside it, each seen with
                                         # it, is joined to one of them when its removal comes due, not removed
                                         # (settling._chimera_host)
    chimera_lookalike: bool = True       # ... and so is one whose views were of two things beside it of any size read
                                         # under a look-alike label (labels compatible, most of its views centred in
                                         # the two; settling._lookalike_chimera_host): two pillows read "cushion"
                                         # made a "cushion" between them, removed 1.7 s later (seed 434, h430)
    part_in_place_join: bool = True      # a part of a piece of furniture of its label, at its place and within its
                                         # box's part tolerance, is joined to it even if reported in one frame
                                         # with it (settling._part_in_place)
    part_confusion_share: float = 0.3    # a thing reported in one frame with a larger object, inside its box, under a
                                         # label the memory knows as confused with the larger's, is a part of it only
                                         # if it spans this share of the larger's footprint; smaller, it is a thing on
                                         # it (settling._confused_part; seed 492, h490r: a laptop on a sofa, 0.15 of
                                         # it, joined to the sofa after a bled "laptop" view had given the sofa laptop
                                         # mass; a stool's "bench" of its size in its bled box is 0.45); 0: off
    turns_twin_join: bool = True         # two small objects of one label taking one thing's views in turns in the
                                         # look that sees them, never together, are joined (settling._turns_in_one_look)
    glimpse_s: float = 5.0               # an object all of whose sightings lie within this span, centred in an
    glimpse_host_ratio: float = 3.0      # older object at most this x its size, whose place is then seen empty,
                                         # is withdrawn as a misreading of that object, not reported removed
    label_share: float = 0.2             # a label with this share of an object's label mass names it as well as
                                         # its shown label does when a removal and a new object are matched as
                                         # one move (settling._labels_compatible)
    one_look_name: bool = True           # a removed object whose shown label rests on one look (at most
                                         # fusion.label_look_cap of it) is named as well by any label that look
                                         # read it under, when a new object is matched as its move
                                         # (settling._named_in_one_look; h540 seeds 542, 548)
    sliver_host: bool = True             # a small object whose removal is due, wholly inside an older present
                                         # object's box of a confusable label never reported with it and seen
                                         # since its first miss, is joined to it (settling._sliver_host): a laptop
                                         # read "tablet" from 22-63 px became a 6 cm "tablet" inside it, removed
                                         # while the laptop stood there (seed 410, h410)
    face_not_pushed: bool = True         # a sighting reaching behind movable furniture known only by a face (its
                                         # box shallow on the floor) is the rest of it, not it pushed aside
                                         # (frame_fusion.rest_behind_face)
    top_view_move: bool = True           # a new box whose top stands at a removed object's top, its bottom unseen,
                                         # is as tall as that object for its move (settling.top_seen_alike)
    robust_move_height: bool = True      # a removed object's height for a move is its sightings' upper quartile
                                         # when lower than its box's: one bled view made a 5 cm book's box 0.25 m
                                         # tall (settling.Settling._alike_in_height; seed 423, h420)
    move_width_ratio: float = 1.5        # a small new object whose sightings' median width is this x (and
                                         # settling.MOVE_WIDTH_DIFF_M 4 cm more than) a removed one's, whose views
                                         # are steady (0.9 quantile <= 1.25 x median), is not it moved: a vase
                                         # (0.12 m views) put where a bottle (0.07 m) had stood, read "bottle", was
                                         # the bottle's move, the two swapped (seed 510, h510)
                                         # (settling.Settling._alike_in_width); 0: off
    twin_width_test: bool = True         # two objects of different shown labels (a known confusion) at one place,
                                         # never seen together, are one thing fused twice only when the newer's
                                         # views are not much wider than the older's (_alike_in_width, the same
                                         # constants): a vase (0.12 m views) found where a bottle (0.07 m) had
                                         # stood was joined to the bottle as its twin, and the bottle found later
                                         # on the vase's shelf became the vase's move (seed 535, h530)
                                         # (settling.Settling._twins)
    extend_whole_ratio: float = 1.3      # a large object (footprint over frame_fusion.MOVABLE_FOOTPRINT_M) whose box
                                         # is within this x its largest single views (+ 5 cm) on every axis was
                                         # seen whole: a same-label sighting re-identified with it as "another part"
                                         # (extend_factor) that would stretch its box past fusion.box_growth_factor
                                         # x its side on the floor is merged clipped to the box
                                         # (frame_fusion.out_of_scale_part); 0: off (seeds 503, 513, 526)
    rebuilt_move: bool = True            # a published appearance, never moved, whose box is rebuilt within
                                         # reconcile_window_s of its first sighting is asked again whether a
                                         # removed look-alike moved there (settling.Settling._rebuilt_moves)
    reask_move: bool = True              # a published appearance, never moved, within reconcile_window_s of its
                                         # first sighting is asked again whether a removed look-alike moved there
                                         # when the evidence that declined it changed: its shown label changed by a
                                         # join made after the frame's relabel check, or it is seen in one frame with
                                         # the object at whose place it was read (settling.Settling._reasked_moves;
                                         # h470 seeds 470's glasses, 475's mug)
    real_view_axis: bool = True          # a real view of an object for the move's time test spans a quarter of its
                                         # longest extent on that same axis, not on any axis: a 1 cm flat "plant"
                                         # blob (0.27 m wide) on the table where a 0.36 m tall plant had stood,
                                         # 300 s after it was moved, made it "seen after the new plant was found"
                                         # (seed 509, h500) (settling.Settling._last_real_sighting)
    reappear_lookalike_move: bool = True # a sighting at a missing object's place is no reappearance when a look-alike
                                         # seen since left its own place (removed) within reconcile_window_s: a new
                                         # object, that one's move (frame_fusion._gone_lookalike_came; seed 431)
    unseen_join_s: float = 60.0          # a new object (its appearance held, no removed look-alike for it) is the one
                                         # present look-alike unseen for this long before it was found, moved, when
                                         # that one is the only such candidate and it the only newcomer born since
                                         # (settling.Settling._unseen_original); 0: off
    unseen_join_evidence: float = 1.0    # ... and only when that one's own place was looked at and seen empty since
                                         # its last sighting: this many looks of absence evidence (absence.*,
                                         # persistence.py; settling.Settling._seen_empty_since; asked again at
                                         # the look that saw it, settling.Settling._seen_empty_moves); 0: no guard,
                                         # which moved a chair 7 m and a shelf 5 m back and forth in the household
                                         # (rooms whose other instances were never seen: moves 18 -> 53)
    unseen_join_look_misses: int = 3     # ... or one look of at least this many misses, each seeing
                                         # absence.short_look_clear_fraction of its samples, that lasted
                                         # absence.short_look_s counting each frame's interval (n x their mean gap:
                                         # persistence.clear_look_lasts): h540 seed 544's bottle, 3 clear misses in
                                         # 0.4 s at 5 Hz (settling.Settling._seen_empty_since); 0: off
    brief_move_min_weight: float = 2.0   # a brief look (settling._brief_move) is a removed object's move only if its
                                         # sightings weigh this much (summed confidence, fusion.observation_weight):
                                         # reflections, 3 frames at 0.43-0.53, weighed 1.3-1.6 (seeds 420, 422, 427)
    push_min_move_shift: bool = True     # a push (frame_fusion.min_push_shift) is at least the shift that makes any
                                         # sighting of a present object a move (frame_fusion.MIN_MOVE_SHIFT_M, 0.15 m)
    push_median_size: bool = False       # an object is pushed aside by one sighting only if the median footprint of
                                         # its views is furniture-sized (frame_fusion._views_furniture_sized)
                                         # Off by default since held-out 430-439 (stop 45): seed 430's pushed
                                         # chair was refused by it (a missed move, 96 -> 89 of 96 questions)
    push_min_point_share: float = 0.1    # a present object is pushed aside (frame_fusion._pushed_aside) only by a
                                         # sighting with at least this share of the median valid points of its
                                         # placement's sightings (0: off): a 5 cm sliver of a laptop (42 points
                                         # against 1139) moved it, and a twin took its place (seed 465, h460)
    flat_read_at_place: bool = True      # a new flat box over a present flat thing's footprint, a few cm above or
                                         # below it, is read at that thing's place (settling.Settling._flat_at_place)
    held_in_misses_share: float = 0.5    # a present object whose removal is due is joined to an older present one
                                         # of its kind, not removed, when at least half the frames that missed it
                                         # reported a sighting of its label at its place fused into that object, whose
                                         # box holds at least this share of its core box (0: off;
                                         # settling.Settling._held_in_misses): laptop twins born beside a moved laptop
                                         # were removed from frames that reported the laptop over them (h470 474, 477)


@dataclass(frozen=True)
class AbsenceConfig:
    misses_to_remove: int = 3            # N misses ...
    min_absence_s: float = 1.0           # ... spread over at least T seconds
    short_look_misses: int = 4           # ... or one look of at least this many misses (0 = off) ...
    short_look_s: float = 0.5            # ... spanning this long (persistence.short_look_decides): patrol looks of
                                         # 0.6-0.8 s never removed a thing taken away (h430 436 vase, h400 405 glasses)
    short_look_clear_fraction: float = 0.85  # ... with at least that many misses seeing this share of its samples
                                         # (persistence.short_look_unclear): a phone two thirds in view, 4 misses in
                                         # 0.84 s, was removed while it stood there (dev seed 1)
    min_range: float = 0.2               # metres: nearer than this the segmenter is not trusted
    occlusion_tolerance: float = 0.05    # metres: a surface nearer than the object's front - tol occludes it
    image_margin_px: float = 4.0         # projected samples must be this far inside the image
    min_visible_fraction: float = 0.6    # of the object's sample points that must be visible, or ...
    partly_visible_fraction: float = 0.3  # ... at least this share, when the visible part alone is a mask the
    partly_visible_factor: float = 3.0   # perception reports: share x expected px >= this x the detectable floor.
                                         # A plant on the floor half behind chair legs (dev seed 15, no feature:
                                         # 44-56 % of its samples visible, ~500 px expected of them) was never
                                         # missed in 70 frames after it moved, so its old copy stayed present
    min_projected_px: float = 20.0       # floor of the expected eroded mask (full-resolution px, absence.py) ...
    detectable_factor: float = 1.5       # ... and at least this x the view's min_object_pixels: an object the
                                         # perception would drop as a tiny mask is never missed. Was 2: keys
                                         # (6 x 10 x 3 cm) reported with 14-25 px masks at 1.7 m were expected at
                                         # 15-23 px there, under 2 x 13, so their removal was never seen (dev seed 1)
    mask_fill: float = 0.6               # share of a box's silhouette an object's mask covers (a mug is round)
    reported_view_m: float = 0.3         # a view whose camera stands this near the camera of one of the object's
                                         # sightings at its place (mask >= the detectable floor) can report it,
                                         # whatever the box estimate says: glasses on a shelf (seed 348, 14 x 6 x
                                         # 4 cm, kept box 7 x 5 x 2 cm) reported at 50-135 px from patrol stations
                                         # were estimated at 5-10 px there, and their removal was never seen
    reported_view_sightings: int = 2     # ... and at least this many such sightings near the view's camera: keys
                                         # reported once at 4.7 m (23 px, estimated 0.2 px) vouched for a view
                                         # beside it whose misses removed them while they stood (seed 467, h460)
    sighted_floor_share: float = 0.1     # a view whose estimate reaches that of all but this poorest share of the
                                         # views that detected the object (>= 5 kept sightings at its place) can
                                         # report it (sighted_floor.py; 0 = off): keys, glasses and a phone reported
                                         # at 40-100 px from views estimated at 3-14 px (seeds 348, 353, 355, 363)
    edge_pose_deg: float = 0.0           # a sample is seen empty only if no surface nearer than the object (above
                                         # its bottom) lies within fx x (tan this + ...
    edge_place_m: float = 0.0            # ... this / depth) px of its pixel (absence.hidden_near_edge; both 0 =
                                         # off, the default): things 92-100 % hidden just behind an occluder's
                                         # edge read the wall behind it in the next depth block and were removed
                                         # while they stood (h460 seeds 465, 467: 3 of 5); at 0.8 / 0.02 it cost
                                         # 21 questions on 7 development sets (docs/MEMORY.md): off until it pays
    look_gap_s: float = 3.0              # misses closer than this form one look (persistence.py)
    evidence_to_remove: float = 1.0      # looks of evidence (a look = misses_to_remove misses, capped at 1)
    removal_hold_s: float = 1.0          # a decided removal is published only if no sighting comes this long
    partial_look_waits: bool = True      # a look with partial views of a small object and fewer than
                                         # misses_to_remove plain ones adds at most half a unit (partial_looks.py):
                                         # a plant on a shelf seen past its side, 13 misses of one look at 33-67 %
                                         # in view, was removed while it stood there (seed 370)
    partial_look_furniture: bool = True  # ... and of furniture too (footprint >= identity.extend_min_extent):
                                         # a chair removed while it stood from one look whose every miss saw
                                         # 44-56 % of it (h490 498); with the height limit below, not worse on any
                                         # development set (stop 53; unlimited, dev seed 3's laptop move was missed)
    partial_look_furniture_min_height_m: float = 0.5  # ... furniture this tall only (a chair, a table; not a
                                         # laptop or a basket read at furniture size): dev seed 3's laptop move kept
    partial_look_span_by_view: bool = True  # furniture for these two rules by the footprint of its largest
                                         # single view (ext_x, ext_y), not the fused box: shoes (28-29 cm, fused
                                         # 35-36 cm by mask bleed) hidden in a shelf were removed from one look of
                                         # partial views while they stood (h530 531, h510 513); on since stop 57,
                                         # when dev seed 3's laptop (29 cm single views, waiting so) kept its move
                                         # (settling._alike_in_width: a removed book no longer takes it; MEMORY.md)
    known_size_detectable: bool = True   # a moved object keeps its size: where its box estimate is too small, a
                                         # view that sees the box of an earlier placement's size at its place clear
                                         # and expects a mask over the floor from it can report it (frame_fusion.
                                         # _known_size_detectable): a book seen whole on a sofa, then only past a
                                         # plant at its new place (a 9 x 2 cm sliver kept), was never missed in 28
                                         # clear views (21-432 px re-rendered) after it moved again (h490r 491)
    place_sighted_look: bool = True      # a frame within look_gap_s after a sighting at the object's place that
                                         # might be it (fused into another object or not) counts no miss: a shoe
                                         # read "toy" in half the frames of a look, the toys fused into a twin, was
                                         # removed from the dropped frames between them (seed 414, h410)
    face_view_at_place: bool = False     # a view of one face of an object at its place (its box inside the object's,
                                         # alike on two axes, a thin slice of it on the third: the depth the camera
                                         # sees past) counts no miss, under any label (frame_fusion._face_at_place):
                                         # a laptop read "keyboard" from its front for a whole look was removed
                                         # while it stood there (seed 402, h400). Off by default: on seed 432
                                         # (h430) it kept a "chair" twin of a stool, and six chair questions were
                                         # answered from it (h430 default 870 -> 865 / 901 with both stop-46 rules)
    neighbour_held_share: float = 0.5    # a sighting of its kind (label agrees or a known confusion), no larger than
                                         # it, holding this share of its core box, fused into another object first
                                         # seen while it was being seen (a younger twin or host), counts no miss,
                                         # nor a push in the look that saw it (frame_fusion._held_by_neighbour;
                                         # 0 = off): h480 489's laptop, its sightings fused into a younger laptop
                                         # twin, removed twice; h460 462's chair, seen in turns with a chair twin
    neighbour_place_share: float = 0.5   # ... only where that twin or host stands at its place: its box holds this
                                         # share of the object's core box (frame_fusion._twin_at_place; 0 = any):
                                         # h480 481's vase, taken away beside a younger bottle (its box held 0.15 of
                                         # the vase's core, each sighting 0.08-0.105), was never missed; 489's laptop
                                         # twin holds 0.75-0.97 of the older laptop's core


@dataclass(frozen=True)
class RejectionConfig:
    cell_size: float = 0.30              # metres: rejected sightings are keyed by label + this grid cell
    promote_mass: float = 0.9            # combined confidence of a rejected key that promotes it ...
    promote_count: int = 3               # ... with at least this many sightings


@dataclass(frozen=True)
class RelationConfig:
    on_max_gap: float = 0.08             # bottom at most this far above the support surface
    on_max_sink: float = 0.08            # ... or this far below it: fused boxes overshoot the true top (their
                                         # union keeps the highest noisy sighting) and a resting object's lowest
                                         # points sink into the support (depth noise, mask bleed)
    on_min_footprint_overlap: float = 0.5  # share of the upper object's footprint over the support
    near_distance: float = 0.6           # box-to-box gap
    seat_band: tuple[float, float] = (0.25, 0.65)   # seat surfaces: fraction of the anchor's height
    # kinds whose seat (seat_band) or boards (shelves) or inside (containers) hold things
    seating_labels: tuple[str, ...] = ("sofa", "couch", "chair", "armchair", "bench", "stool", "bed")  # "on": the seat
    shelf_labels: tuple[str, ...] = ("shelf", "bookshelf", "bookcase", "shelving")  # "on": any board
    container_labels: tuple[str, ...] = (  # "in": inside the box
        "cabinet", "cupboard", "drawer", "fridge", "refrigerator", "box", "basket", "bin", "wardrobe",
        "closet", "dresser",
    )
    shelf_min_board_height: float = 0.03  # above the shelf's base: lower bottoms stand on the floor
    relation_box_epsilon: float = 0.01   # metres a box may drift before its relations are recomputed


@dataclass(frozen=True)
class SemanticConfig:
    label_weight: float = 0.5            # combined = label_weight * label_sim + (1 - label_weight) * clip
    keyword_bonus: float = 0.2           # whole-word keyword hit on a label adds this to the score
    min_score: float = 0.2               # results below are not returned
    clip_candidates: int = 50            # nearest features retrieved before exact re-ranking (>= 5 k)
    label_candidates: int = 5            # best labels whose objects join the candidates (CLIP + labels)
    label_group_limit: int = 200         # objects per such label (lowest ids first)
    feature_matrix_budget_mb: float = 256.0  # vector_index "auto": exact numpy matrix up to this size


RETENTION_MODES = ("thin", "keep-all")
FEATURE_FORMATS = ("float32", "float16", "int8")


@dataclass(frozen=True)
class RetentionConfig:
    # What a month of answers needs is every placement, event, tombstone and count, plus a bounded sample of
    # evidence per placement (core/retention.py). "keep-all" stores every sighting, frame and audit row as before.
    mode: str = "thin"                   # "thin" | "keep-all"
    settle_s: float = 60.0               # sightings younger than this (behind the newest stamp) are never thinned
    compact_every_s: float = 30.0        # a compaction pass runs inside commit() at most this often (stamp time)
    max_frames_per_pass: int = 2000      # a backlog is worked off over several commits, never in one long one ...
    max_sightings_per_pass: int = 20000  # ... of more than this many sightings (at least one frame a pass)
    time_samples: int = 16               # per placement: the first sighting of each of at most this many time bins
    viewpoint_sectors: int = 8           # ... the first sighting from each azimuth sector of the camera ...
    range_bands: tuple[float, ...] = (1.5, 3.0)  # ... in each camera range band (metres: <1.5, 1.5-3, >3) ...
    recent_per_placement: int = 5        # ... and its newest sightings (a removal cites the last 5)
    twin_hold_s: float = 3600.0          # a placement with a possible twin (same place, never seen together) is not
                                         # thinned for up to this long: a twin join replays both objects' sightings
    observation_features: str = "float16"  # kept sightings' features: float32 | float16 | int8 (objects keep float32)


@dataclass(frozen=True)
class GateConfig:
    """Plausibility gates at add() (docs/MEMORY.md, "Plausibility gates"): finite but absurd input is refused
    (or, for a jump in time, quarantined) before it can change a stored object, placement or "now"."""

    world_bound: float = 10_000.0        # metres: every coordinate (boxes, camera position) within +- this
    max_extent: float = 10.0             # metres: largest side of one observation's box
    max_stamp_ahead_s: float = 300.0     # a stamp may be at most this far ahead of the wall clock
    max_stamp_jump_s: float = 3600.0     # a frame this far ahead of "now" is quarantined ...
    jump_confirm_frames: int = 3         # ... until this many consecutive such frames confirm the new time
    max_frame_spread_s: float = 600.0    # observation stamps within this of their frame's stamp
    min_feature_norm: float = 1e-6       # L2 norm of a feature (float64) within [min, max]: outside, its
    max_feature_norm: float = 1e6        # float32 cosines underflow or overflow (NaN)
    max_observations: int = 1000         # per frame
    max_question_length: int = 1000      # characters of a question or a semantic query


@dataclass(frozen=True)
class MemoryConfig:
    fusion: FusionConfig = field(default_factory=FusionConfig)
    identity: IdentityConfig = field(default_factory=IdentityConfig)
    absence: AbsenceConfig = field(default_factory=AbsenceConfig)
    rejection: RejectionConfig = field(default_factory=RejectionConfig)
    relations: RelationConfig = field(default_factory=RelationConfig)
    semantic: SemanticConfig = field(default_factory=SemanticConfig)
    retention: RetentionConfig = field(default_factory=RetentionConfig)
    gates: GateConfig = field(default_factory=GateConfig)
    max_label_length: int = 120          # characters of a label kept (longer ones are cut, docs/MEMORY.md)
    #: The robot (or tool) this memory writes for: stamped on every frame, observation and audit row it
    #: writes, unless Memory.add(..., source=...) names another (docs/FLEET.md). '' = unnamed (one robot).
    source: str = ""

    def __post_init__(self) -> None:
        validate(self)

    @classmethod
    def from_dict(cls, data: dict | None) -> "MemoryConfig":
        """Build from nested dicts (YAML); unknown keys and wrong types are errors naming the key."""
        data = dict(data or {})
        sections = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                continue
            value = data.pop(f.name)
            section_type = f.default_factory if f.default_factory is not dataclasses.MISSING else None
            if section_type is not None and dataclasses.is_dataclass(section_type):
                sections[f.name] = _section_from_dict(section_type, value, f.name)
            else:
                sections[f.name] = value
        if data:
            raise InvalidInputError(f"unknown configuration key(s): {', '.join(sorted(data))}")
        return cls(**sections)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def _section_from_dict(section_type, value, prefix: str):
    if not isinstance(value, dict):
        raise InvalidInputError(f"configuration section '{prefix}' must be a mapping")
    known = {f.name: f for f in dataclasses.fields(section_type)}
    unknown = sorted(set(value) - set(known))
    if unknown:
        raise InvalidInputError(f"unknown configuration key(s) in '{prefix}': {', '.join(unknown)}")
    kwargs = {}
    for key, val in value.items():
        default = getattr(section_type(), key)
        kwargs[key] = _coerce(val, default, f"{prefix}.{key}")
    return section_type(**kwargs)


def _coerce(value, default, key: str):
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise InvalidInputError(f"configuration '{key}' must be true or false")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidInputError(f"configuration '{key}' must be an integer")
        return value
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InvalidInputError(f"configuration '{key}' must be a number")
        return float(value)
    if isinstance(default, tuple):
        if not isinstance(value, (list, tuple)):
            raise InvalidInputError(f"configuration '{key}' must be a list")
        return tuple(value)
    return value


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise InvalidInputError(f"invalid configuration: {message}")


def validate(cfg: MemoryConfig) -> None:
    f = cfg.fusion
    weights = (f.w_geometry, f.w_iou, f.w_feature, f.w_label)
    _require(all(math.isfinite(w) and w >= 0 for w in weights), "fusion weights must be finite and >= 0")
    _require(abs(sum(weights) - 1.0) < 1e-6, f"fusion weights must sum to 1 (they sum to {sum(weights):.6g})")
    _require(f.w_geometry + f.w_iou + f.w_label > 0, "fusion needs a non-feature term")
    _require(0 < f.merge_threshold <= 1, "fusion.merge_threshold must be in (0, 1]")
    _require(0 <= f.reject_confidence <= 1, "fusion.reject_confidence must be in [0, 1]")
    _require(f.candidate_dilation >= 0, "fusion.candidate_dilation must be >= 0")
    _require(f.geometry_scale > 0, "fusion.geometry_scale must be > 0")
    _require(f.box_padding >= 0, "fusion.box_padding must be >= 0")
    _require(f.box_clamp_factor >= 0.5, "fusion.box_clamp_factor must be >= 0.5")
    _require(1.0 <= f.box_growth_factor <= 1000.0, "fusion.box_growth_factor must be in [1, 1000]")
    _require(f.mean_box_after >= 0, "fusion.mean_box_after must be >= 0")
    _require(f.mean_box_below >= 0, "fusion.mean_box_below must be >= 0")
    _require(0 < f.confidence_gain <= 1, "fusion.confidence_gain must be in (0, 1]")
    _require(f.label_mode in ("exact", "embedding"), "fusion.label_mode must be exact or embedding")
    _require(f.same_place_tol >= 0, "fusion.same_place_tol must be >= 0")
    _require(f.same_place_ratio >= 1, "fusion.same_place_ratio must be >= 1")
    _require(0 <= f.same_place_iou <= 1, "fusion.same_place_iou must be in [0, 1]")
    _require(f.recent_s >= 0, "fusion.recent_s must be >= 0")
    _require(0 <= f.confusion_min_share <= 1, "fusion.confusion_min_share must be in [0, 1]")
    _require(f.confusion_min_mass >= 0, "fusion.confusion_min_mass must be >= 0")
    _require(f.relabel_margin >= 1, "fusion.relabel_margin must be >= 1")
    _require(f.relabel_lead > 0, "fusion.relabel_lead must be > 0")
    _require(f.label_look_cap >= 0, "fusion.label_look_cap must be >= 0")
    _require(f.label_look_sectors >= 1, "fusion.label_look_sectors must be >= 1")
    _require(f.label_look_gap_s >= 0, "fusion.label_look_gap_s must be >= 0")
    i = cfg.identity
    _require(-1 <= i.feature_threshold <= 1, "identity.feature_threshold must be in [-1, 1]")
    _require(i.min_gap_s >= 0, "identity.min_gap_s must be >= 0")
    _require(0 <= i.move_window_share <= 1, "identity.move_window_share must be in [0, 1]")
    _require(i.scan_limit >= 1, "identity.scan_limit must be >= 1")
    _require(i.extend_factor >= 0, "identity.extend_factor must be >= 0")
    _require(i.extend_min_extent >= 0, "identity.extend_min_extent must be >= 0")
    _require(0 <= i.push_min_point_share <= 1, "identity.push_min_point_share must be in [0, 1]")
    _require(0 <= i.held_in_misses_share <= 1, "identity.held_in_misses_share must be in [0, 1]")
    _require(i.same_place_distance >= 0, "identity.same_place_distance must be >= 0")
    _require(i.reconcile_window_s >= 0, "identity.reconcile_window_s must be >= 0")
    _require(i.unseen_join_s >= 0, "identity.unseen_join_s must be >= 0")
    _require(i.unseen_join_evidence >= 0, "identity.unseen_join_evidence must be >= 0")
    _require(i.unseen_join_look_misses >= 0, "identity.unseen_join_look_misses must be >= 0")
    _require(i.mover_window_s >= 0, "identity.mover_window_s must be >= 0")
    _require(i.appear_hold_s >= 0, "identity.appear_hold_s must be >= 0")
    _require(i.confirm_observations >= 1, "identity.confirm_observations must be >= 1")
    _require(i.confirm_gap_s > 0, "identity.confirm_gap_s must be > 0")
    _require(i.confirm_turns_m >= 0, "identity.confirm_turns_m must be >= 0")
    _require(i.brief_move_min_weight >= 0, "identity.brief_move_min_weight must be >= 0")
    _require(i.move_width_ratio == 0 or i.move_width_ratio >= 1, "identity.move_width_ratio must be 0 (off) or >= 1")
    _require(i.extend_whole_ratio == 0 or i.extend_whole_ratio >= 1,
             "identity.extend_whole_ratio must be 0 (off) or >= 1")
    a = cfg.absence
    _require(a.misses_to_remove >= 1, "absence.misses_to_remove must be >= 1")
    _require(a.min_absence_s >= 0, "absence.min_absence_s must be >= 0")
    _require(a.short_look_misses >= 0, "absence.short_look_misses must be >= 0")
    _require(a.short_look_s >= 0, "absence.short_look_s must be >= 0")
    _require(0 < a.short_look_clear_fraction <= 1, "absence.short_look_clear_fraction must be in (0, 1]")
    _require(a.min_range >= 0, "absence.min_range must be >= 0")
    _require(a.occlusion_tolerance >= 0, "absence.occlusion_tolerance must be >= 0")
    _require(0 < a.min_visible_fraction <= 1, "absence.min_visible_fraction must be in (0, 1]")
    _require(0 < a.partly_visible_fraction <= 1, "absence.partly_visible_fraction must be in (0, 1]")
    _require(a.partial_look_furniture_min_height_m >= 0, "absence.partial_look_furniture_min_height_m must be >= 0")
    _require(0 <= a.neighbour_held_share <= 1, "absence.neighbour_held_share must be in [0, 1]")
    _require(0 <= a.neighbour_place_share <= 1, "absence.neighbour_place_share must be in [0, 1]")
    _require(a.partly_visible_factor >= 0, "absence.partly_visible_factor must be >= 0")
    _require(a.min_projected_px >= 0, "absence.min_projected_px must be >= 0")
    _require(a.detectable_factor >= 0, "absence.detectable_factor must be >= 0")
    _require(0 < a.mask_fill <= 1, "absence.mask_fill must be in (0, 1]")
    _require(a.reported_view_m >= 0, "absence.reported_view_m must be >= 0")
    _require(0 <= a.sighted_floor_share < 1, "absence.sighted_floor_share must be in [0, 1)")
    _require(a.reported_view_sightings >= 1, "absence.reported_view_sightings must be >= 1")
    _require(0 <= a.edge_pose_deg < 10, "absence.edge_pose_deg must be in [0, 10)")
    _require(a.edge_place_m >= 0, "absence.edge_place_m must be >= 0")
    _require(a.look_gap_s > 0, "absence.look_gap_s must be > 0")
    _require(a.evidence_to_remove > 0, "absence.evidence_to_remove must be > 0")
    _require(a.removal_hold_s >= 0, "absence.removal_hold_s must be >= 0")
    r = cfg.rejection
    _require(r.cell_size > 0, "rejection.cell_size must be > 0")
    _require(r.promote_mass > 0 and r.promote_count >= 1, "rejection.promote_* must be positive")
    rel = cfg.relations
    _require(rel.near_distance >= 0 and rel.on_max_gap >= 0 and rel.on_max_sink >= 0,
             "relations distances must be >= 0")
    _require(0 < rel.on_min_footprint_overlap <= 1, "relations.on_min_footprint_overlap must be in (0, 1]")
    _require(len(rel.seat_band) == 2 and 0 <= rel.seat_band[0] < rel.seat_band[1] <= 1,
             "relations.seat_band must be two fractions lo < hi in [0, 1]")
    s = cfg.semantic
    _require(0 <= s.label_weight <= 1, "semantic.label_weight must be in [0, 1]")
    _require(cfg.max_label_length >= 1, "max_label_length must be >= 1")
    t = cfg.retention
    _require(t.mode in RETENTION_MODES, f"retention.mode must be one of {' | '.join(RETENTION_MODES)}")
    _require(math.isfinite(t.settle_s) and t.settle_s > 0, "retention.settle_s must be > 0 (the newest frame is "
             "never thinned: it is the memory's clock)")
    _require(math.isfinite(t.compact_every_s) and t.compact_every_s >= 0, "retention.compact_every_s must be >= 0")
    _require(t.max_frames_per_pass >= 1, "retention.max_frames_per_pass must be >= 1")
    _require(t.max_sightings_per_pass >= 1, "retention.max_sightings_per_pass must be >= 1")
    _require(math.isfinite(t.twin_hold_s) and t.twin_hold_s >= 0, "retention.twin_hold_s must be >= 0")
    _require(t.time_samples >= 1, "retention.time_samples must be >= 1")
    _require(t.viewpoint_sectors >= 0, "retention.viewpoint_sectors must be >= 0")
    _require(all(isinstance(b, (int, float)) and math.isfinite(b) and b > 0 for b in t.range_bands)
             and list(t.range_bands) == sorted(set(t.range_bands)),
             "retention.range_bands must be increasing distances > 0")
    _require(t.recent_per_placement >= 5, "retention.recent_per_placement must be >= 5 (a removal cites the "
             "placement's last 5 sightings)")
    _require(t.observation_features in FEATURE_FORMATS,
             f"retention.observation_features must be one of {' | '.join(FEATURE_FORMATS)}")
    _require(isinstance(cfg.source, str) and SOURCE_PATTERN.fullmatch(cfg.source) is not None,
             f"source must be {SOURCE_RULE} (got {cfg.source!r})")
    g = cfg.gates
    _require(0 < g.world_bound <= 1e7, "gates.world_bound must be in (0, 1e7] metres (the R*Tree stores float32)")
    _require(0 < g.max_extent <= 2 * g.world_bound, "gates.max_extent must be in (0, 2 * gates.world_bound]")
    _require(0 < g.max_stamp_ahead_s <= 2**31, "gates.max_stamp_ahead_s must be in (0, 2**31] seconds")
    _require(0 < g.max_stamp_jump_s <= 2**31, "gates.max_stamp_jump_s must be in (0, 2**31] seconds")
    _require(1 <= g.jump_confirm_frames <= 1000, "gates.jump_confirm_frames must be in 1..1000")
    _require(0 <= g.max_frame_spread_s <= 2**31, "gates.max_frame_spread_s must be in [0, 2**31] seconds")
    _require(0 < g.min_feature_norm < g.max_feature_norm <= 1e15,
             "gates feature norms must satisfy 0 < min_feature_norm < max_feature_norm <= 1e15")
    _require(1 <= g.max_observations <= 65535, "gates.max_observations must be in 1..65535")
    _require(1 <= g.max_question_length <= 1_000_000, "gates.max_question_length must be in 1..1000000")


# ------------------------------------------------------------------ the settings as a flat table
#: Choices of the text-valued settings (validate() refuses anything else).
FIELD_CHOICES: dict[str, tuple[str, ...]] = {
    "fusion.label_mode": ("exact", "embedding"),
    "retention.mode": RETENTION_MODES,
    "retention.observation_features": FEATURE_FORMATS,
}

#: The range every numeric setting may take: what validate() accepts, with an upper bound past which no value
#: is meaningful. A ROS node advertises them in its parameter descriptors (nodes/parameters.py); validate()
#: stays the authority (some rules relate two settings, e.g. the fusion weights sum to 1).
FIELD_RANGES: dict[str, tuple[float, float]] = {
    "fusion.w_geometry": (0.0, 1.0), "fusion.w_iou": (0.0, 1.0), "fusion.w_feature": (0.0, 1.0),
    "fusion.w_label": (0.0, 1.0), "fusion.merge_threshold": (0.01, 1.0), "fusion.reject_confidence": (0.0, 1.0),
    "fusion.candidate_dilation": (0.0, 10.0), "fusion.geometry_scale": (0.001, 10.0),
    "fusion.box_padding": (0.0, 1.0), "fusion.box_clamp_factor": (0.5, 100.0),
    "fusion.box_growth_factor": (1.0, 1000.0), "fusion.mean_box_after": (0, 1000000),
    "fusion.mean_box_below": (0.0, 100.0), "fusion.size_quantile_after": (0, 1000000),
    "fusion.size_quantile": (0.5, 1.0), "fusion.size_step": (0.0, 0.5),
    "fusion.size_quantile_below": (0.0, 100.0), "fusion.size_consensus_share": (0.0, 1.0),
    "fusion.confidence_gain": (0.001, 1.0),
    "fusion.same_place_tol": (0.0, 1.0), "fusion.same_place_ratio": (1.0, 100.0),
    "fusion.same_place_iou": (0.0, 1.0), "fusion.recent_s": (0.0, 86400.0),
    "fusion.confusion_min_share": (0.0, 1.0), "fusion.confusion_min_mass": (0.0, 1e6),
    "fusion.relabel_margin": (1.0, 100.0), "fusion.relabel_lead": (0.001, 1e6),
    "fusion.label_look_cap": (0.0, 1e6), "fusion.label_look_sectors": (1, 360),
    "fusion.label_look_gap_s": (0.0, 86400.0),
    "identity.feature_threshold": (-1.0, 1.0), "identity.min_gap_s": (0.0, 86400.0),
    "identity.move_window_share": (0.0, 1.0),
    "identity.scan_limit": (1, 1000000), "identity.extend_factor": (0.0, 100.0),
    "identity.extend_min_extent": (0.0, 100.0), "identity.same_place_distance": (0.0, 100.0),
    "identity.push_min_point_share": (0.0, 1.0),
    "identity.held_in_misses_share": (0.0, 1.0),
    "identity.reconcile_window_s": (0.0, 86400.0), "identity.appear_hold_s": (0.0, 86400.0),
    "identity.unseen_join_s": (0.0, 86400.0), "identity.unseen_join_evidence": (0.0, 1000.0),
    "identity.unseen_join_look_misses": (0, 1000),
    "identity.mover_window_s": (0.0, 86400.0),
    "identity.confirm_observations": (1, 1000), "identity.confirm_gap_s": (0.001, 86400.0),
    "identity.confirm_turns_m": (0.0, 100.0),
    "identity.brief_move_min_weight": (0.0, 1e6),
    "identity.move_width_ratio": (0.0, 100.0), "identity.extend_whole_ratio": (0.0, 100.0),
    "absence.misses_to_remove": (1, 1000), "absence.min_absence_s": (0.0, 86400.0),
    "absence.short_look_misses": (0, 1000), "absence.short_look_s": (0.0, 86400.0),
    "absence.short_look_clear_fraction": (0.001, 1.0),
    "absence.min_range": (0.0, 100.0), "absence.occlusion_tolerance": (0.0, 10.0),
    "absence.image_margin_px": (0.0, 10000.0), "absence.min_visible_fraction": (0.001, 1.0),
    "absence.partly_visible_fraction": (0.001, 1.0), "absence.partly_visible_factor": (0.0, 1000.0),
    "absence.partial_look_furniture_min_height_m": (0.0, 10.0), "absence.neighbour_held_share": (0.0, 1.0),
    "absence.neighbour_place_share": (0.0, 1.0),
    "identity.glimpse_s": (0.0, 86400.0), "identity.glimpse_host_ratio": (0.0, 1000.0),
    "identity.label_share": (0.01, 1.0), "identity.part_confusion_share": (0.0, 1.0),
    "absence.min_projected_px": (0.0, 1e7), "absence.detectable_factor": (0.0, 1000.0),
    "absence.mask_fill": (0.001, 1.0), "absence.reported_view_m": (0.0, 100.0),
    "absence.sighted_floor_share": (0.0, 0.99),
    "absence.reported_view_sightings": (1, 100), "absence.edge_pose_deg": (0.0, 9.9),
    "absence.edge_place_m": (0.0, 1.0),
    "absence.look_gap_s": (0.001, 86400.0),
    "absence.evidence_to_remove": (0.001, 1000.0), "absence.removal_hold_s": (0.0, 86400.0),
    "rejection.cell_size": (0.001, 100.0), "rejection.promote_mass": (0.001, 1000.0),
    "rejection.promote_count": (1, 1000),
    "relations.on_max_gap": (0.0, 10.0), "relations.on_max_sink": (0.0, 10.0),
    "relations.on_min_footprint_overlap": (0.001, 1.0), "relations.near_distance": (0.0, 100.0),
    "relations.shelf_min_board_height": (0.0, 10.0), "relations.relation_box_epsilon": (0.0, 10.0),
    "semantic.label_weight": (0.0, 1.0), "semantic.keyword_bonus": (0.0, 10.0), "semantic.min_score": (-1.0, 10.0),
    "semantic.clip_candidates": (1, 100000), "semantic.label_candidates": (1, 10000),
    "semantic.label_group_limit": (1, 1000000), "semantic.feature_matrix_budget_mb": (0.0, 1e6),
    "retention.settle_s": (1.0, 86400.0), "retention.compact_every_s": (0.0, 3600.0),
    "retention.max_frames_per_pass": (1, 10000000), "retention.max_sightings_per_pass": (1, 100000000),
    "retention.time_samples": (1, 100000), "retention.viewpoint_sectors": (0, 360),
    "retention.recent_per_placement": (5, 100000), "retention.twin_hold_s": (0.0, 31536000.0),
    "gates.world_bound": (1.0, 1e7), "gates.max_extent": (0.01, 1e4),
    "gates.max_stamp_ahead_s": (1.0, 2147483648.0), "gates.max_stamp_jump_s": (1.0, 2147483648.0),
    "gates.jump_confirm_frames": (1, 1000), "gates.max_frame_spread_s": (0.0, 2147483648.0),
    "gates.min_feature_norm": (1e-12, 1.0), "gates.max_feature_norm": (1.0, 1e15),
    "gates.max_observations": (1, 65535), "gates.max_question_length": (1, 1000000),
    "max_label_length": (1, 100000),
}

#: Settings that are not a memory's own choice of behaviour: the robot's id is set by whoever runs it.
NOT_SETTINGS = ("source",)


def flat_defaults() -> dict[str, object]:
    """Every setting of MemoryConfig as 'section.key' (or 'key') -> its default, in declaration order."""
    out: dict[str, object] = {}
    defaults = MemoryConfig()
    for f in dataclasses.fields(MemoryConfig):
        value = getattr(defaults, f.name)
        if dataclasses.is_dataclass(value):
            for g in dataclasses.fields(value):
                out[f"{f.name}.{g.name}"] = getattr(value, g.name)
        elif f.name not in NOT_SETTINGS:
            out[f.name] = value
    return out


def from_flat(values: dict[str, object], **top) -> MemoryConfig:
    """MemoryConfig from 'section.key' -> value (what a ROS node's parameters give; sequences may come as
    arrays), plus top-level keys such as source; validated like from_dict."""
    data: dict = dict(top)
    for key, value in values.items():
        if not isinstance(value, (str, bytes, dict)) and hasattr(value, "__len__"):
            value = list(value)  # a ROS double or string array (array.array, list) -> the tuple setting
        section, _, name = key.rpartition(".")
        if section:
            data.setdefault(section, {})[name] = value
        else:
            data[name] = value
    return MemoryConfig.from_dict(data)


def field_docs() -> dict[str, str]:
    """'section.key' -> the comment written beside the setting in this file, continuation lines joined ("..."
    marks that the setting reads together with its neighbour). Why parsed from the source: the comments are the
    one place the settings are explained (with the measurements behind them); a second copy would drift."""
    import inspect
    import sys

    sections = {type(getattr(MemoryConfig(), f.name)).__name__: f.name
                for f in dataclasses.fields(MemoryConfig) if dataclasses.is_dataclass(getattr(MemoryConfig(), f.name))}
    docs: dict[str, str] = {}
    section = key = None
    field_line = re.compile(r"^    (\w+): [^=]+= .*?(?:#\s?(.*))?$")
    for line in inspect.getsource(sys.modules[__name__]).splitlines():
        m = re.match(r"^class (\w+)", line)
        if m:
            section, key = sections.get(m.group(1)), None
            if m.group(1) == "MemoryConfig":
                section = ""
            continue
        if section is None:
            continue
        m = field_line.match(line)
        if m and not line.lstrip().startswith("#"):
            key = f"{section}.{m.group(1)}" if section else m.group(1)
            docs[key] = (m.group(2) or "").strip()
            continue
        cont = re.match(r"^\s{8,}#\s?(.*)$", line)
        if cont and key is not None:
            docs[key] = f"{docs[key]} {cont.group(1).strip()}".strip()
        elif line.strip():
            key = None
    return {k: v for k, v in docs.items() if v}
