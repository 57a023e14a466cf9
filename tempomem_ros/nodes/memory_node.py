"""``memory_node``: the ROS 2 face of the object memory (a lifecycle node).

Why a lifecycle node: the store is a file that must be opened once and closed cleanly (close() fuses what
is staged), so "configure" = open the store, "activate" = start listening and publishing, "deactivate" =
stop, "cleanup" = close. ``autostart`` (default true) walks configure + activate at startup so that a plain
``ros2 launch`` works without a lifecycle manager.

Threads: observations are staged at once by the subscription (nothing that arrived is lost), a steady
timer commits them in its own callback group, and the services run in other groups of a multi-threaded
executor (``main`` uses nodes/executor.py's, which does not busy-spin). Queries are answered by a second,
read-only Memory on the same file: SQLite WAL lets it read while the writer commits, so a query never waits
for a long commit. Only forget and define_region use the writer. The commit timer also publishes the scene
graph, markers and change events after a commit that changed something; it reads through a third,
read-only Memory (``viewer``), so that reading a large scene holds up neither a query nor a mutation.

Why bad input and storage failures are counted, never fatal (issue 12): an observation message the memory's
plausibility gates refuse is dropped and counted under the gate's reason (``dropped.<reason>`` in
/diagnostics); a frame far ahead of "now" is quarantined by the memory until confirmed. When the store
refuses writes (disk full, locked, I/O error) the node keeps running: frames wait in a bounded queue in RAM
(``store_retry_frames``) and are staged in arrival order once a write succeeds again, commits retry on every
tick, and /diagnostics reports the store's state (ERROR while it fails, OK once it recovers).

Why ``observation_durability`` and no "ready" topic (measured with bench/bench_restart_delivery.py, issue 12
item 7): the restarted node is active (subscribed, spinning) 1.0-1.3 s after the kill, but the publisher
discovers its subscription up to 2.7 s later, and frames published meanwhile are lost (25, 6, 14 and 7 in four
SIGKILL restarts at 10 Hz): DDS discovery, not the node. After SIGKILL the publisher also counts the dead
subscription for ~7 s, so "a subscriber is matched" says nothing; after SIGINT it unmatches at once and the
delay is rarer (0, 0, 12, 0 lost). A latched "ready" message was tried: it reached the publisher up to 3 s
before or after frames started to arrive (each pair of endpoints is discovered on its own), so it cannot say
"publish now". TRANSIENT_LOCAL on both sides lets the publisher keep the last frames and deliver them once
matched: 0 lost in four SIGKILL restarts, including the 20 published while the node was down.
"""

from __future__ import annotations

import collections
import contextlib
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field

import rclpy
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup, ReentrantCallbackGroup
from rclpy.clock import Clock, ClockType
from rclpy.exceptions import ParameterException
from rclpy.executors import ExternalShutdownException
from rclpy.lifecycle import LifecycleNode, LifecycleState, TransitionCallbackReturn
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from visualization_msgs.msg import MarkerArray

from tempomem_ros import srv as tempomem_srv
from tempomem_ros import topics
from tempomem_ros.core.config import MemoryConfig
from tempomem_ros.core.postgres.address import is_postgres
from tempomem_ros.core.errors import ImplausibleInputError, InvalidInputError, StoreError, TempoMemError
from tempomem_ros.core.memory import Memory
from tempomem_ros.core.scene_feed import SceneFeed
from tempomem_ros.msg import ChangeEvent, ObservationArray, SceneGraph
from tempomem_ros.nodes import cdr
from tempomem_ros.nodes import conversions as conv
from tempomem_ros.nodes import markers as mk
from tempomem_ros.nodes.executor import BoundedMultiThreadedExecutor
from tempomem_ros.nodes.parameters import ParamSpec, declare, memory_config_from, memory_config_specs
from tempomem_ros.nodes.services import MUTATING, SERVICES, ServiceHandlers

NODE_NAME = "memory_node"
TIME_SOURCES = ("stamp", "clock")
DURABILITIES = ("volatile", "transient_local")
LABEL_ENCODERS = ("none", "minilm", "hashing")
EXECUTOR_THREADS = 3

# The node's own wording of the settings its users reach for most. Every MemoryConfig setting is a parameter;
# the others are described by the comment beside them in core/config.py (nodes/parameters.py).
CONFIG_DESCRIPTIONS: dict[str, str] = {
    "fusion.merge_threshold": "Fusion score at or above which an observation merges into an object.",
    "fusion.reject_confidence": "Observations below this confidence are stored but rejected.",
    "identity.min_gap_s": (
        "A look-alike found sooner after an object's last sighting is another instance, not that object moved."
    ),
    "identity.confirm_observations": "Sightings before an object is shown and its 'appeared' published.",
    "identity.appear_hold_s": "Seconds those sightings must span (a reflection lasts less).",
    "identity.confirm_gap_s": (
        "Those sightings form one run: a sighting later than this after the one before starts the count anew."
    ),
    "identity.feature_threshold": "Feature cosine needed to re-identify a moved object.",
    "absence.misses_to_remove": "Views that should have seen an object, but did not, before it is missing.",
    "absence.min_absence_s": "The misses must span at least this many seconds.",
    "absence.min_range": "Metres: nearer than this a miss does not count (segmenter unreliable).",
    "relations.near_distance": "Metres between boxes within which two objects are 'near'.",
    "retention.mode": (
        "thin: settled sightings beyond a bounded sample per placement are counted, not kept (bounded growth, the "
        "same answers) | keep-all: every sighting, frame and per-sighting audit row is kept."
    ),
    "retention.settle_s": "Sightings younger than this (behind the newest stamp) are never thinned.",
    "retention.compact_every_s": "A compaction pass runs inside a commit at most this often.",
    "retention.time_samples": "Time bins per placement whose first sighting is kept.",
    "retention.observation_features": "Kept sightings' features: float16 | int8 | float32.",
    "fusion.box_growth_factor": (
        "One observation may grow an object's box to at most this x its largest view so far (0.25 m floor)."
    ),
    "gates.world_bound": "Metres: observations and views with a coordinate beyond +- this are refused.",
    "gates.max_extent": "Metres: observations whose box has a longer side are refused.",
    "gates.max_stamp_ahead_s": (
        "Stamps more than this ahead of the wall clock are refused (old bags and sim time stay accepted)."
    ),
    "gates.max_stamp_jump_s": (
        "A frame this far ahead of 'now' is quarantined until gates.jump_confirm_frames frames confirm it."
    ),
    "gates.jump_confirm_frames": "Consecutive frames that confirm a jump ahead in time.",
    "gates.max_frame_spread_s": "Observation stamps within this of their frame's stamp.",
    "gates.min_feature_norm": "Features with a smaller L2 norm are refused.",
    "gates.max_feature_norm": "Features with a larger L2 norm are refused.",
    "gates.max_observations": "Observations per frame; larger frames are refused.",
    "gates.max_question_length": "Characters of a question or semantic query; longer are refused.",
}


# The node's own parameters; every MemoryConfig setting follows them (nodes/parameters.py).
NODE_PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("autostart", True, "Configure and activate at startup (no lifecycle manager needed)."),
    ParamSpec("store_path", "",
              "Store address: a SQLite file ('' = $ROS_HOME/tempomem/memory.db, ROS_HOME defaults to ~/.ros) or a "
              "PostgreSQL database shared by a fleet (postgresql://... or a libpq conninfo / service=NAME; "
              "credentials from libpq's environment, pgpass or service file). Read at configure."),
    ParamSpec("robot_id", "",
              "This robot's id, stamped as the source of every frame and audit row it writes, so that answers cite "
              "which robot saw what (docs/FLEET.md). Robots sharing a store need distinct ids; a robot with an id "
              "reports in the shared 'map' frame (world_frame), any other is refused at configure."),
    ParamSpec("embedding_dim", 32,
              "Feature dimension; fixed per store (a store of another dimension is refused).",
              span=(1, 8192)),
    ParamSpec("commit_rate_hz", 2.0,
              "How often staged observations are fused and the results published.",
              span=(0.05, 100.0)),
    ParamSpec("world_frame", topics.WORLD_FRAME,
              "Frame of every coordinate; observations in another frame are dropped."),
    ParamSpec("time_source", "stamp",
              "'now' for relative times in questions: stamp = the latest observation stamp (right for replayed bags),"
              " clock = the node's clock."),
    ParamSpec("publish_markers", True, "Publish RViz markers on " + topics.MARKERS + "."),
    ParamSpec("marker_lifetime_s", 0.0, "Marker lifetime; 0 = until replaced or deleted.", span=(0.0, 3600.0)),
    ParamSpec("marker_max_objects", 2000,
              "Draw at most this many objects (the most recently seen); 0 = all. RViz slows down with tens of "
              "thousands of markers.",
              span=(0, 1000000)),
    ParamSpec("marker_max_previous", 3, "Previous places drawn per moved object.", span=(0, 100)),
    ParamSpec("marker_text_size", 0.08, "Height of the label text, metres.", span=(0.001, 10.0)),
    ParamSpec("publish_min_interval_s", 0.0,
              "Publish the scene graph and markers at most this often (seconds; 0 = after every commit that changed "
              "something).",
              span=(0.0, 3600.0)),
    ParamSpec("publish_max_duty", 0.1,
              "Largest fraction of time spent building the scene graph and markers: after a publish that took C "
              "seconds the next waits at least C * (1 / duty - 1), so a large memory never starves the services.",
              span=(0.01, 1.0)),
    ParamSpec("publish_serialized", True,
              "Publish the scene graph and markers as bytes joined from per-object serialized parts, so that "
              "converting a large scene never holds the GIL for long (checked against rclpy's own serializer at "
              "configure; false = publish messages)."),
    ParamSpec("scene_resync_s", 300.0,
              "Between publishes the scene is refreshed from the audit (only the objects a mutation touched are re-"
              "read); at least this often it is read whole, as a safety net.",
              span=(1.0, 86400.0)),
    ParamSpec("observation_queue_depth", 50, "Depth of the reliable observation subscription.", span=(1, 10000)),
    ParamSpec("observation_durability", "volatile",
              "volatile | transient_local. transient_local (the publisher must offer it too) receives the last "
              "observation_queue_depth frames a publisher kept while this node was down or not yet discovered; frames"
              " already in the store (same stamp and size) are then skipped (dropped.duplicate)."),
    ParamSpec("store_retry_frames", 600,
              "Frames kept in RAM while the store refuses writes for a reason that heals (disk full, locked, I/O "
              "error), staged in order once it accepts them again; beyond this many they are dropped (counted).",
              span=(0, 100000)),
    ParamSpec("diagnostics_rate_hz", 1.0, "Rate of the counters published on /diagnostics.", span=(0.01, 100.0)),
    ParamSpec("label_encoder", "none",
              "Text encoder for semantic queries: none (keywords only) | minilm (sentence model, needs gt-all-"
              "minilm-l6-v2) | hashing (character n-grams, no model)."),
    ParamSpec("feature_model", "",
              "Encoder of the observation features, recorded in the store (a store made with another is refused), "
              "e.g. open_clip:ViT-B-32 when the perception node runs CLIP; empty = not recorded."),
    ParamSpec("clip.checkpoint_path", "",
              "Local CLIP checkpoint: with feature_model open_clip:<model>, semantic queries also embed the text with"
              " that model's text tower; empty = label path only."),
    ParamSpec("clip.allow_random_weights", False, "Testing only: CLIP text tower with random weights."),
    ParamSpec("encoder_threads", 1,
              "Threads torch may use to embed question text (label_encoder minilm, CLIP text tower); 0 = torch's "
              "default. One short sentence gains nothing from more, and they compete with the services.",
              span=(0, 256)),
)


#: The frame every robot of a fleet reports in (one map shared by all: docs/FLEET.md).
FLEET_FRAME = "map"


def default_store_path() -> str:
    home = os.environ.get("ROS_HOME") or os.path.join(os.path.expanduser("~"), ".ros")
    return os.path.join(home, "tempomem", "memory.db")


@dataclass
class NodeCounters:
    """What the diagnostics report; plain ints (updated under the GIL from several callback threads)."""

    received: int = 0
    handled: int = 0  # received and either staged or dropped
    staged_frames: int = 0
    staged_observations: int = 0
    dropped: dict = field(default_factory=dict)  # reason -> count
    commits: int = 0
    commit_errors: int = 0
    last_commit_ms: float = 0.0
    graphs_published: int = 0
    last_publish_ms: float = 0.0
    events_published: int = 0
    last_error: str = ""
    quarantined: int = 0   # frames the memory quarantined (stamp jump) ...
    released: int = 0      # ... and later released (confirmed) ...
    refused: int = 0       # ... or refused (not confirmed)
    refused_requests: dict = field(default_factory=dict)  # service -> count
    retried: int = 0       # frames staged from the retry queue

    def drop(self, reason: str) -> None:
        self.dropped[reason] = self.dropped.get(reason, 0) + 1


def events_after(memory: Memory, after_id: int, limit: int = 1000) -> list:
    """Change events with id > after_id, oldest id first (a 'removed' event carries the stamp of its first
    miss, older than the commit that decided it, so the publisher follows event ids, not stamps)."""
    return memory.events(after_id=after_id, limit=limit)


def last_event_id(memory: Memory) -> int:
    events = memory.events(after_id=0)
    return events[-1].id if events else 0


class MemoryNode(LifecycleNode):
    """The memory node. Tests construct it directly; ``main`` runs it with a BoundedMultiThreadedExecutor."""

    def __init__(self, node_name: str = NODE_NAME, **kwargs) -> None:
        super().__init__(node_name, **kwargs)
        self._declare_parameters()
        self.counters = NodeCounters()
        self.writer: Memory | None = None
        self.viewer: Memory | None = None  # read-only, for publishing
        self.reader: Memory | None = None
        self.handlers: ServiceHandlers | None = None
        self.store_path = ""
        self._publish_lock = threading.Lock()
        self._dirty = False
        self._last_event_id = 0
        self._last_publish = 0.0
        self._publish_cost_s = 0.0
        self._published_before = False
        self._tracker = mk.MarkerTracker()
        self._style = mk.MarkerStyle()
        self._object_msgs = conv.MessageCache(conv.scene_object, key=lambda o: o.id)
        self._relation_msgs = conv.MessageCache(conv.relation)
        self._marker_msgs = conv.MessageCache(lambda o: mk.object_markers(o, self._style), key=lambda o: o.id)
        # Serialized elements of the scene graph and markers, joined at publish time (nodes/cdr.py); empty
        # encapsulation = publish messages (the self-check at configure failed).
        self._encapsulation = b""
        # (keyed by identity where the scene feed or the message caches hand back the same object)
        self._object_bytes = conv.MessageCache(lambda o: cdr.element8(conv.scene_object(o)), key=lambda o: o.id)
        self._relation_bytes = conv.MessageCache(lambda r: cdr.element8(conv.relation(r)), key=id)
        self._marker_bytes = conv.MessageCache(lambda m: cdr.ElementBytes(m, (MarkerArray, "markers")), key=id)
        self._edges = mk.EdgeCache()
        self._feed: SceneFeed | None = None
        # placement histories of moved objects, re-read only for an object the feed re-read
        self._moves = conv.MessageCache(lambda o: tuple(self.viewer.placements(o.id)), key=id)
        self._tm_subscription = None
        self._tm_timers: list = []
        self._tm_services: list = []
        self._tm_publishers: dict = {}
        # Ingestion is mutually exclusive (observations are staged in arrival order, so the same stream
        # gives the same ids), and so is the commit timer; services are reentrant, serialised by the
        # Memory's own locks (queries read through their own read-only connection).
        self._tm_groups = {"ingest": MutuallyExclusiveCallbackGroup(), "commit": MutuallyExclusiveCallbackGroup(),
                           "query": ReentrantCallbackGroup(), "mutate": ReentrantCallbackGroup()}
        self._commit_running = threading.RLock()  # re-entered by close_store inside _release
        # frames the store refused for a reason that heals (full, locked, I/O): staged in order later
        self._retry: collections.deque = collections.deque()
        self._retry_lock = threading.Lock()
        self.store_state = "ok"   # ok | full | locked | io_error | corrupt | access | error
        self.store_error = ""
        self._commit_errors_reported = 0
        self.autostart_ok = True
        if self.get_parameter("autostart").value:
            self.autostart_ok = (
                self.trigger_configure() == TransitionCallbackReturn.SUCCESS
                and self.trigger_activate() == TransitionCallbackReturn.SUCCESS
            )

    # ------------------------------------------------------------------------------------ parameters
    def _declare_parameters(self) -> None:
        declare(self, NODE_PARAMETERS)
        declare(self, memory_config_specs(CONFIG_DESCRIPTIONS))

    def _param(self, name: str):
        return self.get_parameter(name).value

    def _memory_config(self) -> MemoryConfig:
        return memory_config_from(self._param, source=self._param("robot_id"))

    def _label_encoder(self):
        choice = self._param("label_encoder")
        if choice not in LABEL_ENCODERS:
            raise InvalidInputError(
                f"label_encoder must be one of {', '.join(LABEL_ENCODERS)}, got '{choice}'"
            )
        if choice == "none":
            return None
        try:
            from tempomem_ros import semantics

            encoder = (
                semantics.default_text_encoder() if choice == "minilm" else semantics.HashingTextEncoder()
            )
            encoder.encode(["object"])  # load the model now, not on the first query
            return encoder
        except Exception as exc:  # noqa: BLE001 - any failure to load falls back to keyword matching
            self.get_logger().warning(
                f"label_encoder '{choice}' unavailable ({type(exc).__name__}: {exc}); "
                "semantic queries use keywords only"
            )
            return None

    def _limit_torch_threads(self) -> None:
        """Apply encoder_threads to torch, if an encoder loaded it (torch is never imported for this)."""
        threads = int(self._param("encoder_threads"))
        torch = sys.modules.get("torch")
        if threads > 0 and torch is not None:
            torch.set_num_threads(threads)

    def _clip_text_encoder(self, feature_model: str | None):
        """The CLIP text tower matching the stored image features, when configured (else None)."""
        if not feature_model or not feature_model.startswith("open_clip:"):
            return None
        checkpoint = self._param("clip.checkpoint_path")
        random_weights = bool(self._param("clip.allow_random_weights"))
        if not checkpoint and not random_weights:
            return None
        from tempomem_ros.perception.clip_encoder import ClipConfig, ClipEncoder

        clip = ClipEncoder(ClipConfig(model_name=feature_model.split(":", 1)[1], checkpoint_path=checkpoint,
                                      allow_random_weights=random_weights))
        return clip.text_encoder()

    # ------------------------------------------------------------------------------------ lifecycle
    def _guarded_transition(self, name: str, body) -> TransitionCallbackReturn:
        """rclpy swallows exceptions of transition callbacks silently; log them and fail the transition."""
        try:
            return body()
        except Exception as exc:  # noqa: BLE001
            detail = str(exc) if isinstance(exc, TempoMemError) else "".join(traceback.format_exception(exc))
            self.get_logger().error(f"{name} failed: {detail}")
            self.counters.last_error = f"{name}: {exc}"
            return TransitionCallbackReturn.FAILURE

    def on_configure(self, state: LifecycleState) -> TransitionCallbackReturn:
        return self._guarded_transition("configure", self._configure)

    def _configure(self) -> TransitionCallbackReturn:
        if self._param("time_source") not in TIME_SOURCES:
            raise InvalidInputError(f"time_source must be stamp or clock, got '{self._param('time_source')}'")
        if self._param("observation_durability") not in DURABILITIES:
            raise InvalidInputError(f"observation_durability must be one of {', '.join(DURABILITIES)}, "
                                    f"got '{self._param('observation_durability')}'")
        config = self._memory_config()
        world_frame = self._param("world_frame")
        if config.source and world_frame != FLEET_FRAME:
            raise InvalidInputError(f"robot_id '{config.source}' reports in world_frame '{world_frame}': robots "
                                    f"sharing a memory all report in the one '{FLEET_FRAME}' frame")
        encoder = self._label_encoder()
        path = self._param("store_path")
        if not is_postgres(path):  # a database address is libpq's to read (it may hold '$' or '~')
            path = os.path.expandvars(os.path.expanduser(path or default_store_path()))
        dim = int(self._param("embedding_dim"))
        feature_model = self._param("feature_model") or None
        self.writer = Memory.open(path, embedding_dim=dim, config=config, feature_model=feature_model,
                                  world_frame=world_frame)
        try:  # the writer ran the integrity check; the readers need not repeat it
            self.reader = Memory.open(
                path, embedding_dim=dim, config=config, readonly=True, label_encoder=encoder,
                clip_text_encoder=self._clip_text_encoder(feature_model), check="off",
            )
            self._limit_torch_threads()  # after both text encoders loaded (and imported torch)
            self.viewer = Memory.open(path, embedding_dim=dim, config=config, readonly=True, check="off")
            self._feed = SceneFeed(self.viewer, resync_s=float(self._param("scene_resync_s")))
        except BaseException:
            self.close_store()
            raise
        self.store_path = self.writer.path  # a database address as shown: never its password
        self.handlers = ServiceHandlers(
            self.reader, self.writer, now=self._now, on_change=self._on_mutation, on_refused=self._on_refused,
            logger=self.get_logger(),
        )
        self.store_state, self.store_error = "ok", ""
        self._style = mk.MarkerStyle(
            frame_id=self._param("world_frame"),
            lifetime_s=float(self._param("marker_lifetime_s")),
            text_size=float(self._param("marker_text_size")),
            max_previous=int(self._param("marker_max_previous")),
            max_objects=int(self._param("marker_max_objects")),
        )
        self._marker_msgs = conv.MessageCache(lambda o: mk.object_markers(o, self._style), key=lambda o: o.id)
        self._encapsulation = b""
        if self._param("publish_serialized"):
            if cdr.sample_check():
                self._encapsulation = cdr.encapsulation(SceneGraph())
            else:
                self.get_logger().warning("serialized publishing failed its self-check with this rmw; "
                                          "publishing the scene graph and markers as messages")
        self._last_event_id = last_event_id(self.writer)
        latched = QoSProfile(
            history=HistoryPolicy.KEEP_LAST,
            depth=1,
            reliability=ReliabilityPolicy.RELIABLE,
            durability=DurabilityPolicy.TRANSIENT_LOCAL,
        )
        events = QoSProfile(
            history=HistoryPolicy.KEEP_LAST, depth=100, reliability=ReliabilityPolicy.RELIABLE
        )
        self._tm_publishers = {
            "graph": self.create_lifecycle_publisher(SceneGraph, topics.SCENE_GRAPH, latched),
            "markers": self.create_lifecycle_publisher(MarkerArray, topics.MARKERS, latched),
            "changes": self.create_lifecycle_publisher(ChangeEvent, topics.CHANGES, events),
            "diagnostics": self.create_lifecycle_publisher(DiagnosticArray, "/diagnostics", 10),
        }
        self.get_logger().info(
            f"store {path} (embedding_dim {dim}, {len(self.writer.objects())} objects, "
            f"label encoder {self._param('label_encoder') if encoder else 'none'})"
        )
        return TransitionCallbackReturn.SUCCESS

    def on_activate(self, state: LifecycleState) -> TransitionCallbackReturn:
        return self._guarded_transition("activate", lambda: self._activate(state))

    def _activate(self, state) -> TransitionCallbackReturn:
        steady = Clock(clock_type=ClockType.STEADY_TIME)
        qos = QoSProfile(
            history=HistoryPolicy.KEEP_LAST,
            depth=int(self._param("observation_queue_depth")),
            reliability=ReliabilityPolicy.RELIABLE,
            durability=DurabilityPolicy.TRANSIENT_LOCAL if self._param("observation_durability") == "transient_local"
            else DurabilityPolicy.VOLATILE,
        )
        self._tm_subscription = self.create_subscription(
            ObservationArray,
            topics.OBSERVATIONS,
            self._on_observations,
            qos,
            callback_group=self._tm_groups["ingest"],
        )
        # Commits (and the publishing after them) run on a steady timer in a group of their own: they go on
        # while a bag's /clock pauses, and a long one occupies one executor thread, never the services'.
        self._tm_timers = [
            self.create_timer(1.0 / float(self._param("commit_rate_hz")), self._on_commit_timer, clock=steady,
                              callback_group=self._tm_groups["commit"]),
            self.create_timer(
                1.0 / float(self._param("diagnostics_rate_hz")), self._publish_diagnostics, clock=steady
            ),
        ]
        ns = topics.SERVICE_NAMESPACE.rstrip("/")
        for name, type_name, method in SERVICES:
            group = self._tm_groups["mutate" if name in MUTATING else "query"]
            self._tm_services.append(
                self.create_service(
                    getattr(tempomem_srv, type_name),
                    f"{ns}/{name}",
                    getattr(self.handlers, method),
                    callback_group=group,
                )
            )
        self._dirty = True  # latch the current graph for subscribers that join now
        result = super().on_activate(state)
        self.get_logger().info(f"active: subscribed to {topics.OBSERVATIONS}, services under {ns}")
        return result

    def on_deactivate(self, state: LifecycleState) -> TransitionCallbackReturn:
        return self._guarded_transition("deactivate", lambda: self._deactivate(state))

    def _deactivate(self, state) -> TransitionCallbackReturn:
        self._stop_io()
        # what arrived before deactivation is fused and announced (after a commit still running finishes)
        with self._commits_paused() as held:
            if held:
                self._commit_and_publish(force=False)
        return super().on_deactivate(state)

    def _stop_io(self) -> None:
        if self._tm_subscription is not None:
            self.destroy_subscription(self._tm_subscription)
            self._tm_subscription = None
        for timer in self._tm_timers:
            self.destroy_timer(timer)
        for service in self._tm_services:
            self.destroy_service(service)
        self._tm_timers, self._tm_services = [], []

    def on_cleanup(self, state: LifecycleState) -> TransitionCallbackReturn:
        return self._guarded_transition("cleanup", lambda: self._release(state))

    def on_shutdown(self, state: LifecycleState) -> TransitionCallbackReturn:
        return self._guarded_transition("shutdown", lambda: self._release(state))

    def on_error(self, state: LifecycleState) -> TransitionCallbackReturn:
        self._guarded_transition("error recovery", lambda: self._release(state))
        return TransitionCallbackReturn.SUCCESS

    def _release(self, state) -> TransitionCallbackReturn:
        """Stop everything and close the store (the writer's close() fuses what is still staged)."""
        self._stop_io()
        with self._commits_paused():  # a commit still running finishes first
            for pub in self._tm_publishers.values():
                self.destroy_lifecycle_publisher(pub)
            self._tm_publishers = {}
            self.close_store()
        return TransitionCallbackReturn.SUCCESS

    @contextlib.contextmanager
    def _commits_paused(self):
        """Hold the commit lock, waiting up to 60 s for a commit that is running; yields whether it is held
        (after that wait, shutdown goes on without it rather than hang)."""
        held = self._commit_running.acquire(timeout=60.0)
        try:
            yield held
        finally:
            if held:
                self._commit_running.release()

    def close_store(self) -> None:
        """Close the readers, then the writer (whose close() fuses what is still staged). Idempotent.

        Waits for a commit that is still running (after Ctrl-C ``main`` closes the store while an executor
        thread may be inside the commit timer's callback)."""
        with self._commits_paused():
            self.handlers = None
            self._feed = None
            self._published_before = False
            self._flush_retry()
            if self._retry:
                self.get_logger().error(
                    f"{len(self._retry)} received frame(s) were never stored: the store still refuses writes "
                    f"({self.store_error})")
                self._retry.clear()
            for name in ("viewer", "reader", "writer"):
                memory = getattr(self, name)
                setattr(self, name, None)
                if memory is not None:
                    try:
                        memory.close()
                    except TempoMemError as exc:  # e.g. disk full: staged frames stay in the file
                        self.counters.last_error = f"close: {exc}"
                        self.get_logger().error(f"closing the store: {exc}")

    # ------------------------------------------------------------------------------------ ingest
    def _on_observations(self, msg: ObservationArray) -> None:
        self.counters.received += 1
        try:
            self._ingest(msg)
        finally:
            self.counters.handled += 1

    def _ingest(self, msg: ObservationArray) -> None:
        frame = msg.header.frame_id
        if frame and frame != self._style.frame_id:
            self._drop("frame", f"frame '{frame}' is not the world frame '{self._style.frame_id}'")
            return
        try:
            item = conv.observation_array(msg)
        except ImplausibleInputError as exc:
            self._drop(exc.reason, str(exc))
            return
        except InvalidInputError as exc:
            self._drop("invalid", str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - a bad message must never stop the subscription
            self._drop("error", f"{type(exc).__name__}: {exc}")
            return
        with self._retry_lock:
            if self._retry:  # earlier frames wait for the store: keep the arrival order
                self._queue_for_retry(item)
                self._flush_retry_locked()
            elif not self._stage(item):
                self._queue_for_retry(item)

    def _stage(self, item) -> bool:
        """Stage one converted frame; False when the store refused it for a reason that heals (retry later)."""
        observations, view, stamp = item
        writer = self.writer
        if writer is None:
            self._drop("store", "the store is closed")
            return True
        try:
            if self._param("observation_durability") == "transient_local" and \
                    writer.frame_staged(stamp, len(observations)):
                self._drop("duplicate", f"frame stamped {stamp:.9f} is already in the store")
                return True
            result = writer.stage(observations, view, stamp=stamp)
        except ImplausibleInputError as exc:
            self._drop(exc.reason, str(exc))
            return True
        except InvalidInputError as exc:
            self._drop("invalid", str(exc))
            return True
        except StoreError as exc:
            self._store_failed(exc)
            if exc.transient and int(self._param("store_retry_frames")) > 0:
                return False
            self._drop(f"store_{exc.state}", str(exc))
            return True
        except TempoMemError as exc:
            self._drop("store", str(exc))
            return True
        except Exception as exc:  # noqa: BLE001
            self._drop("error", f"{type(exc).__name__}: {exc}")
            return True
        self._store_ok()
        c = self.counters
        c.staged_frames += 1
        c.staged_observations += len(observations)
        c.quarantined += result.status == "quarantined"
        c.released += len(result.released)
        c.refused += len(result.refused)
        if result.status == "quarantined":
            self.get_logger().warning(
                f"frame stamped {stamp:.3f} is more than gates.max_stamp_jump_s ahead of the memory's newest "
                "stamp: quarantined until the following frames confirm the new time", throttle_duration_sec=5.0)
        return True

    def _queue_for_retry(self, item) -> None:
        if len(self._retry) >= int(self._param("store_retry_frames")):
            self._drop(f"store_{self.store_state}", f"retry queue full ({len(self._retry)} frames): {self.store_error}")
            return
        self._retry.append(item)

    def _flush_retry(self) -> None:
        with self._retry_lock:
            self._flush_retry_locked()

    def _flush_retry_locked(self) -> None:
        """Stage queued frames in arrival order until the store refuses one again."""
        while self._retry:
            if not self._stage(self._retry[0]):
                return
            self._retry.popleft()
            self.counters.retried += 1

    def _store_failed(self, exc: StoreError) -> None:
        if self.store_state != exc.state:
            self.get_logger().error(f"store {exc.state}: {exc}")
        self.store_state, self.store_error = exc.state, str(exc)
        self.counters.last_error = str(exc)

    def _store_ok(self) -> None:
        if self.store_state != "ok":
            self.get_logger().info(f"store accepts writes again (was {self.store_state})")
            self.store_state, self.store_error = "ok", ""

    def _on_refused(self, service: str, exc: Exception) -> None:
        """A service request was refused: counted; a storage failure of a mutation updates the store state."""
        refused = self.counters.refused_requests
        refused[service] = refused.get(service, 0) + 1
        if isinstance(exc, StoreError) and service in MUTATING:
            self._store_failed(exc)

    def _drop(self, reason: str, detail: str) -> None:
        self.counters.drop(reason)
        self.counters.last_error = f"dropped ({reason}): {detail}"
        self.get_logger().warning(
            f"observation message dropped ({reason}): {detail}", throttle_duration_sec=2.0
        )

    # ------------------------------------------------------------------------------------ commit + publish
    def _mark_dirty(self) -> None:
        self._dirty = True

    def _on_mutation(self) -> None:
        """A service mutation succeeded: republish, and the store evidently accepts writes."""
        self._dirty = True
        self._store_ok()

    def _now(self) -> float | None:
        if self._param("time_source") == "clock":
            return self.get_clock().now().nanoseconds * 1e-9
        return None  # the core uses the latest observation stamp

    def _on_commit_timer(self) -> None:
        if not self._commit_running.acquire(blocking=False):
            return  # the previous tick is still committing/publishing: skip, never queue
        try:
            self._commit_and_publish(force=False)
        except Exception as exc:  # noqa: BLE001 - keep the timer alive whatever happens
            if not self.context.ok():
                return  # shutting down (Ctrl-C, SIGTERM): publishing failed, close_store fuses the rest
            self.counters.commit_errors += 1
            self.counters.last_error = f"commit: {exc}"
            if isinstance(exc, StoreError):
                self._store_failed(exc)  # logged once per change of state; retried on every tick
            else:
                self.get_logger().error(f"commit failed: {exc}", throttle_duration_sec=2.0)
        finally:
            self._commit_running.release()

    def _commit_and_publish(self, force: bool) -> None:
        writer = self.writer
        if writer is None:
            return
        self._flush_retry()
        if writer.pending() > 0:
            stats = writer.commit()
            self._store_ok()
            self.counters.commits += 1
            self.counters.last_commit_ms = stats.elapsed_ms
            if stats.changed:
                self._dirty = True
        if (self._dirty or force) and self._publish_due():
            self.publish_scene()
        self._publish_new_events()

    def publish_scene(self) -> None:
        """Publish the scene graph and the markers (with DELETEs for what disappeared).

        The scene comes from the feed (only what the audit says changed is re-read); the messages or
        serialized bytes of unchanged objects, relations and markers are reused; markers carry a zero stamp.
        """
        view = self.viewer
        if view is None:
            return
        with self._publish_lock:
            t0 = time.perf_counter()
            self._dirty = False
            snapshot = self._feed.refresh()  # incremental: re-reads only what the audit says changed
            objects, relations = snapshot.objects, snapshot.relations
            stamp, frame = conv.to_time(view.latest_stamp()), self._style.frame_id
            if self._encapsulation:
                self._tm_publishers["graph"].publish(cdr.scene_graph_bytes(
                    self._encapsulation, stamp, frame, self._object_bytes.messages(objects),
                    self._relation_bytes.messages(relations)))
            else:
                graph = SceneGraph(objects=self._object_msgs.messages(objects),
                                   relations=self._relation_msgs.messages(relations))
                graph.header.stamp, graph.header.frame_id = stamp, frame
                self._tm_publishers["graph"].publish(graph)
            self.counters.graphs_published += 1
            if self._param("publish_markers"):
                shown = mk.selected_objects(objects, self._style.max_objects)
                moving = [o for o in shown if o.n_moves > 0]
                moved = dict(zip([o.id for o in moving], self._moves.messages(moving)))
                scene = mk.Scene(
                    objects=tuple(shown),
                    relations=relations,
                    placements=moved,
                    regions=tuple(view.regions()),
                )
                markers = self._tracker.array(mk.build_markers(scene, self._style, cache=self._marker_msgs,
                                                              edge_cache=self._edges),
                                              self._style)
                if self._encapsulation:
                    self._tm_publishers["markers"].publish(cdr.marker_array_bytes(
                        self._encapsulation, self._marker_bytes.messages(markers.markers)))
                else:
                    self._tm_publishers["markers"].publish(markers)
            self._last_publish = time.monotonic()
            self.counters.last_publish_ms = (time.perf_counter() - t0) * 1e3
            # the first publish after configure builds every cached part: its cost says nothing about the
            # next one, so it does not hold the next one back (publish_max_duty)
            self._publish_cost_s = self.counters.last_publish_ms / 1e3 if self._published_before else 0.0
            self._published_before = True

    def _publish_due(self) -> bool:
        """A publish may start when the configured interval has passed and, so that publishing a large
        scene never starves the services, when publishing has taken at most ``publish_max_duty`` of the
        time since the last one."""
        duty = float(self._param("publish_max_duty"))
        cost_s = self._publish_cost_s
        interval = max(float(self._param("publish_min_interval_s")), cost_s * (1.0 / duty - 1.0))
        return time.monotonic() - self._last_publish >= interval

    def _publish_new_events(self) -> None:
        view = self.viewer
        if view is None:
            return
        with self._publish_lock:
            while True:
                batch = events_after(view, self._last_event_id)
                for event in batch:
                    self._tm_publishers["changes"].publish(conv.change_event(event))
                    self._last_event_id = event.id
                    self.counters.events_published += 1
                if len(batch) < 1000:
                    break

    # ------------------------------------------------------------------------------------ diagnostics
    def _publish_diagnostics(self) -> None:
        c = self.counters
        status = DiagnosticStatus(name=f"tempomem: {self.get_name()}", hardware_id=self.store_path)
        dropped = sum(c.dropped.values())
        new_commit_errors = c.commit_errors - self._commit_errors_reported
        self._commit_errors_reported = c.commit_errors
        if self.store_state != "ok":
            status.level = DiagnosticStatus.ERROR
            status.message = f"store {self.store_state}: {self.store_error}"[:300]
        elif new_commit_errors:
            status.level, status.message = DiagnosticStatus.ERROR, f"{new_commit_errors} commit error(s)"
        elif dropped:
            status.level, status.message = DiagnosticStatus.WARN, f"{dropped} message(s) dropped"
        else:
            status.level, status.message = DiagnosticStatus.OK, "ok"
        values = {
            "received": c.received,
            "staged_frames": c.staged_frames,
            "staged_observations": c.staged_observations,
            "dropped": dropped,
            "commits": c.commits,
            "commit_errors": c.commit_errors,
            "last_commit_ms": f"{c.last_commit_ms:.2f}",
            "graphs_published": c.graphs_published,
            "last_publish_ms": f"{c.last_publish_ms:.2f}",
            "events_published": c.events_published,
            "last_error": c.last_error,
            "store_state": self.store_state,
            "store_error": self.store_error,
            "retry_queue": len(self._retry),
            "retried": c.retried,
            "quarantined": c.quarantined,
            "quarantine_released": c.released,
            "quarantine_refused": c.refused,
            "observation_publishers": self._tm_subscription.get_publisher_count() if self._tm_subscription else 0,
            "refused_requests": sum(c.refused_requests.values()),
        }
        values.update({f"dropped.{k}": v for k, v in sorted(c.dropped.items())})
        values.update({f"refused_requests.{k}": v for k, v in sorted(c.refused_requests.items())})
        status.values = [KeyValue(key=k, value=str(v)) for k, v in values.items()]
        array = DiagnosticArray(status=[status])
        array.header.stamp = self.get_clock().now().to_msg()
        self._tm_publishers["diagnostics"].publish(array)


def main(args: list[str] | None = None) -> int:
    rclpy.init(args=args)
    node = None
    # Ingestion and queries are short; commits run on a timer in their own group (on_activate). Three
    # executor threads let queries be answered while a commit runs or a mutating service waits for the
    # writer; the bounded executor sleeps while they are all busy instead of spinning (nodes/executor.py).
    executor = BoundedMultiThreadedExecutor(num_threads=EXECUTOR_THREADS)
    try:
        try:
            node = MemoryNode()
        except ParameterException as exc:  # a value outside its declared range or of the wrong type
            rclpy.logging.get_logger(NODE_NAME).error(f"bad parameter: {exc}")
            return 1
        if not node.autostart_ok:
            node.get_logger().error("autostart failed (see above); exiting")
            return 1
        executor.add_node(node)
        executor.spin()
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        if node is not None:
            if node.context.ok():  # after Ctrl-C the context is gone: no transition, just close
                try:
                    node.trigger_shutdown()
                except Exception:  # noqa: BLE001 - e.g. already shutting down
                    pass
            node.close_store()  # fuses what is staged, then closes the file
            executor.shutdown()
            node.destroy_node()
        rclpy.try_shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
