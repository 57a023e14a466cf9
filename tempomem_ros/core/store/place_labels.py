"""Label tallies of placements (schema version 11): per placement and label, the sightings kept and those thinned.

Why: a past change is named with the views at the place it announced (event_names.may_take_next weighs the
labels of the place's sightings). Counting them meant reading every kept sighting of every place asked, and
naming the changes of day 1 on day 30 of bench_long_run asks the places of every day-1 state that has ended since
(18 places on day 1, 75 on day 30; the label counts 52.0 -> 257.8 VM steps x100 a call, docs/RESULTS.md section 6,
round 9). With the tally a place's labels are a keyed read of its few rows, whatever its sample.

What a row holds: ``kept``, the sightings stored at the placement under the label (what the naming weighs: the
kept sample speaks, as before this version, so every name stays what it was); ``thinned``, those a retention pass
thinned away, still counted under the label they were read with, so "how many times was it seen there as a
mug" stays exact after thinning. Sightings thinned before version 11 lost their labels (the tallies keep ids and
stamps only): the migration counts them under the label '' (UNKNOWN_LABEL), exactly as many as the tallies hold.

How it is kept: by triggers on observations (schema.PLACE_LABEL_TRIGGERS, postgres/schema.py), so every write
that inserts a sighting, fuses it to a placement, re-points it (twin joins, merges, duplicates consolidated, a
move rehomed or reconciled, a placement resplit) or thins it keeps the tally, whichever code path writes it; the
thinned counts follow the sighting tallies when those move (RetentionRows.rehome_tallies / repoint_tallies), as
the thinned sightings they count do. A DELETE of an observation is a thinning (retention_rows.delete_observations
is the only one).
"""

from __future__ import annotations

from ..rows import id_chunks
from .base import StoreInterface, TableRows

#: The label of sightings thinned before schema version 11 (their labels were not kept)
UNKNOWN_LABEL = ""

#: The thinned sightings of each placement by the sighting tallies (a store written before version 11)
THINNED_FROM_TALLIES = ("SELECT placement_id, '', SUM(n) FROM tallies WHERE kind='sighting' AND placement_id IS NOT "
                        "NULL GROUP BY placement_id")
#: Add (placement_id, label, thinned) rows to the tally (the row made when missing)
ADD_THINNED = ("INSERT INTO place_labels (placement_id, label, kept, thinned) VALUES (?, ?, 0, ?) "
               "ON CONFLICT (placement_id, label) DO UPDATE SET thinned = place_labels.thinned + excluded.thinned")


class PlaceLabelRows(TableRows):
    """Reads of the placements' label tallies. ``tallied``: the store has them (version 11 or later); a store
    read as it is (read-only, older) counts its observations instead, which is what the tallies' ``kept`` is."""

    def __init__(self, store: StoreInterface, *, tallied: bool):
        super().__init__(store)
        self.tallied = tallied

    def kept_by_label(self, placement_ids) -> dict[int, dict[str, int]]:
        """{placement id: {label: its kept sightings read under that label}} (those with none are absent)."""
        out: dict[int, dict[str, int]] = {}
        sql = ("SELECT placement_id, label, kept FROM place_labels WHERE placement_id IN ({}) AND kept > 0"
               if self.tallied else
               "SELECT placement_id, label, COUNT(*) FROM observations WHERE placement_id IN ({}) "
               "GROUP BY placement_id, label")
        for chunk, marks in id_chunks(sorted({int(p) for p in placement_ids})):
            for r in self._conn.execute(sql.format(marks), tuple(chunk)).fetchall():
                out.setdefault(int(r[0]), {})[str(r[1])] = int(r[2])
        return out

    def counts(self, placement_ids) -> dict[int, dict[str, tuple[int, int]]]:
        """{placement id: {label: (kept, thinned)}} of the rows with either (a tallied store only)."""
        out: dict[int, dict[str, tuple[int, int]]] = {}
        for chunk, marks in id_chunks(sorted({int(p) for p in placement_ids})):
            for r in self._conn.execute(
                    f"SELECT placement_id, label, kept, thinned FROM place_labels WHERE placement_id IN ({marks}) "
                    "AND (kept > 0 OR thinned > 0)", tuple(chunk)).fetchall():
                out.setdefault(int(r[0]), {})[str(r[1])] = (int(r[2]), int(r[3]))
        return out


def thinned_rows(conn, tallied: bool) -> list[tuple]:
    """(placement_id, label, thinned) of a store's thinned sightings: its tallies' rows, or for a store written
    before version 11 its sighting tallies' counts under UNKNOWN_LABEL (a copy keeps them: recovery, transfer)."""
    sql = ("SELECT placement_id, label, thinned FROM place_labels WHERE thinned > 0" if tallied
           else THINNED_FROM_TALLIES)
    return [(int(r[0]), str(r[1]), int(r[2])) for r in conn.execute(sql).fetchall()]


def add_thinned(conn, rows) -> None:
    """Count these (placement_id, label, thinned) rows in the tallies (kept comes from the observations)."""
    conn.executemany(ADD_THINNED, [tuple(r) for r in rows])


__all__ = ["PlaceLabelRows", "UNKNOWN_LABEL", "THINNED_FROM_TALLIES", "thinned_rows", "add_thinned"]
