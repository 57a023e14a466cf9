"""Same memory with and without thinning on generated scenes: every object, placement and event compared, and the
evaluation scores of both (tempomem_eval's offline path: perception math + core, no ROS).

    .venv/bin/python bench/retention_eval.py --seeds 1 2 3 11 12 [--commit-every 4] [--workdir DIR]

Why next to test/test_retention_answers.py: that test replays the household simulator through the core API; this
replays the realistic scene generator's bags (look-alike confusions, twins, reconciled moves, a pushed chair,
patrols) through the perception as tempomem_eval does. Scene generation takes about 50 s a seed, too long for CI.
Prints, per seed, whether the two stores hold the same objects, placements and events (evidence left out: a thinned
store cites kept observations only), the observations each keeps, and both pooled scores.
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

from tempomem_ros.perception import PerceptionConfig
from tempomem_ros.tools.evaluate import NOISE_NAMES, _load_scene, generate, memory_params, perception_params
from tempomem_ros.tools.evaluation.offline import run_offline
from tempomem_ros.tools.evaluation.report import summary
from tempomem_ros.tools.evaluation.score import score_all
from tempomem_ros.tools.evaluation.snapshot import snapshot_from_memory

SCORES = ("object_f1_label", "moved_f1", "removed_f1", "duplicate_rate")


def _events(memory):
    return [dataclasses.replace(e, evidence=()) for e in memory.events()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--commit-every", type=int, default=4)
    ap.add_argument("--workdir", type=Path)
    ap.add_argument("--noise", default="default", choices=NOISE_NAMES,
                    help="the scenes' noise preset (figures before stop 51: plain)")
    args = ap.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="retention_eval_"))
    work.mkdir(parents=True, exist_ok=True)
    same_all = True
    try:
        for seed in args.seeds:
            scene, _ = generate(seed, work, SimpleNamespace(profile="default", width=320, height=240, visits=4,
                                                            fps=None, noise=args.noise))   # reused when there
            gt, questions = _load_scene(scene)
            mems = {}
            for mode in ("thin", "keep-all"):
                store = work / f"seed{seed}-{mode}.db"
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{store}{suffix}").unlink(missing_ok=True)
                mems[mode] = run_offline(scene / "bag", str(store),
                                         perception=PerceptionConfig(**perception_params(gt)),
                                         embedding_dim=memory_params(gt).get("embedding_dim", 32),
                                         memory_config={"retention": {"mode": mode}}, commit_every=args.commit_every)
            thin, full = mems["thin"], mems["keep-all"]
            same = thin.objects() == full.objects() and _events(thin) == _events(full) and all(
                thin.placements(o.id) == full.placements(o.id) for o in full.objects())
            same_all &= same
            approx = sum(1 for a in thin.audit() if a.action == "rebuild")
            scores = {m: summary({"scores": score_all(gt, questions, snapshot_from_memory(mem, gt, questions))})
                      for m, mem in mems.items()}
            s, f = thin.retention_stats(), full.retention_stats()
            print(f"seed {seed}: same objects, placements and events: {same}; approximate rebuilds {approx}; "
                  f"observations kept {s['observations']} of {f['observations']} ({s['thinned_sightings']} counted "
                  f"in tallies); " + "; ".join(f"{m} " + " ".join(f"{k} {scores[m].get(k, float('nan')):.3f}"
                                                                   for k in SCORES) for m in mems), flush=True)
            for m in mems.values():
                m.close()
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"retention eval: {'the same memory' if same_all else 'DIFFERENT memories'} with and without thinning "
          f"on seeds {' '.join(map(str, args.seeds))}")
    return 0 if same_all else 1


if __name__ == "__main__":
    sys.exit(main())
