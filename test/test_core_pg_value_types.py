"""The cast of a set-based statement's VALUES column (postgres/batching._pg_type) from the column's distinct types.

Why: _pg_type looks the common types up once per distinct type instead of testing every value; it must give what
the test of every value gave (the reference below, the rule as it was), for every mix of types, and no ABC
registration made after a type was first seen may leave it answering the old way.
"""

from __future__ import annotations

import numbers
import random
from decimal import Decimal
from fractions import Fraction

import numpy as np

from tempomem_ros.core.postgres import batching


def _reference(values, column):
    """_pg_type as it was: every value tested in turn."""
    if column is not None and column[0]:
        return column[1]
    kinds = set()
    for v in values:
        if v is None:
            continue
        if isinstance(v, bool) or isinstance(v, numbers.Integral):
            kinds.add("bigint")
        elif isinstance(v, numbers.Real):
            kinds.add("double precision")
        elif isinstance(v, str):
            kinds.add("text")
        elif isinstance(v, (bytes, bytearray, memoryview)):
            kinds.add("bytea")
        else:
            return None
    if not kinds:
        return column[1] if column is not None else None
    if kinds == {"bigint", "double precision"}:
        return "double precision"
    return kinds.pop() if len(kinds) == 1 else None


class _Metres(float):
    pass


class _Label(str):
    pass


_VALUES = (None, 0.5, -0.0, 3, 0, True, False, "mug", "", np.float64(0.25), np.float32(1.5), np.int64(7),
           np.int32(-2), b"\x00\x01", bytearray(b"ab"), memoryview(b"xy"), Decimal("1.5"), Fraction(1, 3),
           _Metres(2.0), _Label("cup"), object())
_COLUMNS = (None, (False, "bigint"), (False, "double precision"), (True, "text"))


def test_distinct_types_give_what_every_value_gave():
    rng = random.Random(16)
    for _ in range(20000):
        values = [rng.choice(_VALUES) for _ in range(rng.randrange(0, 6))]
        column = rng.choice(_COLUMNS)
        assert batching._pg_type(values, column) == _reference(values, column), (values, column)


def test_a_type_registered_later_is_seen_as_registered():
    class Count:
        pass

    values = [1, Count()]
    assert batching._pg_type(values, None) is None and _reference(values, None) is None
    numbers.Integral.register(Count)
    assert batching._pg_type(values, None) == _reference(values, None) == "bigint"


def test_set_statement_casts_each_column_from_its_rows():
    shape = batching.shape_of("UPDATE placements SET t_from=LEAST(t_from, $1), t_last=$2 WHERE id=$3", 3)
    sql, flat = batching.set_statement(shape, [(1.5, 2.0, np.int64(4)), (None, np.float64(3.0), 5)])
    assert flat == [1.5, 2.0, 4, None, 3.0, 5]
    assert "($1::double precision, $2::double precision, $3::bigint), ($4::double precision, $5::double precision, " \
           "$6::bigint)" in sql
