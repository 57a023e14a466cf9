"""Opening a PostgreSQL store: connect, create or check the schema, migrate.

Why the checks mirror SQLite's (core/store/schema.py): a database is often shared and sometimes the wrong one; a
database that holds other tables but no tempomem metadata is refused rather than filled, one created with
another embedding dimension is refused, one written by newer code is refused, and a missing table is named.
Creating the schema needs PostGIS in the database: ``CREATE EXTENSION postgis`` is tried, and when the role
may not create extensions the error says what an administrator must run.

Creation is itself a locked write transaction (connection.py), so two robots starting at once on an empty
database create the schema once: the second finds it complete after the first commits.
"""

from __future__ import annotations

import os

from ..errors import InvalidInputError, SchemaError, StoreAccessError
from . import address as addr
from . import schema
from ..store.event_links import PG_TRIGGER_NAME
from .connection import WRITE_LOCK_KEY, PgConnection
from .errors_pg import pg_store_error

#: How long a connection attempt may take (libpq connect_timeout) unless the address says otherwise.
CONNECT_TIMEOUT_S = 10
APPLICATION_NAME = "tempomem_ros"


def _connector(address: str, readonly: bool):
    """A callable opening one psycopg connection to the address (libpq reads credentials itself)."""
    import psycopg

    params = addr.check(address)
    options = {}
    if "connect_timeout" not in params and not os.environ.get("PGCONNECT_TIMEOUT"):
        options["connect_timeout"] = CONNECT_TIMEOUT_S
    if "application_name" not in params and not os.environ.get("PGAPPNAME"):
        options["application_name"] = APPLICATION_NAME
    if readonly:
        # The server refuses every write of this session, whatever the code above does.
        options["options"] = (params.get("options", "") + " -c default_transaction_read_only=on").strip()

    def connect():
        return psycopg.connect(address, autocommit=True, cursor_factory=psycopg.RawCursor, **options)

    return connect


def open_connection(address: str, readonly: bool) -> PgConnection:
    shown = addr.display(address)
    try:
        connect = _connector(address, readonly)
    except InvalidInputError:
        raise
    try:
        return PgConnection(connect, readonly=readonly, address=shown)
    except ImportError as exc:
        raise SchemaError(f"the PostgreSQL backend needs psycopg ({exc}): install requirements.txt") from exc
    except Exception as exc:  # noqa: BLE001 - connect failures: the StoreError subclass that says why
        raise pg_store_error("connecting", exc, address=shown) from exc


def _tables(conn: PgConnection) -> set[str]:
    return {r[0] for r in conn.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").fetchall()}


def _meta(conn: PgConnection) -> dict:
    return {k: v for k, v in conn.execute("SELECT key, value FROM meta").fetchall()}


def _ensure_postgis(conn: PgConnection, readonly: bool) -> None:
    have = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'postgis'").fetchone()
    if have is not None:
        return
    if readonly:
        raise SchemaError(f"database {conn.address} has no PostGIS extension (opened read-only, cannot add it)")
    try:
        conn.execute("CREATE EXTENSION IF NOT EXISTS postgis")
    except Exception as exc:  # noqa: BLE001
        raise SchemaError(
            f"database {conn.address} has no PostGIS extension and this role cannot create it ({exc}); an "
            "administrator must run CREATE EXTENSION postgis in it once") from None


def initialise(conn: PgConnection, *, embedding_dim: int | None, readonly: bool,
               world_frame: str = schema.WORLD_FRAME) -> dict:
    """Create or check the schema; returns the meta table (SchemaError on a mismatch, naming it)."""
    tables = _tables(conn)
    if "meta" not in tables:
        if readonly:
            raise StoreAccessError(f"store {conn.address} does not exist (opened read-only): its schema holds no "
                                   "tempomem tables")
        if embedding_dim is None:
            raise SchemaError("creating a store needs embedding_dim")
        _ensure_postgis(conn, readonly)
        conn.execute("BEGIN IMMEDIATE")
        try:
            tables = _tables(conn)  # another writer may have created it while this one waited for the lock
            if "meta" not in tables:
                foreign = sorted(tables - {"spatial_ref_sys"})
                if foreign:
                    raise SchemaError(f"database {conn.address} holds other tables ({', '.join(foreign[:5])}) but "
                                      "no tempomem metadata: not a tempomem store")
                _create(conn, int(embedding_dim), world_frame)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        tables = _tables(conn)
    meta = _meta(conn)
    stored = str(meta.get("schema_version", ""))
    at = int(stored) if stored.strip().isdigit() else schema.SCHEMA_VERSION  # check_version names a damaged one
    missing = [t for t in schema.REQUIRED_TABLES if t not in tables and schema.TABLES_SINCE.get(t, 0) <= at]
    if missing:
        raise SchemaError(f"store lacks table(s) {', '.join(missing)}: not a complete tempomem store")
    version = schema.check_version(meta, readonly=readonly)
    stored_dim = meta.get("embedding_dim", "")
    if not stored_dim.isdigit() or int(stored_dim) < 1:
        raise SchemaError(f"store metadata 'embedding_dim' is {stored_dim!r}, not a positive integer: damaged store")
    if embedding_dim is not None and int(stored_dim) != int(embedding_dim):
        raise SchemaError(f"store was created with embedding_dim={stored_dim}, opened with {embedding_dim}")
    stored_frame = meta.get("world_frame", schema.WORLD_FRAME)
    if world_frame != stored_frame:
        raise SchemaError(f"store's world frame is '{stored_frame}', this robot reports in '{world_frame}': every "
                          f"robot sharing a memory must report in the one '{schema.WORLD_FRAME}' frame")
    conn.counts_writes = True
    if version < schema.SCHEMA_VERSION:
        migrate(conn, version)
        meta = _meta(conn)
    if not readonly:
        keep_event_links(conn)
    return meta


def _has_event_links_trigger(conn: PgConnection) -> bool:
    return conn.execute("SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass('events') AND tgname = ?",
                        (PG_TRIGGER_NAME,)).fetchone() is not None


def keep_event_links(conn: PgConnection) -> None:
    """Put back the event-link trigger (version 12, store/event_links.py) a store lacks and fill the links again
    (writes made without it left stale links), in one locked transaction; nothing when it is there."""
    if _has_event_links_trigger(conn):
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        if not _has_event_links_trigger(conn):  # again under the lock: another writer may have put it back
            for stmt in schema.EVENT_LINKS_REPAIR:
                conn.execute(stmt)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _create(conn: PgConnection, embedding_dim: int, world_frame: str) -> None:
    if world_frame != schema.WORLD_FRAME:
        raise SchemaError(f"a shared memory is kept in the '{schema.WORLD_FRAME}' frame; this robot reports in "
                          f"'{world_frame}'")
    for stmt in schema.SCHEMA:
        conn.execute(stmt)
    conn.executemany("INSERT INTO tempomem_ids (tbl, last) VALUES (?, 0)", [(t,) for t in schema.ID_TABLES])
    conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [
        ("schema_version", str(schema.SCHEMA_VERSION)),
        ("embedding_dim", str(embedding_dim)),
        ("feature_model", ""),
        ("write_epoch", "0"),
        ("world_frame", world_frame),
        ("vector_path", "exact: float32 bytea features, numpy re-ranking (no pgvector)"),
    ])


def migrate(conn: PgConnection, from_version: int) -> None:
    """Apply MIGRATIONS[v] for every version from ``from_version`` on, in one locked transaction."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = int(_meta(conn).get("schema_version", from_version))  # someone may have migrated meanwhile
        for v in range(version, schema.SCHEMA_VERSION):
            for stmt in schema.MIGRATIONS.get(v, []):
                conn.execute(stmt)
        conn.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(schema.SCHEMA_VERSION),))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def advance_id_counters(conn: PgConnection) -> None:
    """After rows were inserted with explicit ids (migrate, merge): move each table's counter past its
    largest id, so that the next id is new (inside the caller's write transaction)."""
    for table in schema.ID_TABLES:
        conn.execute(f"UPDATE tempomem_ids SET last = GREATEST(last, (SELECT COALESCE(MAX(id), 0) FROM {table})) "
                     "WHERE tbl = ?", (table,))


__all__ = ["open_connection", "initialise", "migrate", "advance_id_counters", "WRITE_LOCK_KEY"]
