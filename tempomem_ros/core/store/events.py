"""Reads of the change events (appeared, moved, removed, reappeared, relabelled, forgotten): all of them, one
object's, those in a time window, and those after a cursor. Retracted events (a change later found wrong)
are never returned.
"""

from __future__ import annotations

from ..event_names import STATE_ENDING
from ..rows import EVENT_COLS, id_chunks
from .base import TableRows


class EventRows(TableRows):
    """Event rows (every column of rows.EVENT_COLS, by name) over one store; nothing here writes."""

    def after(self, after_id: int, limit: int = -1) -> list:
        """Events with id > after_id, by id; at most ``limit`` (-1: all). A publisher's cursor: a removal is
        stamped with its first miss, so a time window could skip it."""
        return self._conn.execute(f"SELECT {EVENT_COLS} FROM events WHERE id > ? AND retracted = 0 "
                                  "ORDER BY id LIMIT ?",
                                  (int(after_id), limit)).fetchall()

    def last_id(self) -> int:
        """The newest shown event's id (0 when there is none): where a publisher that starts now begins."""
        return int(self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM events WHERE retracted = 0").fetchone()[0])

    def all(self) -> list:
        """Every event, in stamp order (ties by id)."""
        return self._conn.execute(f"SELECT {EVENT_COLS} FROM events WHERE retracted = 0 "
                                  "ORDER BY stamp, id").fetchall()

    def of_object(self, object_id: int) -> list:
        """The object's events, in stamp order (ties by id)."""
        return self._conn.execute(f"SELECT {EVENT_COLS} FROM events WHERE object_id=? AND retracted = 0 "
                                  "ORDER BY stamp, id",
                                  (int(object_id),)).fetchall()

    def of_object_kind(self, object_id: int, kind: str, lo: float, hi: float) -> list:
        """The object's events of one kind with lo <= stamp <= hi, in stamp order (ties by id): through
        events_object (object_id, stamp), not every event of the object (the yes/no checks, checks.py)."""
        return self._conn.execute(f"SELECT {EVENT_COLS} FROM events WHERE object_id=? AND stamp >= ? AND stamp <= ? "
                                  "AND kind=? AND retracted = 0 ORDER BY stamp, id",
                                  (int(object_id), lo, hi, kind)).fetchall()

    def last_of_object_kind(self, object_id: int, kind: str):
        """The object's newest event of one kind (the last of of_object_kind over all time), or None: one row
        through events_object, not every such event of the object (a thing removed every few days has dozens)."""
        return self._conn.execute(f"SELECT {EVENT_COLS} FROM events WHERE object_id=? AND kind=? AND retracted = 0 "
                                  "ORDER BY stamp DESC, id DESC LIMIT 1", (int(object_id), kind)).fetchone()

    def between(self, lo: float, hi: float, kinds: tuple[str, ...] | None = None) -> list:
        """Events with lo <= stamp <= hi (only of ``kinds`` when given, a non-empty tuple), in stamp order
        (ties by id)."""
        kind_filter, kind_args = "", ()
        if kinds is not None:
            kind_args = tuple(kinds)
            kind_filter = f" AND kind IN ({','.join('?' * len(kind_args))})"
        return self._conn.execute(
            f"SELECT {EVENT_COLS} FROM events WHERE stamp >= ? AND stamp <= ? AND retracted = 0{kind_filter} "
            "ORDER BY stamp, id",
            (lo, hi, *kind_args)).fetchall()

    def naming(self, object_ids, from_key: tuple[float, int] | None = None) -> list:
        """The relabelled and state-ending events (event_names.STATE_ENDING) of these objects, in (stamp, id)
        order, with the places they announced (before_id, after_id): what names an event when it is read
        (event_names.py). With ``from_key`` (stamp, id) only those at
        or after it: event_names names an event from the events after it alone, so the events of one object
        read from their earliest key on get the same names (is_present names an object's last removal without
        reading the month of moves and removals before it)."""
        kinds = ("relabelled", *STATE_ENDING)
        after, after_args = "", ()
        if from_key is not None:
            after, after_args = " AND (stamp > ? OR (stamp = ? AND id >= ?))", (from_key[0], from_key[0], from_key[1])
        out = []
        for chunk, marks in id_chunks(sorted(set(int(i) for i in object_ids))):
            out += self._conn.execute(
                f"SELECT id, stamp, kind, object_id, label, before_id, after_id FROM events WHERE retracted = 0 "
                f"AND object_id IN ({marks}) AND kind IN ({','.join('?' * len(kinds))}){after}",
                (*chunk, *kinds, *after_args)).fetchall()
        return sorted(out, key=lambda r: (float(r["stamp"]), int(r["id"])))
