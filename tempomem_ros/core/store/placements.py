"""Reads of the placements table: an object's placements, one by id, where objects stood at a time, the current
one, and the scene as of a time (a page of it, or its size).

Why one place: the temporal operators, the relational queries as of a time and the shared read helpers read
the same ordered placements (closed ones are kept, never deleted); the as-of scene's filter is written once
for its page and its count.
"""

from __future__ import annotations

from ..rows import PLACEMENT_COLS, id_chunks
from .base import TableRows, fetch_each

_PLACEMENT_COLS_P = ", ".join("p." + c.strip() for c in PLACEMENT_COLS.split(","))


class PlacementRows(TableRows):
    """Placement rows (every column of rows.PLACEMENT_COLS, by name) over one store; nothing here writes."""

    def of_object(self, object_id: int) -> list:
        """The object's placements, oldest first (t_from, then id)."""
        return self._conn.execute(f"SELECT {PLACEMENT_COLS} FROM placements WHERE object_id=? ORDER BY t_from, id",
                                  (int(object_id),)).fetchall()

    def of_objects(self, object_ids) -> dict[int, list]:
        """``{id: of_object(id)}`` for each of ``object_ids``, in one statement per SQL_ID_CHUNK objects (the same
        rows, in the same order: t_from, then id, within each object)."""
        out: dict[int, list] = {int(i): [] for i in object_ids}
        for chunk, marks in id_chunks(sorted(out)):
            for r in self._conn.execute(f"SELECT {PLACEMENT_COLS} FROM placements WHERE object_id IN ({marks}) "
                                        "ORDER BY object_id, t_from, id", chunk).fetchall():
                out[int(r["object_id"])].append(r)
        return out

    def row(self, placement_id: int):
        """One placement's row, or None."""
        return self._conn.execute(f"SELECT {PLACEMENT_COLS} FROM placements WHERE id=?",
                                  (int(placement_id),)).fetchone()

    def at(self, object_ids, t: float) -> list:
        """The placements of these objects with t_from <= t < t_to (or still open), by object id, then t_from,
        then id (normally one per object; the caller keeps the first of each)."""
        out: list = []
        for chunk, marks in id_chunks(sorted(object_ids)):
            out += self._conn.execute(
                f"SELECT {PLACEMENT_COLS} FROM placements WHERE object_id IN ({marks}) AND t_from <= ? "
                "AND (t_to IS NULL OR t_to > ?) ORDER BY object_id, t_from, id", (*chunk, t, t)).fetchall()
        return out

    _CURRENT_ID = "SELECT id FROM placements WHERE object_id=? AND current=1"

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
              offset: int = 0) -> list:
        """The placement of every object shown at t (not forgotten or tentative now) that held at t; with
        ``center`` and ``radius`` only those whose centre lies within radius, nearest first (ties by object id,
        then placement id), otherwise by object id, then placement id. ``k`` rows (None: all) after skipping
        ``offset``. Arguments are validated by the caller (TemporalService)."""
        where, args, order, order_args = _as_of_filter(t, center, radius)
        limit = "" if k is None and not offset else " LIMIT ? OFFSET ?"
        page = [] if not limit else [-1 if k is None else k, offset]
        return self._conn.execute(
            f"SELECT {_PLACEMENT_COLS_P} FROM placements p "
            f"WHERE {where} ORDER BY {order}{limit}",
            args + order_args + page).fetchall()

    def count_as_of(self, t: float, center=None, radius: float | None = None) -> int:
        """How many rows as_of(t, center, radius) returns without k."""
        where, args, _, _ = _as_of_filter(t, center, radius)
        return int(self._conn.execute(
            f"SELECT count(*) FROM placements p WHERE {where}", args
        ).fetchone()[0])


def _as_of_filter(t, center, radius) -> tuple[str, list, str, list]:
    """WHERE clause, its arguments, ORDER BY and its arguments of an as-of read (arguments already validated)."""
    # NOT IN a (small, indexed) list of forgotten ids rather than a join: the scan stays on the
    # placements_asof index, and an offset skips rows without touching the objects table
    where = ("p.object_id NOT IN (SELECT id FROM objects WHERE state IN ('forgotten', 'tentative')) "
             "AND p.t_from <= ? AND (p.t_to IS NULL OR p.t_to > ?)")
    if radius is None:
        return where, [t, t], "p.object_id, p.id", []
    x, y, z = center
    d2 = "((p.cx - ?) * (p.cx - ?) + (p.cy - ?) * (p.cy - ?) + (p.cz - ?) * (p.cz - ?))"
    # the box test lets SQLite discard most rows before the exact (squared) distance test
    where += (" AND p.cx BETWEEN ? AND ? AND p.cy BETWEEN ? AND ? AND p.cz BETWEEN ? AND ?"
              f" AND {d2} <= ?")
    args = [t, t, x - radius, x + radius, y - radius, y + radius, z - radius, z + radius,
            x, x, y, y, z, z, radius * radius]
    return where, args, f"{d2}, p.object_id, p.id", [x, x, y, y, z, z]
