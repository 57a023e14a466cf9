"""The decorator every public Memory method goes through.

Why: the ROS node calls the memory from a timer thread and from service threads; one re-entrant lock
serialises them. And no raw sqlite3 exception may cross the API: it becomes the StoreError subclass that
says what happened (disk full, locked, I/O error, corrupt file; errors.store_error), naming the call.
"""

from __future__ import annotations

import functools

from .errors import StoreClosedError, TempoMemError, store_error
from .store.schema import sqlite3


def guarded(method):
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with self._lock:
            if self._conn is None:
                raise StoreClosedError("memory is closed")
            try:
                return method(self, *args, **kwargs)
            except TempoMemError:
                raise
            except sqlite3.Error as exc:
                raise store_error(method.__name__, exc) from exc
    return wrapper
