"""The main job, end to end: a scene replayed through both nodes, then questions asked over ROS services.

    python -m tempomem_ros.tools.demo [--out out/demo] [--seed 7]      (scripts/demo.sh runs it after setup)

Why a generated scene: the bundled scene is a fixed seed of the scene generator (tools/scenegen), written
at run time (a 100 MB bag does not belong in git) and identical on every machine. The demo starts the
perception and memory nodes in one process (no launch system needed), replays the bag with
tempomem_replay's API, asks the memory the questions a user would ask with `ros2 service call
/tempomem/query`, prints every answer with the observations it cites, and renders a top-down map PNG.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

QUESTIONS_PER_KIND = 2
EXTRA_QUESTIONS = ["find something to drink from", "where can I sit", "what is within 1 m of 1 1 0.5",
                   "what changed in the last 30 minutes", "tell me a joke"]


def pick_questions(questions: list[dict]) -> list[str]:
    """A few generated questions of every kind, then the extra ones (including one not understood)."""
    seen: dict[str, int] = {}
    picked = []
    for q in questions:
        kind = q["operator"] if q["operator"] != "relational" else f"relational:{q['args']['relation']}"
        if seen.get(kind, 0) < QUESTIONS_PER_KIND:
            seen[kind] = seen.get(kind, 0) + 1
            picked.append(q["text"])
    return picked + EXTRA_QUESTIONS


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="tempomem_demo", description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path("out/demo"))
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--label-encoder", default="minilm", choices=("none", "minilm", "hashing"))
    args = ap.parse_args(argv)
    os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")

    from tempomem_ros.srv import Query
    from tempomem_ros.tools import cli
    from tempomem_ros.tools.evaluation.pipeline import NodesPipeline
    from tempomem_ros.tools.scenegen import SceneConfig, generate_scene, write_scene

    args.out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    paths = write_scene(generate_scene(args.seed, SceneConfig()), args.out / "scene", overwrite=True)
    gt = json.loads(Path(paths.ground_truth).read_text())
    questions = json.loads(Path(paths.questions).read_text())
    questions = questions["questions"] if isinstance(questions, dict) else questions
    print(f"scene seed {args.seed}: {len(gt['frames'])} frames, {len(gt['objects'])} objects, "
          f"{len(gt['events'])} true changes ({time.perf_counter() - t0:.1f} s) -> {paths.bag}")
    store = args.out / "memory.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{store}{suffix}").unlink(missing_ok=True)
    with NodesPipeline(store, perception_params={"min_mask_pixels": 5},
                       memory_params={"label_encoder": args.label_encoder}) as pipe:
        t1 = time.perf_counter()
        info = pipe.replay(paths.bag, len(gt["frames"]))
        print(f"replayed {sum(info['replayed'].values())} messages through perception_node -> memory_node "
              f"in {time.perf_counter() - t1:.1f} s ({info['perception']['observations_published']} observations, "
              f"{info['commits']} commits)\n")
        for text in pick_questions(questions):
            r = pipe.call(Query, "query", Query.Request(question=text, k=10))
            cites = f"  [evidence: observations {list(r.evidence)[:8]}{'...' if len(r.evidence) > 8 else ''}]" \
                if len(r.evidence) else ""
            print(f"Q: {text}\nA: ({r.operation or 'not understood'}) {r.answer}{cites}\n")
    png = args.out / "map.png"
    cli.main(["render", str(store), str(png)])
    print(f"map: {png}\nstore: {store}  (inspect with: tempomem objects {store}; tempomem events {store})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
