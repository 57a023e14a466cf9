"""Staging: the frames and observations add() writes at once (fused later by commit()), the quarantine of
frames whose stamp jumps far ahead, and the frame counts and "now" read from them.

Why written at once: nothing that reached the memory is lost if the process dies before the next commit
(memory.py). Frames a retention pass compacted (kept only for the sightings or misses it kept) never count
as staged or accepted (schema.FRAMES_LIVE).
"""

from __future__ import annotations

from .base import TableRows
from .schema import FRAMES_LIVE


class StagedFrames(TableRows):
    """Frame and staged-observation rows over one store; the writes happen inside the caller's transaction."""

    #: What a staging reads before it writes (Memory._stage; Store.staging reads them with the lock): "now", and the
    #: quarantined frames (id, stamp) in arrival order.
    NEWEST_ACCEPTED = (f"SELECT MAX(m) FROM (SELECT MAX(stamp) AS m FROM frames WHERE status='fused' AND {FRAMES_LIVE} "
                       f"UNION ALL SELECT MAX(stamp) FROM frames WHERE status='pending' AND {FRAMES_LIVE})")
    NEWEST_FUSED = f"SELECT MAX(stamp) FROM frames WHERE status='fused' AND {FRAMES_LIVE}"
    #: a row when a frame is staged and not yet fused (Memory._commit_locked: the fusion lock is taken only then)
    ANY_PENDING = f"SELECT 1 FROM frames WHERE status='pending' AND {FRAMES_LIVE} LIMIT 1"
    QUARANTINED = f"SELECT id, stamp FROM frames WHERE status='quarantined' AND {FRAMES_LIVE} ORDER BY id"
    STAGE_READS = (NEWEST_ACCEPTED, QUARANTINED)

    @staticmethod
    def newest_of(rows) -> float | None:
        """The stamp NEWEST_ACCEPTED's or NEWEST_FUSED's rows hold (one MAX each), or None when no frame counts: read
        apart from the statement because Store.staging and Store.fusing send it with the lock."""
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    # ------------------------------------------------------------------ reads
    def newest_accepted(self) -> float | None:
        """Newest stamp of a staged or fused frame (quarantined and refused frames never count): two
        seeks on the (status, stamp, id) index."""
        return self.newest_of(self._conn.execute(self.NEWEST_ACCEPTED).fetchall())

    def newest_fused(self) -> float | None:
        """Newest stamp of a fused frame (None when none): "now" of a commit is this or the newest frame it fuses
        (Memory._commit_locked)."""
        return self.newest_of(self._conn.execute(self.NEWEST_FUSED).fetchall())

    def pending_count(self, through: float | None = None) -> int:
        """Frames staged and not yet fused (``through``: only those stamped at or before it)."""
        if through is None:
            return int(self._conn.execute(f"SELECT COUNT(*) FROM frames WHERE status='pending' AND {FRAMES_LIVE}")
                       .fetchone()[0])
        return int(self._conn.execute(f"SELECT COUNT(*) FROM frames WHERE status='pending' AND {FRAMES_LIVE} "
                                      "AND stamp <= ?", (float(through),)).fetchone()[0])

    def pending_from_others(self, source: str) -> bool:
        """Whether a staged frame of another source (robot) than ``source`` waits to be fused."""
        return self._conn.execute(f"SELECT 1 FROM frames WHERE status='pending' AND {FRAMES_LIVE} AND source <> ? "
                                  "LIMIT 1", (source,)).fetchone() is not None

    def quarantined_count(self) -> int:
        """Frames held in quarantine."""
        return int(self._conn.execute(f"SELECT COUNT(*) FROM frames WHERE status='quarantined' AND {FRAMES_LIVE}")
                   .fetchone()[0])

    def count_with_status(self, status: str) -> int:
        """Frames with this status (compacted ones included when that is the status asked for)."""
        return int(self._conn.execute("SELECT COUNT(*) FROM frames WHERE status=?", (status,)).fetchone()[0])

    def has_frame(self, stamp: float, n_observations: int) -> bool:
        """Whether a frame with this stamp and number of observations exists (any status)."""
        return self._conn.execute("SELECT 1 FROM frames WHERE stamp=? AND n_observations=? LIMIT 1",
                                  (stamp, int(n_observations))).fetchone() is not None

    def quarantined(self) -> list:
        """(id, stamp) of the quarantined frames, in arrival order (by id)."""
        return self._conn.execute(self.QUARANTINED).fetchall()

    def observation_ids_of(self, frame_ids: list[int]) -> list[int]:
        """Ids of the observations of these frames, ascending."""
        marks = ",".join("?" for _ in frame_ids)
        return [int(r[0]) for r in self._conn.execute(
            f"SELECT id FROM observations WHERE frame_id IN ({marks}) ORDER BY id", frame_ids)]

    # ------------------------------------------------------------------ writes
    _FRAME_COLUMNS = ("stamp, recorded_at, status, has_view, pose, fx, fy, cx, cy, width, height, max_range, depth, "
                      "depth_h, depth_w, min_object_pixels, n_observations, source")

    def insert_frame(self, stamp: float, recorded_at: float, status: str, view_cols: tuple, n_observations: int,
                     source: str, frame_id: int | None = None) -> int:
        """Write a frame row; ``view_cols``: has_view, pose, fx, fy, cx, cy, width, height, max_range, depth,
        depth_h, depth_w, min_object_pixels (Memory._stage). Returns its id: ``frame_id`` when given (an id
        Store.staging reserved: the row is written without waiting for the server), else the one it took."""
        values = (stamp, recorded_at, status, *view_cols, n_observations, source)
        if frame_id is not None:
            self._conn.executemany(f"INSERT INTO frames (id, {self._FRAME_COLUMNS}) VALUES ({'?,' * 18}?)",
                                   [(int(frame_id), *values)])
            return int(frame_id)
        cur = self._conn.execute(f"INSERT INTO frames ({self._FRAME_COLUMNS}) VALUES ({'?,' * 17}?)", values)
        return int(cur.lastrowid)

    _OBSERVATION_COLUMNS = ("frame_id, stamp, recorded_at, label, confidence, cx, cy, cz, min_x, min_y, min_z, "
                            "max_x, max_y, max_z, feature, n_points, instance_id, verdict, source")
    _INSERT_OBSERVATION = f"INSERT INTO observations ({_OBSERVATION_COLUMNS}) VALUES ({'?,' * 18}?)"
    _INSERT_OBSERVATION_WITH_ID = f"INSERT INTO observations (id, {_OBSERVATION_COLUMNS}) VALUES ({'?,' * 19}?)"

    def insert_observation(self, frame_id: int, stamp: float, recorded_at: float, label: str, confidence: float,
                           center, bbox_min, bbox_max, feature_blob, n_points: int, instance_id: int, verdict: str,
                           source: str) -> int:
        """Write one staged observation of the frame. Returns its id."""
        return self.insert_observations([(frame_id, stamp, recorded_at, label, confidence, center, bbox_min,
                                           bbox_max, feature_blob, n_points, instance_id, verdict, source)])[0]

    def insert_observations(self, rows, first_id: int | None = None) -> list[int]:
        """Write staged observations (each: insert_observation's arguments, in order) in that order; returns
        their ids. With ``first_id`` (ids Store.staging reserved) the rows take first_id, first_id + 1, ... and are
        written without waiting (on PostgreSQL one statement, sent with the commit); else on PostgreSQL in one round
        trip (postgres/connection.py insert_many), on SQLite one call each (lastrowid)."""
        params = [(frame_id, stamp, recorded_at, label, confidence, *center, *bbox_min, *bbox_max, feature_blob,
                   n_points, instance_id, verdict, source)
                  for (frame_id, stamp, recorded_at, label, confidence, center, bbox_min, bbox_max, feature_blob,
                       n_points, instance_id, verdict, source) in rows]
        if first_id is not None:
            ids = list(range(int(first_id), int(first_id) + len(params)))
            if params:
                self._conn.executemany(self._INSERT_OBSERVATION_WITH_ID, [(i, *p) for i, p in zip(ids, params)])
            return ids
        many = getattr(self._conn, "insert_many", None)
        if many is not None:
            return many(self._INSERT_OBSERVATION, params)
        return [int(self._conn.execute(self._INSERT_OBSERVATION, p).lastrowid) for p in params]

    def refuse_frames(self, frame_ids: list[int]) -> None:
        """Mark quarantined frames refused (never fused) and drop their depth image."""
        marks = ",".join("?" for _ in frame_ids)
        self._conn.execute(f"UPDATE frames SET status='refused', depth=NULL WHERE id IN ({marks})", frame_ids)

    def reject_stamp_jumped(self, frame_ids: list[int]) -> None:
        """Give the observations of refused frames the verdict rejected, reason stamp_jump."""
        marks = ",".join("?" for _ in frame_ids)
        self._conn.execute(f"UPDATE observations SET verdict='rejected', reason='stamp_jump' "
                           f"WHERE frame_id IN ({marks})", frame_ids)

    def release(self, frame_ids: list[int]) -> None:
        """Stage quarantined frames and their observations (pending: fused by the next commit)."""
        marks = ",".join("?" for _ in frame_ids)
        self._conn.execute(f"UPDATE frames SET status='pending' WHERE id IN ({marks})", frame_ids)
        self._conn.execute(f"UPDATE observations SET verdict='pending' WHERE frame_id IN ({marks})", frame_ids)

    def mark_fused(self, frame_id: int) -> None:
        """After the frame was fused: its status, and its depth (in the row or in frame_depths) is dropped."""
        self._conn.execute("UPDATE frames SET status='fused', depth=NULL WHERE id=?", (frame_id,))
        self._conn.execute("DELETE FROM frame_depths WHERE frame_id=?", (frame_id,))
