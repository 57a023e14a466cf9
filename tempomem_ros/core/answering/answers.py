"""Running an understood question on a Memory: one executor per operator of the table, no SQL here.

Why separate from understand.py: understanding is a pure function of (question, now, known names) and is
tested without a store; this module only calls the Memory's public operators and words their results. Every
answer carries what was understood (``understood_as``, ``operator``, ``arguments``) so a user sees the
interpretation next to the answer.
"""

from __future__ import annotations

import dataclasses
import math

from ..frame_fusion import MIN_MOVE_SHIFT_M
from ..labels import sanitize_label
from ..types import Answer
from .fmt import fmt_pos, fmt_time
from .operators import BY_NAME, TABLE
from .slots import Names
from .understand import Refusal, understand

TEMPORAL = ("current", "previous", "history", "count_moves", "count_sightings", "as_of", "first_seen", "last_seen",
            "duration")


def names_of(memory) -> Names:
    """The memory's labels and regions as a Names index, rebuilt only when they changed.

    Why compared by content: a node commits twice a second, and each commit changes SQLite's data_version
    although the labels rarely change; rebuilding the index of 2,500 labels per question cost the query
    service ~3 ms at p95 (bench/bench_services.py), comparing the lists costs microseconds."""
    labels = memory._reads.shown_labels()
    key = (tuple(sorted(labels)) if isinstance(labels, set) else tuple(labels),
           tuple(r.label for r in memory.regions()))
    cached = getattr(memory, "_names_cache", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    names = Names(key[0], key[1])
    memory._names_cache = (key, names)
    return names


def refusal_answer(r: Refusal) -> Answer:
    text = f"I did not understand the question: {r.reason}."
    if r.suggestions:
        text += " Closest questions I can answer: " + "; ".join(f"'{s}'" for s in r.suggestions) + "."
    return Answer(False, "", text, suggestions=r.suggestions)


def answer_question(memory, question: str, now: float | None, k: int) -> Answer:
    u = understand(question, now, names_of(memory), getattr(memory, "_question_reader", None))
    if isinstance(u, Refusal):
        return refusal_answer(u)
    op = u.operator
    shown_op = f"relational:{u.args['relation']}" if op == "relational" else op
    if u.unknown:
        thing = sanitize_label(u.args["label" if u.unknown == "label" else "anchor"])
        ans = Answer(True, shown_op, f"I don't know any {thing}.", found=False)
    else:
        ans = EXECUTORS[op](memory, dict(u.args), now, k)
    extra = {key: ans.arguments[key] for key in ("ambiguous",) if ans.arguments.get(key)}
    return dataclasses.replace(ans, operator=shown_op, understood_as=u.words, arguments={**u.args, **extra},
                               evidence_sources=memory.sources_of(ans.evidence))


# ------------------------------------------------------------------------------------------------ executors
def _temporal(op):
    def run(m, a, now, k):
        return m.temporal(op, label=a.get("label"), object_id=a.get("object_id"), t=a.get("t"), now=now,
                          since=a.get("since"), until=a.get("until"))
    return run


def moved_in_place(e) -> bool:
    """A ``moved`` event whose place before and after lie within MIN_MOVE_SHIFT_M (0.15 m, 3D) of each other.

    Why: fusion takes a sighting of a present object that close for the object where it stands
    (frame_fusion._move: "a user calls no 11 cm shift a move"), but a move decided another way (a missing
    object seen again beside its place, a twin's placements republished as the object's own) still reached the
    store as a move of centimetres. Main's runs of stop 39 (default profile): seed 346's chair (a stool read
    "chair") "moved" 0.02 m and seed 366's stool 0.12 m; every true move in dev, 320-329 and 340-369 is at
    least 0.23 m (a chair pushed). Such a move is the memory re-estimating a box, as a relabelling re-reads a
    label: "what changed" leaves it out, Memory.changes() and the changes topic keep it."""
    if e.kind != "moved" or e.before is None or e.after is None:
        return False
    return math.dist(e.before.center, e.after.center) < MIN_MOVE_SHIFT_M


def _changes(m, a, now, k):
    kinds = a.get("kinds")
    events = m.changes(a.get("since"), a.get("until"), kinds=kinds)
    if not kinds:
        # What changed in the world: a relabelling is the memory correcting its belief (a cup first taken
        # for a mug), and so is a merge (one object fused twice), so the question leaves them out;
        # Memory.changes() still lists them.
        events = [e for e in events if e.kind not in ("relabelled", "forgotten", "merged")]
    events = [e for e in events if not moved_in_place(e)]
    what = {None: "changed", ("moved",): "moved", ("removed",): "disappeared",
            ("appeared", "reappeared"): "appeared"}.get(tuple(kinds) if kinds else None, "changed")
    if not events:
        text = f"Nothing {what} in that time." if a.get("since") is not None else f"Nothing has {what}."
    else:
        parts = [f"{e.label} {e.kind} at {fmt_time(e.stamp)}"
                 + (f" (first reported as {e.published_label})" if e.published_label not in ("", e.label) else "")
                 for e in events]
        text = f"{len(events)} change(s): " + "; ".join(parts) + "."
    evidence = sorted({i for e in events for i in e.evidence})
    objs = tuple(m.get(oid) for oid in sorted({e.object_id for e in events}))
    return Answer(True, "changes", text, found=bool(events), objects=objs, events=tuple(events),
                  evidence=tuple(evidence), count=len(events))


def _anchor_name(anchor) -> str:
    return f"object #{anchor}" if isinstance(anchor, int) else sanitize_label(anchor)


def _names(objs) -> str:
    return ", ".join(o.label for o in objs)


def _relational(m, a, now, k):
    res = m.relational(a["relation"], a["anchor"])
    anchor = _anchor_name(a["anchor"])
    rel = a["relation"]
    if not res.anchor_found:
        return Answer(True, f"relational:{rel}", f"I don't know any {anchor}.", found=False)
    objs = res.objects[:k]
    text = f"{rel.capitalize()} the {anchor}: {_names(objs)}." if objs else f"Nothing is {rel} the {anchor}."
    return Answer(True, f"relational:{rel}", text, found=True, objects=tuple(objs), count=len(objs),
                  evidence=m.current_evidence([o.id for o in objs]))


def _relational_as_of(m, a, now, k):
    res = m.relational(a["relation"], a["anchor"], t=a["t"])
    anchor, rel = _anchor_name(a["anchor"]), a["relation"]
    if not res.anchor_found:
        return Answer(True, "relational_as_of", f"I don't know any {anchor}.", found=False)
    objs, pls = res.objects[:k], res.placements[:k]
    when = fmt_time(a["t"])
    text = (f"At {when}, {rel} the {anchor}: {_names(objs)}." if objs else f"At {when} nothing was {rel} the {anchor}.")
    return Answer(True, "relational_as_of", text, found=True, objects=tuple(objs), placements=tuple(pls),
                  count=len(objs), time=a["t"], evidence=m.placement_evidence([p.id for p in pls]))


def _relational_before(m, a, now, k):
    tc, res = m.relational_before(a["relation"], a["anchor"])
    anchor, rel = _anchor_name(a["anchor"]), a["relation"]
    if not res.anchor_found:
        return Answer(True, "relational_before", f"I don't know any {anchor}.", found=False)
    objs, pls = res.objects[:k], res.placements[:k]
    if tc is None:
        text = (f"What is {rel} the {anchor} has not changed since I first saw it: {_names(objs) or 'nothing'}.")
        return Answer(True, "relational_before", text, found=False, objects=tuple(objs), count=len(objs))
    text = (f"Before {fmt_time(tc)} (its last change), {rel} the {anchor}: {_names(objs)}." if objs else
            f"Before {fmt_time(tc)} (its last change) nothing was {rel} the {anchor}.")
    return Answer(True, "relational_before", text, found=True, objects=tuple(objs), placements=tuple(pls),
                  count=len(objs), time=tc, evidence=m.placement_evidence([p.id for p in pls]))


def _spatial(m, a, now, k):
    center, around, exclude = a.get("center"), "", set()
    if center is None:
        if isinstance(a["anchor"], int):
            anchors = [o for o in m.objects_labelled_or_id(None, a["anchor"]) if o.state == "present"]
        else:
            anchors = m.objects_labelled(a["anchor"], ("present",))
        if not anchors:
            return Answer(True, "spatial", f"I don't know any {_anchor_name(a['anchor'])} here now.", found=False)
        center, around, exclude = anchors[0].center, f" the {anchors[0].label}", {anchors[0].id}
    hits = [h for h in m.spatial(center, a["radius"], k=k + len(exclude)) if h.object.id not in exclude][:k]
    where = f"{around} at {fmt_pos(center)}" if around else f" {fmt_pos(center)}"
    names = ", ".join(f"{h.object.label} ({h.score:.2f} m)" for h in hits)
    text = f"Within {a['radius']:g} m of{where}: {names}." if hits else f"Nothing within {a['radius']:g} m of{where}."
    return Answer(True, "spatial", text, found=bool(hits), objects=tuple(h.object for h in hits),
                  scores=tuple(h.score for h in hits), count=len(hits),
                  evidence=m.current_evidence([h.object.id for h in hits]))


def _semantic(m, a, now, k):
    hits = m.semantic(a["text"], k=k)
    names = ", ".join(f"{h.object.label} ({h.score:.2f})" for h in hits)
    shown = sanitize_label(a["text"])
    text = f"Best matches for '{shown}': {names}." if hits else f"Nothing matches '{shown}'."
    return Answer(True, "semantic", text, found=bool(hits), objects=tuple(h.object for h in hits),
                  scores=tuple(h.score for h in hits), count=len(hits),
                  evidence=m.current_evidence([h.object.id for h in hits]))


def _missing(m, a, now, k):
    objs = m.objects("missing")
    shown = objs[:k]
    lasts = tuple(m.placements(o.id)[-1] for o in shown)
    if not objs:
        return Answer(True, "missing", "Nothing is missing.", found=False, count=0)
    parts = [f"{o.label} (last seen at {fmt_pos(p.center)} at {fmt_time(o.last_seen)})" for o, p in zip(shown, lasts)]
    return Answer(True, "missing", f"{len(objs)} missing: " + "; ".join(parts) + ".", found=True, objects=tuple(shown),
                  placements=lasts, count=len(objs), evidence=m.placement_evidence([p.id for p in lasts]))


def _count_objects(m, a, now, k):
    objs = m.objects_labelled_or_id(a.get("label"), a.get("object_id"))
    label = sanitize_label(a.get("label") or f"object #{a.get('object_id')}")
    present = sum(o.state == "present" for o in objs)
    text = (f"I know {len(objs)} object(s) labelled '{label}': {present} present, {len(objs) - present} missing."
            if objs else f"I know no object labelled '{label}'.")
    return Answer(True, "count_objects", text, found=bool(objs), objects=tuple(objs[:k]), count=len(objs))


def _target(a: dict) -> dict:
    return {"object_id": a["object_id"]} if a.get("object_id") is not None else {"label": a["label"]}


EXECUTORS = {
    **{op: _temporal(op) for op in TEMPORAL},
    "changes": _changes,
    "relational": _relational,
    "relational_as_of": _relational_as_of,
    "relational_before": _relational_before,
    "spatial": _spatial,
    "semantic": _semantic,
    "missing": _missing,
    "count_objects": _count_objects,
    "is_related": lambda m, a, now, k: m.is_related(a["relation"], a["anchor"], t=a.get("t"), **_target(a)),
    "did_move": lambda m, a, now, k: m.did_move(since=a.get("since"), until=a.get("until"), **_target(a)),
    "is_present": lambda m, a, now, k: m.is_present(**_target(a)),
    "is_missing": lambda m, a, now, k: m.is_present(missing=True, **_target(a)),
    "was_seen": lambda m, a, now, k: m.was_seen(since=a.get("since"), until=a.get("until"), **_target(a)),
    "where_to_look": lambda m, a, now, k: m.where_to_look(now=now, **_target(a)),
}
assert set(EXECUTORS) == set(BY_NAME) == {op.name for op in TABLE}, "every operator of the table has an executor"
