"""A view from where the object was reported can report it: the measurement beside the estimate.

The absence test counts a miss only where the perception would have reported the object (absence.py): it
estimates the object's eroded mask from its stored box, and a box smaller than the thing (the kept box of a
small object is what its noisy, trimmed depth points spanned: glasses 14 x 6 x 4 cm kept as 7 x 5 x 2 cm)
makes the estimate far too small. The object's own sightings measure what the estimate guesses: a sighting
whose mask kept at least the detectable floor of points, taken from a camera standing within
``absence.reported_view_m`` of this view's camera (the same range and nearly the same side, so nearly the same
mask), shows that a view from here reports it. Such a view may count a miss whatever the estimate says; the
other tests (in the image, in range, depth not nearer than its place) still decide. Only sightings at the
object's current placement count: a thing seen elsewhere says nothing of this place's view.

Why: seed 348 (no feature), glasses on a shelf were reported from two patrol stations at 50-135 px eleven times
over 15 minutes; taken away, the same stations looked at their place twice (8 and 7 frames), where the estimate
gave them 3-10 px, under the 20 px floor: they never counted a miss and stayed present to the end (a missed
removal, two "what changed" questions).
"""

from __future__ import annotations

import numpy as np

from .retention import camera_position


def reported_near(camera: np.ndarray, poses: list, radius: float, need: int = 1) -> set[int]:
    """The placements (ids) of ``poses`` ((placement_id, ..., frame pose blob) rows, one per frame: the cameras of
    sightings whose masks cleared the detectable floor) with at least ``need`` cameras within ``radius`` metres of
    ``camera``.

    Why ``need`` (absence.reported_view_sightings): one sighting is no measurement of what a view reports. Seed
    467 (h460, default): keys reported once at 4.7 m with a 23 px mask (their box estimated at 0.2 px there; the
    same keys gave 13-18 px from 3.6-4.2 m) vouched for a view from beside that camera minutes later, whose misses
    removed the keys while they stood there; a second sighting from near the same camera shows the mask was no
    lucky one."""
    camera = np.asarray(camera, float)
    count: dict[int, int] = {}
    out: set[int] = set()
    for row in poses:
        placement_id, pose = row[0], row[-1]
        if int(placement_id) in out:
            continue
        position = camera_position(None if pose is None else bytes(pose))
        if position is not None and float(np.linalg.norm(position - camera)) <= radius:
            count[int(placement_id)] = count.get(int(placement_id), 0) + 1
            if count[int(placement_id)] >= need:
                out.add(int(placement_id))
    return out
