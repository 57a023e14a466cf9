"""The operators issue 13 added, with exact results (including what must be absent), through the core API and
through Memory.ask."""

from __future__ import annotations

import pytest
from core_helpers import IMMEDIATE, box_obs, distance_from_eye, span_obs, view

from tempomem_ros.core import Memory

TABLE_LO, TABLE_HI = (1.5, -0.5, 0.0), (2.5, 0.5, 0.75)
COUNTER_LO, COUNTER_HI = (-0.5, 1.5, 0.0), (0.5, 2.5, 0.9)
ON_TABLE = (2.0, 0.0, 0.8)
BOOK = (2.2, 0.2, 0.8)
ON_COUNTER = (0.0, 2.0, 0.95)


@pytest.fixture
def mem(store):
    # one sighting is an object, events are not held, but a look-alike found elsewhere waits for the old place
    # (the fixed wall clock 0 keeps the audit deterministic; stamps up to t=400 are then "ahead" of it, so the
    # wall-clock gate is widened)
    config = {**IMMEDIATE, "identity": {**IMMEDIATE["identity"], "reconcile_window_s": 120.0},
              "gates": {"max_stamp_ahead_s": float(2**31)}}
    with Memory.open(store("m"), embedding_dim=4, clock=lambda: 0.0, config=config) as m:
        yield m


def table_story(m: Memory) -> None:
    """Table and counter; mug and book on the table from t=10; at t=30 the mug is seen on the counter, and
    at t=31..33 its place on the table is seen empty: one mug that moved at t=30."""
    for i in range(3):
        m.add([span_obs("table", TABLE_LO, TABLE_HI, stamp=10 + i), span_obs("counter", COUNTER_LO, COUNTER_HI,
                                                                              stamp=10 + i),
               box_obs("mug", ON_TABLE, stamp=10 + i), box_obs("book", BOOK, stamp=10 + i)], stamp=10 + i)
        m.commit()
    m.add([span_obs("table", TABLE_LO, TABLE_HI, stamp=30), span_obs("counter", COUNTER_LO, COUNTER_HI, stamp=30),
           box_obs("mug", ON_COUNTER, stamp=30), box_obs("book", BOOK, stamp=30)], stamp=30)
    m.commit()
    for t in (31.0, 32.0, 33.0):
        m.add([span_obs("table", TABLE_LO, TABLE_HI, stamp=t), box_obs("book", BOOK, stamp=t)],
              view(t, ON_TABLE, distance_from_eye(ON_TABLE) + 1.0))
        m.commit()


def labels(objs):
    return sorted(o.label for o in objs)


def test_relations_as_of_a_time(mem):
    table_story(mem)
    assert labels(mem.relational("on", "table").objects) == ["book"]            # the mug is not on it any more
    then = mem.relational("on", "table", t=15)
    assert labels(then.objects) == ["book", "mug"]
    mug_then = dict(zip([o.label for o in then.objects], then.placements))["mug"]
    assert mug_then.center == pytest.approx(ON_TABLE) and mug_then.t_to == 30
    assert mem.relational("on", "table", t=5).objects == ()                      # nothing seen yet
    assert mem.relational("on", "table", t=5).anchor_found is True
    assert labels(mem.relational("on", "counter", t=31).objects) == ["mug"]
    assert mem.relational("on", "counter", t=29).objects == ()
    assert mem.relational("on", "sofa", t=15).anchor_found is False


def test_relations_before_their_last_change(mem):
    table_story(mem)
    t, before = mem.relational_before("on", "table")
    assert t == 30 and labels(before.objects) == ["book", "mug"]
    t, before = mem.relational_before("on", "counter")
    assert t == 30 and before.objects == ()
    ans = mem.ask("what was on the table before")
    assert (ans.operator, labels(ans.objects)) == ("relational_before", ["book", "mug"])
    assert ans.understood_as == "objects on table before its last change"


def test_is_related_verdicts_with_evidence(mem):
    table_story(mem)
    no = mem.is_related("on", "table", label="mug")
    assert (no.verdict, no.found) == (False, True)
    assert "on the counter" in no.text and no.placements[0].center == pytest.approx(ON_COUNTER)
    assert list(no.evidence) == [o.id for o in mem.history(no.objects[0].id) if o.stamp == 30]
    yes = mem.is_related("on", "counter", label="mug")
    assert yes.verdict is True and yes.placements[0].center == pytest.approx(ON_COUNTER)
    past = mem.is_related("on", "table", label="mug", t=15)
    assert past.verdict is True and past.placements[0].t_to == 30
    assert len(past.evidence) == 3                                               # the three sightings at t=10..12
    assert mem.is_related("near", "table", label="book").verdict is True
    unknown = mem.is_related("on", "sofa", label="mug")
    assert (unknown.found, unknown.verdict, unknown.text) == (False, None, "I don't know any sofa.")
    ans = mem.ask("is the mug on the table?")
    assert (ans.operator, ans.verdict, ans.understood_as) == ("is_related", False, "whether mug is on table now")


def test_did_move_and_window(mem):
    table_story(mem)
    yes = mem.did_move(label="mug")
    assert (yes.verdict, yes.count, [e.kind for e in yes.events]) == (True, 1, ["moved"])
    assert [p.center for p in yes.placements] == [pytest.approx(ON_TABLE), pytest.approx(ON_COUNTER)]
    assert mem.did_move(label="mug", since=31).verdict is False
    assert mem.did_move(label="mug", since=20, until=30).verdict is True
    assert mem.did_move(label="book").verdict is False
    assert mem.ask("has the book moved").verdict is False
    assert mem.did_move(label="sofa").found is False


def test_was_seen_in_a_span(mem):
    table_story(mem)
    yes = mem.was_seen(label="mug", since=25, until=35)
    assert (yes.verdict, yes.count, yes.time) == (True, 1, 30.0)
    no = mem.was_seen(label="mug", since=13, until=29)
    assert (no.verdict, no.count) == (False, 0) and "last saw it" in no.text
    assert mem.was_seen(label="mug", since=10, until=12).count == 3


def test_changes_filtered_by_kind_and_the_question_forms(mem):
    table_story(mem)
    assert [e.kind for e in mem.changes(kinds=["moved"])] == ["moved"]
    assert sorted(e.label for e in mem.changes(kinds=["appeared"])) == ["book", "counter", "mug", "table"]
    assert mem.changes(kinds=["removed"]) == []
    moved = mem.ask("what moved in the last 5 seconds", now=31)
    assert [(e.kind, e.label) for e in moved.events] == [("moved", "mug")]
    assert mem.ask("what disappeared in the last minute").events == ()
    new = mem.ask("what appeared in the last 5 seconds", now=31)
    assert new.events == () and new.found is False                              # only the move is that recent


def test_history_and_moves_in_a_span(mem):
    table_story(mem)
    hist = mem.temporal("history", label="mug", since=20, until=40)
    assert [p.center for p in hist.placements] == [pytest.approx(ON_TABLE), pytest.approx(ON_COUNTER)]
    assert [p.center for p in mem.temporal("history", label="mug", since=31).placements] == [pytest.approx(ON_COUNTER)]
    assert mem.temporal("count_moves", label="mug", since=31).count == 0
    assert mem.temporal("count_moves", label="mug", since=0, until=30).count == 1


def test_count_objects_missing_and_spatial_around_an_object(mem):
    table_story(mem)
    assert mem.ask("how many mugs are there").count == 1
    assert mem.ask("how many sofas are there").text == "I don't know any sofa."            # singular: plurals.py
    assert mem.ask("what is missing").found is False
    near = mem.ask("what is within 30 cm of the book")
    assert labels(near.objects) == []                                            # the book itself is left out
    near = mem.ask("what is within 1 m of the book")
    assert labels(near.objects) == ["table"]


def keys_story(m: Memory) -> None:
    """Keys at P1 (t=0..2), at P2 (t=100), back at P1 (t=200), then P1 seen empty (t=300..302): missing.
    Each time the old place is seen empty right after the keys were found elsewhere (t=101..103, 201..203)."""
    p1, p2 = (2.0, 0.0, 0.8), (0.0, 2.0, 0.8)
    for i in range(3):
        m.add([box_obs("keys", p1, stamp=i)], stamp=i)
    m.add([box_obs("keys", p2, stamp=100)], stamp=100)
    for i in range(3):
        m.add([], view(101 + i, p1, distance_from_eye(p1) + 1.0))
    m.add([box_obs("keys", p1, stamp=200)], stamp=200)
    for i in range(3):
        m.add([], view(201 + i, p2, distance_from_eye(p2) + 1.0))
    for i in range(3):
        m.add([], view(300 + i, p1, distance_from_eye(p1) + 1.0))
    m.commit()


def test_where_to_look_ranks_places_from_the_history(mem):
    keys_story(mem)
    ans = mem.where_to_look(label="keys")
    # P1: 2 of 3 stays, 200 of 300 s, last there at 300 of 302 s -> 0.76468; seen empty at 300 -> halved 0.38234.
    # P2: 1 of 3 stays, 100 of 300 s, last there at 200 -> 0.43201: the place that was not looked at comes first.
    assert [p.center for p in ans.placements] == [pytest.approx((0.0, 2.0, 0.8)), pytest.approx((2.0, 0.0, 0.8))]
    assert ans.scores == pytest.approx((0.4 / 3 + 0.1 + 0.3 * 200 / 302, (0.8 / 3 + 0.2 + 0.3 * 300 / 302) / 2))
    assert "looked there at" in ans.text and "missing since" in ans.text
    assert len(ans.evidence) == 2 and ans.count == 2
    asked = mem.ask("where should I look for my keys?")
    assert (asked.operator, asked.scores) == ("where_to_look", ans.scores)
    assert mem.is_present(label="keys", missing=True).verdict is True
    assert mem.is_present(label="keys").verdict is False
    assert mem.ask("is my keys missing").verdict is True


def test_where_to_look_for_a_present_object_is_where_it_is(mem):
    table_story(mem)
    ans = mem.where_to_look(label="book")
    assert ans.scores == pytest.approx((1.0,)) and "it is there now" in ans.text
    assert ans.placements[0].current is True
