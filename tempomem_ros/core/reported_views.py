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


def reported_near(camera: np.ndarray, poses: list, radius: float) -> set[int]:
    """The placements (ids) of ``poses`` ((placement_id, frame pose blob) pairs: the cameras of sightings whose
    masks cleared the detectable floor) with a camera within ``radius`` metres of ``camera``."""
    camera = np.asarray(camera, float)
    out: set[int] = set()
    for placement_id, pose in poses:
        if int(placement_id) in out:
            continue
        position = camera_position(None if pose is None else bytes(pose))
        if position is not None and float(np.linalg.norm(position - camera)) <= radius:
            out.add(int(placement_id))
    return out
