"""Salvage a damaged store into a new file: every row that can still be read, and a graph that holds together.

Why not VACUUM INTO or .dump: both stop at the first unreadable page, and a store with one zeroed page
(a power cut on an SD card) still holds almost all of a robot's history. Why rows are read by key ranges:
a table is a B-tree ordered by its key, so a damaged page loses one contiguous key range; reading
``WHERE key BETWEEN a AND b`` and halving a range that fails finds exactly the unreadable keys (indexes
are never used, so a damaged index loses nothing). Why the repairs afterwards: the memory's operators
rely on invariants (every object has placements, a present object has a current one, events and
relations name existing objects); rows that would break them are left out or completed, and the
recovery's audit row lists each of them. Nothing is invented beyond a placement rebuilt from an object's
own stored box. Ids are never reused: every AUTOINCREMENT counter is set past any id seen in the source.

Used by ``tempomem recover STORE NEW_STORE``; the source is only ever read.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field

from ..errors import InvalidInputError, SchemaError, StoreAccessError
from .base import atomic
from .graph_writes import RTREE_PAD
from .place_labels import add_thinned, thinned_rows
from .schema import REQUIRED_TABLES, SCHEMA_VERSION, connect, sqlite3

#: Copied in this order (parents first); the R*Tree tables are rebuilt from objects and tombstones.
TABLES = ("frames", "observations", "objects", "label_mass", "label_history", "placements", "misses", "events",
          "tombstones", "rejected", "regions", "relations", "audit",
          # retention (schema 5): without its tallies a thinned store would no longer count its sightings exactly
          "tallies", "fold_state", "coseen", "frame_depths",
          # the per-look label rule's tallies (schema 16): without them a look's excess would count back;
          # its older visits folded by retention (schema 17)
          "label_looks", "label_look_counts")
#: Tables without an integer rowid key: read by ranges of this column instead.
RANGE_KEY = {"label_mass": "object_id", "coseen": "a", "label_looks": "object_id", "label_look_counts": "object_id"}
TEXT_KEY = {"rejected": "key"}  # text primary key: read whole (a small table of keyed rejections)


@dataclass
class TableReport:
    copied: int = 0
    unreadable: list[tuple[int, int]] = field(default_factory=list)  # key ranges that could not be read

    @property
    def lost_keys(self) -> int:
        return sum(b - a + 1 for a, b in self.unreadable)


@dataclass
class RecoveryReport:
    source: str
    target: str
    tables: dict[str, TableReport] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)    # rows left out because they name lost rows
    skipped_ids: dict[str, list[int]] = field(default_factory=dict)  # their source row ids (first 200)
    repaired: dict[str, int] = field(default_factory=dict)   # placements rebuilt, object links fixed
    integrity: str = ""

    @property
    def complete(self) -> bool:
        return not any(t.unreadable for t in self.tables.values()) and not any(self.skipped.values())

    def lines(self) -> list[str]:
        out = [f"recovered {self.source} -> {self.target}"]
        for name, t in self.tables.items():
            lost = f", unreadable keys {_ranges(t.unreadable)}" if t.unreadable else ""
            out.append(f"  {name}: {t.copied} row(s){lost}")
        for what, n in sorted(self.skipped.items()):
            if n:
                out.append(f"  left out: {n} {what}")
        for what, n in sorted(self.repaired.items()):
            if n:
                out.append(f"  repaired: {n} {what}")
        out.append(f"  integrity of the new store: {self.integrity}")
        return out


def _ranges(ranges, limit: int = 8) -> str:
    shown = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges[:limit])
    return shown + (f" (+{len(ranges) - limit} more)" if len(ranges) > limit else "")


def recover(source: str, target: str, *, embedding_dim: int | None = None, clock=time.time) -> RecoveryReport:
    """Copy every readable row of ``source`` into a new store at ``target`` (which must not exist)."""
    from ..memory import Memory  # noqa: PLC0415 - memory imports this module's neighbours

    source, target = str(source), str(target)
    if not os.path.isfile(source):
        raise StoreAccessError(f"store '{source}' does not exist")
    if os.path.exists(target):
        raise InvalidInputError(f"'{target}' exists: recovery writes a new store and never overwrites a file")
    src = connect(source, readonly=True)
    try:
        meta = _read_meta(src)
        dim = embedding_dim if embedding_dim is not None else _meta_dim(meta)
        Memory.open(target, embedding_dim=dim, vector_index="off").close()
        dst = sqlite3.connect(target, isolation_level=None)
        try:
            report = RecoveryReport(source, target)
            with atomic(dst):
                if meta.get("feature_model"):
                    dst.execute("UPDATE meta SET value=? WHERE key='feature_model'", (meta["feature_model"],))
                present = {r[0] for r in src.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                for table in TABLES:
                    report.tables[table] = (_copy(src, dst, table) if table in present else TableReport())
                _repair(dst, report)
                _count_thinned(src, dst, "place_labels" in present)
                _rebuild_rtrees(dst)
                _set_sequences(src, dst)
                dst.execute(
                    "INSERT INTO audit (stamp, wall_time, action, object_ids, observation_ids, detail) "
                    "VALUES (NULL, ?, 'recover', '[]', '[]', ?)",
                    (clock(), json.dumps({
                        "source": source, "schema_version": SCHEMA_VERSION,
                        "copied": {k: t.copied for k, t in report.tables.items()},
                        "unreadable": {k: t.unreadable[:100] for k, t in report.tables.items() if t.unreadable},
                        "left_out": report.skipped, "left_out_ids": report.skipped_ids, "repaired": report.repaired},
                        sort_keys=True)))
            report.integrity = "; ".join(r[0] for r in dst.execute("PRAGMA integrity_check(5)"))
        finally:
            dst.close()
    finally:
        src.close()
    return report


def check(path: str, *, full: bool = False) -> list[str]:
    """SQLite's quick_check (or, with full, integrity_check, which also compares every index with its
    table) of a store opened read-only: ["ok"] or the first problems found."""
    conn = connect(str(path), readonly=True)
    try:
        pragma = "integrity_check" if full else "quick_check"
        try:
            return [" ".join(str(r[0]).split()) for r in conn.execute(f"PRAGMA {pragma}(20)")]
        except sqlite3.DatabaseError as exc:  # the damage stopped the check itself
            return [str(exc)]
    finally:
        conn.close()


def _read_meta(src) -> dict:
    try:
        return dict(src.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.Error:
        return {}


def _meta_dim(meta: dict) -> int:
    value = meta.get("embedding_dim", "")
    if not str(value).isdigit() or int(value) < 1:
        raise SchemaError(f"the source's embedding_dim cannot be read ({value!r}): give it explicitly "
                          "(tempomem recover --embedding-dim N)")
    return int(value)


def _count_thinned(src, dst, tallied: bool) -> None:
    """The thinned sightings by placement and label (place_labels.py; the copied observations' triggers counted
    the kept ones): the source's rows, or when they cannot be read (or the source predates version 11) the copied
    sighting tallies' counts, label unknown; those of placements left out (of a lost object) are left out too."""
    try:
        rows = thinned_rows(src, tallied) if tallied else None
    except sqlite3.DatabaseError:
        rows = None
    kept = {int(r[0]) for r in dst.execute("SELECT id FROM placements")}
    add_thinned(dst, [r for r in (rows if rows is not None else thinned_rows(dst, False)) if r[0] in kept])


def _columns(conn, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]


def _copy(src, dst, table: str) -> TableReport:
    """Every readable row of ``table``, read by key ranges, inserted with the columns both stores have."""
    cols = [c for c in _columns(dst, table) if c in set(_columns(src, table))]
    col_list = ", ".join(cols)
    insert = f"INSERT OR IGNORE INTO {table} ({col_list}) VALUES ({', '.join('?' for _ in cols)})"
    report = TableReport()
    if table in TEXT_KEY:
        try:
            rows = src.execute(f"SELECT {col_list} FROM {table}").fetchall()
        except sqlite3.DatabaseError:
            rows = _rows_one_by_one(src, table, col_list, TEXT_KEY[table], report)
        dst.executemany(insert, rows)
        report.copied = len(rows)
        return report
    key = RANGE_KEY.get(table, "rowid")
    lo, hi = _key_bounds(src, table, key)
    if lo is None:
        return report
    stack = [(lo, hi)]
    while stack:
        a, b = stack.pop()
        try:
            rows = src.execute(f"SELECT {col_list} FROM {table} WHERE {key} BETWEEN ? AND ? ORDER BY {key}",
                               (a, b)).fetchall()
        except sqlite3.DatabaseError:
            if a == b:
                if report.unreadable and report.unreadable[-1][1] == a - 1:
                    report.unreadable[-1] = (report.unreadable[-1][0], a)
                else:
                    report.unreadable.append((a, a))
                continue
            mid = (a + b) // 2
            stack.extend([(mid + 1, b), (a, mid)])  # lower half first: ranges stay in key order
            continue
        dst.executemany(insert, rows)
        report.copied += len(rows)
    return report


def _rows_one_by_one(src, table, col_list, key, report) -> list:
    rows = []
    try:
        keys = [r[0] for r in src.execute(f"SELECT {key} FROM {table}")]
    except sqlite3.DatabaseError:
        report.unreadable.append((0, 0))
        return rows
    for k in keys:
        try:
            rows.extend(src.execute(f"SELECT {col_list} FROM {table} WHERE {key}=?", (k,)).fetchall())
        except sqlite3.DatabaseError:
            report.unreadable.append((0, 0))
    return rows


def _key_bounds(src, table: str, key: str) -> tuple[int | None, int | None]:
    """The smallest and largest key; when MIN/MAX cannot be read, 1 .. the AUTOINCREMENT counter (or a
    generous bound), so that the range search still finds every readable row."""
    try:
        lo, hi = src.execute(f"SELECT MIN({key}), MAX({key}) FROM {table}").fetchone()
        if lo is None:
            return None, None
        return int(lo), int(hi)
    except sqlite3.DatabaseError:
        pass
    seq_table = "objects" if key == "object_id" else table
    try:
        row = src.execute("SELECT seq FROM sqlite_sequence WHERE name=?", (seq_table,)).fetchone()
        if row is not None:
            return 1, int(row[0])
    except sqlite3.DatabaseError:
        pass
    return 1, 1_000_000


def _repair(dst, report: RecoveryReport) -> None:
    """Leave out rows naming lost objects, and give every kept object the placements its operators need."""
    objects = "(SELECT id FROM objects)"
    for table, where in (("label_mass", f"object_id NOT IN {objects}"),
                         ("label_looks", f"object_id NOT IN {objects}"),
                         ("label_look_counts", f"object_id NOT IN {objects}"),
                         ("placements", f"object_id NOT IN {objects}"),
                         ("misses", f"object_id NOT IN {objects}"),
                         ("tallies", f"object_id IS NOT NULL AND object_id NOT IN {objects}"),
                         ("fold_state", f"object_id NOT IN {objects}"),
                         ("events", f"object_id NOT IN {objects}"),
                         ("relations", f"subject_id NOT IN {objects} OR (object_is_region = 0 AND object_id NOT IN "
                                       f"{objects}) OR (object_is_region = 1 AND object_id NOT IN "
                                       "(SELECT id FROM regions))")):
        key = RANGE_KEY.get(table, "rowid")
        ids = [r[0] for r in dst.execute(f"SELECT {key} FROM {table} WHERE {where} ORDER BY {key}")]
        dst.execute(f"DELETE FROM {table} WHERE {where}")
        report.skipped[f"{table} row(s) naming a lost object or region"] = len(ids)
        if ids:
            report.skipped_ids[table] = ids[:200]
    # an event's before/after placement that was lost: the event stays, without that placement
    report.repaired["event placement links cleared"] = dst.execute(
        "UPDATE events SET before_id = CASE WHEN before_id IN (SELECT id FROM placements) THEN before_id END, "
        "after_id = CASE WHEN after_id IN (SELECT id FROM placements) THEN after_id END "
        "WHERE (before_id IS NOT NULL AND before_id NOT IN (SELECT id FROM placements)) "
        "OR (after_id IS NOT NULL AND after_id NOT IN (SELECT id FROM placements))").rowcount
    rebuilt = relinked = 0
    for oid, state, first, last, placement_id in dst.execute(
            "SELECT id, state, first_seen, last_seen, placement_id FROM objects WHERE state IN ('present', 'missing') "
            "ORDER BY id").fetchall():
        current = dst.execute("SELECT id FROM placements WHERE object_id=? AND current=1 ORDER BY id DESC LIMIT 1",
                              (oid,)).fetchone()
        if state == "present" and current is None:
            t_from = dst.execute("SELECT MAX(COALESCE(t_to, t_last)) FROM placements WHERE object_id=?",
                                 (oid,)).fetchone()[0]
            t_from = first if t_from is None else max(float(t_from), float(first))
            cur = dst.execute(
                "INSERT INTO placements (object_id, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, region_id, "
                "t_from, t_last, t_to, current, opened_by) SELECT id, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, "
                "max_z, region_id, ?, ?, NULL, 1, 'recovered' FROM objects WHERE id=?",
                (t_from, max(t_from, float(last)), oid))
            current, rebuilt = (cur.lastrowid,), rebuilt + 1
        if state == "missing" and dst.execute("SELECT 1 FROM placements WHERE object_id=?", (oid,)).fetchone() is None:
            dst.execute(
                "INSERT INTO placements (object_id, cx, cy, cz, min_x, min_y, min_z, max_x, max_y, max_z, region_id, "
                "t_from, t_last, t_to, current, opened_by, closed_reason) SELECT id, cx, cy, cz, min_x, min_y, min_z, "
                "max_x, max_y, max_z, region_id, first_seen, last_seen, last_seen, 0, 'recovered', 'recovered' "
                "FROM objects WHERE id=?", (oid,))
            rebuilt += 1
        want = None if state == "missing" or current is None else int(current[0])
        if placement_id != want:
            dst.execute("UPDATE objects SET placement_id=? WHERE id=?", (want, oid))
            relinked += 1
    report.repaired["placements rebuilt from their object's box"] = rebuilt
    report.repaired["object placement links fixed"] = relinked
    dst.execute("UPDATE objects SET vec_dirty=1 WHERE feature IS NOT NULL")


def _rebuild_rtrees(dst) -> None:
    dst.execute("DELETE FROM objects_rtree")
    dst.execute("INSERT INTO objects_rtree (id, min_x, max_x, min_y, max_y, min_z, max_z) SELECT id, min_x - ?, "
                "max_x + ?, min_y - ?, max_y + ?, min_z - ?, max_z + ? FROM objects", (RTREE_PAD,) * 6)
    dst.execute("DELETE FROM tombstones_rtree")
    dst.execute("INSERT INTO tombstones_rtree (id, min_x, max_x, min_y, max_y, min_z, max_z) "
                "SELECT id, min_x, max_x, min_y, max_y, min_z, max_z FROM tombstones")


# ids other rows hold, per AUTOINCREMENT table: lost rows' ids must not be issued again
_REFERENCES = {
    "objects": ("observations.object_id", "observations.candidate_id", "placements.object_id", "events.object_id",
                "tombstones.object_id", "label_history.object_id", "misses.object_id", "relations.subject_id"),
    "placements": ("observations.placement_id", "events.before_id", "events.after_id", "misses.placement_id"),
    "frames": ("observations.frame_id", "misses.frame_id"),
}


def _set_sequences(src, dst) -> None:
    for table in REQUIRED_TABLES:
        if table not in TABLES or table in RANGE_KEY or table in TEXT_KEY:
            continue
        best = 0
        try:
            row = src.execute("SELECT seq FROM sqlite_sequence WHERE name=?", (table,)).fetchone()
            best = int(row[0]) if row else 0
        except sqlite3.DatabaseError:
            pass
        for ref in ("%s.id" % table, *_REFERENCES.get(table, ())):
            t, c = ref.split(".")
            for conn in (dst, src):
                try:
                    value = conn.execute(f"SELECT MAX({c}) FROM {t}").fetchone()[0]
                except sqlite3.DatabaseError:
                    continue
                best = max(best, int(value or 0))
        dst.execute("DELETE FROM sqlite_sequence WHERE name=?", (table,))
        dst.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, best))
