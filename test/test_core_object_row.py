"""ObjectRow (core/store/object_row.py): the typed object row every store read of rows.OBJECT_COLS returns.

Its fields must be the columns of rows.OBJECT_COLS in order (the rows are built from the values in that order),
and those must be every column of the objects table but its bookkeeping: a schema change that forgets the row
fails here. Read back from a real store on both backends, each field has its declared type and the stored
value; it is read by attribute (or position) only: ``row["label"]`` raises.
"""

from __future__ import annotations

import typing

import numpy as np
import pytest
from core_helpers import IMMEDIATE, span_obs

from tempomem_ros.core import Memory
from tempomem_ros.core.rows import OBJECT_COLS
from tempomem_ros.core.store.object_row import ObjectRow, fetch_object, fetch_objects
from tempomem_ros.core.store.objects import ObjectRows
from tempomem_ros.core.store.retention_rows import RetentionRows

#: Columns of the objects table that are no part of the object: the vector index's dirty flag (store/vectors.py)
#: and the wall time of its creation.
BOOKKEEPING = {"vec_dirty", "created_wall"}


def test_the_fields_are_the_object_columns_in_order():
    assert ObjectRow._fields == tuple(c.strip() for c in OBJECT_COLS.split(","))
    assert ObjectRow._fields[0] == "id" and len(set(ObjectRow._fields)) == len(ObjectRow._fields)


def test_every_column_of_the_objects_table_but_its_bookkeeping_is_in_the_row(store):
    address = store("m")
    Memory.open(address, embedding_dim=4).close()
    if store.postgres:
        columns = {r[0] for r in store.raw(address, "SELECT column_name FROM information_schema.columns WHERE "
                                                    "table_name = 'objects' AND table_schema = current_schema()")}
    else:
        columns = {r[0] for r in store.raw(address, "SELECT name FROM pragma_table_info('objects')")}
    assert columns - BOOKKEEPING == set(ObjectRow._fields)
    assert BOOKKEEPING <= columns


def test_a_row_is_read_by_attribute_or_position_never_by_name():
    row = ObjectRow._make(range(len(ObjectRow._fields)))
    for i, name in enumerate(ObjectRow._fields):
        assert getattr(row, name) == row[i] == i
    assert row[1:3] == (1, 2) and type(row[1:3]) is tuple
    assert tuple(row) == tuple(range(len(ObjectRow._fields)))
    for name in ("label", "id", "nope"):  # no name form: a caller reading a column by name fails at once
        with pytest.raises(TypeError):
            row[name]
    assert not hasattr(row, "keys")
    assert row.bmin == (row.min_x, row.min_y, row.min_z) and row.bmax == (row.max_x, row.max_y, row.max_z)
    assert row.center == (row.cx, row.cy, row.cz) and row.centroid == (row.mx, row.my, row.mz)
    assert row._replace(mx=None).centroid == row.center  # no running mean yet (a split-off object): the box centre


def _typed(row: ObjectRow) -> None:
    """Every field of ``row`` has its declared type (None only where the column may be NULL)."""
    hints = typing.get_type_hints(ObjectRow)
    assert list(hints) == list(ObjectRow._fields)
    for name in ObjectRow._fields:
        value = getattr(row, name)
        assert isinstance(value, hints[name]), (name, value, hints[name])
        assert not isinstance(value, bool), name


def test_rows_read_back_from_a_store_are_typed_and_hold_the_stored_values(store):
    feature = np.array([1.0, 0.0, 0.0, 0.0], np.float32)
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([span_obs("table", (0, 0, 0), (1.2, 0.8, 0.75), stamp=1),
               span_obs("mug", (0.5, 0.3, 0.75), (0.58, 0.38, 0.85), stamp=1, feature=feature)])
        m.commit()
        m.add([span_obs("mug", (0.5, 0.3, 0.75), (0.58, 0.38, 0.85), stamp=2, conf=0.8, feature=feature)])
        m.commit()
        ids = {o.label: o.id for o in m.objects()}
        table, mug = ids["table"], ids["mug"]
        m.update(table, label="desk")
        rows = ObjectRows(m._store)
        row = rows.row(mug)
        assert type(row) is ObjectRow
        _typed(row)
        info = m.get(mug)
        assert row.id == mug and row.label == "mug" and row.pinned_label is None and row.state == "present"
        assert (row.cx, row.cy, row.cz) == info.center and (row.mx, row.my, row.mz) == info.centroid
        assert (row.min_x, row.min_y, row.min_z) == info.bbox_min and (row.max_x, row.max_y, row.max_z) == info.bbox_max
        assert row.confidence == info.confidence and row.n_observations == 2 and row.n_moves == 0
        assert (row.first_seen, row.last_seen) == (1.0, 2.0) and row.region_id == 0
        assert row.placement_id == m.placements(mug)[0].id and row.misses == 0 and row.removal_due is None
        assert np.frombuffer(row.feature, np.float32) == pytest.approx(feature)
        assert row.ext_x == pytest.approx(0.08) and row.zt == pytest.approx(0.85) and row.zb == pytest.approx(0.75)
        with pytest.raises(TypeError):  # read by attribute only
            row["label"]
        desk = rows.row(table)
        _typed(desk)
        assert (desk.label, desk.pinned_label) == ("table", "desk") and desk.feature is None
        # every read of the object columns hands out ObjectRows, in the order it states
        everyone = [rows.rows([mug, table]), rows.all(), rows.in_states(("present",)),
                    m._store.objects_in_box((-1, -1, -1), (2, 2, 2), ("present",)),
                    m._reads.objects_labelled("mug", ("present",)), [m._reads.row_or_raise(mug)],
                    [rows.row_if_shown(mug)], [m._graph.object_row(mug)]]
        for found in everyone:
            assert found and all(type(r) is ObjectRow for r in found)
        assert [r.id for r in rows.all()] == sorted([table, mug])
        assert rows.rows([mug]) == [row] and rows.row(999) is None and rows.row_if_shown(999) is None
        here, current = RetentionRows(m._store).placement_object(row.placement_id)
        assert here == row and current is True
        assert RetentionRows(m._store).placement_object(999) is None


def test_fetching_builds_rows_from_the_values_in_column_order(store):
    with Memory.open(store("m"), embedding_dim=4, config=IMMEDIATE) as m:
        m.add([span_obs("mug", (0.5, 0.3, 0.75), (0.58, 0.38, 0.85), stamp=1)])
        m.commit()
        raw = m._conn.execute(f"SELECT {OBJECT_COLS} FROM objects ORDER BY id").fetchall()
        assert raw and type(raw[0]) is not ObjectRow  # the connection's own rows
        rows = fetch_objects(m._conn.execute(f"SELECT {OBJECT_COLS} FROM objects ORDER BY id"))
        assert rows == [ObjectRow._make(tuple(r)) for r in raw] and type(rows[0]) is ObjectRow
        assert fetch_object(m._conn.execute(f"SELECT {OBJECT_COLS} FROM objects WHERE id = -1")) is None
        # the connection keeps handing out its own rows (only the cursor that fetched objects changed)
        again = m._conn.execute(f"SELECT {OBJECT_COLS} FROM objects ORDER BY id").fetchone()
        assert type(again) is type(raw[0]) and again["label"] == "mug"
