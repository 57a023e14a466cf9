"""The ground-truth document of a generated scene (JSON), computed from the script and the rendering.

Schema ``tempomem_scenegen/2`` (times are UTC epoch seconds; coordinates metres in "map", z up):

- ``generator`` (digest of the generator's source), ``seed``, ``attempt`` (layout draw that passed the
  checks), ``profile`` (default | clip | oracle: which
  features the bag carries), ``config`` (resolved: the fps the seed drew is written there), ``fps``,
  ``time_base``, ``ask_time`` (= the last frame stamp: questions are asked then), ``camera`` (pinhole
  intrinsics, frame ids), ``perception`` (the perception settings the ground truth assumed: evaluate with
  exactly these; ``min_mask_pixels`` is the node default 50 scaled by image area / (640 x 480)).
- ``rooms``: [{id, name, bbox_min, bbox_max}]; ``supports``: [{object, surface, z, xy_min, xy_max}].
- ``visits``: [{index, t_start, t_end, n_frames, n_planned}] (kept frames; a few planned ones are
  dropped to keep an object out of view or hidden for a whole visit).
- ``objects``: [{id, label, kind (furniture|small), color, intervals, seen_stamps, first_seen,
  last_seen}]. ``intervals`` = [{t_from, t_to (null = until the end), center, bbox_min, bbox_max,
  support_object (furniture id, null for the floor), support (surface name)}]; objects present from the
  start have t_from = time_base. ``seen_stamps``: frames in which the segmenter reported the object
  (the detection model, detection.py) AND the perception would keep the instance (frames.py): an object
  the memory never received is not seen.
- ``events``: true changes [{kind (appeared|moved|removed), object, label, t_world (in the gap between
  visits), t_observable (first frame that could show the change: the object seen at its new place for
  appeared/moved, for removed the old place in view so that an object there would have been reported
  with probability >= 0.5 within the perception's depth range; null if never), before, after}]. The
  pushed chair's move is a furniture ``moved`` event.
- ``roles``: the planned hard cases: out_of_view {object, visit}, occluded {object, visit, station},
  double_mover (object id), pushed_chair (furniture id or null).
- ``visibility``: per visit, small objects present in it, as seen / occluded (in the field of view with
  >= min_pixels but never seen) / out_of_view; ``stayed_put`` = not changed since the previous visit.
- ``patrols``: [{index, gap, t_start, t_end, n_frames, looks: [{target, object, station, t_start, t_end,
  n_frames}]}]: the short passes between visits (patrol.py).
- ``frames``: per kept frame {stamp, stamp_ns, visit (null in a patrol), patrol (pass index or null),
  pose (true, optical frame in map), published_pose (jittered), instances [{id (mask value), object
  (null = spurious or reflection), label, confidence, pixels, kept (the perception keeps it), kind
  (object | spurious | reflection), part (part group when reported in parts, else null), p_detect}]}.
"""

from __future__ import annotations

from .config import NODE_IMAGE_AREA, NODE_MIN_MASK_PIXELS, SceneConfig
from .frames import PERCEPTION, FrameRecord
from .render import look_pose, quaternion_xyzw
from .script import Placement, Script
from .world import World

SCHEMA = "tempomem_scenegen/2"


def generator_version() -> str:
    """A digest of the generator's source: a scene written by other code is never mistaken for this one's."""
    import hashlib
    from pathlib import Path

    h = hashlib.sha1()
    for f in sorted(Path(__file__).parent.glob("*.py")):
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]
CAMERA_FRAME = "camera_optical"
WORLD_FRAME = "map"


def seconds(ns: int | None) -> float | None:
    return None if ns is None else ns / 1e9


def _rounded(v, nd: int = 4) -> list[float]:
    return [round(float(x), nd) for x in v]


def placement_dict(p: Placement) -> dict:
    return {"t_from": seconds(p.t_from_ns), "t_to": seconds(p.t_to_ns), "center": _rounded(p.box.center),
            "bbox_min": _rounded(p.box.lo), "bbox_max": _rounded(p.box.hi), "support_object": p.support_object,
            "support": p.support}


def _seen(record: FrameRecord, oid: int) -> bool:
    return record.detected(oid)


def perception_settings(config: SceneConfig) -> dict:
    """The perception node parameters the ground truth assumed (pass them to the node when evaluating)."""
    return {"min_mask_pixels": config.perception_min_pixels, "mask_erosion_px": PERCEPTION.mask_erosion_px,
            "min_depth": PERCEPTION.min_depth, "max_depth": PERCEPTION.max_depth,
            "node_default_min_mask_pixels": NODE_MIN_MASK_PIXELS,
            "area_scale": round(config.width * config.height / NODE_IMAGE_AREA, 6)}


def build_ground_truth(seed: int, attempt: int, config: SceneConfig, world: World, script: Script,
                       records: list[FrameRecord]) -> dict:
    n = config.min_pixels
    detected_stamps: dict[int, list[float]] = {}
    for rec in records:
        reported = {i.object_id for i in rec.instances if i.object_id is not None and i.kept}
        for oid in sorted(reported):
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
                          and (r.probe_shown or {}).get(obj.id, False)), None)
        else:
            until = ev.after.t_to_ns
            t_obs = next((r.plan.stamp_ns for r in records if r.plan.stamp_ns >= ev.t_world_ns
                          and (until is None or r.plan.stamp_ns < until) and _seen(r, obj.id)), None)
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
            if any(_seen(r, obj.id) for r in recs):
                seen.append(obj.id)
            elif any(r.ghost.get(obj.id, 0) >= n for r in recs):
                occluded.append(obj.id)
            else:
                out_of_view.append(obj.id)
        visibility.append({"visit": v, "seen": seen, "occluded": occluded, "out_of_view": out_of_view,
                           "stayed_put": stayed})
    roles = script.roles
    kept_stamps = {r.plan.stamp_ns for r in records}
    patrols = []
    for pp in script.patrols:
        looks = [{"target": _rounded(lk.target), "object": lk.object_id, "station": _rounded(lk.station),
                  "t_start": seconds(lk.t_start_ns), "t_end": seconds(lk.t_end_ns), "n_frames": lk.n_frames}
                 for lk in pp.looks]
        n_kept = sum(1 for f in script.frames if f.patrol == pp.index and f.stamp_ns in kept_stamps)
        patrols.append({"index": pp.index, "gap": pp.gap, "t_start": seconds(pp.t_start_ns),
                        "t_end": seconds(pp.t_end_ns), "n_frames": n_kept, "looks": looks})
    frames = []
    for rec in records:
        pose = look_pose(rec.plan.position, rec.plan.yaw, rec.plan.pitch)
        frames.append({
            "stamp": seconds(rec.plan.stamp_ns), "stamp_ns": rec.plan.stamp_ns, "visit": rec.plan.visit,
            "patrol": rec.plan.patrol,
            "pose": {"position": _rounded(pose[:3, 3]), "orientation_xyzw": _rounded(quaternion_xyzw(pose[:3, :3]), 6)},
            "published_pose": {"position": _rounded(rec.published_position),
                               "orientation_xyzw": _rounded(rec.published_quaternion, 6)},
            "instances": [{"id": i.mask_id, "object": i.object_id, "label": i.label, "confidence": i.confidence,
                           "pixels": i.pixels, "kept": i.kept, "kind": i.kind, "part": i.part,
                           "p_detect": i.p_detect} for i in rec.instances],
        })
    return {
        "schema": SCHEMA,
        "generator": generator_version(),
        "seed": seed,
        "attempt": attempt,
        "profile": config.profile,
        "fps": config.fps,
        "config": config.to_dict(),
        "time_base": seconds(config.base_time_ns),
        "ask_time": seconds(records[-1].plan.stamp_ns) if records else None,
        "camera": {"width": config.width, "height": config.height, "fx": config.fx, "fy": config.fx,
                   "cx": config.cx, "cy": config.cy, "frame_id": CAMERA_FRAME, "world_frame": WORLD_FRAME},
        "perception": perception_settings(config),
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
            "pushed_chair": roles.pushed_chair,
        },
        "visibility": visibility,
        "patrols": patrols,
        "frames": frames,
    }
