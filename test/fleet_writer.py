"""One robot's writer process for the fleet tests (test/test_fleet_writers.py): its own Memory on a shared store.

    python test/fleet_writer.py ADDRESS SOURCE

Opens the store (so both robots' writers exist, with their caches, before either writes) and prints
"ready"; then runs each plan read from stdin (one JSON line each: a list of frames
``{"obs": [[label, [x, y, z], stamp], ...], "view": [stamp, [x, y, z], depth] | null, "commit": bool}``)
and answers each with one JSON line: the observation ids it staged, how many each commit fused, the camera views
each commit fused, and the object count its last commit reported.

The fuser of a fleet (docs/FLEET.md, "Staging beside fusion") takes other plans: ``{"fuse": N}`` commits until N
frames have been fused (answering with each batch's frame ids, its fused observations and views), and
``{"fuse": N, "stop_after": K}`` fuses frames until K of one batch are fused inside the open transaction, then
prints "mid-batch" and waits to be killed (the crash test).
"""

from __future__ import annotations

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from core_helpers import IMMEDIATE, box_obs, view  # noqa: E402

from tempomem_ros.core import Memory  # noqa: E402


def main(address: str, source: str) -> None:
    with Memory.open(address, embedding_dim=4, config={**IMMEDIATE, "source": source}) as m:
        print("ready", flush=True)
        for line in sys.stdin:
            run(m, json.loads(line))


def fuse(m: Memory, plan: dict) -> None:
    """The fleet's fuser: commit every staged frame, batch after batch, until plan["fuse"] frames are fused."""
    stop_after = plan.get("stop_after")
    if stop_after is not None:  # the crash: K frames fused inside the batch's open transaction, then killed
        real, done = m._fusion.fuse_frame, [0]

        def fuse_frame(*args, **kwargs):
            if done[0] == stop_after:
                print("mid-batch", flush=True)
                time.sleep(600)
            done[0] += 1
            return real(*args, **kwargs)
        m._fusion.fuse_frame = fuse_frame
    batches, fused, deadline = [], 0, time.monotonic() + 120.0
    while fused < plan["fuse"] and time.monotonic() < deadline:
        if not m.pending():
            time.sleep(0.002)
            continue
        stats = m.commit()
        batches.append({"frames": list(stats.frame_ids), "fused": stats.observations_committed, "views": stats.views})
        fused += len(stats.frame_ids)
    print(json.dumps({"batches": batches}), flush=True)


def run(m: Memory, plan) -> None:
    if isinstance(plan, dict):
        fuse(m, plan)
        return
    ids, fused, views, objects_after = [], [], [], None
    for frame in plan:
        obs = [box_obs(label, center, stamp=stamp) for label, center, stamp in frame["obs"]]
        v = None if frame.get("view") is None else view(frame["view"][0], frame["view"][1], frame["view"][2])
        ids.extend(m.add(obs, v))
        time.sleep(frame.get("pause", 0.0))
        if frame.get("commit", True):
            stats = m.commit()
            fused.append(stats.observations_committed)
            views.append(stats.views)
            objects_after = stats.objects_after
    print(json.dumps({"ids": ids, "fused": fused, "views": views, "objects_after": objects_after}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
