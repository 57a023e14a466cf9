"""Relations: on / under / near / in, support surfaces other than the box top, incremental upkeep."""

from __future__ import annotations

import pytest
from core_helpers import IMMEDIATE, distance_from_eye, span_obs, view

from tempomem_ros.core import InvalidInputError, Memory


@pytest.fixture
def mem(store):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        yield m


def furnished(m: Memory) -> dict[str, int]:
    """A table with a mug on it and a box under it; a sofa with a phone on the seat; a shelf with a book on
    its middle board; a chair far away."""
    objs = [
        span_obs("table", (0, 0, 0), (1.2, 0.8, 0.75), stamp=1),
        span_obs("mug", (0.5, 0.3, 0.75), (0.58, 0.38, 0.85), stamp=1),
        span_obs("box", (0.4, 0.2, 0.0), (0.7, 0.5, 0.3), stamp=1),
        span_obs("sofa", (3, 0, 0), (5, 0.9, 0.9), stamp=1),
        span_obs("phone", (3.8, 0.3, 0.44), (3.95, 0.38, 0.46), stamp=1),
        span_obs("shelf", (0, 3, 0), (0.9, 3.35, 1.8), stamp=1),
        span_obs("book", (0.3, 3.05, 0.62), (0.34, 3.3, 0.86), stamp=1),
        span_obs("chair", (8, 8, 0), (8.5, 8.5, 0.9), stamp=1),
    ]
    m.add(objs)
    m.commit()
    return {o.label: o.id for o in m.objects()}


def labels(objs) -> list[str]:
    return sorted(o.label for o in objs)


def test_on_uses_the_box_top_of_a_table(mem):
    furnished(mem)
    res = mem.relational("on", "table")
    assert res.anchor_found and labels(res.anchors) == ["table"]
    assert labels(res.objects) == ["mug"]  # not the box underneath, not the table itself


def test_phone_on_sofa_seat_below_the_backrest_top(mem):
    furnished(mem)
    assert labels(mem.relational("on", "sofa").objects) == ["phone"]


def test_book_on_the_middle_board_of_a_shelf_is_on_and_in(mem):
    furnished(mem)
    assert labels(mem.relational("on", "shelf").objects) == ["book"]
    assert labels(mem.relational("in", "shelf").objects) == ["book"]


def test_under_is_the_inverse_of_on(mem):
    furnished(mem)
    assert labels(mem.relational("under", "mug").objects) == ["table"]
    assert mem.relational("under", "chair").objects == ()


def test_near_is_a_box_gap_within_0_6_m(mem):
    furnished(mem)
    assert labels(mem.relational("near", "table").objects) == ["box", "mug"]
    assert mem.relational("near", "chair").objects == ()


def test_anchor_not_found_returns_nothing(mem):
    furnished(mem)
    res = mem.relational("on", "piano")
    assert (res.anchor_found, res.objects, res.anchors) == (False, (), ())
    res = mem.relational("on", "able")  # whole words: "able" is not "table"
    assert (res.anchor_found, res.objects) == (False, ())
    assert mem.relational("on", 999).anchor_found is False
    with pytest.raises(InvalidInputError):
        mem.relational("beside", "table")


def test_anchor_by_id(mem):
    ids = furnished(mem)
    assert labels(mem.relational("on", ids["table"]).objects) == ["mug"]


def test_in_region(mem):
    furnished(mem)
    rid = mem.define_region("kitchen", (-0.5, -0.5, -0.1), (1.5, 1.5, 2.0))
    assert labels(mem.relational("in", "kitchen").objects) == ["box", "mug", "table"]
    assert labels(mem.contents(rid)) == ["box", "mug", "table"]
    assert mem.get(2).region_label == "kitchen"


def test_relations_are_updated_incrementally_with_validity(mem):
    ids = furnished(mem)
    before = {(r.subject_id, r.relation, r.object_id) for r in mem.relations()}
    assert (ids["mug"], "on", ids["table"]) in before
    # The mug's place on the table is seen empty (the table and the box under it are seen), then a mug is
    # seen on the sofa seat: identity across the move.
    eye, mug_at = (0.54, -1.0, 1.3), (0.54, 0.34, 0.8)
    for t in (5.0, 6.0, 7.0):
        mem.add([span_obs("table", (0, 0, 0), (1.2, 0.8, 0.75), stamp=t), span_obs("box", (0.4, 0.2, 0.0),
                                                                                 (0.7, 0.5, 0.3), stamp=t)],
                view(t, mug_at, distance_from_eye(mug_at, eye) + 1.0, eye=eye))
    stats = mem.commit()
    assert (stats.removed, mem.get(ids["mug"]).state) == (1, "missing")
    mem.add([span_obs("mug", (4.3, 0.3, 0.45), (4.38, 0.38, 0.55), stamp=10)])
    stats = mem.commit()
    assert stats.moved == 1
    after = {(r.subject_id, r.relation, r.object_id) for r in mem.relations()}
    assert (ids["mug"], "on", ids["table"]) not in after
    assert (ids["mug"], "on", ids["sofa"]) in after
    closed = mem._conn.execute(
        "SELECT since, until FROM relations WHERE subject_id=? AND relation='on' AND object_id=?",
        (ids["mug"], ids["table"])).fetchall()
    assert [tuple(r) for r in closed] == [(1.0, 5.0)]  # closed at the first miss, as the placement is
    # Relations of objects the commit did not touch were not rewritten.
    untouched = mem._conn.execute(
        "SELECT COUNT(*) FROM relations WHERE subject_id=? AND since > 1", (ids["book"],)).fetchone()[0]
    assert untouched == 0


def test_the_relation_keeper_is_a_stage_of_its_own(store):
    """RelationKeeper runs on a store and the relation settings alone: with a wider 'near' it opens the rows
    the memory's own keeper (0.6 m) did not, once, and closes them when it no longer holds."""
    from core_helpers import box_obs

    from tempomem_ros.core.config import RelationConfig
    from tempomem_ros.core.relations_store import RelationKeeper

    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([box_obs("mug", (1.0, 0, 0.5), stamp=1), box_obs("book", (2.0, 0, 0.5), stamp=1)])
        m.commit()
        mug, book = (o.id for o in m.objects())
        assert m.relations() == []  # 1 m apart: not near at 0.6 m
        wide = RelationKeeper(m._store, RelationConfig(near_distance=1.5))
        with m._store.transaction():
            assert wide.update({mug, book}, 5.0) == 2
        assert sorted((r.subject_id, r.relation, r.object_id, r.since) for r in m.relations()) == \
            [(mug, "near", book, 5.0), (book, "near", mug, 5.0)]
        with m._store.transaction():
            assert wide.update({mug, book}, 6.0) == 0  # nothing changed: nothing opened or closed
        narrow = RelationKeeper(m._store, RelationConfig(near_distance=0.6))
        with m._store.transaction():
            assert narrow.update({mug}, 7.0, changed_at={mug: 6.5}) == 2  # both rows of the pair close
        assert m.relations() == []
        rows = m._conn.execute("SELECT subject_id, until FROM relations ORDER BY id").fetchall()
        assert [(r[0], r[1]) for r in rows] == [(mug, 6.5), (book, 6.5)]  # closed when the change happened
