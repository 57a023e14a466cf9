"""Questions with gold answers, computed from the ground-truth document alone (never from memory code).

Why so many eligibility rules: a gold answer must be what a perfect memory could know from the frames,
not merely what is true. A question is asked only when its answer is unambiguous: the label names one
object over the whole scene, the placements involved were actually seen, and no change that the camera
could not (yet) observe, or that straddles a time boundary, could make a correct memory answer
differently. Questions that fail a rule are left out rather than given a debatable gold.

Templates (the memory's router parses exactly these):
  where is the {label}                               current     -> [x, y, z]
  where was the {label} before                       previous    -> [x, y, z]
  where has the {label} been                         history     -> [[x, y, z], ...] oldest first
  how many times did the {label} move                count_moves -> int
  when did I last see the {label}                    last_seen   -> stamp (s)
  where was the {label} {N} minutes ago              as_of       -> [x, y, z]
  where was the {label} at HH:MM                     as_of       -> [x, y, z] (UTC)
  what changed in the last {N} minutes               changes     -> [{kind, label, object}] by t_world
  what is on the {label}                             relational  -> {objects, labels} (relation on)
  what is near the {label}                           relational  -> {objects, labels} (relation near)
  what is within {r} m of {x} {y} {z}                spatial     -> {objects, labels}
Relative times are anchored at ``ask_time`` (the last frame stamp).
"""

from __future__ import annotations

import math
from datetime import datetime, timezone

import numpy as np

NEAR_THRESHOLD = 0.6       # metres between boxes
NEAR_MARGIN = 0.1          # no object may sit this close to the threshold (box noise would decide)
SPATIAL_MARGIN = 0.15      # same for centroid distances in spatial questions
AS_OF_STATIC = 3           # as-of questions about objects that never moved (movers always get them)


# ------------------------------------------------------------------------------------ ground-truth access


def objects_by_id(gt: dict) -> dict[int, dict]:
    return {o["id"]: o for o in gt["objects"]}


def interval_at(obj: dict, t: float) -> dict | None:
    for iv in obj["intervals"]:
        if iv["t_from"] <= t and (iv["t_to"] is None or t < iv["t_to"]):
            return iv
    return None


def interval_seen(obj: dict, iv: dict) -> bool:
    return any(iv["t_from"] <= s and (iv["t_to"] is None or s < iv["t_to"]) for s in obj["seen_stamps"])


def unique_labels(gt: dict) -> set[str]:
    counts: dict[str, int] = {}
    for o in gt["objects"]:
        counts[o["label"]] = counts.get(o["label"], 0) + 1
    return {label for label, c in counts.items() if c == 1}


def knowledge(gt: dict, t: float) -> dict[int, str]:
    """Per object at time t: 'correct' (what a perfect memory believes is the truth), 'stale' (it was
    seen, but its current state was not observable yet), or 'unknown' (never seen by then)."""
    out = {}
    removals = {e["object"]: e for e in gt["events"] if e["kind"] == "removed"}
    for o in gt["objects"]:
        seen = [s for s in o["seen_stamps"] if s <= t]
        if not seen:
            out[o["id"]] = "unknown"
            continue
        iv = interval_at(o, t)
        if iv is not None:
            ok = any(iv["t_from"] <= s <= t for s in seen)
        else:
            ev = removals.get(o["id"])
            ok = ev is not None and ev["t_observable"] is not None and ev["t_observable"] <= t
        out[o["id"]] = "correct" if ok else "stale"
    return out


def believed_interval(obj: dict, t: float) -> dict | None:
    """The latest placement seen by time t (what a memory that missed later changes would report)."""
    best = None
    for iv in obj["intervals"]:
        if any(iv["t_from"] <= s <= t and (iv["t_to"] is None or s < iv["t_to"]) for s in obj["seen_stamps"]):
            best = iv
    return best


def box_gap(a: dict, b: dict) -> float:
    sep = [max(0.0, a["bbox_min"][i] - b["bbox_max"][i], b["bbox_min"][i] - a["bbox_max"][i]) for i in range(3)]
    return math.sqrt(sum(s * s for s in sep))


# -------------------------------------------------------------------------------------------- gold answers


def gold_current(obj: dict, t: float) -> list[float] | None:
    iv = interval_at(obj, t)
    return None if iv is None else list(iv["center"])


def gold_previous(obj: dict, t: float) -> list[float] | None:
    ivs = [iv for iv in obj["intervals"] if iv["t_from"] <= t]
    cur = interval_at(obj, t)
    if cur is None or len(ivs) < 2:
        return None
    return list(ivs[ivs.index(cur) - 1]["center"])


def gold_history(obj: dict, t: float) -> list[list[float]]:
    return [list(iv["center"]) for iv in obj["intervals"] if iv["t_from"] <= t]


def gold_count_moves(obj: dict, t: float) -> int:
    return sum(1 for iv in obj["intervals"] if iv["t_from"] <= t) - 1


def gold_last_seen(obj: dict, t: float) -> float | None:
    seen = [s for s in obj["seen_stamps"] if s <= t]
    return seen[-1] if seen else None


def gold_as_of(obj: dict, t: float) -> list[float] | None:
    return gold_current(obj, t)


def gold_changes(gt: dict, since: float, until: float) -> list[dict]:
    evs = [e for e in gt["events"] if since <= e["t_world"] <= until]
    evs.sort(key=lambda e: (e["t_world"], e["object"]))
    return [{"kind": e["kind"], "label": e["label"], "object": e["object"]} for e in evs]


def _answer_set(objs: list[dict]) -> dict:
    return {"objects": sorted(o["id"] for o in objs), "labels": sorted(o["label"] for o in objs)}


def gold_on(gt: dict, anchor_id: int, t: float) -> dict:
    hits = [o for o in gt["objects"] if (iv := interval_at(o, t)) is not None and iv["support_object"] == anchor_id]
    return _answer_set(hits)


def gold_near(gt: dict, anchor_id: int, t: float, threshold: float = NEAR_THRESHOLD) -> dict:
    anchor = interval_at(objects_by_id(gt)[anchor_id], t)
    hits = [o for o in gt["objects"] if o["id"] != anchor_id and (iv := interval_at(o, t)) is not None
            and box_gap(iv, anchor) <= threshold]
    return _answer_set(hits)


def gold_within(gt: dict, point, radius: float, t: float) -> dict:
    p = np.asarray(point, float)
    hits = [o for o in gt["objects"] if (iv := interval_at(o, t)) is not None
            and float(np.linalg.norm(np.asarray(iv["center"]) - p)) <= radius]
    return _answer_set(hits)


# ---------------------------------------------------------------------------------------------- selection


def _clock(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).strftime("%H:%M")


def _as_of_ok(obj: dict, t: float) -> bool:
    """A memory knows where the object was at t: that placement had been seen by t."""
    iv = interval_at(obj, t)
    return iv is not None and any(iv["t_from"] <= s <= t for s in obj["seen_stamps"])


def change_window_ok(gt: dict, since: float, ask: float) -> bool:
    """True when a correct memory's answer to 'what changed since ``since``' is unambiguous."""
    visits = gt["visits"]
    in_gap = any(a["t_end"] < since < b["t_start"] for a, b in zip(visits, visits[1:]))
    if not in_gap:
        return False
    objs = objects_by_id(gt)
    for e in gt["events"]:
        if e["t_world"] >= since:
            if e["t_observable"] is None or e["t_observable"] > ask:
                return False                      # a change nobody could have seen yet
            if e["kind"] in ("moved", "removed") and not any(
                    s < e["t_world"] for s in objs[e["object"]]["seen_stamps"]):
                return False                      # the memory never knew the old place: not a move to it
        elif e["t_observable"] is not None and e["t_observable"] >= since:
            return False                          # happened before, observable only inside the window
    appeared_in_window = {e["object"] for e in gt["events"] if e["kind"] == "appeared" and e["t_world"] >= since}
    for o in gt["objects"]:
        first = o["first_seen"]
        if first is not None and since <= first <= ask and o["id"] not in appeared_in_window:
            return False                          # first seen in the window: a memory would call it new
    return True


def make_questions(gt: dict) -> list[dict]:
    """Every question the rules allow, in a fixed order, ids q001, q002, ..."""
    rng = np.random.default_rng([int(gt.get("seed", 0)), 5])
    ask = gt["ask_time"]
    objs = objects_by_id(gt)
    uniq = unique_labels(gt)
    know = knowledge(gt, ask)
    questions: list[dict] = []

    def add(text, operator, args, gold):
        questions.append({"id": f"q{len(questions) + 1:03d}", "text": text, "operator": operator,
                          "args": args, "gold": gold, "ask_time": ask})

    subjects = [o for o in gt["objects"] if o["label"] in uniq and o["seen_stamps"]
                and o["seen_stamps"][0] <= ask]
    movers = [o for o in subjects if len(o["intervals"]) > 1]
    for o in subjects:
        label, args = o["label"], {"label": o["label"], "object": o["id"]}
        present = interval_at(o, ask) is not None
        all_seen = all(interval_seen(o, iv) for iv in o["intervals"] if iv["t_from"] <= ask)
        if present and know[o["id"]] == "correct":
            add(f"where is the {label}", "current", args, gold_current(o, ask))
        if present and know[o["id"]] == "correct" and len(o["intervals"]) > 1 and all_seen:
            add(f"where was the {label} before", "previous", args, gold_previous(o, ask))
        if all_seen and know[o["id"]] == "correct":
            add(f"where has the {label} been", "history", args, gold_history(o, ask))
            add(f"how many times did the {label} move", "count_moves", args, gold_count_moves(o, ask))
        add(f"when did I last see the {label}", "last_seen", args, gold_last_seen(o, ask))

    # as-of questions: every mover, a few objects that stayed put
    static = [o for o in subjects if len(o["intervals"]) == 1]
    picked_static = [static[int(i)] for i in sorted(rng.permutation(len(static))[:AS_OF_STATIC])]
    t0 = gt["time_base"]
    for o in movers + picked_static:
        here = gold_current(o, ask)
        minutes = [n for n in range(1, int((ask - t0) // 60) + 1) if _as_of_ok(o, ask - 60 * n)]
        if minutes:
            elsewhere = [n for n in minutes if gold_as_of(o, ask - 60 * n) != here]
            pool = elsewhere or minutes
            n = pool[int(rng.integers(0, len(pool)))]
            add(f"where was the {o['label']} {n} minutes ago", "as_of",
                {"label": o["label"], "object": o["id"], "minutes": n, "t": ask - 60 * n},
                gold_as_of(o, ask - 60 * n))
        first_minute = math.ceil(t0 / 60) * 60
        clocks = [t for t in np.arange(first_minute, ask, 60.0).tolist() if _as_of_ok(o, t)]
        if clocks:
            elsewhere = [t for t in clocks if gold_as_of(o, t) != here]
            pool = elsewhere or clocks
            t = pool[int(rng.integers(0, len(pool)))]
            add(f"where was the {o['label']} at {_clock(t)}", "as_of",
                {"label": o["label"], "object": o["id"], "clock": _clock(t), "t": float(t)}, gold_as_of(o, t))

    # what changed: for each gap, the widest window that starts in it and is unambiguous
    for a, b in zip(gt["visits"], gt["visits"][1:]):
        valid = [n for n in range(1, int((ask - t0) // 60) + 2) if a["t_end"] < ask - 60 * n < b["t_start"]
                 and change_window_ok(gt, ask - 60 * n, ask)]
        if valid:
            n = max(valid)
            add(f"what changed in the last {n} minutes", "changes", {"minutes": n, "since": ask - 60 * n},
                gold_changes(gt, ask - 60 * n, ask))

    # relations at ask time
    def ambiguous(test) -> bool:
        """Could an object the memory cannot know correctly change the answer?"""
        for o in gt["objects"]:
            if know[o["id"]] == "correct":
                continue
            for iv in (interval_at(o, ask), believed_interval(o, ask)):
                if iv is not None and test(o, iv):
                    return True
        return False

    supports = sorted({s["object"] for s in gt.get("supports", []) if s["object"] is not None})
    for fid in supports:
        anchor = objs.get(fid)
        if anchor is None or anchor["label"] not in uniq or know[fid] != "correct":
            continue
        if ambiguous(lambda o, iv, fid=fid: iv["support_object"] == fid):
            continue
        add(f"what is on the {anchor['label']}", "relational",
            {"relation": "on", "label": anchor["label"], "object": fid}, gold_on(gt, fid, ask))

    anchors = [o for o in subjects if know[o["id"]] == "correct" and interval_at(o, ask) is not None]
    for k in rng.permutation(len(anchors)):
        anchor = anchors[int(k)]
        a_iv = interval_at(anchor, ask)
        if ambiguous(lambda o, iv, a=a_iv: box_gap(iv, a) <= NEAR_THRESHOLD + NEAR_MARGIN):
            continue
        gaps = [box_gap(iv, a_iv) for o in gt["objects"] if o["id"] != anchor["id"]
                and know[o["id"]] == "correct" and (iv := interval_at(o, ask)) is not None]
        if any(abs(g - NEAR_THRESHOLD) < NEAR_MARGIN for g in gaps):
            continue
        add(f"what is near the {anchor['label']}", "relational",
            {"relation": "near", "label": anchor["label"], "object": anchor["id"], "threshold": NEAR_THRESHOLD},
            gold_near(gt, anchor["id"], ask))
        if sum(1 for q in questions if q["args"].get("relation") == "near") >= 4:
            break

    smalls = [o for o in anchors if o["kind"] == "small"]
    n_spatial = 0
    for k in rng.permutation(len(smalls)):
        c = [round(v, 2) for v in interval_at(smalls[int(k)], ask)["center"]]
        r = (0.5, 0.75, 1.0)[int(rng.integers(0, 3))]

        def dist(iv, c=c):
            return float(np.linalg.norm(np.asarray(iv["center"]) - np.asarray(c)))

        if ambiguous(lambda o, iv, r=r: dist(iv) <= r + SPATIAL_MARGIN):
            continue
        if any(abs(dist(iv) - r) < SPATIAL_MARGIN for o in gt["objects"]
               if know[o["id"]] == "correct" and (iv := interval_at(o, ask)) is not None):
            continue
        add(f"what is within {r:g} m of {c[0]:.2f} {c[1]:.2f} {c[2]:.2f}", "spatial",
            {"point": c, "radius": r}, gold_within(gt, c, r, ask))
        n_spatial += 1
        if n_spatial >= 3:
            break
    return questions
