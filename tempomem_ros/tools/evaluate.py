"""tempomem_eval: generate scenes, run the memory on them (through the nodes by default), score, report.

    tempomem_eval --seeds 1 2 3 --json results.json            # the published figures (docs/RESULTS.md)
    tempomem_eval --seeds 1 --mode offline                     # perception + core only, no ROS
    tempomem_eval --seeds 1 2 3 --profile clip                 # CLIP-like features (default: none)
    tempomem_eval --scene DIR                                  # a scene already written by scenegen
    tempomem_eval --compare before.json after.json             # two runs side by side; which runs decided otherwise
    tempomem_eval --rescore before.json --json rescored.json   # an earlier run judged by this scorer

Why one command: the published numbers must be reproducible by anyone with one line, and a change to the
memory must be comparable against the previous run (--compare). Scoring rules: tools/evaluation/score.py;
pooled figures and targets: tools/evaluation/report.py. Each scene is evaluated with the perception and
memory parameters its ground truth names (``perception_params``, ``memory_params``): the node defaults,
min_mask_pixels scaled by image area, embedding_dim = the scene's feature dimension.

Seeds: development seeds are 1-3 and 11-40; use only those while developing or tuning. Seeds >= 200 are
HELD OUT: never generate or run them while developing; they are run once, at the end, by the lead
(``--held-out`` is required to run them, so that it cannot happen by accident).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from tempomem_ros.tools.evaluation.report import compare, pooled, report, summary  # noqa: F401 (public API)
from tempomem_ros.tools.evaluation.score import score_all

HELD_OUT_FROM = 200
NOISE_NAMES = ("default", "none", "plain", "real")   # scenegen.config.NOISE_NAMES, without importing the generator


def perception_params(gt: dict) -> dict:
    """The perception node parameters a scene's ground truth assumed: the node defaults, except
    min_mask_pixels scaled by image area (50 px at 640x480 -> 13 px at 320x240; none at 640x480)."""
    p = gt.get("perception")
    if p is None:   # a scene of the old generator (schema 1): its detection rule was 20 px at 320x240
        return {"min_mask_pixels": 5}
    if p["min_mask_pixels"] == p["node_default_min_mask_pixels"]:
        return {}
    return {"min_mask_pixels": p["min_mask_pixels"]}


def memory_params(gt: dict) -> dict:
    """The memory needs the scene's feature dimension (the node default, 32, when the scene has none)."""
    dim = int(gt.get("config", {}).get("feature_dim") or 0)
    return {"embedding_dim": dim} if dim and dim != 32 else {}


def _load_scene(scene_dir: Path) -> tuple[dict, list[dict]]:
    gt = json.loads((scene_dir / "ground_truth.json").read_text())
    qs = json.loads((scene_dir / "questions.json").read_text())
    return gt, qs["questions"] if isinstance(qs, dict) else qs


def run_scene(scene_dir: Path, mode: str, workdir: Path) -> dict:
    gt, questions = _load_scene(scene_dir)
    store = workdir / f"{scene_dir.name}-{mode}.db"
    if store.exists():
        store.unlink()
    t0 = time.perf_counter()
    info: dict = {}
    if mode == "offline":
        from tempomem_ros.perception import PerceptionConfig
        from tempomem_ros.tools.evaluation.offline import evaluate_offline
        snap = evaluate_offline(scene_dir / "bag", str(store), gt, questions,
                                perception=PerceptionConfig(**perception_params(gt)),
                                embedding_dim=memory_params(gt).get("embedding_dim", 32))
    else:
        from tempomem_ros.tools.evaluation.nodes import evaluate_nodes
        snap, info = evaluate_nodes(scene_dir / "bag", store, gt, questions, perception_params=perception_params(gt),
                                    memory_params=memory_params(gt))
    wall = time.perf_counter() - t0
    scores = score_all(gt, questions, snap)
    from tempomem_ros.tools.scenegen.config import recorded_noise
    preset, overrides = recorded_noise(gt.get("config", {}))
    return {"scene": str(scene_dir), "seed": gt.get("seed"), "mode": mode, "wall_s": round(wall, 2),
            "profile": gt.get("profile") or ("oracle" if gt.get("config", {}).get("feature_dim") else "default"),
            "fps": gt.get("fps"), "noise": gt.get("config", {}).get("noise", "default"),
            "noise_preset": preset, "noise_overrides": overrides,
            "time_base": gt.get("time_base", 0.0),
            "perception_params": perception_params(gt), "memory_params": memory_params(gt),
            "frames": len(gt["frames"]), "questions": len(questions), "run": info, "scores": scores,
            "snapshot": snap}


def rescore(results: Path, out: Path | None) -> int:
    """Score the snapshots of an earlier run again. Why: when the scorer is corrected, runs of older code must be
    judged by the same rules before they are compared, without running the memory again."""
    data = json.loads(results.read_text())
    for run in data["runs"]:
        gt, questions = _load_scene(Path(run["scene"]))
        run["scores"] = score_all(gt, questions, run["snapshot"])
    data["pooled"] = pooled(data["runs"])
    print(report(data["runs"]))
    if out:
        out.write_text(json.dumps(data, indent=1, sort_keys=True))
    return 0


def scene_config(args):
    from tempomem_ros.tools.scenegen import SceneConfig
    return SceneConfig(profile=args.profile, width=args.width, height=args.height, visits=args.visits, fps=args.fps,
                       noise=args.noise)


def cached_scene(scene_dir: Path, seed: int, config) -> bool:
    """True when ``scene_dir`` holds this seed's scene, written by this generator with this configuration
    (the ground truth is written after the bag, so its presence means the bag is complete)."""
    from tempomem_ros.tools.scenegen.groundtruth import generator_version
    try:
        gt = json.loads((scene_dir / "ground_truth.json").read_text())
    except (OSError, ValueError):
        return False
    want = json.loads(json.dumps(config.resolved(seed).to_dict()))   # as written (tuples become lists)
    return (gt.get("generator") == generator_version() and gt.get("seed") == seed and gt.get("config") == want
            and (scene_dir / "bag").is_dir() and (scene_dir / "questions.json").is_file())


def generate(seed: int, out: Path, args) -> tuple[Path, bool]:
    """(scene dir, reused): a scene already in ``out`` from the same generator and settings is reused, so
    that evaluating a memory change again on a --workdir does not regenerate its scenes."""
    from tempomem_ros.tools.scenegen.scene import generate_and_write_scene, generate_scene, write_scene
    cfg = scene_config(args)
    tag = "" if args.fps is None else f"-{args.fps:g}hz"
    tag += "" if (args.width, args.height) == (320, 240) else f"-{args.width}x{args.height}"
    tag += "" if args.visits == 4 else f"-{args.visits}v"
    tag += "" if cfg.noise == "default" else f"-{cfg.noise}"   # the preset's own name: --noise real is default
    tag += "-color" if getattr(args, "color", False) else ""
    scene_dir = out / f"seed{seed}-{args.profile}{tag}"
    if cached_scene(scene_dir, seed, cfg):
        return scene_dir, True
    if getattr(args, "color", False):   # two passes: the bookkeeping pass renders no colour image
        for stale in ("ground_truth.json", "questions.json"):   # written last: they mark a complete scene
            (scene_dir / stale).unlink(missing_ok=True)
        write_scene(generate_scene(seed, cfg), scene_dir, overwrite=True, color=True)
    else:
        generate_and_write_scene(seed, cfg, scene_dir, overwrite=True)
    return scene_dir, False


# ------------------------------------------------------------------------------------------ CLI
def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="tempomem_eval", description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--scene", type=Path, action="append", help="score an existing scene dir (repeatable)")
    ap.add_argument("--mode", choices=("nodes", "offline"), default="nodes")
    ap.add_argument("--width", type=int, default=320)
    ap.add_argument("--height", type=int, default=240)
    ap.add_argument("--visits", type=int, default=4)
    ap.add_argument("--profile", choices=("default", "clip", "oracle"), default="default",
                    help="features the scenes carry: none (the node defaults), CLIP-like, identity oracle")
    ap.add_argument("--fps", type=float, default=None, help="camera rate (default: drawn by each seed, 5-15 Hz)")
    ap.add_argument("--noise", default="default", choices=NOISE_NAMES,
                    help="noise preset of the generated scenes: default (the detection model with colour palettes "
                    "look-alikes share, per-visit white balance and exposure, mask bleed; 'real' is its old name) | "
                    "plain (the default before stop 51, no realism: every earlier figure) | none (exact); "
                    "docs/RESULTS.md")
    ap.add_argument("--color", action="store_true",
                    help="write the colour image into generated bags (two rendering passes; off: no colour topic)")
    ap.add_argument("--workdir", type=Path, help="where scenes and stores go (default: a temp dir, removed); "
                    "a scene already there from the same generator and settings is reused")
    ap.add_argument("--json", type=Path, help="write all scores (and snapshots) here")
    ap.add_argument("--compare", type=Path, nargs=2, metavar=("A", "B"), help="print two result files side by side")
    ap.add_argument("--rescore", type=Path, metavar="RESULTS",
                    help="score the memory snapshots of an earlier --json run again with this scorer (its scenes must "
                    "still be where it ran them); with --json, write the rescored results there")
    ap.add_argument("--held-out", action="store_true",
                    help=f"allow seeds >= {HELD_OUT_FROM} (held out: run once, at the end, by the lead)")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.compare:
        a, b = (json.loads(p.read_text()) for p in args.compare)
        print(compare(a, b))
        return 0
    if args.rescore:
        return rescore(args.rescore, args.json)
    held = [s for s in args.seeds if s >= HELD_OUT_FROM]
    if held and not args.scene and not args.held_out:
        print(f"tempomem_eval: seeds {held} are held out (>= {HELD_OUT_FROM}); they are run once, at the end, "
              "with --held-out. Develop on seeds 1-3 and 11-40.", file=sys.stderr)
        return 2
    os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
    work = args.workdir or Path(tempfile.mkdtemp(prefix="tempomem_eval_"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        scenes = [(Path(s), None) for s in (args.scene or [])]
        if not scenes:
            for seed in args.seeds:
                t0 = time.perf_counter()
                scene_dir, reused = generate(seed, work, args)
                scenes.append((scene_dir, None if reused else round(time.perf_counter() - t0, 1)))
                print(f"{'reused' if reused else 'generated'} seed {seed} ({args.profile}) "
                      f"in {time.perf_counter() - t0:.1f} s: {scene_dir}", file=sys.stderr)
        runs = []
        for scene, gen_s in scenes:
            runs.append(run_scene(scene, args.mode, work))
            runs[-1]["gen_s"] = gen_s
            print(f"scored {scene} ({args.mode}) in {runs[-1]['wall_s']} s", file=sys.stderr)
        print(report(runs))
        if args.json:
            args.json.write_text(json.dumps({"config": {k: str(v) for k, v in vars(args).items()},
                                             "runs": runs,
                                             "pooled": pooled(runs)},
                                            indent=1, sort_keys=True))
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
