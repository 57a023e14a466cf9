"""Keeping the relation rows in step with the objects a commit touched (rules in relations.py): a stage
of its own, on the store and the relation settings only.

Why incremental: recomputing every pair after every commit is quadratic in the map; only the touched
objects can have changed relations, and their partners are found through the spatial index. A relation
that stops holding is closed (until = stamp), never deleted.
"""

from __future__ import annotations

from .config import RelationConfig
from .relations import Thing, pair_relations
from .store import StoreInterface
from .store.object_row import ObjectRow
from .store.objects import ObjectRows
from .store.regions import RegionRows
from .store.relations import RelationRows


def thing(row: ObjectRow) -> Thing:
    """The relation rules' view of an object row."""
    return Thing(int(row.id), row.pinned_label or row.label, (row.min_x, row.min_y, row.min_z),
                 (row.max_x, row.max_y, row.max_z), (row.cx, row.cy, row.cz), float(row.confidence), row.zt, row.zb)


def _ends(key: tuple) -> tuple[int, ...]:
    """The objects whose open rows (RelationRows.open_keys_of) include a relation row of this key: its subject,
    and its object unless that is a region."""
    subject, _, obj, is_region = key
    return (subject,) if is_region or obj == subject else (subject, obj)


class OpenRowsAhead:
    """The open relation rows of every object of one RelationKeeper.update, read before its loop in one round trip,
    then kept in step with the loop's writes: a row the loop closes leaves the list of each object at its ends, a
    row it opens joins them (its id unknown: None). So ``keys_of`` answers what open_keys_of would read at that
    point of the loop; update() reads the store instead when a row with an unknown id must close."""

    def __init__(self, rows_of: dict[int, list[tuple[int, tuple]]]):
        self._rows = {int(oid): [list(r) for r in rows] for oid, rows in rows_of.items()}

    def keys_of(self, object_id: int) -> dict[tuple, int | None]:
        existing: dict[tuple, int | None] = {}
        for rel_id, key in self._rows[int(object_id)]:
            existing[key] = rel_id  # as open_keys_of: a key read twice keeps its last row
        return existing

    def closed(self, rel_id: int, key: tuple) -> None:
        for end in _ends(key):
            rows = self._rows.get(end)
            if rows is None:
                continue
            for i, (have, have_key) in enumerate(rows):
                if have_key == key and have in (rel_id, None):
                    del rows[i]
                    break

    def opened(self, key: tuple) -> None:
        for end in _ends(key):
            if end in self._rows:
                self._rows[end].append([None, key])


class RelationKeeper:
    """Opens and closes relation rows (and region membership) inside the caller's transaction."""

    def __init__(self, store: StoreInterface, config: RelationConfig):
        self._store = store
        self.config = config
        self._object_rows = ObjectRows(store)
        self._relation_rows = RelationRows(store)
        self._region_rows = RegionRows(store)

    def region_of(self, center) -> int:
        """The smallest region containing the point (ties -> lowest id), 0 when none."""
        return self._region_rows.smallest_containing(center)

    def regions_containing(self, center) -> list[int]:
        return self._region_rows.containing(center)

    def update(self, touched: set[int], stamp: float, changed_at: dict[int, float] | None = None) -> int:
        """Recompute relations of the touched objects; returns the number of rows opened or closed.
        ``changed_at``: when an object's move or removal of this commit happened (its relations change then)."""
        cfg = self.config
        reach = cfg.near_distance + 0.01
        changes = 0
        changed_at = changed_at or {}
        ahead = self._read_ahead(sorted(touched), reach)
        for oid in sorted(touched):
            # a relation holds as long as the placements behind it: one that ends with a removal ends at its
            # first miss, one that starts with a move found later (settling.py) starts when it was first seen
            when = min(stamp, changed_at.get(oid, stamp))
            row = ahead[0].get(oid) if ahead else self._object_rows.row(oid)
            existing = ahead[3].keys_of(oid) if ahead else self._relation_rows.open_keys_of(oid)
            desired: dict[tuple, float] = {}
            if row is not None and row.state == "present":
                t = thing(row)
                self._store.caches.relation_boxes[oid] = (*t.bmin, *t.bmax)
                lo = [row.min_x - reach, row.min_y - reach, row.min_z - reach]
                hi = [row.max_x + reach, row.max_y + reach, row.max_z + reach]
                around = [n for n in ahead[1][oid] if n.id != oid] if ahead else \
                    self._store.objects_in_box(lo, hi, ("present",), exclude_id=oid)
                for nrow in around:
                    n = thing(nrow)
                    for rel in pair_relations(t, n, cfg):
                        desired[rel] = round(t.confidence * n.confidence, 6)
                for region_id in (ahead[2][oid] if ahead else self.regions_containing(t.center)):
                    desired[(oid, "in", region_id, 1)] = round(t.confidence, 6)
            if ahead and any(rel_id is None and key not in desired for key, rel_id in existing.items()):
                # a row this loop opened for an earlier object must close, and only the store knows its id (not
                # met with the rules of relations.py, which are symmetric: both ends of a pair desire the same rows;
                # tested with rules patched to be one-sided)
                existing = self._relation_rows.open_keys_of(oid)
            for key, rel_id in existing.items():
                if key not in desired:
                    self._relation_rows.close(rel_id, when)
                    if ahead:
                        ahead[3].closed(rel_id, key)
                    changes += 1
            for key in sorted(desired):
                if key not in existing:
                    self._relation_rows.open(key, desired[key], when)
                    if ahead:
                        ahead[3].opened(key)
                    changes += 1
        return changes

    def _read_ahead(self, ids: list[int], reach: float):
        """On PostgreSQL (Store.reads_in_batches), what update() reads for each object, in four round trips for
        all of them: the rows, the present objects around each present one, the regions holding its centre, and
        its open relation rows. update() writes only relations, so the first three are what it would read one by
        one (4 waits an object: 80 of a commit's 106 with four robots, whose commits drop each other's caches,
        bench_fleet); the open rows are kept in step with the loop's own writes (OpenRowsAhead), which took the
        last 20 of a commit's 50 waits. None on SQLite."""
        if not self._store.reads_in_batches or not ids:
            return None
        rows = {int(r.id): r for r in self._object_rows.rows(ids)}
        present = [oid for oid in ids if oid in rows and rows[oid].state == "present"]
        boxes = [([rows[o].min_x - reach, rows[o].min_y - reach, rows[o].min_z - reach],
                  [rows[o].max_x + reach, rows[o].max_y + reach, rows[o].max_z + reach]) for o in present]
        around = dict(zip(present, self._store.objects_in_boxes(boxes, ("present",))))
        regions = dict(zip(present, self._region_rows.containing_each([thing(rows[o]).center for o in present])))
        return rows, around, regions, OpenRowsAhead(dict(zip(ids, self._relation_rows.open_rows_of_each(ids))))

    def refresh_region(self, region_id: int, stamp: float) -> None:
        """After a region is defined: every present object inside it gains the 'in' row."""
        reg = self._region_rows.row(region_id)
        for r in self._object_rows.present_centred_in(reg):
            self._relation_rows.open_region_membership(r.id, region_id, round(float(r.confidence), 6), stamp)
            self._region_rows.assign(r.id, self.region_of((r.cx, r.cy, r.cz)))
