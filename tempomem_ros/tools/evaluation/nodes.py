"""Snapshot a scene through the real nodes: replay the bag, then ask the memory's ROS services.

Why through the services: that is how users question the memory (ros2 service call), so the evaluated
answers are the ones a robot would get, including the message conversions. The snapshot has the same
format as the offline one (snapshot.py) so both are scored by the same code.
"""

from __future__ import annotations

from pathlib import Path

from tempomem_ros.nodes.conversions import from_time, to_time
from tempomem_ros.srv import Changes, Query, SceneAsOf

from .pipeline import NodesPipeline
from .score import _key, query_times


def _pt(p) -> list[float]:
    return [p.x, p.y, p.z]


def _placed(o, p) -> dict:
    return {"id": int(o.id), "label": o.label, "center": _pt(p.center), "bbox_min": _pt(p.bbox_min),
            "bbox_max": _pt(p.bbox_max)}


def _event(e) -> dict:
    return {"id": None, "kind": e.kind, "object_id": int(e.object_id), "label": e.label,
            "stamp": from_time(e.stamp), "recorded_at": from_time(e.recorded_at),
            "before": _pt(e.before.center) if e.before.object_id else None,
            "after": _pt(e.after.center) if e.after.object_id else None}


def snapshot_from_services(pipe: NodesPipeline, gt: dict, questions: list[dict]) -> dict:
    objects_at = {}
    for t in query_times(gt):
        placed, total = [], None
        while total is None or len(placed) < total:  # the service answers in pages
            res = pipe.call(SceneAsOf, "scene_as_of", SceneAsOf.Request(time=to_time(t), k=1000,
                                                                        offset=len(placed)))
            if res.error or not res.objects:
                raise RuntimeError(f"scene_as_of({t}) at offset {len(placed)}: {res.error or 'empty page'}")
            placed += [_placed(o, p) for o, p in zip(res.objects, res.placements)]
            total = res.total
        objects_at[_key(t)] = placed
    res = pipe.call(Changes, "changes", Changes.Request())
    events = [_event(e) for e in res.events]
    for i, e in enumerate(events):
        e["id"] = i + 1  # the service lists events in stamp order; ids only need to be unique here
    answers = {}
    for q in questions:
        r = pipe.call(Query, "query", Query.Request(question=q["text"], k=100))
        answers[q["id"]] = {
            "understood": r.understood, "operation": r.operation, "found": r.found,
            "count": None if r.count < 0 else int(r.count),
            "time": from_time(r.time_result) if r.has_time else None, "text": r.answer,
            "placements": [_pt(p.center) for p in r.placements], "labels": [o.label for o in r.objects],
            "events": [{"kind": e.kind, "label": e.label, "object_id": int(e.object_id)} for e in r.events]}
    return {"objects_at": objects_at, "events": events, "answers": answers}


def evaluate_nodes(bag: str | Path, store_path: str | Path, gt: dict, questions: list[dict], *,
                   perception_params: dict | None = None, memory_params: dict | None = None) -> tuple[dict, dict]:
    """(snapshot, run info) for one scene through the nodes."""
    with NodesPipeline(store_path, perception_params=perception_params, memory_params=memory_params) as pipe:
        info = pipe.replay(bag, len(gt["frames"]))
        return snapshot_from_services(pipe, gt, questions), info
