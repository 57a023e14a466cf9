"""One robot's writer process for the fleet tests (test/test_fleet_writers.py): its own Memory on a shared store.

    python test/fleet_writer.py ADDRESS SOURCE

Opens the store (so both robots' writers exist, with their caches, before either writes) and prints
"ready"; then runs each plan read from stdin (one JSON line each: a list of frames
``{"obs": [[label, [x, y, z], stamp], ...], "view": [stamp, [x, y, z], depth] | null, "commit": bool}``)
and answers each with one JSON line: the observation ids it staged, how many each commit fused, the camera views
each commit fused, and the object count its last commit reported.
"""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from core_helpers import IMMEDIATE, box_obs, view  # noqa: E402

from tempomem_ros.core import Memory  # noqa: E402


def main(address: str, source: str) -> None:
    with Memory.open(address, embedding_dim=4, config={**IMMEDIATE, "source": source}) as m:
        print("ready", flush=True)
        for line in sys.stdin:
            run(m, json.loads(line))


def run(m: Memory, plan: list) -> None:
    ids, fused, views, objects_after = [], [], [], None
    for frame in plan:
        obs = [box_obs(label, center, stamp=stamp) for label, center, stamp in frame["obs"]]
        v = None if frame.get("view") is None else view(frame["view"][0], frame["view"][1], frame["view"][2])
        ids.extend(m.add(obs, v))
        if frame.get("commit", True):
            stats = m.commit()
            fused.append(stats.observations_committed)
            views.append(stats.views)
            objects_after = stats.objects_after
    print(json.dumps({"ids": ids, "fused": fused, "views": views, "objects_after": objects_after}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
