"""A Ctrl-C while a node is being made (nodes/executor.make_node): main() exits 0 as after any other Ctrl-C,
and an error of the node's own, with rclpy's context still up, is raised. The race itself (a SIGINT between the
node's first subscription and its last timer) is what test_perception_node::test_main_exits_0_on_sigint met once
at load 4; here the constructor does what the signal handler does, so the case is exact."""

from __future__ import annotations

import pytest

rclpy = pytest.importorskip("rclpy")

from tempomem_ros.nodes import executor, memory_node, perception_node  # noqa: E402


def _interrupted():
    rclpy.shutdown()   # what rclpy's SIGINT handler does, mid-constructor
    raise RuntimeError("failed to create timer: the given context is not valid")


def _broken():
    raise RuntimeError("the node's own error")


def test_make_node_gives_none_when_the_context_went_down_under_the_constructor():
    rclpy.init()
    try:
        assert executor.make_node(_interrupted) is None
        assert not rclpy.ok()
    finally:
        rclpy.try_shutdown()


def test_make_node_raises_the_nodes_own_error():
    rclpy.init()
    try:
        with pytest.raises(RuntimeError, match="the node's own error"):
            executor.make_node(_broken)
        assert rclpy.ok()
    finally:
        rclpy.try_shutdown()


@pytest.mark.parametrize("module, name", [(perception_node, "PerceptionNode"), (memory_node, "MemoryNode")])
def test_main_exits_0_when_interrupted_while_the_node_is_made(monkeypatch, module, name):
    monkeypatch.setattr(module, name, _interrupted)
    assert module.main([]) == 0
    assert not rclpy.ok()


@pytest.mark.parametrize("module, name", [(perception_node, "PerceptionNode"), (memory_node, "MemoryNode")])
def test_main_raises_a_constructor_error_with_the_context_up(monkeypatch, module, name):
    monkeypatch.setattr(module, name, _broken)
    with pytest.raises(RuntimeError, match="the node's own error"):
        module.main([])
    assert not rclpy.ok()   # close_main shut the context down on the way out
