"""The store's SQL, written for SQLite, as PostgreSQL statements.

Why translate rather than keep a second copy of every statement: the store's ~250 statements are plain SQL
except for a handful of constructs, and two hand-kept copies would drift (one backend answering differently
from the other is the failure this backend must not have). Each rule below names the one construct it
rewrites; anything SQLite-only that no rule covers is refused with UnsupportedSql, so a new statement that
would behave differently on PostgreSQL fails in the parametrised core suite, not in a robot.

Rules (in order):
- ``?`` -> ``$1, $2, ...``: PostgreSQL's native placeholders (psycopg's RawCursor sends them as they are),
  so a literal ``%`` needs no escaping and one parameter can be used twice (the spatial rule below).
- The spatial-index predicate ``r.max_x >= ? AND r.min_x <= ? AND ... r.min_z <= ?`` (the R*Tree's overlap
  test) gets ``r.box &&& ST_MakeLine(ST_MakePoint(lo), ST_MakePoint(hi))`` in front, which the n-D GiST
  index answers; the six exact comparisons stay (PostGIS index boxes are float4, rounded outwards).
- ``a CROSS JOIN b ON ...`` -> ``a JOIN b ON ...`` (SQLite's CROSS JOIN only fixes the join order).
- Scalar ``MAX(a, b)`` / ``MIN(a, b)`` -> ``GREATEST`` / ``LEAST`` (aggregates keep one argument).
- ``x IS ?`` -> ``x IS NOT DISTINCT FROM $n`` (SQLite's IS compares values, NULL-safe).
- ``FROM (SELECT ...)`` without an alias gets one (PostgreSQL 15 requires it).
- ``INDEXED BY name`` is dropped (a SQLite planner hint; PostgreSQL's planner picks the same indexes).
- ``DO UPDATE SET ...``: the existing row's columns (bare names, as SQLite writes them) are qualified with
  the table's name (a bare name is ambiguous here).
- ``LIMIT ?`` / ``OFFSET ?``: a negative value means "no limit" / "no offset" on SQLite, an error here.
- ``EXPLAIN QUERY PLAN`` -> ``EXPLAIN``.
- ``INSERT`` into a table with generated ids gets ``RETURNING id`` (cursor.lastrowid).
- ``PRAGMA data_version`` (changes when another connection commits) -> the store's write epoch, less the
  connection's own write commits (connection.py), so that, as on SQLite, its own commits do not change it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..errors import TempoMemError
from .schema import ID_TABLES, SCHEMA


def table_column_types() -> dict[str, dict[str, str]]:
    """{table: {column: its type}}, in the order of the schema's CREATE TABLE statements: the columns an upsert is
    qualified with (below) and the types batching.py casts a VALUES list to."""
    types = {}
    for stmt in SCHEMA:
        if stmt.startswith("CREATE TABLE"):
            body = stmt.split("(", 1)[1]
            types[stmt.split()[2]] = dict(re.findall(
                r"(?:^|,)\s*(\w+) (double precision|bigint|integer|text|bytea|geometry)\b", body))
    return types


_COLUMNS = {table: tuple(cols) for table, cols in table_column_types().items()}


def _qualify_upsert(text: str, table: str) -> str:
    """In ``DO UPDATE SET a = expr, ...`` qualify the bare column names of ``expr`` with the table."""
    m = _DO_UPDATE.search(text)
    if not m:
        return text
    head, tail = text[:m.end()], text[m.end():]
    names = _COLUMNS.get(table, ())
    if not names:
        return text
    pattern = re.compile(r"(?<![\w.$])(" + "|".join(names) + r")\b(?!\s*\()")
    out = []
    for part in re.split(r",(?![^()]*\))", tail):
        if "=" in part:
            lhs, rhs = part.split("=", 1)
            part = lhs + "=" + pattern.sub(lambda c: f"{table}.{c.group(1)}", rhs)
        out.append(part)
    return head + ",".join(out)


class UnsupportedSql(TempoMemError):
    """A statement uses a SQLite construct the PostgreSQL backend has no equivalent for."""


@dataclass(frozen=True)
class Statement:
    sql: str            # PostgreSQL text with $n placeholders
    kind: str           # select | write | other | begin | begin_write | commit | rollback | epoch
    n_params: int       # placeholders in the original statement
    returns_id: bool    # RETURNING id was appended (an INSERT into an id table)
    returns_rows: bool = True  # the statement produces a result set (SELECT, RETURNING, EXPLAIN, ...)


_WRITE_VERBS = ("INSERT", "UPDATE", "DELETE", "CREATE", "ALTER", "DROP")
_READ_VERBS = ("SELECT", "WITH", "EXPLAIN", "VALUES", "SHOW", "TABLE")
# Constructs with no translation here: a statement using one must not run on PostgreSQL unnoticed.
_REFUSED = (
    (re.compile(r"\bsqlite_master\b|\bsqlite_sequence\b", re.I), "SQLite's catalogue"),
    (re.compile(r"\bINSERT\s+OR\s+\w+", re.I), "INSERT OR ..."),
    (re.compile(r"\browid\b", re.I), "rowid"),
    (re.compile(r"\bvec_objects\b|\bMATCH\b", re.I), "the sqlite-vec index"),
    (re.compile(r"\bWITHOUT\s+ROWID\b|\bVIRTUAL\s+TABLE\b", re.I), "SQLite table options"),
    (re.compile(r"\bjson_\w+\(|\bGLOB\b|\bIFNULL\(|\bjulianday\(|\bstrftime\(|\btotal_changes\(", re.I),
     "a SQLite function"),
)
_SPATIAL = re.compile(
    r"(\w+)\.max_x >= \? AND \1\.min_x <= \? AND \1\.max_y >= \? AND \1\.min_y <= \? AND \1\.max_z >= \? "
    r"AND \1\.min_z <= \?")
_CROSS_JOIN = re.compile(r"\bCROSS JOIN\b", re.I)
_INDEXED_BY = re.compile(r"\s+INDEXED BY \w+", re.I)
_IS_PARAM = re.compile(r"\bIS (NOT )?\?", re.I)
_DO_UPDATE = re.compile(r"\bDO UPDATE SET\b", re.I)
_LIMIT = re.compile(r"\bLIMIT \?", re.I)
_OFFSET = re.compile(r"\bOFFSET \?", re.I)
_INSERT_INTO = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.I)
_SCALAR = re.compile(r"\b(MAX|MIN)\(", re.I)


def _split_quoted(sql: str) -> list[tuple[bool, str]]:
    """(is_quoted, text) pieces: rewriting applies outside '...' literals and "..." identifiers only."""
    out, i, start = [], 0, 0
    while i < len(sql):
        ch = sql[i]
        if ch in ("'", '"'):
            if start < i:
                out.append((False, sql[start:i]))
            j = i + 1
            while j < len(sql):
                if sql[j] == ch:
                    if j + 1 < len(sql) and sql[j + 1] == ch:  # doubled quote inside
                        j += 2
                        continue
                    break
                j += 1
            out.append((True, sql[i:j + 1]))
            i = start = j + 1
            continue
        i += 1
    if start < len(sql):
        out.append((False, sql[start:]))
    return out


def _scalar_min_max(text: str) -> str:
    """MAX(a, b) -> GREATEST(a, b) and MIN(a, b) -> LEAST(a, b) where the call has a top-level comma."""
    out, pos = [], 0
    for m in _SCALAR.finditer(text):
        if m.start() < pos:
            continue
        depth, j, comma = 1, m.end(), False
        while j < len(text) and depth:
            c = text[j]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif c == "," and depth == 1:
                comma = True
            j += 1
        if comma:
            out.append(text[pos:m.start()])
            out.append("GREATEST(" if m.group(1).upper() == "MAX" else "LEAST(")
            pos = m.end()
    out.append(text[pos:])
    return "".join(out)


#: (not IS [NOT] DISTINCT FROM (SELECT ...): a comparison with a scalar subquery, store/event_links.py relink)
_FROM_SUBQUERY = re.compile(r"(?<!DISTINCT )\bFROM\s*\(\s*SELECT\b", re.I)
_NOT_AN_ALIAS = {"", "WHERE", "ORDER", "GROUP", "LIMIT", "UNION", "JOIN", "CROSS", "LEFT", "INNER", "HAVING",
                 "OFFSET", "EXCEPT", "INTERSECT", "ON"}


def _subquery_alias(text: str) -> str:
    """``FROM (SELECT ...)`` with nothing naming it gets ``AS sub<n>``."""
    out, pos, n = [], 0, 0
    for m in _FROM_SUBQUERY.finditer(text):
        if m.start() < pos:
            continue
        open_at = text.index("(", m.start())
        depth, j = 0, open_at
        while j < len(text):
            if text[j] == "(":
                depth += 1
            elif text[j] == ")":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        rest = text[j + 1:].lstrip()
        word = re.match(r"[A-Za-z_]*", rest).group(0).upper()
        if word in _NOT_AN_ALIAS and not rest.startswith(("AS ", "as ")):
            n += 1
            out.append(text[pos:j + 1])
            out.append(f" AS sub{n}")
            pos = j + 1
    out.append(text[pos:])
    return "".join(out)


def _spatial(text: str) -> str:
    """Prefix each R*Tree overlap predicate with the GiST-indexed PostGIS test (placeholders still ``?``,
    renumbered later; the marker ``?{k}`` refers back to the k-th of the six)."""
    def repl(m: re.Match) -> str:
        a = m.group(1)
        # the six ? of the predicate are, in order: lo_x, hi_x, lo_y, hi_y, lo_z, hi_z
        return (f"{a}.box &&& ST_MakeLine(ST_MakePoint(?{{0}}, ?{{2}}, ?{{4}}), ST_MakePoint(?{{1}}, ?{{3}}, ?{{5}})) "
                f"AND {m.group(0)}")
    return _SPATIAL.sub(repl, text)


def _number(text: str, counter: list[int]) -> str:
    """Replace ``?`` by $n; ``?{k}`` markers (from _spatial) refer to the k-th ``?`` of the predicate that
    follows them, i.e. to parameter counter + 1 + k."""
    out, i = [], 0
    pending_refs: list[tuple[int, int]] = []  # (index in out, k)
    while i < len(text):
        ch = text[i]
        if ch == "?":
            if i + 1 < len(text) and text[i + 1] == "{":
                k = int(text[i + 2])
                pending_refs.append((len(out), k))
                out.append("")
                i += 4
                continue
            if pending_refs:
                base = counter[0]
                for idx, k in pending_refs:
                    out[idx] = f"${base + 1 + k}"
                pending_refs = []
            counter[0] += 1
            out.append(f"${counter[0]}")
            i += 1
            continue
        out.append(ch)
        i += 1
    if pending_refs:
        raise UnsupportedSql("spatial predicate without its parameters")
    return "".join(out)


#: Primary keys of the tables written with INSERT OR REPLACE (the conflict target of its upsert); default id.
PRIMARY_KEYS = {"fold_state": ("placement_id",), "coseen": ("a", "b"), "frame_depths": ("frame_id",),
                "label_mass": ("object_id", "label"), "meta": ("key",), "rejected": ("key",)}
_INSERT_OR = re.compile(r"^\s*INSERT\s+OR\s+(IGNORE|REPLACE)\s+INTO\s+(\w+)\s*\(([^)]*)\)", re.I)


def _insert_or(sql: str) -> str:
    """SQLite's INSERT OR IGNORE / OR REPLACE of a plain VALUES insert as PostgreSQL's ON CONFLICT: ignore is
    DO NOTHING; replace (the tables here have no unique constraint but their key) updates every other column."""
    m = _INSERT_OR.match(sql)
    if m is None or ";" in sql or " ON CONFLICT" in sql.upper():
        return sql
    verb, table, cols = m.group(1).upper(), m.group(2), [c.strip() for c in m.group(3).split(",")]
    body = "INSERT INTO " + sql[m.start(2):].rstrip()
    if verb == "IGNORE":
        return f"{body} ON CONFLICT DO NOTHING"
    key = PRIMARY_KEYS.get(table, ("id",))
    rest = [c for c in cols if c not in key]
    if not rest:
        return f"{body} ON CONFLICT DO NOTHING"
    sets = ", ".join(f"{c} = EXCLUDED.{c}" for c in rest)
    return f"{body} ON CONFLICT ({', '.join(key)}) DO UPDATE SET {sets}"


@functools.lru_cache(maxsize=4096)
def translate(sql: str, *, many: bool = False) -> Statement:
    sql = _insert_or(sql)
    head = sql.lstrip()
    word = head.split(None, 1)[0].upper() if head else ""
    if word == "BEGIN":
        return Statement("BEGIN", "begin_write" if "IMMEDIATE" in head.upper() else "begin", 0, False)
    if word in ("COMMIT", "END"):
        return Statement("COMMIT", "commit", 0, False)
    if word == "ROLLBACK":
        return Statement("ROLLBACK", "rollback", 0, False)
    if word == "EXPLAIN":
        sql = re.sub(r"^\s*EXPLAIN\s+QUERY\s+PLAN\b", "EXPLAIN", sql, flags=re.I)
    if word == "PRAGMA":
        if re.fullmatch(r"PRAGMA\s+data_version\s*;?", head.strip(), re.I):
            return Statement("SELECT value::bigint FROM meta WHERE key = 'write_epoch'", "epoch", 0, False)
        raise UnsupportedSql(f"no PostgreSQL equivalent of {head.strip()!r}")
    for pattern, what in _REFUSED:
        if any(pattern.search(text) for quoted, text in _split_quoted(sql) if not quoted):
            raise UnsupportedSql(f"statement uses {what}, which the PostgreSQL backend does not translate: "
                                 f"{' '.join(sql.split())[:200]}")
    # Quoted literals and identifiers are masked while the rules run: nothing inside them is rewritten.
    quoted: list[str] = []
    masked = []
    for is_quoted, text in _split_quoted(sql):
        if is_quoted:
            quoted.append(text)
            masked.append(f"\x00{len(quoted) - 1}\x00")
        else:
            masked.append(text)
    text = "".join(masked)
    text = _spatial(text)
    text = _CROSS_JOIN.sub("JOIN", text)
    text = _INDEXED_BY.sub("", text)
    text = _IS_PARAM.sub(lambda m: "IS DISTINCT FROM ?" if m.group(1) else "IS NOT DISTINCT FROM ?", text)
    text = _scalar_min_max(text)
    text = _subquery_alias(text)
    text = _LIMIT.sub("LIMIT NULLIF(GREATEST(?::bigint, -1), -1)", text)
    text = _OFFSET.sub("OFFSET GREATEST(?::bigint, 0)", text)
    m = _INSERT_INTO.match(text)
    if m and " ON CONFLICT" in text.upper():
        text = _qualify_upsert(text, m.group(1))
    counter = [0]
    text = _number(text, counter)
    out = re.sub("\x00(\\d+)\x00", lambda q: quoted[int(q.group(1))], text)
    returns_id = False
    if m and not many and m.group(1) in ID_TABLES and "RETURNING" not in out.upper():
        out = out.rstrip().rstrip(";") + " RETURNING id"
        returns_id = True
    kind = "write" if word in _WRITE_VERBS else "select" if word in _READ_VERBS else "other"
    rows = kind == "select" or (word in ("INSERT", "UPDATE", "DELETE") and " RETURNING " in f" {out.upper()} ")
    return Statement(out, kind, counter[0], returns_id, rows)
