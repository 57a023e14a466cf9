"""The ground-truth document of a generated scene (JSON), computed from the script and the rendering.

Schema ``tempomem_scenegen/1`` (times are UTC epoch seconds; coordinates metres in "map", z up):

- ``seed``, ``attempt`` (layout draw that passed the checks), ``config``, ``time_base``, ``ask_time``
  (= the last frame stamp: questions are asked then), ``camera`` (pinhole intrinsics, frame ids).
- ``rooms``: [{id, name, bbox_min, bbox_max}]; ``supports``: [{object, surface, z, xy_min, xy_max}].
- ``visits``: [{index, t_start, t_end, n_frames, n_planned}] (kept frames; a few planned ones are
  dropped to keep an object out of view or hidden for a whole visit).
- ``objects``: [{id, label, kind (furniture|small), color, intervals, seen_stamps, first_seen,
  last_seen}]. ``intervals`` = [{t_from, t_to (null = until the end), center, bbox_min, bbox_max,
  support_object (furniture id, null for the floor), support (surface name)}]; objects present from the
  start have t_from = time_base. ``seen_stamps``: frames in which the object had >= min_pixels visible
  pixels AND the segmenter reported it (not missed).
- ``events``: true changes [{kind (appeared|moved|removed), object, label, t_world (in the gap between
  visits), t_observable (first frame that could show the change: the new place visible with
  >= min_pixels for appeared/moved, the old place visible for removed; null if never), before, after}].
- ``roles``: the planned hard cases: out_of_view {object, visit}, occluded {object, visit, station},
  double_mover (object id).
- ``visibility``: per visit, small objects present in it, as seen / occluded (in the field of view with
  >= min_pixels but hidden) / out_of_view; ``stayed_put`` = not changed since the previous visit.
- ``frames``: per kept frame {stamp, stamp_ns, visit, pose (true, optical frame in map),
  published_pose (jittered), instances [{id (mask value), object (null = spurious), label, confidence,
  pixels}]}.
"""

from __future__ import annotations

from .config import SceneConfig
from .frames import FrameRecord
from .render import look_pose, quaternion_xyzw
from .script import Placement, Script
from .world import World

SCHEMA = "tempomem_scenegen/1"
CAMERA_FRAME = "camera_optical"
WORLD_FRAME = "map"


def seconds(ns: int | None) -> float | None:
    return None if ns is None else ns / 1e9


def _vec(v, nd: int = 4) -> list[float]:
    return [round(float(x), nd) for x in v]


def placement_dict(p: Placement) -> dict:
    return {"t_from": seconds(p.t_from_ns), "t_to": seconds(p.t_to_ns), "center": _vec(p.box.center),
            "bbox_min": _vec(p.box.lo), "bbox_max": _vec(p.box.hi), "support_object": p.support_object,
            "support": p.support}


def _seen(record: FrameRecord, oid: int, min_pixels: int) -> bool:
    return record.visible.get(oid, 0) >= min_pixels


def build_ground_truth(seed: int, attempt: int, config: SceneConfig, world: World, script: Script,
                       records: list[FrameRecord]) -> dict:
    n = config.min_pixels
    detected_stamps: dict[int, list[float]] = {}
    for rec in records:
        reported = {i.object_id for i in rec.instances if i.object_id is not None}
        for oid in reported:
            if _seen(rec, oid, n):
                detected_stamps.setdefault(oid, []).append(seconds(rec.plan.stamp_ns))
    objects = []
    for obj in script.objects:
        stamps = detected_stamps.get(obj.id, [])
        objects.append({
            "id": obj.id, "label": obj.label, "kind": obj.kind, "color": list(obj.color),
            "intervals": [placement_dict(p) for p in obj.placements],
            "seen_stamps": stamps, "first_seen": stamps[0] if stamps else None,
            "last_seen": stamps[-1] if stamps else None,
        })
    events = []
    for ev in script.events:
        obj = script.object(ev.object_id)
        if ev.kind == "removed":
            t_obs = next((r.plan.stamp_ns for r in records if r.plan.stamp_ns >= ev.t_world_ns
                          and r.probes.get(obj.id, 0) >= n), None)
        else:
            until = ev.after.t_to_ns
            t_obs = next((r.plan.stamp_ns for r in records if r.plan.stamp_ns >= ev.t_world_ns
                          and (until is None or r.plan.stamp_ns < until) and _seen(r, obj.id, n)), None)
        events.append({
            "kind": ev.kind, "object": obj.id, "label": obj.label, "t_world": seconds(ev.t_world_ns),
            "t_observable": seconds(t_obs),
            "before": None if ev.before is None else placement_dict(ev.before),
            "after": None if ev.after is None else placement_dict(ev.after),
        })
    visits = []
    visibility = []
    for v, (start, end) in enumerate(script.visit_windows):
        recs = [r for r in records if r.plan.visit == v]
        n_planned = sum(1 for f in script.frames if f.visit == v)
        visits.append({"index": v, "t_start": seconds(recs[0].plan.stamp_ns) if recs else seconds(start),
                       "t_end": seconds(recs[-1].plan.stamp_ns) if recs else seconds(end),
                       "n_frames": len(recs), "n_planned": n_planned})
        seen, occluded, out_of_view, stayed = [], [], [], []
        for obj in script.objects:
            if obj.kind != "small":
                continue
            p = obj.placement_at(start)
            if p is None:
                continue
            if v > 0 and obj.placement_at(script.visit_windows[v - 1][1]) is p:
                stayed.append(obj.id)
            if any(_seen(r, obj.id, n) for r in recs):
                seen.append(obj.id)
            elif any(r.ghost.get(obj.id, 0) >= n for r in recs):
                occluded.append(obj.id)
            else:
                out_of_view.append(obj.id)
        visibility.append({"visit": v, "seen": seen, "occluded": occluded, "out_of_view": out_of_view,
                           "stayed_put": stayed})
    roles = script.roles
    frames = []
    for rec in records:
        pose = look_pose(rec.plan.position, rec.plan.yaw, rec.plan.pitch)
        frames.append({
            "stamp": seconds(rec.plan.stamp_ns), "stamp_ns": rec.plan.stamp_ns, "visit": rec.plan.visit,
            "pose": {"position": _vec(pose[:3, 3]), "orientation_xyzw": _vec(quaternion_xyzw(pose[:3, :3]), 6)},
            "published_pose": {"position": _vec(rec.published_position),
                               "orientation_xyzw": _vec(rec.published_quaternion, 6)},
            "instances": [{"id": i.mask_id, "object": i.object_id, "label": i.label, "confidence": i.confidence,
                           "pixels": i.pixels} for i in rec.instances],
        })
    return {
        "schema": SCHEMA,
        "seed": seed,
        "attempt": attempt,
        "config": config.to_dict(),
        "time_base": seconds(config.base_time_ns),
        "ask_time": seconds(records[-1].plan.stamp_ns) if records else None,
        "camera": {"width": config.width, "height": config.height, "fx": config.fx, "fy": config.fx,
                   "cx": config.cx, "cy": config.cy, "frame_id": CAMERA_FRAME, "world_frame": WORLD_FRAME},
        "rooms": [{"id": r.id, "name": r.name, "bbox_min": [*r.lo, 0.0], "bbox_max": [*r.hi, world.envelope.hi[2]]}
                  for r in world.rooms],
        "supports": [{"object": s.owner, "surface": s.name, "room": s.room, "z": s.z, "xy_min": list(s.lo),
                      "xy_max": list(s.hi)} for s in world.surfaces],
        "visits": visits,
        "objects": objects,
        "events": events,
        "roles": {
            "out_of_view": None if roles.out_of_view is None else
            {"object": roles.out_of_view[0], "visit": roles.out_of_view[1]},
            "occluded": None if roles.occluded is None else
            {"object": roles.occluded[0], "visit": roles.occluded[1],
             "station": list(roles.occluding_station) if roles.occluding_station else None},
            "double_mover": roles.double_mover,
        },
        "visibility": visibility,
        "frames": frames,
    }
