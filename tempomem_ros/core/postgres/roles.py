"""The read-only role of the query side: a database role that may read a memory's tables and nothing else.

Why a role and not only ``readonly=True``: a read-only Memory sets ``default_transaction_read_only`` on its
sessions (connection.py), which protects against the code's own mistakes; a role without write privileges
protects against everything else on the query side (an agent tool, a dashboard, a leaked connection string).
An administrator creates the role (with the password in libpq's usual places: pgpass, service file), then
``tempomem grant-reader STORE ROLE`` grants it what reading needs: USAGE on the memory's schema and SELECT on
its tables. Every name goes through psycopg's identifier quoting: no statement text is built from input.
"""

from __future__ import annotations

from . import schema
from .store import _connector


def grant_reader(address: str, role: str) -> list[str]:
    """Grant ``role`` read access to the memory at ``address`` (run as its owner). Returns the tables granted."""
    from psycopg import sql

    connect = _connector(address, readonly=False)
    with connect() as conn:
        current = conn.execute("SELECT current_schema()").fetchone()[0]
        tables = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename = ANY($1) "
            "ORDER BY tablename", (list(schema.READ_ONLY_TABLES),)).fetchall()]
        if "meta" not in tables:
            raise ValueError("the address holds no tempomem memory (no meta table in its schema)")
        with conn.transaction():
            conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(sql.Identifier(current),
                                                                          sql.Identifier(role)))
            conn.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(
                sql.SQL(", ").join(sql.Identifier(current, t) for t in tables), sql.Identifier(role)))
    return tables
