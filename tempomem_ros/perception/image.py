"""Decode sensor_msgs/Image payloads into numpy arrays, without cv_bridge.

Why our own decoder: cv_bridge is not installable here (no PyPI wheel), and the pipeline needs only a
handful of encodings. Every function takes any object with the Image fields (``encoding``, ``height``,
``width``, ``step``, ``is_bigendian``, ``data``): a real sensor_msgs/Image, a rosbags message or the
``RawImage`` tuple below. Layout errors are reported with the numbers that disagree, because a driver
that pads rows or mislabels an encoding is the usual cause and the numbers say which one.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tempomem_ros.perception.errors import ImageEncodingError, ImageLayoutError

DEPTH_ENCODINGS = ("16UC1", "32FC1")
MASK_ENCODINGS = ("16UC1", "mono16", "8UC1", "mono8")
COLOR_ENCODINGS = ("rgb8", "bgr8", "rgba8", "bgra8", "mono8")

# encoding -> (numpy base type without byte order, channels)
_LAYOUT = {
    "16UC1": ("u2", 1),
    "mono16": ("u2", 1),
    "32FC1": ("f4", 1),
    "8UC1": ("u1", 1),
    "mono8": ("u1", 1),
    "rgb8": ("u1", 3),
    "bgr8": ("u1", 3),
    "rgba8": ("u1", 4),
    "bgra8": ("u1", 4),
}


class RawImage(NamedTuple):
    """The fields of a sensor_msgs/Image that decoding needs (for tests, bags and tools)."""

    encoding: str
    height: int
    width: int
    step: int
    is_bigendian: bool
    data: bytes


def _pixels(image, allowed: tuple[str, ...], what: str) -> np.ndarray:
    """Return the HxW(xC) pixel array of ``image`` in native byte order, after checking its layout."""
    encoding = getattr(image, "encoding", None)
    if encoding not in allowed:
        raise ImageEncodingError(
            f"{what} image encoding {encoding!r} is not supported (expected one of {allowed})"
        )
    base, channels = _LAYOUT[encoding]
    try:
        height, width, step = int(image.height), int(image.width), int(image.step)
    except (TypeError, ValueError) as exc:
        raise ImageLayoutError(f"{what} image has non-integer height/width/step: {exc}") from None
    if height <= 0 or width <= 0:
        raise ImageLayoutError(f"{what} image is empty ({width}x{height})")
    pixel_bytes = np.dtype(base).itemsize * channels
    row_bytes = width * pixel_bytes
    if step < row_bytes:
        raise ImageLayoutError(
            f"{what} image step {step} < width {width} * {pixel_bytes} bytes per {encoding} pixel"
        )
    try:
        raw = np.frombuffer(image.data, dtype=np.uint8)
    except (TypeError, ValueError) as exc:
        raise ImageLayoutError(f"{what} image data is not a byte buffer: {exc}") from None
    if raw.size != step * height:
        raise ImageLayoutError(
            f"{what} image data has {raw.size} bytes, "
            f"expected step {step} * height {height} = {step * height}"
        )
    rows = raw.reshape(height, step)[:, :row_bytes]
    order = ">" if bool(image.is_bigendian) else "<"
    dtype = np.dtype(order + base)
    # A copy makes the rows contiguous (step padding removed) so they can be viewed as the pixel type.
    pixels = np.ascontiguousarray(rows).view(dtype).reshape(height, width, channels)
    pixels = pixels.astype(dtype.newbyteorder("="), copy=False)
    return pixels[:, :, 0] if channels == 1 else pixels


def decode_depth(image, unit_16u: float = 0.001) -> np.ndarray:
    """Depth image -> HxW float32 metres, NaN where invalid.

    16UC1 counts are multiplied by ``unit_16u`` (millimetres by default) and 0 means invalid; 32FC1 is
    already metres and NaN, +-inf and values <= 0 are invalid. The output is always a new array.
    """
    pixels = _pixels(image, DEPTH_ENCODINGS, "depth")
    if image.encoding == "16UC1":
        depth = pixels.astype(np.float32) * np.float32(unit_16u)
        depth[pixels == 0] = np.nan
        return depth
    depth = pixels.astype(np.float32, copy=True)
    with np.errstate(invalid="ignore"):
        depth[~np.isfinite(depth) | (depth <= 0.0)] = np.nan
    return depth


def decode_mask(image) -> np.ndarray:
    """Instance mask -> HxW uint16 instance ids (0 = no instance); 8-bit masks are widened."""
    return _pixels(image, MASK_ENCODINGS, "mask").astype(np.uint16, copy=True)


def decode_color(image) -> np.ndarray:
    """Colour image -> HxWx3 uint8 RGB (for feature extractors, which expect RGB)."""
    pixels = _pixels(image, COLOR_ENCODINGS, "color")
    encoding = image.encoding
    if encoding == "mono8":
        return np.repeat(pixels[:, :, None], 3, axis=2)
    if encoding in ("bgr8", "bgra8"):
        return np.ascontiguousarray(pixels[:, :, 2::-1])
    return np.ascontiguousarray(pixels[:, :, :3])


def encode_float32(array: np.ndarray) -> RawImage:
    """HxW float array -> a little-endian 32FC1 RawImage (e.g. the coarse depth of a camera view)."""
    arr = np.asarray(array)
    if arr.ndim != 2:
        raise ImageLayoutError(f"a 32FC1 image must be 2-D, got shape {arr.shape}")
    arr = np.ascontiguousarray(arr, dtype="<f4")
    height, width = arr.shape
    return RawImage("32FC1", height, width, width * 4, False, arr.tobytes())


def encode_uint16(array: np.ndarray, encoding: str = "16UC1") -> RawImage:
    """HxW integer array -> a little-endian 16-bit RawImage (masks and 16UC1 depth for tools and tests)."""
    arr = np.asarray(array)
    if arr.ndim != 2:
        raise ImageLayoutError(f"a 16-bit image must be 2-D, got shape {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 65535):
        raise ImageLayoutError("a 16-bit image needs values in 0..65535")
    arr = np.ascontiguousarray(arr, dtype="<u2")
    height, width = arr.shape
    return RawImage(encoding, height, width, width * 2, False, arr.tobytes())
