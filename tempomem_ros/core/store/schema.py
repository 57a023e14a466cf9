"""The SQLite schema, its version, forward migrations and how a store file is opened.

Why SQLite with explicit transactions: the whole memory is one file that survives restarts, and a commit
either lands completely or not at all (a crash never leaves a half-fused state). Why WAL: readers (service
calls from another connection or process) are not blocked by the fusing writer. pysqlite3 is preferred
when installed because the stdlib build here cannot load extensions (sqlite-vec); both have R*Tree.

Why opening checks so much (docs/MEMORY.md, "Opening a store"): a store is often a file copied from a
robot, and a damaged or foreign file must be refused with a message that says what is wrong, not fail
later with a raw KeyError, or worse, accept writes into damaged pages. A writable open runs SQLite's quick
check; the metadata and every table are checked on every open.
"""

from __future__ import annotations

import os

from ..errors import RECOVER_HINT, SchemaError, StoreAccessError, StoreCorruptError, store_error
from .base import atomic
from .event_links import FILL as EVENT_LINKS_FILL
from .event_links import INDEXES as EVENT_LINK_INDEXES
from .event_links import SQLITE_TRIGGER_NAMES as EVENT_LINK_TRIGGER_NAMES
from .event_links import SQLITE_TRIGGERS as EVENT_LINK_TRIGGERS

try:  # pragma: no cover - which one depends on the installation
    from pysqlite3 import dbapi2 as sqlite3
except ImportError:  # pragma: no cover
    import sqlite3  # type: ignore[no-redef]

SCHEMA_VERSION = 17
WORLD_FRAME = "map"  # the frame a new store records unless its creator names another (meta world_frame)
#: Read-only opens accept stores from this version on: version 4 only adds a trigger, which reads do not
#: depend on, so a store on read-only media written at version 3 stays readable (version 3 added columns).
#: Version 5 (retention) adds tables that reads consult only when the store has ever been thinned, which a store
#: before version 5 never was (Retention._thinned_ever), so they stay readable too.
#: Version 6 (sources) adds columns that reads of an older store supply as '' (observations.py).
#: Version 7 only narrows an index (FRAMES_PENDING_INDEX); every query also works with the full one.
#: Version 8 only widens an index (OBSERVATIONS_PLACEMENT_INDEX) and adds one (TALLIES_LAST_INDEX); every query
#: also works without them.
#: Version 9 only adds a partial index (PLACEMENTS_CURRENT_INDEX) and widens one (PLACEMENTS_OBJECT_INDEX); every
#: query also works without them.
#: Version 10 adds held_events.lookalike_id, which only the settling step (a writer, after migrating) reads.
#: Version 11 adds the placements' label tallies (place_labels); a read of an older store counts its observations
#: (place_labels.PlaceLabelRows), which is what the tallies' kept column holds.
#: Version 12 adds each event's link to the event that ended its state (event_links.py); a read of an older store
#: seeks it (EventRows.following), which is what the links hold.
#: Version 13 changes nothing on SQLite (PostgreSQL's version 13 gives its label-tally trigger the WHEN of SQLite's
#: triggers); the number names one schema on both backends.
#: Version 14 only adds an index (PLACEMENTS_START_INDEX); every query also works without it (PlacementRows reads
#: a store without it as before).
#: Version 15 only drops two indexes and narrows two (KEPT_SIGHTING_FREE_INDEXES); every query also works with the
#: old ones.
#: Version 17 adds the folded counts of the per-look label rule's older visits (label_look_counts), which no read
#: consults; a writer's open migrates a store and its next retention pass folds the older visits there.
READ_COMPATIBLE_FROM = 3
# Covers an as-of read of the whole scene in object order (temporal.scene_as_of): a page at offset 9,800 of
# 10k objects takes 1 ms instead of 5 ms scanning the table (schema version 2).
PLACEMENTS_AS_OF_INDEX = "CREATE INDEX IF NOT EXISTS placements_asof ON placements(object_id, id, t_from, t_to)"
# Version 9: an object's current placement, from an index of the current placements alone. Why: current answers,
# the citations of every answer (the current placement's evidence) and each fusion's "close the current placement"
# found it by walking all of the object's placements from its oldest (placements_object) and reading each row to
# test current = 1: a walk that grows with every move and reappearance (an object of bench_long_run's day-30 store
# has 36 placements). Measured (`python bench/long_run_calls.py STORE.day1 STORE.day30 --services current --no-fit`,
# thin/off): VM steps of a current answer on day 30 8.6 -> 8.0 x100, about 1 % of its CPU. Partial: one entry an
# object (about 20 B), not one a placement; SQLite uses it only for a query that states current = 1, which every
# current-placement read does.
PLACEMENTS_CURRENT_INDEX = ("CREATE INDEX IF NOT EXISTS placements_current ON placements(object_id, t_from) "
                            "WHERE current = 1")
# Version 9 too: an object's placements by t_from carry t_to. Why: the size of the scene as of t (count_as_of, the
# total of every paged scene_as_of) tests t_from <= t < t_to for each placement of each shown object that began by t;
# the index bounded t_from but not t_to, so SQLite read each of those placement rows for it. With t_to in the entry
# the count reads the index alone. Measured (`python bench/long_run_calls.py STORE.day1 STORE.day30 --services
# scene_as_of --no-fit --scene-pages`, thin/off): scene_as_of's full pages, CPU p95 day 30 over day 1 x1.10, x1.10
# -> x1.04, x1.06 (two runs each); VM steps a call on day 30 120.8 -> 117.5 x100; the same counts. 8 bytes more a
# placement.
PLACEMENTS_OBJECT_INDEX = "CREATE INDEX IF NOT EXISTS placements_object ON placements(object_id, t_from, id, t_to)"
# Version 14: the placements by when they began. Why: the scene as of t (a page in object order and its total) walks
# the shown objects in id order and seeks each one's placements that began by t, so the scene of a day-1 time asked
# on day 30 walked every object made since too, none of which holds a placement then; the largest object id holding
# a placement that began by t, read from this index when few did (store/placements.py walk_bound), ends the walk.
# Measured (`python bench/long_run_calls.py STORE.day1 STORE.day30 --services scene_as_of@1 --no-fit`, thin/off;
# docs/RESULTS.md section 6, round 13). 16 bytes a placement.
PLACEMENTS_START_INDEX = "CREATE INDEX IF NOT EXISTS placements_start ON placements(t_from, object_id)"

# Version 3: the absence evidence of separate looks, held events and learned label confusion.
# Label mass by label: how often the segmenter confused two labels is summed over the objects that hold both.
LABEL_MASS_BY_LABEL_INDEX = "CREATE INDEX IF NOT EXISTS label_mass_label ON label_mass(label, object_id, mass)"
# Version 16: the per-look label rule's state (fusion.label_look_cap; core/frame_fusion.py look_capped_mass), so that a
# restart, or a manual consolidate(), decides the shown label as the same stream without it. label_mass.excess: the
# mass the object's looks gave the label over the cap (the shown label is decided by mass - excess; moved with the
# mass when a twin is joined). label_looks: each visit's mass per (view sector, label) and its last stamp; a new visit
# adds rows under its own start, the rows of earlier visits are kept (a record of what each look gave), and only the
# rows of an object's newest visit are read back (FusionRows.label_look_state).
LABEL_LOOKS_TABLE = """CREATE TABLE IF NOT EXISTS label_looks (
    object_id INTEGER NOT NULL, visit_start REAL NOT NULL, sector INTEGER NOT NULL, label TEXT NOT NULL,
    mass REAL NOT NULL, last REAL NOT NULL,
    PRIMARY KEY (object_id, visit_start, sector, label)) WITHOUT ROWID"""
# Version 17: an object's visits older than its newest, folded by retention (core/retention.py _thin_looks) into one
# row per (object, view sector, label): how many visits saw it so, their summed mass, the first visit's start and
# the last sighting. Why: no decision reads an older visit (FrameFusion.look_capped_mass continues the newest or
# starts one), yet label_looks kept a row per visit x sector x label for good, so it grew with every look
# (docs/RESULTS.md section 6, round 17). keep-all keeps every visit in label_looks.
LABEL_LOOK_COUNTS_TABLE = """CREATE TABLE IF NOT EXISTS label_look_counts (
    object_id INTEGER NOT NULL, sector INTEGER NOT NULL, label TEXT NOT NULL, visits INTEGER NOT NULL,
    mass REAL NOT NULL, first_start REAL NOT NULL, last REAL NOT NULL,
    PRIMARY KEY (object_id, sector, label)) WITHOUT ROWID"""
# Events not yet published: an "appeared" waits until the object was confirmed and no look-alike unseen
# elsewhere may have moved here (core/frame_fusion.py); 'published' rows name the event they became,
# 'retracted' ones why. lookalike_id (version 10): the removed look-alike a held appearance's wait runs for
# (settling.Settling._lookalike_too_soon), kept in the store so that a restart, or another writer fusing the next
# frames, inside the wait decides for the same removed object (before, a restart chose again: review of stop 36).
HELD_EVENTS_TABLE = """CREATE TABLE IF NOT EXISTS held_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        object_id INTEGER NOT NULL,
        stamp REAL NOT NULL,
        held_at REAL NOT NULL,
        before_id INTEGER,
        after_id INTEGER,
        evidence TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL DEFAULT 'held',
        event_id INTEGER,
        resolved_at REAL,
        reason TEXT NOT NULL DEFAULT '',
        lookalike_id INTEGER)"""
HELD_EVENTS_INDEX = "CREATE INDEX IF NOT EXISTS held_events_status ON held_events(status, object_id)"
REMOVAL_DUE_INDEX = ("CREATE INDEX IF NOT EXISTS objects_removal_due ON objects(removal_due) "
                     "WHERE removal_due IS NOT NULL")

# A merge updates the *current* placement in place; once closed (moved, removed, forgotten), a placement is
# history, and scene_as_of in the past must keep answering from it as it was. Enforced in the file, so no
# code path (and no future change of the fusion rules) can rewrite it (schema version 4).
_PLACEMENT_COLUMNS = ("id", "object_id", "cx", "cy", "cz", "min_x", "min_y", "min_z", "max_x", "max_y", "max_z",
                      "region_id", "t_from", "t_last", "opened_by")


def closed_placement_amendment(same: str, false: str) -> str:
    """The one change a closed placement allows, as a trigger condition on OLD and NEW (``same``: the dialect's
    null-safe equality, ``false``: its false): a removal retracted by a move ends at the move (graph_writes.
    end_removal_at_move), closed_reason 'removed' -> 'moved', the end brought back no earlier than the last
    sighting, the row still closed, no other column changed. Null-safe as a whole (COALESCE), so that a NULL in
    a comparison refuses instead of letting the update through."""
    unchanged = " AND ".join(f"NEW.{c} {same} OLD.{c}" for c in _PLACEMENT_COLUMNS)
    return (f"COALESCE((OLD.closed_reason = 'removed' AND NEW.closed_reason = 'moved' AND NEW.current = 0 "
            f"AND OLD.t_to IS NOT NULL AND NEW.t_to IS NOT NULL AND NEW.t_to <= OLD.t_to "
            f"AND NEW.t_to >= OLD.t_last AND {unchanged}), {false})")


# Version 10: every column, current and closed_reason too (before, `SET current=1` reopened a closed placement and
# everything could then be rewritten), with the one amendment above allowed in a single statement.
CLOSED_PLACEMENTS_IMMUTABLE = f"""CREATE TRIGGER IF NOT EXISTS placements_closed_immutable
    BEFORE UPDATE ON placements WHEN OLD.current = 0 AND NOT {closed_placement_amendment("IS", "0")}
    BEGIN SELECT RAISE(ABORT, 'a closed placement is immutable'); END"""

# Version 5: retention (core/retention.py). Sightings thinned away are counted in tallies: per placement (or
# rejection group) their ids and exact stamps, compressed, so "how many times did I see X" stays exact. Rows of
# kind 'stamps' (no object) record the stamps of the sightings a pass looked at, as runs of ids (core/stamplog.py):
# a tally whose stamps they give back keeps only per-pass parts (count, first and last stamp). The fold state is
# a current placement's fused geometry as of its last thinned sighting, so a later rebuild (a twin joined) gives
# what a replay of every sighting would; coseen keeps which objects were ever detected in one frame (a twin is two
# objects never seen together). observations.retained: bit 1 = kept by a compaction pass,
# bit 2 = cited by an event (never thinned).
TALLIES_TABLE = """CREATE TABLE IF NOT EXISTS tallies (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        object_id INTEGER,
        placement_id INTEGER,
        group_key TEXT NOT NULL DEFAULT '',
        n INTEGER NOT NULL,
        t_first REAL NOT NULL,
        t_last REAL NOT NULL,
        id_first INTEGER NOT NULL,
        id_last INTEGER NOT NULL,
        ids BLOB NOT NULL,
        stamps BLOB NOT NULL,
        thinned_at REAL NOT NULL)"""
# Version 8: sighting tallies by their last stamp. Why: "was the mug seen since ...?" counts the thinned sightings
# of tallies whose span meets the window (t_last >= since); with tallies_object alone SQLite walked every tally of
# the object since its first day (t_first <= until is no bound when until is open) and read each row to test t_last.
# Measured on bench_long_run's thin/off household stores, the query for every object: 5.9 us an object at day 10,
# 17.6 at day 30 (growing with the month); with this index 7.3 at day 30, the same rows.
TALLIES_LAST_INDEX = ("CREATE INDEX IF NOT EXISTS tallies_sighting_last ON tallies(object_id, t_last) "
                      "WHERE kind='sighting'")
TALLIES_INDEXES = [
    "CREATE INDEX IF NOT EXISTS tallies_object ON tallies(object_id, t_first)",
    "CREATE INDEX IF NOT EXISTS tallies_placement ON tallies(placement_id, kind, group_key)",
    TALLIES_LAST_INDEX,
]
FOLD_STATE_TABLE = """CREATE TABLE IF NOT EXISTS fold_state (
        placement_id INTEGER PRIMARY KEY,
        object_id INTEGER NOT NULL,
        cut_stamp REAL NOT NULL,
        cut_id INTEGER NOT NULL,
        n INTEGER NOT NULL,
        mx REAL NOT NULL, my REAL NOT NULL, mz REAL NOT NULL,
        min_x REAL NOT NULL, min_y REAL NOT NULL, min_z REAL NOT NULL,
        max_x REAL NOT NULL, max_y REAL NOT NULL, max_z REAL NOT NULL,
        weight REAL NOT NULL, ext_x REAL NOT NULL, ext_y REAL NOT NULL, ext_z REAL NOT NULL,
        feature BLOB, feature_weight REAL NOT NULL, base REAL NOT NULL,
        exact INTEGER NOT NULL DEFAULT 1,
        late TEXT NOT NULL DEFAULT '[]')"""
COSEEN_TABLE = """CREATE TABLE IF NOT EXISTS coseen (
        a INTEGER NOT NULL, b INTEGER NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID"""
MISSES_FRAME_INDEX = "CREATE INDEX IF NOT EXISTS misses_frame ON misses(frame_id)"
# A staged frame's coarse depth, until the frame is fused (no decision reads it afterwards). Why not in the frame's
# row: a 19 KB BLOB made each frame row fill a page of its own, and once the depth was set to NULL the small row
# stayed alone on it (measured: 13.6 MB of frames pages, 12.4 MB of them unused, for 5,374 kept frames). Rows of
# their own are deleted whole, and their pages reused. retention.mode keep-all keeps the depth in the frame row,
# as before version 5.
FRAME_DEPTHS_TABLE = "CREATE TABLE IF NOT EXISTS frame_depths (frame_id INTEGER PRIMARY KEY, depth BLOB NOT NULL)"
RETENTION_SCHEMA = [TALLIES_TABLE, *TALLIES_INDEXES, FOLD_STATE_TABLE, COSEEN_TABLE, MISSES_FRAME_INDEX,
                    FRAME_DEPTHS_TABLE]

# Version 7: frames by status, for the frames still on their way (pending, quarantined, fused and not yet
# compacted, refused): the memory's clock, its pending count, the quarantine and the next retention pass read it.
# Why partial: compacted frames are most frames under thinning and no query looks them up by status; their index
# entries (status, stamp, id: about 25 B each) were 15 % of a compacted frame with its indexes (bench_long_run,
# thin/off). SQLite uses a partial index only for a query that states its condition: every such query adds
# FRAMES_LIVE.
FRAMES_LIVE = "status <> 'compacted'"
FRAMES_PENDING_INDEX = f"CREATE INDEX IF NOT EXISTS frames_pending ON frames(status, stamp, id) WHERE {FRAMES_LIVE}"

# Version 8: a placement's observations by stamp. Why: every answer cites the newest observations of each placement
# it names (citations.evidence: ORDER BY stamp DESC, id DESC LIMIT 5), and with the index on placement_id alone
# SQLite read every kept observation of the placement and sorted them in a temporary B-tree; with the stamp in the
# index (the rowid, i.e. id, follows it in every index entry) it reads the five entries it returns, from the index
# alone. Measured on bench_long_run's day-10 thin/off store (349 placements, 6,047 observations): 28.6 -> 4.6 us
# a call, the same ids. 8 bytes more per kept observation.
OBSERVATIONS_PLACEMENT_INDEX = "CREATE INDEX IF NOT EXISTS observations_placement ON observations(placement_id, stamp)"

# Version 11: per placement and label, the sightings kept and thinned (core/store/place_labels.py says why), kept
# by triggers on every write of an observation: a sighting fused to a placement counts there, one re-pointed or
# relabelled moves, one deleted (thinned: the only DELETE of an observation is a retention pass's) moves from kept
# to thinned. A few rows a placement, whatever its sample.
PLACE_LABELS_TABLE = """CREATE TABLE IF NOT EXISTS place_labels (
        placement_id INTEGER NOT NULL,
        label TEXT NOT NULL,
        kept INTEGER NOT NULL,
        thinned INTEGER NOT NULL,
        PRIMARY KEY (placement_id, label)) WITHOUT ROWID"""
_KEPT_UP = ("INSERT INTO place_labels (placement_id, label, kept, thinned) VALUES (NEW.placement_id, NEW.label, 1, 0) "
            "ON CONFLICT (placement_id, label) DO UPDATE SET kept = kept + 1;")
PLACE_LABEL_TRIGGERS = [
    f"""CREATE TRIGGER IF NOT EXISTS place_labels_insert AFTER INSERT ON observations
    WHEN NEW.placement_id IS NOT NULL BEGIN {_KEPT_UP} END""",
    """CREATE TRIGGER IF NOT EXISTS place_labels_update AFTER UPDATE OF placement_id, label ON observations
    WHEN OLD.placement_id IS NOT NEW.placement_id OR OLD.label IS NOT NEW.label BEGIN
    UPDATE place_labels SET kept = kept - 1 WHERE placement_id = OLD.placement_id AND label = OLD.label;
    INSERT INTO place_labels (placement_id, label, kept, thinned) SELECT NEW.placement_id, NEW.label, 1, 0
        WHERE NEW.placement_id IS NOT NULL ON CONFLICT (placement_id, label) DO UPDATE SET kept = kept + 1;
    END""",
    """CREATE TRIGGER IF NOT EXISTS place_labels_delete AFTER DELETE ON observations
    WHEN OLD.placement_id IS NOT NULL BEGIN
    UPDATE place_labels SET kept = kept - 1, thinned = thinned + 1
        WHERE placement_id = OLD.placement_id AND label = OLD.label;
    END""",
]
PLACE_LABELS_SCHEMA = [PLACE_LABELS_TABLE, *PLACE_LABEL_TRIGGERS]

# Version 6: sources. Every frame, observation and audit row names the robot (or tool) it came from, so that
# answers and history cite which robot saw each piece of evidence; '' = a store written before sources.
FRAMES_SOURCE_INDEX = "CREATE INDEX IF NOT EXISTS frames_source ON frames(source, stamp)"
OBSERVATIONS_SOURCE_INDEX = "CREATE INDEX IF NOT EXISTS observations_source ON observations(source, stamp)"

# Version 15: what a kept sighting and a compacted frame carry in indexes, only where a read uses it. Under
# retention a kept sighting (and a compacted frame) is evidence for a month, and each index entry is paid for that
# long. No statement of the SQLite store reads frames or observations by source (a sighting's source is read with
# its row, by id: ObservationRows.sources), so frames_source and observations_source go (version 6 made them; the
# "what did robot_a see" read they were for was never written). A sighting's verdict and candidate are read by
# index only for rejected sightings (retention's thinning of a rejection group, `candidate_id IS ? AND
# verdict='rejected'`, `reject_key = ? AND verdict='rejected'`; fusion's rejected sightings of a key), and every
# one of those statements names `verdict='rejected'`: partial on it, SQLite uses them for exactly those (a partial
# index serves a statement whose WHERE holds the index's term). Memory.observations(verdict), a bound verdict,
# reads the table in id order (its ORDER BY). A kept sighting is 'merged' or 'created': 3 index entries instead of
# 6 (its frame, object and placement), a compacted frame 1 instead of 2 (its stamp). Measured (bench_long_run's quick
# command, thin/off, docs/RESULTS.md section 6 round 14): 11.12 -> 10.26 MB per robot-hour, observations 1.99 ->
# 1.47 and frames 2.38 -> 2.05 of it, the same rows in every table at the end. PostgreSQL's are partial already
# (postgres/schema.py STAGED_FREE_INDEXES) and keep their source indexes (a fleet's writers); its version 15 is
# empty.
REJECTED_ONLY = "verdict = 'rejected'"
KEPT_SIGHTING_FREE_INDEXES = [
    f"CREATE INDEX IF NOT EXISTS observations_candidate ON observations(candidate_id) WHERE {REJECTED_ONLY}",
    f"CREATE INDEX IF NOT EXISTS observations_verdict ON observations(verdict) WHERE {REJECTED_ONLY}",
]

_BOX = "min_x REAL NOT NULL, min_y REAL NOT NULL, min_z REAL NOT NULL, " \
       "max_x REAL NOT NULL, max_y REAL NOT NULL, max_z REAL NOT NULL"
_CENTER = "cx REAL NOT NULL, cy REAL NOT NULL, cz REAL NOT NULL"

# Version 1. Every table is append-mostly: rows that describe the past (observations, placements,
# events, tombstones, audit, relations with a validity interval) are never deleted; since version 5 retention
# thins settled sightings, frames, misses and the audit rows that only repeated a thinned sighting's verdict,
# each counted in a tally and recorded in a 'thin' audit row (core/retention.py).
SCHEMA = [  # the current version: a new store is created at SCHEMA_VERSION
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # One add() call = one frame: its stamp and, when given, the camera view used for absence reasoning.
    # The coarse depth is kept only until the frame is fused (it is a sensor artefact, not evidence).
    # status: pending (staged) | fused | quarantined (stamp far ahead of "now", waiting for confirmation by
    # the frames that follow) | refused (quarantine not confirmed: kept, never fused) | compacted (a retention
    # pass kept the frame for its kept sightings or misses, version 5).
    """CREATE TABLE IF NOT EXISTS frames (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        stamp REAL NOT NULL,
        recorded_at REAL NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        has_view INTEGER NOT NULL DEFAULT 0,
        pose BLOB, fx REAL, fy REAL, cx REAL, cy REAL, width INTEGER, height INTEGER, max_range REAL,
        depth BLOB, depth_h INTEGER, depth_w INTEGER, min_object_pixels INTEGER NOT NULL DEFAULT 0,
        n_observations INTEGER NOT NULL DEFAULT 0,
        n_misses INTEGER NOT NULL DEFAULT 0,
        source TEXT NOT NULL DEFAULT '')""",
    FRAMES_PENDING_INDEX,
    "CREATE INDEX IF NOT EXISTS frames_stamp ON frames(stamp)",
    f"""CREATE TABLE IF NOT EXISTS observations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        frame_id INTEGER NOT NULL REFERENCES frames(id),
        stamp REAL NOT NULL,
        recorded_at REAL NOT NULL,
        label TEXT NOT NULL,
        confidence REAL NOT NULL,
        {_CENTER}, {_BOX},
        feature BLOB,
        n_points INTEGER NOT NULL DEFAULT 0,
        instance_id INTEGER NOT NULL DEFAULT 0,
        verdict TEXT NOT NULL DEFAULT 'pending',
        reason TEXT NOT NULL DEFAULT '',
        object_id INTEGER,
        candidate_id INTEGER,
        score REAL,
        placement_id INTEGER,
        reject_key TEXT,
        retained INTEGER NOT NULL DEFAULT 0,
        source TEXT NOT NULL DEFAULT '')""",
    "CREATE INDEX IF NOT EXISTS observations_frame ON observations(frame_id)",
    "CREATE INDEX IF NOT EXISTS observations_object ON observations(object_id, stamp, id)",
    KEPT_SIGHTING_FREE_INDEXES[0],
    OBSERVATIONS_PLACEMENT_INDEX,
    KEPT_SIGHTING_FREE_INDEXES[1],
    f"""CREATE TABLE IF NOT EXISTS objects (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        label TEXT NOT NULL,
        pinned_label TEXT,
        confidence REAL NOT NULL,
        base_confidence REAL NOT NULL,
        {_CENTER}, {_BOX},
        mx REAL, my REAL, mz REAL,
        zt REAL, zb REAL,
        weight REAL NOT NULL,
        ext_x REAL NOT NULL, ext_y REAL NOT NULL, ext_z REAL NOT NULL,
        feature BLOB,
        feature_weight REAL NOT NULL DEFAULT 0,
        state TEXT NOT NULL,
        first_seen REAL NOT NULL,
        last_seen REAL NOT NULL,
        n_observations INTEGER NOT NULL DEFAULT 0,
        n_moves INTEGER NOT NULL DEFAULT 0,
        misses INTEGER NOT NULL DEFAULT 0,
        first_miss REAL,
        last_miss REAL,
        absence_evidence REAL NOT NULL DEFAULT 0,
        absence_looks INTEGER NOT NULL DEFAULT 0,
        look_start REAL,
        look_misses INTEGER NOT NULL DEFAULT 0,
        removal_due REAL,
        region_id INTEGER NOT NULL DEFAULT 0,
        placement_id INTEGER,
        vec_dirty INTEGER NOT NULL DEFAULT 1,
        created_wall REAL NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS objects_state ON objects(state)",
    "CREATE INDEX IF NOT EXISTS objects_shown_label ON objects(COALESCE(pinned_label, label), state, id)",
    "CREATE INDEX IF NOT EXISTS objects_vec_dirty ON objects(id) WHERE vec_dirty = 1",
    # Spatial index over every object's current box (all states; queries filter by state).
    "CREATE VIRTUAL TABLE IF NOT EXISTS objects_rtree USING rtree(id, min_x, max_x, min_y, max_y, min_z, max_z)",
    """CREATE TABLE IF NOT EXISTS label_mass (
        object_id INTEGER NOT NULL, label TEXT NOT NULL, mass REAL NOT NULL, excess REAL NOT NULL DEFAULT 0,
        PRIMARY KEY (object_id, label)) WITHOUT ROWID""",
    LABEL_MASS_BY_LABEL_INDEX,
    LABEL_LOOKS_TABLE,
    LABEL_LOOK_COUNTS_TABLE,
    """CREATE TABLE IF NOT EXISTS label_history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        object_id INTEGER NOT NULL, stamp REAL, wall_time REAL NOT NULL,
        old_label TEXT NOT NULL, new_label TEXT NOT NULL, old_mass TEXT NOT NULL,
        pinned INTEGER NOT NULL, reason TEXT NOT NULL)""",
    f"""CREATE TABLE IF NOT EXISTS placements (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        object_id INTEGER NOT NULL,
        {_CENTER}, {_BOX},
        region_id INTEGER NOT NULL DEFAULT 0,
        t_from REAL NOT NULL,
        t_last REAL NOT NULL,
        t_to REAL,
        current INTEGER NOT NULL,
        opened_by TEXT NOT NULL,
        closed_reason TEXT NOT NULL DEFAULT '')""",
    PLACEMENTS_OBJECT_INDEX,
    PLACEMENTS_AS_OF_INDEX,
    PLACEMENTS_START_INDEX,
    PLACEMENTS_CURRENT_INDEX,
    CLOSED_PLACEMENTS_IMMUTABLE,
    """CREATE TABLE IF NOT EXISTS misses (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        object_id INTEGER NOT NULL, frame_id INTEGER NOT NULL, placement_id INTEGER,
        stamp REAL NOT NULL, visible_fraction REAL NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS misses_object ON misses(object_id, stamp)",
    """CREATE TABLE IF NOT EXISTS events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        stamp REAL NOT NULL,
        recorded_at REAL NOT NULL,
        kind TEXT NOT NULL,
        object_id INTEGER NOT NULL,
        label TEXT NOT NULL,
        previous_label TEXT NOT NULL DEFAULT '',
        before_id INTEGER,
        after_id INTEGER,
        evidence TEXT NOT NULL DEFAULT '[]',
        detail TEXT NOT NULL DEFAULT '{}',
        retracted INTEGER NOT NULL DEFAULT 0,
        ended_by INTEGER,
        ended_label TEXT)""",
    "CREATE INDEX IF NOT EXISTS events_stamp ON events(stamp, id)",
    HELD_EVENTS_TABLE,
    HELD_EVENTS_INDEX,
    REMOVAL_DUE_INDEX,
    "CREATE INDEX IF NOT EXISTS events_object ON events(object_id, stamp)",
    f"""CREATE TABLE IF NOT EXISTS tombstones (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        object_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        stamp REAL,
        wall_time REAL NOT NULL,
        reason TEXT NOT NULL,
        label TEXT NOT NULL,
        {_CENTER}, {_BOX},
        feature BLOB,
        active INTEGER NOT NULL DEFAULT 1)""",
    "CREATE INDEX IF NOT EXISTS tombstones_object ON tombstones(object_id)",
    "CREATE VIRTUAL TABLE IF NOT EXISTS tombstones_rtree USING rtree(id, min_x, max_x, min_y, max_y, min_z, max_z)",
    """CREATE TABLE IF NOT EXISTS rejected (
        key TEXT PRIMARY KEY,
        label TEXT NOT NULL,
        cell_x INTEGER NOT NULL, cell_y INTEGER NOT NULL, cell_z INTEGER NOT NULL,
        mass REAL NOT NULL, count INTEGER NOT NULL,
        first_stamp REAL NOT NULL, last_stamp REAL NOT NULL,
        best_candidate INTEGER,
        promoted_object_id INTEGER)""",
    f"""CREATE TABLE IF NOT EXISTS regions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        label TEXT NOT NULL,
        {_BOX},
        stamp REAL,
        wall_time REAL NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS relations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        subject_id INTEGER NOT NULL,
        relation TEXT NOT NULL,
        object_id INTEGER NOT NULL,
        object_is_region INTEGER NOT NULL DEFAULT 0,
        confidence REAL NOT NULL,
        since REAL NOT NULL,
        until REAL)""",
    "CREATE INDEX IF NOT EXISTS relations_subject ON relations(subject_id) WHERE until IS NULL",
    "CREATE INDEX IF NOT EXISTS relations_object ON relations(object_id, relation) WHERE until IS NULL",
    """CREATE TABLE IF NOT EXISTS audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        stamp REAL,
        wall_time REAL NOT NULL,
        action TEXT NOT NULL,
        object_ids TEXT NOT NULL DEFAULT '[]',
        observation_ids TEXT NOT NULL DEFAULT '[]',
        detail TEXT NOT NULL DEFAULT '{}',
        source TEXT NOT NULL DEFAULT '')""",
    "CREATE INDEX IF NOT EXISTS audit_stamp ON audit(wall_time, id)",
    *RETENTION_SCHEMA,
    *PLACE_LABELS_SCHEMA,
    *EVENT_LINK_INDEXES,
    *EVENT_LINK_TRIGGERS,
]

# Forward migrations: MIGRATIONS[v] upgrades a store at version v to v + 1.
MIGRATIONS: dict[int, list[str]] = {
    1: [PLACEMENTS_AS_OF_INDEX],  # version 2: paged scene_as_of reads the index only
    2: [  # version 3: absence evidence over looks, held events, learned label confusion
        "ALTER TABLE objects ADD COLUMN absence_evidence REAL NOT NULL DEFAULT 0",
        "ALTER TABLE objects ADD COLUMN absence_looks INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE objects ADD COLUMN look_start REAL",
        "ALTER TABLE objects ADD COLUMN look_misses INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE objects ADD COLUMN removal_due REAL",
        "ALTER TABLE events ADD COLUMN retracted INTEGER NOT NULL DEFAULT 0",
        LABEL_MASS_BY_LABEL_INDEX, HELD_EVENTS_TABLE, HELD_EVENTS_INDEX, REMOVAL_DUE_INDEX,
    ],
    3: [CLOSED_PLACEMENTS_IMMUTABLE],  # version 4: closed placements cannot be updated
    4: [  # version 5: retention (tallies of thinned sightings, fold state, objects seen together, staged depths)
        "ALTER TABLE observations ADD COLUMN retained INTEGER NOT NULL DEFAULT 0",
        *RETENTION_SCHEMA,
    ],
    5: [  # version 6: sources (the robot that saw each frame, the writer of each audit row; docs/FLEET.md)
        "ALTER TABLE frames ADD COLUMN source TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE observations ADD COLUMN source TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE audit ADD COLUMN source TEXT NOT NULL DEFAULT ''",
        FRAMES_SOURCE_INDEX, OBSERVATIONS_SOURCE_INDEX,
    ],
    6: ["DROP INDEX IF EXISTS frames_pending", FRAMES_PENDING_INDEX],  # version 7: without compacted frames
    7: ["DROP INDEX IF EXISTS observations_placement", OBSERVATIONS_PLACEMENT_INDEX,  # version 8: with stamps,
        TALLIES_LAST_INDEX],                                                           # tallies by last stamp
    # version 9: an object's placements with their t_to, and its current placement without walking its history;
    # created in a fresh store's order: without statistics SQLite settles a tie between two indexes on object_id for
    # the one created last (measured: with placements_object created after placements_current, SQLite 3.40 walked
    # placements_object for the current placement)
    8: ["DROP INDEX IF EXISTS placements_object", PLACEMENTS_OBJECT_INDEX, PLACEMENTS_CURRENT_INDEX],
    # version 10: the removed look-alike a held appearance waits for (NULL in the rows of an older store: a wait
    # begun before the migration chooses again once, as every wait did before this version)
    9: ["ALTER TABLE held_events ADD COLUMN lookalike_id INTEGER",
        # and the closed-placement trigger covering every column, reopening refused (CLOSED_PLACEMENTS_IMMUTABLE)
        "DROP TRIGGER IF EXISTS placements_closed_immutable", CLOSED_PLACEMENTS_IMMUTABLE],
    # version 11: the placements' label tallies, filled from the kept sightings; those thinned before counted under
    # the label '' from the sighting tallies (their labels were not kept; place_labels.THINNED_FROM_TALLIES)
    10: [*PLACE_LABELS_SCHEMA, "DELETE FROM place_labels",
         "INSERT INTO place_labels (placement_id, label, kept, thinned) SELECT placement_id, label, COUNT(*), 0 "
         "FROM observations WHERE placement_id IS NOT NULL GROUP BY placement_id, label",
         "INSERT INTO place_labels (placement_id, label, kept, thinned) SELECT placement_id, '', 0, SUM(n) "
         "FROM tallies WHERE kind='sighting' AND placement_id IS NOT NULL GROUP BY placement_id "
         "ON CONFLICT (placement_id, label) DO UPDATE SET thinned = thinned + excluded.thinned"],
    # version 12: each event's link to the event that ended its state and the relabelling before it
    # (core/store/event_links.py), filled from the events as the triggers keep them
    11: ["ALTER TABLE events ADD COLUMN ended_by INTEGER", "ALTER TABLE events ADD COLUMN ended_label TEXT",
         *EVENT_LINK_INDEXES, *EVENT_LINK_TRIGGERS, *EVENT_LINKS_FILL],
    # version 13: nothing here; PostgreSQL's version 13 gives its label-tally trigger the WHEN these triggers have
    # (postgres/schema.py PLACE_LABELS_TRIGGERS), so that one number names one schema on both backends
    12: [],
    # version 14: the placements by when they began (PLACEMENTS_START_INDEX: the as-of scene's walk bound)
    13: [PLACEMENTS_START_INDEX],
    # version 15: no index entries of a kept sighting or compacted frame that no read uses (KEPT_SIGHTING_FREE_INDEXES)
    14: ["DROP INDEX IF EXISTS frames_source", "DROP INDEX IF EXISTS observations_source",
         "DROP INDEX IF EXISTS observations_candidate", "DROP INDEX IF EXISTS observations_verdict",
         *KEPT_SIGHTING_FREE_INDEXES],
    # version 16: the per-look label rule's state (LABEL_LOOKS_TABLE): no excess and no tally in an older store's rows
    # (its first writer after the migration counts the excess of before it back once, as every restart did)
    15: ["ALTER TABLE label_mass ADD COLUMN excess REAL NOT NULL DEFAULT 0", LABEL_LOOKS_TABLE],
    # version 17: the folded counts of older visits (LABEL_LOOK_COUNTS_TABLE); the next retention pass folds them
    16: [LABEL_LOOK_COUNTS_TABLE],
}


def _tables(statements) -> tuple:
    return tuple(stmt.split("EXISTS", 1)[1].split()[0] for stmt in statements
                 if stmt.lstrip().startswith(("CREATE TABLE", "CREATE VIRTUAL")))


#: Every table a complete store has (checked on open: a file missing one is not a tempomem store).
REQUIRED_TABLES = _tables(SCHEMA)
#: Tables a forward migration creates, with the version that added them: a store written before that version
#: (migrated by the next writable open, or read as it is) is complete without them.
TABLES_SINCE: dict[str, int] = {**{t: 3 for t in _tables([HELD_EVENTS_TABLE])},
                                **{t: 5 for t in _tables(RETENTION_SCHEMA)},
                                **{t: 11 for t in _tables(PLACE_LABELS_SCHEMA)},
                                **{t: 16 for t in _tables([LABEL_LOOKS_TABLE])},
                                **{t: 17 for t in _tables([LABEL_LOOK_COUNTS_TABLE])}}


#: Prepared statements a connection keeps (the driver's default: 100). Why: pysqlite3's statement cache ranks its
#: entries by use and, once full, puts a new statement last, where the next new one evicts it; a statement first
#: run after the cache filled is then prepared anew at every call, each time it alternates with another new one.
#: The texts vary with the ids an "IN (...)" list holds, so a store whose labels name more objects runs more of
#: them: bench_long_run's paired phase runs 93 distinct texts on the day-1 store and 106 on the day-30 one, and
#: was_seen by id (its first run after the others) prepared 2 statements a call on day 30 alone: CPU p50 x1.34
#: over day 1 with a cache of 100, x1.08 with this one (docs/RESULTS.md section 6, round 16;
#: bench/long_run_statement_cache.py). A writer keeps meeting new texts, one an id-list length: rows.id_chunks pads
#: the lists to a few lengths, which bounds them.
STATEMENT_CACHE = 1024


def connect(path: str, readonly: bool):
    """Open the file; a read-only open never creates it and refuses writes at the SQLite level too.
    Returns the connection (open_connection also says whether it was opened immutable)."""
    return open_connection(path, readonly)[0]


def open_connection(path: str, readonly: bool):
    """connect(), returning (connection, immutable).

    Read-only media: SQLite reads a WAL store through its -shm file, which a cleanly closed store no
    longer has and a read-only mount cannot create ("unable to open database file"; nolock=1 does not help,
    measured: bench/bench_store_open.py). Then, and only when no -wal file with content exists, the store is
    opened with immutable=1 (no locks, no -shm; the file cannot change underneath on such media). With
    un-checkpointed WAL content immutable=1 would silently ignore it (stale answers), so that is refused.
    """
    try:
        if readonly:
            if not os.path.exists(path):
                raise StoreAccessError(f"store '{path}' does not exist (opened read-only)")
            conn = _connect_ro(path, "mode=ro")
            try:
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except sqlite3.OperationalError as exc:
                conn.close()
                if (getattr(exc, "sqlite_errorcode", 14) & 0xFF) not in (8, 10, 14):  # READONLY, IOERR, CANTOPEN
                    raise
                wal = path + "-wal"
                if os.path.exists(wal) and os.path.getsize(wal) > 0:
                    raise StoreAccessError(
                        f"store '{path}' cannot be opened read-only ({exc}) and its -wal file holds commits not "
                        "yet written into the store: copy the store with its -wal file to writable storage"
                    ) from exc
                conn = _connect_ro(path, "mode=ro&immutable=1")
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
                return _pragmas(conn), True
        else:
            parent = os.path.dirname(os.path.abspath(path))
            os.makedirs(parent, exist_ok=True)
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                   cached_statements=STATEMENT_CACHE)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
        return _pragmas(conn), False
    except sqlite3.Error as exc:
        raise store_error(f"opening store '{path}'", exc) from exc
    except OSError as exc:  # e.g. the directory cannot be created
        raise StoreAccessError(f"cannot open store '{path}': {exc}") from exc


def _connect_ro(path: str, query: str):
    return sqlite3.connect(f"file:{path}?{query}", uri=True, isolation_level=None, check_same_thread=False,
                           cached_statements=STATEMENT_CACHE)


def _pragmas(conn):
    conn.execute("PRAGMA foreign_keys=OFF")
    conn.execute("PRAGMA busy_timeout=5000")
    return conn


def quick_check(conn, path: str) -> None:
    """SQLite's quick_check (page structure, not index contents): 52 ms for a 24 MB store, 1.36 s for 496 MB
    (bench/bench_store_open.py). Raises StoreCorruptError naming the first problems and the recovery command."""
    try:
        rows = [" ".join(str(r[0]).split()) for r in conn.execute("PRAGMA quick_check(5)").fetchall()]
    except sqlite3.Error as exc:
        raise store_error(f"checking store '{path}'", exc) from exc
    if rows != ["ok"]:
        raise StoreCorruptError(f"store '{path}' is damaged ({'; '.join(rows)}): it is not opened for writing; "
                                f"{RECOVER_HINT}")


def initialise(conn, *, embedding_dim: int | None, readonly: bool, world_frame: str | None = None) -> dict:
    """Create or check the schema; returns the meta table. Raises SchemaError on a mismatch or damaged
    metadata (naming the key or table), StoreError when the file cannot be read."""
    try:
        has_meta = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone() is not None
        if not has_meta:
            if readonly:
                raise SchemaError("store has no tempomem schema (opened read-only, cannot create it)")
            if embedding_dim is None:
                raise SchemaError("creating a store needs embedding_dim")
            if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise SchemaError("the file is a SQLite database but not a tempomem store (it has no meta table)")
            with atomic(conn):
                for stmt in SCHEMA:
                    conn.execute(stmt)
                conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", [
                    ("schema_version", str(SCHEMA_VERSION)),
                    ("embedding_dim", str(int(embedding_dim))),
                    ("feature_model", ""),
                    ("world_frame", world_frame or WORLD_FRAME),
                ])
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.Error as exc:
        raise store_error("reading the store schema", exc) from exc
    version = _meta_int(meta, "schema_version")
    missing = [t for t in REQUIRED_TABLES if t not in tables and TABLES_SINCE.get(t, 1) <= version]
    if missing:
        raise SchemaError(f"store lacks table(s) {', '.join(missing)}: not a complete tempomem store; {RECOVER_HINT}")
    if version > SCHEMA_VERSION:
        raise SchemaError(f"store schema version {version} is newer than this code ({SCHEMA_VERSION}); "
                          "upgrade tempomem_ros")
    stored_dim = _meta_int(meta, "embedding_dim")
    if embedding_dim is not None and stored_dim != int(embedding_dim):
        raise SchemaError(f"store was created with embedding_dim={stored_dim}, opened with {embedding_dim}")
    stored_frame = meta.get("world_frame")  # absent in stores created before version 5: any frame is accepted
    if world_frame is not None and stored_frame is not None and world_frame != stored_frame:
        raise SchemaError(f"store keeps coordinates in frame '{stored_frame}', opened by a writer in '{world_frame}'")
    if version < SCHEMA_VERSION:
        if readonly:
            if version < READ_COMPATIBLE_FROM:
                raise SchemaError(f"store schema version {version} needs migration (opened read-only)")
            return meta
        migrate(conn, version)
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    if not readonly:
        keep_event_links(conn)
    return meta


def unkept_event_links(conn) -> list[str]:
    """The names of the event-link triggers (version 12, event_links.py) the store lacks."""
    there = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall()}
    return [name for name in EVENT_LINK_TRIGGER_NAMES if name not in there]


def keep_event_links(conn) -> None:
    """Put back the event-link triggers a store at the current version lacks and fill the links again (writes made
    without them left stale links: event_links.py), in one locked transaction; nothing when they are all there."""
    try:
        if not unkept_event_links(conn):
            return
        with atomic(conn):
            if unkept_event_links(conn):  # again under the lock: another writer's open may have put them back
                for stmt in (*EVENT_LINK_INDEXES, *EVENT_LINK_TRIGGERS, *EVENT_LINKS_FILL):
                    conn.execute(stmt)
    except sqlite3.Error as exc:
        raise store_error("putting back the events' link triggers", exc) from exc


def _meta_int(meta: dict, key: str) -> int:
    """A positive integer from the meta table, or a SchemaError naming the key and what it holds."""
    if key not in meta:
        raise SchemaError(f"store metadata lacks '{key}': damaged or not a tempomem store")
    value = meta[key]
    if not isinstance(value, str) or not value.strip().isdigit() or int(value) < 1:
        raise SchemaError(f"store metadata '{key}' is {value!r}, not a positive integer: damaged store")
    return int(value)


def _column_exists(conn, stmt: str) -> bool:
    """Whether an 'ALTER TABLE t ADD COLUMN c ...' migration step is already in place (a store whose version
    number was lowered by hand must still migrate)."""
    words = stmt.split()
    if words[:2] != ["ALTER", "TABLE"] or words[3:5] != ["ADD", "COLUMN"]:
        return False
    return any(row[1] == words[5] for row in conn.execute(f"PRAGMA table_info({words[2]})"))


def migrate(conn, from_version: int) -> None:
    """Apply MIGRATIONS[v] for every version from the stored one on, in one locked transaction. The version is read
    again under the lock: another writer that opened the store at the same time may have migrated it meanwhile, and
    version 11's step refills the label tallies (the labels of sightings thinned since would become unknown)."""
    try:
        with atomic(conn):
            stored = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if stored is not None and str(stored[0]).strip().isdigit():
                from_version = max(from_version, int(stored[0]))
            for v in range(from_version, SCHEMA_VERSION):
                for stmt in MIGRATIONS.get(v, []):
                    if not _column_exists(conn, stmt):
                        conn.execute(stmt)
            conn.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION),))
    except sqlite3.Error as exc:
        raise store_error(f"migration from schema {from_version}", exc) from exc
