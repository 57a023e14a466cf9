"""Keeping the relation rows in step with the objects a commit touched (rules in relations.py): a stage
of its own, on the store and the relation settings only.

Why incremental: recomputing every pair after every commit is quadratic in the map; only the touched
objects can have changed relations, and their partners are found through the spatial index. A relation
that stops holding is closed (until = stamp), never deleted.
"""

from __future__ import annotations

from .config import RelationConfig
from .relations import Thing, pair_relations
from .rows import OBJECT_COLS
from .store import StoreInterface


def thing(row) -> Thing:
    """The relation rules' view of an object row."""
    return Thing(int(row["id"]), row["pinned_label"] or row["label"],
                 (row["min_x"], row["min_y"], row["min_z"]), (row["max_x"], row["max_y"], row["max_z"]),
                 (row["cx"], row["cy"], row["cz"]), float(row["confidence"]), row["zt"], row["zb"])


class RelationKeeper:
    """Opens and closes relation rows (and region membership) inside the caller's transaction."""

    def __init__(self, store: StoreInterface, config: RelationConfig):
        self._store = store
        self.config = config

    @property
    def _conn(self):
        return self._store.conn

    def region_of(self, center) -> int:
        """The smallest region containing the point (ties -> lowest id), 0 when none."""
        row = self._conn.execute(
            "SELECT id FROM regions WHERE ? BETWEEN min_x AND max_x AND ? BETWEEN min_y AND max_y "
            "AND ? BETWEEN min_z AND max_z ORDER BY (max_x-min_x)*(max_y-min_y)*(max_z-min_z), id LIMIT 1",
            (float(center[0]), float(center[1]), float(center[2]))).fetchone()
        return 0 if row is None else int(row[0])

    def regions_containing(self, center) -> list[int]:
        return [int(r[0]) for r in self._conn.execute(
            "SELECT id FROM regions WHERE ? BETWEEN min_x AND max_x AND ? BETWEEN min_y AND max_y "
            "AND ? BETWEEN min_z AND max_z ORDER BY id", (float(center[0]), float(center[1]), float(center[2])))]

    def update(self, touched: set[int], stamp: float, changed_at: dict[int, float] | None = None) -> int:
        """Recompute relations of the touched objects; returns the number of rows opened or closed.
        ``changed_at``: when an object's move or removal of this commit happened (its relations change then)."""
        cfg = self.config
        reach = cfg.near_distance + 0.01
        changes = 0
        changed_at = changed_at or {}
        for oid in sorted(touched):
            # a relation holds as long as the placements behind it: one that ends with a removal ends at its
            # first miss, one that starts with a move found later (reconcile.py) starts when it was first seen
            when = min(stamp, changed_at.get(oid, stamp))
            row = self._conn.execute(f"SELECT {OBJECT_COLS} FROM objects WHERE id=?", (oid,)).fetchone()
            existing = {}
            # Two indexed lookups (an OR across the two partial indexes made SQLite scan the whole table).
            for r in self._conn.execute(
                    "SELECT id, subject_id, relation, object_id, object_is_region FROM relations "
                    "WHERE until IS NULL AND subject_id=? UNION ALL "
                    "SELECT id, subject_id, relation, object_id, object_is_region FROM relations "
                    "WHERE until IS NULL AND object_id=? AND object_is_region=0 AND subject_id != ?",
                    (oid, oid, oid)):
                existing[(r[1], r[2], r[3], r[4])] = r[0]
            desired: dict[tuple, float] = {}
            if row is not None and row["state"] == "present":
                t = thing(row)
                self._store.caches.relation_boxes[oid] = (*t.bmin, *t.bmax)
                lo = [row["min_x"] - reach, row["min_y"] - reach, row["min_z"] - reach]
                hi = [row["max_x"] + reach, row["max_y"] + reach, row["max_z"] + reach]
                for nrow in self._store.objects_in_box(lo, hi, ("present",), exclude_id=oid):
                    n = thing(nrow)
                    for rel in pair_relations(t, n, cfg):
                        desired[rel] = round(t.confidence * n.confidence, 6)
                for region_id in self.regions_containing(t.center):
                    desired[(oid, "in", region_id, 1)] = round(t.confidence, 6)
            for key, rel_id in existing.items():
                if key not in desired:
                    self._conn.execute("UPDATE relations SET until=MAX(since, ?) WHERE id=?", (when, rel_id))
                    changes += 1
            for key in sorted(desired):
                if key not in existing:
                    self._conn.execute(
                        "INSERT INTO relations (subject_id, relation, object_id, object_is_region, confidence, since) "
                        "VALUES (?,?,?,?,?,?)", (*key, desired[key], when))
                    changes += 1
        return changes

    def refresh_region(self, region_id: int, stamp: float) -> None:
        """After a region is defined: every present object inside it gains the 'in' row."""
        reg = self._conn.execute("SELECT * FROM regions WHERE id=?", (region_id,)).fetchone()
        rows = self._conn.execute(
            f"SELECT {OBJECT_COLS} FROM objects WHERE state='present' AND cx BETWEEN ? AND ? AND cy BETWEEN ? AND ? "
            "AND cz BETWEEN ? AND ? ORDER BY id",
            (reg["min_x"], reg["max_x"], reg["min_y"], reg["max_y"], reg["min_z"], reg["max_z"])).fetchall()
        for r in rows:
            self._conn.execute(
                "INSERT INTO relations (subject_id, relation, object_id, object_is_region, confidence, since) "
                "VALUES (?,?,?,1,?,?)", (r["id"], "in", region_id, round(float(r["confidence"]), 6), stamp))
            new_region = self.region_of((r["cx"], r["cy"], r["cz"]))
            self._conn.execute("UPDATE objects SET region_id=? WHERE id=?", (new_region, r["id"]))
            self._conn.execute("UPDATE placements SET region_id=? WHERE object_id=? AND current=1",
                               (new_region, r["id"]))
