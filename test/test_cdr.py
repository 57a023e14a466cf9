"""Serialized publishing: scene graphs and marker arrays joined from cached element bytes must decode to
exactly the message rclpy would have sent, and unchanged elements must not be serialized again."""

from __future__ import annotations

import pytest

pytest.importorskip("rclpy")

from builtin_interfaces.msg import Time  # noqa: E402
from rclpy.serialization import deserialize_message, serialize_message  # noqa: E402
from visualization_msgs.msg import MarkerArray  # noqa: E402

from tempomem_ros.core.types import ObjectInfo, RegionInfo, RelationInfo  # noqa: E402
from tempomem_ros.msg import SceneGraph  # noqa: E402
from tempomem_ros.nodes import cdr  # noqa: E402
from tempomem_ros.nodes import conversions as conv  # noqa: E402
from tempomem_ros.nodes import markers as mk  # noqa: E402


def info(i: int, label: str, center, state: str = "present") -> ObjectInfo:
    lo = tuple(c - 0.1 for c in center)
    hi = tuple(c + 0.1 for c in center)
    return ObjectInfo(id=i, label=label, confidence=0.8, center=center, bbox_min=lo, bbox_max=hi, state=state,
                      first_seen=1.5, last_seen=9.25, region_id=0, region_label="", n_observations=i,
                      n_moves=i % 2)


def scene():
    objects = [info(1, "table", (0.0, 0.0, 0.4)), info(2, "mug", (0.1, 0.0, 0.85)),
               info(3, "remote control", (1.0, 2.0, 0.5), "missing"), info(4, "é", (3.0, 0.5, 1.0))]
    relations = [RelationInfo(2, "on", 1, False, 0.9, 3.0), RelationInfo(2, "near", 4, False, 0.5, 4.0),
                 RelationInfo(4, "in", 1, True, 1.0, 2.0)]
    regions = [RegionInfo(1, "kitchen", (-1.0, -1.0, 0.0), (2.0, 2.0, 2.5))]
    return objects, relations, regions


def graph_of(objects, relations, frame="map", stamp=Time(sec=12, nanosec=500)) -> SceneGraph:
    g = SceneGraph(objects=[conv.scene_object(o) for o in objects], relations=[conv.relation(r) for r in relations])
    g.header.frame_id, g.header.stamp = frame, stamp
    return g


def sent(msg):
    """What a subscriber receives when msg is published as a message (float32 fields rounded)."""
    return deserialize_message(serialize_message(msg), type(msg))


def test_the_sample_check_passes_with_this_rmw():
    assert cdr.sample_check()


@pytest.mark.parametrize("frame", ["", "m", "map", "odom_frame"])
def test_an_assembled_scene_graph_decodes_to_the_message(frame):
    objects, relations, _ = scene()
    graph = graph_of(objects, relations, frame)
    enc = cdr.encapsulation(graph)
    data = cdr.scene_graph_bytes(enc, graph.header.stamp, frame, [cdr.element8(o) for o in graph.objects],
                                 [cdr.element8(r) for r in graph.relations])
    assert deserialize_message(data, SceneGraph) == sent(graph)
    assert cdr.same_message(data, graph)


def test_a_wrong_assembly_is_detected():
    objects, relations, _ = scene()
    graph = graph_of(objects, relations)
    enc = cdr.encapsulation(graph)
    one_missing = cdr.scene_graph_bytes(enc, graph.header.stamp, "map",
                                        [cdr.element8(o) for o in graph.objects[:-1]],
                                        [cdr.element8(r) for r in graph.relations])
    assert not cdr.same_message(one_missing, graph)


def test_assembled_markers_with_deletes_decode_to_the_message():
    objects, relations, regions = scene()
    style = mk.MarkerStyle()
    tracker = mk.MarkerTracker()
    placements = {}
    first = tracker.array(mk.build_markers(mk.Scene(tuple(objects), tuple(relations), placements, tuple(regions)),
                                           style), style)
    # the second scene lost the mug: its box and label are deleted
    kept = [o for o in objects if o.id != 2]
    second = tracker.array(mk.build_markers(mk.Scene(tuple(kept), (), placements, ()), style), style)
    assert any(m.action == m.DELETE for m in second.markers)
    bytes_cache = conv.MessageCache(lambda m: cdr.ElementBytes(m, (MarkerArray, "markers")), key=id)
    for array in (first, second):
        data = cdr.marker_array_bytes(cdr.encapsulation(array), bytes_cache.messages(array.markers))
        assert deserialize_message(data, MarkerArray) == sent(array)


def test_unchanged_elements_are_not_serialized_again():
    objects, relations, _ = scene()
    cache = conv.MessageCache(lambda o: cdr.element8(conv.scene_object(o)), key=id)  # as the node keys relations
    first = cache.messages(objects)
    assert cache.misses == 4
    moved = info(2, "mug", (0.5, 0.0, 0.85))
    now = [objects[0], moved, objects[2], objects[3]]
    second = cache.messages(now)
    assert cache.misses == 5  # only the moved mug (a new value object)
    assert [a is b for a, b in zip(first, second)] == [True, False, True, True]
    assert all(len(padded) % 8 == 0 and padded.startswith(raw) for padded, raw in second)
    graph = graph_of(now, relations)
    data = cdr.scene_graph_bytes(cdr.encapsulation(graph), graph.header.stamp, "map", second,
                                 [cdr.element8(conv.relation(r)) for r in relations])
    assert deserialize_message(data, SceneGraph) == sent(graph)
    assert cache.messages([]) == [] and cache.messages(objects[:1])[0] is not first[0]  # the cache keeps one call


def test_the_edge_marker_is_reused_until_an_end_moves():
    objects, relations, _ = scene()
    by_id = {o.id: o for o in objects}
    style, stamp = mk.MarkerStyle(), Time()
    edges = mk.EdgeCache()
    first = edges.marker(by_id, relations, style, stamp)
    assert edges.marker(dict(by_id), list(relations), style, stamp) is first
    by_id[2] = info(2, "mug", (0.5, 0.0, 0.85))
    moved = edges.marker(by_id, relations, style, stamp)
    assert moved is not first and moved == mk.build_markers(
        mk.Scene(tuple(by_id.values()), tuple(relations), {}, ()), style)[-1]
    # relations: mug(2) on table(1), mug near é(4) (the region one is not drawn): both involve the mug,
    # so both segments were rebuilt; moving é back rebuilds only the second
    assert len(moved.points) == 4 and moved.points[0] is not first.points[0]
    by_id[4] = info(4, "é", (3.0, 0.9, 1.0))
    third = edges.marker(by_id, relations, style, stamp)
    assert third.points[0] is moved.points[0] and third.points[1] is moved.points[1]
    assert third.points[3] is not moved.points[3] and conv.from_point(third.points[3]) == (3.0, 0.9, 1.0)
    # confidence and since are not drawn: a change of them alone reuses the marker
    relations[0] = RelationInfo(2, "on", 1, False, 0.5, 7.0)
    assert edges.marker(by_id, relations, style, stamp) is third


def test_the_service_memo_reuses_unchanged_messages_and_rebuilds_changed_ones():
    objects, _, _ = scene()
    memo = conv.MessageMemo(conv.scene_object, key=lambda o: o.id, limit=4)
    first = memo.messages(objects[:2])
    again = memo.messages([objects[1], objects[0]])
    assert again[0] is first[1] and again[1] is first[0]
    moved = info(2, "mug", (0.5, 0.0, 0.85))
    rebuilt = memo.messages([moved])[0]
    assert rebuilt is not first[1] and conv.from_point(rebuilt.center) == (0.5, 0.0, 0.85)
    memo.messages(objects[2:])  # four keys held: the limit
    fifth = memo.messages([info(5, "cup", (0.0, 0.0, 0.0))])[0]  # over the limit: starts over
    assert fifth.label == "cup" and memo.messages([objects[0]])[0] is not first[0]
