"""Reads of the append-only audit (one row per mutation, written by Store.transaction with the work it records):
the rows themselves, the newest id, and the actions after a mark (what the scene feed re-reads).
"""

from __future__ import annotations

from .base import TableRows


class AuditRows(TableRows):
    """Audit rows (every column of the audit table, by name) over one store; nothing here writes."""

    def rows(self, since: float | None = None) -> list:
        """Every audit row (or those with wall_time >= since), by id."""
        if since is None:
            return self._conn.execute("SELECT * FROM audit ORDER BY id").fetchall()
        return self._conn.execute("SELECT * FROM audit WHERE wall_time >= ? ORDER BY id", (since,)).fetchall()

    def last_id(self) -> int:
        """The newest audit row's id, 0 when there is none."""
        return self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM audit").fetchone()[0]

    def actions_between(self, after_id: int, upto_id: int) -> list:
        """(action, object_ids as JSON text) of the rows with after_id < id <= upto_id, by id."""
        return self._conn.execute("SELECT action, object_ids FROM audit WHERE id > ? AND id <= ? ORDER BY id",
                                  (after_id, upto_id)).fetchall()
