"""The label a change event names its object by, when it is read.

Why not the label it was recorded under: relabelling waits for a margin of label mass (hysteresis), so an
object first read under a look-alike label keeps that label for a while, and the change it went through in
that while is recorded under the wrong name. Measured on dev 230-259 (default profile, offline): a remote
read "phone" for its first 13 views moved at t+345 s; the move was recorded as "phone moved" and the object
became "remote" 175 s later, when the views at its new place had settled it. The truth "remote moved" was
missed and a false "phone moved" reported, in 7 of 30 scenes (and "appeared" in 3).

The rule: an event is named by the label its object held when the state the event announced ended, that is
just before the object's next move, removal or reappearance (the label of the last relabelling before it), or
by its label now if that state still holds. Views at the announced place settle what the thing was; views
after the object moved on, or came back elsewhere, belong to another state (on dev seeds 240 and 250 a
removed vase was later joined with a bottle elsewhere), so they never rename a past change. Relabelled events
keep their own labels: they are about the labels. The stored row is never changed (the label it was
published under stays in ``published_label``).
"""

from __future__ import annotations

import bisect

#: the kinds of event that end a state an earlier event announced
STATE_ENDING = ("moved", "removed", "reappeared")


def event_names(events, object_events, current_labels: dict[int, str]) -> dict[int, str]:
    """{event id: label} for every event of ``events`` (rows with id, stamp, kind, object_id, label).

    object_events: every relabelled and state-ending event of those events' objects (same columns), in
    (stamp, id) order; current_labels: {object id: its shown label now}. Each object's keys are sorted once and
    searched by bisection: an object with thousands of events is named in n log n, not n squared."""
    ends: dict[int, list] = {}      # object -> sorted (stamp, id) of its state-ending events
    relabels: dict[int, list] = {}  # object -> sorted ((stamp, id), label) of its relabellings
    for r in object_events:
        key = (float(r["stamp"]), int(r["id"]))
        if r["kind"] == "relabelled":
            relabels.setdefault(int(r["object_id"]), []).append((key, r["label"]))
        elif r["kind"] in STATE_ENDING:
            ends.setdefault(int(r["object_id"]), []).append(key)
    for lst in (*ends.values(), *relabels.values()):
        lst.sort()
    names = {}
    for e in events:
        if e["kind"] == "relabelled":
            names[int(e["id"])] = e["label"]
            continue
        oid, key = int(e["object_id"]), (float(e["stamp"]), int(e["id"]))
        mine = ends.get(oid, [])
        i = bisect.bisect_right(mine, key)
        if i == len(mine):  # the state it announced still holds
            names[int(e["id"])] = current_labels.get(oid, e["label"])
            continue
        rel = relabels.get(oid, [])
        j = bisect.bisect_left(rel, (mine[i],)) - 1  # the last relabelling before the state ended ...
        names[int(e["id"])] = rel[j][1] if j >= 0 and rel[j][0] > key else e["label"]  # ... and after the event
    return names
