"""Spatial relations between objects (on, under, near, in) and their incremental upkeep.

Rules (docs/MEMORY.md):
- on(S, A): S's footprint lies at least half over A's, S's footprint is not larger than A's, and S's
  bottom rests on one of A's support surfaces: within [surface - on_max_sink, surface + on_max_gap].
  Support surfaces of A, found from its box and its kind (the box top is not always where things rest):
    * every object: its box top;
    * seating (sofa, chair, bench, bed, ...): a seat anywhere in seat_band of its height (the box top of
      a sofa is its backrest, the seat is lower);
    * shelves (shelf, bookcase, ...): boards at unknown heights, so any height from the shelf's base
      (+ shelf_min_board_height) to its top; whatever rests there is both on and in the shelf.
- under(X, A) is the inverse of on: X is under A when A is on X. It is derived from the on rows.
- near(S, A): the gap between the two boxes is at most near_distance (symmetric).
- in(S, A): S's centroid lies inside a region's box, or inside the box of a container object (cabinet,
  drawer, fridge, box, ...) or a shelf.
Why incremental: a commit only touches a few objects; relations are recomputed for those (against their
neighbours from the spatial index), rows that stopped holding are closed (until = stamp) and new ones
opened (since = stamp). Old rows stay: relations have a validity interval like placements.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .config import RelationConfig
from .geometry import box_gap, footprint_overlap, point_in_box
from .labels import words


@dataclass(frozen=True)
class Thing:
    id: int
    label: str
    bmin: tuple
    bmax: tuple
    center: tuple
    confidence: float
    top: float | None = None      # running mean of sighted tops (robust support height); None = box top
    bottom: float | None = None   # running mean of sighted bottoms; None = box bottom

    @property
    def top_z(self) -> float:
        return self.bmax[2] if self.top is None else self.top

    @property
    def bottom_z(self) -> float:
        return self.bmin[2] if self.bottom is None else self.bottom


@functools.lru_cache(maxsize=4096)
def _kind_matches(label: str, vocabulary: tuple[str, ...]) -> bool:
    """Whether the label names one of the kinds (whole words); cached: labels repeat constantly."""
    lw = set(words(label))
    return any(set(words(v)) <= lw for v in vocabulary)


def support_surfaces(anchor: Thing, cfg: RelationConfig) -> list[tuple[float, float]]:
    """Height intervals [lo, hi] on which something can rest on the anchor."""
    top = anchor.top_z
    surfaces = [(top, top)]
    height = anchor.bmax[2] - anchor.bmin[2]
    if _kind_matches(anchor.label, cfg.seating_labels):
        lo, hi = cfg.seat_band
        surfaces.append((anchor.bmin[2] + lo * height, anchor.bmin[2] + hi * height))
    if _kind_matches(anchor.label, cfg.shelf_labels):
        surfaces.append((anchor.bmin[2] + cfg.shelf_min_board_height, top))
    return surfaces


def _footprint_area(t: Thing) -> float:
    return max(t.bmax[0] - t.bmin[0], 0.0) * max(t.bmax[1] - t.bmin[1], 0.0)


def is_on(s: Thing, a: Thing, cfg: RelationConfig) -> bool:
    if s.id == a.id or _footprint_area(s) > _footprint_area(a):
        return False
    if footprint_overlap(s.bmin, s.bmax, a.bmin, a.bmax) < cfg.on_min_footprint_overlap:
        return False
    bottom = s.bottom_z
    return any(lo - cfg.on_max_sink <= bottom <= hi + cfg.on_max_gap for lo, hi in support_surfaces(a, cfg))


def is_in_object(s: Thing, a: Thing, cfg: RelationConfig) -> bool:
    if s.id == a.id:
        return False
    if not (_kind_matches(a.label, cfg.container_labels) or _kind_matches(a.label, cfg.shelf_labels)):
        return False
    return point_in_box(s.center, a.bmin, a.bmax, tol=0.02)


def is_near(s: Thing, a: Thing, cfg: RelationConfig) -> bool:
    return s.id != a.id and box_gap(s.bmin, s.bmax, a.bmin, a.bmax) <= cfg.near_distance


def pair_relations(t: Thing, n: Thing, cfg: RelationConfig) -> set[tuple[int, str, int, int]]:
    """All relation rows (subject, relation, object, object_is_region) that hold between t and n."""
    rows: set[tuple[int, str, int, int]] = set()
    for s, a in ((t, n), (n, t)):
        if is_on(s, a, cfg):
            rows.add((s.id, "on", a.id, 0))
        if is_in_object(s, a, cfg):
            rows.add((s.id, "in", a.id, 0))
    if is_near(t, n, cfg):
        rows.add((t.id, "near", n.id, 0))
        rows.add((n.id, "near", t.id, 0))
    return rows
