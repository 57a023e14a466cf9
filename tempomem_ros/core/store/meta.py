"""The store's own description: the meta table (embedding size, feature model, world frame, schema version)
and the shape of a store written by an older version.
"""

from __future__ import annotations

from .base import TableRows, pipelines
from .event_links import PG_TRIGGER_NAME
from .schema import unkept_event_links


class StoreMeta(TableRows):
    """The meta table's one write after opening, and what an older store lacks."""

    def record_feature_model(self, feature_model: str) -> None:
        """Record which encoder made the stored features (set once, by the first open that names it)."""
        self._conn.execute("UPDATE meta SET value=? WHERE key='feature_model'", (feature_model,))

    def observations_have_sources(self) -> bool:
        """Whether observations carry a source column (SQLite only: a store written before schema version 6
        does not; PostgreSQL stores always do)."""
        return any(r[1] == "source" for r in self._conn.execute("PRAGMA table_info(observations)").fetchall())

    def has_place_labels(self) -> bool:
        """Whether the store keeps its placements' label tallies (SQLite only: a store written before schema
        version 11 and read as it is does not; PostgreSQL stores are migrated before they are read)."""
        return self._conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='place_labels'"
                                  ).fetchone() is not None

    def has_event_links(self) -> bool:
        """Whether events carry their links to the events that ended their states and the triggers that keep them
        are there (a SQLite store written before schema version 12 and read as it is has no links; a store whose
        triggers were dropped has stale ones: event_links.py)."""
        if pipelines(self._conn):  # PostgreSQL
            return self._conn.execute("SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass('events') AND tgname = ?",
                                      (PG_TRIGGER_NAME,)).fetchone() is not None
        if not any(r[1] == "ended_by" for r in self._conn.execute("PRAGMA table_info(events)").fetchall()):
            return False
        return unkept_event_links(self._conn) == []
