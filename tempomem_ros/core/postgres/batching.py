"""Set-based writes: the row-at-a-time writes of a write transaction, held back and sent as one statement per
statement text (postgres/connection.py ``WriteBatches``).

Why: fusion writes each sighting's rows on its own (the object's fused state, its placement, the verdict, its label
mass, an audit row): 100 of the ~189 statements of a frame of 20 sightings at 10,000 objects in bench_fleet
(bench_round_trips: sent/frame). Pipelined, none of them waited for the server, but each cost psycopg's
per-statement work (a cursor, the parameters dumped, a Parse/Bind/Execute) and the server's per-statement work
(bind, plan, execute, a command-complete message): about half of a commit's time. Here the rows of one statement
text become one ``UPDATE t SET ... FROM (VALUES (...), (...)) AS v(...) WHERE t.id = v.pN`` or one multi-row
``INSERT INTO t (...) VALUES (...), (...) [ON CONFLICT ...]``.

Why the result is the rows' result, as if each had run in turn (the rules ``WriteBatches`` keeps):
- Only writes whose result nobody reads are held (no RETURNING; inside a write transaction, pipelined anyway), and
  only these two shapes: an UPDATE of one row by id whose SET reads no other row (no sub-select), and an INSERT of one
  VALUES row. Any other statement (every read, every other write, COMMIT) first sends everything held, in order.
- Held statements of different texts are reordered only when they write different tables (they commute: the
  trigger on placements reads the row it guards, and the one on observations (schema version 11) only adds to and takes
  from place_labels' counts, as the one write of place_labels that is held does (place_labels.ADD_THINNED): additions
  commute; no foreign key points at a table written this way while held, since
  the rows a held row names were inserted by a statement that returned their id, which sent everything first). A
  second text for a table already held sends everything first.
- Within one text the rows keep their order: VALUES rows are inserted in order, so the id counter
  (``tempomem_next_id``, schema.py) numbers them as one statement each did. A row that repeats a held row's key (the
  id an UPDATE names, the conflict target of an upsert) sends everything first: one UPDATE ... FROM updates a row
  once, and an upsert may not touch a row twice.
- Parameter types: a VALUES list has no target column, so each column of the list is cast: to the type of the
  column it is assigned to (``col = $i``: the cast a one-row UPDATE applies on assignment), else to the type psycopg
  sends for its values (int -> bigint, float -> double precision, str -> text, bytes -> bytea), else, where every
  value is NULL, to the type of the column it is compared with (``LEAST(col, $i)``); where none is known the rows are
  sent one by one as before. An INSERT's VALUES rows are cast to the target columns by the server, as a one-row
  INSERT's are.
"""

from __future__ import annotations

import functools
import numbers
import operator
import re
from dataclasses import dataclass

from .dialect import table_column_types

#: PostgreSQL's limit of parameters in one statement
MAX_PARAMS = 65535


#: {table: {column: type}} of the schema, geometry columns left out (psycopg's own type is sent for them)
_TYPES = {table: {c: t for c, t in cols.items() if t != "geometry"} for table, cols in table_column_types().items()}


@dataclass(frozen=True)
class Shape:
    """A batchable write: ``kind`` update | insert, its table, the number of its parameters, the parameter positions
    (0-based) that key a row (two held rows may not share a key), and the per-slot column type where known."""

    kind: str
    table: str
    n_params: int
    key: tuple[int, ...]
    slot_types: tuple[tuple[bool, str] | None, ...]
    head: str   # update: "UPDATE t SET <body with v.pN>"; insert: "INSERT INTO t (cols) VALUES "
    row: str    # insert: one VALUES row with {0}, {1}, ... for its parameters; update: unused
    tail: str   # update: the id column's parameter name; insert: the ON CONFLICT clause (or "")


_UPDATE = re.compile(r"^\s*UPDATE\s+(\w+)\s+SET\s+(.*?)\s+WHERE\s+id\s*=\s*\$(\d+)\s*$", re.S | re.I)
_INSERT = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)\s*\(([^()]*)\)\s*VALUES\s*\(([^()]*)\)\s*(.*?)\s*$", re.S | re.I)
_CONFLICT = re.compile(r"^ON\s+CONFLICT\s*(?:\(([^()]*)\))?\s*DO\s+(NOTHING|UPDATE\b.*)$", re.S | re.I)
_PARAM = re.compile(r"\$(\d+)\b")
_READS = re.compile(r"\b(SELECT|FROM|RETURNING|WITH)\b", re.I)


def _slot_columns(body: str, table: str, n: int) -> list[tuple[bool, str] | None]:
    """Per parameter: (True, type) of the column it is assigned to (``col = $i``), or (False, type) of the column it
    is compared with (``LEAST(col, $i)``), or None."""
    cols = _TYPES.get(table, {})
    out: list[tuple[bool, str] | None] = [None] * n
    for m in re.finditer(r"(?:LEAST|GREATEST)\(\s*(\w+)\s*,\s*\$(\d+)\s*\)", body, re.I):
        if m.group(1) in cols:
            out[int(m.group(2)) - 1] = (False, cols[m.group(1)])
    for m in re.finditer(r"(?<![<>!])\b(\w+)\s*=\s*\$(\d+)\b", body):
        if m.group(1) in cols:
            out[int(m.group(2)) - 1] = (True, cols[m.group(1)])
    return out


@functools.lru_cache(maxsize=1024)
def shape_of(sql: str, n_params: int) -> Shape | None:
    """The batchable shape of a translated write (postgres placeholders ``$n``), or None."""
    m = _UPDATE.match(sql)
    if m:
        table, body, key = m.group(1), m.group(2), int(m.group(3))
        if _READS.search(body) or key != n_params or table not in _TYPES:
            return None
        if max((int(p) for p in _PARAM.findall(body)), default=0) >= key:
            return None
        slots = _slot_columns(body, table, n_params)
        slots[key - 1] = (True, _TYPES[table]["id"]) if "id" in _TYPES[table] else None
        return Shape("update", table, n_params, (key - 1,), tuple(slots),
                     f"UPDATE {table} SET " + _PARAM.sub(lambda p: f"v.p{p.group(1)}", body), "", f"v.p{key}")
    m = _INSERT.match(sql)
    if m:
        table, cols, values, tail = m.group(1), m.group(2), m.group(3), m.group(4)
        if table not in _TYPES or _READS.search(values) or _READS.search(tail):
            return None
        entries = [e.strip() for e in values.split(",")]
        names = [c.strip() for c in cols.split(",")]
        numbered = [int(p) for p in _PARAM.findall(values)]
        if numbered != list(range(1, n_params + 1)) or len(entries) != len(names):
            return None
        key: tuple[int, ...] = ()
        if tail:
            c = _CONFLICT.match(tail)
            if c is None:
                return None
            if c.group(2).upper().startswith("UPDATE"):
                if not c.group(1):
                    return None
                positions = []
                for col in (x.strip() for x in c.group(1).split(",")):
                    entry = entries[names.index(col)] if col in names else ""
                    p = _PARAM.fullmatch(entry)
                    if p is None:
                        return None
                    positions.append(int(p.group(1)) - 1)
                key = tuple(positions)
        row = "(" + _PARAM.sub(lambda p: "{" + str(int(p.group(1)) - 1) + "}", values.replace("{", "{{")
                               .replace("}", "}}")) + ")"
        return Shape("insert", table, n_params, key, (None,) * n_params, f"INSERT INTO {table} ({cols}) VALUES ",
                     row, (" " + tail) if tail else "")
    return None


def _pg_type(values, column: tuple[bool, str] | None) -> str | None:
    """The cast of one VALUES column: the type of the column it is assigned to (as a one-row UPDATE's parameter is
    cast on assignment); else the type psycopg sends for its values; where every value is NULL, the type of the
    column it is compared with; else None (unknown).

    Each value's type decides its kind, so the kinds are found from the column's distinct types: NULL, float, int,
    str, bool and float's subclasses (numpy's float64) in one lookup each; a column with any other type is examined
    value by value (_pg_type_each). Why: the check per value was most of set_statement, which built every held
    write of a frame (a merge's UPDATE of 29 columns x 20 rows: 580 checks).
    Only the types decided before _pg_type_each's ABC checks are looked up here, so no ABC registration made later
    can change what they give (test_core_pg_value_types.py)."""
    if column is not None and column[0]:
        return column[1]
    kinds = set()
    for t in set(map(type, values)):
        kind = _DECIDED.get(t)
        if kind is None:
            if not issubclass(t, float):
                return _pg_type_each(values, column)
            kind = "double precision"
        if kind:
            kinds.add(kind)
    return _kinds_type(kinds, column)


#: the kind of a value of these exact types (NULL: none), as _pg_type_each's first tests give it
_DECIDED = {float: "double precision", int: "bigint", str: "text", bool: "bigint", type(None): ""}


def _kinds_type(kinds: set, column: tuple[bool, str] | None) -> str | None:
    if not kinds:
        return column[1] if column is not None else None
    if kinds == {"bigint", "double precision"}:
        return "double precision"
    return kinds.pop() if len(kinds) == 1 else None


def _pg_type_each(values, column: tuple[bool, str] | None) -> str | None:
    """_pg_type value by value (``values`` a sequence): the rule for any type."""
    kinds = set()
    for v in values:
        if v is None:
            continue
        t = type(v)  # the common exact types first: the isinstance chain (numbers' ABCs) was 8 % of the fuser's CPU
        if t is float:
            kinds.add("double precision")
        elif t is int:
            kinds.add("bigint")
        elif t is str:
            kinds.add("text")
        elif isinstance(v, float):  # numpy's float64 (a float): as numbers.Real below, without the ABC's check
            kinds.add("double precision")
        elif isinstance(v, bool) or isinstance(v, numbers.Integral):
            kinds.add("bigint")
        elif isinstance(v, numbers.Real):
            kinds.add("double precision")
        elif isinstance(v, str):
            kinds.add("text")
        elif isinstance(v, (bytes, bytearray, memoryview)):
            kinds.add("bytea")
        else:
            return None
    return _kinds_type(kinds, column)


def set_statement(shape: Shape, rows: list[tuple]) -> tuple[str, list] | None:
    """One statement writing every row (in order), with its flat parameters; None if a column's type is unknown."""
    n = shape.n_params
    flat = [p for r in rows for p in r]
    if shape.kind == "insert":
        return _insert_text(shape, len(rows)), flat
    casts = []
    columns = list(zip(*rows)) if n else []
    for i in range(n):
        t = _pg_type(columns[i], shape.slot_types[i])
        if t is None:
            return None
        casts.append(t)
    return _update_text(shape, tuple(casts), len(rows)), flat


# The text of a set-based write depends only on its shape, its casts and its number of rows: a fuser writes the
# same few (20 merges a frame, one statement each kind) every frame, and building the text anew was 4 % of its CPU.
@functools.lru_cache(maxsize=4096)
def _insert_text(shape: Shape, n_rows: int) -> str:
    n = shape.n_params
    parts = [shape.row.format(*(f"${r * n + i + 1}" for i in range(n))) for r in range(n_rows)]
    return shape.head + ", ".join(parts) + shape.tail


@functools.lru_cache(maxsize=4096)
def _update_text(shape: Shape, casts: tuple[str, ...], n_rows: int) -> str:
    n = shape.n_params
    parts = ["(" + ", ".join(f"${r * n + i + 1}::{casts[i]}" for i in range(n)) + ")" for r in range(n_rows)]
    names = ", ".join(f"p{i + 1}" for i in range(n))
    return (f"{shape.head} FROM (VALUES {', '.join(parts)}) AS v({names}) "
            f"WHERE {shape.table}.id = {shape.tail}")


def max_rows(shape: Shape) -> int:
    return max(1, MAX_PARAMS // max(1, shape.n_params))


@functools.lru_cache(maxsize=1024)
def write_plan(sql: str, n_params: int) -> tuple[Shape, int, object] | None:
    """(shape_of, max_rows of it, the function giving a row's key from its parameters, or None: no key) of a
    translated write, or None where it is not batchable. Why one lookup: the connection asks these of every held
    write (about 100 a frame in the fuser), and the shape's lookup, the row limit's arithmetic and a generator
    building each key were a third of its per-write work (bench_fuser_functions.py)."""
    shape = shape_of(sql, n_params)
    if shape is None:
        return None
    key = shape.key
    if not key:
        keyof = None
    elif len(key) == 1:
        k = key[0]

        def keyof(params, k=k):
            return (params[k],)
    else:
        keyof = operator.itemgetter(*key)  # a tuple of the parameters at those positions
    return shape, max_rows(shape), keyof


# ---------------------------------------------------------------------------------------------------- reads
#: aggregates whose result depends on the order rows reach them (a float sum in another order may differ in its last
#: bit): a statement with one is never read set-based
_ORDER_DEPENDENT = re.compile(r"\b(SUM|AVG|TOTAL|STRING_AGG|GROUP_CONCAT|ARRAY_AGG|JSON_AGG|JSONB_AGG)\s*\(", re.I)
_SETS = re.compile(r"\b(UNION|INTERSECT|EXCEPT)\b", re.I)
#: the two columns a set-based read adds after the statement's own: which run a row answers, its place in that run
READ_EXTRA = 2


def read_statement(sql: str, n_params: int, runs: list[tuple]) -> tuple[str, list] | None:
    """One statement answering every run of a read (postgres placeholders ``$n``), or None where that cannot be the
    runs' own answers. Its rows are each run's rows, in the statement's own order, runs in order, each followed by
    the run's index and the row's place in it (READ_EXTRA columns)::

        SELECT q.*, v.i FROM (VALUES ($1::bigint, 0), ($2::bigint, 1)) AS v(p1, i)
        CROSS JOIN LATERAL (SELECT q0.*, row_number() OVER () AS rn FROM (<the read, $1 -> v.p1>) AS q0) AS q
        ORDER BY v.i, q.rn

    Only a read with an ORDER BY (its rows' order is stated, not the plan's), no UNION / INTERSECT / EXCEPT and no
    aggregate whose value depends on the order of its rows: the rows of a run are then the rows that run alone gives.
    Why: fusion reads one object's candidates or label mass per sighting (40 of a frame's statements at 10,000
    objects, bench_round_trips), pipelined into one wait but each parsed, planned and answered on its own."""
    if not _readable_as_one(sql):
        return None
    if len(runs) * (n_params + 1) > MAX_PARAMS or not n_params:
        return None
    casts = []
    columns = list(zip(*runs))
    for i in range(n_params):
        t = _pg_type(columns[i], None)
        if t is None:
            return None
        casts.append(t)
    return _read_text(sql, n_params, tuple(casts), len(runs)), [p for r in runs for p in r]


# The text depends only on the read, its casts and its number of runs: the fuser sends the same few every frame
# (its candidates, their label mass), and building it anew was 136 us a call (bench_fuser_functions.py, load 11).
@functools.lru_cache(maxsize=1024)
def _readable_as_one(sql: str) -> bool:
    return "ORDER BY" in sql.upper() and not _SETS.search(sql) and not _ORDER_DEPENDENT.search(sql)


@functools.lru_cache(maxsize=4096)
def _read_text(sql: str, n_params: int, casts: tuple[str, ...], n_runs: int) -> str:
    inner = _PARAM.sub(lambda p: f"v.p{p.group(1)}", sql)
    parts, base = [], 0
    for k in range(n_runs):
        parts.append("(" + ", ".join(f"${base + i + 1}::{casts[i]}" for i in range(n_params)) + f", {k})")
        base += n_params
    names = ", ".join(f"p{i + 1}" for i in range(n_params))
    return (f"SELECT q.*, v.tempomem_run FROM (VALUES {', '.join(parts)}) AS v({names}, tempomem_run) "
            f"CROSS JOIN LATERAL (SELECT q0.*, row_number() OVER () AS tempomem_rn FROM ({inner}) AS q0) AS q "
            f"ORDER BY v.tempomem_run, q.tempomem_rn")
