"""Each event's link to the event that ended the state it announced (schema version 12), kept at write time.

Why: a change is named from its object's next state (event_names.name_events): the first state-ending event
(moved, removed, reappeared) after it and the label of the last relabelling between the two. Found at read time
that was a seek on events_object per event named, and once the state has ended (every state of day 1, asked on day
30 of bench_long_run) a read of the ending row and a second seek for the relabelling: EventRows.following 68.0 ->
108.8 VM steps x100 for the changes of day 1, day 1 -> day 30, the larger part of what that call grew by
(docs/RESULTS.md section 6, round 10). Kept on the event itself (``ended_by``: the id of that next state-ending event,
NULL while its state holds; ``ended_label``: the label of the last relabelling between them, NULL when none or while
the state holds), naming an event reads its own row by id, the same on day 30 as on day 1, and the ending row only
when the name may chain to the next state's (event_names.may_take_next).

What the columns equal, always: what EventRows.following finds by seeking (the old read, kept for a store read as it
is, older than version 12), over the events not retracted. How: by triggers on events (SQLite below,
postgres/schema.py), so every write that inserts an event, retracts one, re-points it or deletes it (a recovery's
repair) relinks, whichever code path writes. A write at (object o, stamp s) can only change the links of o's events
from its last state-ending event before s up to s (those before it end at it or earlier, those after s end after
them); the triggers recompute exactly that stretch (more when stamps tie: recomputing a link that did not change
writes the same value). So a move relinks the few events of the state it ends, not the object's history.

A store whose triggers are gone (dropped by hand, or by a tool that copies tables without them) would keep stale
links with no error: every open checks they are there (StoreMeta.has_event_links). A writer's open puts them back
and fills the links again (store/schema.py and postgres/store.py, keep_event_links); a read-only one seeks the
states instead (EventRows.following's old read), as it does on a store older than version 12.
"""

from __future__ import annotations

from ..event_names import STATE_ENDING

_ENDING = "', '".join(STATE_ENDING)
#: the columns (SQLite; PostgreSQL's types in postgres/schema.py)
COLUMNS = ("ended_by", "ended_label")
#: an event row's next state-ending event (the row is the UPDATE's target, ``events``)
NEXT_END = ("(SELECT x.id FROM events x WHERE x.object_id = events.object_id AND x.retracted = 0 "
            f"AND x.kind IN ('{_ENDING}') AND x.stamp >= events.stamp AND (x.stamp > events.stamp OR x.id > events.id) "
            "ORDER BY x.stamp, x.id LIMIT 1)")
#: the label of its last relabelling before that event (after ended_by is set)
LAST_RELABEL = ("(SELECT r.label FROM events x, events r WHERE x.id = events.ended_by "
                "AND r.object_id = events.object_id AND r.retracted = 0 AND r.kind = 'relabelled' "
                "AND r.stamp >= events.stamp AND (r.stamp > events.stamp OR r.id > events.id) AND r.stamp <= x.stamp "
                "AND (r.stamp < x.stamp OR r.id < x.id) ORDER BY r.stamp DESC, r.id DESC LIMIT 1)")
#: the stretch a write at object {o}, stamp {s} can relink: from the stamp of o's last state-ending event before s
_STRETCH = ("object_id = {o} AND stamp <= {s} AND stamp >= COALESCE((SELECT p.stamp FROM events p "
            f"WHERE p.object_id = {{o}} AND p.retracted = 0 AND p.kind IN ('{_ENDING}') AND p.stamp < {{s}} "
            "ORDER BY p.stamp DESC LIMIT 1), -1e308)")


#: Why this index: each ending of the stretch was found by scanning the object's events after its row (the state's
#: events, every one of them for a state that has not ended), and every row of the stretch was rewritten, changed
#: or not, so a write cost the square of its state's events: a cup relabelled 400 times where it stands took
#: 0.86 s of CPU for 50 more relabellings (SQLite, this machine), 11 ms with the index and the rows left as they
#: are when their link holds (relink); test_core_event_links counts the rows rewritten. (The relabelling is
#: sought backwards from the ending on events_object and stops at the first one: no index of its own.)
ENDINGS_INDEX = (f"CREATE INDEX IF NOT EXISTS events_endings ON events(object_id, stamp, id) WHERE retracted = 0 "
                 f"AND kind IN ('{_ENDING}')")
INDEXES = [ENDINGS_INDEX]


def relink(o: str, s: str, differs: str = "IS NOT") -> list[str]:
    """The two statements that recompute the links of the stretch a write at object ``o``, stamp ``s`` (SQL
    expressions: NEW.object_id, OLD.stamp, a parameter) can change: the ending first, then its relabelling; a row
    whose link holds is left as it is (``differs``: SQLite's IS NOT, PostgreSQL's IS DISTINCT FROM)."""
    where = _STRETCH.format(o=o, s=s)
    return [f"UPDATE events SET ended_by = {NEXT_END} WHERE {where} AND ended_by {differs} {NEXT_END}",
            f"UPDATE events SET ended_label = {LAST_RELABEL} WHERE {where} AND ended_label {differs} {LAST_RELABEL}"]


#: every event's links from scratch (the migration to version 12)
FILL = [f"UPDATE events SET ended_by = {NEXT_END}", f"UPDATE events SET ended_label = {LAST_RELABEL}"]
#: the columns a write changes a link through (the triggers' UPDATE OF: not the links themselves, so the triggers'
#: own UPDATEs fire nothing)
KEYED_BY = "id, object_id, stamp, kind, label, retracted"


def _body(*pairs: tuple[str, str]) -> str:
    return " ".join(f"{stmt};" for o, s in pairs for stmt in relink(o, s))


#: the names of SQLite's triggers (below) and PostgreSQL's one (postgres/schema.py): an open checks they are there
SQLITE_TRIGGER_NAMES = ("events_links_insert", "events_links_update", "events_links_delete")
PG_TRIGGER_NAME = "events_links"

#: SQLite's triggers: an insert relinks at the new row, a delete at the old, an update at both
SQLITE_TRIGGERS = [
    f"CREATE TRIGGER IF NOT EXISTS events_links_insert AFTER INSERT ON events BEGIN "
    f"{_body(('NEW.object_id', 'NEW.stamp'))} END",
    f"CREATE TRIGGER IF NOT EXISTS events_links_update AFTER UPDATE OF {KEYED_BY} ON events BEGIN "
    f"{_body(('OLD.object_id', 'OLD.stamp'), ('NEW.object_id', 'NEW.stamp'))} END",
    f"CREATE TRIGGER IF NOT EXISTS events_links_delete AFTER DELETE ON events BEGIN "
    f"{_body(('OLD.object_id', 'OLD.stamp'))} END",
]

__all__ = ["COLUMNS", "FILL", "INDEXES", "KEYED_BY", "NEXT_END", "LAST_RELABEL", "PG_TRIGGER_NAME", "SQLITE_TRIGGERS",
           "SQLITE_TRIGGER_NAMES", "relink"]
