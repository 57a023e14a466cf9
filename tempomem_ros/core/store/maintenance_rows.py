"""The statements only maintenance runs (core/maintenance.py): label corrections, regions, decay, consolidation
and resplitting, behind named methods. The primitives it shares with fusion and the settling step (placements,
label mass, events, tombstones, retiring an object, sightings re-pointed, an object's span of sightings widened) are
GraphWrites'.

Why a module of its own: the Maintenance service decides (which objects decay, which two are duplicates, how a
placement's sightings cluster); the rows it reads and writes are this module's, so nothing above the store
layer writes SQL. Each method runs inside the caller's ``Store.transaction()`` (the readers: in or outside one).
Reads come back in a stated order: the memory is deterministic only if every read that feeds a decision is.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ..rows import OBJECT_COLS
from .base import StoreInterface, TableRows
from .object_row import ObjectRow, fetch_objects


class MaintenanceRows(TableRows):
    """Rows of objects, sightings, placements, label history and regions as maintenance reads and writes them."""

    def __init__(self, store: StoreInterface, *, wall_clock: Callable[[], float]):
        super().__init__(store)
        self._wall_clock = wall_clock

    # ---------------------------------------------------------------- objects
    def objects_in(self, states: tuple[str, ...]) -> list[ObjectRow]:
        """Every object row in ``states``, by id."""
        marks = ",".join("?" for _ in states)
        return fetch_objects(self._conn.execute(
            f"SELECT {OBJECT_COLS} FROM objects WHERE state IN ({marks}) ORDER BY id", tuple(states)))

    def set_confidence(self, object_id: int, confidence: float) -> None:
        self._conn.execute("UPDATE objects SET confidence=? WHERE id=?", (confidence, object_id))

    def shown_label(self, object_id: int) -> str:
        """The object's label as fusion last settled it (not the pinned one)."""
        return self._conn.execute("SELECT label FROM objects WHERE id=?", (object_id,)).fetchone()[0]

    def set_fused_state(self, object_id: int, box_mid, center, lo, hi, weight, ext, feature_blob, feature_weight,
                        base: float, n_observations: int, label: str) -> None:
        """An object's fused state as a rebuild computed it (confidence = the fused base confidence)."""
        self._conn.execute(
            "UPDATE objects SET cx=?, cy=?, cz=?, mx=?, my=?, mz=?, min_x=?, min_y=?, min_z=?, max_x=?, max_y=?, "
            "max_z=?, weight=?, ext_x=?, ext_y=?, ext_z=?, feature=?, feature_weight=?, base_confidence=?, "
            "confidence=?, n_observations=?, label=?, vec_dirty=1 WHERE id=?",
            (*box_mid, *center, *lo, *hi, weight, *ext, feature_blob, feature_weight, base, base, n_observations,
             label, object_id))

    def insert_split_object(self, label: str, first_seen: float, last_seen: float, n_observations: int, *,
                            split_from: int) -> int:
        """A new present object split off ``split_from``, with an empty box until its rebuild. The writer's count of
        active objects is dropped (recounted at the next commit), and so is the cached label mass of
        ``split_from``, whose sightings are about to leave it."""
        cur = self._conn.execute(
            "INSERT INTO objects (label, confidence, base_confidence, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, "
            "max_z, weight, ext_x, ext_y, ext_z, feature, feature_weight, state, first_seen, last_seen, "
            "n_observations, n_moves, misses, region_id, created_wall) "
            "VALUES (?,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,NULL,0,'present',?,?,?,0,0,0,?)",
            (label, first_seen, last_seen, n_observations, self._wall_clock()))
        new_id = int(cur.lastrowid)
        caches = self._store.caches
        caches.n_active = None
        caches.label_mass.pop(int(split_from), None)
        return new_id

    # ---------------------------------------------------------------- sightings
    def observation_ids_of(self, object_id: int) -> list[int]:
        return [int(r[0]) for r in self._conn.execute(
            "SELECT id FROM observations WHERE object_id=? ORDER BY id", (object_id,))]

    def count_observations(self, object_id: int) -> int:
        """The sightings kept of the object (thinned ones are counted in retention's tallies)."""
        return int(self._conn.execute("SELECT COUNT(*) FROM observations WHERE object_id=?",
                                      (object_id,)).fetchone()[0])

    def move_observations(self, observation_ids: list[int], object_id: int, placement_id) -> None:
        """These sightings become ``object_id``'s, at ``placement_id``."""
        ph = ",".join("?" for _ in observation_ids)
        self._conn.execute(f"UPDATE observations SET object_id=?, placement_id=? WHERE id IN ({ph})",
                           (object_id, placement_id, *observation_ids))

    def placement_sightings(self, object_id: int, placement_id) -> list:
        """The sightings a rebuild folds (every column it reads), in stamp order."""
        return self._conn.execute(
            "SELECT id, stamp, confidence, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, feature, reason "
            "FROM observations WHERE object_id=? AND placement_id IS ? ORDER BY stamp, id",
            (object_id, placement_id)).fetchall()

    def placement_points(self, object_id: int, placement_id) -> list:
        """The sightings resplit clusters (id, stamp, label, confidence, centre), in stamp order."""
        return self._conn.execute(
            "SELECT id, stamp, label, confidence, cx, cy, cz FROM observations WHERE object_id=? AND "
            "placement_id IS ? ORDER BY stamp, id", (object_id, placement_id)).fetchall()

    # ---------------------------------------------------------------- placements
    def set_placement_box(self, placement_id: int, box_mid, lo, hi) -> None:
        self._conn.execute(
            "UPDATE placements SET cx=?, cy=?, cz=?, min_x=?, min_y=?, min_z=?, max_x=?, max_y=?, max_z=? "
            "WHERE id=?", (*box_mid, *lo, *hi, placement_id))

    # ---------------------------------------------------------------- labels
    def pin_label(self, object_id: int, stamp: float, old: str, new: str, old_mass: dict, reason: str) -> None:
        """A user's correction: the old distribution goes to label_history, the new label is pinned."""
        self._conn.execute(
            "INSERT INTO label_history (object_id, stamp, wall_time, old_label, new_label, old_mass, pinned, "
            "reason) VALUES (?,?,?,?,?,?,1,?)",
            (object_id, stamp, self._wall_clock(), old, new, json.dumps(old_mass, sort_keys=True), reason))
        self._conn.execute("UPDATE objects SET pinned_label=? WHERE id=?", (new, object_id))

    def label_history(self, object_id: int) -> list:
        return self._conn.execute("SELECT * FROM label_history WHERE object_id=? ORDER BY id",
                                  (int(object_id),)).fetchall()

    # ---------------------------------------------------------------- regions
    def insert_region(self, label: str, lo, hi, stamp: float) -> int:
        cur = self._conn.execute(
            "INSERT INTO regions (label, min_x, min_y, min_z, max_x, max_y, max_z, stamp, wall_time) "
            "VALUES (?,?,?,?,?,?,?,?,?)", (label, *lo, *hi, stamp, self._wall_clock()))
        return int(cur.lastrowid)
