"""``python -m tempomem_ros.tools.scenegen``: generate a scene and write bag + ground truth + questions.

Prints what it produced and how long it took, so the cost of a default scene is measured where it is
made (the figures quoted in the docs come from this output).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tempomem_ros.core.errors import TempoMemError

from .config import NOISE_NAMES, PROFILES, SceneConfig
from .scene import generate_and_write_scene, generate_scene, write_scene


def build_parser() -> argparse.ArgumentParser:
    d = SceneConfig()
    p = argparse.ArgumentParser(prog="python -m tempomem_ros.tools.scenegen",
                                description="Generate a procedural indoor scene as a ROS 2 bag with ground truth.")
    p.add_argument("--seed", type=int, required=True, help="development seeds: 1-3, 11-40 (>= 200 are held out)")
    p.add_argument("--profile", choices=sorted(PROFILES), default=d.profile,
                   help="default: no feature (the node defaults); clip: CLIP-like 512-d; oracle: identity features")
    p.add_argument("--out", required=True, help="output directory (bag/, ground_truth.json, questions.json)")
    p.add_argument("--width", type=int, default=d.width)
    p.add_argument("--height", type=int, default=d.height)
    p.add_argument("--visits", type=int, default=d.visits)
    p.add_argument("--fps", type=float, default=None, help="camera rate; default: drawn by the seed from 5-15 Hz")
    p.add_argument("--no-patrol", action="store_true", help="no patrol passes between the visits")
    p.add_argument("--visit-gap", type=float, default=d.visit_gap_s, help="seconds between visit starts")
    p.add_argument("--rooms", type=int, choices=(1, 2), default=None, help="default: chosen by the seed")
    p.add_argument("--feature-dim", type=int, default=None, help="default: the profile's (0, 512, 32)")
    p.add_argument("--min-pixels", type=int, default=None,
                   help="smallest mask the segmenter reports; default: 20 px at 640x480, scaled with the area")
    p.add_argument("--noise", choices=NOISE_NAMES, default=d.noise,
                   help="default: detection model + shared colour palettes, white balance, mask bleed ('real' is "
                   "its old name); plain: the default before stop 51 (no realism); none: exact")
    p.add_argument("--storage", choices=("sqlite3", "mcap"), default="sqlite3")
    p.add_argument("--overwrite", action="store_true", help="replace an existing bag in --out")
    p.add_argument("--no-color", action="store_true",
                   help="leave the colour image out of the bag (and render each frame once: ~40 %% faster)")
    return p


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    config = SceneConfig(profile=args.profile, width=args.width, height=args.height, visits=args.visits,
                         fps=args.fps, patrol=not args.no_patrol, visit_gap_s=args.visit_gap, rooms=args.rooms,
                         feature_dim=args.feature_dim, min_pixels=args.min_pixels, noise=args.noise)
    try:
        t0 = time.perf_counter()
        if args.no_color:   # one rendering pass writes the bag as it goes
            scene, paths = generate_and_write_scene(args.seed, config, args.out, storage=args.storage,
                                                    overwrite=args.overwrite)
            t1 = t2 = time.perf_counter()
        else:
            scene = generate_scene(args.seed, config)
            t1 = time.perf_counter()
            paths = write_scene(scene, args.out, storage=args.storage, overwrite=args.overwrite)
            t2 = time.perf_counter()
    except (TempoMemError, OSError) as exc:
        print(f"scenegen: {exc}", file=sys.stderr)
        return 1
    gt = scene.ground_truth
    kinds = {}
    for e in gt["events"]:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(f"seed {args.seed} (attempt {scene.attempt}): {len(gt['rooms'])} room(s), "
          f"{sum(o['kind'] == 'furniture' for o in gt['objects'])} furniture, "
          f"{sum(o['kind'] == 'small' for o in gt['objects'])} small objects, events {kinds}")
    patrol_frames = sum(p["n_frames"] for p in gt["patrols"])
    print(f"profile {gt['profile']}, {gt['fps']:g} Hz: {len(gt['frames'])} frames at {config.width}x{config.height} "
          f"over {config.visits} visit(s) and {len(gt['patrols'])} patrol passes ({patrol_frames} frames); "
          f"questions: {len(scene.questions)}; perception min_mask_pixels {gt['perception']['min_mask_pixels']}")
    print(f"generate {t1 - t0:.2f} s, write {t2 - t1:.2f} s, total {t2 - t0:.2f} s; "
          f"bag {_size(paths.bag) / 1e6:.1f} MB at {paths.bag}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
