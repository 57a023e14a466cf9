"""A MultiThreadedExecutor that waits for a free worker instead of spinning.

Why: rclpy's MultiThreadedExecutor (Kilted) hands every ready callback to its thread pool and immediately
waits for more work; a task that is queued in the pool but not yet running counts as "in progress, not
executing", so the next wait yields it again at once. While the pool's threads are busy the spinning thread
therefore re-submits the same tasks in a tight loop. Under py-spy it took 77 % of the memory node's samples
(bench/bench_services.py, 10k objects, 10 Hz stream) and, holding the GIL, stretched 2 ms queries to
hundreds of milliseconds: every SQLite call in a query releases the GIL and must win it back from the spinner.

This executor takes a worker slot before it waits for work, so it only looks for work when a worker is free
to run it, and it sleeps (on a semaphore) otherwise. Behaviour is otherwise the stock executor's: same
callback groups, same task objects, exceptions of callbacks are re-raised in spin().
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import rclpy
from rclpy.executors import (
    ConditionReachedException,
    ExternalShutdownException,
    MultiThreadedExecutor,
    ShutdownException,
    TimeoutException,
)

#: Longest single wait for a free worker; spin() re-checks shutdown in between.
SLOT_WAIT_S = 0.1


class BoundedMultiThreadedExecutor(MultiThreadedExecutor):
    """MultiThreadedExecutor whose dispatching thread blocks while all ``num_threads`` workers are busy."""

    def __init__(self, num_threads: int = 4, **kwargs) -> None:
        super().__init__(num_threads=num_threads, **kwargs)
        self._slots = threading.BoundedSemaphore(num_threads)
        self._errors: list[BaseException] = []
        self._errors_lock = threading.Lock()

    def _spin_once_impl(self, timeout_sec=None, wait_condition: Callable[[], bool] = lambda: False) -> None:
        wait = SLOT_WAIT_S if timeout_sec is None or timeout_sec < 0 else min(SLOT_WAIT_S, float(timeout_sec))
        if not self._slots.acquire(timeout=wait):
            return  # every worker busy: spin() re-checks shutdown and comes back
        handler = None
        try:
            if self._context.ok():  # not shut down while this thread waited for a worker (Ctrl-C, SIGTERM)
                handler, _entity, _node = self.wait_for_ready_callbacks(timeout_sec, None, wait_condition)
        except (ExternalShutdownException, ShutdownException, TimeoutException, ConditionReachedException):
            pass
        except Exception:
            if self._context.ok():
                self._slots.release()
                raise
            # else the context went away while the wait set was being built: spin() ends as on shutdown
        if handler is None:
            self._slots.release()
            return
        self._executor.submit(self._run, handler)
        self._raise_errors()

    def _run(self, handler) -> None:
        try:
            handler()
            if handler.done() and handler.exception() is not None:
                with self._errors_lock:
                    self._errors.append(handler.exception())
        finally:
            self._slots.release()

    def _raise_errors(self) -> None:
        """Re-raise a callback's exception in the spinning thread, as the stock executor does."""
        with self._errors_lock:
            if not self._errors:
                return
            error = self._errors.pop(0)
        raise error


def close_main(executor, node, context=None) -> None:
    """The end of a node's main(), in this order: ``executor`` shut down, ``node`` destroyed (None: never made),
    then rclpy's ``context`` (None: the default one, as rclpy.init made it) shut down if a signal has not already.

    Why this order: Executor.shutdown stops taking callbacks and, for a multi-threaded one, joins its workers
    (rclpy.executors), so no callback of the node still runs while the node's entities are destroyed; it also
    releases the executor's guard conditions, one of them registered with rclpy's signal handler, before the
    context they belong to goes (also when the node was never made: a bad parameter); the context last, as the
    node and the executor are made in it."""
    executor.shutdown()
    if node is not None:
        node.destroy_node()
    rclpy.try_shutdown(context=context)


def make_node(factory: Callable[[], object]):
    """``factory()`` (a node's constructor), or None when a signal shut rclpy's context down while it ran.

    Why: rclpy's SIGINT handler shuts the default context down at once, and a Ctrl-C that lands while the
    constructor still creates its timers, publishers or services makes that creation raise ("failed to create
    timer: the given context is not valid"); main() then exited 1 with that traceback instead of 0, as after any
    other Ctrl-C. Seen in a clean-clone CI at load 4 (stop 57, test_perception_node::test_main_exits_0_on_sigint):
    the SIGINT came once the node's subscription existed, before its diagnostics timer. An error while the
    context is still up is the node's own and is raised."""
    try:
        return factory()
    except Exception:
        if rclpy.ok():
            raise
        return None
