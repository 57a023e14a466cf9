"""Reads of the objects table (and of the tombstones forgotten objects leave): object rows by id, by state, by
region, the label groups semantic queries rank, and the counts the memory reports.

Why here: the same row reads were written in queries.py, temporal.py, the relation keeper, the scene feed
and memory.py; each is one named method now, in the order its docstring states (by id unless it says so).
"""

from __future__ import annotations

from ..rows import OBJECT_COLS, id_chunks
from .base import TableRows
from .object_row import ObjectRow, fetch_object, fetch_objects

_SHOWN = "COALESCE(pinned_label, label)"  # the label an object shows: pinned by a person, else the fused one


class ObjectRows(TableRows):
    """Object rows (ObjectRow: every column of rows.OBJECT_COLS) and counts over one store; nothing here writes."""

    # ------------------------------------------------------------------ rows
    def row(self, object_id: int) -> ObjectRow | None:
        """The object's row (any state), or None."""
        return fetch_object(self._conn.execute(f"SELECT {OBJECT_COLS} FROM objects WHERE id=?", (int(object_id),)))

    def row_if_shown(self, object_id: int) -> ObjectRow | None:
        """The object's row if it is present or missing, else None."""
        return fetch_object(self._conn.execute(
            f"SELECT {OBJECT_COLS} FROM objects WHERE id=? AND state IN ('present', 'missing')", (object_id,)))

    def id_if_not_forgotten(self, object_id: int) -> int | None:
        """The id back if the object exists and is not forgotten, else None."""
        row = self._conn.execute("SELECT id FROM objects WHERE id=? AND state != 'forgotten'",
                                 (int(object_id),)).fetchone()
        return None if row is None else int(row[0])

    def rows(self, ids, states: tuple[str, ...] | None = None) -> list[ObjectRow]:
        """Rows of these ids (optionally only those in ``states``), by id; unknown ids are left out."""
        out: list[ObjectRow] = []
        for sql, params in self.rows_reads(ids, states):
            out += fetch_objects(self._conn.execute(sql, params))
        return out

    @staticmethod
    def rows_reads(ids, states: tuple[str, ...] | None = None) -> list[tuple[str, tuple]]:
        """rows()' statements and parameters, one per chunk of ids (StoreReads.rows_described sends them with the
        reads that describe the rows); their rows, in order, as ObjectRow (object_row._new), are rows()'."""
        out = []
        for chunk, marks in id_chunks(sorted(set(int(i) for i in ids))):
            if states is None:
                out.append((f"SELECT {OBJECT_COLS} FROM objects WHERE id IN ({marks}) ORDER BY id", tuple(chunk)))
            else:
                out.append((f"SELECT {OBJECT_COLS} FROM objects WHERE id IN ({marks}) AND state IN "
                            f"({','.join('?' * len(states))}) ORDER BY id", (*chunk, *states)))
        return out

    def shown_labels(self, ids) -> dict[int, str]:
        """{id: the label the object is shown under (its pinned label, else its label)} of these ids (unknown ids
        are left out). Why not rows(): naming the changes of day 1 of bench_long_run read every column of their
        objects for this alone, 92.1 of the call's 214.4 VM steps x100 (docs/RESULTS.md section 6, round 12)."""
        out: dict[int, str] = {}
        for chunk, marks in id_chunks(sorted({int(i) for i in ids})):
            for r in self._conn.execute(f"SELECT id, label, pinned_label FROM objects WHERE id IN ({marks})",
                                        chunk).fetchall():
                out[int(r[0])] = r[2] or r[1]
        return out

    def all(self, state: str | None = None) -> list[ObjectRow]:
        """Every object (any state), or those in ``state``, by id."""
        if state is None:
            return fetch_objects(self._conn.execute(f"SELECT {OBJECT_COLS} FROM objects ORDER BY id"))
        return fetch_objects(self._conn.execute(f"SELECT {OBJECT_COLS} FROM objects WHERE state=? ORDER BY id",
                                                (state,)))

    def in_states(self, states: tuple[str, ...]) -> list[ObjectRow]:
        """Every object in one of ``states``, by id."""
        return fetch_objects(self._conn.execute(f"SELECT {OBJECT_COLS} FROM objects WHERE state IN "
                                                f"({','.join('?' * len(states))}) ORDER BY id", tuple(states)))

    def present_centred_in(self, box) -> list[ObjectRow]:
        """Present objects whose centroid lies in ``box`` (a row with min_x .. max_z: a region), by id."""
        return fetch_objects(self._conn.execute(
            f"SELECT {OBJECT_COLS} FROM objects WHERE state='present' AND cx BETWEEN ? AND ? AND cy BETWEEN ? AND ? "
            "AND cz BETWEEN ? AND ? ORDER BY id",
            (box["min_x"], box["max_x"], box["min_y"], box["max_y"], box["min_z"], box["max_z"])))

    def present_boxes(self) -> list[tuple]:
        """(id, min_x, min_y, min_z, max_x, max_y, max_z) of every present object, by id."""
        return [tuple(r) for r in self._conn.execute(
            "SELECT id, min_x, min_y, min_z, max_x, max_y, max_z FROM objects WHERE state='present' ORDER BY id")]

    # ------------------------------------------------------------------ label groups (semantic queries)
    def count_present_labelled(self, label: str) -> int:
        """How many present objects show exactly ``label``."""
        return int(self._conn.execute(
            f"SELECT COUNT(*) FROM objects WHERE state='present' AND {_SHOWN}=?", (label,)).fetchone()[0])

    def present_ids_labelled(self, label: str, limit: int | None = None) -> list[int]:
        """Ids of the present objects showing exactly ``label``, ascending; the first ``limit`` of them."""
        cap = "" if limit is None else f" LIMIT {int(limit)}"
        return [int(r[0]) for r in self._conn.execute(
            f"SELECT id FROM objects WHERE state='present' AND {_SHOWN}=? ORDER BY id{cap}", (label,))]

    def shown_labels_of(self, ids) -> list[tuple[int, str]]:
        """(id, shown label) of these ids (any state), by id; unknown ids are left out."""
        out: list[tuple[int, str]] = []
        for chunk, marks in id_chunks(sorted(set(int(i) for i in ids))):
            out += [(int(oid), lbl) for oid, lbl in self._conn.execute(
                f"SELECT id, {_SHOWN} FROM objects WHERE id IN ({marks}) ORDER BY id", chunk)]
        return out

    # ------------------------------------------------------------------ counts
    def count_present_with_feature(self) -> int:
        """Present objects that hold a feature vector (the rows of the exact semantic matrix)."""
        return int(self._conn.execute(
            "SELECT COUNT(*) FROM objects WHERE state='present' AND feature IS NOT NULL").fetchone()[0])

    def count_active(self) -> int:
        """Present + missing + tentative objects (a full count: the writer caches it, Memory._count_objects)."""
        return int(self._conn.execute(
            "SELECT COUNT(*) FROM objects WHERE state IN ('present','missing','tentative')").fetchone()[0])

    # ------------------------------------------------------------------ tombstones
    def tombstones(self) -> list:
        """Every tombstone row (active or not, any kind), by id."""
        return self._conn.execute("SELECT * FROM tombstones ORDER BY id").fetchall()
