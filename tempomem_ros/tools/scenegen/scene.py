"""Generate a scene (world + script + rendering check) and write it as a bag plus ground-truth JSON.

Why a rendering pass inside ``generate_scene``: whether an object was seen, hidden or out of view, and
when a change became observable, is only known after casting the rays. The pass keeps just the
bookkeeping; ``Scene.frames()`` renders the images again on demand (bit-identical, the random streams
are keyed by seed, attempt and frame), so a scene never holds hundreds of megabytes of images.

A draw whose planned hard cases did not materialise (say the hidden object was glimpsed) is rejected
and the next attempt is drawn from the same seed, so the result is still a pure function of the seed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tempomem_ros import topics
from tempomem_ros.tools import bagio

from .config import SceneConfig, SceneGenError
from .frames import FrameProducts, FrameRecord, FrameRenderer
from .groundtruth import CAMERA_FRAME, WORLD_FRAME, build_ground_truth
from .questions import make_questions
from .script import Script, build_script
from .world import LayoutError, World, build_world

MAX_ATTEMPTS = 40


@dataclass
class Scene:
    seed: int
    config: SceneConfig
    attempt: int
    world: World
    script: Script
    records: list[FrameRecord]
    ground_truth: dict
    questions: list[dict]
    rejected: list[str] = field(default_factory=list)   # why earlier attempts were rejected

    def renderer(self) -> FrameRenderer:
        return FrameRenderer(self.seed, self.attempt, self.config, self.world, self.script)

    def frames(self, color: bool = True) -> Iterator[FrameProducts]:
        """Kept frames in stamp order, rendered with their noise (identical on every call); color=False
        leaves the colour image out (rgb None)."""
        renderer = self.renderer()
        by_index = {f.index: f for f in self.script.frames}
        for rec in self.records:
            products = renderer.render(by_index[rec.plan.index], images=color)
            yield products


def _drop_rule(script: Script):
    """Frames to leave out so that the planned hard cases hold for the whole visit."""
    oov, occ = script.roles.out_of_view, script.roles.occluded

    def decide(plan, visible, ghost) -> bool:
        if oov is not None and plan.visit == oov[1] and ghost.get(oov[0], 0) > 0:
            return True
        if occ is not None and plan.visit == occ[1] and visible.get(occ[0], 0) > 0:
            return True
        return False

    return decide


def check_scene(config: SceneConfig, script: Script, gt: dict) -> list[str]:
    """Reasons the draw does not provide the required cases (empty = accepted)."""
    problems = []
    for v in gt["visits"]:
        if v["n_frames"] < 0.5 * v["n_planned"]:
            problems.append(f"visit {v['index']} kept only {v['n_frames']} of {v['n_planned']} frames")
    if config.visits < 2:
        return problems
    objects = {o["id"]: o for o in gt["objects"]}
    vis = {v["visit"]: v for v in gt["visibility"]}

    def seen_elsewhere(oid, visit):
        return any(oid in vis[k]["seen"] for k in vis if k != visit)

    oov = gt["roles"]["out_of_view"]
    if oov is not None:
        if oov["object"] not in vis[oov["visit"]]["out_of_view"] or not seen_elsewhere(oov["object"], oov["visit"]):
            problems.append("the out-of-view object was not out of view (or never seen elsewhere)")
    occ = gt["roles"]["occluded"]
    if occ is not None:
        if occ["object"] not in vis[occ["visit"]]["occluded"] or not seen_elsewhere(occ["object"], occ["visit"]):
            problems.append("the hidden object was not occluded (or never seen elsewhere)")
    mover = gt["roles"]["double_mover"]
    if mover is not None:
        obj = objects[mover]
        for iv in obj["intervals"]:
            if not any(iv["t_from"] <= s and (iv["t_to"] is None or s < iv["t_to"]) for s in obj["seen_stamps"]):
                problems.append("a placement of the double mover was never seen")
                break
    chair = gt["roles"].get("pushed_chair")
    for kind in ("moved", "removed", "appeared"):
        if not any(e["kind"] == kind and e["t_observable"] is not None and e["object"] not in (mover, chair)
                   for e in gt["events"]):
            problems.append(f"no observable '{kind}' event")
    if chair is not None and not any(e["object"] == chair and e["t_observable"] is not None for e in gt["events"]):
        problems.append("the pushed chair was never seen at its new place")
    return problems


def generate_scene(seed: int, config: SceneConfig | None = None) -> Scene:
    """The scene of ``seed``: same seed and config give the same scene, byte for byte."""
    return _generate(seed, config)


def _generate(seed: int, config: SceneConfig | None, sink=None) -> Scene:
    """Draw attempts until one provides the planned cases. ``sink`` (optional): called at the start of
    each attempt, returns ``(write(products), done(accepted))``; the frames of the attempt are handed to
    ``write`` as they are rendered (generate_and_write_scene writes the bag in the same pass)."""
    config = config or SceneConfig()
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise SceneGenError(f"seed must be a non-negative integer, got {seed!r}")
    seed = int(seed)
    config.validate()
    config = config.resolved(seed)
    rejected: list[str] = []
    for attempt in range(MAX_ATTEMPTS):
        try:
            world = build_world(np.random.default_rng([seed, attempt, 1]), config)
            script = build_script(np.random.default_rng([seed, attempt, 2]), world, config)
        except LayoutError as exc:
            rejected.append(f"attempt {attempt}: {exc}")
            continue
        renderer = FrameRenderer(seed, attempt, config, world, script)
        drop = _drop_rule(script)
        records = []
        write, done = sink() if sink is not None else (None, None)
        accepted = False
        try:
            for plan in script.frames:
                products = renderer.render(plan, drop, images=False)
                if products is not None:
                    records.append(products.record)
                    if write is not None:
                        write(products)
            gt = build_ground_truth(seed, attempt, config, world, script, records)
            problems = check_scene(config, script, gt)
            if problems:
                rejected.append(f"attempt {attempt}: {'; '.join(problems)}")
                continue
            accepted = True
        finally:
            if done is not None:
                done(accepted)
        questions = make_questions(gt)
        return Scene(seed, config, attempt, world, script, records, gt, questions, rejected)
    raise SceneGenError(f"no valid scene for seed {seed} in {MAX_ATTEMPTS} attempts: {rejected[-3:]}")


# ---------------------------------------------------------------------------------------------- output


@dataclass(frozen=True)
class ScenePaths:
    bag: Path
    ground_truth: Path
    questions: Path


def dumps(data) -> str:
    """The JSON text written for ground truth and questions (stable key order, one trailing newline)."""
    return json.dumps(data, indent=1, ensure_ascii=True) + "\n"


def write_frame(writer: bagio.BagWriter, cfg: SceneConfig, fp: FrameProducts) -> None:
    t = fp.record.plan.stamp_ns
    writer.write(topics.CAMERA_INFO, bagio.camera_info_msg(cfg.width, cfg.height, cfg.fx, cfg.fx, cfg.cx, cfg.cy,
                                                          t, CAMERA_FRAME), t)
    writer.write(topics.POSE, bagio.pose_stamped_msg(fp.record.published_position, fp.record.published_quaternion,
                                                     t, WORLD_FRAME), t)
    if fp.rgb is not None:
        writer.write(topics.COLOR, bagio.image_msg(fp.rgb, "rgb8", t, CAMERA_FRAME), t)
    writer.write(topics.DEPTH, bagio.image_msg(fp.depth_mm, "16UC1", t, CAMERA_FRAME), t)
    inst = fp.record.instances
    writer.write(topics.INSTANCES, bagio.instance_masks_msg(
        fp.mask, [i.mask_id for i in inst], [i.label for i in inst], [i.confidence for i in inst], t,
        CAMERA_FRAME, fp.features), t)


def write_scene(scene: Scene, out_dir: str | Path, storage: str = "sqlite3", overwrite: bool = False,
                color: bool = True) -> ScenePaths:
    """Write ``out_dir/bag`` (rosbag2), ``out_dir/ground_truth.json`` and ``out_dir/questions.json``.

    color=False leaves /camera/color/image_raw out of the bag (40 % of its size): the perception node only
    subscribes to it with use_color (CLIP in the node), which the evaluation never uses.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = ScenePaths(out / "bag", out / "ground_truth.json", out / "questions.json")
    if paths.bag.exists():
        if not overwrite:
            raise SceneGenError(f"{paths.bag} already exists (pass overwrite=True / --overwrite)")
        import shutil

        shutil.rmtree(paths.bag)
    with bagio.open_writer(paths.bag, storage=storage) as writer:
        for fp in scene.frames(color=color):
            write_frame(writer, scene.config, fp)
    paths.ground_truth.write_text(dumps(scene.ground_truth), encoding="utf-8")
    paths.questions.write_text(dumps(scene.questions), encoding="utf-8")
    return paths


def generate_and_write_scene(seed: int, config: SceneConfig | None, out_dir: str | Path, storage: str = "sqlite3",
                             overwrite: bool = False) -> tuple[Scene, ScenePaths]:
    """``generate_scene`` + ``write_scene(color=False)`` in one rendering pass (about 40 % faster).

    Why it can: without the colour image, the bookkeeping pass renders exactly what the bag needs (depth,
    mask, features, pose), so each frame is written as it is rendered instead of being rendered again.
    A rejected attempt's partial bag is deleted. The bag has no colour messages (the perception node only
    subscribes to colour with use_color, for CLIP in the node).
    """
    import shutil

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = ScenePaths(out / "bag", out / "ground_truth.json", out / "questions.json")
    if paths.bag.exists() and not overwrite:
        raise SceneGenError(f"{paths.bag} already exists (pass overwrite=True / --overwrite)")
    for stale in (paths.ground_truth, paths.questions):   # the ground truth marks a complete scene
        stale.unlink(missing_ok=True)
    partial = out / "bag.partial"
    state: dict = {}

    def sink():
        if partial.exists():
            shutil.rmtree(partial)
        writer = bagio.open_writer(partial, storage=storage)
        cfg = state.setdefault("config", (config or SceneConfig()).resolved(seed))

        def write(fp: FrameProducts) -> None:
            write_frame(writer, cfg, fp)

        def done(accepted: bool) -> None:
            writer.close()
            if not accepted:
                shutil.rmtree(partial, ignore_errors=True)

        return write, done

    scene = _generate(seed, config, sink)
    if paths.bag.exists():
        shutil.rmtree(paths.bag)
    partial.rename(paths.bag)
    paths.ground_truth.write_text(dumps(scene.ground_truth), encoding="utf-8")
    paths.questions.write_text(dumps(scene.questions), encoding="utf-8")
    return scene, paths
