"""The decorator every public Memory method goes through.

Why: the ROS node calls the memory from a timer thread and from service threads; one re-entrant lock
serialises them. And no raw sqlite3 exception may cross the API: it becomes a StoreError naming the call.
"""

from __future__ import annotations

import functools

from .errors import StoreError, TempoMemError
from .schema import sqlite3


def guarded(method):
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with self._lock:
            if self._conn is None:
                raise StoreError("memory is closed")
            try:
                return method(self, *args, **kwargs)
            except TempoMemError:
                raise
            except sqlite3.Error as exc:
                raise StoreError(f"{method.__name__} failed: {exc}") from exc
    return wrapper
