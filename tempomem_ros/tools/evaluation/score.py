"""Scoring a memory against a generated scene's ground truth (pure functions over JSON-like data).

Why separate from running: the same scores must come out whether the memory ran through the ROS nodes or
offline, and the rules must be readable on their own. Inputs are a ground-truth document
(tools/scenegen/groundtruth.py), its questions, and a *snapshot* of what the memory answered:
    {"objects_at": {"<t>": [{id, label, center, bbox_min, bbox_max}]},
     "events": [{id, kind, object_id, label, stamp, recorded_at, before, after}],   # before/after: centre|None
     "answers": {qid: {understood, operation, found, count, time, placements: [centre], labels: [...],
                       events: [{kind, label}]}}}

Rules (docs/RESULTS.md repeats them):
- Object map at time t. Ground truth = objects present at t whose placement at t had been seen by t
  (a memory cannot know a place it never saw); memory = its objects present at t. Rule "label": same label
  (case-folded) and centroids within 0.5 m; rule "iou": 3D IoU >= 0.25 of the axis-aligned boxes (any
  label). One-to-one greedy matching (nearest / highest IoU first). Duplicate = an unmatched memory object
  that would match, by the label rule, a ground-truth object already matched. Label accuracy = share of
  iou-rule matches whose labels agree. Memory objects that match, by the label rule, an object whose
  current place was never seen (it moved unseen) are ignored, not counted false.
- Changes. Each true event (with a t_observable) is matched to at most one memory event of the same kind
  with an agreeing label, stamped at or after the true change, whose after-centre (appeared, moved) or
  before-centre (removed) lies within 0.5 m of the true one. Not counted: a memory 'removed' of an object
  the memory later reports 'moved', when its old place really was empty (a move whose old place was seen
  empty first shows as removed + moved);
  a memory 'appeared' at the first place of an object that was there from the start (a discovery, not a
  change, whatever label it was first seen under). A memory 'removed' at a place where the true object was
  still present is a false removal.
  Delay = recorded_at (when the memory decided) - t_observable. False removal rate = false removals /
  object-visits that stayed put (a small object present in a visit and unchanged since the previous one).
- Flicker: a memory 'removed' of an object followed by a 'reappeared' of the same memory object at the
  same place (centres within 0.5 m) at most 30 s later (event stamps). Every flicker is counted, whatever
  the truth; 'reappeared' events are counted in total too.
- Questions: positions within 0.3 m, times within 2 s, counts exact; sets (changes, relations, spatial)
  by precision / recall over labels (multisets) and correct when F1 = 1.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

POS_TOL = 0.3
TIME_TOL = 2.0
MATCH_DIST = 0.5
MATCH_IOU = 0.25
FLICKER_WINDOW_S = 30.0


def _norm(label: str) -> str:
    return " ".join(str(label).casefold().split())


def _dist(a, b) -> float:
    return float(np.linalg.norm(np.asarray(a, float) - np.asarray(b, float)))


def iou_aabb(amin, amax, bmin, bmax) -> float:
    lo = np.maximum(amin, bmin)
    hi = np.minimum(amax, bmax)
    inter = float(np.prod(np.maximum(np.asarray(hi, float) - lo, 0.0)))
    if inter <= 0:
        return 0.0
    va = float(np.prod(np.maximum(np.asarray(amax, float) - amin, 0.0)))
    vb = float(np.prod(np.maximum(np.asarray(bmax, float) - bmin, 0.0)))
    return inter / (va + vb - inter)


def f1(tp: int, fp: int, fn: int) -> dict:
    p = tp / (tp + fp) if tp + fp else (1.0 if fn == 0 else 0.0)
    r = tp / (tp + fn) if tp + fn else 1.0
    return {"tp": tp, "fp": fp, "fn": fn, "precision": p, "recall": r,
            "f1": 2 * p * r / (p + r) if p + r else 0.0}


# ------------------------------------------------------------------------------------------ ground truth
def interval_at(obj: dict, t: float) -> dict | None:
    for iv in obj["intervals"]:
        if iv["t_from"] <= t and (iv["t_to"] is None or t < iv["t_to"]):
            return iv
    return None


def seen_by(obj: dict, iv: dict, t: float) -> bool:
    return any(iv["t_from"] <= s <= t and (iv["t_to"] is None or s < iv["t_to"]) for s in obj["seen_stamps"])


def truth_at(gt: dict, t: float) -> tuple[list[dict], list[dict]]:
    """(known, unknowable): objects present at t whose current place was / was never seen by t."""
    known, unknowable = [], []
    for o in gt["objects"]:
        iv = interval_at(o, t)
        if iv is None:
            continue
        item = {"id": o["id"], "label": o["label"], "kind": o["kind"], "center": iv["center"],
                "bbox_min": iv["bbox_min"], "bbox_max": iv["bbox_max"]}
        if seen_by(o, iv, t):
            known.append(item)
        elif any(s <= t for s in o["seen_stamps"]):
            item["earlier"] = [i["center"] for i in o["intervals"] if i["t_from"] < iv["t_from"]]
            unknowable.append(item)
    return known, unknowable


# ------------------------------------------------------------------------------------------ object map
def _greedy(pairs):
    """pairs: (key, gt_index, mem_index) sorted ascending by key; one-to-one assignment."""
    used_g, used_m, out = set(), set(), []
    for key, g, m in sorted(pairs):
        if g in used_g or m in used_m:
            continue
        used_g.add(g)
        used_m.add(m)
        out.append((g, m, key))
    return out


def score_map(truth: list[dict], unknowable: list[dict], memory: list[dict]) -> dict:
    label_pairs = [(_dist(g["center"], m["center"]), gi, mi) for gi, g in enumerate(truth)
                   for mi, m in enumerate(memory)
                   if _norm(g["label"]) == _norm(m["label"]) and _dist(g["center"], m["center"]) <= MATCH_DIST]
    label_matches = _greedy(label_pairs)
    matched_m = {m for _, m, _ in label_matches}
    matched_g = {g for g, _, _ in label_matches}
    duplicates = sorted({mi for _, gi, mi in label_pairs if mi not in matched_m and gi in matched_g})
    ignored = set()
    for mi, m in enumerate(memory):
        if mi in matched_m or mi in duplicates:
            continue
        for u in unknowable:
            if _norm(u["label"]) == _norm(m["label"]) and any(_dist(c, m["center"]) <= MATCH_DIST
                                                              for c in u.get("earlier", [])):
                ignored.add(mi)
    n_mem = len(memory) - len(ignored)
    tp = len(label_matches)
    by_label = f1(tp, n_mem - tp, len(truth) - tp)
    iou_pairs = []
    for gi, g in enumerate(truth):
        for mi, m in enumerate(memory):
            v = iou_aabb(g["bbox_min"], g["bbox_max"], m["bbox_min"], m["bbox_max"])
            if v >= MATCH_IOU:
                iou_pairs.append((-v, gi, mi))
    iou_matches = _greedy(iou_pairs)
    n_iou = len(iou_matches)
    by_iou = f1(n_iou, n_mem - len([m for _, m, _ in iou_matches if m not in ignored]), len(truth) - n_iou)
    errors = [d for _, _, d in label_matches]
    labels_ok = sum(_norm(truth[g]["label"]) == _norm(memory[m]["label"]) for g, m, _ in iou_matches)
    return {
        "truth": len(truth), "memory": n_mem, "ignored_unknowable": len(ignored),
        "label_rule": by_label, "iou_rule": by_iou,
        "duplicates": len(duplicates), "duplicate_rate": len(duplicates) / n_mem if n_mem else 0.0,
        "centroid_error_median": float(np.median(errors)) if errors else None,
        "centroid_error_p90": float(np.percentile(errors, 90)) if errors else None,
        "label_accuracy": labels_ok / n_iou if n_iou else None,
        "missed": sorted(truth[g]["label"] for g in range(len(truth)) if g not in matched_g),
        "false": sorted(memory[m]["label"] for m in range(len(memory))
                        if m not in matched_m and m not in ignored and m not in duplicates),
        "missed_list": sorted((truth[g]["label"], _round3(truth[g]["center"])) for g in range(len(truth))
                              if g not in matched_g),
        "false_list": sorted((memory[m]["label"], _round3(memory[m]["center"])) for m in range(len(memory))
                             if m not in matched_m and m not in ignored and m not in duplicates),
        "duplicate_list": sorted((memory[m]["label"], _round3(memory[m]["center"])) for m in duplicates),
    }


def _round3(c) -> list[float]:
    return [round(float(x), 2) for x in c]


def flicker_events(events: list[dict], window_s: float = FLICKER_WINDOW_S, place_m: float = MATCH_DIST) -> list[dict]:
    """Each 'reappeared' that follows a 'removed' of the same memory object at the same place within
    ``window_s`` (module docstring). Returns [{label, object_id, removed, reappeared}] (stamps)."""
    removed: dict[int, list[dict]] = {}
    for e in events:
        if e["kind"] == "removed":
            removed.setdefault(e["object_id"], []).append(e)
    out = []
    for e in events:
        if e["kind"] != "reappeared":
            continue
        prior = [r for r in removed.get(e["object_id"], []) if r["stamp"] <= e["stamp"] + 1e-6]
        if not prior:
            continue
        r = max(prior, key=lambda x: x["stamp"])
        if e["stamp"] - r["stamp"] > window_s:
            continue
        if r.get("before") is not None and e.get("after") is not None and _dist(r["before"], e["after"]) > place_m:
            continue
        out.append({"label": e["label"], "object_id": e["object_id"], "removed": r["stamp"], "reappeared": e["stamp"]})
    return out


# ------------------------------------------------------------------------------------------ changes
def score_changes(gt: dict, events: list[dict], ask_time: float) -> dict:
    objs = {o["id"]: o for o in gt["objects"]}
    appeared_objects = {e["object"] for e in gt["events"] if e["kind"] == "appeared"}
    truth = [e for e in gt["events"] if e.get("t_observable") is not None and e["t_observable"] <= ask_time]
    moved_later = {}
    for e in events:
        if e["kind"] == "moved":
            moved_later.setdefault(e["object_id"], []).append(e["stamp"])
    result, delays, used = {}, {}, set()
    for kind in ("appeared", "moved", "removed"):
        candidates = [e for e in events if e["kind"] == kind]
        pairs = []
        for ti, t in enumerate(truth):
            if t["kind"] != kind:
                continue
            ref = t["before"] if kind == "removed" else t["after"]
            for e in candidates:
                mref = e["before"] if kind == "removed" else e["after"]
                if mref is None or e["stamp"] < t["t_world"] - 1e-6:
                    continue
                if _norm(e["label"]) != _norm(t["label"]):
                    continue
                d = _dist(ref["center"], mref)
                if d <= MATCH_DIST:
                    pairs.append(((e["stamp"], d), ti, e["id"]))
        matches = _greedy(pairs)
        matched_events = {m for _, m, _ in matches}
        used |= matched_events
        n_true = sum(1 for t in truth if t["kind"] == kind)
        fp_events = []
        for e in candidates:
            if e["id"] in matched_events:
                continue
            if kind == "removed" and any(s >= e["stamp"] for s in moved_later.get(e["object_id"], [])) \
                    and not _still_there(e, objs):
                continue  # part of a move: removed at the (really empty) old place, then moved
            if kind == "appeared" and _is_discovery(e, objs, appeared_objects):
                continue
            fp_events.append(e)
        result[kind] = f1(len(matches), len(fp_events), n_true - len(matches))
        result[kind]["false_events"] = [(e["label"], round(e["stamp"], 1)) for e in fp_events]
        result[kind]["missed"] = [(truth[t]["label"], round(truth[t]["t_world"], 1))
                                  for t in range(len(truth)) if truth[t]["kind"] == kind
                                  and t not in {g for g, _, _ in matches}]
        truth_by_index = {i: t for i, t in enumerate(truth)}
        ev_by_id = {e["id"]: e for e in candidates}
        delays[kind] = [ev_by_id[m].get("recorded_at", ev_by_id[m]["stamp"]) - truth_by_index[g]["t_observable"]
                        for g, m, _ in matches]
    false_removals = [e for e in events if e["kind"] == "removed" and _still_there(e, objs)]
    flickers = flicker_events(events)
    roles = gt.get("roles", {})
    hard = []
    for key in ("out_of_view", "occluded"):
        entries = roles.get(key) or []
        for r in entries if isinstance(entries, list) else [entries]:
            hard.append((r["object"], r["visit"]))
    hard_objects = {o for o, _ in hard}
    false_hard = [e for e in false_removals if _truth_object(e, objs) in hard_objects]
    stay_put = sum(len(v.get("stayed_put", [])) for v in gt.get("visibility", []))
    all_delays = [d for v in delays.values() for d in v]
    return {
        **{k: result[k] for k in result},
        "false_removals": len(false_removals),
        "false_removal_list": [(e["label"], round(e["stamp"], 1)) for e in false_removals],
        "false_removal_rate": len(false_removals) / stay_put if stay_put else 0.0,
        "flicker_events": len(flickers),
        "flicker_list": [(f["label"], round(f["removed"], 1), round(f["reappeared"], 1)) for f in flickers],
        "reappeared_events": sum(1 for e in events if e["kind"] == "reappeared"),
        "stayed_put_object_visits": stay_put,
        "false_removals_hard_cases": len(false_hard),
        "hard_cases": len(hard),
        "false_removal_rate_hard_cases": len(false_hard) / len(hard) if hard else 0.0,
        "delay_median_s": float(np.median(all_delays)) if all_delays else None,
        "delay_max_s": float(np.max(all_delays)) if all_delays else None,
    }


def _truth_object(e: dict, objs: dict) -> int | None:
    """The true object at the memory event's before-place (label agreeing, within 0.5 m), if any."""
    best = None
    for o in objs.values():
        if _norm(o["label"]) != _norm(e["label"]):
            continue
        for iv in o["intervals"]:
            if e["before"] is not None and _dist(iv["center"], e["before"]) <= MATCH_DIST:
                d = _dist(iv["center"], e["before"])
                if best is None or d < best[0]:
                    best = (d, o["id"])
    return None if best is None else best[1]


def _still_there(e: dict, objs: dict) -> bool:
    oid = _truth_object(e, objs)
    if oid is None:
        return False
    iv = interval_at(objs[oid], e["stamp"])
    return iv is not None and _dist(iv["center"], e["before"]) <= MATCH_DIST


def _is_discovery(e: dict, objs: dict, appeared_objects: set) -> bool:
    """The memory's first sighting of an object that was there from the start (any label: a first
    sighting under a confused label is still a discovery, not a change)."""
    for o in objs.values():
        if o["id"] in appeared_objects:
            continue
        first = o["intervals"][0]
        if e["after"] is not None and _dist(first["center"], e["after"]) <= MATCH_DIST:
            return True
    return False


# ------------------------------------------------------------------------------------------ questions
def _set_score(gold_labels: list[str], got_labels: list[str]) -> dict:
    """F1 over multisets, with the items behind fp and fn: ``extra`` (answered, not in the truth) and ``missing``
    (in the truth, not answered), sorted. Why: a wrong set printed as counts alone ("fp 1, fn 1") cannot be told
    apart from its neighbours; classifying stop 39's 76 wrong "what changed" answers needed which change was
    extra ("appeared glasses") and which missing ("moved glasses"), and the failure list prints this detail."""
    g = Counter(_norm(x) for x in gold_labels)
    m = Counter(_norm(x) for x in got_labels)
    tp = sum((g & m).values())
    return {**f1(tp, sum(m.values()) - tp, sum(g.values()) - tp),
            "extra": sorted((m - g).elements()), "missing": sorted((g - m).elements())}


def judge(question: dict, answer: dict | None) -> dict:
    """{correct, detail} for one question (see module docstring for the tolerances)."""
    op, gold = question["operator"], question["gold"]
    if answer is None or not answer.get("understood"):
        return {"correct": False, "detail": "not understood"}
    pls = answer.get("placements", [])
    if op in ("current", "previous", "as_of"):
        if gold is None:
            return {"correct": not pls, "detail": f"got {pls[:1]} for no place"}
        if not pls:
            return {"correct": False, "detail": "no placement"}
        d = _dist(gold, pls[0])
        return {"correct": d <= POS_TOL, "detail": f"{d:.2f} m"}
    if op == "history":
        ok = len(pls) == len(gold) and all(_dist(a, b) <= POS_TOL for a, b in zip(gold, pls))
        return {"correct": ok, "detail": f"{len(pls)} vs {len(gold)} places"}
    if op == "count_moves":
        return {"correct": answer.get("count") == gold, "detail": f"{answer.get('count')} vs {gold}"}
    if op == "last_seen":
        t = answer.get("time")
        ok = t is not None and gold is not None and abs(t - gold) <= TIME_TOL
        return {"correct": ok, "detail": f"{None if t is None else round(t - (gold or 0), 2)} s"}
    if op == "changes":
        gold_items = [f"{g['kind']} {g['label']}" for g in gold]
        got_events = answer.get("events", [])  # in stamp order, as the service lists them
        # a removal followed by a move of the same object is that move's first half (the old place seen empty,
        # the object found elsewhere later); a removal after the object's last move is a removal
        got = [f"{e['kind']} {e['label']}" for i, e in enumerate(got_events)
               if not (e["kind"] == "removed" and any(later["kind"] == "moved" and later["object_id"] == e["object_id"]
                                                     for later in got_events[i + 1:]))]
        s = _set_score(gold_items, got)
        return {"correct": s["f1"] == 1.0, "detail": s, "f1": s["f1"]}
    if op in ("relational", "spatial"):
        s = _set_score(gold["labels"], answer.get("labels", []))
        return {"correct": s["f1"] == 1.0, "detail": s, "f1": s["f1"]}
    return {"correct": False, "detail": f"unknown operator {op}"}


def score_questions(questions: list[dict], answers: dict) -> dict:
    per: dict[str, dict] = {}
    for q in questions:
        key = q["operator"] if q["operator"] != "relational" else f"relational:{q['args']['relation']}"
        j = judge(q, answers.get(q["id"]))
        s = per.setdefault(key, {"n": 0, "correct": 0, "f1": [], "wrong": []})
        s["n"] += 1
        s["correct"] += bool(j["correct"])
        if "f1" in j:
            s["f1"].append(j["f1"])
        if not j["correct"]:
            s["wrong"].append({"id": q["id"], "text": q["text"], "detail": j["detail"]})
    for s in per.values():
        s["accuracy"] = s["correct"] / s["n"] if s["n"] else None
        s["mean_f1"] = float(np.mean(s["f1"])) if s["f1"] else None
        del s["f1"]
    return per


def score_all(gt: dict, questions: list[dict], snapshot: dict) -> dict:
    ask = float(gt["ask_time"])
    maps = {}
    for key, objects in snapshot["objects_at"].items():
        t = float(key)
        known, unknowable = truth_at(gt, t)
        maps[key] = score_map(known, unknowable, objects)
    return {"maps": maps, "final_map": maps[_key(ask)], "changes": score_changes(gt, snapshot["events"], ask),
            "questions": score_questions(questions, snapshot["answers"])}


def _key(t: float) -> str:
    return f"{t:.3f}"


def query_times(gt: dict) -> list[float]:
    """End of every visit and the ask time (the final map)."""
    times = sorted({float(v["t_end"]) for v in gt["visits"]} | {float(gt["ask_time"])})
    return [t for t in times if math.isfinite(t)]
