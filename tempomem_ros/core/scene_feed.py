"""An incrementally refreshed view of the current scene, for whoever republishes it after every commit.

Why: the memory node publishes the whole scene graph after each commit that changed something. Reading
10,000 objects and 15,000 relations for that took ~250 ms (bench/bench_publish.py), so at that size the
graph could follow only every few seconds. Every mutation of the store appends an audit row naming the
objects it touched, in the same transaction; after one full read, a refresh reads only the audit rows since
the last one, then those objects and the current relations that involve them. A relation only changes
when one of its two objects is touched, so that set is complete.

Actions whose effect reaches objects they do not list (``define_region`` re-assigns the region of every
object inside it), and any action this module does not know, make the refresh a full read; so does
``resync_s`` since the last full read, as a safety net. Each refresh reads inside one read transaction, so
objects, relations and the audit position come from the same committed state.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from .errors import store_error
from .rows import relation_info
from .store.schema import sqlite3
from .store.audit import AuditRows
from .store.objects import ObjectRows
from .store.relations import RelationRows
from .types import ObjectInfo, RelationInfo

#: Audit actions whose listed object ids are everything they changed.
INCREMENTAL_ACTIONS = frozenset({
    "merge", "create", "move", "reject", "promote", "remove", "relabel", "forget", "update", "decay",
    "consolidate", "resplit", "thin", "tally_days",
})
SHOWN_STATES = ("present", "missing")


@dataclass(frozen=True)
class SceneSnapshot:
    """Present and missing objects by id and current relations by row id, as of ``audit_id``.

    ``changed``: anything differs from the previous refresh; ``full``: this refresh read everything;
    ``touched``: ids of the objects re-read by an incremental refresh (empty after a full one)."""

    objects: tuple[ObjectInfo, ...]
    relations: tuple[RelationInfo, ...]
    audit_id: int
    changed: bool
    full: bool
    touched: frozenset[int]


class SceneFeed:
    """Keeps the current scene of ``memory`` (usually a read-only Memory) between refreshes.

    Unchanged objects and relations are the same Python objects from one snapshot to the next, so a caller
    caching per-object work can compare by identity."""

    def __init__(self, memory, *, resync_s: float = 300.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._memory = memory
        # the rows, read on the store's connection inside memory.reading() (its lock and one read transaction)
        self._object_rows = ObjectRows(memory._store)
        self._relation_rows = RelationRows(memory._store)
        self._audit_rows = AuditRows(memory._store)
        self._resync_s = float(resync_s)
        self._clock = clock
        self._objects: dict[int, ObjectInfo] = {}
        self._relations: dict[int, RelationInfo] = {}  # relation row id -> info
        self._audit_id = -1  # nothing read yet
        self._last_full = 0.0
        self.full_reads = 0
        self.incremental_reads = 0

    def behind(self) -> bool:
        """Whether the store's audit holds rows this feed has not read (a writer changed the store since the last
        refresh; one indexed read): how a node that does not fuse learns that the fleet's fuser fused."""
        try:
            with self._memory.reading():
                return self._audit_id < 0 or self._audit_rows.last_id() > self._audit_id
        except sqlite3.Error as exc:
            raise store_error("scene refresh", exc) from exc

    def refresh(self) -> SceneSnapshot:
        try:
            # one snapshot: the audit mark and the rows it covers agree
            with self._memory.reading():
                return self._refresh()
        except sqlite3.Error as exc:
            raise store_error("scene refresh", exc) from exc

    def _refresh(self) -> SceneSnapshot:
        last = self._audit_rows.last_id()
        due = self._audit_id < 0 or self._clock() - self._last_full >= self._resync_s
        touched: set[int] = set()
        if not due and last > self._audit_id:
            for action, ids in self._audit_rows.actions_between(self._audit_id, last):
                if action not in INCREMENTAL_ACTIONS:
                    due = True
                    break
                touched.update(int(i) for i in json.loads(ids))
        if due:
            return self._full(last)
        changed = self._apply(touched)
        self._audit_id = last
        self.incremental_reads += 1
        return self._snapshot(changed, False, frozenset(touched))

    def _full(self, last: int) -> SceneSnapshot:
        rows = self._object_rows.in_states(SHOWN_STATES)
        objects = {o.id: o for o in self._memory._reads.object_infos(rows)}
        relations = {int(r["id"]): relation_info(r) for r in self._relation_rows.current()}
        # keep the previous Python objects where nothing changed (callers compare by identity)
        for key, value in objects.items():
            old = self._objects.get(key)
            if old is not None and old == value:
                objects[key] = old
        for key, value in relations.items():
            old = self._relations.get(key)
            if old is not None and old == value:
                relations[key] = old
        changed = objects.keys() != self._objects.keys() or relations.keys() != self._relations.keys() or any(
            self._objects[k] is not v for k, v in objects.items()) or any(
            self._relations[k] is not v for k, v in relations.items())
        self._objects, self._relations = objects, relations
        self._audit_id, self._last_full = last, self._clock()
        self.full_reads += 1
        return self._snapshot(changed, True, frozenset())

    def _apply(self, touched: set[int]) -> bool:
        """Re-read the touched objects and the current relations involving them; True if anything changed."""
        if not touched:
            return False
        ids = sorted(touched)
        changed = False
        fresh: dict[int, ObjectInfo] = {
            o.id: o for o in self._memory._reads.object_infos(self._object_rows.rows(ids, SHOWN_STATES))}
        for oid in ids:
            old, new = self._objects.get(oid), fresh.get(oid)
            if new is None:
                changed |= self._objects.pop(oid, None) is not None
            elif old is None or old != new:
                self._objects[oid] = new
                changed = True
        current: dict[int, RelationInfo] = {
            int(r["id"]): relation_info(r) for r in self._relation_rows.current_involving(ids)}
        involved = [k for k, r in self._relations.items()
                    if r.subject_id in touched or (not r.object_is_region and r.object_id in touched)]
        for key in involved:
            if key not in current:
                del self._relations[key]
                changed = True
        for key, rel in current.items():
            old = self._relations.get(key)
            if old is None or old != rel:
                self._relations[key] = rel
                changed = True
        return changed

    def _snapshot(self, changed: bool, full: bool, touched: frozenset[int]) -> SceneSnapshot:
        objects = tuple(self._objects[k] for k in sorted(self._objects))
        relations = tuple(self._relations[k] for k in sorted(self._relations))
        return SceneSnapshot(objects, relations, self._audit_id, changed, full, touched)
