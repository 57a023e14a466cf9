"""The relation rows (on, under, near, in: subject, relation, object, each valid over [since, until)): the
current ones, those with given anchors now, at a time or ever, an object's supports, and the relation keeper's
writes (a row opened, a row closed; never deleted).

Why one place: queries, the temporal operators, where-to-look, the scene feed and the relation keeper read
and write the same rows; the current set was read the same way by two of them.
"""

from __future__ import annotations

from ..rows import id_chunks
from .base import TableRows, fetch_each, pipelines


class RelationRows(TableRows):
    """Relation rows (every column of the relations table, by name) over one store; the writes (``open``,
    ``open_region_membership``, ``close``) happen inside the caller's transaction."""

    # ------------------------------------------------------------------ current rows
    def current(self) -> list:
        """Every open relation row (until IS NULL), by id."""
        return self._conn.execute("SELECT * FROM relations WHERE until IS NULL ORDER BY id").fetchall()

    def current_of(self, object_id: int) -> list:
        """Open rows with the object as subject or as (non-region) object, by id."""
        return self._conn.execute(
            "SELECT * FROM (SELECT * FROM relations WHERE until IS NULL AND subject_id=? UNION "
            "SELECT * FROM relations WHERE until IS NULL AND object_id=? AND object_is_region=0) ORDER BY id",
            (int(object_id), int(object_id))).fetchall()

    def current_involving(self, ids) -> list:
        """Open rows with any of these objects as subject or as (non-region) object, by id within each chunk of
        rows.SQL_ID_CHUNK ids (a row whose two objects fall in different chunks comes twice: key them by id)."""
        out: list = []
        for chunk, marks in id_chunks(sorted(set(int(i) for i in ids))):
            out += self._conn.execute(
                f"SELECT * FROM relations WHERE until IS NULL AND subject_id IN ({marks}) UNION "
                f"SELECT * FROM relations WHERE until IS NULL AND object_is_region = 0 AND object_id IN ({marks}) "
                "ORDER BY id", chunk + chunk).fetchall()
        return out

    # ------------------------------------------------------------------ anchored reads (relational queries)
    def with_anchors(self, relation: str, anchor_ids, region_ids, t: float | None, *,
                     history: bool = False) -> list:
        """Rows in ``relation`` to the anchor objects (``under``: rows with them on something) and, for the
        region ids, 'in' rows of those regions: open ones (t None), those valid at t (since <= t < until),
        or all (history). The anchors' rows by the related object's id (then row id), the regions' after."""
        if history:
            when, when_args = "", ()
        elif t is None:
            when, when_args = "until IS NULL AND ", ()
        else:  # closed rows have no index on time: the anchors' rows are few, a scan of them is cheap
            when, when_args = "since <= ? AND (until IS NULL OR until > ?) AND ", (t, t)
        rows = []
        if anchor_ids:
            ph = ",".join("?" for _ in anchor_ids)
            if relation == "under":
                rows = self._conn.execute(
                    f"SELECT * FROM relations WHERE {when}relation='on' AND object_is_region=0 "
                    f"AND subject_id IN ({ph}) ORDER BY object_id, id", (*when_args, *anchor_ids)).fetchall()
            else:
                rows = self._conn.execute(
                    f"SELECT * FROM relations WHERE {when}relation=? AND object_is_region=0 "
                    f"AND object_id IN ({ph}) ORDER BY subject_id, id", (*when_args, relation, *anchor_ids)).fetchall()
        if region_ids:
            ph = ",".join("?" for _ in region_ids)
            rows += self._conn.execute(
                f"SELECT * FROM relations WHERE {when}relation='in' AND object_is_region=1 "
                f"AND object_id IN ({ph}) ORDER BY subject_id, id", (*when_args, *region_ids)).fetchall()
        return rows

    # ------------------------------------------------------------------ supports
    _SUPPORT = ("SELECT o.label, o.pinned_label FROM relations r JOIN objects o ON o.id = r.object_id "
                "WHERE r.until IS NULL AND r.subject_id=? AND r.relation='on' AND r.object_is_region=0 "
                "ORDER BY r.id LIMIT 1")

    def current_support(self, object_id: int):
        """(label, pinned_label) of the object the given one stands on now (its oldest open 'on' row), or None."""
        return self._conn.execute(self._SUPPORT, (object_id,)).fetchone()

    def current_supports(self, object_ids) -> list:
        """``[current_support(i) for i in object_ids]`` in one statement per SQL_ID_CHUNK objects: each subject's
        oldest open 'on' row (relations_subject), as _SUPPORT reads it. Why one statement: "where is the book"
        describes every book (9 on day 1 of bench_long_run, 11 on day 30), and one statement each was most of what
        an object added to the answer on SQLite. PostgreSQL pipelines _SUPPORT for each in one round trip
        (base.pipelines: the set form could be planned as a hash over every relation)."""
        ids = [int(i) for i in object_ids]
        if pipelines(self._conn):
            return [rows[0] if rows else None for rows in fetch_each(self._conn, self._SUPPORT, [(i,) for i in ids])]
        found: dict[int, tuple] = {}
        for chunk, marks in id_chunks(sorted(set(ids))):
            for sid, label, pinned in self._conn.execute(
                    "SELECT s.id, o.label, o.pinned_label FROM objects s JOIN relations r ON r.id = (SELECT r2.id "
                    "FROM relations r2 JOIN objects o2 ON o2.id = r2.object_id WHERE r2.until IS NULL AND "
                    "r2.subject_id = s.id AND r2.relation = 'on' AND r2.object_is_region = 0 ORDER BY r2.id LIMIT 1) "
                    f"JOIN objects o ON o.id = r.object_id WHERE s.id IN ({marks})", chunk).fetchall():
                found[int(sid)] = (label, pinned)
        return [found.get(i) for i in ids]

    def supports_during(self, object_id: int, t_from: float, t_to: float) -> list:
        """(object_id, since, until, label, pinned_label) of the 'on' rows of the object that overlap
        (t_from, t_to), by row id."""
        return self._conn.execute(
            "SELECT r.object_id, r.since, r.until, o.label, o.pinned_label FROM relations r "
            "JOIN objects o ON o.id = r.object_id WHERE r.subject_id=? AND r.relation='on' AND "
            "r.object_is_region=0 AND r.since < ? AND (r.until IS NULL OR r.until > ?) ORDER BY r.id",
            (object_id, t_to, t_from)).fetchall()

    # ------------------------------------------------------------------ the keeper's reads and writes
    # Two indexed lookups (an OR across the two partial indexes made SQLite scan the whole table).
    OPEN_KEYS = ("SELECT id, subject_id, relation, object_id, object_is_region FROM relations "
                 "WHERE until IS NULL AND subject_id=? UNION ALL "
                 "SELECT id, subject_id, relation, object_id, object_is_region FROM relations "
                 "WHERE until IS NULL AND object_id=? AND object_is_region=0 AND subject_id != ?")

    def open_keys_of(self, object_id: int) -> dict[tuple, int]:
        """{(subject_id, relation, object_id, object_is_region): row id} of the open rows with the object as
        subject or as (non-region) object."""
        return self._keys(self._conn.execute(self.OPEN_KEYS, (object_id, object_id, object_id)))

    # open_rows_of_each's read on PostgreSQL: OPEN_KEYS's rows as one statement with a stated order (the subject's
    # rows, then the others, each by id), which fetch_many answers for every object in one set-based statement
    # (batching.read_statement: no UNION) where OPEN_KEYS was one statement an object, pipelined (20 of the 45
    # statements a commit sent with two robots: bench/fleet_round_trips.py --writers 2). PostgreSQL reads the OR from
    # both partial indexes (a BitmapOr); SQLite scanned the whole table for it, and keeps OPEN_KEYS.
    OPEN_KEYS_ORDERED = ("SELECT id, subject_id, relation, object_id, object_is_region FROM relations "
                         "WHERE until IS NULL AND (subject_id=? OR (object_id=? AND object_is_region=0 "
                         "AND subject_id != ?)) ORDER BY subject_id != ?, id")

    def open_rows_of_each(self, object_ids) -> list[list[tuple]]:
        """``[(row id, (subject_id, relation, object_id, object_is_region)) of open_keys_of's rows]`` for each
        object, on PostgreSQL in one round trip and one statement (OPEN_KEYS_ORDERED). Its order may differ from
        open_keys_of's (OPEN_KEYS states none) only among rows of one key, and an object has one open row a key (the
        keeper opens a key's row only when none is open: RelationKeeper.update), so the keys and ids are the same."""
        ids = [int(i) for i in object_ids]
        if pipelines(self._conn):
            runs = fetch_each(self._conn, self.OPEN_KEYS_ORDERED, [(i, i, i, i) for i in ids])
        else:
            runs = fetch_each(self._conn, self.OPEN_KEYS, [(i, i, i) for i in ids])
        return [[(r[0], (r[1], r[2], r[3], r[4])) for r in rows] for rows in runs]

    @staticmethod
    def _keys(rows) -> dict[tuple, int]:
        existing = {}
        for r in rows:
            existing[(r[1], r[2], r[3], r[4])] = r[0]
        return existing

    def close(self, relation_id: int, when: float) -> None:
        """Close the row at ``when`` (never before it began)."""
        self._conn.execute("UPDATE relations SET until=MAX(since, ?) WHERE id=?", (when, relation_id))

    def open(self, key: tuple, confidence: float, since: float) -> None:
        """Open a row for key (subject_id, relation, object_id, object_is_region)."""
        self._conn.execute(
            "INSERT INTO relations (subject_id, relation, object_id, object_is_region, confidence, since) "
            "VALUES (?,?,?,?,?,?)", (*key, confidence, since))

    def open_region_membership(self, subject_id: int, region_id: int, confidence: float, since: float) -> None:
        """Open the subject's 'in' row of a region."""
        self._conn.execute(
            "INSERT INTO relations (subject_id, relation, object_id, object_is_region, confidence, since) "
            "VALUES (?,?,?,1,?,?)", (subject_id, "in", region_id, confidence, since))
