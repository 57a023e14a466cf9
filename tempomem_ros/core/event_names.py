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

#: the kinds of event that end a state an earlier event announced
STATE_ENDING = ("moved", "removed", "reappeared")


def event_names(events, object_events, current_labels: dict[int, str]) -> dict[int, str]:
    """{event id: label} for every event of ``events`` (rows with id, stamp, kind, object_id, label).

    object_events: every relabelled and state-ending event of those events' objects (same columns), in
    (stamp, id) order; current_labels: {object id: its label now}."""
    by_object: dict[int, list] = {}
    for r in object_events:
        by_object.setdefault(int(r["object_id"]), []).append(r)
    names = {}
    for e in events:
        if e["kind"] == "relabelled":
            names[int(e["id"])] = e["label"]
            continue
        key = (float(e["stamp"]), int(e["id"]))
        later = [r for r in by_object.get(int(e["object_id"]), ())
                 if r["kind"] in STATE_ENDING and (float(r["stamp"]), int(r["id"])) > key]
        if not later:
            names[int(e["id"])] = current_labels.get(int(e["object_id"]), e["label"])
            continue
        end = (float(later[0]["stamp"]), int(later[0]["id"]))
        relabels = [r for r in by_object[int(e["object_id"])]
                    if r["kind"] == "relabelled" and key < (float(r["stamp"]), int(r["id"])) < end]
        names[int(e["id"])] = relabels[-1]["label"] if relabels else e["label"]
    return names
