"""Publishing what the memory holds: the scene graph, the RViz markers and the change events.

Why an object of its own: the scene feed, four message caches, the marker tracker and the duty rule are
state that lives from one publish to the next and belongs to none of the node's lifecycle callbacks.
Publishing reads through a read-only Memory of its own (``viewer``), so that reading a large scene holds up
neither a query nor a mutation.

Why serialized parts (publish_serialized, nodes/cdr.py): converting a whole graph held the GIL ~0.26 s at
10,000 objects; the bytes of unchanged objects, relations and markers are kept and joined instead.
Why the duty rule: after a publish that took C seconds the next waits at least C * (1 / duty - 1), so a
large memory never starves the services (the first publish builds every cached part, so its cost does
not count).
"""

from __future__ import annotations

import threading
import time

from visualization_msgs.msg import MarkerArray

from tempomem_ros.core.memory import Memory
from tempomem_ros.core.scene_feed import SceneFeed
from tempomem_ros.msg import SceneGraph
from tempomem_ros.nodes import cdr
from tempomem_ros.nodes import conversions as conv
from tempomem_ros.nodes import markers as mk

EVENT_BATCH = 1000


def events_after(memory: Memory, after_id: int, limit: int = EVENT_BATCH) -> list:
    """Change events with id > after_id, oldest id first (a 'removed' event carries the stamp of its first
    miss, older than the commit that decided it, so the publisher follows event ids, not stamps)."""
    return memory.events(after_id=after_id, limit=limit)


def last_event_id(memory: Memory) -> int:
    return memory.last_event_id()


def marker_style(param, frame_id: str) -> mk.MarkerStyle:
    """The markers' style from the node's parameters (``param(name)`` gives a value), drawn in ``frame_id``."""
    return mk.MarkerStyle(frame_id=frame_id, lifetime_s=float(param("marker_lifetime_s")),
                          text_size=float(param("marker_text_size")), max_previous=int(param("marker_max_previous")),
                          max_objects=int(param("marker_max_objects")))


class ScenePublisher:
    """Publishes the scene graph and markers when due, and every new change event, from ``viewer``."""

    def __init__(self, viewer: Memory, publishers: dict, style: mk.MarkerStyle, counters, *, logger, param,
                 serialized: bool, resync_s: float, after_event_id: int):
        self.viewer = viewer
        self._publishers = publishers  # graph, markers, changes (lifecycle publishers of the node)
        self._style = style
        self._counters = counters
        self._param = param  # the node's parameters, read when used (publish_markers, the duty rule)
        self._feed = SceneFeed(viewer, resync_s=resync_s)
        self._lock = threading.Lock()
        self.dirty = True  # latch the current graph for subscribers that join now
        self._last_event_id = after_event_id
        self._last_publish = 0.0
        self._publish_cost_s = 0.0
        self._published_before = False
        self._tracker = mk.MarkerTracker()
        self._object_msgs = conv.MessageCache(conv.scene_object, key=lambda o: o.id)
        self._relation_msgs = conv.MessageCache(conv.relation)
        self._marker_msgs = conv.MessageCache(lambda o: mk.object_markers(o, self._style), key=lambda o: o.id)
        # Serialized elements of the scene graph and markers, joined at publish time (nodes/cdr.py); empty
        # encapsulation = publish messages (the self-check failed, or publish_serialized is off).
        self._encapsulation = b""
        if serialized:
            if cdr.sample_check():
                self._encapsulation = cdr.encapsulation(SceneGraph())
            else:
                logger.warning("serialized publishing failed its self-check with this rmw; "
                               "publishing the scene graph and markers as messages")
        # (keyed by identity where the scene feed or the message caches hand back the same object)
        self._object_bytes = conv.MessageCache(lambda o: cdr.element8(conv.scene_object(o)), key=lambda o: o.id)
        self._relation_bytes = conv.MessageCache(lambda r: cdr.element8(conv.relation(r)), key=id)
        self._marker_bytes = conv.MessageCache(lambda m: cdr.ElementBytes(m, (MarkerArray, "markers")), key=id)
        self._edges = mk.EdgeCache()
        # placement histories of moved objects, re-read only for an object the feed re-read
        self._moves = conv.MessageCache(lambda o: tuple(self.viewer.placements(o.id)), key=id)

    def follow_store(self) -> None:
        """A node that does not fuse (parameter fuse_staged false): the scene is dirty once another writer (the
        fleet's fuser) has changed the store since the last publish (SceneFeed.behind)."""
        if self._feed.behind():
            self.dirty = True

    def after_commit(self, force: bool = False) -> None:
        """Publish the scene if something changed (or ``force``) and a publish is due; then every new event."""
        if (self.dirty or force) and self.due():
            self.publish_scene()
        self.publish_new_events()

    def publish_scene(self) -> None:
        """Publish the scene graph and the markers (with DELETEs for what disappeared).

        The scene comes from the feed (only what the audit says changed is re-read); the messages or
        serialized bytes of unchanged objects, relations and markers are reused; markers carry a zero stamp.
        """
        view = self.viewer
        with self._lock:
            t0 = time.perf_counter()
            self.dirty = False
            snapshot = self._feed.refresh()  # incremental: re-reads only what the audit says changed
            objects, relations = snapshot.objects, snapshot.relations
            stamp, frame = conv.to_time(view.latest_stamp()), self._style.frame_id
            if self._encapsulation:
                self._publishers["graph"].publish(cdr.scene_graph_bytes(
                    self._encapsulation, stamp, frame, self._object_bytes.messages(objects),
                    self._relation_bytes.messages(relations)))
            else:
                graph = SceneGraph(objects=self._object_msgs.messages(objects),
                                   relations=self._relation_msgs.messages(relations))
                graph.header.stamp, graph.header.frame_id = stamp, frame
                self._publishers["graph"].publish(graph)
            self._counters.count(graphs_published=1)
            if self._param("publish_markers"):
                self._publish_markers(view, objects, relations)
            self._last_publish = time.monotonic()
            self._counters.last_publish_ms = (time.perf_counter() - t0) * 1e3
            self._publish_cost_s = self._counters.last_publish_ms / 1e3 if self._published_before else 0.0
            self._published_before = True

    def _publish_markers(self, view: Memory, objects, relations) -> None:
        shown = mk.selected_objects(objects, self._style.max_objects)
        moving = [o for o in shown if o.n_moves > 0]
        moved = dict(zip([o.id for o in moving], self._moves.messages(moving)))
        scene = mk.Scene(objects=tuple(shown), relations=relations, placements=moved, regions=tuple(view.regions()))
        markers = self._tracker.array(mk.build_markers(scene, self._style, cache=self._marker_msgs,
                                                      edge_cache=self._edges), self._style)
        if self._encapsulation:
            self._publishers["markers"].publish(cdr.marker_array_bytes(
                self._encapsulation, self._marker_bytes.messages(markers.markers)))
        else:
            self._publishers["markers"].publish(markers)

    def due(self) -> bool:
        """A publish may start when publish_min_interval_s has passed and publishing has taken at most
        publish_max_duty of the time since the last one."""
        duty = float(self._param("publish_max_duty"))
        interval = max(float(self._param("publish_min_interval_s")), self._publish_cost_s * (1.0 / duty - 1.0))
        return time.monotonic() - self._last_publish >= interval

    def publish_new_events(self) -> None:
        with self._lock:
            while True:
                batch = events_after(self.viewer, self._last_event_id)
                for event in batch:
                    self._publishers["changes"].publish(conv.change_event(event))
                    self._last_event_id = event.id
                    self._counters.count(events_published=1)
                if len(batch) < EVENT_BATCH:
                    break
