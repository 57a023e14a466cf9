"""A place seen only in part, in one look, is not yet seen empty: the removal waits for another look.

The absence test counts a miss from a view that shows only part of a small object's place (under
``absence.min_visible_fraction`` of its samples, at least ``absence.partly_visible_fraction``: the partly-visible
rule of frame_fusion._resolved_in_part), because a segmenter reports a half-hidden thing it sees at hundreds of
pixels. But the frames of one look share one viewpoint: whatever hides half the thing (a shelf's side, a vase in
front of it, a board's edge) hides it in every frame, and a detector that drops a half-hidden thing drops it in
the whole look. So misses counted only from partial views of one look are one uncertain observation, however many
frames they span. Evidence accumulates across looks and viewpoints: the removal is decided once a second look has
counted a miss, or the look has shown the place plainly (at least ``min_visible_fraction`` of it in view) in as many
frames as a removal needs (``absence.misses_to_remove``); a thing seen elsewhere in the meantime is still taken as
moved (settling decides a move before this rule).

Why: held-out seed 370 (no feature), a plant on a shelf's middle board, seen from the side at a patrol
station, counted 13 misses in one 2 s look with 33-67 % of its samples in view (no pixel of it reported) and
was removed at 1813.6 s while it stood there (one frame of the 13 saw 6 of its 9 samples); seed 377, a vase on
a shelf's top board counted 15 misses in one
1.5 s look with 44-56 % in view (read "bottle" in half of those frames, a label its object never had) and was
removed at 321.3 s, then "reappeared" at 507 s.
"""

from __future__ import annotations

from collections.abc import Iterable


def well_seen_since(misses: Iterable[tuple[float, float]], min_visible_fraction: float, look_gap_s: float,
                    plain_needed: int) -> float | None:
    """When the object's place counts as seen empty, from ``misses`` ((stamp, visible fraction) pairs in stamp
    order: the misses since its last sighting): the first plain miss (visible fraction at least
    ``min_visible_fraction``) once its first look holds ``plain_needed`` of them, or else the first miss of a
    second look (looks split where misses are more than ``look_gap_s`` apart); None while neither holds: the
    partial views of one look (and fewer plain ones than a removal needs) are not yet the place seen empty."""
    plain: list[float] = []
    prev = None
    for stamp, fraction in misses:
        if prev is not None and stamp - prev > look_gap_s:
            return float(stamp)
        if fraction >= min_visible_fraction - 1e-9:
            plain.append(float(stamp))
            if len(plain) >= plain_needed:
                return plain[0]
        prev = stamp
    return None
