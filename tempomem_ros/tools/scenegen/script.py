"""What happens in the scene: where every object is over time, what changes between visits, and the
camera path of every visit and patrol pass.

Why the changes are planned with roles: the memory must be tested on specific hard cases (an object
that stays put but is out of view for a whole visit, one that is hidden behind furniture for a visit,
one that moves twice, a chair pushed and turned between visits), and leaving them to chance would make
some seeds test nothing. The camera path is planned to produce those cases (sectors excluded from the
sweep, a station behind the occluder); the renderer later confirms them and the generator rejects a draw
where they did not happen. Between the visits a patrol (patrol.py) glances at a few places every few
minutes, which is how a patrolling robot learns that something is gone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import motion
from .config import SceneConfig
from .world import (CATALOG, HIDEABLE, Box, Furniture, LayoutError, ObjectType, Surface, World, box_gap,
                    furniture_parts, mm, small_parts, union_box)

SMALL_MARGIN = 0.03          # free space kept between objects on a surface
MAX_VISIT_S = 80.0           # a visit's path must fit in this (changes are planned after it)
STATION_CLEARANCE = 0.35     # the camera keeps this far from furniture and walls
VISIBLE_LABELS = ("mug", "bottle", "book", "laptop", "bowl", "vase", "plant", "cup")
MOVER_SURFACES = ("table", "counter", "sofa", "shelf:board_middle")   # in plain view from the room centre


@dataclass
class Placement:
    box: Box
    support_object: int | None     # furniture id, None for the floor
    support: str                   # surface name: top, board_middle, seat, floor, ...
    t_from_ns: int
    t_to_ns: int | None = None
    parts: tuple[Box, ...] = ()    # the boxes rendered (empty = the box itself)
    groups: tuple[int, ...] = ()   # part group of each part (a segmenter may report groups apart)

    def render_parts(self) -> tuple[tuple[Box, ...], tuple[int, ...]]:
        if self.parts:
            return self.parts, (self.groups or (0,) * len(self.parts))
        return (self.box,), (0,)

    def contains(self, t_ns: int) -> bool:
        return self.t_from_ns <= t_ns and (self.t_to_ns is None or t_ns < self.t_to_ns)


@dataclass
class SceneObject:
    id: int
    label: str
    kind: str                      # furniture | small
    color: tuple[int, int, int]
    placements: list[Placement]

    def placement_at(self, t_ns: int) -> Placement | None:
        for p in self.placements:
            if p.contains(t_ns):
                return p
        return None


@dataclass
class Event:
    kind: str                      # appeared | moved | removed
    object_id: int
    t_world_ns: int
    before: Placement | None
    after: Placement | None


@dataclass
class FramePlan:
    index: int                     # plan index (keys the per-frame random stream)
    visit: int | None              # None for a patrol frame
    stamp_ns: int
    position: tuple[float, float, float]
    yaw: float
    pitch: float
    patrol: int | None = None      # index of the patrol pass (None in a visit)

    @property
    def run_key(self) -> int:
        """Keys what persists within one visit or pass (a confused label from one side, parts split)."""
        return self.visit if self.visit is not None else 1000 + int(self.patrol)


@dataclass
class Roles:
    out_of_view: tuple[int, int] | None = None     # (object id, visit)
    occluded: tuple[int, int] | None = None        # (object id, visit)
    occluding_station: tuple[float, float] | None = None
    double_mover: int | None = None
    pushed_chair: int | None = None                # furniture id of the chair pushed and turned


@dataclass
class Script:
    objects: list[SceneObject]
    events: list[Event]
    frames: list[FramePlan]
    roles: Roles
    visit_windows: list[tuple[int, int]]           # first and last planned stamp of each visit
    furniture: dict[int, Furniture] = field(default_factory=dict)
    patrols: list = field(default_factory=list)    # patrol.PatrolPass, in time order

    def object(self, oid: int) -> SceneObject:
        return next(o for o in self.objects if o.id == oid)


# ------------------------------------------------------------------------------------------ geometry


def segments_blocked(origin, points: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """For each point: does the segment origin->point pass through any box (strictly before the point)?"""
    d = points - np.asarray(origin, float)                        # (N, 3)
    d = np.where(np.abs(d) < 1e-12, 1e-12, d)
    inv = 1.0 / d
    t1 = (lo[None, :, :] - origin) * inv[:, None, :]               # (N, P, 3)
    t2 = (hi[None, :, :] - origin) * inv[:, None, :]
    t_near = np.minimum(t1, t2).max(axis=-1)
    t_far = np.maximum(t1, t2).min(axis=-1)
    hit = (t_near <= t_far) & (t_far > 1e-6) & (t_near < 1.0 - 1e-6)
    return hit.any(axis=1)


def lattice(box: Box, n: int = 4) -> np.ndarray:
    lo, hi = np.asarray(box.lo), np.asarray(box.hi)
    pad = (hi - lo) * 0.01
    axes = [np.linspace(lo[i] + pad[i], hi[i] - pad[i], n) for i in range(3)]
    return np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)


def project_in_image(config: SceneConfig, position, yaw: float, pitch: float, points: np.ndarray,
                     margin: float = 0.1) -> bool:
    from .render import look_pose

    pose = look_pose(position, yaw, pitch)
    pc = (points - pose[:3, 3]) @ pose[:3, :3]
    if np.any(pc[:, 2] <= 0.2):
        return False
    u = config.fx * pc[:, 0] / pc[:, 2] + config.cx
    v = config.fx * pc[:, 1] / pc[:, 2] + config.cy
    mu, mv = margin * config.width, margin * config.height
    return bool(np.all((u >= mu) & (u <= config.width - 1 - mu) & (v >= mv) & (v <= config.height - 1 - mv)))


def aim(position, target) -> tuple[float, float]:
    d = np.asarray(target, float) - np.asarray(position, float)
    return float(np.arctan2(d[1], d[0])), float(np.arctan2(d[2], np.hypot(d[0], d[1])))


def occluder_boxes(world: World) -> tuple[np.ndarray, np.ndarray]:
    boxes = [p for f in world.furniture for p in f.parts] + list(world.walls)
    return np.array([b.lo for b in boxes], float), np.array([b.hi for b in boxes], float)


# ---------------------------------------------------------------------------------------- placements


class _Occupancy:
    """Boxes of small objects that exist from some time on; a new spot must not touch any of them."""

    def __init__(self) -> None:
        self.entries: list[tuple[Box, int, int | None]] = []  # box, t_from, t_to

    def add(self, p: Placement) -> None:
        self.entries.append((p.box, p.t_from_ns, p.t_to_ns))

    def close(self, box: Box, t_from: int, t_to: int) -> None:
        for i, (b, f, t) in enumerate(self.entries):
            if b == box and f == t_from and t is None:
                self.entries[i] = (b, f, t_to)
                return

    def free(self, box: Box, t_ns: int) -> bool:
        for b, _, t_to in self.entries:
            if t_to is not None and t_to <= t_ns:
                continue
            if box_gap(b, box) < SMALL_MARGIN:
                return False
        return True


def _spot_on(rng, world: World, surface: Surface, otype: ObjectType) -> Box | None:
    sx, sy, sz = otype.size
    if rng.random() < 0.5:
        sx, sy = sy, sx
    if sz > surface.clearance:
        return None
    x_lo, x_hi = surface.lo[0] + sx / 2 + 0.02, surface.hi[0] - sx / 2 - 0.02
    y_lo, y_hi = surface.lo[1] + sy / 2 + 0.02, surface.hi[1] - sy / 2 - 0.02
    if surface.owner is None:  # floor: keep off walls
        x_lo, x_hi, y_lo, y_hi = x_lo + 0.05, x_hi - 0.05, y_lo + 0.05, y_hi - 0.05
    if x_lo >= x_hi or y_lo >= y_hi:
        return None
    x, y = rng.uniform(x_lo, x_hi), rng.uniform(y_lo, y_hi)
    box = Box.make((x - sx / 2, y - sy / 2, surface.z), (x + sx / 2, y + sy / 2, surface.z + sz))
    if surface.owner is None:
        room = world.rooms[surface.room]
        cx, cy = room.center
        if np.hypot(x - cx, y - cy) < 1.1:          # the camera stands around the room centre
            return None
        if any(box.overlaps_xy(b, margin=0.05) for b in [f.box for f in world.furniture] + world.extra_obstacles):
            return None
        if world.in_doorway(x, y) or (world.doorway is not None and abs(x - world.rooms[0].hi[0]) < 1.3):
            return None
    return box


def _support_label(world: World, surface: Surface) -> str:
    if surface.owner is None:
        return "floor"
    return next(f.label for f in world.furniture if f.id == surface.owner)


def _choose_spot(rng, world: World, otype: ObjectType, occupancy: _Occupancy, t_ns: int,
                 exclude_surface: tuple[int | None, str, int] | None = None,
                 only: tuple[str, ...] | None = None, reject=None) -> tuple[Box, Surface]:
    surfaces = [s for s in world.surfaces if _support_label(world, s) in otype.supports]
    if only is not None:
        surfaces = [s for s in surfaces if f"{_support_label(world, s)}:{s.name}" in only
                    or _support_label(world, s) in only]
    if exclude_surface is not None:
        surfaces = [s for s in surfaces if (s.owner, s.name, s.room) != exclude_surface]
    if not surfaces:
        raise LayoutError(f"no surface for a {otype.label}")
    for _ in range(200):
        surface = surfaces[int(rng.integers(0, len(surfaces)))]
        box = _spot_on(rng, world, surface, otype)
        if box is not None and occupancy.free(box, t_ns) and (reject is None or not reject(box)):
            return box, surface
    raise LayoutError(f"no free spot for a {otype.label}")


def same_sector(world: World, a: Box, b: Box, min_angle: float = np.radians(95)) -> bool:
    """Seen from the centre of a's room, do a and b lie in nearly the same direction?

    The sweeps of a special visit skip the sector of the object to keep unseen; an object that must be
    seen in that visit (the double mover) is kept out of that sector.
    """
    room = world.room_of(*a.center[:2])
    if room < 0:
        return False
    c = np.asarray(world.rooms[room].center)
    da = np.asarray(a.center[:2]) - c
    db = np.asarray(b.center[:2]) - c
    cos = float(da @ db) / max(1e-9, float(np.linalg.norm(da) * np.linalg.norm(db)))
    return cos > np.cos(min_angle)


# --------------------------------------------------------------------------------------------- hiding


def find_hiding_place(rng, world: World, config: SceneConfig, otype: ObjectType):
    """A floor spot next to solid furniture and a camera station from which the furniture hides it.

    Returns (box, floor surface, station xy) or raises LayoutError. The spot must also be largely
    visible from the room centre, where the camera stands in the other visits.
    """
    lo_all, hi_all = occluder_boxes(world)
    cam_h = config.camera_height
    candidates = []
    for f in world.furniture:
        if f.label not in ("sofa", "counter", "shelf"):
            continue
        fb = f.box
        sx, sy, sz = otype.size
        along_x = f.quarter in (0, 2)  # back against a north/south wall: the ends are at +-x
        for end in (-1, 1):
            for frac in (0.25, 0.5, 0.75):
                if along_x:
                    x = (fb.hi[0] + 0.04 + sx / 2) if end > 0 else (fb.lo[0] - 0.04 - sx / 2)
                    y = fb.lo[1] + frac * (fb.hi[1] - fb.lo[1])
                    box = Box.make((x - sx / 2, y - sy / 2, 0.0), (x + sx / 2, y + sy / 2, sz))
                else:
                    x = fb.lo[0] + frac * (fb.hi[0] - fb.lo[0])
                    y = (fb.hi[1] + 0.04 + sx / 2) if end > 0 else (fb.lo[1] - 0.04 - sx / 2)
                    box = Box.make((x - sy / 2, y - sx / 2, 0.0), (x + sy / 2, y + sx / 2, sz))
                candidates.append((f, box))
    order = rng.permutation(len(candidates))
    for idx in order:
        f, box = candidates[int(idx)]
        room = world.rooms[f.room]
        if box.lo[0] < room.lo[0] + 0.05 or box.hi[0] > room.hi[0] - 0.05:
            continue
        if box.lo[1] < room.lo[1] + 0.05 or box.hi[1] > room.hi[1] - 0.05:
            continue
        if any(box.overlaps_xy(g.box, margin=0.03) for g in world.furniture):
            continue
        cxy = box.center[:2]
        if world.in_doorway(*cxy) or (world.doorway is not None and abs(cxy[0] - world.rooms[0].hi[0]) < 1.3):
            continue
        pts = lattice(box)
        centre = (*room.center, cam_h)
        if segments_blocked(centre, pts, lo_all, hi_all).mean() > 0.3:
            continue  # the regular stations must see it
        stations = []
        for gx in np.arange(room.lo[0] + 0.4, room.hi[0] - 0.35, 0.2):
            for gy in np.arange(room.lo[1] + 0.4, room.hi[1] - 0.35, 0.2):
                gx, gy = mm(gx), mm(gy)
                dist = np.hypot(gx - cxy[0], gy - cxy[1])
                if not 1.0 <= dist <= 3.5 or world.blocked_xy(gx, gy, STATION_CLEARANCE):
                    continue
                if not world.segment_clear(room.center, (gx, gy), 0.3):
                    continue
                pos = (gx, gy, cam_h)
                yaw, pitch = aim(pos, box.center)
                if not project_in_image(config, pos, yaw, pitch, pts, margin=0.15):
                    continue
                grown = Box.make(np.asarray(box.lo) - 0.03, np.asarray(box.hi) + 0.03)
                if segments_blocked(pos, lattice(grown, 5), lo_all, hi_all).all():
                    stations.append((gx, gy))
        if stations:
            station = stations[int(rng.integers(0, len(stations)))]
            floor = next(s for s in world.surfaces if s.owner is None and s.room == f.room)
            return box, floor, station
    raise LayoutError("no hiding place behind furniture")


# ----------------------------------------------------------------------------------------------- plan


def build_script(rng: np.random.Generator, world: World, config: SceneConfig) -> Script:
    V = config.visits
    base = config.base_time_ns
    gap_ns = int(round(config.visit_gap_s * 1e9))
    # nominal windows: a visit's path is planned later and must fit in MAX_VISIT_S
    windows = [(base + k * gap_ns, base + k * gap_ns + int(MAX_VISIT_S * 1e9)) for k in range(V)]
    objects: list[SceneObject] = [
        SceneObject(f.id, f.label, "furniture", f.color,
                    [Placement(f.box, None, "floor", base, parts=f.parts, groups=f.groups)])
        for f in world.furniture]
    next_id = max(o.id for o in objects) + 1
    occupancy = _Occupancy()
    roles = Roles()
    label_counts: dict[str, int] = {}
    reserved: set[str] = set()   # labels of the role objects: unique in the scene, so questions can name them

    def new_object(label: str, placement: Placement) -> SceneObject:
        nonlocal next_id
        otype = CATALOG[label]
        color = tuple(int(np.clip(c + rng.integers(-20, 21), 0, 255)) for c in otype.color)
        obj = SceneObject(next_id, label, "small", color, [placement])
        next_id += 1
        objects.append(obj)
        occupancy.add(placement)
        label_counts[label] = label_counts.get(label, 0) + 1
        return obj

    def place(label: str, t_ns: int, only=None, exclude=None, reject=None) -> Placement:
        box, surface = _choose_spot(rng, world, CATALOG[label], occupancy, t_ns, exclude, only, reject)
        parts, groups = small_parts(CATALOG[label], box, int(rng.integers(0, 4)))
        return Placement(box, surface.owner, surface.name, t_ns, parts=parts if len(parts) > 1 else (),
                         groups=groups if len(parts) > 1 else ())

    events: list[Event] = []
    # the chair is pushed and turned in one gap: planned first, so that nothing is put where it will stand
    if V >= 2:
        chair_gap = int(rng.integers(1, V))
        t_chair = int(windows[chair_gap - 1][1] + (windows[chair_gap][0] - windows[chair_gap - 1][1])
                      * rng.uniform(0.25, 0.75)) // 100_000_000 * 100_000_000
        pushed = push_chair(rng, world, t_chair)
        if pushed is not None:
            chair_obj = next(o for o in objects if o.id == pushed[0])
            old = chair_obj.placements[0]
            old.t_to_ns = t_chair
            chair_obj.placements.append(pushed[1])
            events.append(Event("moved", chair_obj.id, t_chair, old, pushed[1]))
            world.extra_obstacles.append(pushed[1].box)
            roles.pushed_chair = chair_obj.id

    keep_clear: list[Box] = []   # boxes of objects kept unseen in some visit: the mover stays out of their sector

    def clear_of_hidden(box: Box) -> bool:
        return any(same_sector(world, box, other) for other in keep_clear)

    # hidden object first: its spot is dictated by the geometry
    hidden = None
    if V >= 2:
        label = HIDEABLE[int(rng.integers(0, len(HIDEABLE)))]
        box, floor, station = find_hiding_place(rng, world, config, CATALOG[label])
        hidden = new_object(label, Placement(box, None, floor.name, base))
        roles.occluding_station = station
        keep_clear.append(box)
    # the double mover starts somewhere easy to see
    mover = None
    if V >= 3:
        label = VISIBLE_LABELS[int(rng.integers(0, len(VISIBLE_LABELS)))]
        mover = new_object(label, place(label, base, only=MOVER_SURFACES, reject=clear_of_hidden))
        roles.double_mover = mover.id
        reserved.add(label)
    # something on the middle board of the shelf
    middle_labels = [lb for lb in ("book", "vase", "bowl", "mug", "bottle") if lb not in reserved]
    middle_label = middle_labels[int(rng.integers(0, len(middle_labels)))]
    new_object(middle_label, place(middle_label, base, only=("shelf:board_middle",)))
    n_initial = int(rng.integers(9, 13))
    labels = sorted(CATALOG)
    tries = 0
    while sum(1 for o in objects if o.kind == "small") < n_initial and tries < 200:
        tries += 1
        label = labels[int(rng.integers(0, len(labels)))]
        if label_counts.get(label, 0) >= 2 or label in HIDEABLE or label in reserved:
            continue
        try:
            new_object(label, place(label, base))
        except LayoutError:  # that kind of object has no room left; another kind may
            continue

    static = [o for o in objects if o.kind == "small" and o is not hidden and o is not mover]
    if V >= 2:
        lonely = [o for o in static if label_counts[o.label] == 1] or static
        if mover is not None:
            apart = [o for o in lonely if not same_sector(world, mover.placements[0].box, o.placements[0].box)]
            lonely = apart or lonely
        out_of_view = lonely[int(rng.integers(0, len(lonely)))]
        keep_clear.append(out_of_view.placements[0].box)
        visits_special = list(range(1, V))
        roles.out_of_view = (out_of_view.id, int(rng.choice(visits_special)))
        others = [v for v in visits_special if v != roles.out_of_view[1]] or visits_special
        roles.occluded = (hidden.id, int(rng.choice(others)))
    protected = {o.id for o in (hidden, mover) if o is not None}
    if roles.out_of_view:
        protected.add(roles.out_of_view[0])

    def gap_time(g: int) -> int:
        lo, hi = windows[g - 1][1], windows[g][0]
        return int(lo + (hi - lo) * rng.uniform(0.25, 0.75)) // 100_000_000 * 100_000_000

    removed: set[int] = set()

    def place_visible(label: str, t_ns: int, only=None, exclude=None) -> Placement:
        """A spot outside the sectors the special visits skip, so that the change can be observed;
        anywhere when there is none."""
        try:
            return place(label, t_ns, only=only, exclude=exclude, reject=clear_of_hidden)
        except LayoutError:
            return place(label, t_ns, only=only, exclude=exclude)

    def move(obj: SceneObject, t_ns: int, only=None) -> None:
        old = obj.placements[-1]
        old.t_to_ns = t_ns
        occupancy.close(old.box, old.t_from_ns, t_ns)
        new = place_visible(obj.label, t_ns, only=only,
                            exclude=(old.support_object, old.support, world.room_of(*old.box.center[:2])))
        obj.placements.append(new)
        events.append(Event("moved", obj.id, t_ns, old, new))

    def remove(obj: SceneObject, t_ns: int) -> None:
        old = obj.placements[-1]
        old.t_to_ns = t_ns
        occupancy.close(old.box, old.t_from_ns, t_ns)
        removed.add(obj.id)
        events.append(Event("removed", obj.id, t_ns, old, None))

    if V >= 2:
        gaps = list(range(1, V))
        mover_gaps = sorted(rng.choice(gaps, size=2, replace=False).tolist()) if mover is not None else []
        remove_gaps = [int(rng.choice(gaps))] + ([int(rng.choice(gaps))] if rng.random() < 0.3 else [])
        appear_gaps = [int(rng.choice(gaps))] + ([int(rng.choice(gaps))] if rng.random() < 0.5 else [])
        other_move_gaps = [g for g in gaps if rng.random() < 0.7] or [int(rng.choice(gaps))]
        for g in gaps:
            changed: set[int] = set()
            if g in mover_gaps:
                move(mover, gap_time(g), only=MOVER_SURFACES)
                changed.add(mover.id)
            candidates = [o for o in objects if o.kind == "small" and o.id not in protected
                          and o.id not in removed and o.id not in changed
                          and o.placements[0].t_from_ns <= windows[g - 1][1]]
            if g in other_move_gaps and candidates:
                obj = candidates[int(rng.integers(0, len(candidates)))]
                move(obj, gap_time(g))
                changed.add(obj.id)
                candidates.remove(obj)
            for _ in range(remove_gaps.count(g)):
                if candidates:
                    in_sight = [o for o in candidates if not clear_of_hidden(o.placements[-1].box)] or candidates
                    obj = in_sight[int(rng.integers(0, len(in_sight)))]
                    remove(obj, gap_time(g))
                    candidates.remove(obj)
            for _ in range(appear_gaps.count(g)):
                choices = [lb for lb in labels if lb not in HIDEABLE and label_counts.get(lb, 0) == 0]
                t_ns = gap_time(g)
                for k in rng.permutation(len(choices)):
                    try:
                        placement = place_visible(choices[int(k)], t_ns)
                    except LayoutError:
                        continue
                    obj = new_object(choices[int(k)], placement)
                    events.append(Event("appeared", obj.id, t_ns, None, obj.placements[0]))
                    break
    events.sort(key=lambda e: (e.t_world_ns, e.object_id))
    from .patrol import plan_patrols

    frames, windows = plan_camera(rng, world, config, objects, roles, windows)
    patrols, patrol_frames = plan_patrols(rng, world, config, objects, events, windows, len(frames))
    frames = sorted(frames + patrol_frames, key=lambda f: f.stamp_ns)
    furniture = {f.id: f for f in world.furniture}
    return Script(objects, events, frames, roles, windows, furniture, patrols)


def push_chair(rng, world: World, t_ns: int) -> tuple[int, Placement] | None:
    """The chair pushed 0.3-0.9 m and turned by a quarter or half turn: (chair id, new placement) or None
    when no such spot keeps clear of the other furniture, the walls, the doorway and the camera's disc."""
    chair = next((f for f in world.furniture if f.label == "chair"), None)
    if chair is None:
        return None
    room = world.rooms[chair.room]
    others = [f.box for f in world.furniture if f.id != chair.id]
    cx, cy = room.center
    for _ in range(200):
        dist = rng.uniform(0.3, 0.9)
        ang = rng.uniform(-np.pi, np.pi)
        turn = int(rng.choice([1, 2, 3]))
        offset = (mm(chair.offset[0] + dist * np.cos(ang)), mm(chair.offset[1] + dist * np.sin(ang)))
        parts = furniture_parts("chair", chair.quarter + turn, offset)
        box = union_box(parts)
        if box.lo[0] < room.lo[0] + 0.05 or box.hi[0] > room.hi[0] - 0.05:
            continue
        if box.lo[1] < room.lo[1] + 0.05 or box.hi[1] > room.hi[1] - 0.05:
            continue
        if any(box.overlaps_xy(b, margin=0.1) for b in others):
            continue
        nx, ny = min(max(cx, box.lo[0]), box.hi[0]), min(max(cy, box.lo[1]), box.hi[1])
        if np.hypot(nx - cx, ny - cy) < 1.0:
            continue
        if world.doorway is not None:   # keep both sides of the door passable
            x0 = world.rooms[0].hi[0]
            door = Box.make((x0 - 1.2, world.doorway[0] - 0.2, 0.0), (x0 + 1.3, world.doorway[1] + 0.2, 1.0))
            if box.overlaps_xy(door):
                continue
        return chair.id, Placement(box, None, "floor", t_ns, parts=parts, groups=chair.groups)
    return None


# --------------------------------------------------------------------------------------------- camera


def _hfov(config: SceneConfig) -> float:
    return 2.0 * np.arctan((config.width / 2.0) / config.fx)


def plan_camera(rng, world: World, config: SceneConfig, objects: list[SceneObject], roles: Roles,
                windows: list[tuple[int, int]]) -> tuple[list[FramePlan], list[tuple[int, int]]]:
    """Per visit: sweeps (turns with a nodding head) at stations near the room centres, walks between
    them (motion.py: walking ~0.5 m/s, turning <= 45 deg/s); in the special visits the sweeps skip the
    sector of the hidden objects and, for the occluded one, a slow sweep is made from the station behind
    the occluder. Returns the frames and the visit windows (first and last stamp)."""
    frames: list[FramePlan] = []
    out_windows = []
    index = 0
    for visit in range(config.visits):
        cam_h = mm(config.camera_height + rng.uniform(-0.05, 0.05))
        rate = min(motion.MAX_TURN_DEG_S, config.turn_rate_deg * rng.uniform(0.85, 1.12))
        speed = config.walk_speed * rng.uniform(0.85, 1.15)
        avoid = []   # object centres whose sector the sweeps skip in this visit
        for role in (roles.out_of_view, roles.occluded):
            if role is not None and role[1] == visit:
                obj = next(o for o in objects if o.id == role[0])
                avoid.append(obj.placements[0].box.center)
        rooms = list(range(len(world.rooms)))
        if visit % 2 == 1:
            rooms.reverse()
        path = _Path(cam_h, speed)
        for r in rooms:
            room = world.rooms[r]
            stations = _stations(rng, world, room, 2 if len(world.rooms) == 1 else 1)
            for xy in stations:
                if path.xy is not None:
                    path.walk(_route(world, path.xy, xy))
                yaw0, arc = _sweep_arc(rng, config, xy, cam_h, avoid)
                path.sweep(xy, yaw0, arc, rate)
            if roles.occluded is not None and roles.occluded[1] == visit and roles.occluding_station is not None:
                hidden = next(o for o in objects if o.id == roles.occluded[0])
                if world.room_of(*hidden.placements[0].box.center[:2]) == r:
                    st = roles.occluding_station
                    path.walk(_route(world, path.xy, st))
                    yaw_c, _ = aim((*st, cam_h), hidden.placements[0].box.center)
                    path.sweep(st, yaw_c - np.radians(30), np.radians(60), 12.0)
                    path.walk(_route(world, st, room.center))
        if path.duration() > MAX_VISIT_S:
            raise LayoutError(f"visit {visit} path takes {path.duration():.0f} s (> {MAX_VISIT_S:.0f} s)")
        start = windows[visit][0]
        samples = motion.sample(path.segments, config.fps)
        first = index
        for t, pos, yaw, pitch in samples:
            frames.append(FramePlan(index, visit, start + int(round(t * 1e9)), pos, yaw, pitch))
            index += 1
        out_windows.append((frames[first].stamp_ns, frames[-1].stamp_ns))
    return frames, out_windows


class _Path:
    """Segments of one visit, joined by turns on the spot (a walk starts facing where it goes)."""

    def __init__(self, z: float, speed: float) -> None:
        self.z, self.speed = z, speed
        self.segments: list = []
        self.xy: tuple[float, float] | None = None
        self.yaw = 0.0

    def _turn_to(self, yaw: float) -> None:
        if self.xy is None:
            self.yaw = yaw
            return
        t = motion.turn_to(self.xy, self.z, self.yaw, yaw)
        if t is not None:
            self.segments.append(t)
        self.yaw = yaw

    def walk(self, points) -> None:
        for p, q in zip(points, points[1:]):
            if np.hypot(q[0] - p[0], q[1] - p[1]) < 1e-6:
                continue
            w = motion.Walk(tuple(p), tuple(q), self.z, self.speed)
            self._turn_to(w.heading)
            self.segments.append(w)
            self.xy = tuple(q)

    def sweep(self, xy, yaw0: float, arc: float, rate_deg_s: float) -> None:
        if self.xy is None:
            self.xy = tuple(xy)
            self.yaw = yaw0
        self._turn_to(yaw0)
        self.segments.append(motion.sweep(xy, self.z, yaw0, arc, rate_deg_s))
        self.xy, self.yaw = tuple(xy), yaw0 + arc

    def duration(self) -> float:
        return motion.duration(self.segments)


def _stations(rng, world: World, room, n: int) -> list[tuple[float, float]]:
    cx, cy = room.center
    phi = rng.uniform(0, 2 * np.pi)
    out = []
    for k in range(n):
        for _ in range(50):
            r = rng.uniform(0.15, 0.45)
            a = phi + k * np.pi + rng.uniform(-0.4, 0.4)
            xy = (mm(cx + r * np.cos(a)), mm(cy + r * np.sin(a)))
            if not world.blocked_xy(*xy, STATION_CLEARANCE):
                out.append(xy)
                break
        else:
            raise LayoutError("no free camera station near the room centre")
    return out


def _sweep_arc(rng, config: SceneConfig, xy, cam_h: float, avoid) -> tuple[float, float]:
    """Start yaw and arc (radians) of a turn at ``xy`` that never brings ``avoid`` points into view."""
    if not avoid:
        return float(rng.uniform(-np.pi, np.pi)), 2 * np.pi
    half = _hfov(config) / 2 + np.radians(30)
    dirs = sorted(float(np.arctan2(c[1] - xy[1], c[0] - xy[0])) % (2 * np.pi) for c in avoid)
    # largest free interval between forbidden sectors on the circle
    best = None
    for i, d in enumerate(dirs):
        nxt = dirs[(i + 1) % len(dirs)] + (2 * np.pi if i + 1 == len(dirs) else 0.0)
        start, end = d + half, nxt - half
        if best is None or end - start > best[1] - best[0]:
            best = (start, end)
    start, end = best
    if end - start < np.radians(60):
        raise LayoutError("the sectors to avoid leave no room for a sweep")
    return float(start), float(end - start)


def _route(world: World, a, b) -> list[tuple[float, float]]:
    """Waypoints from a to b: straight, else via the room centres and the door."""
    if world.segment_clear(a, b, 0.25) and world.room_of(*a) == world.room_of(*b):
        return [tuple(a), tuple(b)]
    ra, rb = world.room_of(*a), world.room_of(*b)
    pts = [tuple(a), world.rooms[ra].center]
    if ra != rb:
        x0 = world.rooms[0].hi[0]
        ym = (world.doorway[0] + world.doorway[1]) / 2
        side_a = (x0 - 0.6, ym) if ra == 0 else (x0 + 0.7, ym)
        side_b = (x0 + 0.7, ym) if rb == 1 else (x0 - 0.6, ym)
        pts += [side_a, side_b, world.rooms[rb].center]
    pts.append(tuple(b))
    for p, q in zip(pts, pts[1:]):
        if not world.segment_clear(p, q, 0.25):
            raise LayoutError("no clear walking route")
    return pts
