"""Time, size and detection statistics of generated scenes (prints the figures; no assertions).

    .venv/bin/python bench/bench_scenegen.py [--seeds 1 2 3] [--profile default] [--fps F] [--eval offline|nodes]
    .venv/bin/python bench/bench_scenegen.py --clip-stats [--seeds 3]   # the clip profile's cosine statistics

Per seed: the drawn camera rate, frames in visits and patrol passes, layout attempts, events, questions,
the time to generate and write the scene in one pass (``generate_and_write_scene``, no colour image: what
tempomem_eval does), the bag size; then what the simulated segmenter reported: instances per frame,
the share with a wrong label and the share of those in runs of >= 3 consecutive detections of one object,
spurious blobs at >= 0.30 confidence and reflections per 100 frames, objects reported in parts, and the
share of reported object instances the perception drops (too few valid depth pixels). With --eval, the
scene is also run through the memory and the evaluation's wall time printed. --clip-stats prints the
clip profile's cosine statistics on generated samples (unoccluded views) and on the detections of the
given seeds' clip scenes (every 5th frame; partial views included).
"""

from __future__ import annotations

import argparse
import math
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from tempomem_ros.tools.scenegen import SceneConfig, generate_and_write_scene
from tempomem_ros.tools.scenegen.config import NOISE_NAMES
from tempomem_ros.tools.scenegen.features import clip_statistics, pair_statistics


def scene_clip_statistics(seed: int, noise: str = "default") -> dict:
    """Cosine statistics of the features the clip profile put on a scene's true detections."""
    from tempomem_ros.tools.scenegen import generate_scene

    scene = generate_scene(seed, SceneConfig(profile="clip", noise=noise))
    renderer = scene.renderer()
    plans = {f.index: f for f in scene.script.frames}
    rows, meta = [], []
    for rec in scene.records[::5]:
        plan = plans[rec.plan.index]
        fp = renderer.render(plan, images=False)
        for inst, feat in zip(fp.record.instances, fp.features):
            if inst.object_id is None:
                continue
            obj = scene.script.object(inst.object_id)
            c = obj.placement_at(plan.stamp_ns).box.center
            meta.append((inst.object_id, obj.label, math.atan2(plan.position[1] - c[1], plan.position[0] - c[0])))
            rows.append(feat)
    return pair_statistics(np.stack(rows), meta)


def detection_stats(gt: dict) -> dict:
    objs = {o["id"]: o for o in gt["objects"]}
    frames = gt["frames"]
    inst = [i for f in frames for i in f["instances"]]
    real = [i for i in inst if i["object"] is not None]
    wrong = [i for i in real if i["label"] != objs[i["object"]]["label"]]
    # runs: consecutive detections of one object (within one visit or pass) under the same wrong label
    in_runs, run, last = 0, {}, {}
    for f in frames:
        key_part = (f["visit"], f["patrol"])
        for i in f["instances"]:
            if i["object"] is None:
                continue
            key = (i["object"],) + key_part
            w = i["label"] if i["label"] != objs[i["object"]]["label"] else None
            run[key] = run.get(key, 0) + 1 if (w is not None and last.get(key) == w) else (1 if w else 0)
            last[key] = w
            if run[key] == 3:
                in_runs += 3
            elif run[key] > 3:
                in_runs += 1
    n = max(1, len(frames))
    return {
        "inst_per_frame": len(inst) / n,
        "wrong_label_share": len(wrong) / max(1, len(real)),
        "wrong_in_runs_share": in_runs / max(1, len(wrong)),
        "spurious_kept_per_100": 100 * sum(1 for i in inst if i["kind"] == "spurious" and i["confidence"] >= 0.3) / n,
        "reflections_per_100": 100 * sum(1 for i in inst if i["kind"] == "reflection") / n,
        "in_parts_per_100": 100 * sum(1 for i in real if i["part"] is not None) / n,
        "dropped_by_perception": sum(1 for i in real if not i["kept"]) / max(1, len(real)),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, nargs="+", default=None,
                   help="development seeds only, never >= 200 (default 1; none with --clip-stats)")
    p.add_argument("--profile", default="default", choices=("default", "clip", "oracle"))
    p.add_argument("--fps", type=float, default=None)
    p.add_argument("--width", type=int, default=320)
    p.add_argument("--height", type=int, default=240)
    p.add_argument("--visits", type=int, default=4)
    p.add_argument("--noise", default="default", choices=NOISE_NAMES,
                   help="noise preset (figures before stop 51: plain); --clip-stats' scenes use it too")
    p.add_argument("--eval", choices=("offline", "nodes"), default=None, help="also time an evaluation run")
    p.add_argument("--clip-stats", action="store_true", help="print the clip profile's cosine statistics and exit")
    p.add_argument("--keep", default=None, help="write scenes under this directory instead of a temporary one")
    args = p.parse_args()
    if any(s >= 200 for s in args.seeds or []):
        raise SystemExit("seeds >= 200 are held out: the lead runs them once, at the end")
    if args.clip_stats:
        tables = {"samples": clip_statistics()}
        for seed in args.seeds or []:
            tables[f"seed {seed}"] = scene_clip_statistics(seed, args.noise)
        print("clip-like features, 512-d; samples: every class x 3 instances x 12 views, unoccluded; "
              "seed N: true detections of that clip scene, every 5th frame")
        print(f"{'pair type':<12}" + "".join(f"{name:>26}" for name in tables))
        print(f"{'':<12}" + "".join(f"{'mean':>10}{'std':>7}{'pairs':>9}" for _ in tables))
        for kind in tables["samples"]:
            cells = ""
            for t in tables.values():
                s = t[kind]
                cells += "" if s["mean"] is None else f"{s['mean']:>10.3f}{s['std']:>7.3f}{s['n']:>9}"
                cells += "" if s["mean"] is not None else f"{'-':>10}{'-':>7}{s['n']:>9}"
            print(f"{kind:<12}" + cells)
        return
    args.seeds = args.seeds or [1]
    config = SceneConfig(profile=args.profile, width=args.width, height=args.height, visits=args.visits, fps=args.fps,
                         noise=args.noise)
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench_scenegen_"))
    print(f"config: profile {config.profile}, {config.width}x{config.height}, {config.visits} visits, "
          f"fps {config.fps or 'drawn by the seed'}, noise {config.noise}, patrol {config.patrol_passes} passes/gap")
    head = (f"{'seed':>4} {'Hz':>4} {'att':>3} {'frames':>6} {'visit':>5} {'patrol':>6} {'events':>6} {'qs':>4} "
            f"{'gen+write s':>11} {'MB':>5} {'inst/f':>6} {'wrong':>6} {'in run':>6} {'spur':>5} "
            f"{'refl':>5} {'parts':>5} {'drop':>5}" + (f" {'eval s':>7}" if args.eval else ""))
    print(head)
    try:
        for seed in args.seeds:
            t0 = time.perf_counter()
            scene, paths = generate_and_write_scene(seed, config, root / f"seed{seed}", overwrite=True)
            t1 = time.perf_counter()
            size = sum(f.stat().st_size for f in paths.bag.rglob("*") if f.is_file()) / 1e6
            gt = scene.ground_truth
            n = len(gt["frames"])
            n_patrol = sum(1 for f in gt["frames"] if f["patrol"] is not None)
            d = detection_stats(gt)
            line = (f"{seed:>4} {gt['fps']:>4g} {scene.attempt:>3} {n:>6} {n - n_patrol:>5} {n_patrol:>6} "
                    f"{len(gt['events']):>6} {len(scene.questions):>4} {t1 - t0:>11.1f} {size:>5.0f} "
                    f"{d['inst_per_frame']:>6.2f} {d['wrong_label_share']:>6.3f} {d['wrong_in_runs_share']:>6.2f} "
                    f"{d['spurious_kept_per_100']:>5.1f} {d['reflections_per_100']:>5.1f} "
                    f"{d['in_parts_per_100']:>5.1f} {d['dropped_by_perception']:>5.3f}")
            if args.eval:
                from tempomem_ros.tools.evaluate import run_scene
                r = run_scene(paths.bag.parent, args.eval, root)
                line += f" {r['wall_s']:>7.1f}"
            print(line, flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
