"""Patrol passes between the visits: a robot walking by glances at a few watched places every few minutes.

Why: a robot that patrols learns that something is gone from many short looks spread over time, not from
one long look. Each gap between two visits gets ``SceneConfig.patrol_passes`` passes (every ~3 minutes
with the default 600 s gap); a pass looks at two or three *watched places* for about a second each, from a
fixed patrol station per place (a free spot 1.0-2.0 m away with a clear line of sight). The frames between
two looks of a pass are not in the bag (the walk between the places is not part of the scene), so a
watched place gets a burst of frames every few minutes, which is exactly the case where misses from
separate looks must add up.

Watched places are chosen from the scene's plan: the old place of a removed object (probability 0.7
each), the old place of a moved one (0.4), and objects that never change (at least two, so that a
memory that turns looks into false removals is caught).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import motion
from .config import SceneConfig
from .script import Event, FramePlan, SceneObject, aim, lattice, occluder_boxes, project_in_image, segments_blocked
from .world import Box, LayoutError, World, mm

WATCHED_MAX = 4
STATIC_WATCHED = 2
LOOK_DISTANCE = (1.0, 2.0)     # metres from the watched place to the patrol station
CHANGE_CLEARANCE_S = 5.0       # a pass never straddles a change (the change time would fall inside a look)


@dataclass
class Look:
    target: tuple[float, float, float]      # the watched place (centre of the box looked at)
    object_id: int | None                   # the object that stands (or stood) there
    station: tuple[float, float]
    t_start_ns: int
    t_end_ns: int
    n_frames: int


@dataclass
class PatrolPass:
    index: int
    gap: int                                # between visit gap - 1 and visit gap
    t_start_ns: int
    t_end_ns: int
    looks: list[Look] = field(default_factory=list)


def _station_for(rng, world: World, config: SceneConfig, box: Box, cam_h: float) -> tuple[float, float] | None:
    room_id = world.room_of(*box.center[:2])
    if room_id < 0:
        return None
    room = world.rooms[room_id]
    lo_all, hi_all = occluder_boxes(world)
    pts = lattice(box, 3)
    good = []
    for gx in np.arange(room.lo[0] + 0.4, room.hi[0] - 0.35, 0.2):
        for gy in np.arange(room.lo[1] + 0.4, room.hi[1] - 0.35, 0.2):
            gx, gy = mm(gx), mm(gy)
            d = float(np.hypot(gx - box.center[0], gy - box.center[1]))
            if not LOOK_DISTANCE[0] <= d <= LOOK_DISTANCE[1] or world.blocked_xy(gx, gy, 0.35):
                continue
            if not world.segment_clear(room.center, (gx, gy), 0.3):
                continue
            pos = (gx, gy, cam_h)
            yaw, pitch = aim(pos, box.center)
            if not project_in_image(config, pos, yaw, pitch, pts, margin=0.2):
                continue
            if segments_blocked(pos, pts, lo_all, hi_all).mean() > 0.2:
                continue
            good.append((gx, gy))
    if not good:
        return None
    return good[int(rng.integers(0, len(good)))]


def watched_places(rng, objects: list[SceneObject], events: list[Event]) -> list[tuple[Box, int]]:
    """(box, object id) of the places the patrol looks at, in a fixed order."""
    out: list[tuple[Box, int]] = []
    changed = {e.object_id for e in events}
    by_id = {o.id: o for o in objects}
    for e in events:
        obj = by_id[e.object_id]
        if obj.kind != "small" or e.before is None:
            continue
        if e.kind == "removed" and rng.random() < 0.7:
            out.append((e.before.box, e.object_id))
        elif e.kind == "moved" and rng.random() < 0.4:
            out.append((e.before.box, e.object_id))
    out = out[:WATCHED_MAX - STATIC_WATCHED]
    static = [o for o in objects if o.kind == "small" and o.id not in changed and o.placements[0].support != "floor"]
    for k in rng.permutation(len(static)):
        if len(out) >= WATCHED_MAX:
            break
        out.append((static[int(k)].placements[0].box, static[int(k)].id))
    return out


def plan_patrols(rng, world: World, config: SceneConfig, objects: list[SceneObject], events: list[Event],
                 windows: list[tuple[int, int]], first_index: int) -> tuple[list[PatrolPass], list[FramePlan]]:
    """The patrol passes of every gap and their frames (plan indices from ``first_index`` on)."""
    if not config.patrol or config.visits < 2 or config.patrol_passes == 0:
        return [], []
    cam_h = mm(config.camera_height)
    places = []
    for box, oid in watched_places(rng, objects, events):
        station = _station_for(rng, world, config, box, cam_h)
        if station is not None:
            places.append((box, oid, station))
    if not places:
        return [], []
    change_times = sorted(e.t_world_ns for e in events)
    passes: list[PatrolPass] = []
    frames: list[FramePlan] = []
    index = first_index
    for g in range(1, config.visits):
        lo, hi = windows[g - 1][1] + int(20e9), windows[g][0] - int(20e9)
        n_pass = config.patrol_passes
        for k in range(n_pass):
            t0 = int(lo + (hi - lo) * (k + rng.uniform(0.3, 0.7)) / n_pass)
            n_looks = min(len(places), 2 if rng.random() < 0.5 else 3)
            chosen = [places[int(i)] for i in rng.permutation(len(places))[:n_looks]]
            plans = []
            for box, oid, station in chosen:
                target = box.center
                away = np.asarray(station, float) - np.asarray(target[:2], float)
                away = away / max(1e-9, float(np.linalg.norm(away)))
                start = (mm(station[0] + 0.25 * away[0]), mm(station[1] + 0.25 * away[1]))
                yaw, pitch = aim((*station, cam_h), target)
                segments = []
                if not world.blocked_xy(*start, 0.3):   # the last steps towards the station, already looking
                    segments.append(motion.Walk(start, tuple(station), cam_h, config.walk_speed, yaw, pitch))
                segments.append(motion.Hold(tuple(station), cam_h, yaw, pitch, float(rng.uniform(0.8, 1.5))))
                plans.append((target, oid, station, segments))
            total_s = sum(motion.duration(p[3]) for p in plans) + 8.0 * (len(plans) - 1)
            while any(t0 - CHANGE_CLEARANCE_S * 1e9 <= c <= t0 + (total_s + CHANGE_CLEARANCE_S) * 1e9
                      for c in change_times):
                t0 += int(10e9)
            pp = PatrolPass(len(passes), g, t0, t0)
            t = t0
            prev_station = None
            for target, oid, station, segments in plans:
                if prev_station is not None:   # the walk from one station to the next is not recorded
                    t += int((np.hypot(station[0] - prev_station[0], station[1] - prev_station[1])
                              / config.walk_speed + 2.0) * 1e9)
                samples = motion.sample(segments, config.fps)
                for s, pos, yaw, pitch in samples:
                    frames.append(FramePlan(index, None, t + int(round(s * 1e9)), pos, yaw, pitch, patrol=pp.index))
                    index += 1
                end = t + int(round(samples[-1][0] * 1e9))
                pp.looks.append(Look(target, oid, station, t, end, len(samples)))
                t = end + int(round(1e9 / config.fps))
                prev_station = station
            pp.t_end_ns = pp.looks[-1].t_end_ns
            if pp.t_end_ns >= hi + int(15e9):
                raise LayoutError("a patrol pass runs into the next visit")
            passes.append(pp)
    return passes, frames
