"""Procedural indoor scenes with ground truth, written as ROS 2 bags in the project's topic layout.

    from tempomem_ros.tools.scenegen import SceneConfig, generate_scene, write_scene
    scene = generate_scene(1, SceneConfig(width=160, height=120))
    paths = write_scene(scene, "out/")          # out/bag, out/ground_truth.json, out/questions.json

Command line: ``python -m tempomem_ros.tools.scenegen --seed 1 --out DIR``.
"""

from .config import BASE_TIME_NS, NOISE_PROFILES, NoiseConfig, SceneConfig, SceneGenError
from .scene import Scene, ScenePaths, generate_scene, write_scene

__all__ = ["BASE_TIME_NS", "NOISE_PROFILES", "NoiseConfig", "Scene", "SceneConfig", "SceneGenError",
           "ScenePaths", "generate_scene", "write_scene"]
