"""The real ROS path in one process: bag -> tempomem_replay -> perception_node -> memory_node -> services.

Why in-process: evaluation must exercise exactly what runs on a robot (the nodes, their QoS, their
synchronisation and their services), yet be one command that needs no launch system (not installable
here) and never leaves loopback. Every wait is bounded and fails with a message saying what it waited for.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from tempomem_ros import topics


class PipelineError(RuntimeError):
    """The nodes did not start, lost frames, or a service call failed."""


def wait_for(condition, limit_s: float, what: str, state=None) -> None:
    """Poll every 10 ms; raise a clear error after limit_s (only bounds a hang)."""
    deadline = time.monotonic() + limit_s
    while not condition():
        if time.monotonic() > deadline:
            detail = f" ({state()})" if state is not None else ""
            raise PipelineError(f"timed out after {limit_s:.0f} s waiting for {what}{detail}")
        time.sleep(0.01)


class NodesPipeline:
    """Start both nodes (and a client node), each on its own executor in a thread; use as a context manager."""

    PLAYED = (topics.CAMERA_INFO, topics.DEPTH, topics.INSTANCES, topics.POSE)

    def __init__(self, store_path: str | Path, *, perception_params: dict | None = None,
                 memory_params: dict | None = None, wait_limit_s: float = 300.0, quiet_s: float = 10.0):
        os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")  # never multicast off loopback
        self.store_path = str(store_path)
        self.perception_params = dict(perception_params or {})
        self.memory_params = {"commit_rate_hz": 20.0, "publish_markers": False, **(memory_params or {}),
                              "store_path": self.store_path}
        self.wait_limit_s = wait_limit_s
        self.quiet_s = quiet_s  # no message taken for this long after the replay: what has not come is lost
        self.context = None

    def __enter__(self) -> "NodesPipeline":
        import rclpy
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.parameter import Parameter

        from tempomem_ros.nodes.memory_node import MemoryNode
        from tempomem_ros.nodes.perception_node import PerceptionNode

        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.nodes = []
        try:
            self.perception = PerceptionNode(context=self.context, parameter_overrides=[
                Parameter(k, value=v) for k, v in sorted(self.perception_params.items())])
            self.nodes.append(self.perception)
            self.memory = MemoryNode(context=self.context, parameter_overrides=[
                Parameter(k, value=v) for k, v in sorted(self.memory_params.items())])
            self.nodes.append(self.memory)
            if not self.memory.autostart_ok:
                raise PipelineError(f"memory_node failed to start: {self.memory.counters.last_error}")
            self.player = rclpy.create_node("tempomem_eval_player", context=self.context)
            self.client = rclpy.create_node("tempomem_eval_client", context=self.context)
            self.nodes += [self.player, self.client]
            # One executor per node, as with one process per node on a robot: rclpy's MultiThreadedExecutor
            # shared with the perception node busy-waits while its workers are busy, and that spinning
            # starved the whole process (measured: 119 s of CPU to fuse 192 frames that take 2 s offline).
            # The memory node gets the executor its main() uses.
            from tempomem_ros.nodes.executor import BoundedMultiThreadedExecutor
            from tempomem_ros.nodes.memory_node import EXECUTOR_THREADS

            self.executors = [SingleThreadedExecutor(context=self.context),
                              BoundedMultiThreadedExecutor(num_threads=EXECUTOR_THREADS, context=self.context),
                              SingleThreadedExecutor(context=self.context)]
            for executor, node in zip(self.executors, (self.perception, self.memory, self.client)):
                executor.add_node(node)
            # named tempomem_*: test/conftest.py fails a test module that leaves one of them alive
            self._stop_spinning = threading.Event()
            self.threads = [threading.Thread(target=self._spin, args=(e,), name=f"tempomem_spin_{node.get_name()}",
                                             daemon=True)
                            for e, node in zip(self.executors, (self.perception, self.memory, self.client))]
            for thread in self.threads:
                thread.start()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _spin(self, executor) -> None:
        """A spin thread's loop: until __exit__ stops it (or the context goes), in steps of at most 50 ms."""
        while not self._stop_spinning.is_set() and executor.context.ok():
            executor.spin_once(timeout_sec=0.05)

    def __exit__(self, *exc) -> None:
        # The spin threads end before their executors are shut down: Executor.shutdown destroys the executor's guard
        # condition, and the memory node's dispatcher, still running, could hand a worker a callback whose handler
        # then triggered the destroyed guard (InvalidHandle, re-raised in tempomem_spin_memory_node: 1 of 17 runs of
        # test_eval_delivery.py). A callback a worker still runs ends within the shutdown, which joins the workers;
        # no thread is left to re-raise what its handler meets there.
        if getattr(self, "_stop_spinning", None) is not None:
            self._stop_spinning.set()
        for thread in getattr(self, "threads", []):
            thread.join(timeout=10.0)
        for executor in getattr(self, "executors", []):
            executor.shutdown()
        memory = getattr(self, "memory", None)
        if memory is not None:
            memory.trigger_shutdown()
            memory.close_store()
        for node in getattr(self, "nodes", []):
            node.destroy_node()
        if self.context is not None:
            self.context.try_shutdown()

    # ------------------------------------------------------------------ data in
    def replay(self, bag: str | Path, n_frames: int | None = None, *, gap: float = 0.008,
               paced: bool = True) -> dict:
        """Play the bag's camera topics; wait until every message reached the perception node and every frame
        is perceived, received and fused. Returns the run info: per topic what the bag holds (``bag``), what
        reached the perception node's callbacks (``received``) and the difference (``lost``, all 0 on return),
        the node's counters, the frames the memory staged and its commits.

        Why paced (by construction, no lost frame): the node's sensor subscriptions are reliable KEEP_LAST
        ``qos_depth`` (10). Reliable delivers a message into the subscription's history, which overwrites its
        oldest message when the node's executor falls ``qos_depth`` messages behind (stop 49: 1,132 of a
        scene's 1,135 frames reached the node at load 2-3; test_eval_delivery: 3 of 30 at depth 2, 40 ms a
        frame). Before each message the replay waits until the node's callbacks have taken all but
        ``qos_depth`` - 1 of those it sent on that topic (PerceptionNode.received), so the history never holds
        more than its depth. The node keeps the QoS a robot runs; only the player waits for it.
        ``paced=False`` plays at the gap alone (tests of the count below).

        Counted all the same: a message of the bag that has not reached the node when the node has taken
        nothing for ``quiet_s`` raises PipelineError naming what was lost per topic (a loss is never silent, and
        never waits out ``wait_limit_s`` unless messages keep coming); more than the bag holds on a topic
        (another publisher on the node's topics) raises too, named as such. ``n_frames`` (the ground truth's
        frames) must be the bag's depth images.

        gap: seconds between two published messages (4 per frame). Measured on a 1955-frame scene at
        320x240 (15 Hz): 0.02 s took 165 s, 0.008 s took 78 s with every frame perceived and fused.
        """
        from tempomem_ros.tools import bagio
        from tempomem_ros.tools.replay import replay_bag

        in_bag = {s.topic: s.count for s in bagio.read_connections(bag) if s.topic in self.PLAYED}
        frames = in_bag.get(topics.DEPTH, 0)
        if n_frames is not None and n_frames != frames:
            raise PipelineError(f"the bag holds {frames} frames (depth images), its ground truth {n_frames}")
        p = self.perception
        room = int(p.params["qos_depth"])   # the subscriptions' history
        sent = dict.fromkeys(in_bag, 0)

        def wait_for_room(topic: str) -> None:
            if paced and topic in p.received:   # a topic the node does not subscribe to is never waited for
                wait_for(lambda: sent[topic] - p.received[topic] < room, self.wait_limit_s,
                         f"the perception node to take the messages of {topic}",
                         lambda: f"sent {sent[topic]}, received {p.received[topic]}")
            sent[topic] += 1

        stats = replay_bag(bag, self.player, rate=0.0, topics=list(self.PLAYED), wait_subscribers=10.0, gap=gap,
                           before_publish=wait_for_room)
        if not stats.subscribers_ready:
            raise PipelineError("the perception node did not subscribe to every replayed topic within 10 s")
        if stats.per_topic != in_bag:
            raise PipelineError(f"the replay published {dict(sorted(stats.per_topic.items()))} of the bag's "
                                f"{dict(sorted(in_bag.items()))}")
        lost = self.wait_for_delivery(in_bag)
        extra = {t: -n for t, n in lost.items() if n < 0}
        if extra:   # another publisher: its messages also put the pacing off and can hide a loss; not the bag's run
            raise PipelineError(f"the perception node received more than the bag holds: {extra} (another "
                                f"publisher on its topics, ROS_DOMAIN_ID {os.environ.get('ROS_DOMAIN_ID', '0')}; "
                                f"the bag holds {dict(sorted(in_bag.items()))}, the node received "
                                f"{dict(sorted(p.received.items()))})")
        if any(lost.values()):
            raise PipelineError(f"messages lost between the replay and the perception node: {lost} "
                                f"(the bag holds {dict(sorted(in_bag.items()))}, the node received "
                                f"{dict(sorted(p.received.items()))})")
        wait_for(lambda: p.counters["frames_published"] + sum(p.drops.values()) >= frames, self.wait_limit_s,
                 "the perception node to process every frame",
                 lambda: f"counters {dict(p.counters)}, drops { {k: v for k, v in p.drops.items() if v} }")
        published = p.counters["frames_published"]
        if published != frames:
            raise PipelineError(f"the perception node published {published} of {frames} frames "
                                f"(drops: { {k: v for k, v in p.drops.items() if v} })")
        m = self.memory
        wait_for(lambda: m.counters.handled >= published, self.wait_limit_s, "the memory node to receive every frame")
        wait_for(lambda: m.writer is not None and m.writer.pending() == 0, self.wait_limit_s,
                 "the memory node to fuse every frame")
        if m.counters.staged_frames != frames:
            raise PipelineError(f"the memory node staged {m.counters.staged_frames} of {frames} frames "
                                f"(dropped: {dict(m.counters.dropped)}; {m.counters.last_error})")
        received = {t: p.received[t] for t in sorted(in_bag) if t in p.received}
        return {"replayed": dict(sorted(stats.per_topic.items())), "bag": dict(sorted(in_bag.items())),
                "received": received, "lost": {t: in_bag[t] - n for t, n in received.items()},
                "perception": dict(p.counters), "memory_staged_frames": m.counters.staged_frames,
                "commits": m.counters.commits}

    def wait_for_delivery(self, in_bag: dict[str, int]) -> dict[str, int]:
        """Wait until the perception node received every message of ``in_bag`` (topic -> count) on the topics it
        subscribes to, or took none for ``quiet_s``, or ``wait_limit_s`` passed (messages that keep coming from
        another publisher never leave a quiet window); return what is missing per topic (0 each when all came,
        negative where more came than the bag holds: nothing to wait for)."""
        p = self.perception

        def lost() -> dict[str, int]:
            return {t: n - p.received[t] for t, n in sorted(in_bag.items()) if t in p.received}

        deadline = time.monotonic() + self.wait_limit_s
        taken, since = -1, time.monotonic()
        while any(n > 0 for n in lost().values()) and time.monotonic() < deadline:
            total = sum(p.received.values())
            if total != taken:
                taken, since = total, time.monotonic()
            elif time.monotonic() - since > self.quiet_s:
                break
            time.sleep(0.01)
        return lost()

    # ------------------------------------------------------------------ services
    def call(self, srv_type, name: str, request, timeout_s: float = 30.0):
        """Call /tempomem/<name> and return the response (raises on timeout or an error in the response)."""
        clients = self.__dict__.setdefault("_clients", {})
        if name not in clients:
            clients[name] = self.client.create_client(srv_type, f"{topics.SERVICE_NAMESPACE}/{name}")
            if not clients[name].wait_for_service(timeout_sec=10.0):
                raise PipelineError(f"service {topics.SERVICE_NAMESPACE}/{name} is not available")
        future = clients[name].call_async(request)
        wait_for(future.done, timeout_s, f"a response of {name}")
        response = future.result()
        error = getattr(response, "error", "")
        if error:
            raise PipelineError(f"{name} answered with an error: {error}")
        return response
