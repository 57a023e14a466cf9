"""Scaffolding shared by the scene generator's tests: a generated scene's frames re-rendered, and the perception's
extraction run on a rendered frame as a perception node would on the bag's depth and mask."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from tempomem_ros.perception import PerceptionConfig, extract_observations
from tempomem_ros.perception.camera import Intrinsics


def rendered_frames(scene, every: int) -> Iterator:
    """FrameProducts (no images) of every ``every``-th frame record of ``scene``, re-rendered."""
    by_index = {f.index: f for f in scene.script.frames}
    renderer = scene.renderer()
    for rec in scene.records[::every]:
        yield renderer.render(by_index[rec.plan.index], images=False)


def perception_config(scene, **fields) -> PerceptionConfig:
    """The perception's defaults at ``scene``'s min_mask_pixels (and ``fields``)."""
    return PerceptionConfig(min_mask_pixels=scene.config.perception_min_pixels, **fields)


def perceive(scene, fp, instances=None, config: PerceptionConfig | None = None):
    """(observations, drops) of extract_observations on the rendered frame ``fp`` of ``scene``: its depth image in
    metres (0 mm: no depth), its mask, ``instances`` ((mask id, label, confidence) each; by default the frame
    record's), the scene's intrinsics and the frame's true pose, at stamp 1.0; ``config`` by default
    perception_config(scene)."""
    cfg = scene.config
    depth = fp.depth_mm.astype(np.float64) / 1000.0
    depth[fp.depth_mm == 0] = np.nan
    if instances is None:
        instances = [(i.mask_id, i.label, i.confidence) for i in fp.record.instances]
    ids, labels, confidences = ([i[k] for i in instances] for k in range(3))
    return extract_observations(depth, fp.mask, ids, labels, confidences,
                                Intrinsics(cfg.fx, cfg.fx, cfg.cx, cfg.cy, cfg.width, cfg.height), fp.true_pose,
                                1.0, config=perception_config(scene) if config is None else config)
