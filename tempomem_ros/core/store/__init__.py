"""The store layer: everything that knows the store is SQL lives under this package.

- ``base``: the connection's owner (``Store``), its one ``transaction()``, the audit queue, the spatial-index
  reads, the writer's caches, and the contract a second backend must keep (``StoreInterface``).
- ``graph_writes``: the object graph's write primitives every write path shares (placements, label mass, events,
  the R*Tree entry, tombstones, retiring an object) and the write side's shared state (``WriteState``).
- ``fusion_rows``: the statements only fusion runs (core/frame_fusion.py has no SQL left).
- ``maintenance_rows``: the statements only maintenance runs (core/maintenance.py has no SQL left).
- ``retention_rows``: the statements only retention runs (core/retention.py has no SQL left).
- ``settling_rows``: the statements only the settling step runs (core/settling.py has no SQL left).
- ``reads``: the read helpers every service shares (rows into the API's value types, the label caches).
- ``object_row``: ``ObjectRow``, the typed row of the objects table every read of its columns returns (read
  ``obj.label``; ``obj["label"]`` remains only for callers not yet converted).
- one module per table, each a small class over the store with named methods that state their order:
  ``objects`` (and tombstones), ``observations``, ``placements`` (and the as-of scene), ``events``,
  ``relations``, ``regions``, ``audit``; ``staging`` (the frames and observations add() writes, quarantine,
  frame counts) and ``meta``.
- the store-level modules, each here because it works on the tables themselves, below the API:
  - ``schema``: the SQLite schema, its version and migrations, opening and checking a store file; the table
    modules beside it write the columns it defines.
  - ``vectors``: the optional sqlite-vec index, a derived table kept in step inside the writing transaction.
  - ``recovery``: salvaging a damaged store file into a new one (``tempomem recover``), table by table, key
    range by key range.
  - ``transfer``: copying whole stores row for row (``tempomem migrate``, ``merge``), every id kept, on either
    backend.

Nothing above this package writes SQL: every service of the core (fusion, settling, maintenance, retention, queries,
temporal operators, relations) reaches the store through the named methods here.
"""

from .base import (Store, StoreInterface, TableInfo, WriterCaches, atomic, describe_tables,  # noqa: F401
                   rollback_quietly)
from .object_row import ObjectRow  # noqa: F401
