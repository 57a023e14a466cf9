"""Moving whole memories: ``migrate`` (one store into an empty one, every id kept) and ``merge`` (two robots'
stores into one memory, identities fused by the memory's own twin arbiter, every merge recorded).

Why row for row rather than replaying frames: a fused frame keeps no depth image (schema.py: the coarse
depth is a sensor artefact, dropped once fused), so replaying the frames would lose the absence evidence
behind every "removed" and "moved" event. Copying the rows keeps every observation, placement, event,
held event, tombstone, relation, region, rejected key and audit row exactly as decided.

``merge`` copies the first store with its ids, then the second with every id shifted past the first's
(ids inside JSON lists — event evidence, audit object and observation ids — are shifted with them; ids
inside an audit row's free-form ``detail`` are the second store's own). Then each object of the second
store that is present at the place of a present object of the first is judged by the same test that joins
twins inside one memory (core/settling.py: never detected in one frame, labels agree or are a known confusion,
features do not disagree): joined, it keeps the first store's id and takes the other's observations; the
other is retired with a tombstone of kind ``merged``, a ``merged`` event when it had published events, and
an audit row ``merge_twin``. One audit row ``merge_store`` records the whole merge (id offsets, row counts).
What a merge cannot know: a move whose evidence is split between the stores (robot A saw the mug on the
table, robot B saw it on the desk and the table empty) stays two objects; two robots sharing one database
from the start decide that case (docs/FLEET.md).

Columns are copied by name, the ones both stores have: a SQLite store of an older schema version migrates
into a newer one without being opened for writing (its missing columns take their defaults).
"""

from __future__ import annotations

import json

from ..errors import InvalidInputError, SchemaError
from ..postgres.address import display, is_postgres

# Copy order: a row's references exist before it (PostgreSQL checks observations.frame_id).
TABLES = ("regions", "frames", "objects", "objects_rtree", "observations", "placements", "label_mass", "label_looks",
          "label_look_counts", "label_history", "misses", "events", "held_events", "tombstones", "tombstones_rtree",
          "rejected", "relations", "audit", "tallies", "fold_state", "coseen", "frame_depths")
# For merge: which columns hold an id of which table ("objects_or_regions": relations.object_id).
ID_COLUMNS = {
    "regions": {"id": "regions"},
    "frames": {"id": "frames"},
    "objects": {"id": "objects", "region_id": "regions", "placement_id": "placements"},
    "objects_rtree": {"id": "objects"},
    "observations": {"id": "observations", "frame_id": "frames", "object_id": "objects",
                     "candidate_id": "objects", "placement_id": "placements"},
    "placements": {"id": "placements", "object_id": "objects", "region_id": "regions"},
    "label_mass": {"object_id": "objects"},
    "label_looks": {"object_id": "objects"},
    "label_look_counts": {"object_id": "objects"},
    "label_history": {"id": "label_history", "object_id": "objects"},
    "misses": {"id": "misses", "object_id": "objects", "frame_id": "frames", "placement_id": "placements"},
    "events": {"id": "events", "object_id": "objects", "before_id": "placements", "after_id": "placements",
               "ended_by": "events"},  # (the links are relinked by the triggers as the rows arrive, event_links.py)
    "held_events": {"id": "held_events", "object_id": "objects", "before_id": "placements",
                    "after_id": "placements", "event_id": "events", "lookalike_id": "objects"},
    "tombstones": {"id": "tombstones", "object_id": "objects"},
    "tombstones_rtree": {"id": "tombstones"},
    "rejected": {"best_candidate": "objects", "promoted_object_id": "objects"},
    "relations": {"id": "relations", "subject_id": "objects"},
    "audit": {"id": "audit"},
    "tallies": {"id": "tallies", "object_id": "objects", "placement_id": "placements",
                "id_first": "observations", "id_last": "observations"},
    "fold_state": {"placement_id": "placements", "object_id": "objects", "cut_id": "observations"},
    "coseen": {"a": "objects", "b": "objects"},
    "frame_depths": {"frame_id": "frames"},
}
JSON_ID_LISTS = {"events": {"evidence": "observations"}, "held_events": {"evidence": "observations"},
                 "audit": {"object_ids": "objects", "observation_ids": "observations"}}
ID_TABLES = sorted({t for cols in ID_COLUMNS.values() for t in cols.values()})
BATCH = 2000


class _Source:
    """A store read for copying: a SQLite file opened read-only (any schema version from 1) or a PostgreSQL
    memory opened read-only."""

    def __init__(self, address: str):
        self.address = address
        self.memory = None
        if is_postgres(address):
            from ..memory import Memory

            self.memory = Memory.open(address, readonly=True)
            self.conn = self.memory._conn
            self.shown = self.memory.path
        else:
            import os

            from .schema import connect

            if not os.path.isfile(address):
                raise InvalidInputError(f"store '{address}' does not exist")
            self.conn = connect(address, readonly=True)
            self.shown = address
        self.meta = dict(self.conn.execute("SELECT key, value FROM meta").fetchall())

    def columns(self, table: str) -> list[str]:
        return table_columns(self.conn, table, postgres=self.memory is not None)

    def close(self) -> None:
        if self.memory is not None:
            self.memory.close()
        else:
            self.conn.close()


def table_columns(conn, table: str, *, postgres: bool) -> list[str]:
    """The table's writable columns in order ([] when it does not exist): PostgreSQL's generated ``box``
    columns are left out."""
    if postgres:
        rows = conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = ? AND is_generated = 'NEVER' ORDER BY ordinal_position", (table,)).fetchall()
        return [r[0] for r in rows]
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})").fetchall()]


def _open_destination(address: str, embedding_dim: int, world_frame: str | None, config=None):
    from ..memory import Memory

    return Memory.open(address, embedding_dim=embedding_dim, world_frame=world_frame, config=config)


def _embedding_dim(src: _Source) -> int:
    value = src.meta.get("embedding_dim", "")
    if not str(value).isdigit():
        raise SchemaError(f"store '{src.shown}' has no valid embedding_dim in its metadata: not a tempomem store")
    return int(value)


def _require_empty(memory, shown: str) -> None:
    for table in ("objects", "observations", "frames", "audit"):
        if memory._conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone() is not None:
            raise InvalidInputError(f"destination '{shown}' already holds a memory ({table} is not empty): "
                                    "migrate and merge write into a new, empty store")


def _copy_table(src: _Source, dst, table: str, shift: dict | None, counts: dict) -> None:
    """Copy one table's rows (ids shifted by ``shift`` {table: offset} when merging); returns nothing,
    counts rows into ``counts``."""
    wanted = table_columns(dst._conn, table, postgres=dst.backend == "postgresql")
    have = set(src.columns(table))
    cols = [c for c in wanted if c in have]
    if not cols:
        return
    order = {"label_mass": "object_id, label", "label_looks": "object_id, visit_start, sector, label",
             "label_look_counts": "object_id, sector, label",
             "rejected": "key", "coseen": "a, b"}.get(table, cols[0])  # the key
    select = f"SELECT {', '.join(cols)} FROM {table} ORDER BY {order}"
    insert = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
    if table == "objects":  # the vector index (where there is one) is rebuilt from the copied features
        select = select.replace(" vec_dirty", " 1 AS vec_dirty") if "vec_dirty" in cols else select
    remap = _remapper(table, cols, shift) if shift else None
    rows = src.conn.execute(select).fetchall()
    n = 0
    for start in range(0, len(rows), BATCH):
        batch = [tuple(r) for r in rows[start:start + BATCH]]
        if remap is not None:
            batch = [remap(r) for r in batch]
        if table == "rejected" and shift:
            batch = _fold_rejected(dst, cols, batch)
        if batch:
            dst._conn.executemany(insert, batch)
        n += len(rows[start:start + BATCH])
    counts[table] = n


def _copy_thinned(src: _Source, dst, shift: dict | None) -> None:
    """The source's thinned sightings by placement and label (place_labels.py): the copied observations' triggers
    count the kept ones; the thinned ones are the source's rows (a source before version 11: its tallies' counts,
    label unknown; one before version 5: none), placement ids shifted when merging."""
    from .place_labels import add_thinned, thinned_rows

    if src.columns("place_labels"):
        rows = thinned_rows(src.conn, tallied=True)
    elif src.columns("tallies"):
        rows = thinned_rows(src.conn, tallied=False)
    else:  # a store written before version 5 (retention) thinned nothing: it has no tallies to read
        rows = []
    offset = shift["placements"] if shift else 0
    add_thinned(dst._conn, [(p + offset, label, n) for p, label, n in rows])


def _remapper(table: str, cols: list[str], shift: dict):
    plain = [(i, shift[ID_COLUMNS[table][c]]) for i, c in enumerate(cols) if c in ID_COLUMNS.get(table, {})]
    lists = [(i, shift[JSON_ID_LISTS[table][c]]) for i, c in enumerate(cols) if c in JSON_ID_LISTS.get(table, {})]
    region_ref = None
    if table in ("objects", "placements"):
        region_ref = cols.index("region_id") if "region_id" in cols else None  # 0 = no region
    rel = (cols.index("object_id"), cols.index("object_is_region")) if table == "relations" else None
    # a tally's observation ids are a compressed list (core/tally.py): decoded, shifted, encoded again
    tally = (cols.index("ids"), cols.index("n")) if table == "tallies" and "ids" in cols else None

    def remap(row: tuple) -> tuple:
        out = list(row)
        for i, offset in plain:
            if out[i] is not None and not (i == region_ref and int(out[i]) == 0):
                out[i] = int(out[i]) + offset
        for i, offset in lists:
            out[i] = json.dumps([int(x) + offset for x in json.loads(out[i] or "[]")])
        if rel is not None and out[rel[0]] is not None:
            out[rel[0]] = int(out[rel[0]]) + shift["regions" if int(out[rel[1]]) else "objects"]
        if tally is not None:
            from ..tally import decode_ints, encode_ints

            ids = decode_ints(out[tally[0]], int(out[tally[1]]))
            out[tally[0]] = encode_ints(ids + shift["observations"])
        return tuple(out)

    return remap


def _fold_rejected(dst, cols: list[str], batch: list[tuple]) -> list[tuple]:
    """Rejected keys are cells of the map, not ids: a key both stores hold sums its mass and count."""
    key_i, out = cols.index("key"), []
    for row in batch:
        have = dst._conn.execute("SELECT mass, count, first_stamp, last_stamp FROM rejected WHERE key=?",
                                 (row[key_i],)).fetchone()
        if have is None:
            out.append(row)
            continue
        r = dict(zip(cols, row))
        dst._conn.execute(
            "UPDATE rejected SET mass=?, count=?, first_stamp=?, last_stamp=? WHERE key=?",
            (float(have[0]) + float(r["mass"]), int(have[1]) + int(r["count"]),
             min(float(have[2]), float(r["first_stamp"])), max(float(have[3]), float(r["last_stamp"])),
             row[key_i]))
    return out


def _check_frames(src: _Source, world_frame: str | None) -> str | None:
    frame = src.meta.get("world_frame")
    if world_frame is not None and frame is not None and frame != world_frame:
        raise SchemaError(f"store '{src.shown}' keeps coordinates in frame '{frame}', not '{world_frame}'")
    return frame or world_frame


def _advance_counters(dst) -> None:
    if dst.backend == "postgresql":
        from ..postgres.store import advance_id_counters

        advance_id_counters(dst._conn)


def _max_ids(dst) -> dict:
    return {t: int(dst._conn.execute(f"SELECT COALESCE(MAX(id), 0) FROM {t}").fetchone()[0]) for t in ID_TABLES}


def _copy_meta(src: _Source, dst) -> None:
    model = src.meta.get("feature_model", "")
    if model:
        current = dst._conn.execute("SELECT value FROM meta WHERE key='feature_model'").fetchone()
        if current is not None and current[0] and current[0] != model:
            raise SchemaError(f"'{src.shown}' holds features of '{model}', the destination of '{current[0]}'")
        dst._conn.execute("UPDATE meta SET value=? WHERE key='feature_model'", (model,))


def migrate(source: str, destination: str) -> dict:
    """Copy the memory at ``source`` into the new, empty store ``destination`` (either backend), every id,
    placement, event and audit row kept; one transaction. Returns the rows copied per table."""
    src = _Source(source)
    try:
        frame = _check_frames(src, "map" if is_postgres(destination) else None)
        dst = _open_destination(destination, _embedding_dim(src), frame)
        try:
            _require_empty(dst, dst.path)
            counts: dict = {}
            with dst._store.transaction():
                for table in TABLES:
                    _copy_table(src, dst, table, None, counts)
                _copy_thinned(src, dst, None)
                _copy_meta(src, dst)
                _advance_counters(dst)
                dst._audit(None, "migrate_store", [], [], {"from": src.shown, "rows": counts})
        finally:
            dst.close()
    finally:
        src.close()
    return counts


def merge(first: str, second: str, destination: str, *, config=None) -> dict:
    """Merge two robots' memories into the new, empty store ``destination``. Returns a report: rows copied
    per store and table, the id offsets of the second store, and the objects joined (kept id, absorbed id).
    ``config`` (MemoryConfig or dict): the arbiter's settings (those of the robots' memories)."""
    report: dict = {"rows": {}, "offsets": {}, "joined": []}
    dst = None
    try:
        for n, address in enumerate((first, second)):
            src = _Source(address)
            try:
                frame = _check_frames(src, "map" if is_postgres(destination) else None)
                if dst is None:
                    dst = _open_destination(destination, _embedding_dim(src), frame, config)
                    _require_empty(dst, dst.path)
                elif _embedding_dim(src) != dst.embedding_dim:
                    raise SchemaError(f"'{src.shown}' has embedding_dim {_embedding_dim(src)}, "
                                      f"'{first}' {dst.embedding_dim}: features of different sizes cannot merge")
                counts: dict = {}
                with dst._store.transaction():
                    shift = _max_ids(dst) if n else None
                    for table in TABLES:
                        _copy_table(src, dst, table, shift, counts)
                    _copy_thinned(src, dst, shift)
                    _copy_meta(src, dst)
                    _advance_counters(dst)
                    if shift:
                        report["offsets"] = shift
                    dst._audit(None, "merge_store", [], [], {"from": src.shown, "rows": counts,
                                                             "id_offsets": shift or {}})
                report["rows"][src.shown] = counts
            finally:
                src.close()
        report["joined"] = _join_across(dst, report["offsets"])
    finally:
        if dst is not None:
            dst.close()
    return report


def _join_across(dst, offsets: dict) -> list[tuple[int, int]]:
    """Join each object of the second store to the first store's object at its place when the twin arbiter
    says they are one (core/settling.py); one transaction. Returns (kept id, absorbed id) pairs."""
    from ..rows import OBJECT_COLS
    from .object_row import fetch_objects

    boundary = int(offsets.get("objects", 0))
    if not boundary:
        return []
    joined: list[tuple[int, int]] = []
    touched: set[int] = set()
    pad = dst.config.fusion.same_place_tol
    with dst._store.transaction():
        stamp = dst._conn.execute("SELECT MAX(last_seen) FROM objects").fetchone()[0]
        stamp = float(stamp or 0.0)
        seconds = fetch_objects(dst._conn.execute(
            f"SELECT {OBJECT_COLS} FROM objects WHERE id > ? AND state IN ('present', 'tentative') ORDER BY id",
            (boundary,)))
        for row in seconds:
            gone = dst._graph.object_row(row.id)
            if gone is None or gone.state not in ("present", "tentative"):
                continue
            lo = [gone.min_x - pad, gone.min_y - pad, gone.min_z - pad]
            hi = [gone.max_x + pad, gone.max_y + pad, gone.max_z + pad]
            for cand in dst._store.objects_in_box(lo, hi, ("present", "tentative")):
                if int(cand.id) > boundary or int(cand.id) in {k for k, _ in joined}:
                    continue  # only across the two stores; each object of the first absorbs one of the second
                keep = dst._graph.object_row(cand.id)
                if not dst._settling.joins_as_twins(keep, gone):
                    continue
                dst._settling.join_twin(keep, gone, stamp, touched)
                joined.append((int(keep.id), int(gone.id)))
                break
        dst._audit(stamp, "merge_join", [k for k, _ in joined] + [g for _, g in joined], [],
                   {"joined": [[k, g] for k, g in joined]})
    return joined


__all__ = ["migrate", "merge", "TABLES", "display"]
