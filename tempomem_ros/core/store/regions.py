"""The regions a person defined (rooms, shelves: named boxes) and which region an object stands in.

Why one place: queries (regions, contents, "in the kitchen"), the shared read helpers (region labels of every
answer) and the relation keeper (region membership) read the same rows.
"""

from __future__ import annotations

from .base import TableRows


class RegionRows(TableRows):
    """Region rows (every column of the regions table, by name) over one store; ``assign`` is its one write,
    made inside the caller's transaction."""

    def all(self) -> list:
        """Every region, by id."""
        return self._conn.execute("SELECT * FROM regions ORDER BY id").fetchall()

    def row(self, region_id: int):
        """One region's row, or None."""
        return self._conn.execute("SELECT * FROM regions WHERE id=?", (int(region_id),)).fetchone()

    LABELS = "SELECT id, label FROM regions"

    def labels(self) -> dict[int, str]:
        """{region id: label} of every region."""
        return self.labels_of(self._conn.execute(self.LABELS))

    @staticmethod
    def labels_of(rows) -> dict[int, str]:
        """LABELS' rows as labels() returns them."""
        return {int(i): lbl for i, lbl in rows}

    def smallest_containing(self, center) -> int:
        """The smallest region containing the point (ties -> lowest id), 0 when none."""
        row = self._conn.execute(
            "SELECT id FROM regions WHERE ? BETWEEN min_x AND max_x AND ? BETWEEN min_y AND max_y "
            "AND ? BETWEEN min_z AND max_z ORDER BY (max_x-min_x)*(max_y-min_y)*(max_z-min_z), id LIMIT 1",
            (float(center[0]), float(center[1]), float(center[2]))).fetchone()
        return 0 if row is None else int(row[0])

    _CONTAINING = ("SELECT id FROM regions WHERE ? BETWEEN min_x AND max_x AND ? BETWEEN min_y AND max_y "
                   "AND ? BETWEEN min_z AND max_z ORDER BY id")

    def containing(self, center) -> list[int]:
        """Ids of every region containing the point, ascending."""
        return [int(r[0]) for r in self._conn.execute(
            self._CONTAINING, (float(center[0]), float(center[1]), float(center[2])))]

    def containing_each(self, centers) -> list[list[int]]:
        """``[containing(c) for c in centers]``: every region's box read in one statement, and each centre tested
        against each box as BETWEEN does (both bounds inclusive; the same doubles, so the same answers), ids
        ascending. Why: the relation keeper asks it for every touched object; one statement per object was 20 a
        commit on PostgreSQL (5.2 of a 134 ms commit with two writers at 10,000 objects, bench_round_trips --by
        time), for a table that holds a few rooms."""
        points = [(float(c[0]), float(c[1]), float(c[2])) for c in centers]
        if not points:
            return []
        boxes = [(int(r[0]), r[1:]) for r in self._conn.execute(
            "SELECT id, min_x, max_x, min_y, max_y, min_z, max_z FROM regions ORDER BY id").fetchall()]
        return [[rid for rid, (x0, x1, y0, y1, z0, z1) in boxes if x0 <= x <= x1 and y0 <= y <= y1 and z0 <= z <= z1]
                for x, y, z in points]

    def assign(self, object_id: int, region_id: int) -> None:
        """Record ``region_id`` as the region of the object and of its current placement."""
        self._conn.execute("UPDATE objects SET region_id=? WHERE id=?", (region_id, object_id))
        self._conn.execute("UPDATE placements SET region_id=? WHERE object_id=? AND current=1",
                           (region_id, object_id))
