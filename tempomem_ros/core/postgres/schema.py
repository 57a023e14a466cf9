"""The PostgreSQL schema: the same concepts as the SQLite store (core/store/schema.py), its version, forward
migrations and the checks made when a database is opened.

Why the same tables and columns: every service above the store reads the same typed rows from either
backend, and ``tempomem migrate`` copies a SQLite store row for row (every id kept). What differs, and why:

- The spatial index. SQLite keeps an R*Tree virtual table of (padded) boxes; here ``objects_rtree`` and
  ``tombstones_rtree`` are ordinary tables with the same columns plus ``box``, a PostGIS 3D line from the
  box's minimum to its maximum corner, under an n-D GiST index (``gist_geometry_ops_nd``). A line's n-D
  bounding box is exactly the box, so ``box &&& query`` is the R*Tree's overlap test; the query re-checks
  the exact double-precision bounds (PostGIS keeps float4 index boxes, rounded outwards). ``box`` is a
  generated column: no writer can let it drift from the bounds.
- Vectors. pgvector is not packaged for this machine's Debian, so features are stored as on SQLite (the
  float32 bytes, here ``bytea``) and searched by the exact numpy path; ``vector_path`` in the meta table
  says so, and every figure names it.
- Ids come from a transactional counter (``tempomem_ids``, one row per table, read by the column default
  ``tempomem_next_id``), not from a sequence: a sequence hands out values outside the transaction, so a
  rolled-back commit (disk full, a lost connection) would leave gaps, and the same input would get other ids
  than on SQLite, whose AUTOINCREMENT rolls back with the transaction. Writers are serialised anyway
  (postgres/connection.py), so the counter rows cost no concurrency. Ids are never reused; a migration
  inserts the ids of the store it copies and then moves the counters past them.
- Closed placements are immutable by a trigger, as on SQLite (schema version 4 there).
- Writers of a fleet: ``sources`` is not a table; every frame, observation and audit row carries its
  ``source`` (the robot id), indexed for "what did robot_a see".

Schema versions: a database is created at SCHEMA_VERSION; MIGRATIONS[v] upgrades one at version v. The first
PostgreSQL schema is version 6, the SQLite version that added sources; the numbers follow SQLite's (version 7: the
partial frames_pending index, 8: a placement's observations by stamp and sighting tallies by their last stamp, 9: the
partial index of current placements, placements_object with t_to, 10: held_events.lookalike_id, 11: the
placements' label tallies, 12: each event's link to the event that ended its state, 13: the label
tallies' trigger with a WHEN a write, the indexes of observations a staged sighting has no entry in, 14: the
placements by when they began, 15: nothing here, SQLite's kept sightings and compacted frames in fewer indexes, 16:
label_mass.excess and label_looks, the per-look label rule's state, 17: label_look_counts, its older visits folded), so
that one number names one set of tables and indexes on both backends.
"""

from __future__ import annotations

import re

from ..errors import SchemaError
from ..store.event_links import FILL as EVENT_LINKS_FILL
from ..store.event_links import INDEXES as EVENT_LINKS_INDEXES
from ..store.event_links import KEYED_BY, relink
from ..store.schema import FRAMES_LIVE, closed_placement_amendment

SCHEMA_VERSION = 17
FIRST_VERSION = 6  # the first PostgreSQL schema: there is no older one to migrate from
WORLD_FRAME = "map"  # every robot of a fleet reports in this one frame (docs/FLEET.md)

_BOX = ("min_x double precision NOT NULL, min_y double precision NOT NULL, min_z double precision NOT NULL, "
        "max_x double precision NOT NULL, max_y double precision NOT NULL, max_z double precision NOT NULL")
# The R*Tree's column order (id, min_x, max_x, min_y, max_y, min_z, max_z): a positional INSERT means the same.
_RTREE_BOX = ("min_x double precision NOT NULL, max_x double precision NOT NULL, min_y double precision NOT NULL, "
              "max_y double precision NOT NULL, min_z double precision NOT NULL, max_z double precision NOT NULL")
_CENTER = "cx double precision NOT NULL, cy double precision NOT NULL, cz double precision NOT NULL"

def _id(table: str) -> str:
    return f"id bigint PRIMARY KEY DEFAULT tempomem_next_id('{table}')"

_F = "double precision"
# The n-D box of a spatial-index row: a 3D line from its minimum to its maximum corner.
_LINE = "ST_MakeLine(ST_MakePoint(min_x, min_y, min_z), ST_MakePoint(max_x, max_y, max_z))"

CLOSED_PLACEMENTS_FUNCTION = """CREATE OR REPLACE FUNCTION tempomem_closed_placement_immutable() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'a closed placement is immutable' USING ERRCODE = 'integrity_constraint_violation';
    END $$"""
# Version 10 (SQLite's too): every column, current and closed_reason included, but for the one amendment a closed
# placement allows (core/store/schema.py closed_placement_amendment).
CLOSED_PLACEMENTS_TRIGGER = f"""CREATE TRIGGER placements_closed_immutable
    BEFORE UPDATE ON placements FOR EACH ROW
    WHEN (OLD.current = 0 AND NOT {closed_placement_amendment("IS NOT DISTINCT FROM", "FALSE")})
    EXECUTE FUNCTION tempomem_closed_placement_immutable()"""

# Version 11 (SQLite's too): the placements' label tallies (core/store/place_labels.py), kept by one row trigger on
# observations: a sighting fused to a placement counts there, one re-pointed or relabelled moves, one deleted
# (thinned) moves from kept to thinned.
PLACE_LABELS_TABLE = """CREATE TABLE place_labels (
        placement_id bigint NOT NULL,
        label text NOT NULL,
        kept bigint NOT NULL,
        thinned bigint NOT NULL,
        PRIMARY KEY (placement_id, label))"""
PLACE_LABELS_FUNCTION = """CREATE OR REPLACE FUNCTION tempomem_place_labels() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'UPDATE' THEN
            IF OLD.placement_id IS NOT DISTINCT FROM NEW.placement_id AND OLD.label = NEW.label THEN
                RETURN NULL;
            END IF;
        END IF;
        IF TG_OP <> 'INSERT' THEN
            IF OLD.placement_id IS NOT NULL THEN
                UPDATE place_labels SET kept = kept - 1,
                    thinned = thinned + (CASE WHEN TG_OP = 'DELETE' THEN 1 ELSE 0 END)
                    WHERE placement_id = OLD.placement_id AND label = OLD.label;
            END IF;
        END IF;
        IF TG_OP <> 'DELETE' THEN
            IF NEW.placement_id IS NOT NULL THEN
                INSERT INTO place_labels (placement_id, label, kept, thinned) VALUES (NEW.placement_id, NEW.label, 1, 0)
                    ON CONFLICT (placement_id, label) DO UPDATE SET kept = place_labels.kept + 1;
            END IF;
        END IF;
        RETURN NULL;
    END $$"""
#: Version 11's one trigger for the three writes (kept to name what a version-11 or -12 database has).
PLACE_LABELS_TRIGGER = """CREATE TRIGGER place_labels_kept
    AFTER UPDATE OF placement_id, label OR DELETE OR INSERT ON observations FOR EACH ROW
    EXECUTE FUNCTION tempomem_place_labels()"""
# Version 13: one trigger a write, each with the WHEN of SQLite's (core/store/schema.py PLACE_LABEL_TRIGGERS), so that
# the function is called only for a row it changes: a staged sighting has no placement (placement_id NULL until it is
# fused), and version 11's trigger, having no WHEN (one shared by INSERT, UPDATE and DELETE cannot name both NEW and
# OLD), called the function once for each of a staged frame's 20 rows to do nothing. The function's own tests stay
# (a version-12 database migrated runs them too). Measured in docs/RESULTS.md section 7, round 13.
PLACE_LABELS_TRIGGERS = [
    """CREATE TRIGGER place_labels_insert AFTER INSERT ON observations FOR EACH ROW
    WHEN (NEW.placement_id IS NOT NULL) EXECUTE FUNCTION tempomem_place_labels()""",
    """CREATE TRIGGER place_labels_update AFTER UPDATE OF placement_id, label ON observations FOR EACH ROW
    WHEN (OLD.placement_id IS DISTINCT FROM NEW.placement_id OR OLD.label IS DISTINCT FROM NEW.label)
    EXECUTE FUNCTION tempomem_place_labels()""",
    """CREATE TRIGGER place_labels_delete AFTER DELETE ON observations FOR EACH ROW
    WHEN (OLD.placement_id IS NOT NULL) EXECUTE FUNCTION tempomem_place_labels()""",
]
PLACE_LABEL_TRIGGER_NAMES = ("place_labels_insert", "place_labels_update", "place_labels_delete")

# Version 12 (SQLite's too): each event's link to the event that ended its state and the relabelling before it
# (core/store/event_links.py), kept by one row trigger on events: an insert relinks at the new row, a delete at the
# old one, an update at both (the statements SQLite's triggers run). Its own UPDATEs set only the links, which the
# trigger's UPDATE OF leaves out, so they fire nothing.
EVENT_LINKS_FUNCTION = f"""CREATE OR REPLACE FUNCTION tempomem_event_links() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP <> 'INSERT' THEN
            {' '.join(f"{s};" for s in relink('OLD.object_id', 'OLD.stamp', 'IS DISTINCT FROM'))}
        END IF;
        IF TG_OP <> 'DELETE' THEN
            {' '.join(f"{s};" for s in relink('NEW.object_id', 'NEW.stamp', 'IS DISTINCT FROM'))}
        END IF;
        RETURN NULL;
    END $$"""
EVENT_LINKS_TRIGGER = f"""CREATE TRIGGER events_links
    AFTER UPDATE OF {KEYED_BY} OR DELETE OR INSERT ON events FOR EACH ROW
    EXECUTE FUNCTION tempomem_event_links()"""

ID_COUNTERS = [
    "CREATE TABLE tempomem_ids (tbl text PRIMARY KEY, last bigint NOT NULL)",
    """CREATE FUNCTION tempomem_next_id(t text) RETURNS bigint LANGUAGE sql VOLATILE AS
        $$ UPDATE tempomem_ids SET last = last + 1 WHERE tbl = t RETURNING last $$""",
]

# Version 7 (SQLite's too): frames by status for the frames still on their way only; every query that reads by status
# states the condition (core/store/schema.py FRAMES_LIVE), so PostgreSQL uses the partial index as SQLite does.
FRAMES_PENDING_INDEX = f"CREATE INDEX frames_pending ON frames(status, stamp, id) WHERE {FRAMES_LIVE}"
# Version 8 (SQLite's too): a placement's newest observations, the evidence every answer cites
# (citations.evidence: ORDER BY stamp DESC, id DESC LIMIT 5), read from the index in its order. Why id in it here
# and not on SQLite: a SQLite index entry ends with the rowid (the id), a PostgreSQL one does not; without it the
# ties of one stamp would be sorted after the scan.
OBSERVATIONS_PLACEMENT_INDEX = "CREATE INDEX observations_placement ON observations(placement_id, stamp, id)"
# Version 8: sighting tallies by their last stamp ("was it seen since ...?" counts tallies with t_last >= since;
# tallies_object alone walks every tally of the object since its first day).
TALLIES_LAST_INDEX = "CREATE INDEX tallies_sighting_last ON tallies(object_id, t_last) WHERE kind = 'sighting'"
# Version 9 (SQLite's too): an object's current placement without walking its placements from the oldest
# (core/store/schema.py PLACEMENTS_CURRENT_INDEX); id in it for the ORDER BY t_from, id of the reads, as above.
PLACEMENTS_CURRENT_INDEX = "CREATE INDEX placements_current ON placements(object_id, t_from, id) WHERE current = 1"
# Version 9 too: an object's placements by t_from with their t_to, so that the as-of scene's count tests t < t_to
# from the index (core/store/schema.py PLACEMENTS_OBJECT_INDEX).
PLACEMENTS_OBJECT_INDEX = "CREATE INDEX placements_object ON placements(object_id, t_from, id, t_to)"
# Version 14: the placements by when they began, as on SQLite (core/store/schema.py PLACEMENTS_START_INDEX); the
# as-of scene reads it there only (PostgreSQL keeps its ordered statements), so that one number names one set of
# indexes on both backends.
PLACEMENTS_START_INDEX = "CREATE INDEX placements_start ON placements(t_from, object_id)"

# Version 13 (PostgreSQL only; SQLite's `candidate_id IS ?` reads need an entry for NULL too: its version 15 makes
# its candidate and verdict indexes partial on `verdict = 'rejected'` instead): the indexes
# of observations that a staged sighting has nothing to put in are partial. A robot stages its sightings with
# object_id, candidate_id and placement_id NULL and verdict 'pending' (the fuser sets them); a B-tree keeps NULLs, so
# every staged row wrote an entry into each of these four (7 index entries a row in all),
# and its fusion, an UPDATE of indexed columns (not HOT), writes new entries into every index again. Every read of
# them names a value (`object_id = ?`, `placement_id = ?` / `IN (...)`: a strict comparison, which the planner proves
# implies IS NOT NULL; `verdict='rejected'` written in the statement, which implies <> 'pending'); `candidate_id IS
# NOT DISTINCT FROM $1` (SQLite's IS) uses no index on PostgreSQL, partial or not. The fuser's read of a frame's
# pending sightings (`frame_id = ? AND verdict = 'pending'`) had the planner AND the full verdict index with the
# frame's (reading every pending row of the store: 57,600 entries for 72 frames, 4 robots staging beside a fuser of 8
# frames a commit): the partial one it cannot use, so it reads the frame's 20 rows alone. Measured (7 -> 3 index
# entries a staged row, 15.1 -> 9.1 KB of WAL a staged frame) in docs/RESULTS.md section 7, round 13.
STAGED_FREE_INDEXES = {
    "observations_object": "CREATE INDEX observations_object ON observations(object_id, stamp, id) "
                           "WHERE object_id IS NOT NULL",
    "observations_candidate": "CREATE INDEX observations_candidate ON observations(candidate_id) "
                              "WHERE candidate_id IS NOT NULL",
    "observations_placement": "CREATE INDEX observations_placement ON observations(placement_id, stamp, id) "
                              "WHERE placement_id IS NOT NULL",
    "observations_verdict": "CREATE INDEX observations_verdict ON observations(verdict) WHERE verdict <> 'pending'",
}

# Version 16: the per-look label rule's state, as on SQLite (core/store/schema.py LABEL_LOOKS_TABLE).
LABEL_LOOKS_TABLE = """CREATE TABLE label_looks (
        object_id bigint NOT NULL, visit_start double precision NOT NULL, sector integer NOT NULL,
        label text NOT NULL, mass double precision NOT NULL, last double precision NOT NULL,
        PRIMARY KEY (object_id, visit_start, sector, label))"""
# Version 17: the older visits folded by retention, as on SQLite (core/store/schema.py LABEL_LOOK_COUNTS_TABLE).
LABEL_LOOK_COUNTS_TABLE = """CREATE TABLE label_look_counts (
        object_id bigint NOT NULL, sector integer NOT NULL, label text NOT NULL, visits bigint NOT NULL,
        mass double precision NOT NULL, first_start double precision NOT NULL, last double precision NOT NULL,
        PRIMARY KEY (object_id, sector, label))"""

SCHEMA = [  # the current version, in creation order
    "CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL)",
    *ID_COUNTERS,
    f"""CREATE TABLE frames (
        {_id('frames')},
        stamp {_F} NOT NULL,
        recorded_at {_F} NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        has_view integer NOT NULL DEFAULT 0,
        pose bytea, fx {_F}, fy {_F}, cx {_F}, cy {_F}, width integer, height integer, max_range {_F},
        depth bytea, depth_h integer, depth_w integer, min_object_pixels integer NOT NULL DEFAULT 0,
        n_observations integer NOT NULL DEFAULT 0,
        n_misses integer NOT NULL DEFAULT 0,
        source text NOT NULL DEFAULT '')""",
    FRAMES_PENDING_INDEX,
    "CREATE INDEX frames_stamp ON frames(stamp)",
    "CREATE INDEX frames_source ON frames(source, stamp)",
    f"""CREATE TABLE observations (
        {_id('observations')},
        frame_id bigint NOT NULL REFERENCES frames(id),
        stamp {_F} NOT NULL,
        recorded_at {_F} NOT NULL,
        label text NOT NULL,
        confidence {_F} NOT NULL,
        {_CENTER}, {_BOX},
        feature bytea,
        n_points bigint NOT NULL DEFAULT 0,
        instance_id bigint NOT NULL DEFAULT 0,
        verdict text NOT NULL DEFAULT 'pending',
        reason text NOT NULL DEFAULT '',
        object_id bigint,
        candidate_id bigint,
        score {_F},
        placement_id bigint,
        reject_key text,
        retained integer NOT NULL DEFAULT 0,
        source text NOT NULL DEFAULT '')""",
    "CREATE INDEX observations_frame ON observations(frame_id)",
    STAGED_FREE_INDEXES["observations_object"],
    STAGED_FREE_INDEXES["observations_candidate"],
    STAGED_FREE_INDEXES["observations_placement"],
    STAGED_FREE_INDEXES["observations_verdict"],
    "CREATE INDEX observations_source ON observations(source, stamp)",
    "CREATE INDEX observations_reject_key ON observations(reject_key) WHERE reject_key IS NOT NULL",
    f"""CREATE TABLE objects (
        {_id('objects')},
        label text NOT NULL,
        pinned_label text,
        confidence {_F} NOT NULL,
        base_confidence {_F} NOT NULL,
        {_CENTER}, {_BOX},
        mx {_F}, my {_F}, mz {_F},
        zt {_F}, zb {_F},
        weight {_F} NOT NULL,
        ext_x {_F} NOT NULL, ext_y {_F} NOT NULL, ext_z {_F} NOT NULL,
        feature bytea,
        feature_weight {_F} NOT NULL DEFAULT 0,
        state text NOT NULL,
        first_seen {_F} NOT NULL,
        last_seen {_F} NOT NULL,
        n_observations bigint NOT NULL DEFAULT 0,
        n_moves bigint NOT NULL DEFAULT 0,
        misses bigint NOT NULL DEFAULT 0,
        first_miss {_F},
        last_miss {_F},
        absence_evidence {_F} NOT NULL DEFAULT 0,
        absence_looks bigint NOT NULL DEFAULT 0,
        look_start {_F},
        look_misses bigint NOT NULL DEFAULT 0,
        removal_due {_F},
        region_id bigint NOT NULL DEFAULT 0,
        placement_id bigint,
        vec_dirty integer NOT NULL DEFAULT 1,
        created_wall {_F} NOT NULL)""",
    "CREATE INDEX objects_state ON objects(state)",
    "CREATE INDEX objects_shown_label ON objects((COALESCE(pinned_label, label)), state, id)",
    "CREATE INDEX objects_vec_dirty ON objects(id) WHERE vec_dirty = 1",
    "CREATE INDEX objects_removal_due ON objects(removal_due) WHERE removal_due IS NOT NULL",
    # The spatial index over every object's current (padded) box, all states; queries filter by state.
    f"""CREATE TABLE objects_rtree (
        id bigint PRIMARY KEY, {_RTREE_BOX},
        box geometry GENERATED ALWAYS AS ({_LINE}) STORED)""",
    "CREATE INDEX objects_rtree_box ON objects_rtree USING gist (box gist_geometry_ops_nd)",
    """CREATE TABLE label_mass (
        object_id bigint NOT NULL, label text NOT NULL, mass double precision NOT NULL,
        excess double precision NOT NULL DEFAULT 0,
        PRIMARY KEY (object_id, label))""",
    "CREATE INDEX label_mass_label ON label_mass(label, object_id, mass)",
    LABEL_LOOKS_TABLE,
    LABEL_LOOK_COUNTS_TABLE,
    f"""CREATE TABLE label_history (
        {_id('label_history')},
        object_id bigint NOT NULL, stamp {_F}, wall_time {_F} NOT NULL,
        old_label text NOT NULL, new_label text NOT NULL, old_mass text NOT NULL,
        pinned integer NOT NULL, reason text NOT NULL)""",
    f"""CREATE TABLE placements (
        {_id('placements')},
        object_id bigint NOT NULL,
        {_CENTER}, {_BOX},
        region_id bigint NOT NULL DEFAULT 0,
        t_from {_F} NOT NULL,
        t_last {_F} NOT NULL,
        t_to {_F},
        current integer NOT NULL,
        opened_by text NOT NULL,
        closed_reason text NOT NULL DEFAULT '')""",
    PLACEMENTS_OBJECT_INDEX,
    PLACEMENTS_START_INDEX,
    "CREATE INDEX placements_asof ON placements(object_id, id, t_from, t_to)",
    PLACEMENTS_CURRENT_INDEX,
    CLOSED_PLACEMENTS_FUNCTION,
    CLOSED_PLACEMENTS_TRIGGER,
    f"""CREATE TABLE misses (
        {_id('misses')},
        object_id bigint NOT NULL, frame_id bigint NOT NULL, placement_id bigint,
        stamp {_F} NOT NULL, visible_fraction {_F} NOT NULL)""",
    "CREATE INDEX misses_object ON misses(object_id, stamp)",
    f"""CREATE TABLE events (
        {_id('events')},
        stamp {_F} NOT NULL,
        recorded_at {_F} NOT NULL,
        kind text NOT NULL,
        object_id bigint NOT NULL,
        label text NOT NULL,
        previous_label text NOT NULL DEFAULT '',
        before_id bigint,
        after_id bigint,
        evidence text NOT NULL DEFAULT '[]',
        detail text NOT NULL DEFAULT '{{}}',
        retracted integer NOT NULL DEFAULT 0,
        ended_by bigint,
        ended_label text)""",
    "CREATE INDEX events_stamp ON events(stamp, id)",
    "CREATE INDEX events_object ON events(object_id, stamp)",
    f"""CREATE TABLE held_events (
        {_id('held_events')},
        kind text NOT NULL,
        object_id bigint NOT NULL,
        stamp {_F} NOT NULL,
        held_at {_F} NOT NULL,
        before_id bigint,
        after_id bigint,
        evidence text NOT NULL DEFAULT '[]',
        status text NOT NULL DEFAULT 'held',
        event_id bigint,
        resolved_at {_F},
        reason text NOT NULL DEFAULT '',
        lookalike_id bigint)""",
    "CREATE INDEX held_events_status ON held_events(status, object_id)",
    f"""CREATE TABLE tombstones (
        {_id('tombstones')},
        object_id bigint NOT NULL,
        kind text NOT NULL,
        stamp {_F},
        wall_time {_F} NOT NULL,
        reason text NOT NULL,
        label text NOT NULL,
        {_CENTER}, {_BOX},
        feature bytea,
        active integer NOT NULL DEFAULT 1)""",
    "CREATE INDEX tombstones_object ON tombstones(object_id)",
    f"""CREATE TABLE tombstones_rtree (
        id bigint PRIMARY KEY, {_RTREE_BOX},
        box geometry GENERATED ALWAYS AS ({_LINE}) STORED)""",
    "CREATE INDEX tombstones_rtree_box ON tombstones_rtree USING gist (box gist_geometry_ops_nd)",
    f"""CREATE TABLE rejected (
        key text PRIMARY KEY,
        label text NOT NULL,
        cell_x bigint NOT NULL, cell_y bigint NOT NULL, cell_z bigint NOT NULL,
        mass {_F} NOT NULL, count bigint NOT NULL,
        first_stamp {_F} NOT NULL, last_stamp {_F} NOT NULL,
        best_candidate bigint,
        promoted_object_id bigint)""",
    f"""CREATE TABLE regions (
        {_id('regions')},
        label text NOT NULL,
        {_BOX},
        stamp {_F},
        wall_time {_F} NOT NULL)""",
    f"""CREATE TABLE relations (
        {_id('relations')},
        subject_id bigint NOT NULL,
        relation text NOT NULL,
        object_id bigint NOT NULL,
        object_is_region integer NOT NULL DEFAULT 0,
        confidence {_F} NOT NULL,
        since {_F} NOT NULL,
        until {_F})""",
    "CREATE INDEX relations_subject ON relations(subject_id) WHERE until IS NULL",
    "CREATE INDEX relations_object ON relations(object_id, relation) WHERE until IS NULL",
    f"""CREATE TABLE audit (
        {_id('audit')},
        stamp {_F},
        wall_time {_F} NOT NULL,
        action text NOT NULL,
        object_ids text NOT NULL DEFAULT '[]',
        observation_ids text NOT NULL DEFAULT '[]',
        detail text NOT NULL DEFAULT '{{}}',
        source text NOT NULL DEFAULT '')""",
    "CREATE INDEX audit_stamp ON audit(wall_time, id)",
    # Retention (SQLite version 5, core/retention.py): tallies of thinned sightings, fold state, objects seen
    # together, staged depths.
    f"""CREATE TABLE tallies (
        {_id('tallies')},
        kind text NOT NULL,
        object_id bigint,
        placement_id bigint,
        group_key text NOT NULL DEFAULT '',
        n bigint NOT NULL,
        t_first {_F} NOT NULL,
        t_last {_F} NOT NULL,
        id_first bigint NOT NULL,
        id_last bigint NOT NULL,
        ids bytea NOT NULL,
        stamps bytea NOT NULL,
        thinned_at {_F} NOT NULL)""",
    "CREATE INDEX tallies_object ON tallies(object_id, t_first)",
    "CREATE INDEX tallies_placement ON tallies(placement_id, kind, group_key)",
    TALLIES_LAST_INDEX,
    f"""CREATE TABLE fold_state (
        placement_id bigint PRIMARY KEY,
        object_id bigint NOT NULL,
        cut_stamp {_F} NOT NULL,
        cut_id bigint NOT NULL,
        n bigint NOT NULL,
        mx {_F} NOT NULL, my {_F} NOT NULL, mz {_F} NOT NULL,
        {_BOX},
        weight {_F} NOT NULL, ext_x {_F} NOT NULL, ext_y {_F} NOT NULL, ext_z {_F} NOT NULL,
        feature bytea, feature_weight {_F} NOT NULL, base {_F} NOT NULL,
        exact integer NOT NULL DEFAULT 1,
        late text NOT NULL DEFAULT '[]')""",
    "CREATE TABLE coseen (a bigint NOT NULL, b bigint NOT NULL, PRIMARY KEY (a, b))",
    "CREATE INDEX misses_frame ON misses(frame_id)",
    "CREATE TABLE frame_depths (frame_id bigint PRIMARY KEY, depth bytea NOT NULL)",
    PLACE_LABELS_TABLE, PLACE_LABELS_FUNCTION, *PLACE_LABELS_TRIGGERS,
    *EVENT_LINKS_INDEXES, EVENT_LINKS_FUNCTION, EVENT_LINKS_TRIGGER,
]



def _collate_c(stmt: str) -> str:
    """Text columns compare and sort by code point (COLLATE "C"), as SQLite's BINARY collation does: a server
    created with a locale (en_US.UTF-8) would otherwise order labels differently from a SQLite store."""
    if not stmt.startswith("CREATE TABLE"):
        return stmt
    return re.sub(r"(\b[a-z_]+) text\b", r'\1 text COLLATE "C"', stmt)


SCHEMA = [_collate_c(stmt) for stmt in SCHEMA]


def grant_like(table: str, model: str = "observations") -> str:
    """A statement granting SELECT on ``table`` to every role that may read ``model``: a table a migration creates
    is readable by the query side's role (roles.grant_reader granted the tables there were, none created later)."""
    return f"""DO $$
    DECLARE g text;
    BEGIN
        FOR g IN SELECT DISTINCT grantee FROM information_schema.table_privileges
                WHERE table_schema = current_schema() AND table_name = '{model}' AND privilege_type = 'SELECT'
                AND grantee <> current_user ORDER BY grantee LOOP
            EXECUTE 'GRANT SELECT ON ' || quote_ident('{table}') || ' TO '
                || CASE WHEN g = 'PUBLIC' THEN 'PUBLIC' ELSE quote_ident(g) END;
        END LOOP;
    END $$"""


# Forward migrations: MIGRATIONS[v] upgrades a database at version v to v + 1 (store.migrate: all of them in one
# locked transaction).
MIGRATIONS: dict[int, list[str]] = {
    6: ["DROP INDEX IF EXISTS frames_pending", FRAMES_PENDING_INDEX],  # version 7: without compacted frames
    7: ["DROP INDEX IF EXISTS observations_placement", OBSERVATIONS_PLACEMENT_INDEX,  # version 8: with stamps,
        TALLIES_LAST_INDEX],                                                           # tallies by last stamp
    # version 9: an object's placements with their t_to, and its current placement without walking its history
    8: ["DROP INDEX IF EXISTS placements_object", PLACEMENTS_OBJECT_INDEX, PLACEMENTS_CURRENT_INDEX],
    # version 10: the removed look-alike a held appearance waits for (SQLite's version 10)
    9: ["ALTER TABLE held_events ADD COLUMN lookalike_id bigint",  # and the closed-placement trigger's version 10
        "DROP TRIGGER IF EXISTS placements_closed_immutable ON placements", CLOSED_PLACEMENTS_TRIGGER],
    # version 11: the placements' label tallies, filled from the kept sightings; those thinned before counted under
    # the label '' from the sighting tallies (their labels were not kept; SQLite's version 11)
    # (a database whose version number was lowered by hand has them: made again, refilled)
    10: [_collate_c(PLACE_LABELS_TABLE).replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS", 1), PLACE_LABELS_FUNCTION,
         "DROP TRIGGER IF EXISTS place_labels_kept ON observations", PLACE_LABELS_TRIGGER, "DELETE FROM place_labels",
         "INSERT INTO place_labels (placement_id, label, kept, thinned) SELECT placement_id, label, COUNT(*), 0 "
         "FROM observations WHERE placement_id IS NOT NULL GROUP BY placement_id, label",
         "INSERT INTO place_labels (placement_id, label, kept, thinned) SELECT placement_id, '', 0, SUM(n) "
         "FROM tallies WHERE kind='sighting' AND placement_id IS NOT NULL GROUP BY placement_id "
         "ON CONFLICT (placement_id, label) DO UPDATE SET thinned = place_labels.thinned + excluded.thinned",
         # readable by the roles that read the memory (grant_reader before this version granted the tables there were)
         grant_like("place_labels")],
    # version 12: each event's link to the event that ended its state, filled as the trigger keeps it (SQLite's
    # version 12)
    11: ["ALTER TABLE events ADD COLUMN IF NOT EXISTS ended_by bigint",
         'ALTER TABLE events ADD COLUMN IF NOT EXISTS ended_label text COLLATE "C"', *EVENT_LINKS_INDEXES,
         EVENT_LINKS_FUNCTION,
         "DROP TRIGGER IF EXISTS events_links ON events", EVENT_LINKS_TRIGGER, *EVENT_LINKS_FILL],
    # version 13: the label tallies' trigger split into one a write, each with its WHEN (PLACE_LABELS_TRIGGERS); the
    # tallies are unchanged (the same function); a database whose version number was lowered by hand has them: made
    # again. SQLite's version 13 changes nothing there (its triggers had their WHEN since version 11).
    12: ["DROP TRIGGER IF EXISTS place_labels_kept ON observations",
         *(f"DROP TRIGGER IF EXISTS {name} ON observations" for name in PLACE_LABEL_TRIGGER_NAMES),
         *PLACE_LABELS_TRIGGERS,
         # and the indexes of observations a staged sighting has no entry in (STAGED_FREE_INDEXES), made again
         *(stmt for name, index in STAGED_FREE_INDEXES.items() for stmt in (f"DROP INDEX IF EXISTS {name}", index))],
    # version 14: the placements by when they began (PLACEMENTS_START_INDEX)
    13: ["DROP INDEX IF EXISTS placements_start", PLACEMENTS_START_INDEX],
    # version 15: nothing here; SQLite's drops its source indexes and narrows its verdict and candidate indexes to
    # rejected sightings (core/store/schema.py KEPT_SIGHTING_FREE_INDEXES), which are partial here already
    # (STAGED_FREE_INDEXES); the number names one schema on both backends
    14: [],
    # version 16: the per-look label rule's state (LABEL_LOOKS_TABLE; SQLite's version 16)
    15: ["ALTER TABLE label_mass ADD COLUMN IF NOT EXISTS excess double precision NOT NULL DEFAULT 0",
         _collate_c(LABEL_LOOKS_TABLE).replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS", 1),
         grant_like("label_looks")],
    # version 17: the older visits of the per-look label rule folded (LABEL_LOOK_COUNTS_TABLE; SQLite's version 17)
    16: [_collate_c(LABEL_LOOK_COUNTS_TABLE).replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS", 1),
         grant_like("label_look_counts")],
}
#: what a writer's open runs on a store at version 12 whose trigger was dropped (postgres/store.py keep_event_links)
EVENT_LINKS_REPAIR = MIGRATIONS[11][2:]  # the indexes, the function, the trigger, the fill

#: Tables a complete store has, checked on every open (a database missing one is not a tempomem store).
REQUIRED_TABLES = tuple(stmt.split()[2] for stmt in SCHEMA if stmt.startswith("CREATE TABLE"))
#: Tables a forward migration creates, with the version that added them: a database written before is complete
#: without them (its open migrates it).
TABLES_SINCE = {"place_labels": 11, "label_looks": 16, "label_look_counts": 17}
#: Tables whose ids come from tempomem_next_id (their counters follow explicit ids after a migration).
ID_TABLES = tuple(stmt.split()[2] for stmt in SCHEMA if "DEFAULT tempomem_next_id(" in stmt)

#: Roles a store's tables are granted to (Store.grant_reader): the query side reads, nothing else.
READ_ONLY_TABLES = REQUIRED_TABLES


def create_statements() -> list[str]:
    return list(SCHEMA)


def check_version(meta: dict, *, readonly: bool) -> int:
    """The stored schema version; a SchemaError when it is damaged, newer than this code, or older than the
    first PostgreSQL schema."""
    value = meta.get("schema_version")
    if value is None:
        raise SchemaError("store metadata lacks 'schema_version': damaged or not a tempomem store")
    if not str(value).strip().isdigit():
        raise SchemaError(f"store metadata 'schema_version' is {value!r}, not a positive integer: damaged store")
    version = int(value)
    if version > SCHEMA_VERSION:
        raise SchemaError(f"store schema version {version} is newer than this code ({SCHEMA_VERSION}); "
                          "upgrade tempomem_ros")
    if version < FIRST_VERSION:
        raise SchemaError(f"store schema version {version} predates the PostgreSQL schema ({FIRST_VERSION})")
    if version < SCHEMA_VERSION and readonly:
        raise SchemaError(f"store schema version {version} needs migration (opened read-only)")
    return version
