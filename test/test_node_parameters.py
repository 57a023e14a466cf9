"""Node parameters from one table: every MemoryConfig setting is a memory_node parameter, with a description,
its range or choices, and its value reaches the memory (nodes/parameters.py, core/config.py)."""

from __future__ import annotations

import os

os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
os.environ.setdefault("ROS_DOMAIN_ID", "116")

import pytest  # noqa: E402

from tempomem_ros.core import config as core_config  # noqa: E402
from tempomem_ros.core.config import MemoryConfig  # noqa: E402
from tempomem_ros.core.errors import InvalidInputError  # noqa: E402

rclpy = pytest.importorskip("rclpy")

from rclpy.parameter import Parameter  # noqa: E402

from tempomem_ros.nodes.memory_node import NODE_PARAMETERS, MemoryNode  # noqa: E402
from tempomem_ros.nodes.parameters import ParamSpec, descriptor, memory_config_specs  # noqa: E402


def _node(overrides):
    context = rclpy.Context()
    rclpy.init(context=context)
    node = MemoryNode("memory_node_params", context=context,
                      parameter_overrides=[Parameter("autostart", value=False), *overrides])
    return node, context


def test_every_setting_is_described_ranged_or_chosen():
    flat = core_config.flat_defaults()
    assert len(flat) == 149 and "source" not in flat  # the robot's id is robot_id, not a setting
    docs = core_config.field_docs()
    assert [k for k in flat if not docs.get(k)] == []
    numeric = [k for k, v in flat.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    assert [k for k in numeric if k not in core_config.FIELD_RANGES] == []
    assert sorted(core_config.FIELD_RANGES) == sorted(numeric)
    assert [k for k in numeric if not core_config.FIELD_RANGES[k][0] <= flat[k] <= core_config.FIELD_RANGES[k][1]] == []
    texts = [k for k, v in flat.items() if isinstance(v, str)]
    assert sorted(texts) == sorted(core_config.FIELD_CHOICES)
    assert all(flat[k] in core_config.FIELD_CHOICES[k] for k in texts)
    # the comment beside the field, continuation lines joined
    assert docs["absence.detectable_factor"].startswith("... and at least this x the view's min_object_pixels")
    assert "(dev seed 1)" in docs["absence.detectable_factor"]


def test_from_flat_builds_and_validates():
    cfg = core_config.from_flat({"fusion.label_mode": "embedding", "relations.seat_band": [0.3, 0.7],
                                 "max_label_length": 64}, source="robot_a")
    assert cfg.fusion.label_mode == "embedding" and cfg.relations.seat_band == (0.3, 0.7)
    assert cfg.max_label_length == 64 and cfg.source == "robot_a"
    assert cfg.identity == MemoryConfig().identity  # what was not given keeps its default
    assert core_config.from_flat(core_config.flat_defaults()) == MemoryConfig()
    with pytest.raises(InvalidInputError, match="fusion.label_mode must be exact or embedding"):
        core_config.from_flat({"fusion.label_mode": "fuzzy"})
    with pytest.raises(InvalidInputError, match="unknown configuration key"):
        core_config.from_flat({"fusion.no_such_key": 1.0})


def test_descriptor_of_a_spec():
    d = descriptor(ParamSpec("x", 3, "Three things.", span=(1, 9)))
    assert d.description == "Three things." and not d.read_only
    assert (d.integer_range[0].from_value, d.integer_range[0].to_value) == (1, 9) and not d.floating_point_range
    d = descriptor(ParamSpec("m", "thin", "Mode.", choices=("thin", "keep-all"), read_only=True))
    assert d.description == "Mode. One of: thin, keep-all." and d.read_only
    assert not d.integer_range and not d.floating_point_range
    d = descriptor(ParamSpec("b", True, "A flag.", span=(0, 1)))  # a bool takes no range
    assert not d.integer_range and not d.floating_point_range


def test_memory_node_declares_every_setting_and_applies_it():
    node, context = _node([Parameter("fusion.label_mode", value="embedding"),
                           Parameter("absence.look_gap_s", value=5.0),
                           Parameter("relations.seating_labels", value=["sofa", "pouf"]),
                           Parameter("robot_id", value="robot_a")])
    try:
        names = set(node.list_parameters([], 0).names)
        settings = set(core_config.flat_defaults())
        assert settings - names == set()
        assert {s.name for s in NODE_PARAMETERS} - names == set()
        described = {d.name: d for d in node.describe_parameters(["fusion.label_mode", "absence.look_gap_s"])}
        assert described["fusion.label_mode"].description.endswith("One of: exact, embedding.")
        assert "(MemoryConfig fusion.label_mode)" in described["fusion.label_mode"].description
        rng = described["absence.look_gap_s"].floating_point_range[0]
        assert (rng.from_value, rng.to_value) == core_config.FIELD_RANGES["absence.look_gap_s"]
        cfg = node._memory_config()
    finally:
        node.destroy_node()
        context.try_shutdown()
    assert cfg.fusion.label_mode == "embedding"
    assert cfg.absence.look_gap_s == 5.0
    assert cfg.relations.seating_labels == ("sofa", "pouf")
    assert cfg.source == "robot_a"
    assert cfg.fusion.merge_threshold == MemoryConfig().fusion.merge_threshold


def test_node_wording_overrides_the_field_comment():
    specs = {s.name: s for s in memory_config_specs({"fusion.merge_threshold": "Merge at or above this."})}
    wording = specs["fusion.merge_threshold"].description
    assert wording == "Merge at or above this. (MemoryConfig fusion.merge_threshold)"
    assert specs["fusion.w_iou"].description.startswith("weight of the box IoU term")


def test_node_choice_parameters_name_their_choices():
    """time_source, observation_durability and label_encoder are checked against their choices at configure; the
    descriptor names the same choices (a user reading `ros2 param describe` sees what is accepted)."""
    from tempomem_ros.nodes.memory_node_params import DURABILITIES, TIME_SOURCES
    from tempomem_ros.nodes.text_encoders import LABEL_ENCODERS, QUESTION_MODELS
    specs = {s.name: s for s in NODE_PARAMETERS}
    assert specs["time_source"].choices == TIME_SOURCES == ("stamp", "clock")
    assert specs["observation_durability"].choices == DURABILITIES == ("volatile", "transient_local")
    assert specs["label_encoder"].choices == LABEL_ENCODERS == ("none", "minilm", "hashing")
    assert descriptor(specs["time_source"]).description.endswith("One of: stamp, clock.")
    assert descriptor(specs["observation_durability"]).description.endswith("One of: volatile, transient_local.")
    assert specs["question_model"].choices == QUESTION_MODELS == ("none", "minilm")
    assert {s.name for s in NODE_PARAMETERS if s.choices} == {"time_source", "observation_durability", "label_encoder",
                                                              "question_model"}
