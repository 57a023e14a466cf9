"""The Memory: one SQLite file holding the object scene graph and everything it was built from.

Why this shape: observations are staged as soon as they arrive (add() writes them at once, so nothing
that reached the memory is lost even if the process dies before the next commit), and fused later in
one transaction (commit()), so a crash never leaves a half-fused graph. Every mutator and close() fuse
what is staged first ("fuse before persist"), so maintenance never runs on a graph that is behind its
own evidence. One lock serialises access from threads (the ROS node's timer and service callbacks).

Why "now" is the newest *accepted* stamp: relative questions are answered about the memory's own time, so
one absurd stamp must never become "now". add() refuses implausible frames (validation.py's gates) and
quarantines a frame that jumps far ahead of "now" until the frames that follow confirm the new time (a
robot switched off for a week) or contradict it (one bad clock): see _resolve_quarantine.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Callable, Sequence

import numpy as np

from . import validation
from .config import MemoryConfig
from .errors import (InvalidInputError, ReadOnlyError, StoreClosedError, StoreError, TempoMemError, store_error)
from .checks import YesNoChecks
from .guard import guarded
from .frame_fusion import CommitCounts, FrameFusion
from .labels import sanitize_label
from .lookfor import WhereToLook
from .maintenance import Maintenance, RetentionHooks
from .postgres.address import is_postgres
from .queries import QueryService
from .relations_store import RelationKeeper
from .retention import Retention
from .rows import feature_to_blob
from .settling import FusionHooks, Settling, overlapping_halves
from .store import Store, vectors
from .store.batch_reads import BatchReads
from .store.fusion_rows import FusionRows
from .store.graph_writes import GraphWrites, WriteState
from .store.maintenance_rows import MaintenanceRows
from .store.meta import StoreMeta
from .store.objects import ObjectRows
from .store.placements import PlacementRows
from .store.reads import StoreReads
from .store.retention_rows import RetentionRows
from .store.settling_rows import SettlingRows
from .store.schema import initialise, open_connection, quick_check, sqlite3
from .store.staging import StagedFrames
from .temporal import TemporalService
from .types import STATES, Answer, CameraView, CommitStats, ObjectInfo, Observation, StageResult

CHECKS = ("auto", "quick", "off")


def _exposed(service: str, cls, name: str):
    """Memory.<name> is <service>.<name> behind the facade: the memory's lock and the mapping of storage errors
    (guard.py); the signature and docstring are the service method's."""
    target = getattr(cls, name)

    @functools.wraps(target)
    def method(self, *args, **kwargs):
        return getattr(getattr(self, service), name)(*args, **kwargs)
    return guarded(method)


def _query(name: str):
    return _exposed("_queries", QueryService, name)


def _temporal(name: str):
    return _exposed("_temporal", TemporalService, name)


def _check(name: str):
    return _exposed("_checks", YesNoChecks, name)


def _look_for(name: str):
    return _exposed("_look_for", WhereToLook, name)


def _maintenance(name: str):
    return _exposed("_maintenance", Maintenance, name)


def _retention(name: str):
    return _exposed("_retention", Retention, name)


FLEET_FUSE_BATCH = 50  # frames per transaction when a PostgreSQL store fuses its backlog on close or before a mutation


def is_postgres_connection(conn) -> bool:
    return type(conn).__module__.endswith("postgres.connection")


class Memory:
    """Persistent spatio-temporal object memory. Use Memory.open(path, embedding_dim=...)."""

    def __init__(self, conn, path: str, embedding_dim: int, config: MemoryConfig, readonly: bool, meta: dict,
                 clock: Callable[[], float], label_encoder=None, clip_text_encoder=None,
                 vector_index: str = "auto", immutable: bool = False):
        # the store layer owns the connection (self._conn reads it; the services reach it through the store)
        self._store = Store(conn, clock=clock, before_commit=self._sync_vector_index)
        #: "sqlite" (a file) or "postgresql" (a database server shared by a fleet: docs/FLEET.md)
        self.backend = "postgresql" if is_postgres_connection(conn) else "sqlite"
        #: opened with SQLite's immutable=1 (a read-only store on read-only media, see schema.open_connection)
        self.immutable = immutable
        self._conn.row_factory = sqlite3.Row
        self.path = path
        self.embedding_dim = int(embedding_dim)
        self.config = config
        self.readonly = readonly
        self._meta = meta
        self._wall_clock = clock
        self._vector_index_on = False  # set below, once the vector index is known to be usable
        self._caches = self._store.caches
        self._object_rows = ObjectRows(self._store)
        self._staging = StagedFrames(self._store)  # frames and observations add() writes, and their counts
        self._store_meta = StoreMeta(self._store)
        self._relations = RelationKeeper(self._store, config.relations)
        self._reads = StoreReads(self._store, config, readonly=readonly, has_sources=(
            self.backend == "postgresql" or not readonly
            or self._store_meta.observations_have_sources()), has_place_labels=(
            self.backend == "postgresql" or not readonly or self._store_meta.has_place_labels()), has_event_links=(
            not readonly or self._store_meta.has_event_links()))  # a writer's open relinked a store without triggers
        self._lock = threading.RLock()
        self._commit_now: float | None = None  # "now" of the commit being made (_stamp_clock)
        # the write side's shared state (events counted, change times, objects relabelled: WriteState says why)
        self._writes = WriteState()
        self._graph = GraphWrites(self._store, self._relations, config.relations, self._writes,
                                  now=self._stamp_clock, wall_clock=clock, readonly=readonly)
        # retention asks fusion (known confusions) and the settling step (boxes at one place) two questions of the
        # twin rule, which stay theirs; the fusion service is built below (it needs the query service, which needs
        # retention), so retention's question reaches it when asked
        self._retention = Retention(self._store, RetentionRows(self._store), self._reads, config, meta=meta,
                                    now=self._stamp_clock,
                                    known_confusion=lambda a, b: self._fusion.known_confusion(a, b),
                                    overlapping_halves=overlapping_halves)
        if not readonly:   # stores thinned before sighting tallies were closed daily (retention.TALLY_DAY_S)
            self._retention.close_tally_days()
        self._maintenance = Maintenance(
            self._store, self._graph, MaintenanceRows(self._store, wall_clock=clock), self._reads, self._relations,
            config, self._writes, fuse_pending=self._fuse_pending, now=self._mutation_clock,
            retention=RetentionHooks.of(self._retention))
        self._vector_index_on = self._setup_vector_index(vector_index)
        self._queries = QueryService(self._store, self._reads, config, embedding_dim=self.embedding_dim, meta=meta,
                                     vector_index_on=self._vector_index_on, vector_mode=vector_index,
                                     label_encoder=label_encoder, clip_text_encoder=clip_text_encoder,
                                     explain_missing=self._retention.thinned_observation)
        self._temporal = TemporalService(self._store, self._reads, self._queries, config, now=self._stamp_clock,
                                         tallied_in=self._retention.tallied_in)
        self._checks, self._look_for = self._temporal.checks, self._temporal.look_for  # yes/no; where to look
        # Fusing a frame runs two steps of the settling step (settling.py): removals whose hold ended, then settling;
        # the settling step asks fusion five questions of fusion's rules (FusionHooks). Fusion is built first, so its
        # two calls reach the settling step when they are made.
        self._fusion = FrameFusion(self._store, self._graph, FusionRows(self._store, wall_clock=clock), self._reads,
                                   self._queries, config, self._writes,
                                   settle=lambda *args: self._settling.settle(*args),
                                   finish_removals=lambda *args, **kw: self._settling.finish_removals(*args, **kw))
        self._maintenance.mass_joined = self._fusion.label_mass_joined
        self._maintenance.kept_on_rollback = self._fusion.kept_on_rollback
        self._maintenance.label_looks_reload = None if readonly else self._fusion.load_label_looks
        if not readonly:  # the per-look label rule's state as stored (schema version 16): a restart decides as before
            self._fusion.load_label_looks()
        self._settling = Settling(
            self._store, self._graph, SettlingRows(self._store), PlacementRows(self._store), self._reads, config,
            self._writes, maintenance=self._maintenance, retention=self._retention,
            fusion=FusionHooks.of(self._fusion))
        # Relations were computed from the boxes stored with them: those are the reference boxes.
        for row in self._object_rows.present_boxes():
            self._caches.relation_boxes[int(row[0])] = tuple(row[1:])

    @property
    def _conn(self):
        """The store's connection (Store.conn): one owner, so a connection swapped in (a test's failing one, a
        closed store's None) is the one every read and write goes through."""
        return self._store.conn

    @_conn.setter
    def _conn(self, conn) -> None:
        self._store.conn = conn

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def open(cls, path: str, *, embedding_dim: int | None = None, config: MemoryConfig | dict | None = None,
             readonly: bool = False, clock: Callable[[], float] = time.time, label_encoder=None,
             clip_text_encoder=None, feature_model: str | None = None, vector_index: str = "auto",
             check: str = "auto", world_frame: str | None = None) -> "Memory":
        """Open (or create) a store. embedding_dim is fixed per store (None: take the stored one; creating
        a store needs it); feature_model names the encoder
        of the stored features (e.g. "open_clip:ViT-B-32") and must match on later opens when given.
        vector_index: "auto" (keep a sqlite-vec index when the extension loads; search it only when the
        exact numpy matrix would exceed semantic.feature_matrix_budget_mb), "on" (required and always
        searched), "off" (exact numpy path only).
        check: "auto" (SQLite's quick_check before a read-write open: a damaged store is refused with
        StoreCorruptError naming the recovery command; read-only opens skip it), "quick" (always), "off".
        A read-only open of a store on read-only media works (schema.connect).
        world_frame: the frame of every coordinate the caller writes; a store records its frame when it is
        created ("map" unless given) and refuses a caller in another one (SchemaError). A PostgreSQL store is
        shared by a fleet and is always kept in "map" (docs/FLEET.md)."""
        if vector_index not in ("auto", "on", "off"):
            raise InvalidInputError("vector_index must be auto, on or off")
        if check not in CHECKS:
            raise InvalidInputError(f"check must be one of {', '.join(CHECKS)}")
        if embedding_dim is not None and (isinstance(embedding_dim, bool)
                                          or not isinstance(embedding_dim, (int, np.integer)) or embedding_dim < 1):
            raise InvalidInputError("embedding_dim must be a positive integer")
        if config is None:
            config = MemoryConfig()
        elif isinstance(config, dict):
            config = MemoryConfig.from_dict(config)
        elif not isinstance(config, MemoryConfig):
            raise InvalidInputError("config must be a MemoryConfig or a dict")
        postgres = is_postgres(path)
        if postgres:  # a database server shared by a fleet (docs/FLEET.md); psycopg is imported only here
            from .postgres import store as pg_store
            conn, immutable = pg_store.open_connection(path, readonly), False
            shown = conn.address  # the address without any password
        else:
            conn, immutable = open_connection(str(path), readonly)
            shown = str(path)
        try:
            if postgres:
                meta = pg_store.initialise(conn, embedding_dim=embedding_dim, readonly=readonly,
                                           world_frame=world_frame or pg_store.schema.WORLD_FRAME)
            else:
                if check == "quick" or (check == "auto" and not readonly):
                    quick_check(conn, str(path))
                meta = initialise(conn, embedding_dim=embedding_dim, readonly=readonly, world_frame=world_frame)
            memory = cls(conn, shown, int(meta["embedding_dim"]), config, readonly, meta, clock,
                         label_encoder, clip_text_encoder, vector_index, immutable)
            if feature_model is not None:
                memory._check_feature_model(feature_model)
        except sqlite3.Error as exc:
            conn.close()
            raise store_error(f"opening store '{shown}'", exc) from exc
        except BaseException:
            conn.close()
            raise
        return memory

    def _check_feature_model(self, feature_model: str) -> None:
        from .errors import SchemaError
        stored = self._meta.get("feature_model", "")
        if stored and stored != feature_model:
            raise SchemaError(f"store features were made by '{stored}', opened with '{feature_model}'")
        if not stored and not self.readonly:
            self._store_meta.record_feature_model(feature_model)
            self._meta["feature_model"] = feature_model

    def _setup_vector_index(self, mode: str) -> bool:
        """Whether semantic search may use the sqlite-vec index (see store/vectors.py)."""
        if mode == "off":
            return False
        if self.backend == "postgresql":
            if mode == "on":
                raise StoreError("vector_index='on' needs a vector index; on PostgreSQL that is pgvector, which this "
                                 "backend does not use yet: features are searched exactly (vector_index auto or off)")
            return False
        loaded = vectors.load_extension(self._conn)
        if not loaded:
            if mode == "on":
                raise StoreError("vector_index='on' but the sqlite-vec extension cannot be loaded "
                                 "(install sqlite-vec and pysqlite3-binary)")
            return False
        if self.readonly:
            return vectors.index_exists(self._conn)
        if not vectors.index_exists(self._conn):
            with self._store.transaction():
                vectors.create_index(self._conn, self.embedding_dim)
                vectors.sync_index(self._conn)
        return True

    def _sync_vector_index(self) -> None:
        """Before each commit: the sqlite-vec index takes the features written in the transaction."""
        if self._vector_index_on and not self.readonly:
            vectors.sync_index(self._conn)

    # ------------------------------------------------------------------ queries (queries.py)
    spatial = _query("spatial")
    relational = _query("relational")
    relational_before = _query("relational_before")
    objects_labelled = _query("objects_labelled")
    relations = _query("relations")
    semantic = _query("semantic")
    history = _query("history")
    history_count = _query("history_count")
    observation = _query("observation")
    sources_of = _query("sources_of")
    observations = _query("observations")
    placements = _query("placements")
    placement_count = _query("placement_count")
    events = _query("events")
    last_event_id = _query("last_event_id")
    regions = _query("regions")
    contents = _query("contents")
    audit = _query("audit")
    tombstones = _query("tombstones")

    # ------------------------------------------------------------------ temporal operators (temporal.py)
    temporal = _temporal("temporal")
    changes = _temporal("changes")
    scene_as_of = _temporal("scene_as_of")
    scene_count_as_of = _temporal("scene_count_as_of")
    objects_labelled_or_id = _temporal("objects_labelled_or_id")
    is_related = _check("is_related")
    did_move = _check("did_move")
    is_present = _check("is_present")
    was_seen = _check("was_seen")
    where_to_look = _look_for("where_to_look")
    current_evidence = _temporal("current_evidence")
    placement_evidence = _temporal("placement_evidence")

    # ------------------------------------------------------------------ maintenance (maintenance.py)
    forget = _maintenance("forget")
    update = _maintenance("update")
    label_history = _maintenance("label_history")
    define_region = _maintenance("define_region")
    decay = _maintenance("decay")
    consolidate = _maintenance("consolidate")
    resplit = _maintenance("resplit")

    # ------------------------------------------------------------------ retention (retention.py)
    sighting_counts = _retention("sighting_counts")
    retention_stats = _retention("retention_stats")

    # ------------------------------------------------------------------ questions (answering/)
    @guarded
    def ask(self, question: str, *, now: float | None = None, k: int = 10) -> Answer:
        """Understand an English question (core/answering) and answer it with the operator it names.

        ``now`` defaults to the newest stamp the memory has seen. The answer says what was understood
        (``understood_as``, ``operator``, ``arguments``); a question that is not understood answers
        understood=False with the closest supported questions in ``suggestions``, never a guess."""
        from .answering.answers import answer_question
        if not isinstance(question, str):
            raise InvalidInputError("question must be text")
        # a 1 MB question held a reader for 3.3 s (issue 12)
        validation.text_length(question, "question", self.config.gates.max_question_length)
        if now is None:  # read once: twice was one more round trip a question on PostgreSQL (fleet_round_trips.py)
            newest = self._stamp_clock()
            now = newest if newest > 0 else None
        else:
            now = validation.query_time(now, "now")
        k = validation.positive_int(k, "k", maximum=validation.MAX_K)
        return answer_question(self, question, now, k)

    @property
    def label_encoder(self):
        """The text encoder of semantic queries (None: keywords only)."""
        return self._queries.label_encoder

    @label_encoder.setter
    def label_encoder(self, encoder) -> None:
        self._queries.label_encoder = encoder

    @property
    def question_encoder(self):
        """The sentence encoder behind the similarity reader of ``ask`` (core/answering/similar.py): a question
        no rule reads is matched to the nearest supported form, above a calibrated floor and margin. None (the
        default): such a question is refused, as without a model."""
        reader = getattr(self, "_question_reader", None)
        return reader.encoder if reader is not None else None

    @question_encoder.setter
    def question_encoder(self, encoder) -> None:
        """Set now, the table's canonical sentences are embedded now (seconds on a GPU, a minute or two on a
        loaded CPU), so that no question waits for them."""
        from .answering.similar import SimilarityReader
        reader = SimilarityReader(encoder) if encoder is not None else None
        if reader is not None:
            reader.prepare()
        self._question_reader = reader

    @property
    def clip_text_encoder(self):
        """The CLIP text tower matching the stored features (None: labels only)."""
        return self._queries.clip_text_encoder

    @clip_text_encoder.setter
    def clip_text_encoder(self, encoder) -> None:
        self._queries.clip_text_encoder = encoder

    @property
    def uses_vector_index(self) -> bool:
        """Whether the sqlite-vec index is maintained and may serve semantic queries."""
        return self._vector_index_on

    @property
    def feature_model(self) -> str:
        return self._meta.get("feature_model", "")

    def store_traffic(self) -> dict | None:
        """What this memory's connection has sent to a PostgreSQL server: statements, pipelined writes and
        round trips (postgres/connection.py Traffic.snapshot), or None on SQLite (no server to wait for).
        bench/bench_fleet.py reports it per commit."""
        traffic = getattr(self._conn, "traffic", None)
        return None if traffic is None else traffic.snapshot()

    def __enter__(self) -> "Memory":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self, *, fuse: bool = True) -> None:
        """Fuse what is staged, then close the file. Safe to call twice.

        ``fuse=False``: close without fusing; what is staged stays staged for the fleet's fuser (a memory node
        with fuse_staged false: docs/FLEET.md) or the next commit.

        The file is closed even when the final commit fails (disk full, I/O error): then a StoreError
        subclass says why, and the staged frames stay in the file, fused by the next commit after a reopen.
        """
        with self._lock:
            if self._conn is None:
                return
            error: TempoMemError | None = None
            try:
                if fuse and not self.readonly and self._pending_count() > 0:
                    self._fuse_staged()
            except TempoMemError as exc:
                error = exc
            except sqlite3.Error as exc:
                error = store_error("close", exc, "the staged frames stay in the file and are fused by the next "
                                    "commit after it is reopened")
            finally:
                try:
                    self._conn.close()
                except sqlite3.Error as exc:
                    error = error or store_error("close", exc)
                self._conn = None
            if error is not None:
                raise error

    # ------------------------------------------------------------------ helpers
    @contextlib.contextmanager
    def reading(self):
        """The store's connection for one consistent read of raw rows, under the memory's lock (SceneFeed
        re-reads only what the audit says changed; it needs the audit mark and the rows in one snapshot)."""
        with self._lock:
            if self._conn is None:
                raise StoreClosedError("memory is closed")
            with self._store.snapshot() as conn:
                yield conn

    def _require_writable(self) -> None:
        if self.readonly:
            raise ReadOnlyError(f"store '{self.path}' is open read-only")

    def _fuse_pending(self) -> None:
        """Before a mutation: refuse a read-only store, then fuse what is staged before it ("fuse before persist").

        On SQLite, and on PostgreSQL while every staged frame is this writer's own (its source: one writer, whose
        add() then forget() of the id it will make must work as on SQLite), every staged frame. On PostgreSQL with other
        robots' frames staged (a fleet: robots stage beside fusion) only the frames
        stamped at or before the fused graph's newest stamp S (stragglers; usually none), and the mutation is stamped
        S (_mutation_clock): its record is ordered against the staged frames by stamp, after every frame stamped <= S
        and before every later one, which the fuser fuses after it in their order. Why: fusing the fleet's whole
        backlog first held the writer for seconds (bench_fleet_services: forget p95 7.1 s, 21 s beside a fuser
        process, its node's own frames waiting behind it). Determinism: the graph is that of one writer fusing the
        frames through S, mutating at S, then fusing the rest (test_fleet_mutation_order.py asserts it table by
        table); what decides S is the fused state the mutation found, as which frames a commit fuses is decided by
        what was staged when it took the lock. A frame stamped <= S staged after this read is fused after the
        mutation, as a straggler is fused after a later batch."""
        self._require_writable()
        if self._pending_count() == 0:
            return
        fleet = self.backend == "postgresql" and self._staging.pending_from_others(self.config.source)
        through = self._staging.newest_fused() if fleet else None
        if through is None:  # SQLite, one writer's own frames, or nothing fused yet: after every staged frame
            self._fuse_staged()
            return
        while self._staging.pending_count(through) > 0:
            self._commit_locked(FLEET_FUSE_BATCH, through=through)

    def _mutation_clock(self) -> float:
        """"now" of a mutation (Maintenance): the memory's stamp clock, but on PostgreSQL while frames stay staged the
        fused graph's newest stamp (_fuse_pending left only later frames staged: the mutation comes before them).
        Maintenance reads it inside the mutation's write transaction (Maintenance._locked_now): a fuser's commit made
        after _fuse_pending but before the lock moves S, and the mutation is stamped after the frames it fused."""
        if self.backend != "postgresql" or self._commit_now is not None or self._pending_count() == 0:
            return self._stamp_clock()
        fused = self._staging.newest_fused()
        return self._stamp_clock() if fused is None else fused

    def _fuse_staged(self) -> None:
        """Fuse every staged frame: on SQLite in one commit; on PostgreSQL in commits of at most FLEET_FUSE_BATCH
        frames, each its own transaction. Why: on a fleet's store the robots stage beside fusion, so a close, a forget
        or a region definition would otherwise fuse the whole fleet's backlog under the fusion lock in one go (449
        frames held it 18 s, past every other writer's 5 s lock timeout; review of session 33).
        On PostgreSQL it fuses as many frames as were staged when it began (oldest first; the last batch may take a
        few staged since), not "until none is staged": frames are staged beside it (other robots', and the memory
        node's own through a connection of its own, nodes/memory_store.py open_stager), so while they arrived as fast
        as it fused them (a robot at 10 Hz against 50-frame commits of 12.4 s at load 8-11, stop 44) the loop, and
        the forget or close that called it, would not end (test_fleet_writers.py). A frame staged after it began
        comes after the mutation that asked, which _mutation_clock orders before it."""
        if self.backend != "postgresql":
            self._commit_locked()
            return
        left = self._pending_count()
        while left > 0:
            fused = len(self._commit_locked(FLEET_FUSE_BATCH).frame_ids)
            if fused == 0:  # another writer fused them meanwhile
                return
            left -= fused

    # the write side's shared state (WriteState) under the names fusion and commit() use
    @property
    def _counters_events(self) -> int:
        return self._writes.events

    @_counters_events.setter
    def _counters_events(self, value: int) -> None:
        self._writes.events = value

    @property
    def _change_times(self) -> dict[int, float]:
        return self._writes.change_times

    @_change_times.setter
    def _change_times(self, value: dict[int, float]) -> None:
        self._writes.change_times = value

    @property
    def _relabelled(self) -> set[int]:
        return self._writes.relabelled

    @_relabelled.setter
    def _relabelled(self, value: set[int]) -> None:
        self._writes.relabelled = value


    def _stamp_clock(self) -> float:
        """The memory's notion of "now" on the world clock: the newest stamp it has accepted (0 when none).

        Inside a commit, the value read when it took the write lock. Why: fusion, settling, relations and
        retention ask for it many times a commit, and under the lock it cannot change (fusing a frame turns it from
        pending to fused: the newest of both is the same); on PostgreSQL each ask was a round trip (3 of a robot's
        26 a frame at 10,000 objects, bench_round_trips), and "now" must not move within a commit if robots ever
        stage beside it (docs/FLEET.md, the fusion lock)."""
        if self._commit_now is not None:
            return self._commit_now
        newest = self._newest_accepted()
        return 0.0 if newest is None else newest

    def _newest_accepted(self) -> float | None:
        """Newest stamp of a staged or fused frame (quarantined and refused frames never count)."""
        return self._staging.newest_accepted()

    def _audit(self, stamp, action: str, object_ids, observation_ids, detail: dict | None = None) -> None:
        """Queue an audit row, written with the transaction it belongs to (Store.transaction)."""
        self._store.audit(stamp, action, object_ids, observation_ids, detail, self.config.source)

    def _pending_count(self) -> int:
        return self._staging.pending_count()

    # ------------------------------------------------------------------ ingest
    @guarded
    def add(self, observations: Sequence[Observation], view: CameraView | None = None, *,
            stamp: float | None = None, source: str | None = None) -> list[int]:
        """Stage one frame: its observations (and optionally the camera view) are written at once and
        fused at the next commit(). Returns the observation ids. The whole batch is validated first, and
        an implausible one is refused with ImplausibleInputError (see stage() for a quarantined frame).
        source: the robot that saw the frame (default: config.source), kept on the frame and each
        observation."""
        return list(self._stage(observations, view, stamp, source).observation_ids)

    @guarded
    def stage(self, observations: Sequence[Observation], view: CameraView | None = None, *,
              stamp: float | None = None, source: str | None = None) -> StageResult:
        """add(), returning what happened to the frame (StageResult): staged ("pending") or, when its stamp
        is more than gates.max_stamp_jump_s ahead of "now", "quarantined" until gates.jump_confirm_frames
        consecutive frames confirm the new time; and which earlier quarantined frames this call released
        or refused."""
        return self._stage(observations, view, stamp, source)

    def _stage(self, observations, view, stamp, source=None) -> StageResult:
        self._require_writable()
        source = self.config.source if source is None else validation.source(source)
        observations = list(observations)
        validation.observations(observations, self.embedding_dim)
        if view is not None:
            validation.camera_view(view)
        if stamp is None:
            if view is not None and view.stamp is not None:
                stamp = float(view.stamp)
            elif observations:
                stamp = max(float(o.stamp) for o in observations)
            else:
                raise InvalidInputError("an empty frame needs a stamp (view.stamp or stamp=)")
        stamp = validation.finite_number(stamp, "stamp")
        now = self._wall_clock()
        gates = self.config.gates
        newest = validation.plausible_frame(observations, view, stamp, now, gates)
        view_cols: tuple = (0, None, None, None, None, None, None, None, None, None, None, None, 0)
        if view is not None:
            depth = None if view.depth is None else np.ascontiguousarray(view.depth, dtype=np.float32)
            view_cols = (1, np.asarray(view.pose, dtype=np.float64).tobytes(), float(view.fx), float(view.fy),
                         float(view.cx), float(view.cy), int(view.width), int(view.height),
                         float(view.max_range), None if depth is None else depth.tobytes(),
                         None if depth is None else depth.shape[0], None if depth is None else depth.shape[1],
                         int(view.min_object_pixels))
        max_len = self.config.max_label_length
        view_cols, depth_blob = self._retention.split_depth(view_cols)  # retention.py: the depth in a row of its own
        # PostgreSQL: under the staging lock, beside another writer's fusion (Store.staging, docs/FLEET.md)
        # "now" and the quarantined frames are read once the lock is held (on PostgreSQL in its round trip): stagers
        # are serialised, and no fusion changes either (it turns pending frames fused; it never reads quarantined ones)
        # and the frame's id and its sightings' are taken there too (PostgreSQL; None on SQLite), so its rows are sent
        # with the COMMIT: 2 waits a staged frame, not 4 (bench_stage_profile.py)
        reserve = (("frames", 1),) + ((("observations", len(observations)),) if observations else ())
        with self._store.staging(StagedFrames.STAGE_READS, reserve) as (newest_rows, quarantined_rows, *first_ids):
            accepted = StagedFrames.newest_of(newest_rows)
            jump = accepted is not None and newest > accepted + gates.max_stamp_jump_s
            status = "quarantined" if jump else "pending"
            frame_id = self._staging.insert_frame(stamp, now, status, view_cols, len(observations), source,
                                                  first_ids[0])
            self._retention.stage_depth(frame_id, depth_blob)
            ids = self._staging.insert_observations([(
                frame_id, float(obs.stamp), now, sanitize_label(obs.label, max_len), float(obs.confidence),
                obs.center, obs.bbox_min, obs.bbox_max, feature_to_blob(obs.feature), int(obs.n_points),
                int(obs.instance_id), "quarantined" if jump else "pending", source) for obs in observations],
                first_ids[1] if observations else None)
            if jump:
                self._audit(stamp, "quarantine", [], ids, {
                    "frame": frame_id, "reason": "stamp_jump", "newest_accepted": accepted,
                    "ahead_s": round(newest - accepted, 6)})
            # the quarantined frames now: those read before this one was written, and this one when it jumped
            quarantined = list(quarantined_rows) + ([(frame_id, stamp)] if jump else [])
            released, refused = self._resolve_quarantine(frame_id, stamp, jump, quarantined)
        return StageResult(frame_id, tuple(ids), "pending" if jump and frame_id in released else status,
                           tuple(released), tuple(refused))

    def _resolve_quarantine(self, frame_id: int, stamp: float, jumped: bool,
                            rows: list) -> tuple[list[int], list[int]]:
        """Release or refuse quarantined frames after frame ``frame_id`` was written. Returns (released, refused).
        ``rows``: the quarantined frames (id, stamp) in arrival order, this one included when it jumped.

        Quarantine holds one candidate new timeline: a run of consecutive frames (arrival order) that all
        jump more than gates.max_stamp_jump_s ahead of "now", each within that of the previous one. The run
        is released (staged, in stamp order at the next commit) once it has gates.jump_confirm_frames
        frames: a robot switched off for a week legitimately jumps a week ahead, and every frame after the
        restart confirms it. It is refused (kept with verdict rejected / stamp_jump, never fused) when a
        frame on the accepted timeline arrives (the old clock is still running: the jump was one bad
        stamp), or when the next jumping frame is not within max_stamp_jump_s of it (another bad stamp).
        """
        if not rows:
            return [], []
        gates = self.config.gates
        earlier = [r for r in rows if int(r[0]) != frame_id]
        refused: list[int] = []
        if not jumped:
            refused = [int(r[0]) for r in earlier]
            why = "a frame on the accepted timeline followed it"
        elif earlier and abs(stamp - float(earlier[-1][1])) > gates.max_stamp_jump_s:
            refused = [int(r[0]) for r in earlier]
            why = "the next jumping frame was not within gates.max_stamp_jump_s of it"
        if refused:
            obs_ids = self._staging.observation_ids_of(refused)
            self._staging.refuse_frames(refused)
            self._retention.drop_staged_depths(refused)  # retention.py: a staged depth in frame_depths goes too
            self._staging.reject_stamp_jumped(refused)
            self._audit(stamp, "refuse", [], obs_ids, {"frames": refused, "reason": "stamp_jump", "why": why})
        run = [int(r[0]) for r in rows if int(r[0]) not in refused]
        if not jumped or len(run) < gates.jump_confirm_frames:
            return [], refused
        obs_ids = self._staging.observation_ids_of(run)
        self._staging.release(run)
        self._audit(stamp, "release", [], obs_ids, {"frames": run, "reason": "stamp_jump confirmed"})
        return run, refused

    @guarded
    def pending(self) -> int:
        """Number of staged frames not yet fused."""
        return self._pending_count()

    @guarded
    def commit(self, max_frames: int | None = None) -> CommitStats:
        """Fuse everything staged, in stamp order (then source, then staging order), in one transaction.

        max_frames: fuse only the first that many staged frames in that order (a fleet's fuser with a backlog: each
        batch holds the fusion lock for a bounded time, so that another writer's forget or commit does not time out
        behind it, and the oldest frames become visible first); the rest stay staged for the next commit."""
        self._require_writable()
        if max_frames is not None and (isinstance(max_frames, bool) or not isinstance(max_frames, int)
                                       or max_frames < 1):
            raise InvalidInputError("max_frames must be a positive integer (or None: every staged frame)")
        return self._commit_locked(max_frames)

    def _commit_locked(self, max_frames: int | None = None, through: float | None = None) -> CommitStats:
        t0 = time.perf_counter()
        counters = CommitCounts()
        self._counters_events = 0
        touched: set[int] = set()
        self._change_times = {}
        # Read under the write lock: frames read before it may be fused by another writer's commit while this
        # one waits for the lock, and fused again here: their sightings are no longer pending, but their views
        # counted the absence evidence a second time (two misses of one look; test_fleet_writers.py). Nothing staged:
        # no write transaction, no lock taken (ANY_PENDING). On PostgreSQL the check, the lock and these reads (and
        # the frames' sightings) are one round trip (Store.fusing), where they were five (bench/fleet_round_trips.py).
        reads = [RetentionRows.pending_frames_read(max_frames, through), (StagedFrames.NEWEST_FUSED, ())]
        if self._store.reads_in_batches:
            reads.append(FusionRows.pending_sightings_read(max_frames, through))
        with self._fusion.kept_on_rollback(), self._store.fusing(reads, StagedFrames.ANY_PENDING) as read:
            if read is None:
                return CommitStats(objects_after=self._count_objects(), elapsed_ms=(time.perf_counter() - t0) * 1e3)
            frames = self._retention.frames_from(read[0])  # retention.py: with their depth
            # "now" of this commit: the newest fused stamp or the newest of the frames read, pinned for the whole
            # commit. Why not the newest staged: on PostgreSQL robots stage beside this commit (Store.staging), and a
            # frame staged after the read above is not fused here; it must not move this commit's "now" (removal
            # holds, relation `since`). Alone on the store (SQLite) both are the same value: the read took every
            # pending frame.
            fused = StagedFrames.newest_of(read[1])
            stamps = [float(f["stamp"]) for f in frames] + ([] if fused is None else [fused])
            self._commit_now = max(stamps) if stamps else 0.0
            if self._store.reads_in_batches and frames:  # answers kept across the frames, in step with their writes
                self._store.caches.batch = BatchReads(until=max(float(f["stamp"]) for f in frames))
            try:
                self._fusion.sightings_read_with_frames(FusionRows.sightings_by_frame(read[2]) if len(read) > 2 else {})
                for frame in frames:
                    self._fusion.fuse_frame(frame, counters, touched)
                    self._staging.mark_fused(frame["id"])
                self._store.caches.batch = None
                self._relations.update(touched, self._stamp_clock(), self._change_times)
                self._retention.compact_settled()  # thin what has settled, in this transaction
            finally:
                self._commit_now = None
                self._store.caches.batch = None
        changed = bool(counters.merged or counters.created or counters.removed or self._counters_events)
        return CommitStats(
            observations_committed=counters.observations, merged=counters.merged, created=counters.created,
            rejected=counters.rejected, objects_after=self._count_objects(),
            elapsed_ms=(time.perf_counter() - t0) * 1e3, moved=counters.moved, removed=counters.removed,
            reappeared=counters.reappeared, misses=counters.misses, views=counters.views,
            events=self._counters_events, changed=changed, frame_ids=tuple(int(f["id"]) for f in frames))

    def _count_objects(self) -> int:
        """Present + missing + tentative objects; counted once, then kept up to date by the writer (a COUNT over
        100,000 rows after every commit cost more than the commit itself)."""
        if self._caches.n_active is None or self.readonly:
            self._caches.n_active = self._object_rows.count_active()
        return self._caches.n_active

    # ------------------------------------------------------------------ reading objects
    @guarded
    def objects(self, state: str | None = None) -> list[ObjectInfo]:
        """Every object (any state) by id, or only those in ``state`` (present | missing | forgotten | tentative:
        seen fewer than identity.confirm_observations times, shown nowhere else)."""
        if state is not None and state not in STATES:
            raise InvalidInputError(f"unknown state '{state}' ({' | '.join(STATES)})")
        return self._reads.object_infos(self._object_rows.all(state))

    @guarded
    def placement_overlaps(self, limit: int = 100) -> list[tuple[int, int, int]]:
        """(object id, placement id, later placement id) of one object's placements that hold at once, at most
        ``limit``: an invariant check (an object is in one place at a time; store/placements.py overlapping),
        [] in a sound store."""
        return PlacementRows(self._store).overlapping(limit)

    @guarded
    def get(self, object_id: int) -> ObjectInfo:
        return self._reads.object_infos([self._reads.row_or_raise(object_id)])[0]

    @guarded
    def latest_stamp(self) -> float | None:
        """The newest world stamp the memory has accepted ("now"; None when empty). Quarantined and refused
        frames never count."""
        return self._newest_accepted()

    @guarded
    def frame_staged(self, stamp: float, n_observations: int) -> bool:
        """Whether a frame with this stamp and number of observations is already in the store (any status):
        how the node recognises a frame a transient-local publisher sends again after a restart."""
        stamp = validation.finite_number(stamp, "stamp")
        return self._staging.has_frame(stamp, n_observations)

    @guarded
    def quarantined(self) -> int:
        """Number of frames held in quarantine (stamp far ahead of "now", not yet confirmed)."""
        return self._staging.quarantined_count()

    @guarded
    def frame_counts(self) -> dict[str, int]:
        """Frames by status: pending, fused, quarantined, refused, compacted (kept by a retention pass for the
        sightings or misses it kept; frames of thinned sightings only are deleted, counted in its audit row)."""
        return {status: self._staging.count_with_status(status)
                for status in ("pending", "fused", "quarantined", "refused", "compacted")}
