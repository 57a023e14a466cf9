"""What the memory says about a scene, as plain JSON: maps at query times, change events, answers.

Why a snapshot: scoring (score.py) then needs no memory, no ROS and no store; the same snapshot format is
filled from the core API (offline mode) or from the ROS services (nodes mode), and is saved with the
results so that a score can be re-checked later.
"""

from __future__ import annotations

from tempomem_ros.core import Memory

from .score import _key, query_times


def _placed(o, p) -> dict:
    """An object as it stood at the time asked about: its label, the placement's geometry."""
    return {"id": o.id, "label": o.label, "center": list(p.center), "bbox_min": list(p.bbox_min),
            "bbox_max": list(p.bbox_max)}


def _event(e) -> dict:
    return {"id": e.id, "kind": e.kind, "object_id": e.object_id, "label": e.label, "stamp": e.stamp,
            "recorded_at": e.recorded_at, "before": None if e.before is None else list(e.before.center),
            "after": None if e.after is None else list(e.after.center)}


def answer_dict(a) -> dict:
    """The fields of an Answer the scorer reads (the same ones the Query service returns)."""
    return {"understood": a.understood, "operation": a.operator, "found": a.found, "count": a.count,
            "time": None if a.operator == "duration" else a.time, "text": a.text,
            "placements": [list(p.center) for p in a.placements],
            "labels": [o.label for o in a.objects],
            "events": [{"kind": e.kind, "label": e.label, "object_id": e.object_id} for e in a.events]}


def snapshot_from_memory(mem: Memory, gt: dict, questions: list[dict]) -> dict:
    ask = float(gt["ask_time"])
    objects_at = {}
    for t in query_times(gt):
        objects_at[_key(t)] = [_placed(o, p) for o, p in mem.scene_as_of(t)]
    answers = {q["id"]: answer_dict(mem.ask(q["text"], now=ask, k=100)) for q in questions}
    return {"objects_at": objects_at, "events": [_event(e) for e in mem.changes()], "answers": answers}
