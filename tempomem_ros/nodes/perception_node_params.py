"""The perception node's parameters: its own (topics, synchronisation, QoS, CLIP), then every
PerceptionConfig field with its documented range and choices (perception/config.py). All read-only: the
pipeline is built once from them, and a value the node cannot start with stops it at startup (StartupError)
with a message that names the parameter."""

from __future__ import annotations

from tempomem_ros import topics
from tempomem_ros.nodes.parameters import ParamSpec
from tempomem_ros.nodes.qos import RELIABILITIES
from tempomem_ros.perception import FIELD_DOCS, FIELD_RANGES, PerceptionConfig, PerceptionError
from tempomem_ros.perception.config import INTRINSICS_SOURCES, OUTLIER_METHODS

POSE_SOURCES = ("topic", "tf")
SYNC_BACKENDS = ("auto", "builtin", "message_filters")


class StartupError(RuntimeError):
    """The node cannot start with its configuration (bad parameter, pose_source tf without tf2_ros)."""


# name -> (default, description, allowed choices or None); numeric ranges come from _NODE_RANGES.
_NODE_PARAMETERS: dict[str, tuple[object, str, tuple[str, ...] | None]] = {
    "world_frame": (
        topics.WORLD_FRAME,
        "Frame of every published coordinate (and of the camera pose).",
        None,
    ),
    "pose_source": (
        "topic",
        "Camera pose from a PoseStamped topic or from TF at the image stamp.",
        POSE_SOURCES,
    ),
    "camera_frame": (
        "",
        "TF frame of the camera optical frame (pose_source tf); empty = the depth image's header.frame_id.",
        None,
    ),
    "tf_timeout_sec": (
        0.05,
        "How long to wait for the camera transform at the image stamp (pose_source tf).",
        None,
    ),
    "use_color": (
        False,
        "Subscribe to and synchronise the colour image (only a feature extractor needs it).",
        None,
    ),
    "sync_slop_sec": (0.02, "Largest stamp difference (s) between messages of one synchronised frame.", None),
    "sync_queue_size": (10, "Messages buffered per stream while waiting for their partners.", None),
    "sync_backend": (
        "auto",
        "auto (message_filters when importable, else builtin), builtin or message_filters.",
        SYNC_BACKENDS,
    ),
    "qos_reliability": (
        "reliable",
        "Reliability of the sensor subscriptions: reliable (default: best effort lost "
        "most large frames between processes) or best_effort (needed when the driver publishes "
        "best effort).",
        RELIABILITIES,
    ),
    "qos_depth": (10, "KEEP_LAST depth of the sensor subscriptions.", None),
    "output_durability": (
        "transient_local",
        "Durability offered on the observation topic: transient_local keeps the last output_depth frames for "
        "a memory_node that (re)starts or is discovered late (it takes them with observation_durability "
        "transient_local; a volatile subscriber matches too), volatile keeps none.",
        ("transient_local", "volatile"),
    ),
    "output_depth": (50, "KEEP_LAST depth of the observation publisher (frames kept for late subscribers).", None),
    "warn_throttle_sec": (5.0, "At most one warning per drop reason in this many seconds.", None),
    "diagnostics_period_sec": (1.0, "Period of the DiagnosticArray on /diagnostics.", None),
    "open3d_threads": (
        1,
        "Threads open3d may use (0 = library default); more than 1 spin-waits on a busy machine.",
        None,
    ),
    "clip.enabled": (False, "Compute a CLIP feature per instance (needs use_color: true and a checkpoint).", None),
    "clip.model_name": ("ViT-B-32", "open_clip model name of the image encoder.", None),
    "clip.checkpoint_path": ("", "Local checkpoint of the CLIP model (nothing is ever downloaded).", None),
    "clip.allow_random_weights": (False, "Testing only: run CLIP with random weights when no checkpoint.", None),
    "clip.batch_size": (32, "Instances encoded per batch.", None),
    "clip.padding": (0.1, "Padding around an instance's mask bounding box, as a fraction of its size.", None),
    "clip.background": ("mask", "mask (pixels outside the instance greyed) or crop (tight crop only).",
                        ("mask", "crop")),
    "clip.num_threads": (0, "torch threads for CLIP (0 = torch default; process-wide).", None),
}
_NODE_RANGES: dict[str, tuple[float, float]] = {
    "tf_timeout_sec": (0.0, 5.0),
    "sync_slop_sec": (0.0, 1.0),
    "sync_queue_size": (1, 1000),
    "qos_depth": (1, 1000),
    "output_depth": (1, 10000),
    "warn_throttle_sec": (0.0, 3600.0),
    "diagnostics_period_sec": (0.05, 60.0),
    "open3d_threads": (0, 256),
    "clip.batch_size": (1, 1024),
    "clip.padding": (0.0, 2.0),
    "clip.num_threads": (0, 256),
}
_CONFIG_CHOICES = {"outlier_method": OUTLIER_METHODS, "intrinsics_source": INTRINSICS_SOURCES}


def parameter_defaults() -> dict[str, object]:
    """Every parameter of the node with its default, in declaration order (the YAML mirrors this)."""
    defaults = {name: spec[0] for name, spec in _NODE_PARAMETERS.items()}
    defaults.update(
        {name: getattr(PerceptionConfig(), name) for name in PerceptionConfig.__dataclass_fields__}
    )
    return defaults


def parameter_specs() -> list[ParamSpec]:
    """Every parameter of the node as a read-only spec, in declaration order."""
    specs = [ParamSpec(name, default, description, choices, _NODE_RANGES.get(name), read_only=True)
             for name, (default, description, choices) in _NODE_PARAMETERS.items()]
    specs += [ParamSpec(name, default, FIELD_DOCS[name], _CONFIG_CHOICES.get(name), FIELD_RANGES.get(name),
                        read_only=True)
              for name, default in parameter_defaults().items() if name not in _NODE_PARAMETERS]
    return specs


def perception_config(params: dict) -> PerceptionConfig:
    """The PerceptionConfig of the node's parameters (each of its fields is a parameter of the same name)."""
    values = {name: params[name] for name in PerceptionConfig.__dataclass_fields__}
    try:
        return PerceptionConfig(**values)
    except PerceptionError as exc:
        raise StartupError(f"invalid perception parameter: {exc}") from exc


def check_choices(params: dict) -> None:
    """The node's own string parameters that have choices hold one of them (a parameter file can hold any)."""
    for name, choices in (("pose_source", POSE_SOURCES), ("sync_backend", SYNC_BACKENDS),
                          ("qos_reliability", RELIABILITIES), ("output_durability", ("transient_local", "volatile"))):
        if params[name] not in choices:
            raise StartupError(f"parameter {name} must be one of {choices}, got {params[name]!r}")
