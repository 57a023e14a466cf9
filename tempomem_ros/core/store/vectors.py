"""Nearest-feature search: an optional sqlite-vec index, and the exact numpy path it must agree with.

Why both: at 100,000 objects an exact scan of 512-d features is too slow for a service call, so a
sqlite-vec (vec0, cosine) index over present objects' features is used when the extension loads. The
float32 BLOB in the objects table stays the source of truth: the index is derived, kept in step inside
the same transaction as the fusion that changed a feature (rows flagged vec_dirty), and candidates it
returns are re-scored from the BLOBs, so both paths give identical results (a test checks it). Without
the extension (stdlib sqlite3, or a read-only store whose index was never built) the exact path is used.
"""

from __future__ import annotations

import numpy as np

from ..rows import blob_to_feature, id_chunks

#: Extra candidates fetched from the index beyond those needed, so that float differences between
#: sqlite-vec's and numpy's cosine near the cut-off cannot change which objects are kept.
KNN_MARGIN = 16


def load_extension(conn) -> bool:
    """Load sqlite-vec into the connection; False when the module or extension loading is unavailable."""
    try:
        import sqlite_vec
    except ImportError:
        return False
    try:
        conn.enable_load_extension(True)
        sqlite_vec.load(conn)
        conn.enable_load_extension(False)
        conn.execute("SELECT vec_version()").fetchone()
        return True
    except Exception:  # noqa: BLE001 - any failure means "no index", never a crash
        return False


def index_exists(conn) -> bool:
    return conn.execute(
        "SELECT 1 FROM sqlite_master WHERE name='vec_objects'").fetchone() is not None


def create_index(conn, dim: int) -> None:
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS vec_objects USING vec0(embedding float[{int(dim)}] "
                 "distance_metric=cosine)")
    conn.execute("UPDATE objects SET vec_dirty=1 WHERE feature IS NOT NULL")


def sync_index(conn) -> int:
    """Bring the index in step with objects flagged vec_dirty (inside the caller's transaction)."""
    rows = conn.execute("SELECT id, feature, state FROM objects WHERE vec_dirty=1 ORDER BY id").fetchall()
    for oid, feature, state in rows:
        conn.execute("DELETE FROM vec_objects WHERE rowid=?", (oid,))
        if state == "present" and feature is not None:
            conn.execute("INSERT INTO vec_objects(rowid, embedding) VALUES (?, ?)", (oid, feature))
    if rows:
        conn.execute("UPDATE objects SET vec_dirty=0 WHERE vec_dirty=1")
    return len(rows)


def index_knn(conn, query: np.ndarray, n: int) -> list[int]:
    """Ids of (about) the n present objects whose features are closest to the query, via the index."""
    rows = conn.execute("SELECT rowid FROM vec_objects WHERE embedding MATCH ? AND k = ?",
                        (np.asarray(query, np.float32).tobytes(), int(n) + KNN_MARGIN)).fetchall()
    return [int(r[0]) for r in rows]


class FeatureMatrix:
    """All present objects' features as one matrix, rebuilt only when the database changed.

    Why cached: the exact path compares a query with every stored feature; reading 100,000 BLOBs per call
    would dominate. The cache key is SQLite's data_version (changes when another connection commits)
    plus the memory's own write counter (changes when this connection commits).
    """

    def __init__(self):
        self.key = None
        self.ids = np.zeros(0, np.int64)
        self.matrix = np.zeros((0, 0), np.float32)

    def get(self, conn, key) -> tuple[np.ndarray, np.ndarray]:
        if key != self.key:
            rows = conn.execute("SELECT id, feature FROM objects WHERE state='present' AND feature IS NOT NULL "
                                "ORDER BY id").fetchall()
            self.ids = np.array([r[0] for r in rows], np.int64)
            self.matrix = np.vstack([blob_to_feature(r[1]) for r in rows]) if rows else np.zeros((0, 0), np.float32)
            self.key = key
        return self.ids, self.matrix


def exact_knn(ids: np.ndarray, matrix: np.ndarray, query: np.ndarray, n: int) -> list[int]:
    if len(ids) == 0:
        return []
    sims = matrix @ np.asarray(query, np.float32)
    order = np.lexsort((ids, -sims))[: int(n) + KNN_MARGIN]
    return [int(i) for i in ids[order]]


def exact_similarities(conn, object_ids, query: np.ndarray) -> dict[int, float]:
    """Cosine of the query with each object's stored feature (the BLOB is the source of truth)."""
    out = {}
    q = np.asarray(query, np.float64)
    qn = float(np.linalg.norm(q)) or 1.0
    ids = sorted(set(int(i) for i in object_ids))
    for chunk, marks in id_chunks(ids):
        for oid, blob in conn.execute(f"SELECT id, feature FROM objects WHERE id IN ({marks})", chunk):
            f = blob_to_feature(blob)
            if f is None or f.shape != q.shape:
                continue
            fn = float(np.linalg.norm(f)) or 1.0
            out[int(oid)] = float(np.dot(f.astype(np.float64), q) / (fn * qn))
    return out
