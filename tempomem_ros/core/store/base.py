"""The store layer: the connection, its one transaction context manager, the audit queue, the spatial-index
queries and the writer's caches of stored state, owned in one place.

Why one owner: before it, eight hand-written begin/try/commit/rollback blocks in memory.py and maintenance.py
(and three more in transfer.py) each had to remember the same four steps (fold in another writer's commit,
write the queued audit rows, keep the vector index in step, drop the caches on rollback); one of them had no
rollback. The same box-overlap join on the R*Tree was written four times (fusion candidates, spatial queries,
consolidation, relations), and the caches of counts, boxes and label mass were cleared from three files.
Here a transaction is ``with store.transaction():``, or the same one opened with its first reads
(``store.fusing``, Memory.commit) or a robot's staging (``store.staging``), and nothing else; a cache is dropped
by one call.

Contract (both backends; PostgreSQL reaches this layer through postgres/connection.py, which speaks the same
DB-API and translates the SQL, postgres/dialect.py):
- ``transaction()`` holds the write lock (SQLite ``BEGIN IMMEDIATE``) from its first statement; it commits
  the queued audit rows with the work, or neither (any exception rolls back, is re-raised unchanged, and
  every writer cache is dropped: entries written in the rolled-back transaction are gone). A commit by
  another connection since this writer's last one voids the caches when the next transaction begins.
- Rows come back in a stated order (``ORDER BY id`` unless a method says otherwise): the memory is
  deterministic only if every read that feeds a decision is.
- Nothing above this layer needs to know which backend answers.

Nothing above it holds SQL: every service's statements are here (fusion_rows.py, settling_rows.py,
maintenance_rows.py, retention_rows.py, graph_writes.py and one module per table). Beside it lives the
PostgreSQL backend (postgres/: the connection and dialect this layer runs over, and its own schema). The
store-level modules are here too: the SQLite schema and migrations (schema.py), the sqlite-vec index
(vectors.py), recovering a damaged store file (recovery.py) and copying stores (transfer.py). The read side is
here: the shared read helpers (reads.py) and one module per table (objects, observations, placements, events,
relations, regions, audit), plus staging (the frames add() writes) and meta; memory.py, queries.py,
temporal.py, checks.py, lookfor.py, relations_store.py and scene_feed.py hold no SQL. The spatial queries and
the transactions came first because they were repeated.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from ..rows import OBJECT_COLS_O, SQL_ID_CHUNK
from .batch_reads import BatchReads
from .object_row import ObjectRow, fetch_objects, fetch_plain

# The R*Tree's overlap test: six comparisons the SQLite planner answers from the index (and the PostgreSQL
# dialect rewrites into a GiST `&&&` in front of them). Kept as one string: dialect.py recognises it.
_OVERLAP = ("r.max_x >= ? AND r.min_x <= ? AND r.max_y >= ? AND r.min_y <= ? AND r.max_z >= ? "
            "AND r.min_z <= ?")


@contextmanager
def atomic(conn, begin: str = "BEGIN IMMEDIATE") -> Iterator:
    """One transaction on a bare connection (creating the schema, migrating it, recovering a file): all of it
    or none. A failed COMMIT may already have rolled back ("database or disk is full"): a second ROLLBACK
    would raise "no transaction is active" and hide the real cause, so it is tried only while one is open."""
    conn.execute(begin)
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        rollback_quietly(conn)
        raise


def fetch_each(conn, sql: str, seq) -> list[list]:
    """``[conn.execute(sql, p).fetchall() for p in seq]``: on PostgreSQL in one round trip (the statements
    pipelined, postgres/connection.py fetch_many), on SQLite one call each (an in-process call costs
    microseconds: nothing to save). The same statement text per run, so each answer is the one a loop of
    execute() would have read."""
    many = getattr(conn, "fetch_many", None)
    if many is not None:
        return many(sql, seq)
    return [conn.execute(sql, p).fetchall() for p in seq]


def fetch_together(conn, reads) -> list[list]:
    """``[conn.execute(sql, p).fetchall() for sql, p in reads]``: on PostgreSQL in one round trip (connection.py
    fetch_together), on SQLite one call each. Each read is its own statement, so each answer is the one it gives
    alone."""
    together = getattr(conn, "fetch_together", None)
    if together is not None:
        return together(list(reads))
    return [conn.execute(sql, p).fetchall() for sql, p in reads]


def pipelines(conn) -> bool:
    """Whether ``conn`` sends fetch_each's statements in one round trip (PostgreSQL). Why a reader asks: one
    statement per object costs SQLite a call each (statement overhead: most of what an object added to "where is
    the book" on a month's store), while PostgreSQL's planner turns a set read of one row an object (a join on a
    correlated LIMIT 1) into a hash over the whole table (bench/long_run_pg.py on bench_long_run's stores: all 159
    placements read for 11 objects on day 1, all 745 on day 30, 0.35 ms against 0.14 for one indexed probe an
    object); so SQLite reads such rows in one set statement and PostgreSQL pipelines the one-object one."""
    return getattr(conn, "fetch_many", None) is not None


def _in_box_sql(states, with_entry: bool = False) -> str:
    """Object rows whose R*Tree entry overlaps a box (6 parameters) and whose state is one of ``states``;
    ``with_entry``: followed by the entry itself (min x, y, z, max x, y, z)."""
    marks = ",".join("?" for _ in states)
    entry = ", r.min_x, r.min_y, r.min_z, r.max_x, r.max_y, r.max_z" if with_entry else ""
    return (f"SELECT {OBJECT_COLS_O}{entry} FROM objects_rtree r CROSS JOIN objects o ON o.id = r.id "
            f"WHERE {_OVERLAP} AND o.state IN ({marks})")


#: boxes one set read of SQLite's spatial index answers (_sqlite_in_boxes: 6 parameters a box, plus the states):
#: SQL_ID_CHUNK // 6, as rows.id_chunks asks of an item of 6 parameters, so that a statement binds under 999, the
#: SQLITE_MAX_VARIABLE_NUMBER of builds before SQLite 3.32 (500 boxes bound 3,003 and failed a frame of over 166
#: sightings there: test_core_store_in_boxes.py); a frame's 20 sightings are still one statement
SQLITE_BOXES_PER_READ = SQL_ID_CHUNK // 6


def _sqlite_in_boxes(conn, args: list[tuple], states: tuple[str, ...], with_entry: bool) -> list[list[tuple]]:
    """The rows of _in_box_sql(states, with_entry) + " ORDER BY o.id" for each box of ``args`` (lo x, hi x, lo y,
    hi y, lo z, hi z), on SQLite in one statement per SQLITE_BOXES_PER_READ boxes: the boxes as a VALUES list joined
    to the R*Tree (which SQLite searches once per box, with the same six comparisons: EXPLAIN QUERY PLAN "SCAN r
    VIRTUAL TABLE INDEX 2:D1B0D3B2D5B4"), each row followed by its box's index, ordered by box, then id: each box's
    rows are its own statement's, in its order. Why: fusion reads the candidates of every sighting, one statement
    each (20 a frame at 38-43 us in bench_commit_profile; 20 boxes at once 0.33-0.47 ms against 0.70-0.79 ms,
    docs/RESULTS.md section 7, round 11). A single box keeps the single statement."""
    if len(args) < 2:
        sql = _in_box_sql(states, with_entry) + " ORDER BY o.id"
        return [fetch_plain(conn.execute(sql, (*a, *states))) for a in args]
    runs: list[list[tuple]] = []
    for start in range(0, len(args), SQLITE_BOXES_PER_READ):
        chunk = args[start:start + SQLITE_BOXES_PER_READ]
        out: list[list[tuple]] = [[] for _ in chunk]
        for row in fetch_plain(conn.execute(_in_boxes_sql(states, with_entry, len(chunk)),
                                            (*(x for a in chunk for x in a), *states))):
            out[row[-1]].append(row[:-1])
        runs += out
    return runs


@functools.lru_cache(maxsize=256)
def _in_boxes_sql(states: tuple[str, ...], with_entry: bool, n_boxes: int) -> str:
    marks = ",".join("?" for _ in states)
    entry = ", r.min_x, r.min_y, r.min_z, r.max_x, r.max_y, r.max_z" if with_entry else ""
    values = ", ".join(f"(?,?,?,?,?,?,{k})" for k in range(n_boxes))
    return (f"WITH v(lx, hx, ly, hy, lz, hz, k) AS (VALUES {values}) SELECT {OBJECT_COLS_O}{entry}, v.k FROM v "
            "CROSS JOIN objects_rtree r CROSS JOIN objects o ON o.id = r.id WHERE r.max_x >= v.lx AND r.min_x <= v.hx "
            "AND r.max_y >= v.ly AND r.min_y <= v.hy AND r.max_z >= v.lz AND r.min_z <= v.hz "
            f"AND o.state IN ({marks}) ORDER BY v.k, o.id")


#: json.dumps(x, sort_keys=True) is this encoder's encode(x) (json.dumps builds the same encoder anew for any
#: argument other than the defaults): the audit row's detail, written with every merge (20 a frame in the fuser)
_SORTED_JSON = json.JSONEncoder(sort_keys=True)
# encode() builds its C encoder anew at every call, with a fresh dict of the containers being encoded (a circular
# one raises ValueError); built once, without that dict, the same encoder writes the same text of any detail (none
# is circular: fusion writes them) at half the cost (6.5 against 13.4 us, load 20; round 11 of docs/RESULTS.md
# section 7, 20,000 random details compared in test_core_store_audit_json.py)
_SORTED_C = None if json.encoder.c_make_encoder is None else json.encoder.c_make_encoder(
    None, _SORTED_JSON.default, json.encoder.encode_basestring_ascii, None, ": ", ", ", True, False, True)


def sorted_json(detail: dict) -> str:
    """json.dumps(detail, sort_keys=True) of an audit row's detail (a dict without cycles)."""
    if _SORTED_C is None or type(detail) is not dict:
        return _SORTED_JSON.encode(detail)
    return "".join(_SORTED_C(detail, 0))


def json_ids(ids: list) -> str:
    """json.dumps(ids) of a list of ids: for exact ints the same text written directly (int's text is json's),
    any other list through json (a bool is json's true). Why: two lists an audit row, 20 rows a frame."""
    for i in ids:
        if type(i) is not int:
            return json.dumps(ids)
    return "[" + ", ".join(map(str, ids)) + "]"


def rollback_quietly(conn) -> None:
    """Roll back the open transaction, if any, never replacing the error being handled with one of its own."""
    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except Exception:  # noqa: BLE001 - either backend's error; the connection rolls back on close anyway
        pass


@dataclass
class WriterCaches:
    """What the writer keeps of stored state between transactions; each entry is valid only while no other
    connection commits and no transaction of this one rolls back (Store drops them all then).

    Why each exists (measured when it was added): the R*Tree entries (rewriting an unchanged box cost a third
    of a commit), the boxes relations were computed from (relations are recomputed only for objects that
    moved past them), label mass per object (every fusion score of a differently labelled neighbour needs
    it), the count of active objects (a COUNT over 100,000 rows after every commit cost more than the commit),
    the labels objects show (a superset; semantic queries ask for it every time), retention's co-seen pairs.
    """
    rtree_boxes: dict[int, tuple] = field(default_factory=dict)
    relation_boxes: dict[int, tuple] = field(default_factory=dict)
    label_mass: dict[int, dict] = field(default_factory=dict)
    n_active: int | None = None
    known_labels: set[str] | None = None
    coseen: set | None = None
    #: what the commit now fusing knows of the store across its frames (batch_reads.py); None outside one
    batch: BatchReads | None = None
    #: whether fusion's per-look label state (FrameFusion._label_looks, _label_excess) is what the store holds
    #: (FrameFusion.load_label_looks reads it again when not: another writer's commit, a rollback)
    label_looks: bool = False

    def clear(self) -> None:
        self.rtree_boxes.clear()
        self.relation_boxes.clear()
        self.label_mass.clear()
        self.n_active = None
        self.known_labels = None
        self.coseen = None
        self.batch = None
        self.label_looks = False


@runtime_checkable
class StoreInterface(Protocol):
    """What the memory asks of a store. A backend provides it with this contract:

    - ``transaction()``: a context manager; the body's writes and the audit rows queued in it commit together
      when it exits normally, and none of them when it raises (the exception passes through unchanged). The
      write lock is held from its first statement; at most one is open per store. Entering it after another
      connection committed clears ``caches``; leaving it by an exception clears them too.
    - ``snapshot()``: a context manager yielding a connection that reads one consistent state (inside an open
      transaction: that transaction's own state).
    - ``audit(...)``: queue one audit row (stamp, wall time from the store's clock, action, sorted unique object
      ids, observation ids in the order given, detail as sorted JSON, source) for the open transaction.
    - ``data_version()``: a value that changes whenever another connection commits a write.
    - ``objects_in_box(lo, hi, states, exclude_id=, above_id=)``: ObjectRows (every column of rows.OBJECT_COLS)
      whose index box overlaps [lo, hi] and whose state is one of ``states``, ordered by id.
    - ``tombstones_in_box(lo, hi, kind)``: active tombstone rows of ``kind`` overlapping [lo, hi], ordered by id.
    - ``caches`` (WriterCaches) and ``writes`` (transactions committed through this store).
    Ordering is part of the contract: the memory is deterministic only if every read that feeds a decision is.
    """

    caches: WriterCaches
    writes: int

    def transaction(self) -> AbstractContextManager: ...

    def fusing(self, reads=(), only_if: str | None = None) -> AbstractContextManager: ...

    def snapshot(self) -> AbstractContextManager: ...

    def audit(self, stamp, action: str, object_ids, observation_ids, detail: dict | None, source: str) -> None: ...

    def data_version(self): ...

    def objects_in_box(self, lo, hi, states: tuple[str, ...], *, exclude_id: int | None = None,
                       above_id: int | None = None) -> list[ObjectRow]: ...

    def objects_in_boxes(self, boxes, states: tuple[str, ...]) -> list[list[ObjectRow]]: ...

    @property
    def reads_in_batches(self) -> bool: ...

    def tombstones_in_box(self, lo, hi, kind: str = "forgotten") -> list: ...


class TableRows:
    """What every table module of this package is built on: one store, whose connection is read at each statement
    (Store.conn), so that a connection swapped in (a test's failing one, a closed store's None) is the one used."""

    def __init__(self, store: StoreInterface):
        self._store = store

    @property
    def _conn(self):
        return self._store.conn

    @property
    def _batch(self) -> BatchReads | None:
        """What the commit now fusing knows across its frames (batch_reads.py), or None: ask the store."""
        caches = getattr(self._store, "caches", None)
        return None if caches is None else caches.batch


class Store:
    """One connection to a tempomem store (a SQLite file, or a PostgreSQL database through its adapter):
    the StoreInterface both backends share today."""

    def __init__(self, conn, *, clock: Callable[[], float], before_commit: Callable[[], None] | None = None):
        self.conn = conn
        self.caches = WriterCaches()
        #: write transactions committed through this store (read caches key on it with data_version)
        self.writes = 0
        self._clock = clock
        self._before_commit = before_commit
        self._audit_rows: list[tuple] = []
        self._seen_version = self.data_version()

    # ------------------------------------------------------------------ transactions
    @contextmanager
    def transaction(self) -> Iterator["Store"]:
        """A write: ``with store.transaction(): ...`` (see the module's contract; ``fusing`` opens the same
        transaction with reads sent with the lock, ``staging`` a robot's frame)."""
        self.conn.execute("BEGIN IMMEDIATE")
        with self._begun():
            yield self

    @contextmanager
    def fusing(self, reads=(), only_if: str | None = None) -> Iterator[list | None]:
        """``transaction()`` opened with ``reads`` ((sql, params) pairs, run once the write lock is held): yields the
        rows of each, or None, and no transaction, when ``only_if`` (a read without parameters) returns no row.
        On PostgreSQL the lock, the check and the reads are one round trip (connection.py begin_write: the check in
        the lock's own statement, so that no lock is taken when nothing is staged); on SQLite the check runs before
        ``BEGIN IMMEDIATE`` and each read after it, as one execute() each did."""
        begin = getattr(self.conn, "begin_write", None)
        if begin is None:
            if only_if is not None and self.conn.execute(only_if).fetchone() is None:
                yield None
                return
            self.conn.execute("BEGIN IMMEDIATE")
            with self._begun():
                yield [self.conn.execute(sql, params).fetchall() for sql, params in reads]
            return
        rows = begin(tuple(reads), only_if)
        if rows is None:
            yield None
            return
        with self._begun():
            yield rows

    @contextmanager
    def _begun(self) -> Iterator[None]:
        """The body of a write transaction whose BEGIN was sent: fold in another writer's commit, commit with the
        queued audit rows, or roll back and drop every cache."""
        try:
            if self.data_version() != self._seen_version:
                self.caches.clear()  # another writer (robot, CLI) committed since this one last did
            yield
            if self._before_commit is not None:
                self._before_commit()
            self.writes += 1
            if self._audit_rows:
                self.conn.executemany(
                    "INSERT INTO audit (stamp, wall_time, action, object_ids, observation_ids, detail, source) "
                    "VALUES (?,?,?,?,?,?,?)", self._audit_rows)
                self._audit_rows = []
            # The version is noted before COMMIT, under the write lock: no other writer can commit until this one
            # has, and this connection's own commit does not change it. Read after COMMIT, a writer that took the
            # lock in that instant and committed would be taken for this one, and its changes never drop the
            # caches (test_fleet_writers.py: a count of objects stayed stale).
            version = self.data_version()
            self.conn.execute("COMMIT")
            self._seen_version = version
        except BaseException:
            self._audit_rows = []
            self.caches.clear()  # entries written in the rolled-back transaction are gone
            rollback_quietly(self.conn)
            raise

    @contextmanager
    def staging(self, reads: tuple[str, ...] = (), reserve: tuple[tuple[str, int], ...] = ()) -> Iterator[list]:
        """The transaction add() stages a frame in: on PostgreSQL under the staging lock, beside a fusion that
        holds the fusion lock (postgres/connection.py begin_staging says why that is safe); on SQLite (one file
        lock, one robot) it is ``transaction()``, as before. Its writes and its queued audit rows commit together
        or not at all. It reads no writer cache and leaves them, and the version they were checked against, as
        they are: a staged frame changes nothing they hold, and a version noted here, outside the fusion lock,
        could hide another writer's fusion from this writer's next transaction.

        Yields the rows of each of ``reads`` (statements without parameters), read once the lock is held: on
        PostgreSQL in the lock's round trip; then, for each (table, n) of ``reserve``, the first of n ids of that
        table taken for the caller's inserts (PostgreSQL, in the same round trip: connection.py begin_staging), or
        None (SQLite: the inserts take theirs, lastrowid)."""
        begin = getattr(self.conn, "begin_staging", None)
        if begin is None:
            with self.transaction():
                yield [self.conn.execute(sql).fetchall() for sql in reads] + [None for _ in reserve]
            return
        rows = begin(tuple(reads), tuple(reserve))
        try:
            yield rows[:len(reads)] + [int(r[0][0]) for r in rows[len(reads):]]
            if self._audit_rows:
                self.conn.executemany(
                    "INSERT INTO audit (stamp, wall_time, action, object_ids, observation_ids, detail, source) "
                    "VALUES (?,?,?,?,?,?,?)", self._audit_rows)
                self._audit_rows = []
            self.conn.execute("COMMIT")
        except BaseException:
            self._audit_rows = []
            rollback_quietly(self.conn)
            raise

    def audit(self, stamp, action: str, object_ids, observation_ids, detail: dict | None, source: str) -> None:
        """Queue an audit row; the rows are written with one executemany just before the transaction commits."""
        self._audit_rows.append(
            (stamp, self._clock(), action, json_ids(sorted(set(object_ids))), json_ids(list(observation_ids)),
             sorted_json(detail or {}), source))

    def data_version(self):
        """Changes whenever another connection commits a write (SQLite: PRAGMA data_version; PostgreSQL: the
        write epoch every write transaction increments, connection.py), read inside the write lock."""
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    @contextmanager
    def snapshot(self) -> Iterator:
        """The connection for one consistent read: a read transaction, or the writer's own open one (which
        reads its own state)."""
        if self.conn.in_transaction:
            yield self.conn
            return
        with atomic(self.conn, "BEGIN"):
            yield self.conn

    # ------------------------------------------------------------------ the spatial index
    def objects_in_box(self, lo, hi, states: tuple[str, ...], *, exclude_id: int | None = None,
                       above_id: int | None = None) -> list[ObjectRow]:
        """Object rows in ``states`` whose indexed box overlaps [lo, hi], by id; optionally without one id, or
        only ids above one (each pair once). The R*Tree holds padded boxes: callers test exactly what they
        need (distance, containment) on the rows."""
        sql = _in_box_sql(states)
        args: list = [lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], *states]
        if exclude_id is not None:
            sql += " AND o.id != ?"
            args.append(int(exclude_id))
        if above_id is not None:
            sql += " AND o.id > ?"
            args.append(int(above_id))
        return fetch_objects(self.conn.execute(sql + " ORDER BY o.id", args))

    @property
    def reads_in_batches(self) -> bool:
        """Whether a batch of reads costs one round trip here (PostgreSQL: fetch_each), so that reading a
        superset of what a loop will ask pays; on SQLite a read is an in-process call, and a superset read ahead costs
        more than it saves. SQLite still reads in one statement what a loop would read exactly, where one statement
        costs less than many (objects_in_boxes, GraphWrites.prefetch_label_mass and object_rows_ahead: docs/RESULTS.md
        section 7, round 11)."""
        return getattr(self.conn, "fetch_many", None) is not None

    def objects_in_boxes(self, boxes, states: tuple[str, ...], *,
                         entries: dict | None = None) -> list[list[ObjectRow]]:
        """``[objects_in_box(lo, hi, states) for lo, hi in boxes]``, on PostgreSQL in one round trip (fusion asks
        for the candidates of every sighting of a frame before it writes anything: fetch_each).

        ``entries``: also filled with each row's R*Tree entry, {id: ((min x, y, z), (max x, y, z))}, read by the
        same statement (the join has it): fusion asks update_rtree about every candidate it merges, and reading the
        entries after the candidates was a round trip of its own each frame on PostgreSQL, and on SQLite a
        statement per merge (20 a frame in bench_commit_profile, 14 us each: docs/RESULTS.md section 7, round 11).
        """
        with_entry = entries is not None
        args = [(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]) for lo, hi in boxes]
        if self.reads_in_batches or pipelines(self.conn):  # PostgreSQL (one read at a time where batches are off)
            sql = _in_box_sql(states, with_entry) + " ORDER BY o.id"
            runs = fetch_each(self.conn, sql, [(*a, *states) for a in args]) if self.reads_in_batches else \
                [fetch_plain(self.conn.execute(sql, (*a, *states))) for a in args]
        else:
            runs = _sqlite_in_boxes(self.conn, args, tuple(states), with_entry)
        if not with_entry:
            return [list(map(ObjectRow._make, rows)) for rows in runs]
        # the PostgreSQL connection's rows are tuples readable by name too, whose indexing is a Python call: sliced
        # as tuples, the same values (any other row, as a test forcing reads_in_batches on SQLite gets, made one)
        n = len(ObjectRow._fields)
        get, head, lo, hi = tuple.__getitem__, slice(0, n), slice(n, n + 3), slice(n + 3, n + 6)
        out = []
        for rows in runs:
            rows = [r if isinstance(r, tuple) else tuple(r) for r in rows]
            out.append([ObjectRow._make(get(r, head)) for r in rows])
            for r in rows:
                entries[int(get(r, 0))] = (get(r, lo), get(r, hi))
        return out

    def tombstones_in_box(self, lo, hi, kind: str = "forgotten") -> list:
        """Active tombstones of ``kind`` whose box overlaps [lo, hi], by id."""
        return self.conn.execute(
            f"SELECT t.* FROM tombstones_rtree r CROSS JOIN tombstones t ON t.id = r.id WHERE {_OVERLAP} "
            "AND t.active = 1 AND t.kind = ? ORDER BY t.id",
            (lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], kind)).fetchall()


# ------------------------------------------------------------------ inspection (sqlite-utils)
@dataclass(frozen=True)
class TableInfo:
    name: str
    rows: int | None        # None: the table needs an extension this process cannot load (the vector index)
    columns: tuple[str, ...]
    kind: str               # "table", or the virtual table's module ("RTREE", "VEC0")


def describe_tables(conn) -> list[TableInfo]:
    """Every table of a SQLite store with its row count and columns, in the schema's order (``tempomem tables``).

    Why sqlite-utils here and not in the write path: it reads a schema well (virtual tables included), while
    bench/bench_store_writes.py measures its inserts slower than the hand-written executemany of Memory.add
    on the same frames (the figure is printed there and in docs/RESULTS.md), and it cannot express the R*Tree,
    partial indexes and triggers of schema.py."""
    import sqlite_utils

    out = []
    for table in sqlite_utils.Database(conn).tables:
        if table.name.startswith("sqlite_"):
            continue
        try:
            rows: int | None = table.count
            columns = tuple(c.name for c in table.columns)
        except Exception:  # noqa: BLE001 - e.g. "no such module: vec0" without the sqlite-vec extension
            rows, columns = None, ()
        out.append(TableInfo(table.name, rows, columns, (table.virtual_table_using or "table").upper()
                             if table.virtual_table_using else "table"))
    return out
