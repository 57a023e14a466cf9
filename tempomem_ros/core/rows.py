"""Conversions between stored rows and the value types of the API.

Why one module: the column lists of objects, placements, observations and events are used by fusion,
queries and the temporal operators alike; converting in one place keeps every reader consistent.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import numpy as np

from . import featurecodec
from .types import ChangeEventInfo, ObjectInfo, ObservationRecord, PlacementInfo, RegionInfo, RelationInfo

if TYPE_CHECKING:  # the store layer imports this module: the type only for annotations
    from .store.object_row import ObjectRow

OBJECT_COLS = ("id, label, pinned_label, confidence, base_confidence, cx, cy, cz, mx, my, mz, zt, zb, "
               "min_x, min_y, min_z, "
               "max_x, max_y, max_z, weight, ext_x, ext_y, ext_z, feature, feature_weight, state, "
               "first_seen, last_seen, n_observations, n_moves, misses, first_miss, last_miss, region_id, "
               "placement_id, absence_evidence, absence_looks, look_start, look_misses, removal_due")
PLACEMENT_COLS = ("id, object_id, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, region_id, t_from, "
                  "t_last, t_to, current, closed_reason")
OBSERVATION_COLS = ("id, stamp, recorded_at, label, confidence, cx, cy, cz, min_x, min_y, min_z, max_x, "
                    "max_y, max_z, verdict, reason, object_id, candidate_id, score, placement_id, source, instance_id")
EVENT_COLS = ("id, stamp, recorded_at, kind, object_id, label, previous_label, before_id, after_id, "
              "evidence")


def prefixed(cols: str, alias: str) -> str:
    return ", ".join(f"{alias}.{c.strip()}" for c in cols.split(","))


OBJECT_COLS_O = prefixed(OBJECT_COLS, "o")  # built once: it is part of every spatial-index query

SQL_ID_CHUNK = 500  # ids per "IN (...)" list: one short statement each, far below SQLite's parameter limit


def padded_length(n: int, size: int = SQL_ID_CHUNK) -> int:
    """The length an id list of n is padded to: the next power of two, at most ``size``."""
    m = 1
    while m < n:
        m <<= 1
    return min(m, max(n, size))


def padded(values: list, size: int = SQL_ID_CHUNK) -> list:
    """``values`` with the last repeated up to padded_length (an "IN (...)" list means the same): id_chunks' padding,
    for a statement that builds its list itself."""
    values = list(values)
    return values + values[-1:] * (padded_length(len(values), size) - len(values)) if values else values


def id_chunks(ids, size: int = SQL_ID_CHUNK, pad: bool = True):
    """(chunk, "?,?,...") pairs covering ``ids`` in order, ``size`` at a time (SQL_ID_CHUNK: one parameter an
    item), for ``WHERE id IN (...)``; an item of k parameters asks for SQL_ID_CHUNK // k.

    With ``pad`` a chunk is padded to padded_length by repeating its last id (an IN list means the same with it
    repeated), so a statement has at most 10 texts instead of one for each length. Why: pysqlite3's statement cache
    (schema.STATEMENT_CACHE) ranks its entries by use and puts a new text last, where the next new one evicts it;
    texts of every length filled it, and statements first run after that were prepared anew at every call
    (docs/RESULTS.md section 6, round 16). ``pad=False``: items that are not ids of an IN list."""
    ids = list(ids)
    for start in range(0, len(ids), size):
        chunk = ids[start:start + size]
        if pad:
            chunk = padded(chunk, size)
        yield chunk, ",".join("?" for _ in chunk)


def feature_to_blob(feature: np.ndarray | None) -> bytes | None:
    if feature is None:
        return None
    return np.asarray(feature, dtype=np.float32).tobytes()


def blob_to_feature(blob) -> np.ndarray | None:
    if blob is None:
        return None
    if featurecodec.is_compact(blob):  # a kept sighting's feature after retention compacted it
        return featurecodec.decode(blob)
    return np.frombuffer(blob, dtype=np.float32).copy()


# The box and centre helpers below read a row by column name: placements, observations, regions and tombstones.
# An object's row (an ObjectRow) is read by attribute only: its own bmin, bmax, center and centroid.
def center_of(row) -> tuple[float, float, float]:
    return (row["cx"], row["cy"], row["cz"])


def bmin_of(row) -> tuple[float, float, float]:
    return (row["min_x"], row["min_y"], row["min_z"])


def bmax_of(row) -> tuple[float, float, float]:
    return (row["max_x"], row["max_y"], row["max_z"])


def object_info(row: ObjectRow, *, region_label: str = "", label_mass: dict | None = None) -> ObjectInfo:
    """The API's view of an object row the store layer read (an ObjectRow: by attribute, not by name)."""
    label = row.pinned_label or row.label
    center = (row.cx, row.cy, row.cz)
    return ObjectInfo(
        id=row.id, label=label, confidence=float(row.confidence), center=center,
        bbox_min=(row.min_x, row.min_y, row.min_z), bbox_max=(row.max_x, row.max_y, row.max_z), state=row.state,
        first_seen=float(row.first_seen), last_seen=float(row.last_seen),
        region_id=int(row.region_id or 0), region_label=region_label,
        n_observations=int(row.n_observations), n_moves=int(row.n_moves),
        label_mass=dict(label_mass or {}), pinned_label=row.pinned_label,
        has_feature=row.feature is not None,
        centroid=center if row.mx is None else (row.mx, row.my, row.mz),  # as ObjectRow.centroid
    )


def placement_info(row, *, region_label: str = "") -> PlacementInfo:
    return PlacementInfo(
        id=row["id"], object_id=row["object_id"], center=center_of(row), bbox_min=bmin_of(row),
        bbox_max=bmax_of(row), region_id=int(row["region_id"] or 0), region_label=region_label,
        t_from=float(row["t_from"]), t_last=float(row["t_last"]),
        t_to=None if row["t_to"] is None else float(row["t_to"]), current=bool(row["current"]),
        closed_reason=row["closed_reason"] or "",
    )


def observation_record(row) -> ObservationRecord:
    return ObservationRecord(
        id=row["id"], stamp=float(row["stamp"]), recorded_at=float(row["recorded_at"]), label=row["label"],
        confidence=float(row["confidence"]), center=center_of(row), bbox_min=bmin_of(row),
        bbox_max=bmax_of(row), verdict=row["verdict"], reason=row["reason"] or "",
        object_id=row["object_id"], candidate_id=row["candidate_id"],
        score=None if row["score"] is None else float(row["score"]), placement_id=row["placement_id"],
        source=row["source"], instance_id=int(row["instance_id"] or 0),
    )


def event_info(row, before: PlacementInfo | None, after: PlacementInfo | None, *,
               label: str | None = None) -> ChangeEventInfo:
    """label: the name the event is read under (event_names.py); None: the label it was published under."""
    return ChangeEventInfo(
        id=row["id"], stamp=float(row["stamp"]), recorded_at=float(row["recorded_at"]), kind=row["kind"],
        object_id=row["object_id"], label=row["label"] if label is None else label,
        previous_label=row["previous_label"] or "",
        before=before, after=after, evidence=tuple(json.loads(row["evidence"] or "[]")),
        published_label=row["label"],
    )


def relation_info(row) -> RelationInfo:
    return RelationInfo(subject_id=row["subject_id"], relation=row["relation"], object_id=row["object_id"],
                        object_is_region=bool(row["object_is_region"]),
                        confidence=float(row["confidence"]), since=float(row["since"]))


def region_info(row) -> RegionInfo:
    return RegionInfo(id=row["id"], label=row["label"], bbox_min=bmin_of(row), bbox_max=bmax_of(row))
