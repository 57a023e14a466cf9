"""Reads of the change events (appeared, moved, removed, reappeared, relabelled, forgotten): all of them, one
object's, those in a time window, and those after a cursor. Retracted events (a change later found wrong)
are never returned.
"""

from __future__ import annotations

from ..event_names import STATE_ENDING
from ..rows import EVENT_COLS, SQL_ID_CHUNK, id_chunks, prefixed
from .base import TableRows, fetch_each, pipelines


class EventRows(TableRows):
    """Event rows (every column of rows.EVENT_COLS, by name) over one store; nothing here writes. ``linked``: the
    events carry their links to the events that ended their states (schema version 12, event_links.py), which
    ``following`` then reads instead of seeking them (a store read as it is, older, and the default: the seek)."""

    def __init__(self, store, *, linked: bool = False):
        super().__init__(store)
        self.linked = linked

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

    #: the object's first state-ending event after the ask's key (stamp, id) and, beside it, the label of its last
    #: relabelling between the two: two correlated lookups of an ask (oid, s, i) on events_object (object_id,
    #: stamp), each reading from the key to the next state only. The redundant ``stamp >= s`` lets the seek start
    #: at the key (with the OR alone SQLite walks the object's events from its first).
    _ENDING = "','".join(STATE_ENDING)
    _NEXT_END = ("SELECT x.id FROM events x WHERE x.object_id = {oid} AND x.retracted = 0 "
                 f"AND x.kind IN ('{_ENDING}') AND x.stamp >= {{s}} AND (x.stamp > {{s}} OR x.id > {{i}}) "
                 "ORDER BY x.stamp, x.id LIMIT 1")
    _LAST_RELABEL = ("SELECT r.label FROM events r WHERE r.object_id = e.object_id AND r.retracted = 0 "
                     "AND r.kind = 'relabelled' AND r.stamp >= {s} AND (r.stamp > {s} OR r.id > {i}) "
                     "AND r.stamp <= e.stamp AND (r.stamp < e.stamp OR r.id < e.id) "
                     "ORDER BY r.stamp DESC, r.id DESC LIMIT 1")
    _NAMING_COLS = "id, stamp, kind, object_id, label, before_id, after_id"  # what naming reads of an ending
    _FOLLOWING_COLS = prefixed(_NAMING_COLS, "e")
    #: one ask (PostgreSQL, pipelined: base.pipelines says why not the set form there)
    _FOLLOWING_ONE = (f"SELECT {_FOLLOWING_COLS}, ({_LAST_RELABEL.format(s='?', i='?')}) AS relabel FROM events e "
                      f"WHERE e.id = ({_NEXT_END.format(oid='?', s='?', i='?')})")
    #: many asks in one statement (SQLite): the asks as a VALUES table (oid, s, i)
    _FOLLOWING_SET = (f"WITH a(oid, s, i) AS (VALUES {{marks}}) SELECT a.oid, a.s, a.i, {_FOLLOWING_COLS}, "
                      f"({_LAST_RELABEL.format(s='a.s', i='a.i')}) AS relabel FROM a JOIN events e "
                      f"ON e.id = ({_NEXT_END.format(oid='a.oid', s='a.s', i='a.i')})")

    def following(self, asks) -> dict[tuple, tuple]:
        """{(object id, (stamp, id)): (row, relabel)} for each ask: ``row`` the object's first state-ending event
        (event_names.STATE_ENDING) after the key, with the places it announced (before_id, after_id), or None when
        there is none; ``relabel`` the label of its last relabelling between the key and that row, or None. What
        event_names.name_events names an event by: the next state only, not every later one (a month of them on
        a day-1 event). On SQLite one statement per SQL_ID_CHUNK // 3 asks (a statement an ask was most of a day-1
        call's cost; 3 parameters an ask: 498 a statement, below the 999 SQLite allowed before 3.32), on
        PostgreSQL one an ask, pipelined (base.fetch_each).

        A linked store (schema version 12) answers from the asked events' own rows, read by id: ``row`` is then
        the ending event's id alone (by_ids reads its row, which name_events needs only when a name chains), so
        an ask costs the same whether its state still holds (day 1) or ended since (day 30). Each ask is an
        event's own key (its object, stamp and id), as name_events asks."""
        asks = list(dict.fromkeys((int(o), (float(k[0]), int(k[1]))) for o, k in asks))
        out: dict[tuple, tuple] = {ask: (None, None) for ask in asks}
        if self.linked:
            by_id = {k[1]: (o, k) for o, k in asks}
            for chunk, marks in id_chunks(sorted(by_id)):
                for r in self._conn.execute(f"SELECT id, ended_by, ended_label FROM events WHERE id IN ({marks})",
                                            tuple(chunk)).fetchall():
                    if r[1] is not None:  # every row read, ended or not: the same statement on day 1 and day 30
                        out[by_id[int(r[0])]] = (int(r[1]), r[2])
            return out
        if pipelines(self._conn):
            rows = fetch_each(self._conn, self._FOLLOWING_ONE, [(k[0], k[0], k[1], o, k[0], k[0], k[1])
                                                                 for o, k in asks])
            for ask, got in zip(asks, rows):
                if got:
                    out[ask] = (got[0], got[0]["relabel"])
            return out
        # 3 parameters an ask: 498, below SQLite's old 999; not padded (rows of VALUES, not an IN list of ids)
        for chunk, _ in id_chunks(asks, SQL_ID_CHUNK // 3, pad=False):
            sql = self._FOLLOWING_SET.format(marks=",".join("(?, ?, ?)" for _ in chunk))
            for r in self._conn.execute(sql, [v for o, k in chunk for v in (o, k[0], k[1])]).fetchall():
                out[(int(r["oid"]), (float(r["s"]), int(r["i"])))] = (r, r["relabel"])
        return out

    def by_ids(self, ids) -> dict[int, object]:
        """{id: row} of these events with the columns following's rows have (the ending events a linked store's
        following names by id, read when a name chains past them)."""
        out: dict[int, object] = {}
        for chunk, marks in id_chunks(sorted({int(i) for i in ids})):
            for r in self._conn.execute(f"SELECT {self._NAMING_COLS} FROM events "
                                        f"WHERE id IN ({marks})", tuple(chunk)).fetchall():
                out[int(r["id"])] = r
        return out
