"""Errors raised across the core API.

Why one hierarchy: callers (the ROS nodes, the CLI) must be able to catch every failure of the memory
with one ``except TempoMemError`` and turn it into a clear message, and must never see a raw sqlite3 or
numpy exception that leaks an implementation detail. The base is deliberately not called MemoryError,
which would shadow the builtin.
"""


class TempoMemError(Exception):
    """Base class of every error the memory raises on purpose."""


class SchemaError(TempoMemError):
    """The store was written by a newer schema, or with another embedding dimension."""


class ReadOnlyError(TempoMemError):
    """A mutator was called on a store opened read-only."""


class InvalidInputError(TempoMemError, ValueError):
    """An argument is malformed: NaN coordinates, confidence outside 0..1, wrong feature size, ..."""


class UnknownIdError(TempoMemError, KeyError):
    """An object, region or observation id that the store does not hold."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown id"


class StoreError(TempoMemError):
    """The underlying database failed (disk full, corrupt file, locked by another writer)."""
