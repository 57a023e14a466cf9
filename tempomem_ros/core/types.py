"""Plain value types that cross the core API.

Why separate from the store: the ROS adapters, the evaluation tools and the tests all speak in these
types, so they must be importable without opening a database, and immutable so that an answer handed
to a caller cannot be changed behind the memory's back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

Vec3 = tuple[float, float, float]

STATES = ("present", "missing", "forgotten", "tentative")
RELATIONS = ("on", "under", "near", "in")
EVENT_KINDS = ("appeared", "moved", "removed", "reappeared", "relabelled", "forgotten", "merged")


def _as_vec3(value) -> object:
    """Best-effort conversion to a float triple; leaves malformed input for validation to reject."""
    try:
        arr = np.asarray(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        return value
    if arr.shape != (3,):
        return value
    return (float(arr[0]), float(arr[1]), float(arr[2]))


@dataclass(frozen=True, eq=False)
class Observation:
    """One frame's claim about one object (metres, world frame, z up; stamp in seconds).

    Construction never raises on malformed values: ``Memory.add`` validates a whole batch and rejects
    it with ``InvalidInputError`` so that nothing of a bad batch is staged.
    """

    label: str
    confidence: float
    center: Vec3
    bbox_min: Vec3
    bbox_max: Vec3
    stamp: float
    feature: np.ndarray | None = None
    n_points: int = 0
    instance_id: int = 0

    def __post_init__(self) -> None:
        for name in ("center", "bbox_min", "bbox_max"):
            object.__setattr__(self, name, _as_vec3(getattr(self, name)))
        if self.feature is not None:
            # the shape is kept: a 2x16 array is refused by validation, never silently flattened
            try:
                feat = np.asarray(self.feature, dtype=np.float64)
                object.__setattr__(self, "feature", feat.astype(np.float32) if np.all(np.isfinite(feat))
                                   and np.all(np.abs(feat) <= np.finfo(np.float32).max) else feat)
            except (TypeError, ValueError):
                pass


@dataclass(frozen=True, eq=False)
class CameraView:
    """What one camera frame could see; the memory uses it to count absence evidence.

    pose: 4x4 world-from-camera, optical frame (x right, y down, z forward). fx..cy, width, height:
    the full-resolution pinhole camera. depth: HxW float32 metres along z (NaN/0 = unknown), possibly
    coarser than width x height; its intrinsics are the full ones scaled by depth.shape / (height, width).
    """

    pose: np.ndarray
    fx: float
    fy: float
    cx: float
    cy: float
    width: int
    height: int
    max_range: float
    depth: np.ndarray | None = None
    stamp: float | None = None
    min_object_pixels: int = 0  # smallest instance the pipeline reports (0 = unknown)


@dataclass(frozen=True)
class StageResult:
    """What Memory.stage() did with one frame.

    status: "pending" (staged, fused at the next commit) or "quarantined" (its stamp jumped far ahead of
    "now": kept, not fused, until the frames that follow confirm the new time; gates.max_stamp_jump_s).
    released / refused: ids of earlier quarantined frames this call released into pending or refused.
    """

    frame_id: int
    observation_ids: tuple[int, ...]
    status: str
    released: tuple[int, ...] = ()
    refused: tuple[int, ...] = ()


@dataclass(frozen=True)
class CommitStats:
    observations_committed: int = 0
    merged: int = 0
    created: int = 0
    rejected: int = 0
    objects_after: int = 0
    elapsed_ms: float = 0.0
    moved: int = 0
    removed: int = 0
    reappeared: int = 0
    misses: int = 0
    views: int = 0
    events: int = 0
    changed: bool = False
    #: the frames this commit fused, in the order it fused them (a fleet's fuser reports which robots' frames a
    #: batch held, bench_fleet.py --fuser measures how long each waited to become visible)
    frame_ids: tuple = ()


@dataclass(frozen=True)
class ObjectInfo:
    id: int
    label: str
    confidence: float
    center: Vec3
    bbox_min: Vec3
    bbox_max: Vec3
    state: str
    first_seen: float
    last_seen: float
    region_id: int = 0
    region_label: str = ""
    n_observations: int = 0
    n_moves: int = 0
    label_mass: dict = field(default_factory=dict)
    pinned_label: str | None = None
    has_feature: bool = False
    centroid: Vec3 | None = None  # running mean of observation centroids; ``center`` is the box centre


@dataclass(frozen=True)
class PlacementInfo:
    id: int
    object_id: int
    center: Vec3
    bbox_min: Vec3
    bbox_max: Vec3
    region_id: int
    region_label: str
    t_from: float
    t_last: float
    t_to: float | None
    current: bool
    closed_reason: str = ""


@dataclass(frozen=True)
class ObservationRecord:
    id: int
    stamp: float
    recorded_at: float
    label: str
    confidence: float
    center: Vec3
    bbox_min: Vec3
    bbox_max: Vec3
    verdict: str  # pending | merged | created | rejected
    reason: str
    object_id: int | None
    candidate_id: int | None
    score: float | None
    placement_id: int | None = None
    source: str = ""  # the robot that saw it ('' = a store written before sources)
    instance_id: int = 0  # the segmenter's instance id in its frame (provenance against a dataset's ground truth)


@dataclass(frozen=True)
class ChangeEventInfo:
    id: int
    stamp: float
    recorded_at: float
    kind: str
    object_id: int
    label: str
    previous_label: str
    before: PlacementInfo | None
    after: PlacementInfo | None
    evidence: tuple[int, ...] = ()
    #: the label the event was recorded (and published on the events topic) under; ``label`` is the name it is
    #: read under, which a later relabelling of the same state can settle (event_names.py)
    published_label: str = ""


@dataclass(frozen=True)
class RelationInfo:
    subject_id: int
    relation: str
    object_id: int
    object_is_region: bool
    confidence: float
    since: float


@dataclass(frozen=True)
class RegionInfo:
    id: int
    label: str
    bbox_min: Vec3
    bbox_max: Vec3


@dataclass(frozen=True)
class AuditRow:
    id: int
    stamp: float | None
    wall_time: float
    action: str
    object_ids: tuple[int, ...]
    observation_ids: tuple[int, ...]
    detail: dict
    source: str = ""  # the memory (robot, tool) that wrote it


class Scored(NamedTuple):
    """An object with a number: distance for spatial queries, similarity for semantic ones."""

    object: ObjectInfo
    score: float


@dataclass(frozen=True)
class RelationalResult:
    anchor_found: bool
    anchors: tuple[ObjectInfo, ...]
    objects: tuple[ObjectInfo, ...]
    relations: tuple[RelationInfo, ...] = ()
    region: RegionInfo | None = None
    placements: tuple[PlacementInfo, ...] = ()  # as-of reads: where each object stood then (objects' order)


@dataclass(frozen=True)
class Answer:
    """The answer to a question or an operator: what was used and what supports it.

    ``evidence`` holds the ids of the observations behind the answer, so every answer can be traced
    to what the camera actually showed. ``arguments`` are the operator's arguments as run (times in
    seconds), ``understood_as`` the same in words.
    """

    understood: bool
    operator: str
    text: str
    found: bool = False
    objects: tuple[ObjectInfo, ...] = ()
    placements: tuple[PlacementInfo, ...] = ()
    evidence: tuple[int, ...] = ()
    events: tuple[ChangeEventInfo, ...] = ()
    count: int | None = None
    # The robot that saw each observation of ``evidence``, in the same order ('' = unnamed source).
    evidence_sources: tuple[str, ...] = ()
    time: float | None = None
    scores: tuple[float, ...] = ()
    arguments: dict = field(default_factory=dict)
    # What the question was understood as, in words ("previous place of mug"): shown with every answer.
    understood_as: str = ""
    # Yes/no questions: the verdict (None for every other operator).
    verdict: bool | None = None
    # Not understood: the closest questions that are.
    suggestions: tuple[str, ...] = ()
