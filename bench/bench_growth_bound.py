"""What the box growth bound costs in accuracy: generated scenes offline, fusion.box_growth_factor varied.

Run: .venv/bin/python bench/bench_growth_bound.py [--seeds 1 2 3 4 5] [--factors 1000 4 2]
Prints the pooled headline figures per factor (1000 = effectively no bound: no single view is 1000x an
object's size; it also switches off the scale check of the identity and twin rules). Scenes are generated
at run time (profile "default": no features, the scene generator's detection model; 320x240) and evaluated
offline (perception + core, the same code path as the nodes; tools/evaluate.py).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from tempomem_ros.perception import PerceptionConfig
from tempomem_ros.tools import evaluate
from tempomem_ros.tools.evaluation import report
from tempomem_ros.tools.evaluation.offline import evaluate_offline
from tempomem_ros.tools.evaluation.score import score_all


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    ap.add_argument("--factors", type=float, nargs="+", default=[1000.0, 4.0, 2.0])
    ap.add_argument("--workdir", type=Path, help="keep the generated scenes here (reused by the next run)")
    ap.add_argument("--noise", default="default", choices=evaluate.NOISE_NAMES,
                    help="the scenes' noise preset (figures before stop 51: plain)")
    args = ap.parse_args(argv)
    gen = argparse.Namespace(profile="default", width=320, height=240, visits=4, fps=None, noise=args.noise)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.workdir:
            work = args.workdir
            work.mkdir(parents=True, exist_ok=True)
        generated = [evaluate.generate(seed, work, gen) for seed in args.seeds]
        scenes = [g[0] if isinstance(g, tuple) else g for g in generated]  # (dir, reused) in newer versions
        columns = {}
        for factor in args.factors:
            runs, t0 = [], time.perf_counter()
            for scene in scenes:
                gt, questions = evaluate._load_scene(scene)
                store = work / f"{scene.name}-{factor:g}.db"
                snap = evaluate_offline(scene / "bag", str(store), gt, questions,
                                        perception=PerceptionConfig(**evaluate.perception_params(gt)),
                                        embedding_dim=evaluate.memory_params(gt).get("embedding_dim", 32),
                                        memory_config={"fusion": {"box_growth_factor": factor}})
                runs.append({"scores": score_all(gt, questions, snap), "seed": gt.get("seed")})
            pooled = report.pooled(runs)
            columns[f"factor {factor:g}"] = {k: v for k, v in pooled.items() if not k.startswith("n:")}
            print(f"factor {factor:g}: {len(scenes)} scenes in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    print(f"seeds {' '.join(map(str, args.seeds))} (offline, profile default, noise {args.noise}, pooled)")
    print(report.table(columns))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
