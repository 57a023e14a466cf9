"""RViz markers for the object memory: boxes, labels, relation edges, previous places and moves.

Why every marker has a zero stamp: the markers live in the fixed world frame, and a zero stamp tells RViz
to use the latest transform instead of waiting for one at the observation time; it also lets the node
reuse the markers of unchanged objects from one publish to the next.

Why full arrays plus explicit DELETEs: the MarkerArray topic is transient local with depth 1, so a late
RViz receives exactly the last message; it must hold the whole scene. Objects that left the scene (or
changed namespace, e.g. present -> missing) get a DELETE for their old (namespace, id) instead of a
DELETEALL, which would make every marker flicker on each commit.

Namespaces and ids (stable, so RViz replaces rather than duplicates):
  objects   CUBE per present object, id = object id, colour per label
  missing   CUBE per missing object (faded grey), id = object id
  labels    TEXT_VIEW_FACING per object, id = object id
  relations one LINE_LIST of every object-object relation, id 0 (vertex colour per relation kind)
  previous  faded CUBE per closed placement of a moved object, id = placement id
  moves     ARROW from each closed placement to the placement that replaced it, id = placement id
  regions   LINE_LIST wireframe per region defined with DefineRegion, id = region id
"""

from __future__ import annotations

import colorsys
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from builtin_interfaces.msg import Duration, Time
from geometry_msgs.msg import Point
from std_msgs.msg import ColorRGBA
from visualization_msgs.msg import Marker, MarkerArray

from tempomem_ros.core.types import ObjectInfo, PlacementInfo, RegionInfo, RelationInfo

NS_OBJECTS = "objects"
NS_MISSING = "missing"
NS_LABELS = "labels"
NS_RELATIONS = "relations"
NS_PREVIOUS = "previous"
NS_MOVES = "moves"
NS_REGIONS = "regions"

RELATION_COLORS = {
    "on": (0.2, 0.9, 0.2),
    "near": (0.3, 0.6, 1.0),
    "under": (0.9, 0.6, 0.1),
    "in": (0.8, 0.3, 0.8),
}
_MARKER_ID_MOD = 2**31  # Marker.id is int32; object ids stay far below this in practice


@dataclass(frozen=True)
class MarkerStyle:
    """Look of the markers; the node fills it from its parameters."""

    frame_id: str = "map"
    lifetime_s: float = 0.0  # 0 = markers stay until replaced or deleted
    box_alpha: float = 0.55
    missing_alpha: float = 0.2
    previous_alpha: float = 0.15
    text_size: float = 0.08
    line_width: float = 0.01
    arrow_width: float = 0.02
    max_previous: int = 3  # closed placements drawn per moved object (the most recent ones)
    max_objects: int = 0  # 0 = every object; else the most recently seen ones (RViz slows down)


@dataclass(frozen=True)
class Scene:
    """What the markers show: present/missing objects, current relations, placements of moved objects."""

    objects: tuple[ObjectInfo, ...] = ()
    relations: tuple[RelationInfo, ...] = ()
    placements: dict[int, tuple[PlacementInfo, ...]] = field(
        default_factory=dict
    )  # object id -> oldest first
    regions: tuple[RegionInfo, ...] = ()


def marker_id(value: int) -> int:
    return int(value) % _MARKER_ID_MOD


def label_color(label: str) -> tuple[float, float, float]:
    """A stable colour per label (crc32, not hash(): Python salts str hashes per process)."""
    hue = (zlib.crc32(label.encode("utf-8")) % 360) / 360.0
    return colorsys.hsv_to_rgb(hue, 0.75, 0.95)


def _color(rgb, alpha: float) -> ColorRGBA:
    return ColorRGBA(r=float(rgb[0]), g=float(rgb[1]), b=float(rgb[2]), a=float(alpha))


def _point(xyz) -> Point:
    return Point(x=float(xyz[0]), y=float(xyz[1]), z=float(xyz[2]))


def _base(ns: str, ident: int, kind: int, style: MarkerStyle, stamp: Time) -> Marker:
    m = Marker()
    m.header.frame_id = style.frame_id
    m.header.stamp = stamp
    m.ns = ns
    m.id = marker_id(ident)
    m.type = kind
    m.action = Marker.ADD
    m.pose.orientation.w = 1.0
    if style.lifetime_s > 0:
        sec = int(style.lifetime_s)
        m.lifetime = Duration(sec=sec, nanosec=int(round((style.lifetime_s - sec) * 1e9)) % 1_000_000_000)
    return m


def _box(ns: str, ident: int, lo, hi, rgb, alpha: float, style: MarkerStyle, stamp: Time) -> Marker:
    m = _base(ns, ident, Marker.CUBE, style, stamp)
    m.pose.position = _point([(a + b) / 2.0 for a, b in zip(lo, hi)])
    m.scale.x, m.scale.y, m.scale.z = (max(float(b - a), 0.01) for a, b in zip(lo, hi))
    m.color = _color(rgb, alpha)
    return m


def _label(obj: ObjectInfo, style: MarkerStyle, stamp: Time) -> Marker:
    m = _base(NS_LABELS, obj.id, Marker.TEXT_VIEW_FACING, style, stamp)
    m.pose.position = _point((obj.center[0], obj.center[1], obj.bbox_max[2] + style.text_size))
    m.scale.z = style.text_size
    m.color = _color((1.0, 1.0, 1.0), 1.0 if obj.state == "present" else 0.5)
    m.text = f"{obj.label} #{obj.id}" + (" (missing)" if obj.state == "missing" else "")
    return m


def _relations(
    objects: dict[int, ObjectInfo], relations: Iterable[RelationInfo], style: MarkerStyle, stamp: Time,
    segments: dict | None = None,
) -> Marker | None:
    """One LINE_LIST of every relation between drawn objects. ``segments``: (relation, end, end) -> the
    points and colour drawn for it last time, reused and replaced by this call's (EdgeCache)."""
    m = _base(NS_RELATIONS, 0, Marker.LINE_LIST, style, stamp)
    m.scale.x = style.line_width
    m.color = _color((1.0, 1.0, 1.0), 0.8)
    points: list[Point] = []
    colors: list[ColorRGBA] = []
    fresh: dict = {}
    for rel in relations:
        if rel.object_is_region or rel.subject_id not in objects or rel.object_id not in objects:
            continue
        a, b = objects[rel.subject_id].center, objects[rel.object_id].center
        key = (rel.relation, a, b)
        seg = fresh.get(key) or (segments.get(key) if segments is not None else None)
        if seg is None:
            seg = (_point(a), _point(b), _color(RELATION_COLORS.get(rel.relation, (1.0, 1.0, 1.0)), 0.8))
        fresh[key] = seg
        points += (seg[0], seg[1])
        colors += (seg[2], seg[2])
    if segments is not None:
        segments.clear()
        segments.update(fresh)
    m.points, m.colors = points, colors
    return m if points else None


def _wireframe(region: RegionInfo, style: MarkerStyle, stamp: Time) -> Marker:
    m = _base(NS_REGIONS, region.id, Marker.LINE_LIST, style, stamp)
    m.scale.x = style.line_width
    m.color = _color((0.8, 0.3, 0.8), 0.6)
    lo, hi = region.bbox_min, region.bbox_max
    corners = [(x, y, z) for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
    for i in range(8):
        for j in range(i + 1, 8):
            if bin(i ^ j).count("1") == 1:  # corners differing in exactly one axis share an edge
                m.points.append(_point(corners[i]))
                m.points.append(_point(corners[j]))
    return m


def _moves(
    obj: ObjectInfo, history: Sequence[PlacementInfo], style: MarkerStyle, stamp: Time
) -> list[Marker]:
    out = []
    closed = [i for i, p in enumerate(history) if not p.current and i + 1 < len(history)]
    for i in closed[-style.max_previous :] if style.max_previous > 0 else []:
        prev, nxt = history[i], history[i + 1]
        out.append(
            _box(
                NS_PREVIOUS,
                prev.id,
                prev.bbox_min,
                prev.bbox_max,
                label_color(obj.label),
                style.previous_alpha,
                style,
                stamp,
            )
        )
        arrow = _base(NS_MOVES, prev.id, Marker.ARROW, style, stamp)
        arrow.points = [_point(prev.center), _point(nxt.center)]
        arrow.scale.x = style.arrow_width  # shaft diameter
        arrow.scale.y = style.arrow_width * 2.0  # head diameter
        arrow.scale.z = style.arrow_width * 3.0  # head length
        arrow.color = _color(label_color(obj.label), 0.8)
        out.append(arrow)
    return out


def selected_objects(objects: Sequence[ObjectInfo], max_objects: int) -> list[ObjectInfo]:
    """Present and missing objects to draw: all, or the ``max_objects`` most recently seen (ties by id)."""
    shown = [o for o in objects if o.state in ("present", "missing")]
    if max_objects > 0 and len(shown) > max_objects:
        shown = sorted(shown, key=lambda o: (-o.last_seen, o.id))[:max_objects]
    return sorted(shown, key=lambda o: o.id)


def object_markers(obj: ObjectInfo, style: MarkerStyle, stamp: Time | None = None) -> tuple[Marker, Marker]:
    """The box and the label of one object."""
    stamp = stamp if stamp is not None else Time()
    if obj.state == "present":
        box = _box(
            NS_OBJECTS,
            obj.id,
            obj.bbox_min,
            obj.bbox_max,
            label_color(obj.label),
            style.box_alpha,
            style,
            stamp,
        )
    else:
        box = _box(
            NS_MISSING, obj.id, obj.bbox_min, obj.bbox_max, (0.6, 0.6, 0.6), style.missing_alpha, style, stamp
        )
    return box, _label(obj, style, stamp)


class EdgeCache:
    """The relation LINE_LIST of the previous call, reused while the relations and the centres of the objects
    they join are unchanged; when one end moved, only its segment's messages are rebuilt (at 10k objects
    the marker has 30k points: building it whole took 65 ms)."""

    def __init__(self) -> None:
        self._key = None
        self._marker: Marker | None = None
        self._segments: dict = {}

    def marker(self, objects: dict[int, ObjectInfo], relations: Sequence[RelationInfo], style: MarkerStyle,
               stamp: Time) -> Marker | None:
        ends = tuple(objects[i].center if i in objects else None
                     for r in relations for i in (r.subject_id, r.object_id))
        drawn = tuple((r.subject_id, r.relation, r.object_id, r.object_is_region) for r in relations)
        key = (drawn, ends, style, (stamp.sec, stamp.nanosec))
        if key != self._key:
            self._key, self._marker = key, _relations(objects, relations, style, stamp, self._segments)
        return self._marker


def build_markers(scene: Scene, style: MarkerStyle, stamp: Time | None = None, cache=None,
                  edge_cache: EdgeCache | None = None) -> list[Marker]:
    """Every ADD marker for the scene, in a deterministic order (objects by id, then edges, moves, regions).

    ``cache``: an optional ``conversions.MessageCache`` of ``object_markers`` keyed by object id (the node
    keeps one per style), so unchanged objects reuse their markers; ``edge_cache`` does the same for the
    relation edges.
    """
    stamp = stamp if stamp is not None else Time()
    objects = selected_objects(scene.objects, style.max_objects)
    by_id = {o.id: o for o in objects}
    out: list[Marker] = []
    pairs = (
        cache.messages(objects) if cache is not None else [object_markers(o, style, stamp) for o in objects]
    )
    for box, label in pairs:
        out.append(box)
        out.append(label)
    edges = (edge_cache.marker(by_id, scene.relations, style, stamp) if edge_cache is not None
             else _relations(by_id, scene.relations, style, stamp))
    if edges is not None:
        out.append(edges)
    for oid in sorted(scene.placements):
        if oid in by_id:
            out.extend(_moves(by_id[oid], scene.placements[oid], style, stamp))
    for region in sorted(scene.regions, key=lambda r: r.id):
        out.append(_wireframe(region, style, stamp))
    return out


def delete_marker(ns: str, ident: int, style: MarkerStyle, stamp: Time | None = None) -> Marker:
    m = Marker()
    m.header.frame_id = style.frame_id
    m.header.stamp = stamp if stamp is not None else Time()
    m.ns = ns
    m.id = int(ident)
    m.action = Marker.DELETE
    return m


class MarkerTracker:
    """Remembers which (namespace, id) markers RViz holds, to delete exactly those that disappeared."""

    def __init__(self) -> None:
        self.shown: set[tuple[str, int]] = set()

    def array(self, markers: list[Marker], style: MarkerStyle, stamp: Time | None = None) -> MarkerArray:
        """DELETEs for markers shown before and absent now (sorted), then the ADDs; updates what is shown."""
        keys = {(m.ns, m.id) for m in markers}
        gone = sorted(self.shown - keys)
        self.shown = keys
        return MarkerArray(markers=[delete_marker(ns, i, style, stamp) for ns, i in gone] + markers)
