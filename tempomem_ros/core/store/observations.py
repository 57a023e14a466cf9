"""Reads of the observations table: an object's sightings (a page of its history, the first and the last), one
observation, the sources of several, the evidence behind a placement, and the sightings in a span.

Why one place: the records and the evidence every answer cites come from these rows; queries.py, temporal.py
and checks.py each wrote their own copies of these reads (the newest sighting of an object twice).
"""

from __future__ import annotations

from ..rows import OBSERVATION_COLS
from .base import StoreInterface, TableRows, fetch_each


def observation_columns(has_sources: bool) -> str:
    """The observation columns of a read: a read-only store written before schema version 6 has no source
    column and reads as source ''."""
    return OBSERVATION_COLS if has_sources else OBSERVATION_COLS.replace(", source", ", '' AS source")


class ObservationRows(TableRows):
    """Observation rows (``columns``: every column of rows.OBSERVATION_COLS, by name) over one store; nothing
    here writes."""

    def __init__(self, store: StoreInterface, *, has_sources: bool):
        super().__init__(store)
        self.has_sources = has_sources
        self.columns = observation_columns(has_sources)

    def newest_of(self, object_id: int, k: int = -1, offset: int = 0) -> list:
        """The object's observations, newest first (stamp, then id, descending): ``k`` of them (-1: all) after
        skipping the ``offset`` newest."""
        return self._conn.execute(
            f"SELECT {self.columns} FROM observations WHERE object_id=? ORDER BY stamp DESC, id DESC "
            "LIMIT ? OFFSET ?", (int(object_id), k, offset)).fetchall()

    def count_of(self, object_id: int) -> int:
        """How many observations the object holds."""
        return int(self._conn.execute("SELECT COUNT(*) FROM observations WHERE object_id=?",
                                      (int(object_id),)).fetchone()[0])

    def row(self, observation_id: int):
        """One observation's row, or None."""
        return self._conn.execute(f"SELECT {self.columns} FROM observations WHERE id=?",
                                  (int(observation_id),)).fetchone()

    def sources(self, observation_ids) -> dict[int, str]:
        """{id: source} of the given ids that exist (a store without sources: ''); keyed, so unordered."""
        ids = list(observation_ids)
        found: dict[int, str] = {}
        for start in range(0, len(ids), 500):  # bounded IN lists (SQLite's variable limit, plan size)
            chunk = sorted(set(ids[start:start + 500]))
            marks = ",".join("?" * len(chunk))
            column = "source" if self.has_sources else "''"
            for row in self._conn.execute(f"SELECT id, {column} FROM observations WHERE id IN ({marks})", chunk):
                found[int(row[0])] = row[1]
        return found

    def all(self, verdict: str | None = None) -> list:
        """Every observation (or those with ``verdict``), by id."""
        if verdict is None:
            return self._conn.execute(f"SELECT {self.columns} FROM observations ORDER BY id").fetchall()
        return self._conn.execute(f"SELECT {self.columns} FROM observations WHERE verdict=? ORDER BY id",
                                  (verdict,)).fetchall()

    _NEWEST_OF_PLACEMENT = "SELECT id FROM observations WHERE placement_id=? ORDER BY stamp DESC, id DESC LIMIT ?"

    def newest_ids_of_placement(self, placement_id: int, n: int) -> list[int]:
        """Ids of the placement's ``n`` newest observations, newest first (stamp, then id, descending): read from
        the observations_placement index alone (schema version 8)."""
        return [int(r[0]) for r in self._conn.execute(self._NEWEST_OF_PLACEMENT, (placement_id, n)).fetchall()]

    def newest_ids_of_placements(self, placement_ids, n: int) -> list[list[int]]:
        """``[newest_ids_of_placement(p, n) for p in placement_ids]``, on PostgreSQL in one round trip
        (base.fetch_each: the same statement, so the same ids)."""
        return [[int(r[0]) for r in rows] for rows in fetch_each(
            self._conn, self._NEWEST_OF_PLACEMENT, [(p, n) for p in placement_ids])]

    def first_id_of(self, object_id: int) -> int | None:
        """Id of the object's oldest observation (stamp, then id), or None."""
        row = self._conn.execute("SELECT id FROM observations WHERE object_id=? ORDER BY stamp, id LIMIT 1",
                                 (object_id,)).fetchone()
        return int(row[0]) if row else None

    def last_id_of(self, object_id: int) -> int | None:
        """Id of the object's newest observation (stamp, then id), or None."""
        row = self._conn.execute(
            "SELECT id FROM observations WHERE object_id=? ORDER BY stamp DESC, id DESC LIMIT 1",
            (object_id,)).fetchone()
        return int(row[0]) if row else None

    def sightings_in(self, object_ids, lo: float, hi: float) -> list:
        """(id, stamp, object_id) rows of these objects' observations with lo <= stamp <= hi, newest first
        (stamp, then id, descending)."""
        ids = list(object_ids)
        marks = ",".join("?" for _ in ids)
        return self._conn.execute(
            f"SELECT id, stamp, object_id FROM observations WHERE object_id IN ({marks}) AND stamp >= ? AND stamp <= ? "
            "ORDER BY stamp DESC, id DESC", (*ids, lo, hi)).fetchall()
