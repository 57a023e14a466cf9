"""Markers for a small known scene: namespaces, ids, relation edges, moves, and exact DELETEs."""

from __future__ import annotations

import pytest

pytest.importorskip("visualization_msgs")

from visualization_msgs.msg import Marker  # noqa: E402

from tempomem_ros.core.types import ObjectInfo, PlacementInfo, RegionInfo, RelationInfo  # noqa: E402
from tempomem_ros.nodes import markers as mk  # noqa: E402


def obj(oid, label, center, state="present", last_seen=10.0, n_moves=0, half=0.05) -> ObjectInfo:
    lo = tuple(c - half for c in center)
    hi = tuple(c + half for c in center)
    return ObjectInfo(
        id=oid,
        label=label,
        confidence=0.9,
        center=center,
        bbox_min=lo,
        bbox_max=hi,
        state=state,
        first_seen=1.0,
        last_seen=last_seen,
        n_moves=n_moves,
    )


def place(pid, oid, center, t_from, t_to=None) -> PlacementInfo:
    lo = tuple(c - 0.05 for c in center)
    hi = tuple(c + 0.05 for c in center)
    return PlacementInfo(
        id=pid,
        object_id=oid,
        center=center,
        bbox_min=lo,
        bbox_max=hi,
        region_id=0,
        region_label="",
        t_from=t_from,
        t_last=t_from,
        t_to=t_to,
        current=t_to is None,
    )


MUG = obj(1, "mug", (0.0, 2.0, 0.8), n_moves=2)
TABLE = obj(2, "table", (2.0, 0.0, 0.4))
BOOK = obj(3, "book", (2.1, 0.1, 0.8), state="missing")
MUG_PLACES = (
    place(11, 1, (2.0, 0.0, 0.8), 10.0, 20.0),
    place(12, 1, (1.0, 1.0, 0.8), 25.0, 28.0),
    place(13, 1, (0.0, 2.0, 0.8), 30.0),
)
RELATIONS = (
    RelationInfo(1, "near", 2, False, 0.8, 30.0),
    RelationInfo(3, "on", 2, False, 0.8, 5.0),
    RelationInfo(2, "in", 7, True, 0.9, 5.0),
    RelationInfo(1, "on", 99, False, 0.5, 1.0),
)
REGION = RegionInfo(7, "kitchen", (0.0, -1.0, 0.0), (3.0, 1.0, 2.0))
STYLE = mk.MarkerStyle(frame_id="map")


def scene(objects=(MUG, TABLE, BOOK), relations=RELATIONS, places=None, regions=(REGION,)) -> mk.Scene:
    return mk.Scene(
        objects=tuple(objects),
        relations=tuple(relations),
        placements={1: MUG_PLACES} if places is None else places,
        regions=tuple(regions),
    )


def keyed(markers):
    return {(m.ns, m.id): m for m in markers}


def test_namespaces_and_ids():
    markers = mk.build_markers(scene(), STYLE)
    assert [(m.ns, m.id) for m in markers] == [
        ("objects", 1),
        ("labels", 1),
        ("objects", 2),
        ("labels", 2),
        ("missing", 3),
        ("labels", 3),
        ("relations", 0),
        ("previous", 11),
        ("moves", 11),
        ("previous", 12),
        ("moves", 12),
        ("regions", 7),
    ]
    k = keyed(markers)
    assert k[("objects", 1)].type == Marker.CUBE and k[("missing", 3)].type == Marker.CUBE
    assert k[("labels", 3)].type == Marker.TEXT_VIEW_FACING and k[("labels", 3)].text == "book #3 (missing)"
    assert k[("labels", 1)].text == "mug #1"
    assert k[("missing", 3)].color.a < k[("objects", 2)].color.a
    assert all(m.header.frame_id == "map" and m.action == Marker.ADD for m in markers)


def test_box_pose_and_scale():
    m = keyed(mk.build_markers(scene(), STYLE))[("objects", 2)]
    assert (m.pose.position.x, m.pose.position.y, m.pose.position.z) == pytest.approx((2.0, 0.0, 0.4))
    assert (m.scale.x, m.scale.y, m.scale.z) == pytest.approx((0.1, 0.1, 0.1))
    assert m.pose.orientation.w == 1.0


def test_one_line_list_for_relations():
    markers = mk.build_markers(scene(), STYLE)
    lines = [m for m in markers if m.ns == "relations"]
    assert len(lines) == 1 and lines[0].type == Marker.LINE_LIST and lines[0].id == 0
    # near(1, 2) and on(3, 2): the region relation and the edge to an object not drawn are left out
    assert len(lines[0].points) == 4 and len(lines[0].colors) == 4
    assert [(p.x, p.y) for p in lines[0].points] == [(0.0, 2.0), (2.0, 0.0), (2.1, 0.1), (2.0, 0.0)]


def test_no_relation_marker_without_edges():
    markers = mk.build_markers(scene(relations=()), STYLE)
    assert not [m for m in markers if m.ns == "relations"]


def test_arrows_follow_the_moves():
    k = keyed(mk.build_markers(scene(), STYLE))
    first, second = k[("moves", 11)], k[("moves", 12)]
    assert first.type == Marker.ARROW
    assert [(p.x, p.y) for p in first.points] == [(2.0, 0.0), (1.0, 1.0)]
    assert [(p.x, p.y) for p in second.points] == [(1.0, 1.0), (0.0, 2.0)]
    assert k[("previous", 11)].color.a == pytest.approx(STYLE.previous_alpha)
    assert ("previous", 13) not in k and ("moves", 13) not in k


def test_max_previous_keeps_the_most_recent_moves():
    style = mk.MarkerStyle(max_previous=1)
    k = keyed(mk.build_markers(scene(), style))
    assert ("moves", 12) in k and ("moves", 11) not in k and ("previous", 11) not in k


def test_region_wireframe_has_twelve_edges():
    region = keyed(mk.build_markers(scene(), STYLE))[("regions", 7)]
    assert region.type == Marker.LINE_LIST and len(region.points) == 24


def test_tracker_deletes_forgotten_object_and_its_moves():
    tracker = mk.MarkerTracker()
    first = tracker.array(mk.build_markers(scene(), STYLE), STYLE)
    assert all(m.action == Marker.ADD for m in first.markers)
    second = tracker.array(mk.build_markers(scene(objects=(TABLE, BOOK), places={}), STYLE), STYLE)
    deletes = [(m.ns, m.id) for m in second.markers if m.action == Marker.DELETE]
    assert deletes == [
        ("labels", 1),
        ("moves", 11),
        ("moves", 12),
        ("objects", 1),
        ("previous", 11),
        ("previous", 12),
    ]
    assert all(m.action != Marker.DELETEALL for m in second.markers)
    adds = {(m.ns, m.id) for m in second.markers if m.action == Marker.ADD}
    assert ("objects", 2) in adds and ("objects", 1) not in adds
    third = tracker.array(mk.build_markers(scene(objects=(TABLE, BOOK), places={}), STYLE), STYLE)
    assert not [m for m in third.markers if m.action == Marker.DELETE]


def test_state_change_moves_namespace():
    tracker = mk.MarkerTracker()
    tracker.array(mk.build_markers(scene(), STYLE), STYLE)
    found = obj(3, "book", (2.1, 0.1, 0.8))
    out = tracker.array(mk.build_markers(scene(objects=(MUG, TABLE, found)), STYLE), STYLE)
    assert [(m.ns, m.id) for m in out.markers if m.action == Marker.DELETE] == [("missing", 3)]
    assert ("objects", 3) in {(m.ns, m.id) for m in out.markers if m.action == Marker.ADD}


def test_max_objects_keeps_most_recently_seen():
    objs = [obj(i, "box", (float(i), 0.0, 0.0), last_seen=float(i % 5)) for i in range(1, 11)]
    shown = mk.selected_objects(objs, 3)
    # last_seen 4 (ids 4, 9) then 3 (ids 3, 8: the lower id wins the tie); drawn in id order
    assert [o.id for o in shown] == [3, 4, 9]
    assert len(mk.selected_objects(objs, 0)) == 10


def test_forgotten_objects_are_never_drawn():
    gone = obj(4, "cup", (1.0, 1.0, 1.0), state="forgotten")
    keys = keyed(mk.build_markers(scene(objects=(TABLE, gone), places={}), STYLE))
    assert ("objects", 4) not in keys and ("labels", 4) not in keys


def test_label_colour_is_stable():
    assert mk.label_color("mug") == mk.label_color("mug")
    assert mk.label_color("mug") != mk.label_color("table")


def test_lifetime():
    m = mk.build_markers(scene(), mk.MarkerStyle(lifetime_s=2.5))[0]
    assert (m.lifetime.sec, m.lifetime.nanosec) == (2, 500_000_000)
