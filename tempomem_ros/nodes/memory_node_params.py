"""The memory node's parameters: its own (store, publishing, QoS, encoders), then every MemoryConfig
setting (nodes/parameters.py generates those from core/config.py), and the checks a range cannot express,
made at configure so that a bad value fails the transition with a message that names it."""

from __future__ import annotations

from tempomem_ros import topics
from tempomem_ros.core.errors import InvalidInputError
from tempomem_ros.nodes.parameters import ParamSpec
from tempomem_ros.nodes.text_encoders import LABEL_ENCODERS, QUESTION_MODELS

TIME_SOURCES = ("stamp", "clock")
DURABILITIES = ("volatile", "transient_local")

#: The frame every robot of a fleet reports in (one map shared by all: docs/FLEET.md).
FLEET_FRAME = "map"

# The node's own wording of the settings its users reach for most. Every MemoryConfig setting is a parameter;
# the others are described by the comment beside them in core/config.py (nodes/parameters.py).
CONFIG_DESCRIPTIONS: dict[str, str] = {
    "fusion.merge_threshold": "Fusion score at or above which an observation merges into an object.",
    "fusion.reject_confidence": "Observations below this confidence are stored but rejected.",
    "identity.min_gap_s": (
        "A look-alike found sooner after an object's last sighting is another instance, not that object moved."
    ),
    "identity.confirm_observations": "Sightings before an object is shown and its 'appeared' published.",
    "identity.appear_hold_s": "Seconds those sightings must span (a reflection lasts less).",
    "identity.confirm_gap_s": (
        "Those sightings form one run: a sighting later than this after the one before starts the count anew."
    ),
    "identity.feature_threshold": "Feature cosine needed to re-identify a moved object.",
    "absence.misses_to_remove": "Views that should have seen an object, but did not, before it is missing.",
    "absence.min_absence_s": "The misses must span at least this many seconds.",
    "absence.min_range": "Metres: nearer than this a miss does not count (segmenter unreliable).",
    "relations.near_distance": "Metres between boxes within which two objects are 'near'.",
    "retention.mode": (
        "thin: settled sightings beyond a bounded sample per placement are counted, not kept (bounded growth, the "
        "same answers) | keep-all: every sighting, frame and per-sighting audit row is kept."
    ),
    "retention.settle_s": "Sightings younger than this (behind the newest stamp) are never thinned.",
    "retention.compact_every_s": "A compaction pass runs inside a commit at most this often.",
    "retention.time_samples": "Time bins per placement whose first sighting is kept.",
    "retention.observation_features": "Kept sightings' features: float16 | int8 | float32.",
    "fusion.box_growth_factor": (
        "One observation may grow an object's box to at most this x its largest view so far (0.25 m floor)."
    ),
    "gates.world_bound": "Metres: observations and views with a coordinate beyond +- this are refused.",
    "gates.max_extent": "Metres: observations whose box has a longer side are refused.",
    "gates.max_stamp_ahead_s": (
        "Stamps more than this ahead of the wall clock are refused (old bags and sim time stay accepted)."
    ),
    "gates.max_stamp_jump_s": (
        "A frame this far ahead of 'now' is quarantined until gates.jump_confirm_frames frames confirm it."
    ),
    "gates.jump_confirm_frames": "Consecutive frames that confirm a jump ahead in time.",
    "gates.max_frame_spread_s": "Observation stamps within this of their frame's stamp.",
    "gates.min_feature_norm": "Features with a smaller L2 norm are refused.",
    "gates.max_feature_norm": "Features with a larger L2 norm are refused.",
    "gates.max_observations": "Observations per frame; larger frames are refused.",
    "gates.max_question_length": "Characters of a question or semantic query; longer are refused.",
}


# The node's own parameters; every MemoryConfig setting follows them (nodes/parameters.py).
NODE_PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("autostart", True, "Configure and activate at startup (no lifecycle manager needed)."),
    ParamSpec("store_path", "",
              "Store address: a SQLite file ('' = $ROS_HOME/tempomem/memory.db, ROS_HOME defaults to ~/.ros) or a "
              "PostgreSQL database shared by a fleet (postgresql://... or a libpq conninfo / service=NAME; "
              "credentials from libpq's environment, pgpass or service file). Read at configure."),
    ParamSpec("robot_id", "",
              "This robot's id, stamped as the source of every frame and audit row it writes, so that answers cite "
              "which robot saw what (docs/FLEET.md). Robots sharing a store need distinct ids; a robot with an id "
              "reports in the shared 'map' frame (world_frame), any other is refused at configure."),
    ParamSpec("embedding_dim", 32,
              "Feature dimension; fixed per store (a store of another dimension is refused).",
              span=(1, 8192)),
    ParamSpec("fuse_staged", True,
              "Fuse staged frames on the commit timer and at close. False on a fleet's robots when one other node "
              "(fuse_staged true) or `tempomem fuse` is the fuser: this node only stages its frames and publishes "
              "what the fuser fused (docs/FLEET.md)."),
    ParamSpec("commit_rate_hz", 2.0,
              "How often staged observations are fused and the results published.",
              span=(0.05, 100.0)),
    ParamSpec("commit_max_frames", 50,
              "Frames one commit fuses at most (oldest first); a tick commits again while its period lasts and "
              "frames remain, so a backlog never holds the store in one commit. 0 = every staged frame at once.",
              span=(0, 100000)),
    ParamSpec("world_frame", topics.WORLD_FRAME,
              "Frame of every coordinate; observations in another frame are dropped."),
    ParamSpec("time_source", "stamp",
              "'now' for relative times in questions: stamp = the latest observation stamp (right for replayed bags),"
              " clock = the node's clock.", choices=TIME_SOURCES),
    ParamSpec("publish_markers", True, "Publish RViz markers on " + topics.MARKERS + "."),
    ParamSpec("marker_lifetime_s", 0.0, "Marker lifetime; 0 = until replaced or deleted.", span=(0.0, 3600.0)),
    ParamSpec("marker_max_objects", 2000,
              "Draw at most this many objects (the most recently seen); 0 = all. RViz slows down with tens of "
              "thousands of markers.",
              span=(0, 1000000)),
    ParamSpec("marker_max_previous", 3, "Previous places drawn per moved object.", span=(0, 100)),
    ParamSpec("marker_text_size", 0.08, "Height of the label text, metres.", span=(0.001, 10.0)),
    ParamSpec("publish_min_interval_s", 0.0,
              "Publish the scene graph and markers at most this often (seconds; 0 = after every commit that changed "
              "something).",
              span=(0.0, 3600.0)),
    ParamSpec("publish_max_duty", 0.1,
              "Largest fraction of time spent building the scene graph and markers: after a publish that took C "
              "seconds the next waits at least C * (1 / duty - 1), so a large memory never starves the services.",
              span=(0.01, 1.0)),
    ParamSpec("publish_serialized", True,
              "Publish the scene graph and markers as bytes joined from per-object serialized parts, so that "
              "converting a large scene never holds the GIL for long (checked against rclpy's own serializer at "
              "configure; false = publish messages)."),
    ParamSpec("scene_resync_s", 300.0,
              "Between publishes the scene is refreshed from the audit (only the objects a mutation touched are re-"
              "read); at least this often it is read whole, as a safety net.",
              span=(1.0, 86400.0)),
    ParamSpec("observation_queue_depth", 50,
              "Depth of the reliable observation subscription, and of the node's inbox of frames received and not yet "
              "staged: a frame arriving while it is full replaces the oldest waiting, counted under "
              "dropped.overwritten (the writer was busy that long).", span=(1, 10000)),
    ParamSpec("observation_durability", "volatile",
              "transient_local (the publisher must offer it too) receives the last "
              "observation_queue_depth frames a publisher kept while this node was down or not yet discovered; frames"
              " already in the store (same stamp and size) are then skipped (dropped.duplicate).",
              choices=DURABILITIES),
    ParamSpec("store_retry_frames", 600,
              "Frames kept in RAM while the store refuses writes for a reason that heals (disk full, locked, I/O "
              "error), staged in order once it accepts them again; beyond this many they are dropped (counted).",
              span=(0, 100000)),
    ParamSpec("diagnostics_rate_hz", 1.0, "Rate of the counters published on /diagnostics.", span=(0.01, 100.0)),
    ParamSpec("label_encoder", "none",
              "Text encoder for semantic queries: none (keywords only) | minilm (sentence model, needs gt-all-"
              "minilm-l6-v2) | hashing (character n-grams, no model).", choices=LABEL_ENCODERS),
    ParamSpec("question_model", "none",
              "Sentence model behind the question rules of /tempomem/query: none (a question no rule reads is "
              "refused) | minilm (it is matched to the nearest supported form above a calibrated similarity floor "
              "and margin, and says so; embeds the table's forms at configure, about 2 min on a loaded CPU).",
              choices=QUESTION_MODELS),
    ParamSpec("feature_model", "",
              "Encoder of the observation features, recorded in the store (a store made with another is refused), "
              "e.g. open_clip:ViT-B-32 when the perception node runs CLIP; empty = not recorded."),
    ParamSpec("clip.checkpoint_path", "",
              "Local CLIP checkpoint: with feature_model open_clip:<model>, semantic queries also embed the text with"
              " that model's text tower; empty = label path only."),
    ParamSpec("clip.allow_random_weights", False, "Testing only: CLIP text tower with random weights."),
    ParamSpec("encoder_threads", 1,
              "Threads torch may use to embed question text (label_encoder minilm, CLIP text tower); 0 = torch's "
              "default. One short sentence gains nothing from more, and they compete with the services.",
              span=(0, 256)),
)


def check_choices(param) -> None:
    """time_source and observation_durability are one of their choices (``param(name)`` gives a value)."""
    if param("time_source") not in TIME_SOURCES:
        raise InvalidInputError(f"time_source must be stamp or clock, got '{param('time_source')}'")
    if param("observation_durability") not in DURABILITIES:
        raise InvalidInputError(f"observation_durability must be one of {', '.join(DURABILITIES)}, "
                                f"got '{param('observation_durability')}'")


def check_fleet_frame(robot_id: str, world_frame: str) -> None:
    """A robot with an id shares its memory with a fleet, so it reports in the one fleet frame."""
    if robot_id and world_frame != FLEET_FRAME:
        raise InvalidInputError(f"robot_id '{robot_id}' reports in world_frame '{world_frame}': robots "
                                f"sharing a memory all report in the one '{FLEET_FRAME}' frame")
