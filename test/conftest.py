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
import time

import pytest

os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"
os.environ.setdefault("ROS_DOMAIN_ID", str(100 + os.getpid() % 100))


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: tens of seconds; still part of scripts/test.sh (skip locally: -m 'not slow')"
    )


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
