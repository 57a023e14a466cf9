"""Reading the store into the API's value types: the read helpers every stage shares (queries, temporal
operators, fusion, maintenance).

Why one place: before it, these lived on the Memory class and reached every mixin through ``self``; the
label caches (the writer's superset of shown labels, a read-only memory's list per data_version) and the
column list of an older store are decided here once. The rows themselves come from the table modules of this
package (objects.py, placements.py, regions.py, observations.py); the label reads below are this module's own.
"""

from __future__ import annotations

import numpy as np

from .. import validation
from ..config import MemoryConfig
from ..errors import UnknownIdError
from ..event_names import name_events
from ..labels import label_matches
from ..rows import OBJECT_COLS, event_info, id_chunks, object_info, placement_info
from ..types import ObjectInfo
from .base import StoreInterface, TableRows, fetch_together
from .events import EventRows
from .object_row import ObjectRow, fetch_objects, new_object_row
from .objects import ObjectRows
from .observations import ObservationRows, observation_columns
from .place_labels import PlaceLabelRows
from .placements import PlacementRows
from .regions import RegionRows


class StoreReads(TableRows):
    """Read helpers over one store (no write happens here)."""

    def __init__(self, store: StoreInterface, config: MemoryConfig, *, readonly: bool, has_sources: bool,
                 has_place_labels: bool = True, has_event_links: bool = True):
        super().__init__(store)
        self.config = config
        self.readonly = readonly
        #: whether rows name their source (schema version 6): a read-only store written before reads as source ''
        self.has_sources = has_sources
        self.observation_cols = observation_columns(has_sources)
        self._objects = ObjectRows(store)
        self._placements = PlacementRows(store)
        self._regions = RegionRows(store)
        #: events carry their links to the events that ended their states (schema version 12; a read-only older
        #: store seeks them)
        self._events = EventRows(store, linked=has_event_links)
        self._observations = ObservationRows(store, has_sources=has_sources)
        #: the placements' label tallies (schema version 11; a read-only older store counts its sightings)
        self._place_labels = PlaceLabelRows(store, tallied=has_place_labels)
        self._labels_cache: dict = {}  # state -> (data_version, labels): read-only memories only

    def index_label(self, object_id: int, label: str) -> None:
        """Note a label that some object now shows (keeps the writer's label cache a superset)."""
        if self._store.caches.known_labels is not None:
            self._store.caches.known_labels.add(label)

    def shown_labels(self) -> set[str]:
        """Distinct labels objects show (pinned or canonical). Readers ask SQLite each time (another
        connection may have written); the writer keeps a cache that only grows."""
        if self.readonly or self._store.caches.known_labels is None:
            labels = set(self.distinct_labels(None))
            if self.readonly:
                return labels
            self._store.caches.known_labels = labels
        return self._store.caches.known_labels

    def distinct_labels(self, state: str | None) -> list[str]:
        """Distinct shown labels (of objects in ``state``, or all), sorted.

        Why a loop: a plain SELECT DISTINCT scanned every row (35 ms at 30,000 objects); stepping from
        one label to the next through the (label, state, id) index costs one index seek per label.
        A read-only memory keeps the list until another connection commits (SQLite's data_version):
        semantic queries ask for it every time, and the seeks cost 2.7 ms at 10,000 objects.
        """
        if self.readonly:
            version = self._store.data_version()
            hit = self._labels_cache.get(state)
            if hit is not None and hit[0] == version:
                return hit[1]
            out = self._distinct_labels_uncached(state)
            self._labels_cache[state] = (version, out)
            return out
        return self._distinct_labels_uncached(state)

    def _distinct_labels_uncached(self, state: str | None) -> list[str]:
        """The step from one label to the next as a recursive statement: the server walks the index, label by
        label, in one round trip. Why: on PostgreSQL the loop of one statement per label that this replaced
        waited for the server once per distinct label (about 500 at 10,000 objects in bench_fleet, every
        query of a read-only memory whose robots had committed since: 505-628 of a query's waits, bench_query_trips)."""
        expr = "COALESCE(pinned_label, label)"
        where = "" if state is None else " AND state = ?"
        args: tuple = () if state is None else (state, state)
        step = f"SELECT MIN({expr}) FROM objects INDEXED BY objects_shown_label WHERE {expr} > "
        return [r[0] for r in self._conn.execute(
            f"WITH RECURSIVE shown(label) AS ({step}''{where} UNION ALL "
            f"SELECT ({step}shown.label{where}) FROM shown WHERE shown.label IS NOT NULL) "
            "SELECT label FROM shown WHERE label IS NOT NULL ORDER BY label", args).fetchall()]

    def objects_labelled(self, query: str, states: tuple[str, ...]) -> list[ObjectRow]:
        """Rows of objects in ``states`` whose shown label contains the query's words, by id (indexed)."""
        labels = sorted(lbl for lbl in self.shown_labels() if label_matches(query, lbl))
        if not labels:
            return []
        marks = ",".join("?" for _ in labels)
        smarks = ",".join("?" for _ in states)
        return fetch_objects(self._conn.execute(
            f"SELECT {OBJECT_COLS} FROM objects WHERE COALESCE(pinned_label, label) IN ({marks}) "
            f"AND state IN ({smarks}) ORDER BY id", (*labels, *states)))

    def row_or_raise(self, object_id, name: str = "object id") -> ObjectRow:
        if isinstance(object_id, bool) or not isinstance(object_id, (int, np.integer)):
            raise UnknownIdError(f"{name} must be an integer, got {object_id!r}")
        validation.id_in_range(object_id, name)
        row = self._objects.row(object_id)
        if row is None:
            raise UnknownIdError(f"unknown object id {object_id}")
        return row

    def object_infos(self, rows: list[ObjectRow], regions: dict[int, str] | None = None) -> list[ObjectInfo]:
        """The rows as ObjectInfo, with their label mass and region label (``regions``: region_labels() read
        once by a caller that describes several objects, or read here)."""
        return self.described(rows, regions)[0]

    def described(self, rows: list[ObjectRow], regions: dict[int, str] | None = None) -> tuple[list[ObjectInfo],
                                                                                              dict[int, str]]:
        """(object_infos(rows, regions), the region labels used): for a caller that describes placements too."""
        _, regions, masses = self._describe_reads([int(r.id) for r in rows], regions, [])
        return [self._info(r, regions, masses) for r in rows], regions

    def rows_described(self, ids, states: tuple[str, ...] | None = None, *, also=()) -> tuple[
            list[ObjectRow], list[ObjectInfo], list[ObjectInfo], dict[int, str]]:
        """(ObjectRows.rows(ids, states), their object_infos, object_infos of the rows ``also``, the region labels):
        the rows, the region labels and the label mass of ``ids`` and of ``also``'s ids read in one round trip on
        PostgreSQL (base.fetch_together), each its own statement. Why: an answer read its objects' rows, then what
        describes them (scene_as_of, relational: 2 of their waits). Label mass read for an id whose row is not
        returned (not in ``states``, unknown) is not used: each row's label mass is the one object_infos reads."""
        also = list(also)
        row_reads = ObjectRows.rows_reads(ids, states)
        wanted = sorted({int(i) for i in ids} | {int(r.id) for r in also})
        first, regions, masses = self._describe_reads(wanted, None, row_reads)
        rows = [new_object_row(r) for chunk in first for r in chunk]
        return (rows, [self._info(r, regions, masses) for r in rows], [self._info(r, regions, masses) for r in also],
                regions)

    def _describe_reads(self, ids: list[int], regions: dict[int, str] | None, first: list) -> tuple[list, dict, dict]:
        """``first`` (reads sent before them), the region labels (unless given) and the label mass of ``ids``, in
        one round trip on PostgreSQL (base.fetch_together): (the rows of each of ``first``, the region labels, the
        label mass by id). They were two or three waits of every answer that describes objects
        (bench/fleet_round_trips.py)."""
        reads = list(first) + ([(RegionRows.LABELS, ())] if regions is None else [])
        reads += [(f"SELECT object_id, label, mass FROM label_mass WHERE object_id IN ({marks}) "
                   "ORDER BY object_id, label", chunk) for chunk, marks in id_chunks(ids)]
        got = fetch_together(self._conn, reads)
        rest = got[len(first):]
        if regions is None:
            regions = RegionRows.labels_of(rest.pop(0))
        masses: dict[int, dict[str, float]] = {i: {} for i in ids}
        for chunk_rows in rest:
            for oid, lbl, m in chunk_rows:
                masses[int(oid)][lbl] = m
        return got[:len(first)], regions, masses

    @staticmethod
    def _info(r: ObjectRow, regions: dict[int, str], masses: dict[int, dict[str, float]]) -> ObjectInfo:
        return object_info(r, region_label=regions.get(int(r.region_id or 0), ""), label_mass=masses[int(r.id)])

    def region_labels(self) -> dict[int, str]:
        return self._regions.labels()

    def placement_infos(self, rows, regions: dict[int, str] | None = None) -> list:
        regions = self.region_labels() if regions is None else regions
        return [placement_info(r, region_label=regions.get(int(r["region_id"] or 0), "")) for r in rows]

    def placement_by_id(self, placement_id):
        if placement_id is None:
            return None
        row = self._placements.row(placement_id)
        return None if row is None else self.placement_infos([row])[0]

    def _one_look_places(self, placement_ids) -> list[int]:
        """The placements seen in one look (event_names: within fusion.label_look_gap_s), none with
        identity.one_look_name off."""
        if not self.config.identity.one_look_name:
            return []
        return self._placements.seen_within(placement_ids, self.config.fusion.label_look_gap_s)

    def events_from_rows(self, rows) -> list:
        """Events as read: each named by event_names' rule (the stored label stays in published_label)."""
        rows = list(rows)
        names = {}
        if rows:
            ids = {int(r["object_id"]) for r in rows}
            current = self._objects.shown_labels(ids)
            names = name_events(rows, current, self._events.following, self._place_labels.kept_by_label,
                                self.config.identity.label_share, event_rows=self._events.by_ids,
                                one_look_places=self._one_look_places)
        placements = self._placements.by_ids(
            {int(r[k]) for r in rows for k in ("before_id", "after_id") if r[k] is not None})
        regions = self.region_labels() if placements else {}

        def info(placement_id):  # the event's placement as placement_by_id gives it: one statement for all
            row = None if placement_id is None else placements.get(int(placement_id))
            return None if row is None else self.placement_infos([row], regions)[0]
        return [event_info(r, info(r["before_id"]), info(r["after_id"]), label=names.get(int(r["id"])))
                for r in rows]
