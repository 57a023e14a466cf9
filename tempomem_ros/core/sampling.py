"""Which sightings of a placement are kept as evidence: a bounded sample spread over time and viewpoint.

Why these roles: an answer cites evidence, and the evidence worth keeping for a month is what shows the object
at that place from its first sighting on, from every side the camera saw it, under every label it was taken
for, and as last seen. A placement keeps

- its first sighting and its newest ``recent`` ones (a removal cites the placement's last five);
- the first sighting in each time bin, for the smallest power-of-two bin width (1 s, 2 s, 4 s, ...) that leaves
  at most ``time_samples`` non-empty bins: a 30-day stay keeps one sighting every two days or so, a 10-minute
  one one every minute. Bins are aligned to absolute time (multiples of their width), not to each stay's first
  sighting, so that the objects seen together keep their samples from the same frames (a frame is kept while a
  kept sighting refers to it): 11.94 -> 11.26 MB per robot-hour, features off (bench/bench_long_run.py
  --days 2 --continuous-min 12 --retention thin --features off; sizes do not depend on timing);
- the first sighting from each viewpoint: azimuth sector of the camera around the sighting x camera range band;
- the first sighting under each label;
- every sighting an event cites (``protected``).

Why it is stable: sightings arrive later than those already kept, so the first member of a bin or viewpoint
stays the first, and when the bins double in width the first of a merged bin is one already kept. A sighting
once dropped is never needed again, and the number kept per placement is bounded by
2 + recent + time_samples + sectors x bands + labels + cited, whatever the length of the stay.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from typing import NamedTuple

import numpy as np

BASE_BIN_S = 1.0
MAX_DOUBLINGS = 60


class Candidate(NamedTuple):
    id: int
    stamp: float
    label: str
    view: tuple[int, int] | None   # (azimuth sector, range band) of the camera, None without a camera pose
    protected: bool


def view_key(camera_xyz, centroid, sectors: int, bands) -> tuple[int, int] | None:
    """(sector, band) of a camera at ``camera_xyz`` looking at a sighting centred at ``centroid``."""
    if camera_xyz is None or sectors <= 0:
        return None
    dx, dy = float(camera_xyz[0]) - float(centroid[0]), float(camera_xyz[1]) - float(centroid[1])
    dist = math.sqrt(dx * dx + dy * dy + (float(camera_xyz[2]) - float(centroid[2])) ** 2)
    sector = int(math.floor((math.atan2(dy, dx) + math.pi) / (2 * math.pi) * sectors)) % sectors
    return sector, bisect_right(list(bands), dist)


def time_representatives(stamps: np.ndarray, ids: np.ndarray, limit: int) -> np.ndarray:
    """Ids of the first sighting of each bin, bins [k w, (k + 1) w) of the smallest width w = BASE_BIN_S x 2^j
    with at most ``limit`` non-empty bins. ``stamps``/``ids`` sorted by (stamp, id)."""
    width = BASE_BIN_S
    for _ in range(MAX_DOUBLINGS):
        bins = np.floor(stamps / width)
        firsts = np.flatnonzero(np.concatenate(([True], bins[1:] != bins[:-1])))
        if len(firsts) <= limit:
            return ids[firsts]
        width *= 2.0
    return ids[:1]


def keep(candidates: list[Candidate], *, time_samples: int, recent: int) -> set[int]:
    """Ids of the candidates to keep (the rest are counted in a tally and dropped)."""
    if not candidates:
        return set()
    order = sorted(candidates, key=lambda c: (c.stamp, c.id))
    kept = {order[0].id}
    kept.update(c.id for c in order[-recent:])
    kept.update(c.id for c in order if c.protected)
    stamps = np.array([c.stamp for c in order], dtype=float)
    ids = np.array([c.id for c in order], dtype=np.int64)
    kept.update(int(i) for i in time_representatives(stamps, ids, time_samples))
    views: set = set()
    labels: set = set()
    for c in order:
        if c.view is not None and c.view not in views:
            views.add(c.view)
            kept.add(c.id)
        if c.label not in labels:
            labels.add(c.label)
            kept.add(c.id)
    return kept
