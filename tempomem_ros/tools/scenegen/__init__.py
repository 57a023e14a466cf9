"""Procedural indoor scenes with ground truth, written as ROS 2 bags in the project's topic layout.

    from tempomem_ros.tools.scenegen import SceneConfig, generate_scene, write_scene
    scene = generate_scene(1, SceneConfig())                 # profile "default": no feature, as the node sends
    paths = write_scene(scene, "out/")          # out/bag, out/ground_truth.json, out/questions.json
    scene, paths = generate_and_write_scene(1, SceneConfig(profile="clip"), "out/")   # one pass, no colour

Command line: ``python -m tempomem_ros.tools.scenegen --seed 1 --out DIR [--profile default|clip|oracle]``.
Development seeds are 1-3 and 11-40; seeds >= 200 are held out (never generate them while developing).
"""

from .config import BASE_TIME_NS, NOISE_PROFILES, PROFILES, NoiseConfig, SceneConfig, SceneGenError
from .scene import Scene, ScenePaths, generate_and_write_scene, generate_scene, write_scene

__all__ = ["BASE_TIME_NS", "NOISE_PROFILES", "PROFILES", "NoiseConfig", "Scene", "SceneConfig", "SceneGenError",
           "ScenePaths", "generate_and_write_scene", "generate_scene", "write_scene"]
