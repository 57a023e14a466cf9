"""Assemble a large serialized message (SceneGraph, MarkerArray) from cached per-element bytes.

Why: rclpy converts a Python message to C inside ``publish`` while holding the GIL. For a scene graph of
10,000 objects plus its markers that was one 82 ms call (bench/bench_publish.py) during which no service of
the memory node could run, and building the messages cost more. Between two commits only a few objects
change, so the node keeps each element's serialized bytes and joins them: rclpy publishes bytes as they are.

How: in CDR every primitive is aligned to its size relative to the start of the payload, so an element's
bytes depend only on where it starts modulo 8. SceneObject and Relation start with a uint64, so each starts
8-aligned: their bytes are position-independent, and padded to 8 they join in one call (``element8``).
A Marker starts with a 4-byte member and holds doubles, so it starts at 0 or 4 (mod 8): both variants are
taken from rclpy's own serializer (the element alone, and as the first item of a one-element sequence).
``self_check`` decodes assembled messages and compares them with rclpy's own serialization; the node falls
back to plain publishing when they differ (another rmw's encoding, say). The node keeps the bytes of each
element between publishes in ``conversions.MessageCache``es keyed by object identity.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

from rclpy.serialization import deserialize_message, serialize_message

ENCAPSULATION_LEN = 4


class ElementBytes:
    """The serialized bytes of one sequence element at payload positions = 0 and = 4 (mod 8), for element
    types that start with a 4-byte member (Marker: its Header's stamp).

    ``wrapper``: (message type, field) of a message whose first field is a sequence of this element type,
    used to serialize the element from position 4.
    """

    __slots__ = ("at0", "at4")

    def __init__(self, msg, wrapper: tuple) -> None:
        self.at0 = serialize_message(msg)[ENCAPSULATION_LEN:]
        outer = wrapper[0]()
        setattr(outer, wrapper[1], [msg])
        # one-element sequence: encapsulation, uint32 count, then the element written from position 4
        self.at4 = serialize_message(outer)[ENCAPSULATION_LEN + 4:]


class CdrWriter:
    """Appends CDR primitives and cached elements; ``payload()`` is the serialized message."""

    def __init__(self, encapsulation: bytes) -> None:
        self._parts: list[bytes] = [encapsulation]
        self._pos = 0  # position in the payload (after the encapsulation header)

    def _put(self, data: bytes) -> None:
        self._parts.append(data)
        self._pos += len(data)

    def align(self, n: int) -> None:
        pad = -self._pos % n
        if pad:
            self._put(b"\x00" * pad)

    def int32(self, v: int) -> None:
        self.align(4)
        self._put(struct.pack("<i", v))

    def uint32(self, v: int) -> None:
        self.align(4)
        self._put(struct.pack("<I", v))

    def string(self, s: str) -> None:
        data = s.encode("utf-8") + b"\x00"
        self.uint32(len(data))
        self._put(data)

    def elements(self, items: Iterable[ElementBytes]) -> None:
        """A sequence: its length, then each element in the variant for where it starts."""
        items = list(items)
        self.uint32(len(items))
        for item in items:
            self.align(4)
            self._put(item.at0 if self._pos % 8 == 0 else item.at4)

    def elements8(self, items: list[tuple[bytes, bytes]]) -> None:
        """A sequence of elements that start with an 8-byte member, as (padded, raw) pairs from
        ``element8``: every element starts 8-aligned, so all but the last are joined in one call."""
        self.uint32(len(items))
        if items:
            self.align(8)
            self._put(b"".join([padded for padded, _ in items[:-1]]))
            self._put(items[-1][1])

    def payload(self) -> bytes:
        return b"".join(self._parts)


def encapsulation(sample) -> bytes:
    """The encapsulation header rclpy's serializer writes (representation and byte order)."""
    return serialize_message(sample)[:ENCAPSULATION_LEN]


def header(writer: CdrWriter, stamp, frame_id: str) -> None:
    """std_msgs/Header: builtin_interfaces/Time then the frame id."""
    writer.int32(int(stamp.sec))
    writer.uint32(int(stamp.nanosec))
    writer.string(frame_id)


def scene_graph_bytes(enc: bytes, stamp, frame_id: str, objects: list[tuple[bytes, bytes]],
                      relations: list[tuple[bytes, bytes]]) -> bytes:
    """tempomem_ros/SceneGraph (header, objects, relations) from (padded, raw) element bytes (element8):
    SceneObject and Relation both start with a uint64."""
    w = CdrWriter(enc)
    header(w, stamp, frame_id)
    w.elements8(objects)
    w.elements8(relations)
    return w.payload()


def element8(msg) -> tuple[bytes, bytes]:
    """(padded to a multiple of 8, raw) serialized bytes of an element that starts with an 8-byte member:
    every element of such a sequence starts 8-aligned, so ``CdrWriter.elements8`` joins them as they are."""
    raw = serialize_message(msg)[ENCAPSULATION_LEN:]
    return raw + b"\x00" * (-len(raw) % 8), raw


def marker_array_bytes(enc: bytes, markers: Iterable[ElementBytes]) -> bytes:
    """visualization_msgs/MarkerArray from cached element bytes."""
    w = CdrWriter(enc)
    w.elements(markers)
    return w.payload()


def same_message(data: bytes, msg) -> bool:
    """``data`` has the length of rclpy's serialization of ``msg`` and decodes to what that serialization
    decodes to (bytes are not compared: the serializer leaves padding bytes uninitialised; decoded messages
    are, since float32 fields round a Python float)."""
    reference = serialize_message(msg)
    return len(data) == len(reference) and deserialize_message(data, type(msg)) == deserialize_message(
        reference, type(msg))


def self_check(graph, markers) -> bool:
    """True when assembling ``graph`` (a SceneGraph) and ``markers`` (a MarkerArray) from element bytes gives
    what rclpy's serializer gives for them: the node then publishes assembled bytes."""
    enc = encapsulation(graph)
    if enc[:2] != b"\x00\x01":  # plain little-endian CDR only (XCDR2 aligns 8-byte values to 4)
        return False
    assembled = scene_graph_bytes(enc, graph.header.stamp, graph.header.frame_id,
                                  [element8(o) for o in graph.objects],
                                  [element8(r) for r in graph.relations])
    if not same_message(assembled, graph):
        return False
    marker_wrapper = (type(markers), "markers")
    return same_message(marker_array_bytes(enc, (ElementBytes(m, marker_wrapper) for m in markers.markers)),
                        markers)


def sample_check() -> bool:
    """self_check on a sample that exercises every alignment case: labels and frame ids of each length
    modulo 8, markers with and without points and texts, empty sequences."""
    from geometry_msgs.msg import Point
    from visualization_msgs.msg import Marker, MarkerArray

    from tempomem_ros.msg import Relation, SceneGraph, SceneObject

    for frame in ("", "m", "map", "world_frame"):
        objects = [SceneObject(id=i + 1, label="x" * i, state="present", region_label="r" * (i % 3),
                               center=Point(x=0.5 * i, y=-1.0, z=float(i)), n_moves=i) for i in range(9)]
        relations = [Relation(subject_id=i + 1, relation="on" * (i % 3), object_id=i + 2, confidence=0.5)
                     for i in range(5)]
        graph = SceneGraph(objects=objects, relations=relations)
        graph.header.frame_id, graph.header.stamp.sec, graph.header.stamp.nanosec = frame, 7, 5
        markers = [Marker(ns="n" * i, id=i, text="t" * (i % 4), points=[Point(x=float(j)) for j in range(i % 3)])
                   for i in range(9)]
        for m in markers:
            m.header.frame_id = frame
        if not self_check(graph, MarkerArray(markers=markers)) or not self_check(SceneGraph(), MarkerArray()):
            return False
    return True
