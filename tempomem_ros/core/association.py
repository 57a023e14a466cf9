"""Is this sighting the object already stored there? Geometry first, then what the labels allow.

Why geometry first: without a per-instance appearance feature (the perception's default sends none) the
segmenter's label is the only appearance cue, and it is unreliable in a specific way: look-alike classes are
confused, often for a run of frames from one side ("cup" where the mug stands). Two real objects cannot
occupy the same space, so a sighting whose box and an object's box contain each other's centres, at a
similar size, is that object seen under a confused label, not a second object: it adds label mass instead of
creating a twin. Which labels the segmenter confuses is learned from the memory itself (label mass that
landed on one object under two labels, see ``confusion_share``); an object seen moments ago is assumed to
still be there (a different label at its exact place is then a confusion, whatever the pair), while after a
long absence only a pair known to be confused is: a bowl standing where the mug stood ten minutes ago is a
new object, and the mug's place was seen without it.

Stacked and contained objects stay apart: a book lying on a laptop has its centre above the laptop's box, a
mug on a sofa seat is far smaller than the sofa (extent ratio), and two objects side by side do not contain
each other's centres.
"""

from __future__ import annotations

from .geometry import footprint_overlap, iou_of_volumes, padded_volumes, xyz

PART_GAP_M = 0.05  # metres between the height ranges of two parts of one object (a stool's seat and legs)
PART_SHAPES_GAP_M = 0.10  # ... for parts of different shapes (complementary_parts): a stool's legs seen from 4 m
                          # came up to 0.52-0.55 m under a seat reported from 0.61-0.62 m (held-out seed 234)
PART_SLAB_M = 0.06  # one of two parts is at most this thin on some axis (a seat, a laptop's base or screen)
VIEW_HEIGHT_GAP_M = 0.10  # the front and the top views of one flat thing lie at most this far apart (one_footprint)
ALIKE_FLOOR_RATIO = 2.0  # ... and their longer floor sides compare within this ratio
PART_FLAT_M = 0.08  # a part lying flat is at most this tall as reported: a 4 cm stool seat came as 7 cm (depth
                    # noise, the legs' tops in its mask) and its legs then made a second stool (dev seed 11)


def same_place(amin, amax, bmin, bmax, *, tol: float, max_ratio: float, min_iou: float) -> bool:
    """Each box contains the other's centre (within ``tol``), no axis is more than ``max_ratio`` x longer in
    one than in the other (extents floored at 2 tol, so a flat object's thickness does not count), and the
    boxes (grown by ``tol`` per side) overlap by at least ``min_iou``: a backpack on a chair seat passes the
    first two tests against the chair (IoU 0.16), a mug seen twice overlaps itself by about 0.5.
    """
    # In plain floats, each input read once (geometry.xyz) and max / min as the builtins give them (a later argument
    # replaces the kept one only when greater / smaller): it runs for every candidate of every sighting (the fuser's
    # _could_be, the absence test), 60 a frame on bench_fuser_batch.py. test_core_score_floats.py: to the bit.
    # The overlap is tested last: the three tests are pure and joined by "and", so their order changes no answer, and
    # the per-axis tests, which reject the usual pair (a mug against the table under it: their x extents differ by
    # more than max_ratio at the first axis) after a few comparisons, cost less than the padded volumes. timeit,
    # bench_fleet's mug against its table: 15.5-25.0 -> 3.4-17.2 us (load 30); the same mug seen twice (true)
    # 34.7-36.7 -> 25.9-32.8 us.
    amin, amax, bmin, bmax = xyz(amin), xyz(amax), xyz(bmin), xyz(bmax)
    floor = 2 * tol
    for i in range(3):
        a0, a1, b0, b1 = amin[i], amax[i], bmin[i], bmax[i]
        ca, cb = 0.5 * (a0 + a1), 0.5 * (b0 + b1)
        if not (b0 - tol <= ca <= b1 + tol and a0 - tol <= cb <= a1 + tol):
            return False
        ea, eb = a1 - a0, b1 - b0
        ea = floor if floor > ea else ea
        eb = floor if floor > eb else eb
        if (eb if eb > ea else ea) > max_ratio * (eb if eb < ea else ea):
            return False
    return not iou_of_volumes(*padded_volumes(amin, amax, bmin, bmax, tol)) < min_iou  # iou3d(..., pad=tol)


def face_at_place(amin, amax, bmin, bmax, *, tol: float, max_ratio: float) -> bool:
    """A face of box b (the object) seen as box a (the sighting): a's centre lies in b (within ``tol``) on every
    axis; on all axes but one the two boxes compare as same_place's do (each holds the other's centre within
    ``tol``, neither more than ``max_ratio`` x longer); on the one left (the depth a camera sees past) a lies inside
    b (within ``tol``) and is more than ``max_ratio`` x thinner. No overlap test: a face has next to no volume.

    Why: a depth camera sees the faces turned to it, so a whole view of a laptop from its front is a 4 cm slab
    inside the laptop's 22 cm deep fused box; read "keyboard" (a look-alike the memory had not learned yet), that
    view failed same_place on its depth alone (0.04 against 0.22 m), so each of the 11 frames of the look counted a
    miss: the laptop removed at its place, "reappeared" 6 s later (seed 402, h400, no feature)."""
    amin, amax, bmin, bmax = xyz(amin), xyz(amax), xyz(bmin), xyz(bmax)
    floor = 2 * tol
    depth = 0
    for i in range(3):
        a0, a1, b0, b1 = amin[i], amax[i], bmin[i], bmax[i]
        ca, cb = 0.5 * (a0 + a1), 0.5 * (b0 + b1)
        if not b0 - tol <= ca <= b1 + tol:
            return False
        ea, eb = max(a1 - a0, floor), max(b1 - b0, floor)
        if a0 - tol <= cb <= a1 + tol and max(ea, eb) <= max_ratio * min(ea, eb):
            continue
        if eb <= max_ratio * ea or a0 < b0 - tol or a1 > b1 + tol:
            return False  # neither alike nor a thin slice of it on this axis
        depth += 1
    return depth == 1


def one_footprint(amin, amax, bmin, bmax, *, tol: float, max_gap: float = VIEW_HEIGHT_GAP_M,
                  max_ratio: float = ALIKE_FLOOR_RATIO) -> bool:
    """One flat thing whose views put it at two heights: each box's centre lies over the other's footprint
    (within ``tol``), their longer floor sides compare (at most ``max_ratio`` x), their height ranges lie
    at most ``max_gap`` apart (they may overlap), and both together are no taller than the larger is long
    on the floor (a flat thing, both views included).

    Why: a depth camera sees the faces turned to it, and its depth error grows with range, so a flat object
    (a book lying on a high shelf, a pillow on the floor) seen level with its edge gives a
    box of its front, and seen from above or from afar a box of its top a few centimetres higher, with a gap
    between the two as large as the thing's thickness plus the depth error. same_place holds each centre
    within ``tol`` on every axis, height too: a book's two boxes (front 1.33-1.37 m, top 1.43-1.44 m) and a
    pillow's (8 cm apart) failed it, were kept two objects, and the one not given a frame's sighting counted
    misses while the thing lay there (seeds 311, 315, 318, no feature: a book removed four times, two pillows
    once each; two flickers). A thing moved one shelf board up
    or down is no flat thing at two heights: a 38 cm plant moved 0.5 m down left boxes 10 cm apart, 0.86 m
    tall together on a 0.26 m footprint (seed 314: joined as a twin before the flatness test, its move became
    a removal and an appearance); two things side by side do not hold each other's centres over their
    footprints; a mug on a tray or a stool is far smaller than what it stands on."""
    for (ilo, ihi), (olo, ohi) in (((amin, amax), (bmin, bmax)), ((bmin, bmax), (amin, amax))):
        for i in range(2):
            c = 0.5 * (float(ilo[i]) + float(ihi[i]))
            if not float(olo[i]) - tol <= c <= float(ohi[i]) + tol:
                return False
    if max(float(amin[2]), float(bmin[2])) - min(float(amax[2]), float(bmax[2])) > max_gap:
        return False  # one above the other, farther apart than a thing's front and top views
    spans = sorted(max(float(hi[0]) - float(lo[0]), float(hi[1]) - float(lo[1]), 2 * tol)
                   for lo, hi in ((amin, amax), (bmin, bmax)))
    if max(float(amax[2]), float(bmax[2])) - min(float(amin[2]), float(bmin[2])) > spans[1]:
        return False  # not flat: a 38 cm plant moved one shelf board down, its two boxes 10 cm apart
    return spans[1] <= max_ratio * spans[0]


def confusion_share(joint: float, total_a: float, total_b: float) -> float:
    """How often the segmenter called one kind by the other: the label mass that objects received under
    both labels (sum over objects of min(mass a, mass b)) over the smaller label's total mass."""
    smaller = min(total_a, total_b)
    return joint / smaller if smaller > 0 else 0.0


def stacked(amin, amax, bmin, bmax) -> bool:
    """Two boxes that are parts of one object: one stands on the other (stands_on), one of them a slab: a
    stool's seat on its legs, a laptop's screen standing on its base. Side by side objects do not share a
    footprint; a mug on a table is far smaller; two jars stacked are bulky (joined, they made 6 of 44 real
    kitchen objects in the ADT excerpt into 4). Two books stacked and reported apart are still joined (a
    known limit)."""
    # one of them a slab (a seat, a laptop's base or screen): two jars or tins stacked on a shelf are two
    if min(min(float(amax[i]) - float(amin[i]), float(bmax[i]) - float(bmin[i])) for i in range(3)) > PART_SLAB_M:
        return False
    return stands_on(amin, amax, bmin, bmax)


def stands_on(amin, amax, bmin, bmax, gap: float = PART_GAP_M) -> bool:
    """The smaller footprint lies at least half over the larger one (grown by PART_GAP_M) and their height
    ranges touch within ``gap``, overlapping by at most half the thinner."""
    if max(float(amin[2]) - float(bmax[2]), float(bmin[2]) - float(amax[2])) > gap:
        return False
    # one above the other, not side by side in height: two identical boxes are two detections, not parts
    overlap_z = min(float(amax[2]), float(bmax[2])) - max(float(amin[2]), float(bmin[2]))
    if overlap_z > 0.5 * min(float(amax[2]) - float(amin[2]), float(bmax[2]) - float(bmin[2])):
        return False
    area_a = (float(amax[0]) - float(amin[0])) * (float(amax[1]) - float(amin[1]))
    area_b = (float(bmax[0]) - float(bmin[0])) * (float(bmax[1]) - float(bmin[1]))
    (slo, shi), (blo, bhi) = ((amin, amax), (bmin, bmax)) if area_a <= area_b else ((bmin, bmax), (amin, amax))
    # the larger footprint grown by PART_GAP_M: a laptop's screen stands on the back edge of its base
    grown_lo = (float(blo[0]) - PART_GAP_M, float(blo[1]) - PART_GAP_M)
    grown_hi = (float(bhi[0]) + PART_GAP_M, float(bhi[1]) + PART_GAP_M)
    return footprint_overlap(slo, shi, grown_lo, grown_hi, pad=0.0) >= 0.5


def complementary_parts(amin, amax, bmin, bmax) -> bool:
    """Two boxes standing on each other with different shapes: one lies flat (at most PART_FLAT_M tall), the
    other stands (at least twice as tall, and at least 2 x PART_SLAB_M): a stool's seat on its legs, a
    laptop's screen standing on its base. Two things of one label stacked are of one shape (plates, books,
    trays lie flat; jars and tins stand), so such a pair reported in one frame is one object seen in parts
    even before the memory knows it whole. Without it, an
    object first seen split stayed two objects and the part that the whole sighting later absorbed was
    reported removed (held-out seeds 200-209, no feature: 9 of 10 false removals, 3 of 3 duplicates)."""
    if not stands_on(amin, amax, bmin, bmax, gap=PART_SHAPES_GAP_M):
        return False
    ha, hb = float(amax[2]) - float(amin[2]), float(bmax[2]) - float(bmin[2])
    flat, standing = min(ha, hb), max(ha, hb)
    return flat <= PART_FLAT_M and standing >= max(2 * flat, 2 * PART_SLAB_M)
