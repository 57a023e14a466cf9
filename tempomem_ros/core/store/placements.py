"""Reads of the placements table: an object's placements, one by id, where objects stood at a time, the current
one, and the scene as of a time (a page of it, or its size).

Why one place: the temporal operators, the relational queries as of a time and the shared read helpers read
the same ordered placements (closed ones are kept, never deleted); the as-of scene's filter is written once
for its page and its count.
"""

from __future__ import annotations

from ..rows import PLACEMENT_COLS, id_chunks
from ..types import STATES
from .base import TableRows, fetch_each, pipelines

_PLACEMENT_COLS_P = ", ".join("p." + c.strip() for c in PLACEMENT_COLS.split(","))


#: walk_bound reads at most this many placements that began by t (and one more to know there are more): the bound
#: is worth its probe when the scene of t is small beside the store's objects, as an old time on a month's store.
#: 64 and 128 gave scene_as_of@1 47.0 -> 48.9 and 48.3 -> 49.7 VM steps x100, scene_as_of 118.3 and 121.5 on day 30.
WALK_BOUND_PROBE = 64


class PlacementRows(TableRows):
    """Placement rows (every column of rows.PLACEMENT_COLS, by name) over one store; nothing here writes."""

    _has_start_index: bool | None = None   # placements_start (schema version 14), looked up once
    _bound_of: tuple | None = None          # ((t, data_version, total_changes), walk_bound) of the last probe

    def of_object(self, object_id: int) -> list:
        """The object's placements, oldest first (t_from, then id)."""
        return self._conn.execute(f"SELECT {PLACEMENT_COLS} FROM placements WHERE object_id=? ORDER BY t_from, id",
                                  (int(object_id),)).fetchall()

    def newest_of(self, object_id: int, k: int = -1, offset: int = 0) -> list:
        """The object's placements, newest first (t_from, then id, descending): ``k`` of them (-1: all) after
        skipping the ``offset`` newest; the reverse of of_object's order, read from the same index
        (placements_object) backwards, so a page reads its own rows, not the object's whole list.

        The page's bounds are written into the statement as integer literals, not bound: with ``LIMIT ? OFFSET ?``
        bound, SQLite 3.51 (pysqlite3) took 37 us for the 5 placements of bench_long_run's plate against 20 us with
        literals or with no LIMIT (raw statements on the day-30 store, best of 5 x 300); the History service asks
        one default page (20, 0), so one statement text serves nearly every call."""
        limit = int(k) if int(k) >= 0 else 2**63 - 1   # no -1: PostgreSQL has no "no limit" literal of that form
        return self._conn.execute(f"SELECT {PLACEMENT_COLS} FROM placements WHERE object_id=? "
                                  f"ORDER BY t_from DESC, id DESC LIMIT {limit} OFFSET {int(offset)}",
                                  (int(object_id),)).fetchall()

    def count_of(self, object_id: int) -> int:
        """How many placements the object has (closed ones included: of_object's length)."""
        return int(self._conn.execute("SELECT COUNT(*) FROM placements WHERE object_id=?",
                                      (int(object_id),)).fetchone()[0])

    def of_objects(self, object_ids) -> dict[int, list]:
        """``{id: of_object(id)}`` for each of ``object_ids``, in one statement per SQL_ID_CHUNK objects (the same
        rows, in the same order: t_from, then id, within each object)."""
        out: dict[int, list] = {int(i): [] for i in object_ids}
        for chunk, marks in id_chunks(sorted(out)):
            for r in self._conn.execute(f"SELECT {PLACEMENT_COLS} FROM placements WHERE object_id IN ({marks}) "
                                        "ORDER BY object_id, t_from, id", chunk).fetchall():
                out[int(r["object_id"])].append(r)
        return out

    def first_of(self, object_id: int):
        """The object's oldest placement (the first of of_object), or None."""
        return self._conn.execute(f"SELECT {PLACEMENT_COLS} FROM placements WHERE object_id=? ORDER BY t_from, id "
                                  "LIMIT 1", (int(object_id),)).fetchone()

    def last_of(self, object_id: int, *, closed: bool = False):
        """The object's newest placement (the last of of_object), or with ``closed`` its newest closed one (the
        last of of_object that is not current); None if there is none. One indexed row (placements_object), not
        the object's whole history: the current / previous answers read this instead of every placement."""
        where = " AND current=0" if closed else ""
        return self._conn.execute(f"SELECT {PLACEMENT_COLS} FROM placements WHERE object_id=?{where} "
                                  "ORDER BY t_from DESC, id DESC LIMIT 1", (int(object_id),)).fetchone()

    def current_of(self, object_id: int):
        """The object's current placement (the first current one of of_object), or None."""
        return self._conn.execute(f"SELECT {PLACEMENT_COLS} FROM placements WHERE object_id=? AND current=1 "
                                  "ORDER BY t_from, id LIMIT 1", (int(object_id),)).fetchone()

    def overlapping(self, limit: int = 100) -> list[tuple[int, int, int]]:
        """(object id, placement id, later placement id) of one object's placements whose spans overlap (an open
        placement holds until now), at most ``limit`` pairs by object and ids; [] when the invariant holds.

        Why: an object stands in one place at a time, so a new placement supersedes the old one. A placement
        opened while another of the object still held (a move stamped before a removal it retracted, long run
        laptop #179: 4,147 s) made an as-of read list the object twice and as_of answer the older place. A
        check, not a read any answer uses: it walks every placement (a self-join, no index on the spans)."""
        return [(int(r[0]), int(r[1]), int(r[2])) for r in self._conn.execute(
            "SELECT a.object_id, a.id, b.id FROM placements a JOIN placements b ON a.object_id = b.object_id "
            "AND a.id < b.id WHERE a.t_from < COALESCE(b.t_to, b.t_from + 1e18) "
            "AND b.t_from < COALESCE(a.t_to, a.t_from + 1e18) ORDER BY a.object_id, a.id, b.id LIMIT ?",
            (int(limit),)).fetchall()]

    def held_at(self, object_id: int, t: float):
        """The object's first placement (of_object order) with t_from <= t < t_to (or still open), or None: what
        as_of answers, read from the placements that began by t only."""
        return self._conn.execute(f"SELECT {PLACEMENT_COLS} FROM placements WHERE object_id=? AND t_from <= ? "
                                  "AND (t_to IS NULL OR t_to > ?) ORDER BY t_from, id LIMIT 1",
                                  (int(object_id), t, t)).fetchone()

    def one_of_each(self, object_ids, which: str, t: float | None = None) -> dict:
        """``{object id: row}`` of one placement of each object that has one, in one statement per SQL_ID_CHUNK
        objects: ``which`` is "current" (current_of), "last" (last_of), "last_closed" (last_of(closed=True)),
        "first" (first_of) or "held" (held_at(t)), each the same row as the one-object read gives.

        Why: an answer by label describes every object of the label (a label named 7 -> 8 objects from day 1 to day
        30 of bench_long_run, moved things' copies), and one statement per object and placement made the per-object
        cost of current / previous / as_of mostly statement overhead on SQLite. Each object's row is still the first
        of its index order (placements_object, one correlated lookup), so what a call reads grows with the objects
        it describes, not with the statements it sends. On PostgreSQL the one-object statement, pipelined
        (base.pipelines: the set form was planned as a hash over every placement)."""
        where, order = _ONE_OF[which]
        args: list = [] if which != "held" else [t, t]
        ids = sorted({int(i) for i in object_ids})
        if pipelines(self._conn):
            one = f"SELECT {PLACEMENT_COLS} FROM placements q WHERE q.object_id = ?{where} ORDER BY {order} LIMIT 1"
            return {i: rows[0] for i, rows in zip(ids, fetch_each(self._conn, one, [(i, *args) for i in ids]))
                    if rows}
        out: dict = {}
        for chunk, marks in id_chunks(ids):
            for r in self._conn.execute(
                    f"SELECT {_PLACEMENT_COLS_P} FROM objects o JOIN placements p ON p.id = (SELECT q.id FROM "
                    f"placements q WHERE q.object_id = o.id{where} ORDER BY {order} LIMIT 1) "
                    f"WHERE o.id IN ({marks})", (*args, *chunk)).fetchall():
                out[int(r["object_id"])] = r
        return out

    def row(self, placement_id: int):
        """One placement's row, or None."""
        return self._conn.execute(f"SELECT {PLACEMENT_COLS} FROM placements WHERE id=?",
                                  (int(placement_id),)).fetchone()

    def by_ids(self, ids) -> dict[int, object]:
        """{id: row} of these placements (those that do not exist are absent), one statement for up to
        SQL_ID_CHUNK ids. Why: the changes of day 1 of bench_long_run read their events' 171 placements one
        statement each (row), and each placement's region labels with it: 73.6 of the call's 214 VM steps x100
        (docs/RESULTS.md section 6, round 12)."""
        out: dict[int, object] = {}
        for chunk, marks in id_chunks(sorted({int(i) for i in ids})):
            for r in self._conn.execute(f"SELECT {PLACEMENT_COLS} FROM placements WHERE id IN ({marks})",
                                        tuple(chunk)).fetchall():
                out[int(r["id"])] = r
        return out

    def seen_within(self, ids, span_s: float) -> list[int]:
        """Those of these placements whose sightings span at most ``span_s`` (t_last - t_from: the first and the
        last sighting at the place), by id: places seen in one look (event_names, fusion.label_look_gap_s)."""
        out: list[int] = []
        for chunk, marks in id_chunks(sorted({int(i) for i in ids})):
            out.extend(int(r[0]) for r in self._conn.execute(
                f"SELECT id FROM placements WHERE id IN ({marks}) AND t_last - t_from <= ?",
                (*chunk, float(span_s))).fetchall())
        return sorted(out)

    def at(self, object_ids, t: float) -> list:
        """The placements of these objects with t_from <= t < t_to (or still open), by object id, then t_from,
        then id (normally one per object; the caller keeps the first of each)."""
        out: list = []
        for chunk, marks in id_chunks(sorted(object_ids)):
            out += self._conn.execute(
                f"SELECT {PLACEMENT_COLS} FROM placements WHERE object_id IN ({marks}) AND t_from <= ? "
                "AND (t_to IS NULL OR t_to > ?) ORDER BY object_id, t_from, id", (*chunk, t, t)).fetchall()
        return out

    # ORDER BY: an object has one current placement at most (open_placement ends the one before), so the order names
    # the same row; with it stated, PostgreSQL answers current_ids' objects in one set-based statement (fetch_many ->
    # batching.read_statement), not one statement each pipelined: 10 of "what is on the X"'s 25 statements sent to
    # the server (bench/fleet_round_trips.py). The order is the partial index's (placements_current): no sort.
    _CURRENT_ID = "SELECT id FROM placements WHERE object_id=? AND current=1 ORDER BY t_from, id"

    def current_id(self, object_id: int) -> int | None:
        """Id of the object's current placement, or None (a missing or forgotten object has none)."""
        row = self._conn.execute(self._CURRENT_ID, (object_id,)).fetchone()
        return int(row[0]) if row else None

    def current_ids(self, object_ids) -> list[int | None]:
        """``[current_id(i) for i in object_ids]``, on PostgreSQL in one round trip (base.fetch_each: the same
        statement, so the same first row)."""
        return [int(rows[0][0]) if rows else None
                for rows in fetch_each(self._conn, self._CURRENT_ID, [(int(i),) for i in object_ids])]

    # ------------------------------------------------------------------ the scene as of a time
    def as_of(self, t: float, center=None, radius: float | None = None, *, k: int | None = None,
              offset: int = 0, after: tuple[int, int] | None = None) -> list:
        """The placement of every object shown at t (not forgotten or tentative now) that held at t; with
        ``center`` and ``radius`` only those whose centre lies within radius, nearest first (ties by object id,
        then placement id), otherwise by object id, then placement id. ``k`` rows (None: all) after skipping
        ``offset``. Arguments are validated by the caller (TemporalService).

        Driven by the shown objects, not by the placements table: a forgotten object's placements are never read
        (they were 23 of 159 after day 1 of bench_long_run and 185 of 745 after day 30, every one scanned by each
        call), and of a shown object only its placements that began by t (placements_object). A page in object
        order walks the objects in id order and stops once it has k rows after the offset (no sort).

        ``after`` (object id, placement id) of the last row of the previous page, no radius: the rows after it in
        object order (keyset paging), the same rows as the offset of that many rows. Why: an offset is walked, row by
        row; on PostgreSQL a page of 50 at offset 9,900 of the 10,000-object fleet store merge-joined objects_pkey and
        placements_object over every row before it (19-27 ms, /work/s43/pgx/explain.py; scene_as_of p95 35-52 ms in
        bench_fleet when the fuser fell behind). The key seeks the object id in objects_pkey (the rowid on SQLite)."""
        if after is not None:
            return self._as_of_after(t, k, after)
        if radius is None and not pipelines(self._conn):
            return self._as_of_by_start(t, k, offset)
        if radius is None:
            limit = "" if k is None and not offset else " LIMIT ? OFFSET ?"
            page = [] if not limit else [-1 if k is None else k, offset]
            # CROSS JOIN: SQLite keeps objects as the outer loop, in rowid order, so ORDER BY o.id, p.id needs no
            # sort and LIMIT stops early (postgres/dialect.py makes it a JOIN)
            return self._conn.execute(
                f"SELECT {_PLACEMENT_COLS_P} FROM objects o CROSS JOIN placements p ON p.object_id = o.id "
                f"WHERE o.state NOT IN ({_HIDDEN}) AND {_HELD_AT} ORDER BY o.id, p.id{limit}",
                [t, t] + page).fetchall()
        where, args, order, order_args = _as_of_filter(t, center, radius)
        limit = "" if k is None and not offset else " LIMIT ? OFFSET ?"
        page = [] if not limit else [-1 if k is None else k, offset]
        return self._conn.execute(
            f"SELECT {_PLACEMENT_COLS_P} FROM objects o JOIN placements p ON p.object_id = o.id "
            f"WHERE {where} ORDER BY {order}{limit}",
            args + order_args + page).fetchall()

    def _as_of_after(self, t: float, k: int | None, after: tuple[int, int]) -> list:
        """as_of's rows after the key ``after`` = (object id, placement id), in object order (keyset paging).
        ``o.id >= ?`` is the seek (an index range on both backends); the OR drops the key's own object's rows up to
        the key's placement (an object may hold more than one placement at t: store/placements.overlapping).
        ``p.object_id >= ?`` too: PostgreSQL does not carry an inequality across the join's equality, and its merge
        join would read placements_object from the start."""
        object_id, placement_id = int(after[0]), int(after[1])
        limit = "" if k is None else " LIMIT ?"
        return self._conn.execute(
            f"SELECT {_PLACEMENT_COLS_P} FROM objects o CROSS JOIN placements p ON p.object_id = o.id "
            f"WHERE o.id >= ? AND p.object_id >= ? AND (o.id > ? OR p.id > ?) AND o.state NOT IN ({_HIDDEN}) "
            f"AND {_HELD_AT} ORDER BY o.id, p.id{limit}",
            [object_id, object_id, object_id, placement_id, t, t] + ([] if k is None else [k])).fetchall()

    def _as_of_by_start(self, t: float, k: int | None, offset: int) -> list:
        """as_of without a radius on SQLite: the rows of ``ORDER BY o.id, p.id LIMIT k OFFSET offset``, read by a
        statement ordered by o.id, p.t_from, p.id, which walks each shown object's placements that began by t
        (placements_object, a seek on t_from) with no sort and stops at the page, one row either side of it.

        Why: the statement in id order reads each object's placements through placements_asof, every one of
        them, those that began after t too, so the scene of a day-1 time asked on day 30 of bench_long_run walked
        176 placement entries a page against 67 on day 1 (the page statement 23.3 -> 42.9 VM steps x100,
        `bench/long_run_calls.py --services scene_as_of@1 --statements 4`; docs/RESULTS.md section 6, round 13).
        Ordering by id over placements_object makes SQLite sort each object's rows (round 12: 41.9 against 26.6
        x100 on day 1), and reading the rows whole in Python to order them paid for every skipped row of an
        offset (bench_fleet at 10,000 objects: p95 43.8 against 6.0 ms, round 12's revert); here SQLite still
        skips the offset's rows unread. Both orders put an object's rows together at the same positions, so they
        give a page the same rows unless an object with more than one placement held at t (overlapping
        placements, store/placements.overlapping) straddles the page's edge: the row before and the row after
        the page tell, and then the statement in id order is read instead."""
        before = 1 if offset > 0 else 0
        limit = -1 if k is None else k + before + 1
        bound, args = self._walk_bound_sql(t)
        rows = self._conn.execute(
            f"SELECT {_PLACEMENT_COLS_P} FROM objects o CROSS JOIN placements p ON p.object_id = o.id "
            f"WHERE o.state NOT IN ({_HIDDEN}){bound} AND {_HELD_AT} ORDER BY o.id, p.t_from, p.id LIMIT ? OFFSET ?",
            args + [t, t, limit, offset - before]).fetchall()
        page = rows[before:] if k is None else rows[before:before + k]
        if not page:
            return []
        cut_before = before and rows[0]["object_id"] == page[0]["object_id"]
        cut_after = len(rows) > before + len(page) and rows[before + len(page)]["object_id"] == page[-1]["object_id"]
        if cut_before or cut_after:
            return self._conn.execute(
                f"SELECT {_PLACEMENT_COLS_P} FROM objects o CROSS JOIN placements p ON p.object_id = o.id "
                f"WHERE o.state NOT IN ({_HIDDEN}) AND {_HELD_AT} ORDER BY o.id, p.id LIMIT ? OFFSET ?",
                [t, t, -1 if k is None else k, offset]).fetchall()
        return sorted(page, key=lambda r: (r["object_id"], r["id"]))

    def walk_bound(self, t: float) -> int | None:
        """The largest object id holding a placement that began by t, when at most WALK_BOUND_PROBE placements
        began by t (0 when none did); None when more did or the store has no placements_start (before version
        14). No object above it holds a placement at t, so the as-of scene's walk in object order ends there.

        Why: the scene of a time walks the shown objects in id order and seeks each one's placements that began
        by t; for a day-1 time asked on day 30 of bench_long_run every object made since was walked too (the page
        when the scene holds fewer than a page, the total always). scene_as_of@1 (a page of 50 and the total)
        56.3 -> 79.0 VM steps x100 day 1 -> day 30 on main, 42.2 -> 43.9 with the bound; the bench's scene_as_of
        at times over the month 115.9 -> 116.8 on day 30 (`bench/long_run_calls.py`, docs/RESULTS.md section 6,
        round 13). The probe reads at most WALK_BOUND_PROBE + 1 index entries: for a recent time, where most
        placements began by t, it gives up and the walk is the same as without it (a page stops at its last row
        anyway); with 256 the month's scene_as_of read 139.8 on day 30, the probe's 257 rows twice."""
        if self._has_start_index is None:
            self._has_start_index = self._conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type='index' AND name='placements_start'").fetchone() is not None
        if not self._has_start_index:
            return None
        # the page and the total of one scene ask the same t: the bound is read once while the store is unchanged
        # (data_version: another connection's commit; total_changes: this connection's own writes)
        state = (t, self._conn.execute("PRAGMA data_version").fetchone()[0], self._conn.total_changes)
        if self._bound_of is not None and self._bound_of[0] == state:
            return self._bound_of[1]
        ids = self._conn.execute("SELECT object_id FROM placements INDEXED BY placements_start WHERE t_from <= ? "
                                 "ORDER BY t_from LIMIT ?", (t, WALK_BOUND_PROBE + 1)).fetchall()
        bound = None if len(ids) > WALK_BOUND_PROBE else max((int(r[0]) for r in ids), default=0)
        self._bound_of = (state, bound)
        return bound

    def _walk_bound_sql(self, t: float) -> tuple[str, list]:
        """(" AND o.id <= ?", [bound]) of walk_bound, or ("", []) when there is none."""
        bound = self.walk_bound(t)
        return ("", []) if bound is None else (" AND o.id <= ?", [bound])

    def count_as_of(self, t: float, center=None, radius: float | None = None) -> int:
        """How many rows as_of(t, center, radius) returns without k: the shown objects (objects_state), each
        object's placements that began by t (placements_object)."""
        where, args, _, _ = _as_of_filter(t, center, radius)
        if radius is None and not pipelines(self._conn):
            bound, bound_args = self._walk_bound_sql(t)
            where, args = f"o.state IN ({_SHOWN}){bound} AND {_HELD_AT}", bound_args + args
        return int(self._conn.execute(
            f"SELECT count(*) FROM objects o JOIN placements p ON p.object_id = o.id WHERE {where}", args
        ).fetchone()[0])


# one_of_each: (filter, order) of each one-placement read, as first_of / last_of / current_of / held_at state them
_ONE_OF = {
    "current": (" AND q.current = 1", "q.t_from, q.id"),
    "last": ("", "q.t_from DESC, q.id DESC"),
    "last_closed": (" AND q.current = 0", "q.t_from DESC, q.id DESC"),
    "first": ("", "q.t_from, q.id"),
    "held": (" AND q.t_from <= ? AND (q.t_to IS NULL OR q.t_to > ?)", "q.t_from, q.id"),
}

# States an as-of scene leaves out (forgotten, or never confirmed); the others (types.STATES) are shown. The scene
# reads the objects of the shown states through the objects_state index.
_HIDDEN_STATES = ("forgotten", "tentative")
_HIDDEN = ", ".join(f"'{s}'" for s in _HIDDEN_STATES)
_SHOWN = ", ".join(f"'{s}'" for s in STATES if s not in _HIDDEN_STATES)
_HELD_AT = "p.t_from <= ? AND (p.t_to IS NULL OR p.t_to > ?)"


def _as_of_filter(t, center, radius) -> tuple[str, list, str, list]:
    """WHERE clause (over objects o joined to their placements p), its arguments, ORDER BY and its arguments of
    an as-of read (arguments already validated)."""
    where = f"o.state IN ({_SHOWN}) AND {_HELD_AT}"
    if radius is None:
        return where, [t, t], "p.object_id, p.id", []
    x, y, z = center
    d2 = "((p.cx - ?) * (p.cx - ?) + (p.cy - ?) * (p.cy - ?) + (p.cz - ?) * (p.cz - ?))"
    # the box test lets the store discard most rows before the exact (squared) distance test
    where += (" AND p.cx BETWEEN ? AND ? AND p.cy BETWEEN ? AND ? AND p.cz BETWEEN ? AND ?"
              f" AND {d2} <= ?")
    args = [t, t, x - radius, x + radius, y - radius, y + radius, z - radius, z + radius,
            x, x, y, y, z, z, radius * radius]
    return where, args, f"{d2}, p.object_id, p.id", [x, x, y, y, z, z]
