"""tempomem_eval: generate scenes, run the memory on them (through the nodes by default), score, report.

    tempomem_eval --seeds 1 2 3 --json results.json            # the published figures (docs/RESULTS.md)
    tempomem_eval --seeds 1 --mode offline                     # perception + core only, no ROS
    tempomem_eval --scene DIR                                  # a scene already written by scenegen
    tempomem_eval --compare before.json after.json             # two runs side by side

Why one command: the published numbers must be reproducible by anyone with one line, and a change to the
memory must be comparable against the previous run (--compare). Scoring rules: tools/evaluation/score.py.
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

import numpy as np

from tempomem_ros.tools.evaluation.score import score_all



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
    return {"scene": str(scene_dir), "seed": gt.get("seed"), "mode": mode, "wall_s": round(wall, 2),
            "frames": len(gt["frames"]), "questions": len(questions), "run": info, "scores": scores,
            "snapshot": snap}


def generate(seed: int, out: Path, args) -> Path:
    from tempomem_ros.tools.scenegen import SceneConfig, generate_scene, write_scene
    cfg = SceneConfig(profile=args.profile, width=args.width, height=args.height, visits=args.visits, fps=args.fps,
                      noise=args.noise)
    scene_dir = out / f"seed{seed}-{args.profile}"
    write_scene(generate_scene(seed, cfg), scene_dir, overwrite=True, color=False)
    return scene_dir


# ------------------------------------------------------------------------------------------ reporting
def summary(run: dict) -> dict:
    """The headline figures of one run (flat, for tables and floors)."""
    s = run["scores"]
    fm, ch, qs = s["final_map"], s["changes"], s["questions"]
    out = {
        "object_f1_label": fm["label_rule"]["f1"], "object_f1_iou": fm["iou_rule"]["f1"],
        "duplicate_rate": fm["duplicate_rate"], "centroid_error_m": fm["centroid_error_median"],
        "label_accuracy": fm["label_accuracy"],
        "map_f1_min_over_times": min(m["label_rule"]["f1"] for m in s["maps"].values()),
        "moved_f1": ch["moved"]["f1"], "removed_f1": ch["removed"]["f1"], "appeared_f1": ch["appeared"]["f1"],
        "false_removal_rate": ch["false_removal_rate"], "false_removal_rate_hard": ch["false_removal_rate_hard_cases"],
        "delay_median_s": ch["delay_median_s"],
    }
    for op, v in sorted(qs.items()):
        out[f"q:{op}"] = v["accuracy"]
    return out


def pooled(runs: list[dict]) -> dict:
    """Means of the per-run figures; question accuracies pooled over all questions of all runs."""
    keys = [k for k in summary(runs[0]) if not k.startswith("q:")]
    out = {}
    for k in keys:
        vals = [summary(r)[k] for r in runs if summary(r)[k] is not None]
        out[k] = float(np.mean(vals)) if vals else None
    ops = sorted({op for r in runs for op in r["scores"]["questions"]})
    for op in ops:
        n = sum(r["scores"]["questions"].get(op, {}).get("n", 0) for r in runs)
        c = sum(r["scores"]["questions"].get(op, {}).get("correct", 0) for r in runs)
        out[f"q:{op}"] = c / n if n else None
        out[f"n:{op}"] = n
    ch = [r["scores"]["changes"] for r in runs]
    for kind in ("appeared", "moved", "removed"):
        tp, fp, fn = (sum(c[kind][x] for c in ch) for x in ("tp", "fp", "fn"))
        p = tp / (tp + fp) if tp + fp else 1.0
        rc = tp / (tp + fn) if tp + fn else 1.0
        out[f"{kind}_f1_pooled"] = 2 * p * rc / (p + rc) if p + rc else 0.0
        out[f"{kind}_counts"] = f"{tp}/{fp}/{fn}"
    return out


def _fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def table(columns: dict[str, dict]) -> str:
    keys = []
    for col in columns.values():
        for k in col:
            if k not in keys:
                keys.append(k)
    width = max(len(k) for k in keys) + 2
    head = "".join(f"{name:>14}" for name in columns)
    lines = [f"{'metric':<{width}}{head}"]
    lines.append("-" * len(lines[0]))
    for k in keys:
        lines.append(f"{k:<{width}}" + "".join(f"{_fmt(col.get(k)):>14}" for col in columns.values()))
    return "\n".join(lines)


def report(runs: list[dict]) -> str:
    cols = {f"seed {r['seed']}": summary(r) for r in runs}
    if len(runs) > 1:
        cols["all"] = pooled(runs)
    text = [table(cols)]
    for r in runs:
        wrong = [(op, w["text"], w["detail"]) for op, v in r["scores"]["questions"].items() for w in v["wrong"]]
        ch = r["scores"]["changes"]
        extras = [f"seed {r['seed']} ({r['mode']}, {r['frames']} frames, {r['questions']} questions, {r['wall_s']} s)"]
        for kind in ("appeared", "moved", "removed"):
            if ch[kind]["false_events"] or ch[kind]["missed"]:
                extras.append(f"  {kind}: false {ch[kind]['false_events']} missed {ch[kind]['missed']}")
        extras += [f"  wrong {op}: {t!r} ({d})" for op, t, d in wrong[:10]]
        text.append("\n".join(extras))
    return "\n\n".join(text)


def compare(a: dict, b: dict) -> str:
    ra, rb = a["runs"], b["runs"]
    pa = pooled(ra) if len(ra) > 1 else summary(ra[0])
    pb = pooled(rb) if len(rb) > 1 else summary(rb[0])
    delta = {k: (pb[k] - pa[k]) if isinstance(pa.get(k), float) and isinstance(pb.get(k), float) else None
             for k in pb}
    return table({"A": pa, "B": pb, "B - A": delta})


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
    ap.add_argument("--noise", default="default")
    ap.add_argument("--workdir", type=Path, help="where scenes and stores go (default: a temp dir, removed)")
    ap.add_argument("--json", type=Path, help="write all scores (and snapshots) here")
    ap.add_argument("--compare", type=Path, nargs=2, metavar=("A", "B"), help="print two result files side by side")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.compare:
        a, b = (json.loads(p.read_text()) for p in args.compare)
        print(compare(a, b))
        return 0
    os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
    work = args.workdir or Path(tempfile.mkdtemp(prefix="tempomem_eval_"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        scenes = list(args.scene or [])
        if not scenes:
            for seed in args.seeds:
                t0 = time.perf_counter()
                scenes.append(generate(seed, work, args))
                print(f"generated seed {seed} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        runs = []
        for scene in scenes:
            runs.append(run_scene(Path(scene), args.mode, work))
            print(f"scored {scene} ({args.mode}) in {runs[-1]['wall_s']} s", file=sys.stderr)
        print(report(runs))
        if args.json:
            args.json.write_text(json.dumps({"config": {k: str(v) for k, v in vars(args).items()},
                                             "runs": runs,
                                             "pooled": pooled(runs) if len(runs) > 1 else summary(runs[0])},
                                            indent=1, sort_keys=True))
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
