"""A place seen only in part is weak evidence that it is empty: a look that showed it plainly in fewer frames than a
removal needs counts at most half a unit (absence.partial_look_waits).

The absence test counts a miss from a view that shows only part of a small object's place (under
``absence.min_visible_fraction`` of its samples, at least ``absence.partly_visible_fraction``: the partly-visible
rule of frame_fusion._resolved_in_part), because a segmenter reports a half-hidden thing it sees at hundreds of
pixels. But the frames of one look share one viewpoint: whatever hides half the thing (a shelf's side, a vase in
front of it, a board's edge) hides it in every frame, and a detector drops a half-hidden thing far more often than
a whole one. So a look whose misses include partial views and fewer than ``absence.misses_to_remove`` plain ones
(at least ``min_visible_fraction`` in view) adds at most ``PARTIAL_LOOK_UNITS`` = 0.5 of the one unit a removal
needs (persistence.py): a removal from partial views needs two such looks, or a plain one. Evidence accumulates
across looks and viewpoints; a thing seen elsewhere in the meantime is still taken as moved (settling decides a
move before this rule), and furniture is not judged here (its partial misses are the displaced-in-part test's).

Why: held-out seed 370 (no feature), a plant on a shelf's middle board, seen past the shelf's side from a station,
counted 13 misses in one 2 s look with 33-67 % of its samples in view (one frame saw 6 of 9; no pixel of it was
reported) and was removed at 1813.6 s while it stood there; seed 377, a vase on a shelf's top board counted 15
misses in one 1.5 s look at 44-56 % (read "bottle" in half of those frames, a label its object never had) and was
removed at 321.3 s, then "reappeared" at 507 s; seed 373, a shoe read "slipper" was removed from three partial
views in two patrol looks 386 s apart (one frame at 33 %, two at 44-56 %) and "reappeared" 753 s later.
"""

from __future__ import annotations

from collections.abc import Iterable

PARTIAL_LOOK_UNITS = 0.5   # at most this much evidence from a look with partial views and few plain ones


def _looks(misses: Iterable[tuple[float, float]], look_gap_s: float) -> list[list[tuple[float, float]]]:
    out: list[list[tuple[float, float]]] = []
    prev = None
    for stamp, fraction in misses:
        if prev is None or stamp - prev > look_gap_s:
            out.append([])
        out[-1].append((float(stamp), float(fraction)))
        prev = stamp
    return out


def seen_empty_since(misses: Iterable[tuple[float, float]], min_visible_fraction: float, look_gap_s: float,
                     misses_to_remove: int, evidence_to_remove: float) -> tuple[bool, float | None]:
    """Whether ``misses`` ((stamp, visible fraction) pairs in stamp order: the misses since the object's last
    sighting) show its place empty once partial looks are weighed (module docstring), and from when: the first
    miss of the first look with ``misses_to_remove`` plain misses, or of the look at which the weighed evidence
    reaches ``evidence_to_remove``; None when they do not show it."""
    total = 0.0
    for look in _looks(misses, look_gap_s):
        plain = sum(1 for _, f in look if f >= min_visible_fraction - 1e-9)
        if plain >= misses_to_remove:
            return True, look[0][0]
        units = min(1.0, len(look) / float(misses_to_remove))
        if plain < len(look):
            units = min(units, PARTIAL_LOOK_UNITS)
        total += units
        if total >= evidence_to_remove - 1e-9:
            return True, look[0][0]
    return False, None
