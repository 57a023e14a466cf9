"""Every answer of long_run_paired.py's requests written out as text, to compare two trees on the same stores.

    PYTHONPATH=OLD_TREE python bench/long_run_answers.py STORE.day1 STORE.day30 --out old.txt
    PYTHONPATH=NEW_TREE python bench/long_run_answers.py COPY.day1 COPY.day30 --out new.txt
    cmp old.txt new.txt

Why: a change that makes a service read less must give the same answers; the paired phase's requests (by label,
by time, by id, the yes/no checks) on a month's stores cover what a unit test's scene does not. One line per
request: the side, the service, the request's index and repr() of what it returned (every field of an Answer).
"""

from __future__ import annotations

import argparse
import importlib.util
import os

import numpy as np

from tempomem_ros.core import Memory
from tempomem_ros.semantics.text_encoder import HashingTextEncoder
from tempomem_ros.tools.household import ITEMS

spec = importlib.util.spec_from_file_location(
    "bench_long_run", os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_long_run.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("first")
    ap.add_argument("last")
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    dim, features = bench.kept_store_settings(args.first)
    labels = sorted({item[0] for item in ITEMS})
    stores = [Memory.open(p, embedding_dim=dim, readonly=True, label_encoder=HashingTextEncoder(),
                          clip_text_encoder=bench.TextTower(dim) if features else None)
              for p in (args.first, args.last)]
    plans = {side: bench.service_calls(m, labels, np.random.default_rng(args.seed), args.calls)
             for side, m in zip(("first", "last"), stores)}
    lo, hi = bench.house_t0(0), stores[0].latest_stamp()
    ids = [o.id for o in stores[0].objects() if o.state in ("present", "missing")]
    for side, m in zip(("first", "last"), stores):
        plans[side].update(bench.same_question_calls(m, labels, lo, hi, np.random.default_rng(args.seed + 1),
                                                     args.calls, ids))
    n = 0
    with open(args.out, "w") as f:
        for side, plan in plans.items():
            for service in sorted(plan):
                for i, call in enumerate(plan[service]):
                    f.write(f"{side} {service} {i} {call()!r}\n")
                    n += 1
    for m in stores:
        m.close()
    print(f"{n} answers -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
