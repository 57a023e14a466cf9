"""Opening the memory node's store: one writing Memory and two read-only ones on the same file (on PostgreSQL one more
writing connection, the stager).

Why three: the writer stages and commits; queries read through ``reader`` (SQLite WAL lets it read while the
writer commits, so a query never waits for a long commit); the scene publisher reads through ``viewer``, so
that reading a large scene holds up neither a query nor a mutation. Only the writer runs the integrity
check; the readers open the file it has just checked.
Why a stager of its own on PostgreSQL (``open_stager``): the writer's lock (Memory's, one per connection) serialised
the node's staging behind its own commits and behind a mutation waiting for the fusion lock, though staging on
PostgreSQL takes the staging lock, never the fusion lock (docs/FLEET.md, "Staging beside fusion"): at stop 44 the
node's 50-frame commits held its writer 12.4 s at load 8-11 and 400 of its robot's 617 frames were overwritten in its
inbox before they were staged. Its own frames now go in through a second connection, as every other robot's do. On
SQLite the stager is the writer: one writer at a time holds the file (WAL), so a second connection would wait for the
same commit, in the busy handler's sleeps instead of on the lock.
The text encoders belong to the reader, which answers the queries: the label encoder is handed in, the CLIP
text tower loads here; both at configure, so that the first semantic query never waits for a model to load
(nodes/text_encoders.py).
"""

from __future__ import annotations

import os

from tempomem_ros.core.config import MemoryConfig
from tempomem_ros.core.errors import TempoMemError
from tempomem_ros.core.memory import Memory
from tempomem_ros.core.postgres.address import is_postgres
from tempomem_ros.nodes import text_encoders as enc


def default_store_path() -> str:
    home = os.environ.get("ROS_HOME") or os.path.join(os.path.expanduser("~"), ".ros")
    return os.path.join(home, "tempomem", "memory.db")


def store_address(store_path: str) -> str:
    """The ``store_path`` parameter as opened: '' = the default file, '~' and '$VAR' expanded in a file path."""
    if is_postgres(store_path):  # a database address is libpq's to read (it may hold '$' or '~')
        return store_path
    return os.path.expandvars(os.path.expanduser(store_path or default_store_path()))


def open_writer(address: str, param, config: MemoryConfig, world_frame: str) -> Memory:
    """The writing Memory (it runs the integrity check); ``param(name)`` gives the node's parameters."""
    return Memory.open(address, embedding_dim=int(param("embedding_dim")), config=config,
                       feature_model=param("feature_model") or None, world_frame=world_frame)


def open_stager(address: str, param, config: MemoryConfig, world_frame: str, writer: Memory) -> Memory:
    """The Memory the node stages its frames through: on PostgreSQL a second writing connection (it only stages, and
    is closed without fusing: close_memory(fuse=False)), on SQLite ``writer`` itself (the module's docstring says
    why). The writer ran the integrity check."""
    if writer.backend != "postgresql":
        return writer
    return Memory.open(address, embedding_dim=int(param("embedding_dim")), config=config,
                       feature_model=param("feature_model") or None, world_frame=world_frame, check="off")


def open_readers(address: str, param, config: MemoryConfig, label_encoder, on_close_error) -> tuple[Memory, Memory]:
    """The query reader (with the label encoder and the CLIP text tower) and the publishing viewer, both read-only.

    If opening fails half-way, what was opened is closed (``on_close_error(exc)`` hears a close that failed)
    and the failure raised; closing the writer stays the caller's."""
    dim = int(param("embedding_dim"))
    reader = None
    try:  # the writer ran the integrity check; the readers need not repeat it
        reader = Memory.open(
            address, embedding_dim=dim, config=config, readonly=True, label_encoder=label_encoder,
            clip_text_encoder=enc.clip_text_encoder(param("feature_model") or None, param("clip.checkpoint_path"),
                                                    bool(param("clip.allow_random_weights"))),
            check="off",
        )
        enc.limit_torch_threads(int(param("encoder_threads")))  # after both encoders loaded torch
        viewer = Memory.open(address, embedding_dim=dim, config=config, readonly=True, check="off")
    except BaseException:
        close_memory(reader, on_close_error)
        raise
    return reader, viewer


def close_memory(memory: Memory | None, on_error, *, fuse: bool = True) -> None:
    """Close one Memory (None: nothing to do); a TempoMemError goes to ``on_error(exc)``, never up. ``fuse``:
    whether its close fuses what is staged (Memory.close)."""
    if memory is None:
        return
    try:
        memory.close() if fuse else memory.close(fuse=False)
    except TempoMemError as exc:  # e.g. disk full: staged frames stay in the file
        on_error(exc)
