"""Reads of the change events (appeared, moved, removed, reappeared, relabelled, forgotten): all of them, one
object's, those in a time window, and those after a cursor. Retracted events (a change later found wrong)
are never returned.
"""

from __future__ import annotations

from ..event_names import STATE_ENDING
from ..rows import EVENT_COLS
from .base import TableRows, fetch_each


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

    #: an object's relabelled and state-ending events after a key (stamp, id), a page from the oldest; the
    #: redundant ``stamp >= ?`` lets the seek on events_object (object_id, stamp) start at the key (with the OR
    #: alone SQLite walks the object's events from its first); the LIMIT a literal, as PlacementRows.newest_of's
    _FOLLOWING = (f"SELECT id, stamp, kind, object_id, label, before_id, after_id FROM events WHERE object_id = ? "
                  f"AND retracted = 0 AND kind IN ({','.join('?' * (1 + len(STATE_ENDING)))}) AND stamp >= ? "
                  "AND (stamp > ? OR id > ?) ORDER BY stamp, id LIMIT {n}")
    #: the first page: most objects are relabelled a few times in a life, so their next state-ending event is in it
    FOLLOWING_PAGE = 4

    def following(self, asks) -> dict[tuple, tuple]:
        """{(object id, (stamp, id)): (row, relabel)} for each ask: ``row`` the object's first state-ending event
        (event_names.STATE_ENDING) after the key, with the places it announced (before_id, after_id), or None when
        there is none; ``relabel`` the label of its last relabelling between the key and that row, or None. What
        event_names.name_events names an event by: the next state only, not every later one (a month of them on
        a day-1 event). Pages of FOLLOWING_PAGE rows, four times larger while no state has ended; the first pages
        of all asks pipelined on PostgreSQL (base.fetch_each)."""
        kinds = ("relabelled", *STATE_ENDING)
        asks = list(dict.fromkeys((int(o), (float(k[0]), int(k[1]))) for o, k in asks))

        def args(oid, key):
            return (oid, *kinds, key[0], key[0], key[1])
        out: dict[tuple, tuple] = {}
        pages = fetch_each(self._conn, self._FOLLOWING.format(n=self.FOLLOWING_PAGE), [args(o, k) for o, k in asks])
        for (oid, key), page in zip(asks, pages):
            n, relabel = self.FOLLOWING_PAGE, None
            while True:
                end = None
                for r in page:
                    if r["kind"] == "relabelled":
                        relabel = r["label"]
                    else:
                        end = r
                        break
                if end is not None or len(page) < n:
                    out[(oid, key)] = (end, relabel if end is not None else None)
                    break
                last = (float(page[-1]["stamp"]), int(page[-1]["id"]))
                n = min(4 * n, 1024)
                page = self._conn.execute(self._FOLLOWING.format(n=n), args(oid, last)).fetchall()
        return out
