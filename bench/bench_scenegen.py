"""Time and size of generating default scenes (prints the figures; no assertions).

    .venv/bin/python bench/bench_scenegen.py [--seeds 1 2 3] [--width 320 --height 240] [--keep DIR]

Per seed: layout attempts, the bookkeeping render pass (generate), the image pass plus bag writing
(write), the bag size, and how many frames, events and questions the scene has.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from tempomem_ros.tools.scenegen import SceneConfig, generate_scene, write_scene


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, nargs="+", default=[1])
    p.add_argument("--width", type=int, default=320)
    p.add_argument("--height", type=int, default=240)
    p.add_argument("--visits", type=int, default=4)
    p.add_argument("--keep", default=None, help="write scenes under this directory instead of a temporary one")
    args = p.parse_args()
    config = SceneConfig(width=args.width, height=args.height, visits=args.visits)
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench_scenegen_"))
    print(f"config: {config.width}x{config.height}, {config.visits} visits x {config.frames_per_visit} frames, "
          f"noise {config.noise}")
    print(f"{'seed':>4} {'att':>3} {'rooms':>5} {'frames':>6} {'events':>6} {'questions':>9} "
          f"{'generate s':>10} {'write s':>8} {'bag MB':>7} {'ms/frame':>8}")
    try:
        for seed in args.seeds:
            t0 = time.perf_counter()
            scene = generate_scene(seed, config)
            t1 = time.perf_counter()
            paths = write_scene(scene, root / f"seed{seed}", overwrite=True)
            t2 = time.perf_counter()
            size = sum(f.stat().st_size for f in paths.bag.rglob("*") if f.is_file()) / 1e6
            gt = scene.ground_truth
            n = len(gt["frames"])
            print(f"{seed:>4} {scene.attempt:>3} {len(gt['rooms']):>5} {n:>6} {len(gt['events']):>6} "
                  f"{len(scene.questions):>9} {t1 - t0:>10.2f} {t2 - t1:>8.2f} {size:>7.1f} "
                  f"{1000 * (t2 - t1) / max(n, 1):>8.1f}")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
