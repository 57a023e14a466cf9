"""BoundedMultiThreadedExecutor: callbacks still run in parallel, the dispatcher sleeps while every worker is
busy (rclpy's own executor re-yields queued tasks in a tight loop there), and callback errors surface."""

from __future__ import annotations

import threading
import time

import pytest

rclpy = pytest.importorskip("rclpy")

from rclpy.callback_groups import ReentrantCallbackGroup  # noqa: E402
from rclpy.node import Node  # noqa: E402

from tempomem_ros.nodes.executor import BoundedMultiThreadedExecutor  # noqa: E402


class CountingExecutor(BoundedMultiThreadedExecutor):
    """Counts how often the dispatcher looks for work."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.looks = 0

    def wait_for_ready_callbacks(self, *args, **kwargs):
        self.looks += 1
        return super().wait_for_ready_callbacks(*args, **kwargs)


def blocking_timers(node: Node, n: int, release: threading.Event, started: list) -> None:
    """n reentrant timers whose callbacks block until release is set (each records that it ran)."""
    group = ReentrantCallbackGroup()

    def make(i):
        def callback():
            started.append(i)
            release.wait(10.0)

        return callback

    timers = []
    for i in range(n):
        timers.append(node.create_timer(0.01, make(i), callback_group=group))
    node._test_timers = timers  # keep them alive


def spin_in_thread(executor):
    thread = threading.Thread(target=executor.spin, daemon=True)
    thread.start()
    return thread


def wait_for(condition, timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_callbacks_of_a_reentrant_group_run_in_parallel(ros_context):
    executor = BoundedMultiThreadedExecutor(num_threads=3, context=ros_context)
    node = Node("executor_parallel", context=ros_context)
    release, started = threading.Event(), []
    blocking_timers(node, 3, release, started)
    executor.add_node(node)
    thread = spin_in_thread(executor)
    try:
        # all three block at once: only possible when three workers run them side by side
        assert wait_for(lambda: len(set(started)) == 3)
    finally:
        release.set()
        executor.shutdown()
        thread.join(5.0)
        node.destroy_node()
    assert not thread.is_alive()


def test_the_dispatcher_sleeps_while_every_worker_is_busy(ros_context):
    executor = CountingExecutor(num_threads=2, context=ros_context)
    node = Node("executor_quiet", context=ros_context)
    release, started = threading.Event(), []
    # four always-ready timers for two workers: two block the workers, two stay ready and waiting
    blocking_timers(node, 4, release, started)
    executor.add_node(node)
    thread = spin_in_thread(executor)
    try:
        assert wait_for(lambda: len(started) >= 2)
        looks_before = executor.looks
        time.sleep(0.5)  # both workers blocked: a spinning dispatcher would look thousands of times
        looks_during = executor.looks - looks_before
    finally:
        release.set()
        executor.shutdown()
        thread.join(5.0)
        node.destroy_node()
    # one wake-up per SLOT_WAIT_S (0.1 s) at most, plus slack: the stock executor makes >1000 here
    assert looks_during <= 10


def test_a_callback_error_is_raised_by_spin(ros_context):
    executor = BoundedMultiThreadedExecutor(num_threads=2, context=ros_context)
    node = Node("executor_error", context=ros_context)

    def boom():
        raise RuntimeError("callback failed")

    timer = node.create_timer(0.01, boom)
    executor.add_node(node)
    try:
        with pytest.raises(RuntimeError, match="callback failed"):
            deadline = time.monotonic() + 10.0
            while time.monotonic() < deadline:
                executor.spin_once(timeout_sec=0.05)
    finally:
        node.destroy_timer(timer)
        executor.shutdown()
        node.destroy_node()


def test_spin_ends_quietly_when_the_context_shuts_down_while_every_worker_is_busy():
    from rclpy.context import Context

    context = Context()
    rclpy.init(context=context)
    executor = BoundedMultiThreadedExecutor(num_threads=2, context=context)
    node = Node("executor_shutdown", context=context)
    release, started = threading.Event(), []
    blocking_timers(node, 2, release, started)
    executor.add_node(node)
    errors: list[BaseException] = []

    def spin():
        try:
            executor.spin()
        except BaseException as exc:  # noqa: BLE001 - recorded for the assertion
            errors.append(exc)

    thread = threading.Thread(target=spin, daemon=True)
    thread.start()
    try:
        assert wait_for(lambda: len(set(started)) == 2)  # both workers are blocked
        context.try_shutdown()  # as SIGTERM does
        release.set()
        thread.join(5.0)
        assert not thread.is_alive() and errors == []
    finally:
        release.set()
        executor.shutdown()
        node.destroy_node()


def test_close_main_destroys_the_node_after_the_executors_callbacks_ended():
    # a node's main() ends while a worker of its executor still runs a callback: close_main shuts the executor down
    # (which joins its workers) before it destroys the node, so the node is never destroyed under a running
    # callback; the context goes last (both nodes' main() end with it)
    from rclpy.context import Context

    from tempomem_ros.nodes.executor import close_main

    context = Context()
    rclpy.init(context=context)
    order: list[str] = []

    class Recording(Node):
        def destroy_node(self):
            order.append("node destroyed")
            return super().destroy_node()

    executor = BoundedMultiThreadedExecutor(num_threads=2, context=context)
    node = Recording("executor_close_main", context=context)
    release, started = threading.Event(), []

    def callback():
        started.append(1)
        release.wait(10.0)
        order.append("callback ended")

    node.create_timer(0.01, callback)
    executor.add_node(node)
    spinner = spin_in_thread(executor)
    closer = threading.Thread(target=close_main, args=(executor, node, context), daemon=True)
    try:
        assert wait_for(lambda: started)
        closer.start()
        time.sleep(0.2)          # close_main waits for the callback
        assert order == [] and context.ok()
        release.set()
        closer.join(10.0)
        spinner.join(5.0)
        assert not closer.is_alive() and not spinner.is_alive()
        assert order[:2] == ["callback ended", "node destroyed"] and not context.ok()
    finally:
        release.set()
        if closer.is_alive():
            closer.join(10.0)
