"""An object's size from the consensus of its views: a few large views that most views disagree with are outliers.

Why (docs/MEMORY.md, "An object's size follows the consensus of its views"): an object's size (ext) is the largest
single view for its first fusion.size_quantile_after sightings, and only a footprint under
fusion.size_quantile_below (0.8 m) lets it follow a quantile of its views afterwards (a table is seen end by end,
the quantile of its parts is a part). So a first view whose mask bled onto what is behind it made a small object
large for good: seed 346's backpack was 3.9 x 1.27 m from its first sighting while its 21 later views were 0.3 m,
its box reached 1.4 m from where it stood and its own views read "bag" became a second object; in the stores of
seeds 328, 330, 333, 336, 337 a stool was 1.3-2.0 m against a median view of 0.35 m, seed 328's wallet 0.82 m
against 0.10 m.

The rule: the views of the object's current placement agree that it is small when at least ``share`` of them have
a footprint under ``below`` **and** the union of those small views is itself under ``below`` (they show one small
thing at one place) **and** every other view is more than fusion.box_growth_factor (2) x that span (no view of
the object whole, which the growth bound would have let in). Then the other views (fewer than 1 - ``share`` of
them) are outliers, and the object's geometry is the fold of the agreeing views alone. A table or a sofa first
seen in part keeps growing: its views are parts spread over it, so the union of its small views is as large as
the table (or its large views are many, or no more than twice its parts).

The same rule for an object seen whole most of the time, whatever its size (``outliers_by_axis``): a shelf 1.0 m
wide is never "small", yet its whole views agree on its box as a backpack's do. Where at least ``share`` of the
views are no more than fusion.box_growth_factor x the median view on each floor axis, and every other view is more
than that factor x the union of those views on some floor axis, the others are outliers (a mask bled onto the floor
in front of the shelf), and the object is the fold of the rest. Parts of a sofa still stay: together they span it,
and its whole views are within twice that.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from . import refold
from .config import FusionConfig


def footprint(lo: Sequence[float], hi: Sequence[float]) -> float:
    """The longer floor side of a box (x, y)."""
    return max(float(hi[0]) - float(lo[0]), float(hi[1]) - float(lo[1]))


def agreeing_views(boxes: Sequence[tuple[Sequence[float], Sequence[float]]], below: float, share: float,
                   outlier_factor: float) -> list[int] | None:
    """The indices of the views that agree the object is small, or None when they do not outvote the rest.

    ``boxes``: (lo, hi) of each view. None when every view is small (nothing to leave out), when fewer than
    ``share`` of them are small, when the small views together span ``below`` or more (parts of a large object),
    or when a view left out is no more than ``outlier_factor`` x the span of the small views together (it may be
    the object seen whole: a shelf seen 8 times as its 0.63 m left part, twice whole at 0.91 m, seed 330; a counter
    0.71 m in parts, 1.22 m whole, seed 322). Why that factor is fusion.box_growth_factor: it is what one view may
    bring into an object of known size; the bled first view came in whole only because no size was known yet."""
    if not boxes or share <= 0.0 or below <= 0.0:
        return None
    small = [i for i, (lo, hi) in enumerate(boxes) if footprint(lo, hi) < below]
    if len(small) == len(boxes) or len(small) < share * len(boxes):
        return None
    lo = [min(float(boxes[i][0][k]) for i in small) for k in (0, 1)]
    hi = [max(float(boxes[i][1][k]) for i in small) for k in (0, 1)]
    span = footprint(lo, hi)
    if span >= below:
        return None
    kept = set(small)
    if any(footprint(*boxes[i]) <= outlier_factor * span for i in range(len(boxes)) if i not in kept):
        return None
    return small


def outliers_by_axis(boxes: Sequence[tuple[Sequence[float], Sequence[float]]], share: float,
                     factor: float) -> list[int] | None:
    """The indices of the views that agree on the object's box when it is large, or None when no view is an outlier
    or the outliers are too many.

    A view is a candidate outlier when it is longer than ``factor`` x the median view on a floor axis (x or y);
    they must be fewer than 1 - ``share`` of the views, and each must be longer than ``factor`` x the union of the
    other views on a floor axis (no part of the object seen from elsewhere reaches there: a view of it whole would
    be within that union's twice). Why: held-out seeds 378 and 379 (no feature): a shelf (0.35 x 1.0 m) was
    placed 0.6-0.7 m from where it stands, its fused box stretched to 1.55 m and 2.15 m deep by one view at 8 s
    (23 points bled 1.3 m onto the floor in front of it) and five views in one second at 1210 s (1.6-1.9 m deep,
    toward the stool in front), against 648 and 474 views 0.4-0.5 m deep: a missed and a false shelf in the final
    map and every question on it wrong; the "small" rule above did not apply, the shelf's views span 1.0 m."""
    if not boxes or share <= 0.0:
        return None
    ext = [[float(hi[k]) - float(lo[k]) for k in (0, 1)] for lo, hi in boxes]
    median = [statistics.median(e[k] for e in ext) for k in (0, 1)]
    over = {i for i, e in enumerate(ext) if any(e[k] > factor * median[k] for k in (0, 1))}
    if not over or len(over) > (1.0 - share) * len(boxes):
        return None
    agree = [i for i in range(len(boxes)) if i not in over]
    span = [max(float(boxes[i][1][k]) for i in agree) - min(float(boxes[i][0][k]) for i in agree) for k in (0, 1)]
    if any(all(ext[i][k] <= factor * span[k] for k in (0, 1)) for i in over):
        return None
    return agree


def refold_outvoted(rows: Sequence, cfg: FusionConfig) -> tuple[refold.FoldState, list[int]] | None:
    """The fold of the placement's sightings ``rows`` (stamp order, as core/refold.py reads them) that agree the
    object is small, with the ids of the sightings left out; None when the rule is off
    (fusion.size_consensus_share 0), when there are fewer than fusion.size_quantile_after sightings (the size is
    still their largest view by design), or when the views do not outvote the large ones (agreeing_views, with
    fusion.box_growth_factor as the outlier factor)."""
    share, after, below = cfg.size_consensus_share, cfg.size_quantile_after, cfg.size_quantile_below
    if share <= 0.0 or after <= 0 or len(rows) < after:
        return None
    boxes = [((r["min_x"], r["min_y"], r["min_z"]), (r["max_x"], r["max_y"], r["max_z"])) for r in rows]
    agree = agreeing_views(boxes, below, share, cfg.box_growth_factor)
    if agree is None:
        agree = outliers_by_axis(boxes, share, cfg.box_growth_factor)
    if agree is None:
        return None
    kept = set(agree)
    return refold.fold(None, [rows[i] for i in agree], cfg), [int(r["id"]) for i, r in enumerate(rows)
                                                              if i not in kept]
