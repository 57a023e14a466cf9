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
read-only Memory (``viewer``), so that reading a large scene holds up neither a query nor a mutation. On
PostgreSQL the frames are staged through a writing connection of their own (``stager``), beside the writer's commits
and mutations, as other robots' frames are (nodes/memory_store.py open_stager says why; on SQLite the writer stages).

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

import traceback

import rclpy
from diagnostic_msgs.msg import DiagnosticArray
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup, ReentrantCallbackGroup
from rclpy.clock import Clock, ClockType
from rclpy.exceptions import ParameterException
from rclpy.executors import ExternalShutdownException
from rclpy.lifecycle import LifecycleNode, LifecycleState, TransitionCallbackReturn
from visualization_msgs.msg import MarkerArray

from tempomem_ros import topics
from tempomem_ros.core.config import MemoryConfig
from tempomem_ros.core.errors import StoreError, TempoMemError
from tempomem_ros.core.memory import Memory
from tempomem_ros.msg import ChangeEvent, ObservationArray, SceneGraph
from tempomem_ros.nodes import diagnostics as diag
from tempomem_ros.nodes import memory_node_params as params
from tempomem_ros.nodes import memory_store as store
from tempomem_ros.nodes import text_encoders as enc
from tempomem_ros.nodes.commit_cycle import CommitCycle
from tempomem_ros.nodes.executor import BoundedMultiThreadedExecutor, close_main, make_node
from tempomem_ros.nodes.frame_ingest import FrameIngest, StoreHealth
from tempomem_ros.nodes.memory_node_params import CONFIG_DESCRIPTIONS, NODE_PARAMETERS  # noqa: F401 - tests use them
from tempomem_ros.nodes.memory_store import default_store_path  # noqa: F401 - tests use it from here
from tempomem_ros.nodes.parameters import declare, memory_config_from, memory_config_specs
from tempomem_ros.nodes.qos import events_qos, latched_qos, output_qos
from tempomem_ros.nodes.scene_publisher import ScenePublisher, last_event_id, marker_style
from tempomem_ros.nodes.services import MUTATING, ServiceHandlers, create_services

NODE_NAME = "memory_node"
EXECUTOR_THREADS = 4  # ingest, commit and one mutation may all wait for the writer: one thread stays the queries'


class MemoryNode(LifecycleNode):
    """The memory node. Tests construct it directly; ``main`` runs it with a BoundedMultiThreadedExecutor."""

    def __init__(self, node_name: str = NODE_NAME, **kwargs) -> None:
        super().__init__(node_name, **kwargs)
        self._declare_parameters()
        self.counters = diag.NodeCounters()
        self.writer: Memory | None = None
        self.stager: Memory | None = None  # stages the node's frames: the writer on SQLite (nodes/memory_store.py)
        self.viewer: Memory | None = None  # read-only, for publishing
        self.reader: Memory | None = None
        self.handlers: ServiceHandlers | None = None
        self.store_path = ""
        self.scene: ScenePublisher | None = None
        self.ingest: FrameIngest | None = None
        self.health = StoreHealth(self.get_logger(), self.counters)
        self._tm_subscription = None
        self._tm_timers: list = []
        self._tm_services: list = []
        self._tm_publishers: dict = {}
        # Ingestion is mutually exclusive (observations are staged in arrival order, so the same stream
        # gives the same ids), and so is the commit timer; queries are reentrant (they read through their own
        # read-only connection). Mutations are mutually exclusive too: each waits for the writer's lock anyway,
        # and on a fleet's store a forget or define_region first fuses every robot's staged frames (seconds
        # behind a backlog), so reentrant mutations took every executor thread and the queries, which need no
        # lock, went unanswered for 30 s and more (bench_fleet_services, docs/RESULTS.md section 7). With one
        # thread at most for each of ingest, commit and mutate, EXECUTOR_THREADS leaves the queries at least one.
        self._tm_groups = {"ingest": MutuallyExclusiveCallbackGroup(), "commit": MutuallyExclusiveCallbackGroup(),
                           "query": ReentrantCallbackGroup(), "mutate": MutuallyExclusiveCallbackGroup()}
        self.commits = CommitCycle(lambda: (self.writer, self.scene, self.ingest), self.counters, self.health,
                                   self.get_logger(), context_ok=self.context.ok,
                                   fuses=bool(self._param("fuse_staged")),
                                   max_frames=int(self._param("commit_max_frames")),
                                   budget_s=1.0 / float(self._param("commit_rate_hz")))
        self._commit_errors_reported = 0
        self._pending_reported: int | None = None  # store_pending at the last diagnostics report
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
        params.check_choices(self._param)
        config = self._memory_config()
        world_frame = self._param("world_frame")
        params.check_fleet_frame(config.source, world_frame)
        encoder = enc.label_encoder(self._param("label_encoder"), self.get_logger())
        path = store.store_address(self._param("store_path"))
        self.writer = store.open_writer(path, self._param, config, world_frame)
        try:
            self.stager = store.open_stager(path, self._param, config, world_frame, self.writer)
            self.reader, self.viewer = store.open_readers(path, self._param, config, encoder, self._close_failed)
        except BaseException:
            self.close_store()
            raise
        enc.attach_question_model(self.reader, self._param("question_model"), encoder, self.get_logger())
        self.store_path = self.writer.path  # a database address as shown: never its password
        self.handlers = ServiceHandlers(
            self.reader, self.writer, now=self._now, on_change=self._on_mutation, on_refused=self._on_refused,
            logger=self.get_logger(),
        )
        self.health.state, self.health.error = "ok", ""
        self.ingest = FrameIngest(lambda: self.stager, self.counters, self.health, self.get_logger(),
                                  param=self._param, world_frame=world_frame)
        self._tm_publishers = {
            "graph": self.create_lifecycle_publisher(SceneGraph, topics.SCENE_GRAPH, latched_qos(1)),
            "markers": self.create_lifecycle_publisher(MarkerArray, topics.MARKERS, latched_qos(1)),
            "changes": self.create_lifecycle_publisher(ChangeEvent, topics.CHANGES, events_qos(100)),
            "diagnostics": self.create_lifecycle_publisher(DiagnosticArray, "/diagnostics", 10),
        }
        style = marker_style(self._param, world_frame)
        self.scene = ScenePublisher(self.viewer, self._tm_publishers, style, self.counters, logger=self.get_logger(),
                                    param=self._param, serialized=bool(self._param("publish_serialized")),
                                    resync_s=float(self._param("scene_resync_s")),
                                    after_event_id=last_event_id(self.writer))
        self.get_logger().info(
            f"store {path} (embedding_dim {int(self._param('embedding_dim'))}, {len(self.writer.objects())} objects, "
            f"label encoder {self._param('label_encoder') if encoder else 'none'})"
        )
        return TransitionCallbackReturn.SUCCESS

    def on_activate(self, state: LifecycleState) -> TransitionCallbackReturn:
        return self._guarded_transition("activate", lambda: self._activate(state))

    def _activate(self, state) -> TransitionCallbackReturn:
        steady = Clock(clock_type=ClockType.STEADY_TIME)
        # the publisher's profile (nodes/qos.py), with this node's durability: observation_durability
        qos = output_qos(self._param("observation_durability"), int(self._param("observation_queue_depth")))
        self._tm_subscription = self.create_subscription(
            ObservationArray, topics.OBSERVATIONS, self.ingest.on_message, qos, callback_group=self._tm_groups["ingest"]
        )
        self.ingest.start()  # the callback only queues; this thread stages (nodes/frame_ingest.py)
        # Commits (and the publishing after them) run on a steady timer in a group of their own: they go on
        # while a bag's /clock pauses, and a long one occupies one executor thread, never the services'.
        self._tm_timers = [
            self.create_timer(1.0 / float(self._param("commit_rate_hz")), self.commits.on_timer, clock=steady,
                              callback_group=self._tm_groups["commit"]),
            self.create_timer(
                1.0 / float(self._param("diagnostics_rate_hz")), self._publish_diagnostics, clock=steady
            ),
        ]
        ns = topics.SERVICE_NAMESPACE.rstrip("/")
        groups = self._tm_groups
        self._tm_services += create_services(self, self.handlers, ns, groups["mutate"], groups["query"])
        self.scene.dirty = True  # latch the current graph for subscribers that join now
        result = super().on_activate(state)
        self.get_logger().info(f"active: subscribed to {topics.OBSERVATIONS}, services under {ns}")
        return result

    def on_deactivate(self, state: LifecycleState) -> TransitionCallbackReturn:
        return self._guarded_transition("deactivate", lambda: self._deactivate(state))

    def _deactivate(self, state) -> TransitionCallbackReturn:
        self._stop_io()
        # what arrived before deactivation is fused and announced (after a commit still running finishes), however
        # many commits of commit_max_frames that takes (a drain ignores the tick's period: nodes/commit_cycle.py)
        with self._commits_paused() as held:
            if held:
                self.commits.commit_and_publish(force=False, drain=True)
        return super().on_deactivate(state)

    def _stop_io(self) -> None:
        if self._tm_subscription is not None:
            self.destroy_subscription(self._tm_subscription)
            self._tm_subscription = None
        if self.ingest is not None:
            self.ingest.stop()  # what the inbox holds is staged before the last commit
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

    def _commits_paused(self):
        """Wait for a commit that is running and hold off the next (nodes/commit_cycle.py); yields whether held."""
        return self.commits.paused()

    def close_store(self) -> None:
        """Close the readers, then the writer (whose close() fuses what is still staged). Idempotent.

        Waits for a commit that is still running (after Ctrl-C ``main`` closes the store while an executor
        thread may be inside the commit timer's callback)."""
        with self._commits_paused():
            self.handlers = None
            self.scene = None
            if self.ingest is not None:
                self.ingest.close()
            if self.stager is self.writer:
                self.stager = None  # SQLite: the writer stages; its close below fuses
            for name in ("viewer", "reader", "stager", "writer"):
                memory = getattr(self, name)
                setattr(self, name, None)
                store.close_memory(memory, self._close_failed,  # the stager only stages: the writer fuses
                                   fuse=name == "writer" and bool(self._param("fuse_staged")))

    def destroy_node(self) -> None:
        """Stop the staging thread (staging what its inbox holds), then destroy the node's entities.

        Why here too: a node destroyed without a lifecycle shutdown (a test's teardown, rclpy's context shutdown,
        which destroys every node it tracks) left its ``tempomem_ingest`` thread waiting on the inbox for the rest of
        the process; test/conftest.py fails a test module that leaves such a thread alive. The store is left to
        cleanup/shutdown or close_store, as before. (A node whose __init__ raised on a bad parameter has no ingest
        yet: rclpy's context shutdown destroys it all the same.)"""
        ingest = getattr(self, "ingest", None)
        if ingest is not None:
            ingest.stop()
        super().destroy_node()

    def _close_failed(self, exc: TempoMemError) -> None:
        """Closing a Memory failed (e.g. disk full: staged frames stay in the file): counted and logged."""
        self.counters.last_error = f"close: {exc}"
        self.get_logger().error(f"closing the store: {exc}")

    @property
    def _retry(self):
        """Frames waiting for the store to accept writes (empty before configure)."""
        return self.ingest.retry if self.ingest is not None else ()

    def _on_refused(self, service: str, exc: Exception) -> None:
        """A service request was refused: counted; a storage failure of a mutation updates the store state."""
        self.counters.refuse(service)
        if isinstance(exc, StoreError) and service in MUTATING:
            self.health.failed(exc)

    # ------------------------------------------------------------------------------------ commit + publish
    def _on_mutation(self) -> None:
        """A service mutation succeeded: republish, and the store evidently accepts writes."""
        if self.scene is not None:
            self.scene.dirty = True
        self.health.ok()

    def _now(self) -> float | None:
        if self._param("time_source") == "clock":
            return self.get_clock().now().nanoseconds * 1e-9
        return None  # the core uses the latest observation stamp

    def publish_scene(self) -> None:
        """Publish the scene graph and markers now (nodes/scene_publisher.py)."""
        if self.scene is not None:
            self.scene.publish_scene()

    # ------------------------------------------------------------------------------------ diagnostics
    def _publish_diagnostics(self) -> None:
        c, health = self.counters, self.health
        new_commit_errors = c.commit_errors - self._commit_errors_reported
        self._commit_errors_reported = c.commit_errors
        pending, before = c.store_pending, self._pending_reported
        self._pending_reported = pending
        unfused = diag.unfused(pending, before)
        level, message = diag.memory_status(c, health, new_commit_errors, unfused)
        values = diag.memory_values(c, health, len(self._retry), self._tm_subscription.get_publisher_count()
                                    if self._tm_subscription else 0,
                                    self.ingest.waiting() if self.ingest is not None else None)
        self._tm_publishers["diagnostics"].publish(diag.status_array(
            f"tempomem: {self.get_name()}", self.store_path, level, message, values,
            self.get_clock().now().to_msg()))


def main(args: list[str] | None = None) -> int:
    rclpy.init(args=args)
    node = None
    # Ingestion and queries are short; commits run on a timer in their own group (on_activate). Four
    # executor threads let queries be answered while the ingest, a commit and a mutating service all wait for
    # the writer; the bounded executor sleeps while they are all busy instead of spinning (nodes/executor.py).
    executor = BoundedMultiThreadedExecutor(num_threads=EXECUTOR_THREADS)
    try:
        try:
            node = make_node(MemoryNode)
        except ParameterException as exc:  # a value outside its declared range or of the wrong type
            rclpy.logging.get_logger(NODE_NAME).error(f"bad parameter: {exc}")
            return 1
        if node is None:  # Ctrl-C while it was being made (make_node)
            return 0
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
        close_main(executor, node)   # also when the node was never made (a bad parameter)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
