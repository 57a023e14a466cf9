"""Errors raised by the perception pipeline.

Why a ``reason`` on every class: the perception node drops a bad frame instead of crashing, and counts
the drop under a stable, machine-readable key (published on /diagnostics). Putting the key on the
exception keeps the node from having to map exception types to strings, and keeps the keys in one place.
The base derives from ``InvalidInputError`` so that one ``except TempoMemError`` (or ``ValueError``)
still catches every failure, as the core API promises.
"""

from __future__ import annotations

from tempomem_ros.core.errors import InvalidInputError


class PerceptionError(InvalidInputError):
    """Base class: a frame (or an argument) the perception pipeline cannot turn into observations."""

    reason = "perception_error"


class ImageEncodingError(PerceptionError):
    """An image has an encoding this pipeline does not decode (e.g. rgb8 where depth was expected)."""

    reason = "bad_encoding"


class ImageLayoutError(PerceptionError):
    """An image's byte layout is inconsistent: data size != step * height, step < width * pixel size."""

    reason = "bad_image_layout"


class CalibrationError(PerceptionError):
    """camera_info cannot give intrinsics: uncalibrated (all-zero K and P), non-finite or non-positive."""

    reason = "bad_camera_info"


class PoseError(PerceptionError):
    """A camera pose is unusable: non-finite values, zero-norm quaternion, malformed matrix."""

    reason = "bad_pose"


class InputMismatchError(PerceptionError):
    """Inputs of one frame disagree: mask vs depth size, ids vs labels vs confidences vs feature rows."""

    reason = "size_mismatch"


class InstanceError(PerceptionError):
    """Per-instance metadata is invalid: id 0 or duplicated, confidence outside 0..1, non-finite feature."""

    reason = "bad_instances"


class ConfigError(PerceptionError):
    """A PerceptionConfig value is out of range or of the wrong kind."""

    reason = "bad_config"


#: Every drop reason an exception can carry, for diagnostics that list all counters from the start.
ERROR_REASONS = tuple(
    cls.reason
    for cls in (
        ImageEncodingError,
        ImageLayoutError,
        CalibrationError,
        PoseError,
        InputMismatchError,
        InstanceError,
        ConfigError,
        PerceptionError,
    )
)
