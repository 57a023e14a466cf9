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

And a place seen in one look only (``one_look``: its sightings span at most fusion.label_look_gap_s, one visit)
gives the event the next state's name when it read it at all, whatever its share. Why: a segmenter's confusion
persists through a look, so one look's readings are one piece of evidence (the shown label's per-look rule,
docs/MEMORY.md), split between its persistent reading and the other one; the later looks decided between them.
h540 seed 542 (no feature): a cup brought onto a shelf was seen there in one look, "glass" 8 times and "cup" once,
then moved and seen as a cup over a visit (joined as its move by settling's one-look name, and relabelled "cup");
its appearance read "glass appeared" (a false appearance, a missed one, the changes of 20 and 30 minutes wrong).
Seed 548 the same (a pillow read "cushion" 22 times and "pillow" once where it was put).
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


def may_take_next(views: dict[str, int], own: str, share: float, one_look: bool = False) -> bool:
    """Whether the name of a state whose own name is ``own`` can become the next state's (``views``: the sightings
    at its announced place by label): some other label has ``share`` of them (a label with no view counts 0, so
    with share <= 0 any label would), or, the place seen in one look (``one_look``), any view at all. When not, the
    name is ``own`` whatever the later states are named, and the later history need not be read to name it
    (name_events)."""
    total = sum(views.values())
    if not total:
        return False
    bar = share * total
    return bar <= 0 or any(n >= bar or (one_look and n > 0) for label, n in views.items() if label != own)


def takes_next(views: dict[str, int], own: str, after: str, share: float, one_look: bool = False) -> bool:
    """Whether a state named ``own`` by its own history takes the next state's name ``after``: its place's views
    (``views``) read ``after`` with ``share`` of them, or at all when the place was seen in one look."""
    total = sum(views.values())
    if after == own or not total:
        return False
    n = views.get(after, 0)
    return n >= share * total or (one_look and n > 0)


def name_events(events, current_labels: dict[int, str], following, place_labels=None,
                share: float = 1.0, event_rows=None, one_look_places=None) -> dict[int, str]:
    """{event id: label} for every event of ``events`` (rows with id, stamp, kind, object_id, label, and for
    ``place_labels`` before_id and after_id) by the module's rule, reading of the later history only what the
    names need.

    following(asks): for a list of (object id, (stamp, id)) keys, {key: (row, relabel)} with row the object's
    first state-ending event after the key (None when its state still holds) and relabel the label of its last
    relabelling between the key and that row (None when none); place_labels(placement ids): {placement id:
    {label: sightings}} (those with none may be absent), or None for the rule without the places' labels.
    ``following`` may give an ending row by its event id alone (a store whose events carry their links, schema
    version 12: store/event_links.py); event_rows(ids) -> {id: row} then reads those a name chains past, the only
    ones whose rows the names need. one_look_places(placement ids): those of them seen in one look (the module's
    docstring), read with place_labels for the same places; None: none is.

    Why lazily: a state's name follows the next state's name only when its own place's views give another label
    ``share`` (may_take_next), so naming an event reads its object's next state, and the one after only while
    the names chain. Reading every later state of the objects made naming the changes of day 1 on day 30 of
    bench_long_run read the month of the objects' later events and the label counts of all their places (CPU
    p95 16.4 -> 34.5 ms, x2.1; docs/RESULTS.md section 6, round 8). The reads go in rounds, each one call of
    ``following`` and one of ``place_labels`` for every name still open, so the calls grow with the longest
    chain, not with the events.

    The first round reads the views of every asked event's place, whether its state has ended or not, though
    only an ended state's are weighed; a later round (the states a name chains past) reads the ended ones'. Why:
    which of the asked states have ended depends on how long after them they are asked, so reading the ended
    ones' places alone made the same question dearer the later it was asked: the changes of day 1 of
    bench_long_run read 18 places asked on day 1, 75 on day 30 (4.0 -> 16.2 VM steps x100 of a call of 214 ->
    226). Read for every asked event, they are the places the answer describes anyway (each event's placements
    are read for it), the same on every day: 28.3 x100 on both (docs/RESULTS.md section 6, round 12)."""
    names: dict[int, str] = {}
    rows: dict[tuple, object] = {}       # (object id, key) -> the event at that key
    settled: dict[tuple, str] = {}       # (object id, key) -> its name
    chained: dict[tuple, tuple] = {}     # (object id, key) -> (own name, views, the next state's node)
    views: dict[int, dict[str, int]] = {}
    single: set[int] = set()             # the places read so far that were seen in one look
    for e in events:
        if e["kind"] == "relabelled":   # about the labels: its own
            names[int(e["id"])] = e["label"]
            continue
        rows.setdefault((int(e["object_id"]), (float(e["stamp"]), int(e["id"]))), e)
    open_nodes, asked = list(rows), True  # asked: the round of the asked events (the first)
    while open_nodes:
        got = following(open_nodes)
        ended: list[tuple] = []  # (node, own name, next node): states that ended
        for node in open_nodes:
            row = rows[node]
            end, relabel = got.get(node, (None, None))
            if end is None:  # the state it announced still holds
                settled[node] = current_labels.get(node[0], row["label"])
                continue
            own = relabel if relabel is not None else row["label"]
            if place_labels is None or announced_place(row) is None:
                settled[node] = own
                continue
            ended.append((node, own, end))
        weighed = open_nodes if asked else [node for node, *_ in ended]  # the asked: all of them (the docstring)
        fresh = {p for node in weighed if (p := announced_place(rows[node])) is not None and p not in views}
        if place_labels is not None and fresh:
            got_views = place_labels(sorted(fresh))
            views.update({p: dict(got_views.get(p) or {}) for p in fresh})
            if one_look_places is not None:
                single.update(int(p) for p in one_look_places(sorted(fresh)))
        chaining = []
        for node, own, end in ended:
            place = announced_place(rows[node])
            seen = views[place]
            if not may_take_next(seen, own, share, place in single):
                settled[node] = own
                continue
            chaining.append((node, own, seen, end))
        asked = False
        by_id = [end for *_, end in chaining if isinstance(end, int)]
        ending_rows = event_rows(by_id) if by_id else {}
        open_nodes = []
        for node, own, seen, end in chaining:
            end = ending_rows[end] if isinstance(end, int) else end
            nxt = (node[0], (float(end["stamp"]), int(end["id"])))
            chained[node] = (own, seen, nxt)
            if nxt not in rows:
                rows[nxt] = end
                open_nodes.append(nxt)
    for node in sorted(chained, reverse=True):  # a node's next state has the same object and a later key
        own, seen, nxt = chained[node]
        after = settled[nxt]
        settled[node] = after if takes_next(seen, own, after, share, announced_place(rows[node]) in single) else own
    for e in events:
        if e["kind"] != "relabelled":
            names[int(e["id"])] = settled[(int(e["object_id"]), (float(e["stamp"]), int(e["id"])))]
    return names


def event_names(events, object_events, current_labels: dict[int, str],
                place_labels: dict[int, dict[str, int]] | None = None, share: float = 1.0,
                one_look: set[int] | None = None) -> dict[int, str]:
    """name_events over lists: object_events holds every relabelled and state-ending event of those events'
    objects after the earliest of them (same columns; any order), place_labels {placement id: {label:
    sightings}} for the places the events announced (announced_place), or None; one_look the places of them
    seen in one look. Each object's keys are sorted once and searched by bisection: an object with thousands of
    events is named in n log n."""
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

    def following(asks):
        out = {}
        for oid, key in asks:
            mine = end_keys.get(oid, [])
            i = bisect.bisect_right(mine, key)
            if i == len(mine):
                out[(oid, key)] = (None, None)
                continue
            rel = relabels.get(oid, [])
            j = bisect.bisect_left(rel, (mine[i],)) - 1  # the last relabelling before the state ended ...
            out[(oid, key)] = (ends[oid][i][1], rel[j][1] if j >= 0 and rel[j][0] > key else None)  # ... after it
        return out

    lookup = None if place_labels is None else (lambda ids: {p: place_labels[p] for p in ids if p in place_labels})
    looks = None if one_look is None else (lambda ids: [p for p in ids if p in one_look])
    return name_events(events, current_labels, following, lookup, share, one_look_places=looks)
