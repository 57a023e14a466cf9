"""Errors raised across the core API.

Why one hierarchy: callers (the ROS nodes, the CLI) must be able to catch every failure of the memory
with one ``except TempoMemError`` and turn it into a clear message, and must never see a raw sqlite3 or
numpy exception that leaks an implementation detail. The base is deliberately not called MemoryError,
which would shadow the builtin.

Why storage errors have subclasses: "the database failed" is not actionable. A full disk heals when space
is freed (retry later), a lock held by another writer heals when it lets go, an I/O error may be a failing
card, and a corrupt file never heals by itself (recover it). The node reports which one in /diagnostics
and decides whether to keep frames for a retry; ``state`` is that short, stable key.
"""

from __future__ import annotations

#: Shown with every corruption error: the command that salvages a damaged store into a new file.
RECOVER_HINT = "open it read-only to inspect it, or salvage it into a new file: tempomem recover STORE NEW_STORE"


class TempoMemError(Exception):
    """Base class of every error the memory raises on purpose."""


class SchemaError(TempoMemError):
    """The store was written by a newer schema, with another embedding dimension, or its metadata is damaged."""


class ReadOnlyError(TempoMemError):
    """A mutator was called on a store opened read-only."""


class InvalidInputError(TempoMemError, ValueError):
    """An argument is malformed: NaN coordinates, confidence outside 0..1, wrong feature size, ..."""


class ImplausibleInputError(InvalidInputError):
    """Finite, well-formed input that a plausibility gate refuses (a 1e30 box, a stamp in 2038, ...).

    ``reason`` is the gate's key (``world_bound``, ``extent``, ``stamp_future``, ...): the node counts
    refused messages under it in /diagnostics.
    """

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class UnknownIdError(TempoMemError, KeyError):
    """An object, region or observation id that the store does not hold."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown id"


class StoreError(TempoMemError):
    """The underlying database failed; the subclasses say why. ``state`` is a short key for diagnostics."""

    state = "error"
    #: Whether retrying the same call later can succeed without anyone repairing the file.
    transient = False


class StoreFullError(StoreError):
    """The disk (or SQLite's max_page_count) is full: nothing of the failed call was written."""

    state = "full"
    transient = True


class StoreLockedError(StoreError):
    """Another connection held the write lock for longer than the busy timeout."""

    state = "locked"
    transient = True


class StoreIOError(StoreError):
    """The operating system reported an I/O error reading or writing the file (failing medium, NFS, ...)."""

    state = "io_error"
    transient = True


class StoreCorruptError(StoreError):
    """The file is damaged (malformed pages, not a database): it does not heal by itself."""

    state = "corrupt"


class StoreAccessError(StoreError):
    """The file cannot be opened or written: permissions, read-only media, a missing directory."""

    state = "access"


class StoreClosedError(StoreError):
    """The memory was closed (or failed to open) and cannot be used any more."""

    state = "closed"


# SQLite primary result codes (sqlite3.h) -> (class, what it means in words).
_BY_CODE = {
    5: (StoreLockedError, "the store is locked by another writer"),      # SQLITE_BUSY
    6: (StoreLockedError, "a table is locked"),                         # SQLITE_LOCKED
    3: (StoreAccessError, "permission denied"),                         # SQLITE_PERM
    8: (StoreAccessError, "the file or its directory is read-only"),    # SQLITE_READONLY
    10: (StoreIOError, "disk I/O error"),                               # SQLITE_IOERR
    11: (StoreCorruptError, "the store file is damaged"),               # SQLITE_CORRUPT
    13: (StoreFullError, "the disk is full"),                           # SQLITE_FULL
    14: (StoreAccessError, "the file cannot be opened"),                # SQLITE_CANTOPEN
    26: (StoreCorruptError, "the file is not a SQLite database"),      # SQLITE_NOTADB
}
# Fallback when a driver does not expose sqlite_errorcode: SQLite's own message texts.
_BY_TEXT = (
    ("database or disk is full", 13), ("database is locked", 5), ("database table is locked", 6),
    ("disk i/o error", 10), ("malformed", 11), ("file is not a database", 26),
    ("attempt to write a readonly database", 8), ("unable to open database file", 14),
)


def store_error(call: str, exc: BaseException, note: str = "") -> StoreError:
    """The StoreError subclass that says what a raw sqlite3 exception means, naming the call that failed.

    The message keeps SQLite's own text (the real cause) after a plain-words summary, e.g.
    ``commit failed: the disk is full (database or disk is full)``; corruption adds RECOVER_HINT.
    """
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else int(code) & 0xFF
    if primary not in _BY_CODE:
        text = str(exc).lower()
        primary = next((c for needle, c in _BY_TEXT if needle in text), None)
    cls, words = _BY_CODE.get(primary, (StoreError, "database error"))
    return caused_store_error(cls, f"{call} failed: {words} ({exc})", exc, note)


def caused_store_error(cls: type[StoreError], message: str, exc: BaseException, note: str = "") -> StoreError:
    """``cls(message)`` caused by ``exc``, with ``note`` appended and, for corruption, RECOVER_HINT: the one
    shape every backend's error translation gives its messages."""
    if note:
        message += f"; {note}"
    if cls is StoreCorruptError:
        message += f"; {RECOVER_HINT}"
    err = cls(message)
    err.__cause__ = exc
    return err
