"""PostgreSQL failures as the store's errors (core/errors.py): the same classes as SQLite's, by SQLSTATE.

Why by SQLSTATE class: the node decides from the class whether to keep frames for a retry (a lost
connection, a server shutting down, a full disk heal; a missing privilege or a damaged table do not), and
the SQLSTATE is the server's stable statement of what happened. The message keeps the server's own text
but never the connection string: libpq's messages name the host and user, not the password, and the
address shown (``address``) is the one with any password removed (address.display).
"""

from __future__ import annotations

from ..errors import (
    StoreAccessError,
    StoreCorruptError,
    StoreError,
    StoreFullError,
    StoreIOError,
    StoreLockedError,
    caused_store_error,
)

# SQLSTATE (or its two-character class) -> (class, what it means in words)
_BY_STATE = {
    "53100": (StoreFullError, "the server's disk is full"),
    "53200": (StoreFullError, "the server is out of memory"),
    "53300": (StoreIOError, "the server has too many connections"),
    "55P03": (StoreLockedError, "a lock could not be taken"),
    "40P01": (StoreLockedError, "a deadlock was broken"),
    "40001": (StoreLockedError, "a concurrent update conflicted"),
    "57014": (StoreLockedError, "the statement was cancelled (statement_timeout)"),
    "25006": (StoreAccessError, "the connection is read-only"),
    "42501": (StoreAccessError, "permission denied"),
    "XX001": (StoreCorruptError, "a table is damaged"),
    "XX002": (StoreCorruptError, "an index is damaged"),
    "08": (StoreIOError, "the connection to the server failed"),
    "57P": (StoreIOError, "the server is shutting down or restarting"),
    "28": (StoreAccessError, "the server refused the credentials"),
    "3D": (StoreAccessError, "the database does not exist"),
    "58": (StoreIOError, "the server reported a system error"),
}


def pg_store_error(call: str, exc: BaseException, *, address: str = "", note: str = "") -> StoreError:
    """The StoreError subclass for a psycopg exception, naming the call (never the password)."""
    state = getattr(exc, "sqlstate", None) or ""
    cls, words = StoreError, "database error"
    for key in (state, state[:3], state[:2]):
        if key and key in _BY_STATE:
            cls, words = _BY_STATE[key]
            break
    else:
        import psycopg

        if isinstance(exc, psycopg.OperationalError):  # no SQLSTATE: the client lost or never had a connection
            cls, words = StoreIOError, "the connection to the server failed"
    text = " ".join(str(exc).split()) or type(exc).__name__
    where = f" on {address}" if address else ""
    return caused_store_error(cls, f"{call} failed{where}: {words} ({text})", exc, note)
