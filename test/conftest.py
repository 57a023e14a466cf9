"""Shared pytest setup: keep ROS traffic on this machine and in this run, and give node tests a context.

The environment is set at import time because pytest imports conftest.py before any test module, and
rclpy reads ROS_DOMAIN_ID and the discovery range when a context is initialised: set later, they would
not apply. rclpy itself is imported only inside the fixtures, so that tests of the ROS-free modules
neither need nor pay for it.

Node tests use it like this:

    def test_echo(make_node, spin_until):
        node = make_node("echo_test")                 # in an isolated Context, added to the executor
        future = node.create_client(...).call_async(...)
        assert spin_until(future.done, timeout_sec=10.0)
"""

import functools
import os
import threading
import time

import pytest

os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"
os.environ.setdefault("ROS_DOMAIN_ID", str(100 + os.getpid() % 100))


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: tens of seconds; still part of scripts/test.sh (skip locally: -m 'not slow')"
    )


# ------------------------------------------------------------------------------------ threads left running
# Why: stop 44's CI hung in test_memory_node.py with an earlier node's staging thread (``tempomem_ingest``) and its
# executor's spin thread alive beside the test. A thread that outlives its test keeps a node spinning on the
# test domain for the rest of the run. Threads named ``tempomem_*`` (the memory node's staging thread, the node
# harnesses' and the evaluation pipeline's spin threads) must end by the end of the module that started them
# (module fixtures end there); the module's last test then fails in teardown, naming the test that started each.
# Cost: two threading.enumerate() per test (microseconds), no waiting: a thread that is stopped is joined.
_started_by: dict[threading.Thread, str] = {}


def _tempomem_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith("tempomem_")}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    item.stash[_threads_before] = _tempomem_threads()
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    result = yield
    for thread in _tempomem_threads() - item.stash.get(_threads_before, set()):
        _started_by.setdefault(thread, item.nodeid)
    if nextitem is None or getattr(nextitem, "module", None) is not getattr(item, "module", None):
        alive = sorted((name, t.name) for t, name in _started_by.items() if t.is_alive())
        _started_by.clear()
        assert not alive, "threads left running at the end of the module (started by -> thread): " + \
            "; ".join(f"{name} -> {thread}" for name, thread in alive)
    return result


_threads_before = pytest.StashKey[set]()


def spin_executor_until(executor, condition, timeout_sec=10.0):
    """Spin `executor` until `condition()` is true; False if the deadline passed first.

    The deadline only bounds a hang: a test asserts the returned value, never the time taken.
    """
    deadline = time.monotonic() + timeout_sec
    while not condition():
        if time.monotonic() >= deadline:
            return False
        executor.spin_once(timeout_sec=0.05)
    return True


@pytest.fixture
def ros_context():
    """A fresh rclpy Context, shut down after the test (no global rclpy.init shared between tests)."""
    import rclpy
    from rclpy.context import Context

    context = Context()
    rclpy.init(context=context)
    try:
        yield context
    finally:
        context.try_shutdown()


@pytest.fixture
def node_process():
    """Context manager factory: ``with node_process(cmd, log, tester) as (proc, node)`` runs a node as ``cmd`` in a
    process of its own, its output into the file ``log`` (a file, not an unread pipe: a node that logs 64 KiB into
    a pipe blocks), and makes a node named ``tester`` in an rclpy Context of its own. On the way out a process still
    running is killed, the tester destroyed and its context shut down."""
    import contextlib
    import subprocess

    import rclpy

    @contextlib.contextmanager
    def _run(cmd, log, tester):
        with open(log, "wb") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        context = rclpy.Context()
        rclpy.init(context=context)
        node = rclpy.create_node(tester, context=context)
        try:
            yield proc, node
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10.0)
            node.destroy_node()
            context.try_shutdown()

    return _run


@pytest.fixture
def ros_executor(ros_context):
    from rclpy.executors import SingleThreadedExecutor

    executor = SingleThreadedExecutor(context=ros_context)
    try:
        yield executor
    finally:
        executor.shutdown()


@pytest.fixture
def make_node(ros_context, ros_executor):
    """Factory: make_node(name, **node_kwargs) -> rclpy Node in ros_context, spun by ros_executor."""
    from rclpy.node import Node

    nodes = []

    def _make(name, **kwargs):
        node = Node(name, context=ros_context, **kwargs)
        ros_executor.add_node(node)
        nodes.append(node)
        return node

    try:
        yield _make
    finally:
        for node in reversed(nodes):
            ros_executor.remove_node(node)
            node.destroy_node()


@pytest.fixture
def spin_until(ros_executor):
    """spin_until(condition, timeout_sec=10.0) -> bool, spinning the test's ros_executor."""
    return functools.partial(spin_executor_until, ros_executor)


# The store backends (test/store_backends.py): ``store`` runs a test on SQLite and on PostgreSQL; ``mem`` is a
# default Memory on it.
from store_backends import mem, pg_cluster, store  # noqa: E402,F401
