"""Rooms, furniture, support surfaces and the catalogue of small objects.

Why boxes only: axis-aligned boxes make exact ray casting cheap in numpy, and every ground-truth quantity
(bounding boxes, supports, gaps, occlusion) stays exactly computable. Furniture is built from several
boxes (a table is a top and four legs, a sofa a seat, a backrest and two arms, a stool a seat on four
legs) so that rendering shows realistic free space under and around it, while the ground truth reports one
object with one box. Some objects are seen in parts on purpose: an open laptop is a base and a screen, a
stool a seat and legs; each part belongs to a *part group* so that the segmenter model can report the
groups as separate instances (frames.py), as real segmenters sometimes do.

All coordinates are metres in the world frame "map", z up, rounded to millimetres so that the
ground truth prints clean numbers and the renderer uses exactly the recorded geometry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .config import SceneConfig, SceneGenError


def mm(value: float) -> float:
    return round(float(value), 3)


@dataclass(frozen=True)
class Box:
    lo: tuple[float, float, float]
    hi: tuple[float, float, float]

    def __post_init__(self) -> None:
        if any(b <= a for a, b in zip(self.lo, self.hi)):
            raise SceneGenError(f"degenerate box {self.lo} .. {self.hi}")

    @staticmethod
    def make(lo, hi) -> Box:
        return Box(tuple(mm(v) for v in lo), tuple(mm(v) for v in hi))

    @property
    def center(self) -> tuple[float, float, float]:
        return tuple(round((a + b) / 2.0, 4) for a, b in zip(self.lo, self.hi))

    def translated(self, dx: float, dy: float, dz: float = 0.0) -> Box:
        return Box.make((self.lo[0] + dx, self.lo[1] + dy, self.lo[2] + dz),
                        (self.hi[0] + dx, self.hi[1] + dy, self.hi[2] + dz))

    def overlaps_xy(self, other: Box, margin: float = 0.0) -> bool:
        return all(self.lo[i] - margin < other.hi[i] and other.lo[i] - margin < self.hi[i] for i in (0, 1))


def union_box(boxes) -> Box:
    lo = np.min([b.lo for b in boxes], axis=0)
    hi = np.max([b.hi for b in boxes], axis=0)
    return Box.make(lo, hi)


def box_gap(a: Box, b: Box) -> float:
    """Euclidean distance between two boxes (0 when they touch or overlap)."""
    sep = [max(0.0, a.lo[i] - b.hi[i], b.lo[i] - a.hi[i]) for i in range(3)]
    return float(np.sqrt(sum(s * s for s in sep)))


@dataclass(frozen=True)
class Surface:
    """A horizontal area objects can rest on: a furniture top, a shelf board, a seat, or a room's floor."""

    owner: int | None            # furniture object id; None for the floor
    name: str                    # top | board_bottom | board_middle | board_top | seat | floor
    lo: tuple[float, float]      # xy rectangle
    hi: tuple[float, float]
    z: float                     # height of the surface
    room: int
    clearance: float = 10.0      # free height above the surface (shelf boards are limited)


@dataclass(frozen=True)
class Room:
    id: int
    name: str
    lo: tuple[float, float]
    hi: tuple[float, float]

    @property
    def center(self) -> tuple[float, float]:
        return ((self.lo[0] + self.hi[0]) / 2.0, (self.lo[1] + self.hi[1]) / 2.0)


@dataclass(frozen=True)
class Furniture:
    id: int
    label: str
    room: int
    parts: tuple[Box, ...]
    color: tuple[int, int, int]
    solid: bool                  # reaches the floor without gaps (can hide what is behind it)
    quarter: int = 0             # rotation about z in quarter turns applied to the local shape
    offset: tuple[float, float] = (0.0, 0.0)  # translation applied after the rotation
    groups: tuple[int, ...] = ()  # part group of each part (0 = the main body; stool legs are group 1)

    @cached_property
    def box(self) -> Box:
        return union_box(self.parts)


@dataclass(frozen=True)
class ObjectType:
    label: str
    size: tuple[float, float, float]
    color: tuple[int, int, int]
    supports: frozenset          # furniture labels (and "floor") it may rest on
    shape: str = "box"           # box | laptop (an open laptop: base + screen, see small_parts)


CATALOG: dict[str, ObjectType] = {t.label: t for t in (
    ObjectType("mug", (0.09, 0.09, 0.10), (196, 48, 40), frozenset({"table", "counter", "shelf"})),
    ObjectType("cup", (0.08, 0.08, 0.09), (236, 236, 240), frozenset({"table", "counter", "shelf"})),
    ObjectType("book", (0.22, 0.15, 0.04), (40, 80, 170), frozenset({"table", "shelf", "sofa", "counter"})),
    ObjectType("keys", (0.10, 0.06, 0.03), (200, 180, 60), frozenset({"table", "counter", "shelf"})),
    ObjectType("bottle", (0.07, 0.07, 0.25), (40, 150, 70), frozenset({"table", "counter", "shelf"})),
    ObjectType("remote", (0.18, 0.06, 0.03), (30, 30, 34), frozenset({"table", "sofa", "shelf"})),
    ObjectType("phone", (0.15, 0.08, 0.02), (90, 90, 110), frozenset({"table", "sofa", "counter"})),
    ObjectType("bowl", (0.16, 0.16, 0.07), (230, 150, 50), frozenset({"table", "counter", "shelf"})),
    ObjectType("plant", (0.20, 0.20, 0.35), (60, 170, 60), frozenset({"shelf", "counter", "floor", "table"})),
    ObjectType("laptop", (0.33, 0.24, 0.23), (150, 150, 160), frozenset({"table", "sofa", "counter"}), "laptop"),
    ObjectType("vase", (0.12, 0.12, 0.25), (150, 60, 170), frozenset({"shelf", "table", "counter"})),
    ObjectType("glasses", (0.14, 0.06, 0.04), (120, 70, 30), frozenset({"table", "shelf", "counter"})),
    ObjectType("wallet", (0.11, 0.09, 0.03), (110, 50, 20), frozenset({"table", "counter", "sofa"})),
    ObjectType("pillow", (0.40, 0.35, 0.12), (220, 120, 160), frozenset({"sofa", "floor"})),
    ObjectType("backpack", (0.32, 0.22, 0.42), (50, 90, 60), frozenset({"floor"})),
    ObjectType("basket", (0.36, 0.26, 0.24), (180, 140, 90), frozenset({"floor"})),
    ObjectType("shoe", (0.28, 0.11, 0.11), (240, 240, 60), frozenset({"floor"})),
    ObjectType("ball", (0.20, 0.20, 0.20), (240, 90, 20), frozenset({"floor"})),
)}

#: Labels a hidden (occluded) object may have: low enough to disappear behind a sofa or a counter.
HIDEABLE = ("shoe", "ball", "basket")

FURNITURE_COLORS = {
    "table": (150, 100, 60), "shelf": (120, 80, 50), "counter": (200, 200, 190), "sofa": (70, 90, 140),
    "chair": (160, 110, 70), "stool": (90, 60, 40),
}
WALL_COLOR = (205, 200, 185)
FLOOR_COLOR = (150, 130, 105)
CEILING_COLOR = (235, 235, 232)
ROOM_HEIGHT = 2.6
PARTITION = 0.1
DOOR_WIDTH = 1.0


# ------------------------------------------------------------------------------------ furniture shapes
# Local frame: footprint centred on the origin, back side at +y (against a wall), front at -y.


def _table(w=1.2, d=0.8, h=0.75):
    top = Box.make((-w / 2, -d / 2, h - 0.04), (w / 2, d / 2, h))
    legs = [Box.make((sx * (w / 2 - 0.03) - 0.025, sy * (d / 2 - 0.03) - 0.025, 0.0),
                     (sx * (w / 2 - 0.03) + 0.025, sy * (d / 2 - 0.03) + 0.025, h - 0.04))
            for sx in (-1, 1) for sy in (-1, 1)]
    return [top, *legs], [("top", (-w / 2, -d / 2), (w / 2, d / 2), h, 10.0)], False


def _shelf(w=1.0, d=0.35, h=1.8):
    t = 0.025
    parts = [Box.make((-w / 2, -d / 2, 0.0), (-w / 2 + 0.03, d / 2, h)),
             Box.make((w / 2 - 0.03, -d / 2, 0.0), (w / 2, d / 2, h)),
             Box.make((-w / 2 + 0.03, d / 2 - 0.02, 0.0), (w / 2 - 0.03, d / 2, h)),
             Box.make((-w / 2 + 0.03, -d / 2, h - t), (w / 2 - 0.03, d / 2 - 0.02, h)),
             Box.make((-w / 2 + 0.03, -d / 2, 0.0), (w / 2 - 0.03, d / 2 - 0.02, 0.08))]
    levels = (("board_bottom", 0.35), ("board_middle", 0.85), ("board_top", 1.35))
    tops = [z for _, z in levels[1:]] + [h - t]
    surfaces = []
    for (name, z), above in zip(levels, tops):
        parts.append(Box.make((-w / 2 + 0.03, -d / 2, z - t), (w / 2 - 0.03, d / 2 - 0.02, z)))
        surfaces.append((name, (-w / 2 + 0.03, -d / 2), (w / 2 - 0.03, d / 2 - 0.02), z, above - t - z - 0.03))
    return parts, surfaces, False


def _counter(w=1.6, d=0.6, h=0.92):
    parts = [Box.make((-w / 2, -d / 2 + 0.1, 0.0), (w / 2, d / 2, 0.1)),
             Box.make((-w / 2, -d / 2 + 0.04, 0.1), (w / 2, d / 2, h - 0.04)),
             Box.make((-w / 2, -d / 2, h - 0.04), (w / 2, d / 2, h))]
    return parts, [("top", (-w / 2, -d / 2), (w / 2, d / 2), h, 10.0)], True


def _sofa(w=1.9, d=0.85):
    arm = 0.18
    back = 0.2
    parts = [Box.make((-w / 2, -d / 2, 0.0), (w / 2, d / 2, 0.08)),
             Box.make((-w / 2 + arm, -d / 2, 0.08), (w / 2 - arm, d / 2 - back, 0.45)),
             Box.make((-w / 2, d / 2 - back, 0.08), (w / 2, d / 2, 0.85)),
             Box.make((-w / 2, -d / 2, 0.08), (-w / 2 + arm, d / 2 - back, 0.62)),
             Box.make((w / 2 - arm, -d / 2, 0.08), (w / 2, d / 2 - back, 0.62))]
    seat = ("seat", (-w / 2 + arm, -d / 2), (w / 2 - arm, d / 2 - back), 0.45, 10.0)
    return parts, [seat], True


def _chair(w=0.45, d=0.45):
    legs = [Box.make((sx * (w / 2 - 0.03) - 0.02, sy * (d / 2 - 0.03) - 0.02, 0.0),
                     (sx * (w / 2 - 0.03) + 0.02, sy * (d / 2 - 0.03) + 0.02, 0.42))
            for sx in (-1, 1) for sy in (-1, 1)]
    seat = Box.make((-w / 2, -d / 2, 0.42), (w / 2, d / 2, 0.46))
    back = Box.make((-w / 2, d / 2 - 0.04, 0.46), (w / 2, d / 2, 0.9))
    return [seat, back, *legs], [("seat", (-w / 2, -d / 2), (w / 2, d / 2 - 0.04), 0.46, 10.0)], False


def _stool(w=0.36, h=0.66):
    seat = Box.make((-w / 2, -w / 2, h - 0.05), (w / 2, w / 2, h))
    legs = [Box.make((sx * (w / 2 - 0.04) - 0.018, sy * (w / 2 - 0.04) - 0.018, 0.0),
                     (sx * (w / 2 - 0.04) + 0.018, sy * (w / 2 - 0.04) + 0.018, h - 0.05))
            for sx in (-1, 1) for sy in (-1, 1)]
    e = w / 2 - 0.04
    ring = [Box.make((-e, sy * e - 0.01, 0.24), (e, sy * e + 0.01, 0.26)) for sy in (-1, 1)]
    return [seat, *legs, *ring], [("seat", (-w / 2, -w / 2), (w / 2, w / 2), h, 10.0)], False


SHAPES = {"table": _table, "shelf": _shelf, "counter": _counter, "sofa": _sofa, "chair": _chair, "stool": _stool}
#: Part groups of the furniture that segmenters often split: the stool's seat (0) and its legs (1).
PART_GROUPS = {"stool": (0, 1, 1, 1, 1, 1, 1)}


def furniture_parts(label: str, quarter: int, offset: tuple[float, float]) -> tuple[Box, ...]:
    """The boxes of a piece of furniture turned by ``quarter`` quarter turns and moved to ``offset``."""
    parts, _, _ = SHAPES[label]()
    return tuple(_rotate_box(p, quarter).translated(offset[0], offset[1]) for p in parts)


def part_groups(label: str, n_parts: int) -> tuple[int, ...]:
    return PART_GROUPS.get(label, (0,) * n_parts)


def small_parts(otype: ObjectType, box: Box, back: int) -> tuple[tuple[Box, ...], tuple[int, ...]]:
    """The boxes an object of the catalogue is rendered from, inside its ground-truth ``box``.

    An open laptop is a 2 cm base over the whole footprint and a 1.5 cm screen standing along the long
    side ``back`` (0..3: +y, -x, -y, +x of the box, only the long sides are used); groups base 0, screen 1.
    """
    if otype.shape != "laptop":
        return (box,), (0,)
    lo, hi = box.lo, box.hi
    base = Box.make(lo, (hi[0], hi[1], lo[2] + 0.02))
    long_x = (hi[0] - lo[0]) >= (hi[1] - lo[1])
    t = 0.015
    if long_x:
        y0 = hi[1] - t if back in (0, 3) else lo[1]
        screen = Box.make((lo[0], y0, lo[2] + 0.02), (hi[0], y0 + t, hi[2]))
    else:
        x0 = hi[0] - t if back in (0, 3) else lo[0]
        screen = Box.make((x0, lo[1], lo[2] + 0.02), (x0 + t, hi[1], hi[2]))
    return (base, screen), (0, 1)


def _rotate_xy(x: float, y: float, quarter: int) -> tuple[float, float]:
    for _ in range(quarter % 4):
        x, y = -y, x
    return x, y


def _rotate_box(box: Box, quarter: int) -> Box:
    corners = [_rotate_xy(x, y, quarter) for x in (box.lo[0], box.hi[0]) for y in (box.lo[1], box.hi[1])]
    xs, ys = zip(*corners)
    return Box.make((min(xs), min(ys), box.lo[2]), (max(xs), max(ys), box.hi[2]))


@dataclass
class World:
    rooms: list[Room]
    envelope: Box                      # the whole interior; rays that hit nothing else exit through it
    walls: list[Box]                   # interior partition walls (background, no instance)
    doorway: tuple[float, float] | None  # y range of the door in the partition
    furniture: list[Furniture]
    surfaces: list[Surface] = field(default_factory=list)
    extra_obstacles: list[Box] = field(default_factory=list)  # where furniture stands after a move

    def furniture_by_label(self, label: str) -> Furniture:
        return next(f for f in self.furniture if f.label == label)

    def room_of(self, x: float, y: float) -> int:
        for room in self.rooms:
            if room.lo[0] <= x <= room.hi[0] and room.lo[1] <= y <= room.hi[1]:
                return room.id
        return -1

    def blocked_xy(self, x: float, y: float, clearance: float) -> bool:
        """True where a camera (or a robot) of radius ``clearance`` cannot stand."""
        return bool(self.blocked_many(np.array([[x, y]], float), clearance)[0])

    def blocked_many(self, xy: np.ndarray, clearance: float) -> np.ndarray:
        """``blocked_xy`` for an (N, 2) array of points."""
        xy = np.asarray(xy, float).reshape(-1, 2)
        x, y = xy[:, 0:1], xy[:, 1:2]
        rooms_lo = np.array([r.lo for r in self.rooms], float)
        rooms_hi = np.array([r.hi for r in self.rooms], float)
        inside = ((x >= rooms_lo[:, 0] + clearance) & (x <= rooms_hi[:, 0] - clearance)
                  & (y >= rooms_lo[:, 1] + clearance) & (y <= rooms_hi[:, 1] - clearance)).any(axis=1)
        blocked = ~inside
        boxes = [f.box for f in self.furniture] + list(self.extra_obstacles)
        if boxes:
            f_lo = np.array([b.lo[:2] for b in boxes], float) - clearance
            f_hi = np.array([b.hi[:2] for b in boxes], float) + clearance
            blocked |= ((x > f_lo[:, 0]) & (x < f_hi[:, 0]) & (y > f_lo[:, 1]) & (y < f_hi[:, 1])).any(axis=1)
        return blocked

    def segment_clear(self, a, b, clearance: float) -> bool:
        """A straight walk from a to b (xy) keeps ``clearance`` from furniture and walls (door allowed)."""
        a, b = np.asarray(a[:2], float), np.asarray(b[:2], float)
        n = max(2, int(np.linalg.norm(b - a) / 0.05) + 1)
        pts = a + np.linspace(0.0, 1.0, n)[:, None] * (b - a)
        blocked = self.blocked_many(pts, clearance)
        if self.doorway is not None:
            blocked &= ~np.array([self.in_doorway(px, py) for px, py in pts])
        return not bool(blocked.any())

    def in_doorway(self, x: float, y: float) -> bool:
        if self.doorway is None:
            return False
        x0 = self.rooms[0].hi[0]
        return x0 - 0.6 <= x <= x0 + PARTITION + 0.6 and self.doorway[0] + 0.3 <= y <= self.doorway[1] - 0.3


class LayoutError(Exception):
    """No valid layout for this random draw; the generator retries with the next attempt."""


def build_world(rng: np.random.Generator, config: SceneConfig) -> World:
    n_rooms = config.rooms if config.rooms is not None else int(rng.integers(1, 3))
    depth_y = mm(rng.uniform(4.0, 5.0))
    rooms: list[Room] = []
    walls: list[Box] = []
    doorway = None
    if n_rooms == 1:
        length = mm(rng.uniform(4.6, 6.0))
        rooms.append(Room(0, "living room", (0.0, 0.0), (length, depth_y)))
        total = length
        assignment = {0: ["sofa", "table", "shelf", "counter", "chair", "stool"]}
    else:
        l0, l1 = mm(rng.uniform(4.4, 5.4)), mm(rng.uniform(3.8, 4.8))
        rooms.append(Room(0, "living room", (0.0, 0.0), (l0, depth_y)))
        rooms.append(Room(1, "kitchen", (mm(l0 + PARTITION), 0.0), (mm(l0 + PARTITION + l1), depth_y)))
        total = mm(l0 + PARTITION + l1)
        d0 = mm(rng.uniform(1.0, depth_y - 1.0 - DOOR_WIDTH))
        doorway = (d0, mm(d0 + DOOR_WIDTH))
        walls = [Box.make((l0, 0.0, 0.0), (l0 + PARTITION, d0, ROOM_HEIGHT)),
                 Box.make((l0, d0 + DOOR_WIDTH, 0.0), (l0 + PARTITION, depth_y, ROOM_HEIGHT))]
        assignment = {0: ["sofa", "table", "chair"], 1: ["counter", "shelf", "stool"]}
    envelope = Box.make((0.0, 0.0, 0.0), (total, depth_y, ROOM_HEIGHT))
    world = World(rooms, envelope, walls, doorway, [])
    next_id = 1
    for room in rooms:
        for label in assignment[room.id]:
            world.furniture.append(_place_furniture(rng, world, room, label, next_id))
            next_id += 1
    world.surfaces = _surfaces(world)
    return world


def _place_furniture(rng, world: World, room: Room, label: str, fid: int) -> Furniture:
    parts, _, solid = SHAPES[label]()
    cx, cy = room.center
    for _ in range(400):
        if label == "chair":
            table = world.furniture_by_label("table")
            side = int(rng.integers(0, 4))
            quarter = side  # the backrest (local +y) points away from the table
            tb = table.box
            off = {0: (0.0, tb.hi[1] + 0.3), 1: (tb.lo[0] - 0.3, 0.0), 2: (0.0, tb.lo[1] - 0.3),
                   3: (tb.hi[0] + 0.3, 0.0)}[side]
            along = rng.uniform(-0.25, 0.25)
            x = off[0] if side in (1, 3) else (tb.lo[0] + tb.hi[0]) / 2 + along
            y = off[1] if side in (0, 2) else (tb.lo[1] + tb.hi[1]) / 2 + along
        elif label == "stool":
            # a bar stool in front of the counter or at one of its ends
            counter = world.furniture_by_label("counter")
            quarter = int(rng.integers(0, 4))
            ccx, ccy = counter.offset
            fx_, fy_ = _rotate_xy(0.0, -1.0, counter.quarter)      # the counter's front
            ax, ay = _rotate_xy(1.0, 0.0, counter.quarter)         # along the counter
            if rng.random() < 0.5:
                d, a = 0.3 + 0.25 + 0.18, rng.uniform(-0.6, 0.6)
            else:
                d, a = rng.uniform(-0.1, 0.2), float(rng.choice([-1.0, 1.0])) * (0.8 + 0.3 + 0.18)
            x, y = ccx + d * fx_ + a * ax, ccy + d * fy_ + a * ay
        else:
            wall = int(rng.integers(0, 4))  # 0 north (+y), 1 west (-x), 2 south (-y), 3 east (+x)
            quarter = wall
            if world.doorway is not None and ((room.id == 0 and wall == 3) or (room.id == 1 and wall == 1)):
                continue
            rotated = [_rotate_box(p, quarter) for p in parts]
            fb = union_box(rotated)
            half_x, half_y = (fb.hi[0] - fb.lo[0]) / 2, (fb.hi[1] - fb.lo[1]) / 2
            gap = 0.3 if label == "table" else 0.03
            if wall in (0, 2):
                x = rng.uniform(room.lo[0] + half_x + 0.1, room.hi[0] - half_x - 0.1)
                y = room.hi[1] - half_y - gap if wall == 0 else room.lo[1] + half_y + gap
            else:
                y = rng.uniform(room.lo[1] + half_y + 0.1, room.hi[1] - half_y - 0.1)
                x = room.lo[0] + half_x + gap if wall == 1 else room.hi[0] - half_x - gap
        x, y = mm(x), mm(y)
        placed = [_rotate_box(p, quarter).translated(x, y) for p in parts]
        box = union_box(placed)
        ignore = {"chair": "table", "stool": "counter"}.get(label)
        ignore = world.furniture_by_label(ignore).id if ignore else None
        if not _fits(world, room, box, cx, cy, ignore):
            continue
        color = tuple(int(np.clip(c + rng.integers(-12, 13), 0, 255)) for c in FURNITURE_COLORS[label])
        return Furniture(fid, label, room.id, tuple(placed), color, solid, quarter, (x, y),
                         part_groups(label, len(placed)))
    raise LayoutError(f"no place for the {label} in the {room.name}")


def _fits(world: World, room: Room, box: Box, cx: float, cy: float, ignore: int | None = None) -> bool:
    if box.lo[0] < room.lo[0] - 1e-9 or box.hi[0] > room.hi[0] + 1e-9:
        return False
    if box.lo[1] < room.lo[1] - 1e-9 or box.hi[1] > room.hi[1] + 1e-9:
        return False
    if any(box.overlaps_xy(f.box, margin=0.3) for f in world.furniture if f.id != ignore):
        return False
    # keep a free disc around the room centre: the camera stands there
    nx = min(max(cx, box.lo[0]), box.hi[0])
    ny = min(max(cy, box.lo[1]), box.hi[1])
    if np.hypot(nx - cx, ny - cy) < 1.0:
        return False
    if world.doorway is not None:  # keep both sides of the door passable
        x0 = world.rooms[0].hi[0]
        door = Box.make((x0 - 1.2, world.doorway[0] - 0.2, 0.0), (x0 + PARTITION + 1.2, world.doorway[1] + 0.2, 1.0))
        if box.overlaps_xy(door):
            return False
    return True


def _surfaces(world: World) -> list[Surface]:
    out = []
    for f in world.furniture:
        _, surfaces, _ = SHAPES[f.label]()
        quarter, (dx, dy) = f.quarter, f.offset
        for name, lo, hi, z, clearance in surfaces:
            corners = [_rotate_xy(px, py, quarter) for px in (lo[0], hi[0]) for py in (lo[1], hi[1])]
            xs, ys = zip(*corners)
            out.append(Surface(f.id, name, (mm(min(xs) + dx), mm(min(ys) + dy)), (mm(max(xs) + dx), mm(max(ys) + dy)),
                               mm(z), f.room, mm(clearance)))
    for room in world.rooms:
        out.append(Surface(None, "floor", room.lo, room.hi, 0.0, room.id))
    return out
