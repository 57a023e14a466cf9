"""The fuser's CPU by function, without cProfile: bench_fuser_batch.py run with named functions wrapped.

Why: cProfile charges every call its own overhead, so a profile of the fuser (thousands of small calls a frame)
overstates the small functions; here each named function adds its process time (time.process_time) while the fuser
commits, and nothing else is timed (the robots' staging in the same process is left out). A function inside another
counts in both. Prints, for each, the total, the calls, the time per call and its share of Memory.commit.

    python bench/bench_fuser_functions.py --batches 16 --frames 64 --rounds 1 --top 0 [bench_fuser_batch's options]
"""

from __future__ import annotations

import collections
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tempomem_ros.core import frame_fusion as ff  # noqa: E402
from tempomem_ros.core import fusion as fu  # noqa: E402
from tempomem_ros.core import memory as mm  # noqa: E402
from tempomem_ros.core import settling as st  # noqa: E402
from tempomem_ros.core.postgres import connection as pc  # noqa: E402
from tempomem_ros.core.store import base as sb  # noqa: E402
from tempomem_ros.core.store import fusion_rows as fr  # noqa: E402
from tempomem_ros.core.store import graph_writes as gw  # noqa: E402

FUNCTIONS = [
    (ff.FrameFusion, "fuse_frame"), (ff.FrameFusion, "_merge"), (ff.FrameFusion, "_score"),
    (ff.FrameFusion, "_absence"), (ff.FrameFusion, "_join_parts"), (st.Settling, "settle"),
    (st.Settling, "_merge_twins"), (st.Settling, "_near_twin"), (ff.FrameFusion, "_prefetch_scoring"),
    (ff.FrameFusion, "_prefetch_confusions"), (ff.FrameFusion, "_pushed_aside"), (ff.FrameFusion, "_could_be"),
    (ff.FrameFusion, "_at_place"), (ff.FrameFusion, "_add_label_mass"), (ff.FrameFusion, "_verdict"),
    (ff.FrameFusion, "_audit"), (sb.Store, "objects_in_boxes"), (pc.PgConnection, "execute"),
    (pc.PgConnection, "_execute"), (pc.PgConnection, "fetch_many"), (pc.PgConnection, "_send_held"),
    (pc.PgConnection, "_send_write"), (fu, "merge_geometry"), (fu, "score"), (fu, "merge_feature"),
    (fr.FusionRows, "merge_into"), (fr.FusionRows, "widen_placement"), (gw.GraphWrites, "update_rtree"),
    (gw.GraphWrites, "relation_box_changed"), (gw.GraphWrites, "object_rows_ahead"), (gw.GraphWrites, "label_mass"),
    # module functions by the name their caller looks up: frame_fusion's own _rigid_box and same_place, the
    # connection's read_statement and set_statement (batching's, imported by name)
    (ff, "_rigid_box"), (ff, "same_place"), (ff, "score_against"), (pc, "read_statement"), (pc, "set_statement"),
]
spent: collections.Counter = collections.Counter()
calls: collections.Counter = collections.Counter()
inside = [0]  # > 0 while the fuser commits


def _wrap(owner, name: str, label: str, outer: bool = False) -> None:
    f = getattr(owner, name)

    def timed(*args, **kwargs):
        if not (outer or inside[0]):
            return f(*args, **kwargs)
        inside[0] += outer
        t = time.process_time()
        try:
            return f(*args, **kwargs)
        finally:
            spent[label] += time.process_time() - t
            calls[label] += 1
            inside[0] -= outer

    setattr(owner, name, timed)


def main() -> None:
    for owner, name in FUNCTIONS:
        if hasattr(owner, name):
            _wrap(owner, name, f"{getattr(owner, '__name__', owner).split('.')[-1]}.{name}")
    _wrap(mm.Memory, "commit", "Memory.commit", outer=True)
    import bench_fuser_batch

    try:
        bench_fuser_batch.main()
    finally:
        total = spent["Memory.commit"]
        for label, s in spent.most_common():
            print(f"{label:36s} {s * 1000:9.1f} ms {calls[label]:7d} calls {s / calls[label] * 1e6:9.1f} us/call "
                  f"{100 * s / total if total else 0.0:5.1f} %")


if __name__ == "__main__":
    main()
