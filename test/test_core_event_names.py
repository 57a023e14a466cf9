"""Naming an event reads its object's next state, and the one after only while the names chain
(event_names.name_events): the same names as reading every later state (main's rule, kept below as the
reference), from a bounded read."""

from __future__ import annotations

import bisect
import random

import pytest
from core_helpers import IMMEDIATE, box_obs, cup_read_mug_moved, distance_from_eye, view

from tempomem_ros.core import Memory
from tempomem_ros.core.event_names import (
    STATE_ENDING,
    announced_place,
    event_names,
    may_take_next,
    name_events,
    takes_next,
)
from tempomem_ros.core.store.events import EventRows
from tempomem_ros.core.store.objects import ObjectRows
from tempomem_ros.core.store.place_labels import PlaceLabelRows
from tempomem_ros.core.store.placements import PlacementRows
from tempomem_ros.core.store.regions import RegionRows

A = (2.0, 0.0, 0.8)
B = (0.0, 2.0, 0.8)
DA = distance_from_eye(A)
DB = distance_from_eye(B)


def reference_names(events, object_events, current_labels, place_labels=None, share=1.0, one_look=frozenset()):
    """event_names as main 7ec9eda had it: every later state-ending event of the objects named, from the last
    backwards, each after the one that follows it; a place of ``one_look`` takes the next name when any view at
    it read it (identity.one_look_name)."""
    ends: dict[int, list] = {}
    relabels: dict[int, list] = {}
    for r in object_events:
        key = (float(r["stamp"]), int(r["id"]))
        if r["kind"] == "relabelled":
            relabels.setdefault(int(r["object_id"]), []).append((key, r["label"]))
        elif r["kind"] in STATE_ENDING:
            ends.setdefault(int(r["object_id"]), []).append((key, r))
    for lst in (*ends.values(), *relabels.values()):
        lst.sort(key=lambda kv: kv[0])
    end_keys = {oid: [k for k, _ in lst] for oid, lst in ends.items()}
    ended: dict[int, list[str]] = {}

    def own_name(oid, i, key, row, after):
        mine = end_keys.get(oid, [])
        if i == len(mine):
            return current_labels.get(oid, row["label"])
        rel = relabels.get(oid, [])
        j = bisect.bisect_left(rel, (mine[i],)) - 1
        name = rel[j][1] if j >= 0 and rel[j][0] > key else row["label"]
        if place_labels is not None:
            views = place_labels.get(announced_place(row)) or {}
            total = sum(views.values())
            n = views.get(after, 0)
            if after != name and total and (n >= share * total or (announced_place(row) in one_look and n > 0)):
                name = after
        return name

    def ended_names(oid):
        if oid not in ended:
            lst, keys = ends.get(oid, []), end_keys.get(oid, [])
            got = [""] * len(lst)
            for k in range(len(lst) - 1, -1, -1):
                key, row = lst[k]
                i = bisect.bisect_right(keys, key)
                got[k] = own_name(oid, i, key, row, got[i] if i < len(lst) else None)
            ended[oid] = got
        return ended[oid]

    def name_of(oid, key, row):
        i = bisect.bisect_right(end_keys.get(oid, []), key)
        after = None
        if place_labels is not None and i < len(end_keys.get(oid, [])):
            after = ended_names(oid)[i]
        return own_name(oid, i, key, row, after)

    return {int(e["id"]): e["label"] if e["kind"] == "relabelled"
            else name_of(int(e["object_id"]), (float(e["stamp"]), int(e["id"])), e) for e in events}


LABELS = ("cup", "mug", "bowl")
KINDS = ("appeared", "moved", "removed", "reappeared", "relabelled")


def random_history(rng: random.Random):
    """1-3 objects with 1-14 events each (ties in stamp included), placements 1-8 with 0-4 views of each label."""
    events = []
    for oid in range(1, rng.randint(1, 3) + 1):
        for _ in range(rng.randint(1, 14)):
            events.append({"id": 0, "stamp": float(rng.randint(0, 12)), "kind": rng.choice(KINDS),
                           "object_id": oid, "label": rng.choice(LABELS),
                           "before_id": rng.choice((None, *range(1, 9))), "after_id": rng.choice((None, *range(1, 9)))})
    ids = list(range(1, len(events) + 1))
    rng.shuffle(ids)
    for e, i in zip(events, ids):
        e["id"] = i
    events.sort(key=lambda e: (e["stamp"], e["id"]))
    places = {p: {lb: n for lb in LABELS if (n := rng.randint(0, 4 if rng.random() < 0.7 else 0))}
              for p in range(1, 9) if rng.random() < 0.8}
    current = {oid: rng.choice(LABELS) for oid in {e["object_id"] for e in events} if rng.random() < 0.9}
    return events, places, current


def test_lazy_naming_gives_the_names_of_every_later_state_on_random_histories():
    """20,000 random histories (several objects, relabellings, ties, places' views, shares 0 to 1): the events
    named from a random point on, with or without the places' labels, get main's names; and every state read
    past an event's own next one was read because the state before it could take its name (may_take_next)."""
    rng = random.Random(1409)
    chained = 0
    for _ in range(20000):
        events, places, current = random_history(rng)
        naming = [e for e in events if e["kind"] != "appeared"]
        share = rng.choice((0.0, 0.01, 0.2, 0.25, 0.5, 1.0))
        i = rng.randrange(len(events))
        asked = events[i:rng.randint(i + 1, len(events))]  # a span: later states are read only if they chain
        use_places = places if rng.random() < 0.8 else None
        one_look = {p for p in range(1, 9) if rng.random() < 0.3} if rng.random() < 0.5 else set()
        want = reference_names(asked, naming, current, use_places, share, one_look)
        assert event_names(asked, naming, current, use_places, share, one_look) == want

        asks: list = []
        by_key = {(e["object_id"], (e["stamp"], e["id"])): e for e in events}

        def following(keys):
            asks.extend(keys)
            out = {}
            for oid, key in keys:
                later = [e for e in naming if e["object_id"] == oid and (e["stamp"], e["id"]) > key]
                end = next((e for e in later if e["kind"] in STATE_ENDING), None)
                rel = [e["label"] for e in later if e["kind"] == "relabelled"
                       and (end is None or (e["stamp"], e["id"]) < (end["stamp"], end["id"]))]
                out[(oid, key)] = (end, rel[-1] if rel and end is not None else None)
            return out
        lookup = None if use_places is None else (lambda ids: {p: use_places[p] for p in ids if p in use_places})
        looks = lambda ids: [p for p in ids if p in one_look]  # noqa: E731
        assert name_events(asked, current, following, lookup, share, one_look_places=looks) == want
        own_keys = {(e["object_id"], (e["stamp"], e["id"])) for e in asked if e["kind"] != "relabelled"}
        assert len(asks) == len(set(asks)) and own_keys <= set(asks)
        for oid, key in set(asks) - own_keys:  # read only because the state before it could take its name
            chained += 1
            assert use_places is not None and by_key[(oid, key)]["kind"] in STATE_ENDING
            takers = []  # the asked states that ``key`` ended, whose places could give them the next state's name
            for o, prev in asks:
                between = [e for e in naming if e["object_id"] == oid and prev < (e["stamp"], e["id"]) < key]
                if o != oid or prev >= key or [e for e in between if e["kind"] in STATE_ENDING]:
                    continue
                own = ([e["label"] for e in between if e["kind"] == "relabelled"] or [by_key[(oid, prev)]["label"]])[-1]
                place = announced_place(by_key[(oid, prev)])
                if may_take_next(use_places.get(place) or {}, own, share, place in one_look):
                    takers.append(prev)
            assert takers
    assert chained > 1000  # the chains were exercised


def test_may_take_next_is_whether_another_label_has_the_share():
    assert may_take_next({}, "cup", 0.2) is False
    assert may_take_next({"cup": 5}, "cup", 0.2) is False
    assert may_take_next({"cup": 4, "mug": 1}, "cup", 0.2) is True
    assert may_take_next({"cup": 4, "mug": 1}, "cup", 0.25) is False
    assert may_take_next({"cup": 4, "mug": 1}, "mug", 0.25) is True
    assert may_take_next({"cup": 5}, "cup", 0.0) is True  # any label has a share of 0
    # a place seen in one look (identity.one_look_name): any view of another label, whatever its share
    assert may_take_next({"glass": 8, "cup": 1}, "glass", 0.2) is False
    assert may_take_next({"glass": 8, "cup": 1}, "glass", 0.2, one_look=True) is True
    assert may_take_next({"glass": 9}, "glass", 0.2, one_look=True) is False
    assert may_take_next({"glass": 9}, "glass", 0.0, one_look=True) is True  # any label has a share of 0


def test_takes_next_is_the_share_or_in_one_look_any_view():
    assert takes_next({"glass": 8, "cup": 1}, "glass", "cup", 0.2) is False
    assert takes_next({"glass": 8, "cup": 1}, "glass", "cup", 0.2, one_look=True) is True
    assert takes_next({"glass": 8, "cup": 1}, "glass", "mug", 0.2, one_look=True) is False  # never read so there
    assert takes_next({"glass": 6, "cup": 2}, "glass", "cup", 0.2) is True
    assert takes_next({"glass": 8, "cup": 1}, "glass", "glass", 0.2, one_look=True) is False
    assert takes_next({}, "glass", "cup", 0.2, one_look=True) is False


@pytest.fixture
def mem(store):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        yield m


def bounce(m: Memory, moves: int) -> None:
    """A mug seen at A (t=10..12), then ``moves`` times gone from where it was (3 views) and seen at the other
    place, 20 s apart."""
    places = ((A, DA), (B, DB))
    for i in range(3):
        m.add([box_obs("mug", A, stamp=10 + i)], view(10 + i, A, DA + 0.04))
        m.commit()
    for k in range(moves):
        (here, dh), (there, dt) = places[k % 2], places[(k + 1) % 2]
        t0 = 20 + 20 * k
        for i in range(3):
            m.add([], view(t0 + i, here, dh + 1.0))
            m.commit()
        m.add([box_obs("mug", there, stamp=t0 + 10)], view(t0 + 10, there, dt + 0.04))
        m.commit()


def test_naming_a_past_change_reads_its_next_state_not_the_later_ones(mem, monkeypatch):
    """The mug's appearance at A, asked after twelve later changes of the mug: its name reads the state that
    followed it (the removal at A) and the views at A alone, not the later events and places (before: every
    place the mug stood in, 13 label counts); the names are those of the whole history."""
    bounce(mem, 6)
    every = mem.changes()
    assert [e.kind for e in every] == ["appeared"] + ["removed", "moved"] * 6
    places: list = []
    asks: list = []
    labels_of, following = PlaceLabelRows.kept_by_label, EventRows.following
    monkeypatch.setattr(PlaceLabelRows, "kept_by_label",
                        lambda self, ids: places.append(sorted(ids)) or labels_of(self, ids))
    monkeypatch.setattr(EventRows, "following", lambda self, keys: asks.append(list(keys)) or following(self, keys))
    first = mem.changes(0, 15)
    assert first == every[:1] and first[0].label == "mug"
    appeared = every[0]
    assert asks == [[(appeared.object_id, (appeared.stamp, appeared.id))]]
    assert places == [[appeared.after.id]]


def test_a_past_change_takes_a_later_name_through_the_states_between(mem, monkeypatch):
    """A mug read "cup" three times and "mug" once at A (it stays "cup"), missing there, then seen at B as a mug
    (relabelled): asked alone, its appearance at A is named "mug" through the removal at A (A's views give "mug"
    the share, so the removal may take the move's name) and the move (its state holds: the label now). Three
    rounds of EventRows.following, each one ask; the views of A once; the same names as the whole history's."""
    cup_read_mug_moved(mem, ("cup", "cup", "cup", "mug"), A, B)
    every = [e for e in mem.changes() if e.kind != "relabelled"]
    assert [(e.kind, e.label, e.published_label) for e in every] == [
        ("appeared", "mug", "cup"), ("removed", "mug", "cup"), ("moved", "mug", "cup")]
    appeared, removed, moved = every
    places: list = []
    asks: list = []
    labels_of, following = PlaceLabelRows.kept_by_label, EventRows.following
    monkeypatch.setattr(PlaceLabelRows, "kept_by_label",
                        lambda self, ids: places.append(sorted(ids)) or labels_of(self, ids))
    monkeypatch.setattr(EventRows, "following", lambda self, keys: asks.append(list(keys)) or following(self, keys))
    rows: list = []  # the ending rows read (schema version 12: following gives them by id, store/event_links.py)
    by_ids = EventRows.by_ids
    monkeypatch.setattr(EventRows, "by_ids", lambda self, ids: rows.append(sorted(ids)) or by_ids(self, ids))
    assert mem.changes(0, 15) == [appeared]
    assert asks == [[(1, (e.stamp, e.id))] for e in every]
    assert places == [[appeared.after.id]] and removed.before.id == appeared.after.id
    assert rows == [[removed.id], [moved.id]]  # each state the name chains past, once


def test_a_change_reads_the_same_places_before_and_after_its_state_ends(mem, monkeypatch):
    """The mug's appearance at A asked while it stands there and again after it left A for B: both asks read the
    views at A, once, and name it "mug" (before: the first ask read no place, the second A's, so the changes of
    day 1 of bench_long_run read 18 places asked on day 1 and 75 on day 30)."""
    for i in range(3):
        mem.add([box_obs("mug", A, stamp=10 + i)], view(10 + i, A, DA + 0.04))
        mem.commit()
    places: list = []
    labels_of = PlaceLabelRows.kept_by_label
    monkeypatch.setattr(PlaceLabelRows, "kept_by_label",
                        lambda self, ids: places.append(sorted(ids)) or labels_of(self, ids))
    holding = mem.changes(0, 15)
    assert [(e.kind, e.label) for e in holding] == [("appeared", "mug")]
    assert places == [[holding[0].after.id]]
    for i in range(3):
        mem.add([], view(20 + i, A, DA + 1.0))
        mem.commit()
    mem.add([box_obs("mug", B, stamp=30)], view(30, B, DB + 0.04))
    mem.commit()
    assert [e.kind for e in mem.changes() if e.kind != "relabelled"] == ["appeared", "removed", "moved"]
    places.clear()
    ended = mem.changes(0, 15)
    assert [(e.id, e.label, e.after.id) for e in ended] == [(e.id, "mug", e.after.id) for e in holding]
    assert places == [[holding[0].after.id]]


def test_the_changes_read_their_placements_and_regions_once(mem, monkeypatch):
    """Every placement the changes name (before and after of each) is read in one statement with the region
    labels once, not one statement per placement with the region labels each time (before: the changes of day 1
    of bench_long_run sent 171 of each, 73.6 of the call's 214 VM steps x100), and their objects' shown labels
    alone, not their whole rows (92.1 x100); the answers are the same."""
    bounce(mem, 3)
    want = mem.changes()
    assert [e.kind for e in want] == ["appeared"] + ["removed", "moved"] * 3
    calls: list = []
    by_ids, labels = PlacementRows.by_ids, RegionRows.labels
    monkeypatch.setattr(PlacementRows, "row", lambda self, pid: calls.append(("row", pid)))
    monkeypatch.setattr(PlacementRows, "by_ids", lambda self, ids: calls.append(("by_ids", sorted(ids)))
                        or by_ids(self, ids))
    monkeypatch.setattr(RegionRows, "labels", lambda self: calls.append(("regions",)) or labels(self))
    monkeypatch.setattr(ObjectRows, "rows", lambda self, ids, states=None: calls.append(("object rows", ids)))
    assert mem.changes() == want
    named = sorted({p.id for e in want for p in (e.before, e.after) if p is not None})
    assert calls == [("by_ids", named), ("regions",)]
    assert len(named) == 4  # A and B, seen twice each
