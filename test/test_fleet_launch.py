"""launch/fleet.launch.py: each robot's nodes get every tempomem name under /<robot> and its robot_id."""

from __future__ import annotations

import pytest

from tempomem_ros import fleet_names, topics
from tempomem_ros.nodes.services import SERVICES


@pytest.fixture(scope="module")
def fleet():
    return fleet_names


def test_every_topic_and_service_of_a_robot_moves_under_its_namespace(fleet):
    remaps = dict(fleet.robot_remappings("robot_a"))
    assert remaps[topics.INSTANCES] == "/robot_a/camera/instances"
    assert remaps[topics.OBSERVATIONS] == "/robot_a/tempomem/observations"
    assert remaps[topics.SCENE_GRAPH] == "/robot_a/tempomem/scene_graph"
    for name, _, _ in SERVICES:
        assert remaps[f"/tempomem/{name}"] == f"/robot_a/tempomem/{name}"
    assert topics.PERCEPTION_DIAGNOSTICS not in remaps  # /diagnostics stays shared
    assert all(new.startswith("/robot_a/") for new in remaps.values())
    assert set(remaps.values()).isdisjoint(dict(fleet.robot_remappings("robot_b")).values())


def test_robot_lists(fleet):
    assert fleet.robot_names(" robot_a, robot_b ,") == ["robot_a", "robot_b"]
    with pytest.raises(RuntimeError, match="twice"):
        fleet.robot_names("a,a")
    with pytest.raises(RuntimeError, match="names no robot"):
        fleet.robot_names(" , ")
    with pytest.raises(RuntimeError, match="cannot be a ROS namespace"):
        fleet.robot_names("robot-a")



def test_one_memory_node_fuses_the_first_by_default(fleet):
    robots = ["robot_a", "robot_b", "robot_c"]
    assert fleet.fusing_robot(robots, "first") == "robot_a"
    assert fleet.fusing_robot(robots, " ") == "robot_a"
    assert fleet.fusing_robot(robots, "robot_c") == "robot_c"
    assert fleet.fusing_robot(robots, "none") is None
    with pytest.raises(RuntimeError, match="names no robot of robots"):
        fleet.fusing_robot(robots, "robot_d")
