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

One exception (``place_labels``): when the state that followed settled on another label, and the views at the
place the event announced were read under that label too (at least ``share`` of them, identity.label_share),
the event takes it. Why: those views were split between the two readings, and the later ones decided between
them for the same object; the past change was then that object's. Measured on seeds 320-329 (default profile,
offline): a plant read "flower" 21 times and "plant" 6 times where it appeared (the kept sample: 8 and 3),
seen as a plant at its next place, was joined with it and became "plant"; the appearance stayed "flower
appeared" (a false appearance and a missed one) while its move read "plant moved". A vase later joined with a
bottle (dev seeds 240 and 250) had no "bottle" view at its own place, so it keeps its name.
"""

from __future__ import annotations

import bisect

#: the kinds of event that end a state an earlier event announced
STATE_ENDING = ("moved", "removed", "reappeared")
#: the kinds whose announced place is the placement they end (the object was there); others: the one they open
PLACE_BEFORE = ("removed",)


def announced_place(row) -> int | None:
    """The placement an event's state is about: the place a removal emptied, the place anything else reached."""
    key = "before_id" if row["kind"] in PLACE_BEFORE else "after_id"
    try:
        value = row[key]
    except (KeyError, IndexError):
        return None
    return None if value is None else int(value)


def event_names(events, object_events, current_labels: dict[int, str],
                place_labels: dict[int, dict[str, int]] | None = None, share: float = 1.0) -> dict[int, str]:
    """{event id: label} for every event of ``events`` (rows with id, stamp, kind, object_id, label, and for
    ``place_labels`` before_id and after_id).

    object_events: every relabelled and state-ending event of those events' objects (same columns), in
    (stamp, id) order; current_labels: {object id: its shown label now}; place_labels: {placement id: {label:
    sightings read under it}} for the places the events announced (announced_place), with ``share`` the least
    share of them that lets the next state's label name the event (module docstring). Each object's keys are
    sorted once and searched by bisection: an object with thousands of events is named in n log n, not n
    squared."""
    ends: dict[int, list] = {}      # object -> sorted ((stamp, id), row) of its state-ending events
    relabels: dict[int, list] = {}  # object -> sorted ((stamp, id), label) of its relabellings
    for r in object_events:
        key = (float(r["stamp"]), int(r["id"]))
        if r["kind"] == "relabelled":
            relabels.setdefault(int(r["object_id"]), []).append((key, r["label"]))
        elif r["kind"] in STATE_ENDING:
            ends.setdefault(int(r["object_id"]), []).append((key, r))
    for lst in (*ends.values(), *relabels.values()):
        lst.sort(key=lambda kv: kv[0])
    end_keys = {oid: [k for k, _ in lst] for oid, lst in ends.items()}
    ended: dict[int, list[str]] = {}  # object -> the names of its state-ending events, in order

    def own_name(oid: int, i: int, key: tuple, row, after: str | None) -> str:
        """The name of the event ``row`` at ``key``, whose state the object's i-th state-ending event ended (none
        if i is past the last), ``after`` being that event's own name (the name of the state that followed)."""
        mine = end_keys.get(oid, [])
        if i == len(mine):  # the state it announced still holds
            return current_labels.get(oid, row["label"])
        rel = relabels.get(oid, [])
        j = bisect.bisect_left(rel, (mine[i],)) - 1  # the last relabelling before the state ended ...
        name = rel[j][1] if j >= 0 and rel[j][0] > key else row["label"]  # ... and after the event
        if place_labels is not None:
            views = place_labels.get(announced_place(row)) or {}
            total = sum(views.values())
            if after != name and total and views.get(after, 0) >= share * total:
                name = after
        return name

    def ended_names(oid: int) -> list[str]:
        """The names of the object's state-ending events: one loop from the last backwards, each named after the
        one that follows it (no recursion: an object may have thousands of states)."""
        if oid not in ended:
            lst, keys = ends.get(oid, []), end_keys.get(oid, [])
            got: list[str] = [""] * len(lst)
            for k in range(len(lst) - 1, -1, -1):
                key, row = lst[k]
                i = bisect.bisect_right(keys, key)
                got[k] = own_name(oid, i, key, row, got[i] if i < len(lst) else None)
            ended[oid] = got
        return ended[oid]

    def name_of(oid: int, key: tuple, row) -> str:
        i = bisect.bisect_right(end_keys.get(oid, []), key)
        after = None
        if place_labels is not None and i < len(end_keys.get(oid, [])):
            after = ended_names(oid)[i]
        return own_name(oid, i, key, row, after)

    names = {}
    for e in events:
        if e["kind"] == "relabelled":
            names[int(e["id"])] = e["label"]
            continue
        names[int(e["id"])] = name_of(int(e["object_id"]), (float(e["stamp"]), int(e["id"])), e)
    return names
