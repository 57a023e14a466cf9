"""The ADT kitchen frames (``adt_kitchen_3f``): load them, and convert them into a ROS 2 bag.

Why this tool: the dataset is real RGB-D (Aria Digital Twin) with exact instance masks and ground-truth
oriented boxes, so it checks the whole path (bag -> perception node -> memory node -> store) on data the
project did not generate itself. The converter writes the project's camera topic layout (``topics``),
so the bag replays into the nodes with no remapping.

Labels: each instance is labelled with its ``category`` ("cup", "pet bowl", "part of a
cabinet/wardrobe"), not its ``name`` ("WoodenFork", "Apartment_CabinetDoorF"). Why: a segmenter
reports a class, not an asset id. The names are unique per object, so using them would hand the fusion
each object's identity through the label term and make the evaluation look better than any real
segmenter could. They are also CamelCase identifiers that the memory's whole-word label matching and the
question router cannot split into words. Categories keep the hard case: several objects with the same
label next to each other (5 pet bowls, 15 cabinet parts in one frame). The instance -> ground-truth id
map goes into a sidecar JSON next to the bag (``<bag>.adt.json``), never into the messages: the nodes
must not see the answer.

Data location: the dataset is read where it lies, beside the repository (``<repo>/../shared/datasets/
adt_kitchen_3f``), never copied into it. ``--data DIR`` names the dataset folder itself; the environment
variable ``TEMPOMEM_SHARED`` names the shared folder that holds ``datasets/``.

CLI: ``python -m tempomem_ros.tools.adt convert --out BAG [--data DIR] [--storage sqlite3|mcap]``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tempomem_ros import topics
from tempomem_ros.core.errors import TempoMemError

DATASET = "adt_kitchen_3f"
SHARED_ENV = "TEMPOMEM_SHARED"
SIDECAR_SUFFIX = ".adt.json"
LABEL_SOURCE = "category"
CONFIDENCE = 1.0  # ground-truth masks: the segmenter is certain
REPO_ROOT = Path(__file__).resolve().parents[2]


class AdtError(TempoMemError):
    """The dataset is missing or malformed (file absent, wrong PNG mode, bad calibration or pose)."""


# --------------------------------------------------------------------------------------------- records


@dataclass(frozen=True)
class InstanceLabel:
    """What the dataset says about one instance id of a frame."""

    name: str
    category: str
    gt_id: int


@dataclass(frozen=True)
class AdtFrame:
    """One frame of frames.json, validated; image paths are absolute."""

    index: int
    stamp_ns: int
    camera_frame: str
    K: tuple[float, ...]  # row-major 3x3
    width: int
    height: int
    position: tuple[float, float, float]
    orientation_xyzw: tuple[float, float, float, float]
    rgb_path: Path
    depth_path: Path
    instances_path: Path
    labels: dict[int, InstanceLabel]

    @property
    def stamp_s(self) -> float:
        """The stamp in seconds exactly as the perception node computes it from a Time (ns / 1e9)."""
        return self.stamp_ns / 1e9

    @property
    def fx(self) -> float:
        return self.K[0]

    @property
    def fy(self) -> float:
        return self.K[4]

    @property
    def cx(self) -> float:
        return self.K[2]

    @property
    def cy(self) -> float:
        return self.K[5]

    def T_map_camera(self) -> np.ndarray:
        """4x4 map-from-camera (optical frame) transform."""
        from tempomem_ros.perception.pose import pose_to_matrix

        return pose_to_matrix(self.position, self.orientation_xyzw)

    def intrinsics(self):
        from tempomem_ros.perception.camera import Intrinsics

        return Intrinsics(self.fx, self.fy, self.cx, self.cy, self.width, self.height)


@dataclass(frozen=True)
class GtObject:
    """A ground-truth oriented box in map: centre, size along its own axes, map-from-object rotation."""

    gt_id: int
    name: str
    category: str
    motion: str
    center: tuple[float, float, float]
    size: tuple[float, float, float]
    R: tuple[tuple[float, float, float], ...]

    @property
    def max_extent(self) -> float:
        return max(self.size)


# ----------------------------------------------------------------------------------------- locations


def default_data_dir() -> Path:
    """``$TEMPOMEM_SHARED/datasets/adt_kitchen_3f``, else ``<repo>/../shared/datasets/adt_kitchen_3f``."""
    shared = os.environ.get(SHARED_ENV)
    base = Path(shared) if shared else REPO_ROOT.parent / "shared"
    return base / "datasets" / DATASET


def resolve_data_dir(data: str | Path | None = None) -> Path:
    """The dataset folder to use (``data`` when given), checked to hold frames.json and gt_objects.json."""
    path = Path(data) if data is not None else default_data_dir()
    if not path.is_dir():
        hint = "" if data is not None else f" (pass --data DIR or set {SHARED_ENV} to the shared folder)"
        raise AdtError(f"ADT dataset folder {path} does not exist{hint}")
    for name in ("frames.json", "gt_objects.json"):
        if not (path / name).is_file():
            raise AdtError(f"{path} is not the {DATASET} dataset: {name} is missing")
    return path


def sidecar_path(bag: str | Path) -> Path:
    """The ground-truth sidecar of a converted bag: ``<bag>.adt.json`` beside the bag directory."""
    bag = Path(bag)
    return bag.with_name(bag.name + SIDECAR_SUFFIX)


# ------------------------------------------------------------------------------------------- parsing


def _load_json(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AdtError(f"{path} does not exist") from None
    except (OSError, ValueError) as exc:
        raise AdtError(f"cannot read {path}: {exc}") from None


def _numbers(value, count: int, what: str) -> tuple[float, ...]:
    if not isinstance(value, (list, tuple)) or len(value) != count:
        raise AdtError(f"{what} must be a list of {count} numbers, got {value!r}")
    out = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise AdtError(f"{what} must hold finite numbers, got {value!r}")
        out.append(float(v))
    return tuple(out)


def _positive_int(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise AdtError(f"{what} must be a positive integer, got {value!r}")
    return value


def _check_pinhole(K: tuple[float, ...], where: str) -> None:
    """The project's camera model has no skew: K must be [fx 0 cx; 0 fy cy; 0 0 1] with fx, fy > 0."""
    if K[1] != 0.0 or K[3] != 0.0 or K[6:] != (0.0, 0.0, 1.0) or K[0] <= 0.0 or K[4] <= 0.0:
        raise AdtError(f"{where}: K {list(K)} is not a skew-free pinhole matrix [fx 0 cx; 0 fy cy; 0 0 1]")


def _parse_labels(raw, where: str) -> dict[int, InstanceLabel]:
    if not isinstance(raw, dict):
        raise AdtError(f"{where}: instance_labels must be an object (id -> label), got {type(raw).__name__}")
    labels: dict[int, InstanceLabel] = {}
    for key, entry in raw.items():
        try:
            instance_id = int(key)
        except ValueError:
            raise AdtError(f"{where}: instance id {key!r} is not an integer") from None
        if not 1 <= instance_id <= 65535:
            raise AdtError(f"{where}: instance id {instance_id} is outside 1..65535")
        if not isinstance(entry, dict):
            raise AdtError(f"{where}: label of instance {key} must be an object")
        category, name, gt_id = entry.get("category"), entry.get("name"), entry.get("gt_id")
        if not isinstance(category, str) or not category.strip():
            raise AdtError(f"{where}: instance {key} has no category")
        if isinstance(gt_id, bool) or not isinstance(gt_id, int):
            raise AdtError(f"{where}: instance {key} has no integer gt_id")
        labels[instance_id] = InstanceLabel(name=str(name or ""), category=category, gt_id=gt_id)
    return labels


def load_frames(data_dir: str | Path) -> list[AdtFrame]:
    """Every frame of frames.json, validated, in stamp order (stamps must be strictly increasing)."""
    data_dir = Path(data_dir)
    doc = _load_json(data_dir / "frames.json")
    raw_frames = doc.get("frames") if isinstance(doc, dict) else None
    if not isinstance(raw_frames, list) or not raw_frames:
        raise AdtError(f"{data_dir / 'frames.json'} has no 'frames' list")
    frames = []
    for index, raw in enumerate(raw_frames):
        where = f"frames.json frame {index}"
        if not isinstance(raw, dict):
            raise AdtError(f"{where} is not an object")
        try:
            stamp_ns, pose = raw["stamp_ns"], raw["T_map_camera"]
            files = (raw["rgb"], raw["depth_mm"], raw["instances"])
            K = _numbers(raw["K"], 9, f"{where} K")
            width = _positive_int(raw["width"], f"{where} width")
            height = _positive_int(raw["height"], f"{where} height")
            position = _numbers(pose["position"], 3, f"{where} position")
            quaternion = _numbers(pose["orientation_xyzw"], 4, f"{where} orientation_xyzw")
            labels = _parse_labels(raw["instance_labels"], where)
            camera_frame = raw["camera_frame"]
        except (KeyError, TypeError) as exc:
            raise AdtError(f"{where} lacks field {exc}") from None
        if isinstance(stamp_ns, bool) or not isinstance(stamp_ns, int) or stamp_ns < 0:
            raise AdtError(f"{where}: stamp_ns must be a non-negative integer, got {stamp_ns!r}")
        if not isinstance(camera_frame, str) or not camera_frame:
            raise AdtError(f"{where}: camera_frame must be a non-empty string")
        if not all(isinstance(f, str) and f for f in files):
            raise AdtError(f"{where}: rgb/depth_mm/instances must be file names")
        if math.sqrt(sum(q * q for q in quaternion)) < 1e-6:
            raise AdtError(f"{where}: orientation quaternion has zero norm")
        _check_pinhole(K, where)
        if frames and stamp_ns <= frames[-1].stamp_ns:
            raise AdtError(f"{where}: stamp_ns {stamp_ns} is not after the previous frame's")
        frames.append(AdtFrame(
            index=index, stamp_ns=stamp_ns, camera_frame=camera_frame, K=K, width=width, height=height,
            position=position, orientation_xyzw=quaternion, rgb_path=data_dir / files[0],
            depth_path=data_dir / files[1], instances_path=data_dir / files[2], labels=labels))
    return frames


def load_gt(data_dir: str | Path) -> dict[int, GtObject]:
    """gt_objects.json as gt_id -> GtObject (boxes with non-positive size or a non-rotation are errors)."""
    path = Path(data_dir) / "gt_objects.json"
    doc = _load_json(path)
    raw_objects = doc.get("objects") if isinstance(doc, dict) else None
    if not isinstance(raw_objects, list):
        raise AdtError(f"{path} has no 'objects' list")
    out: dict[int, GtObject] = {}
    for i, raw in enumerate(raw_objects):
        where = f"gt_objects.json object {i}"
        try:
            gt_id, R_rows = raw["gt_id"], raw["R_map_object"]
            center = _numbers(raw["center"], 3, f"{where} center")
            size = _numbers(raw["size"], 3, f"{where} size")
            rows = tuple(_numbers(r, 3, f"{where} R_map_object row") for r in R_rows)
            category, name, motion = str(raw["category"]), str(raw.get("name", "")), str(raw.get("motion", ""))
        except (KeyError, TypeError) as exc:
            raise AdtError(f"{where} lacks field {exc}") from None
        if isinstance(gt_id, bool) or not isinstance(gt_id, int):
            raise AdtError(f"{where}: gt_id must be an integer")
        if gt_id in out:
            raise AdtError(f"{where}: duplicate gt_id {gt_id}")
        if len(rows) != 3:
            raise AdtError(f"{where}: R_map_object must be 3x3")
        R = np.array(rows)
        if not np.allclose(R @ R.T, np.eye(3), atol=1e-6) or np.linalg.det(R) < 0:
            raise AdtError(f"{where}: R_map_object is not a rotation")
        if min(size) <= 0.0:
            raise AdtError(f"{where}: size {list(size)} must be positive")
        out[gt_id] = GtObject(gt_id=gt_id, name=name, category=category, motion=motion, center=center,
                              size=size, R=rows)
    return out


# -------------------------------------------------------------------------------------------- images


def _open_png(path: Path):
    from PIL import Image

    if not path.is_file():
        raise AdtError(f"image {path} does not exist")
    try:
        image = Image.open(path)
        image.load()
    except OSError as exc:
        raise AdtError(f"cannot decode {path}: {exc}") from None
    return image


def _check_size(array: np.ndarray, frame: AdtFrame, path: Path) -> None:
    if array.shape[:2] != (frame.height, frame.width):
        raise AdtError(f"{path} is {array.shape[1]}x{array.shape[0]}, frames.json says "
                       f"{frame.width}x{frame.height}")


def read_png_u16(path: Path) -> np.ndarray:
    """A 16-bit single-channel PNG as native uint16, exactly as stored.

    Why explicit: Pillow opens 16-bit grey PNGs as mode "I;16" (or "I;16B"), and some versions as "I"
    (int32). ``np.array`` of "I;16B" is big-endian, of "I" int32; an 8-bit PNG ("L") would silently
    give millimetre depth 256 times too coarse. All three 16-bit forms end as native uint16 here; any
    other mode is an error.
    """
    image = _open_png(path)
    mode = image.mode
    if mode in ("I;16", "I;16L", "I;16B"):
        array = np.array(image)
        if array.dtype.kind != "u" or array.dtype.itemsize != 2:
            raise AdtError(f"{path}: Pillow returned {array.dtype} for mode {mode}")
        return array.astype(np.uint16)  # native byte order
    if mode == "I":
        array = np.array(image)
        if array.size and (array.min() < 0 or array.max() > 65535):
            raise AdtError(f"{path}: mode I values outside 0..65535 (not a 16-bit image)")
        return array.astype(np.uint16)
    raise AdtError(f"{path}: expected a 16-bit single-channel PNG (mode I;16), got mode {mode}")


def read_depth_mm(frame: AdtFrame) -> np.ndarray:
    """HxW uint16 millimetres along the optical axis; 0 = no depth."""
    depth = read_png_u16(frame.depth_path)
    _check_size(depth, frame, frame.depth_path)
    return depth


def read_instances(frame: AdtFrame) -> np.ndarray:
    """HxW uint16 instance id per pixel; 0 = background."""
    mask = read_png_u16(frame.instances_path)
    _check_size(mask, frame, frame.instances_path)
    return mask


def read_rgb(frame: AdtFrame) -> np.ndarray:
    """HxWx3 uint8 RGB."""
    image = _open_png(frame.rgb_path)
    if image.mode != "RGB":
        raise AdtError(f"{frame.rgb_path}: expected an 8-bit RGB PNG, got mode {image.mode}")
    rgb = np.array(image)
    _check_size(rgb, frame, frame.rgb_path)
    return rgb


def depth_metres(depth_mm: np.ndarray) -> np.ndarray:
    """uint16 mm -> float32 metres with NaN for 0, the same as ``decode_depth`` of a 16UC1 image."""
    depth = depth_mm.astype(np.float32) * np.float32(0.001)
    depth[depth_mm == 0] = np.nan
    return depth


def labelled_instances(mask: np.ndarray, frame: AdtFrame) -> list[int]:
    """Instance ids present in the mask that have a label entry, ascending.

    An id in the mask without a label cannot be named, so it is left out of ``ids`` (its pixels stay in
    the mask: the perception node ignores ids it was not told about); a label without pixels would only
    produce an empty_mask drop.
    """
    present = np.unique(mask)
    return [int(i) for i in present if i != 0 and int(i) in frame.labels]


# ------------------------------------------------------------------------------------------ converter


@dataclass(frozen=True)
class ConvertResult:
    bag: Path
    sidecar: Path
    frames: int
    counts: dict[str, int]
    unlabelled: dict[int, list[int]]  # frame index -> ids present in the mask but without a label


def _camera_info(frame: AdtFrame):
    from tempomem_ros.tools import bagio

    msg = bagio.camera_info_msg(frame.width, frame.height, frame.fx, frame.fy, frame.cx, frame.cy,
                                frame.stamp_ns, frame.camera_frame)
    # camera_info_msg builds K and P from fx, fy, cx, cy; with a skew-free K (checked at load) that is
    # K itself and P = [K | 0]. Assert it rather than trust it.
    if tuple(float(v) for v in msg.k) != frame.K:
        raise AdtError(f"frame {frame.index}: CameraInfo k {list(msg.k)} differs from K {list(frame.K)}")
    return msg


def convert(data_dir: str | Path | None, out: str | Path, storage: str = "sqlite3") -> ConvertResult:
    """Write every frame of the dataset into a new rosbag2 directory ``out`` and its sidecar JSON.

    Per frame, all with header stamp = bag time = the frame's stamp_ns: camera_info (first, so that the
    perception node has intrinsics before the frame's images arrive), depth 16UC1 (mm as given), colour
    rgb8, instance masks and the camera pose (frame_id "map"). The sidecar holds, per frame, the
    instance -> gt_id map and the label written for each id.
    """
    from tempomem_ros.tools import bagio

    data = resolve_data_dir(data_dir)
    frames = load_frames(data)
    out = Path(out)
    side = sidecar_path(out)
    if side.exists():
        raise AdtError(f"sidecar {side} already exists (remove it with the old bag)")
    sidecar_frames = []
    unlabelled: dict[int, list[int]] = {}
    with bagio.open_writer(out, storage=storage) as writer:
        for frame in frames:
            depth = read_depth_mm(frame)
            mask = read_instances(frame)
            rgb = read_rgb(frame)
            ids = labelled_instances(mask, frame)
            missing = sorted(set(int(i) for i in np.unique(mask)) - {0} - set(ids))
            if missing:
                unlabelled[frame.index] = missing
            labels = [frame.labels[i].category for i in ids]
            t = frame.stamp_ns
            writer.write(topics.CAMERA_INFO, _camera_info(frame), t)
            writer.write(topics.DEPTH, bagio.image_msg(depth, "16UC1", t, frame.camera_frame), t)
            writer.write(topics.COLOR, bagio.image_msg(rgb, "rgb8", t, frame.camera_frame), t)
            writer.write(topics.INSTANCES, bagio.instance_masks_msg(
                mask, ids, labels, [CONFIDENCE] * len(ids), t, frame.camera_frame), t)
            writer.write(topics.POSE, bagio.pose_stamped_msg(
                frame.position, frame.orientation_xyzw, t, topics.WORLD_FRAME), t)
            sidecar_frames.append({
                "index": frame.index, "stamp_ns": frame.stamp_ns,
                "instances": {str(i): {"gt_id": frame.labels[i].gt_id, "label": frame.labels[i].category,
                                       "name": frame.labels[i].name} for i in ids},
            })
        counts = dict(writer.counts)
    doc = {"dataset": DATASET, "label_source": LABEL_SOURCE,
           "note": "instance id -> ground-truth object per frame; kept out of the messages on purpose",
           "frames": sidecar_frames}
    side.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return ConvertResult(bag=out, sidecar=side, frames=len(frames), counts=counts, unlabelled=unlabelled)


def read_sidecar(bag: str | Path) -> dict[int, dict[int, int]]:
    """The sidecar of a converted bag as stamp_ns -> {instance id -> gt_id}."""
    side = sidecar_path(bag)
    doc = _load_json(side)
    try:
        return {int(f["stamp_ns"]): {int(k): int(v["gt_id"]) for k, v in f["instances"].items()}
                for f in doc["frames"]}
    except (KeyError, TypeError, ValueError) as exc:
        raise AdtError(f"{side} is not an ADT sidecar: {exc}") from None


# ------------------------------------------------------------------------------------------------ CLI


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tempomem_ros.tools.adt",
                                     description="ADT kitchen frames -> ROS 2 bag in the tempomem topic layout.")
    sub = parser.add_subparsers(dest="command", required=True)
    conv = sub.add_parser("convert", help="write the frames into a new rosbag2 directory")
    conv.add_argument("--out", required=True, help="bag directory to create (must not exist)")
    conv.add_argument("--data", default=None,
                      help=f"dataset folder (default: ${SHARED_ENV}/datasets/{DATASET} or "
                      f"<repo>/../shared/datasets/{DATASET})")
    conv.add_argument("--storage", choices=("sqlite3", "mcap"), default="sqlite3")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result = convert(args.data, args.out, storage=args.storage)
    except TempoMemError as exc:
        print(f"adt: {exc}", file=sys.stderr)
        return 1
    for topic, count in sorted(result.counts.items()):
        print(f"{topic}: {count}")
    print(f"wrote {result.frames} frames to {result.bag}; ground truth in {result.sidecar}")
    for index, ids in sorted(result.unlabelled.items()):
        print(f"frame {index}: ids without a label left out: {ids}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
