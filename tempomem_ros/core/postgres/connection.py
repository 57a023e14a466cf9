"""A PostgreSQL connection that the store drives exactly like its SQLite connection, and the rule that makes
several writers one truth.

Several writers (docs/FLEET.md, "Several writers"): every write transaction that changes the graph (a commit that
fuses, forget, define_region, maintenance) begins by taking one transaction-level advisory lock of the
memory, the fusion lock (``pg_advisory_xact_lock``, keyed by the schema it lives in), held until it commits or
rolls back. Staging a frame (add()) takes a lock of its own instead (``begin_staging``: docs/FLEET.md, "Staging
beside fusion"), so that a robot's frame is written, durably, while another writer fuses.
That is SQLite's ``BEGIN IMMEDIATE`` (one writer at a time, readers never blocked) made to work across
processes and machines:

- Fusion is serialised, so two robots' sightings of one mug in the same second are judged by the same
  arbiter one after the other, against each other's result: one object, never a cross-robot duplicate, and
  no update is lost because no two fusions interleave (READ COMMITTED under the lock sees every earlier
  commit). A commit fuses every pending frame of every robot, in stamp order, so the order of evidence is
  the world's order whichever robot's timer fires first.
- Ids (transactional counters, schema.py) and audit rows are written in commit order, which the scene feed
  and the change-event publishers rely on ("rows after the last one I read").
- Why not one lock per spatial cell: fusion reads objects around each sighting, relations reach across
  cells, and absence evidence walks a whole view frustum; cell locks would have to be taken in an order that
  is only known mid-fusion. Why not SERIALIZABLE with retry: four robots committing 10 times a second all
  touch the frame queue and the objects in view, so retries would be the common case. Measured throughput
  of the single lock: bench/bench_fleet.py (docs/RESULTS.md).

Each write transaction also increments the ``write_epoch`` row of the meta table; ``PRAGMA data_version``
(SQLite: "another connection committed") reads it less this connection's own write commits, so that, as on
SQLite, only other connections' commits change it; a writer that finds it moved since its own last commit
drops its caches (Store.transaction notes it inside the transaction, under the lock).

Reads outside a transaction run in autocommit (each statement sees the latest commit, as on SQLite); an
explicit read transaction (``BEGIN``) is REPEATABLE READ, one snapshot for all its statements, as a SQLite
read transaction is. A read-only store (``readonly=True``) sets ``default_transaction_read_only``, so the
server refuses writes whatever the code does, and borrows connections from a shared pool.

Traffic (``traffic``): every statement, every one sent pipelined, and every round trip (a statement whose
result is waited for, a transaction's BEGIN / lock / COMMIT, the sync that ends a pipeline) is counted, per
statement text too (``waited_by_sql``), for bench/bench_fleet.py. Why: a commit's cost on PostgreSQL is its
round trips (each waits for the server: ~0.1-0.3 ms on a unix socket, far more across a network), and a count
is the one figure of a change that the load of a shared machine cannot blur.

Errors become StoreError subclasses here (errors_pg.py), so nothing above sees a psycopg exception.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from ..errors import StoreClosedError
from .batching import READ_EXTRA, max_rows, read_statement, set_statement, shape_of, write_plan
from .dialect import Statement, translate
from .errors_pg import pg_store_error
from .schema import ID_TABLES

#: Result column types (pg_type oids) whose binary value psycopg loads to the Python value their text gives: bool
#: 16, bytea 17, int8 20, int2 21, int4 23, text 25, float8 701, varchar 1043 (float8's text is the shortest decimal
#: that reads back to the same double, PostgreSQL 12 on with extra_float_digits 1, its default). Not float4 (its text
#: is the float32's shortest decimal, 0.3, its binary the float32 itself, 0.30000001192092896), not numeric (its text
#: keeps the scale printed), nor any type without a binary loader here (PostGIS geometry): those stay text. float8 only
#: where the session's float8 text is exact (_float_text_exact). A NaN's sign: its text has none (NaN), its binary
#: keeps the stored bit (0 * Infinity on x86 is a negative NaN); every comparison reads them alike.
BINARY_SAME_TYPES = frozenset({16, 17, 20, 21, 23, 25, 701, 1043})
#: How many statement texts PgConnection._fetch_read remembers a decision for; past it, it forgets them all (each
#: learns again from one text run). Why a bound: texts differ with the length of their IN lists and set-based reads
#: (labels_together alone makes up to 500 x 500 texts of a few kB each), and a node runs for weeks.
BINARY_READS_MAX = 4096

#: The advisory lock every write transaction takes: (this key, hash of the schema), so that memories kept in
#: separate schemas of one database do not wait for each other ("tmem" in ASCII).
WRITE_LOCK_KEY = 0x746D656D
#: The advisory lock a staging transaction takes instead (``begin_staging``: a robot's add() writes its frame under
#: it, beside a fusion that holds WRITE_LOCK_KEY; "tmst" in ASCII). Stagers are serialised among themselves (the
#: quarantine of stamp jumps reads and releases earlier quarantined frames), never behind fusion.
STAGE_LOCK_KEY = 0x746D7374
LOCK_TIMEOUT_MS = 5000
#: What opens a write transaction, after BEGIN (``_begin_write`` sends them as one simple query, ``begin_write`` in
#: its pipeline): the lock wait bounded as SQLite's busy_timeout, the fusion lock, then (``counts_writes``) the write
#: epoch read once the lock is held. The first bounds a staging's lock wait too (``begin_staging``).
SET_LOCK_TIMEOUT = f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT_MS}ms'"
TAKE_WRITE_LOCK = f"SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY}, hashtext(current_schema()))"
READ_WRITE_EPOCH = "SELECT value::bigint FROM meta WHERE key = 'write_epoch'"
#: What a staging sends after its COMMIT, in the same round trip (``_commit``): a transaction of its own, committed
#: synchronously, that writes one WAL record (a logical-decoding message of this prefix, callable by any role at any
#: wal_level; nothing decodes it). Why: the staging commits with synchronous_commit off (``begin_staging``), which
#: releases its locks once its commit record is in the WAL, before the disk has it; this transaction's commit record
#: comes after that one, and its synchronous COMMIT returns only once the WAL is flushed past it, so the staging is on
#: disk (and on a synchronous standby) before add() returns: the same durability, with the flush out of the stagers'
#: serial section (docs/FLEET.md, "Staging beside fusion").
STAGE_FLUSH = "SELECT pg_logical_emit_message(true, 'tempomem', 'staged')"


@dataclass
class Traffic:
    """What one connection has sent since it opened (or since ``reset()``): ``statements`` the store ran
    (pipelined ones included), ``pipelined`` writes sent without waiting, ``round_trips`` waits for the
    server, and the waits per statement text (the first words of the store's SQL, as written above the
    dialect)."""

    statements: int = 0
    pipelined: int = 0
    round_trips: int = 0
    waited_by_sql: Counter = field(default_factory=Counter)
    #: seconds from sending each waited statement to having its result, per statement text (the sync that ends
    #: a pipeline carries the server's time for every write sent in it)
    waited_s_by_sql: Counter = field(default_factory=Counter)
    #: every statement the store ran, per statement text (pipelined and batched ones too): which ones a frame
    #: repeats, the candidates for one set-based statement (bench_round_trips --sent)
    sent_by_sql: Counter = field(default_factory=Counter)
    #: statements sent to the server: a set-based write (batching.py) is one, however many rows it writes
    server_statements: int = 0

    def snapshot(self) -> dict:
        return {"statements": self.statements, "pipelined": self.pipelined, "round_trips": self.round_trips,
                "server_statements": self.server_statements}

    def reset(self) -> None:
        self.statements = self.pipelined = self.round_trips = self.server_statements = 0
        self.waited_by_sql.clear()
        self.waited_s_by_sql.clear()
        self.sent_by_sql.clear()


def _row_classes():
    cache: dict[tuple, type] = {}

    def row_class(fnames: tuple) -> type:
        cls = cache.get(fnames)
        if cls is None:
            index = {n.decode(): i for i, n in enumerate(fnames)}

            class Row(tuple):
                """A fetched row readable by position and by column name, like sqlite3.Row."""

                __slots__ = ()
                _index = index

                def __getitem__(self, key):
                    if isinstance(key, str):
                        return tuple.__getitem__(self, self._index[key])
                    return tuple.__getitem__(self, key)

                def keys(self):
                    return list(self._index)

            cls = cache[fnames] = Row
        return cls

    return row_class


_row_class = _row_classes()


def row_factory(cursor):
    """The row class of the cursor's result: keyed by the result's column names as the server sent them (bytes).
    Why not ``cursor.description``: it builds a Column object per column of every result (about 40 for an object
    row), which cost 14 ms of a 134 ms commit with two writers at 10,000 objects (bench_round_trips --profile)."""
    res = cursor.pgresult
    if res is None or res.nfields == 0:
        return tuple  # no columns (a write): nothing is read by name
    fname = res.fname
    return _row_class(tuple(fname(i) for i in range(res.nfields)))


class PgCursor:
    """The result of one execute(): fetchone / fetchall / iteration, lastrowid, rowcount."""

    __slots__ = ("_rows", "_pos", "lastrowid", "rowcount")

    def __init__(self, rows: list, lastrowid, rowcount: int):
        self._rows = rows
        self._pos = 0
        self.lastrowid = lastrowid
        self.rowcount = rowcount

    def fetchone(self):
        if self._pos >= len(self._rows):
            return None
        row = self._rows[self._pos]
        self._pos += 1
        return row

    def fetchall(self) -> list:
        rows = self._rows[self._pos:]
        self._pos = len(self._rows)
        return rows

    def __iter__(self):
        while self._pos < len(self._rows):
            row = self._rows[self._pos]
            self._pos += 1
            yield row


def _float_text_exact(conn) -> bool:
    """Whether this session's float8 text reads back to the double it was (so that a float8 column's binary value is
    the one its text gives): PostgreSQL 12 on with extra_float_digits above 0 (the default, 1) prints the shortest
    exact decimal; before 12, extra_float_digits 2 or more prints 17 digits. Why ask: extra_float_digits may be set
    for a role, a database, or in the address's options (0: 15 digits, 0.1 + 0.2 read as 0.3); a statement's first
    run, text, would then read another value than its later runs in binary. One round trip when the connection opens
    (not counted in ``traffic``)."""
    row = conn.execute("SHOW extra_float_digits").fetchone()
    digits = int(row[0])
    return digits >= (1 if conn.info.server_version >= 120000 else 2)


def configure(conn) -> None:
    """Adapters every tempomem connection uses: Python bools are stored as 0/1 (the integer flag columns
    SQLite has), rows come back readable by name."""
    from psycopg.types.numeric import IntDumper

    conn.adapters.register_dumper(bool, IntDumper)
    conn.row_factory = row_factory


class PgConnection:
    """What Memory calls ``self._conn`` when the store is a PostgreSQL database.

    ``source`` opens a psycopg connection (a callable, so that a lost connection can be replaced before the
    next transaction). The object is used under Memory's lock: one thread at a time.
    """

    #: whether pipelined writes are held and sent set-based (batching.py); off: each row is its own statement, as
    #: before (test_core_store_set_writes compares the two)
    set_based = True

    def __init__(self, connect, *, readonly: bool, address: str):
        self._connect = connect
        self.readonly = readonly
        self.address = address  # for messages: never holds a password (address.display)
        self._conn = None
        self._cursor = None
        self._pipeline = None
        self._write_tx = False
        #: the open write transaction is a staging one (begin_staging): it holds the staging lock, not the fusion
        #: lock, and does not move meta.write_epoch
        self._staging_tx = False
        #: writes held back to be sent set-based (batching.py): statement text -> [shape, rows, keys], in the order
        #: each text was first held; and the table each text writes
        self._held: dict[str, list] = {}
        self._held_tables: dict[str, str] = {}
        #: meta.write_epoch as read when this write transaction took the lock (None outside one, or before the schema)
        self._tx_epoch = None
        #: whether write transactions increment meta.write_epoch (set once the schema exists: store.initialise)
        self.counts_writes = False
        #: the increments of meta.write_epoch this connection committed (PRAGMA data_version subtracts them)
        self.own_epochs = 0
        self.row_factory = None  # assigned by Memory (sqlite3.Row); rows here are always readable by name
        #: plain SELECT text -> whether its rows are fetched in binary (_fetch_read); absent: not run yet
        self._binary_reads: dict[str, bool] = {}
        #: the result types fetched in binary on this session: BINARY_SAME_TYPES, less float8 where the server's
        #: float8 text is not exact (_reconnect)
        self._binary_types = BINARY_SAME_TYPES
        self.traffic = Traffic()
        self._reconnect()

    # ------------------------------------------------------------------ connection
    def _reconnect(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:  # noqa: BLE001 - a broken connection may fail to close; it is replaced anyway
                pass
        self._conn = self._connect()
        configure(self._conn)
        self._cursor = self._conn.cursor()  # one cursor reused by every statement (saves ~10 us each)
        self._binary_types = BINARY_SAME_TYPES if _float_text_exact(self._conn) else BINARY_SAME_TYPES - {701}

    def _usable(self):
        if self._conn is None:
            raise StoreClosedError("memory is closed")
        if self._conn.closed or self._conn.broken:
            if self.in_transaction:
                raise StoreClosedError("the connection was lost inside a transaction")
            self._reconnect()
        return self._conn

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        conn = self._conn
        if conn is None or conn.closed:
            return False
        return conn.info.transaction_status != TransactionStatus.IDLE

    @property
    def server_version(self) -> int:
        return int(self._usable().info.server_version)

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            finally:
                self._conn = None

    # ------------------------------------------------------------------ statements
    def _waited(self, sql: str, since: float) -> None:
        self.traffic.round_trips += 1
        self.traffic.waited_by_sql[sql] += 1
        self.traffic.waited_s_by_sql[sql] += time.perf_counter() - since

    def execute(self, sql: str, params=()):
        stmt = translate(sql)
        self.traffic.statements += 1
        self.traffic.sent_by_sql[sql] += 1
        try:
            return self._execute(stmt, tuple(params), sql)
        except Exception as exc:
            raise self._error(exc, sql) from exc

    def executemany(self, sql: str, seq):
        stmt = translate(sql, many=True)
        rows = [tuple(p) for p in seq]
        try:
            conn = self._usable()
            own = self._autocommit_write(stmt)
            try:
                self.traffic.statements += len(rows)
                self.traffic.sent_by_sql[sql] += len(rows)
                if rows and self._pipeline is not None:  # already pipelined: no round trip per row
                    for p in rows:
                        self._send_write(stmt, p)
                elif rows:
                    self.traffic.server_statements += len(rows)
                    since = time.perf_counter()
                    with conn.cursor() as cur:
                        cur.executemany(stmt.sql, rows)  # psycopg pipelines the rows: one wait
                    self._waited(sql, since)
                if own:
                    self._commit()
            except BaseException:
                if own:
                    self._rollback()
                raise
            return PgCursor([], None, len(rows))
        except Exception as exc:
            raise self._error(exc, sql) from exc

    def fetch_many(self, sql: str, seq) -> list[list]:
        """One read statement run once per parameter tuple of ``seq``: the rows of each run, in ``seq``'s
        order, as ``[execute(sql, p).fetchall() for p in seq]`` gives them, in one round trip (every
        statement is sent in one pipeline, then one sync waits for them all).

        Why: fusion reads one row (or one sum) per object or per label pair in a loop; on a unix socket each
        read is a wait of ~0.15 ms plus the server's wake-up, and a commit made hundreds of them (bench_fleet:
        313 round trips a commit, 190 of them label-pair sums). Each statement is the same text as before, so
        its answer is the same to the last bit."""
        stmt = translate(sql)
        rows = [tuple(p) for p in seq]
        self.traffic.statements += len(rows)
        self.traffic.sent_by_sql[sql] += len(rows)
        if not rows:
            return []
        if stmt.kind not in ("select",) or not stmt.returns_rows:
            raise ValueError("fetch_many runs reads only")
        try:
            conn = self._usable()
            self._send_held()
            one = read_statement(stmt.sql, stmt.n_params, rows) if self.set_based and len(rows) > 1 else None
            if one is not None:
                return self._read_runs(one, len(rows), sql)
            self.traffic.server_statements += len(rows)
            cursors = []
            since = time.perf_counter()
            with conn.pipeline():  # nested in a write transaction's pipeline too: leaving it syncs once
                for p in rows:
                    cur = conn.cursor()
                    cur.execute(stmt.sql, p if stmt.n_params else None)
                    cursors.append(cur)
            self._waited(sql, since)
            return self._fetch_closing(cursors)
        except Exception as exc:
            raise self._error(exc, sql) from exc

    def fetch_together(self, reads) -> list[list]:
        """Reads of different texts ((sql, params) pairs): the rows of each, in order, as one execute() each gives
        them, in one round trip (sent in one pipeline, one sync). Why: a commit asked the removals due, the held
        events and the frame's label pairs one round trip each, though none depends on another
        (FusionRows.read_batch_ahead)."""
        stmts = self._read_statements(reads, "fetch_together runs reads only")
        if not stmts:
            return []
        try:
            conn = self._usable()
            self._send_held()
            self.traffic.server_statements += len(stmts)
            since = time.perf_counter()
            with conn.pipeline():  # nested in a write transaction's pipeline too: leaving it syncs once
                cursors = self._pipelined_reads(conn, reads, stmts)
            self._waited(" + ".join(sql for sql, _ in reads), since)
            return self._fetch_closing(cursors)
        except Exception as exc:
            raise self._error(exc, reads[0][0]) from exc

    @staticmethod
    def _fetch_closing(cursors) -> list[list]:
        """The rows of each of ``cursors`` (their pipeline synced), in order, each cursor closed once read: the
        answer of fetch_many and fetch_together."""
        out = []
        for cur in cursors:
            out.append(cur.fetchall())
            cur.close()
        return out

    def _read_statements(self, reads, refusal: str) -> list[Statement]:
        """``reads`` ((sql, params) pairs) translated, each counted as sent; ``refusal`` (a ValueError) if one is not
        a read that returns rows. Checked before anything is sent (fetch_together, begin_write)."""
        stmts = [translate(sql) for sql, _ in reads]
        for (sql, _), stmt in zip(reads, stmts):
            if stmt.kind != "select" or not stmt.returns_rows:
                raise ValueError(refusal)
            self.traffic.statements += 1
            self.traffic.sent_by_sql[sql] += 1
        return stmts

    @staticmethod
    def _pipelined_reads(conn, reads, stmts: list[Statement]) -> list:
        """Send ``reads`` (as _read_statements translated them) into ``conn``'s open pipeline, one cursor each, in
        order: their rows are in once the caller's pipeline syncs."""
        cursors = []
        for (_, params), stmt in zip(reads, stmts):
            cur = conn.cursor()
            cur.execute(stmt.sql, tuple(params) if stmt.n_params else None)
            cursors.append(cur)
        return cursors

    def insert_many(self, sql: str, seq) -> list[int]:
        """One INSERT into a table with generated ids run once per parameter tuple of ``seq``, inside the open
        write transaction: the new ids in ``seq``'s order, in one round trip (the inserts pipelined, then one
        sync reads every RETURNING id). The ids are what one execute() each would have given: the rows are
        inserted in the same order by the same connection. Why: staging a frame of 20 sightings waited for each
        id (20 of a stage's round trips, bench_fleet), while holding the write lock."""
        stmt = translate(sql)
        rows = [tuple(p) for p in seq]
        self.traffic.statements += len(rows)
        self.traffic.sent_by_sql[sql] += len(rows)
        if not rows:
            return []
        if not (stmt.kind == "write" and stmt.returns_id):
            raise ValueError("insert_many runs INSERTs into id tables only")
        if not self._write_tx:
            raise StoreClosedError("insert_many outside a write transaction")
        try:
            conn = self._usable()
            self._send_held()
            one = self._insert_rows(stmt, rows) if self.set_based and len(rows) > 1 else None
            if one is not None:
                since = time.perf_counter()
                cur = self._cursor
                cur.execute(one[0], one[1])
                ids = sorted(int(r[0]) for r in cur.fetchall())
                self._waited(sql, since)
                self.traffic.server_statements += 1
                return ids
            self.traffic.server_statements += len(rows)
            cursors = []
            since = time.perf_counter()
            with conn.pipeline():
                for p in rows:
                    cur = conn.cursor()
                    cur.execute(stmt.sql, p)
                    cursors.append(cur)
            self._waited(sql, since)
            ids = []
            for cur in cursors:
                ids.append(int(cur.fetchone()[0]))
                cur.close()
            return ids
        except Exception as exc:
            raise self._error(exc, sql) from exc

    def _read_runs(self, one: tuple[str, list], n_runs: int, sql: str) -> list[list]:
        """Run a set-based read (batching.read_statement) and split its rows back into the runs' rows, each row
        readable by the statement's own column names (the extra columns dropped)."""
        since = time.perf_counter()
        cur = self._cursor
        fetched = self._fetch_read(cur, one[0], one[1])
        self._waited(sql, since)
        self.traffic.server_statements += 1
        res = cur.pgresult
        keep = res.nfields - READ_EXTRA
        cls = _row_class(tuple(res.fname(i) for i in range(keep)))
        out: list[list] = [[] for _ in range(n_runs)]
        for r in fetched:
            out[tuple.__getitem__(r, -1)].append(cls(tuple.__getitem__(r, slice(0, keep))))
        return out

    def _fetch_read(self, cur, sql: str, params) -> list:
        """Run a plain SELECT (no side effect: run again, it reads the same rows) and fetch its rows, in binary
        where its result's column types load to the same Python values either way (BINARY_SAME_TYPES).

        Why: psycopg parses every value of a text result (a float from its decimal digits, bytea from hex); a
        binary result is unpacked. A statement's first run is text and tells its result's types; from then on,
        if every column is of those types, it is fetched in binary (the types are checked again at every run: a
        result that comes back with another type is fetched again as text, and the text stays text). Measured
        (bench/bench_binary_reads.py, text and binary alternated in one process, load 43): a frame's candidates'
        read, 77 object rows with their features, 1.13 -> 0.64 ms of the client's CPU (docs/RESULTS.md section 7)."""
        binary = self._binary_reads.get(sql)
        cur.execute(sql, params, binary=binary is True)
        rows = cur.fetchall()  # in a pipeline, the wait is here
        if binary is not False:
            res = cur.pgresult
            types = self._binary_types
            same = res is not None and all(res.ftype(i) in types for i in range(res.nfields))
            if binary is None:
                if len(self._binary_reads) >= BINARY_READS_MAX:
                    self._binary_reads.clear()
                self._binary_reads[sql] = same
            elif not same:  # another type than the text run found: read again as text (a SELECT has no effect)
                self._binary_reads[sql] = False
                self.traffic.round_trips += 1
                self.traffic.server_statements += 1
                cur.execute(sql, params)
                rows = cur.fetchall()
        return rows

    @staticmethod
    def _insert_rows(stmt: Statement, rows: list[tuple]):
        """insert_many's rows as one multi-row INSERT ... RETURNING id (batching.py), or None. The VALUES rows are
        inserted in order and each takes the next id of the table's counter as it is inserted, so the ids, sorted,
        are the ids of the rows in order: the ids one INSERT each gave (test_core_store_round_trips)."""
        text = stmt.sql
        if not text.endswith(" RETURNING id"):
            return None
        shape = shape_of(text[:-len(" RETURNING id")], stmt.n_params)
        if shape is None or shape.kind != "insert" or shape.tail or len(rows) > max_rows(shape):
            return None
        sql, flat = set_statement(shape, rows)
        return sql + " RETURNING id", flat

    def _error(self, exc: Exception, sql: str):
        from .dialect import UnsupportedSql

        if isinstance(exc, (UnsupportedSql, StoreClosedError)):
            return exc
        return pg_store_error(" ".join(sql.split()[:3]).lower(), exc, address=self.address)

    def _execute(self, stmt: Statement, params: tuple, original: str):
        conn = self._conn
        if conn is None or conn.closed or conn.broken:
            self._usable()  # raises, or connects again outside a transaction
        kind = stmt.kind
        if kind == "write" and self._pipeline is not None and not stmt.returns_rows:
            # Inside a write transaction a write whose result nobody reads is sent without waiting for it
            # (pipeline mode): the next read, or the commit, waits for all of them at once. A failed write
            # aborts the transaction on the server, and its error is raised there. (Tested first: most of a
            # fused frame's statements are these, about 100 a frame.)
            self._send_write(stmt, params)
            return PgCursor([], None, -1)
        if kind == "begin_write":
            self._begin_write()
            return PgCursor([], None, -1)
        if kind == "begin":
            self._raw("BEGIN ISOLATION LEVEL REPEATABLE READ")
            self._write_tx = False
            return PgCursor([], None, -1)
        if kind == "commit":
            self._commit()
            return PgCursor([], None, -1)
        if kind == "rollback":
            self._rollback()
            return PgCursor([], None, -1)
        if kind == "epoch" and self._write_tx and self._tx_epoch is not None:
            return PgCursor([(self._tx_epoch - self.own_epochs,)], None, -1)  # read with the lock (_begin_write)
        self._send_held()
        own = self._autocommit_write(stmt)
        try:
            self.traffic.server_statements += 1
            cur = self._cursor
            since = time.perf_counter()
            if kind == "select" and stmt.sql.startswith("SELECT "):
                rows = self._fetch_read(cur, stmt.sql, params if stmt.n_params else None)
            else:
                cur.execute(stmt.sql, params if stmt.n_params else None)
                rows = cur.fetchall() if stmt.returns_rows else []  # in a pipeline, the wait is here
            rowcount = cur.rowcount
            self._waited(original, since)
            if kind == "epoch":
                rows = [(int(rows[0][0]) - self.own_epochs,)]
            if own:
                self._commit()
        except BaseException:
            if own:
                self._rollback()
            raise
        lastrowid = None
        if stmt.returns_id and rows:
            lastrowid = int(rows[0][0])
            rows = []
        return PgCursor(rows, lastrowid, rowcount)

    # ------------------------------------------------------------------ set-based writes (batching.py)
    def _send_write(self, stmt: Statement, params: tuple) -> None:
        """A pipelined write whose result nobody reads: held to be sent with the other rows of its text
        (batching.py states why that is the rows' result), or, when it cannot be held, sent now after everything
        held before it."""
        self.traffic.pipelined += 1
        plan = write_plan(stmt.sql, stmt.n_params) if self.set_based else None
        if plan is None:
            self._send_held()
            self._conn.execute(stmt.sql, params if stmt.n_params else None)
            self.traffic.server_statements += 1
            return
        shape, limit, keyof = plan
        text = stmt.sql
        held = self._held.get(text)
        table = self._held_tables.get(shape.table)
        if table is not None and table != text:
            self._send_held()  # another text writes this table: keep their order
            held = None
        key = keyof(params) if keyof is not None else None
        if held is not None and (key is not None and key in held[2] or len(held[1]) >= limit):
            self._send_held()  # one statement may not write a row twice: the earlier rows go first
            held = None
        if held is None:
            held = self._held[text] = [shape, [], set()]
            self._held_tables[shape.table] = text
        held[1].append(params)
        if key is not None:
            held[2].add(key)

    def _send_held(self) -> None:
        """Send every held write, one statement per text (its rows in order), texts in the order first held."""
        if not self._held:
            return
        held, self._held = self._held, {}
        self._held_tables = {}
        conn = self._conn
        for text, (shape, rows, _) in held.items():
            built = set_statement(shape, rows) if len(rows) > 1 else None
            if built is None:
                for p in rows:
                    conn.execute(text, p if shape.n_params else None)
                self.traffic.server_statements += len(rows)
            else:
                conn.execute(built[0], built[1])
                self.traffic.server_statements += 1

    def _raw(self, sql: str, params=None):
        """One round trip; the rows of its last result (a simple query of several statements has one each)."""
        self.traffic.server_statements += 1
        cur = self._cursor
        since = time.perf_counter()
        cur.execute(sql, params)
        while cur.nextset():
            pass
        rows = cur.fetchall() if cur.description is not None else None
        self._waited(sql, since)
        return rows

    def _autocommit_write(self, stmt: Statement) -> bool:
        """A write outside a transaction becomes its own locked write transaction (as SQLite's autocommit
        write takes the write lock). Returns whether this call opened it. A write inside a read transaction
        is refused: its snapshot predates the lock, so it could overwrite a commit it never saw."""
        if stmt.kind != "write":
            return False
        if self.in_transaction:
            if not self._write_tx:
                raise StoreClosedError("a write inside a read transaction (BEGIN without IMMEDIATE)")
            return False
        self._begin_write()
        return True

    def begin_write(self, reads=(), only_if: str | None = None) -> list[list] | None:
        """Open a write transaction (the fusion lock, as ``BEGIN IMMEDIATE``) and run ``reads`` ((sql, params) pairs)
        once the lock is held, in the same round trip: the rows of each, in order.

        ``only_if``: a read (no parameters) that returns a row when there is something to write: the lock is taken
        only then, in the same statement (``... WHERE EXISTS``); when it returns none the transaction is rolled back
        (a second round trip) and None is returned: no lock was taken, nothing was written.

        Why: a frame's commit waited for the staged-frame count outside the lock, then the lock, then the pending
        frames, the newest fused stamp and the frame's sightings, one round trip each (5 of a robot's 12 a frame,
        bench/fleet_round_trips.py); they are one now. Every statement is still its own (parameterised, its own
        snapshot under READ COMMITTED, run after the lock is held: the server runs a pipeline's statements in order)."""
        self._usable()
        if self.in_transaction:
            raise StoreClosedError("begin_write inside an open transaction")
        stmts = self._read_statements(reads, "begin_write reads statements that read only")
        lock = TAKE_WRITE_LOCK
        if only_if is not None:
            cond = translate(only_if)
            if cond.kind != "select" or cond.n_params:
                raise ValueError("begin_write's only_if is a read without parameters")
            lock += f" FROM (SELECT 1) AS one WHERE EXISTS ({cond.sql})"
            self.traffic.statements += 1
            self.traffic.sent_by_sql[only_if] += 1
        epoch = READ_WRITE_EPOCH if self.counts_writes else None
        self._write_tx = True
        self._tx_epoch = None
        conn = self._conn
        since = time.perf_counter()
        try:
            self._pipeline = conn.pipeline()
            self._pipeline.__enter__()
            with conn.pipeline():  # nested: leaving it syncs once, and every result below is then in
                conn.execute("BEGIN")
                conn.execute(SET_LOCK_TIMEOUT)
                locked = conn.cursor()
                locked.execute(lock)
                got = None
                if epoch is not None:
                    got = conn.cursor()
                    got.execute(epoch)
                cursors = self._pipelined_reads(conn, reads, stmts)
            self.traffic.server_statements += 3 + (epoch is not None) + len(cursors)
            self._waited("BEGIN; lock; reads", since)
            took = bool(locked.fetchall())
            if got is not None:
                rows = got.fetchall()
                self._tx_epoch = int(rows[0][0]) if rows else None
            out = [cur.fetchall() for cur in cursors]
            for cur in [locked, got, *cursors]:
                if cur is not None:
                    cur.close()
        except BaseException as exc:
            self._write_tx = False
            self._tx_epoch = None
            self._end_pipeline(error=True)
            try:
                if not (conn.closed or conn.broken):
                    self._raw("ROLLBACK")
            except Exception:  # noqa: BLE001 - the lock error is the one that matters
                pass
            if isinstance(exc, Exception):  # a lock timeout is StoreLockedError, as in execute("BEGIN IMMEDIATE")
                raise self._error(exc, "BEGIN write transaction") from exc
            raise
        if only_if is not None and not took:  # nothing to write: no lock was taken
            # ROLLBACK sent into the open pipeline, whose one sync waits for it: _rollback() would sync the empty
            # pipeline, then send ROLLBACK, two round trips where one does
            self._tx_epoch = None
            self._write_tx = False
            self._send_own("ROLLBACK")
            self._end_pipeline(error=False)
            return None
        return out

    def _begin_write(self) -> None:
        self._write_tx = True
        # As SQLite's busy_timeout (5 s): a writer that cannot get the lock in time fails with StoreLockedError
        # (transient: the node keeps its frames and retries) instead of hanging behind a stuck writer.
        # The three statements go as one simple query (no parameters): one round trip instead of three.
        # The write epoch is read in the same round trip, once the lock is held: no other writer can move it before
        # this transaction ends (every write takes the lock; this one's own increment is sent by _commit), so every
        # PRAGMA data_version of the transaction is answered from it (Store.transaction reads it when it begins and
        # before COMMIT: 4 of a frame's 26 round trips, bench_round_trips).
        self._tx_epoch = None
        epoch = f"; {READ_WRITE_EPOCH}" if self.counts_writes else ""
        try:
            rows = self._raw(f"BEGIN; {SET_LOCK_TIMEOUT}; {TAKE_WRITE_LOCK}{epoch}")
            if epoch and rows:
                self._tx_epoch = int(rows[0][0])
        except BaseException:
            # not taken (timed out, connection lost): nothing was written; leave no aborted transaction open,
            # or every later statement of this connection would fail ("current transaction is aborted")
            self._write_tx = False
            try:
                if not (self._conn.closed or self._conn.broken):
                    self._raw("ROLLBACK")
            except Exception:  # noqa: BLE001 - the lock error is the one that matters
                pass
            raise
        self._pipeline = self._conn.pipeline()
        self._pipeline.__enter__()

    def begin_staging(self, reads: tuple[str, ...] = (), reserve: tuple[tuple[str, int], ...] = ()) -> list[list]:
        """Open a staging transaction, and run ``reads`` (statements without parameters) once its lock is held, in the
        same round trip: the rows of each. Why: a staging reads "now" and the quarantined frames before it writes
        (Memory._stage): 2 of its 6 round trips (test_fleet_writers counts them).

        ``reserve``: (table, n) pairs: n ids of each table's counter (schema.py tempomem_next_id) taken in the same
        round trip; after the rows of ``reads``, one list per pair holding the first id (the n ids are first ..
        first + n - 1, the ids n inserts in a row take from the counter). Why: a frame and its sightings inserted
        with these ids are sent without waiting for an id, and commit in the same round trip (Store.staging):
        4 -> 2 of a staging's waits, and 21 -> 2 updates of the counters' rows a frame of 20 sightings
        (bench_stage_profile.py).

        A staging transaction: it takes the staging lock (STAGE_LOCK_KEY), not the fusion lock, so that a
        robot's frame is written while another writer fuses (docs/FLEET.md, "Staging beside fusion").

        What makes that safe: a staging transaction only inserts rows no fusion has read (a new frame, its
        sightings, its depth) and changes only quarantined frames, which no fusion reads; the one row both may lock
        is the id counter of ``audit`` (staging writes audit rows only when it quarantines, releases or refuses a
        frame: then it waits for the fusion's COMMIT, so audit ids stay in commit order). It does not increment
        ``write_epoch``: what a writer caches between transactions (WriterCaches) is of fused state only, so a
        staged frame voids nothing; and the epoch row would be a row lock shared with every fusion. Fusion reads the
        pending frames under its own lock (READ COMMITTED: the frames whose staging committed before that read) and
        fuses exactly those (Memory._commit_locked).

        Its COMMIT does not wait for the WAL flush (``SET LOCAL synchronous_commit = off``); the flush is waited for
        right after it, in the same round trip, by a transaction of its own (STAGE_FLUSH). Why: a transaction's locks
        (the staging lock, the counters' rows) are released only after its COMMIT returns, so a synchronous COMMIT
        held them through the flush, and four robots' stagings queued behind each other's flushes (7-15 ms each at
        load; docs/RESULTS.md section 7, rounds 12-13). Now a staging's serial section ends when its commit record is
        in the WAL; the flushes of several stagings overlap, and one flush can cover several (group commit). The
        same durability: add() returns once the WAL is flushed past its commit record (test_pg_staging_flush.py).
        What another transaction may see before that flush (a later staging's "now", the fuser's pending frames) is
        written after it in the WAL, so no crash keeps the later one and loses this one. Ids stay the counters'
        (gap-free, SQLite's for the same input: schema.py)."""
        self._usable()
        if self.in_transaction:
            raise StoreClosedError("begin_staging inside an open transaction")
        self._write_tx = self._staging_tx = True
        self._tx_epoch = None
        texts = []
        for sql in reads:
            stmt = translate(sql)
            if stmt.kind != "select" or stmt.n_params:
                raise ValueError("begin_staging reads statements without parameters only")
            texts.append(stmt.sql)
            self.traffic.statements += 1
            self.traffic.sent_by_sql[sql] += 1
        for table, n in reserve:
            if table not in ID_TABLES or isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise ValueError(f"begin_staging reserves n >= 1 ids of an id table, not {n!r} of {table!r}")
            texts.append(f"UPDATE tempomem_ids SET last = last + {n} WHERE tbl = '{table}' RETURNING last - {n - 1}")
            self.traffic.statements += 1
            self.traffic.sent_by_sql["(reserve ids)"] += 1
        try:
            results = self._raw_sets(f"BEGIN; {SET_LOCK_TIMEOUT}; "
                                     "SET LOCAL synchronous_commit = off; "
                                     f"SELECT pg_advisory_xact_lock({STAGE_LOCK_KEY}, hashtext(current_schema()))"
                                     + "".join("; " + t for t in texts))
        except BaseException as exc:
            self._write_tx = self._staging_tx = False
            try:
                if not (self._conn.closed or self._conn.broken):
                    self._raw("ROLLBACK")
            except Exception:  # noqa: BLE001 - the lock error is the one that matters
                pass
            if isinstance(exc, Exception):  # a lock timeout is StoreLockedError, as for the fusion lock
                raise self._error(exc, "BEGIN staging transaction") from exc
            raise
        self._pipeline = self._conn.pipeline()
        self._pipeline.__enter__()
        return results[len(results) - len(texts):] if texts else []

    def _raw_sets(self, sql: str) -> list[list]:
        """One round trip of a simple query of several statements: the rows of each statement that returns rows."""
        self.traffic.server_statements += 1
        cur = self._cursor
        since = time.perf_counter()
        cur.execute(sql)
        out = []
        while True:
            if cur.description is not None:
                out.append(cur.fetchall())
            if not cur.nextset():
                break
        self._waited(sql, since)
        return out

    def _end_pipeline(self, error: bool) -> None:
        pipeline, self._pipeline = self._pipeline, None
        if pipeline is None:
            return
        if error:
            try:
                pipeline.__exit__(None, None, None)
            except Exception:  # noqa: BLE001 - the error being handled is the one that matters
                pass
        else:
            since = time.perf_counter()
            pipeline.__exit__(None, None, None)  # waits for every pipelined write: raises the first that failed
            self._waited("(end of pipeline)", since)

    def _send_own(self, sql: str, counted_as: str | None = None) -> None:
        """A statement of the connection's own (not the store's) sent into the open pipeline, counted as one
        statement sent, pipelined and run by the server; ``counted_as`` also names it in sent_by_sql."""
        self._conn.execute(sql)
        self.traffic.statements += 1
        self.traffic.pipelined += 1
        self.traffic.server_statements += 1
        if counted_as is not None:
            self.traffic.sent_by_sql[counted_as] += 1

    def _commit(self) -> None:
        if self._write_tx:
            self._send_held()
            bumped = self.counts_writes and not self._staging_tx
            staging, self._staging_tx = self._staging_tx, False
            if bumped:
                self._send_own("UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'write_epoch'")
            if self._pipeline is not None:
                # COMMIT sent with the pipelined writes: the pipeline's one sync waits for all of them. A write
                # that failed aborted the transaction, so this COMMIT rolls back, and the sync raises the error.
                self._conn.execute("COMMIT")
                self.traffic.server_statements += 1
                if staging:  # its flush waited for outside its locks (STAGE_FLUSH), in the pipeline's one sync
                    self._send_own(STAGE_FLUSH, "(flush)")
                self._write_tx = False
                self._end_pipeline(error=False)
            else:
                self._raw("COMMIT")
                if staging:
                    self._raw(STAGE_FLUSH)
            self._write_tx = False
            if bumped:
                self.own_epochs += 1  # committed: the epoch moved by this connection's own write
        elif self.in_transaction:
            self._raw("COMMIT")

    def _rollback(self) -> None:
        self._held, self._held_tables = {}, {}  # never sent: nothing of them reached the server
        self._write_tx = self._staging_tx = False
        self._end_pipeline(error=True)
        conn = self._conn
        if conn is None or conn.closed or conn.broken:
            return
        self._raw("ROLLBACK")

