"""Configuration of the memory node (parameters, YAML, store path) and the launch and RViz files."""

from __future__ import annotations

import os

os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
os.environ.setdefault("ROS_DOMAIN_ID", "115")

import pytest  # noqa: E402
import yaml  # noqa: E402
from node_helpers import REPO  # noqa: E402

rclpy = pytest.importorskip("rclpy")

from rclpy.parameter import Parameter  # noqa: E402

from tempomem_ros import topics  # noqa: E402
from tempomem_ros.nodes.memory_node import CONFIG_DESCRIPTIONS, MemoryNode, default_store_path  # noqa: E402


def test_bad_parameter_fails_configure(tmp_path):
    context = rclpy.Context()
    rclpy.init(context=context)
    try:
        node = MemoryNode(
            "memory_node_bad",
            context=context,
            parameter_overrides=[
                Parameter("store_path", value=str(tmp_path / "m.db")),
                Parameter("time_source", value="sundial"),
            ],
        )
        assert not node.autostart_ok and node.writer is None
        node.destroy_node()
    finally:
        context.try_shutdown()


def test_default_store_path_honours_ros_home(monkeypatch):
    monkeypatch.setenv("ROS_HOME", "/data/ros")
    assert default_store_path() == "/data/ros/tempomem/memory.db"
    monkeypatch.delenv("ROS_HOME")
    assert default_store_path() == os.path.join(os.path.expanduser("~"), ".ros", "tempomem", "memory.db")


def test_tempomem_yaml_holds_every_memory_parameter_with_its_default(tmp_path):
    with open(os.path.join(REPO, "config", "tempomem.yaml")) as f:
        params = yaml.safe_load(f)["memory_node"]["ros__parameters"]

    def flat(d, prefix=""):
        for k, v in d.items():
            if isinstance(v, dict):
                yield from flat(v, f"{prefix}{k}.")
            else:
                yield f"{prefix}{k}", v

    flat_params = dict(flat(params))
    context = rclpy.Context()
    rclpy.init(context=context)
    try:
        node = MemoryNode(
            "memory_node_yaml", context=context, parameter_overrides=[Parameter("autostart", value=False)]
        )
        names = node.list_parameters([], 0).names
        declared = {
            n: node.get_parameter(n).value
            for n in names
            if n not in ("use_sim_time", "start_type_description_service")
        }
        node.destroy_node()
    finally:
        context.try_shutdown()
    assert set(flat_params) == set(declared)
    context = rclpy.Context()
    rclpy.init(context=context)
    try:
        node = MemoryNode(
            "memory_node_desc", context=context, parameter_overrides=[Parameter("autostart", value=False)]
        )
        descriptors = {d.name: d for d in node.describe_parameters(sorted(declared))}
        node.destroy_node()
    finally:
        context.try_shutdown()
    for name, value in declared.items():
        assert descriptors[name].description, name
        if isinstance(value, float):
            assert len(descriptors[name].floating_point_range) == 1, name
        elif isinstance(value, int) and not isinstance(value, bool):
            assert len(descriptors[name].integer_range) == 1, name
    assert all(key in flat_params for key in CONFIG_DESCRIPTIONS)
    assert flat_params.pop("autostart") is True  # overridden above so the test opens no store
    for name, value in flat_params.items():
        assert declared[name] == value, name


# -------------------------------------------------------------------------------------------- launch / rviz
def _stub_launch(monkeypatch):
    """Stand-ins for launch / launch_ros (not installable here) that record how they were called."""
    import sys
    import types

    class Rec:
        def __init__(self, *args, **kwargs):
            self.args, self.kwargs = args, kwargs

    class LaunchConfiguration(Rec):
        def perform(self, context):
            return context[self.args[0]]

    modules = {
        "launch": {"LaunchDescription": Rec},
        "launch.actions": {
            n: type(n, (Rec,), {})
            for n in ("DeclareLaunchArgument", "OpaqueFunction", "ExecuteProcess", "IncludeLaunchDescription")
        },
        "launch.conditions": {"IfCondition": Rec},
        "launch.substitutions": {"LaunchConfiguration": LaunchConfiguration, "PathJoinSubstitution": Rec},
        "launch.launch_description_sources": {"PythonLaunchDescriptionSource": Rec},
        "launch_ros": {},
        "launch_ros.actions": {"Node": type("Node", (Rec,), {})},
        "launch_ros.substitutions": {"FindPackageShare": Rec, "FindPackagePrefix": Rec},
    }
    for name, attrs in modules.items():
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        monkeypatch.setitem(sys.modules, name, module)


def _load_launch(name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name.replace(".", "_"), os.path.join(REPO, "launch", name))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _of(entities, type_name: str) -> list:
    return [e for e in entities if type(e).__name__ == type_name]


@pytest.mark.parametrize("name", ["tempomem.launch.py", "replay.launch.py"])
def test_launch_files_byte_compile(name):
    path = os.path.join(REPO, "launch", name)
    with open(path, encoding="utf-8") as f:
        compile(f.read(), path, "exec")  # raises SyntaxError; writes no .pyc into the source tree


def test_tempomem_launch_structure(monkeypatch):
    _stub_launch(monkeypatch)
    entities = _load_launch("tempomem.launch.py").generate_launch_description().args[0]
    assert [a.args[0] for a in _of(entities, "DeclareLaunchArgument")] == [
        "config",
        "store_path",
        "rviz",
        "use_sim_time",
    ]
    config_default = _of(entities, "DeclareLaunchArgument")[0].kwargs["default_value"].args[0]
    assert config_default[1:] == ["config", "tempomem.yaml"]
    nodes_fn = _of(entities, "OpaqueFunction")[0].kwargs["function"]
    perception, memory = nodes_fn({"config": "/c.yaml", "store_path": "", "use_sim_time": "true"})
    assert (perception.kwargs["executable"], memory.kwargs["executable"]) == (
        "perception_node",
        "memory_node",
    )
    assert perception.kwargs["parameters"] == ["/c.yaml", {"use_sim_time": True}]
    assert memory.kwargs["parameters"] == ["/c.yaml", {"use_sim_time": True}]
    _, memory = nodes_fn({"config": "/c.yaml", "store_path": "/data/m.db", "use_sim_time": "false"})
    assert memory.kwargs["parameters"] == ["/c.yaml", {"use_sim_time": False}, {"store_path": "/data/m.db"}]
    rviz = [n for n in _of(entities, "Node") if n.kwargs["executable"] == "rviz2"][0]
    assert rviz.kwargs["condition"].args[0].args == ("rviz",)
    assert rviz.kwargs["arguments"][1].args[0][1:] == ["rviz", "tempomem.rviz"]


def test_replay_launch_structure(monkeypatch):
    _stub_launch(monkeypatch)
    entities = _load_launch("replay.launch.py").generate_launch_description().args[0]
    assert "bag" in [a.args[0] for a in _of(entities, "DeclareLaunchArgument")]
    include = _of(entities, "IncludeLaunchDescription")[0]
    assert include.args[0].args[0].args[0][1:] == ["launch", "tempomem.launch.py"]
    launch_args = dict(include.kwargs["launch_arguments"])
    assert launch_args["use_sim_time"] == "true"
    cmd = _of(entities, "ExecuteProcess")[0].kwargs["cmd"]
    assert cmd[0].args[0][1:] == ["lib", "tempomem_ros", "tempomem_replay"]
    assert cmd[1].args == ("bag",) and "--clock" in cmd


def test_rviz_config_shows_latched_markers():
    with open(os.path.join(REPO, "rviz", "tempomem.rviz")) as f:
        cfg = yaml.safe_load(f)
    manager = cfg["Visualization Manager"]
    assert manager["Global Options"]["Fixed Frame"] == topics.WORLD_FRAME
    markers = [d for d in manager["Displays"] if d["Class"] == "rviz_default_plugins/MarkerArray"]
    assert len(markers) == 1
    topic = markers[0]["Topic"]
    assert topic["Value"] == topics.MARKERS
    assert (topic["Durability Policy"], topic["Reliability Policy"]) == ("Transient Local", "Reliable")
    assert set(markers[0]["Namespaces"]) == {
        "objects",
        "missing",
        "labels",
        "relations",
        "previous",
        "moves",
        "regions",
    }
