"""Time to understand a question (issue 13): the forms, the second reader (cues.py) and the clauses of talk, on
every question set, against the labels of a large map.

Why apart from bench/bench_services.py: that benchmark asks five questions the forms take, so the second reader
and the clause reader never run in it; this one asks the 1,500 questions of the sets, most of them read by the
forms, the rest by the later readers or refused after all three (the slowest path), each against a Names of
N labels (the household's plus "<kind> <k>" variants, as a 10,000-object map's labels share words).

    source .tempomem_env.sh && python bench/bench_understand.py [--labels N] [--repeat K]

Prints p50 / p95 / max milliseconds per question, over all and for the refused ones; never asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import question_eval as qe  # noqa: E402

from tempomem_ros.core.answering import Names, Understanding, understand  # noqa: E402

KINDS = ("table", "desk", "shelf", "counter", "stool", "mug", "book", "bottle", "plant", "phone")


def question_texts() -> list[str]:
    rows = qe.load()
    sets = [rows, qe.load(qe.QUESTIONS_HELDOUT2, "h"), qe.load(qe.QUESTIONS_HELDOUT3, "k"),
            qe.load(qe.QUESTIONS_HELDOUT4, "f")]
    for name in ("QUESTIONS_HELDOUT6", "QUESTIONS_HELDOUT7"):  # the sets a tree has (an older tree has fewer)
        if hasattr(qe, name) and os.path.exists(getattr(qe, name)):
            sets.append(qe.load(getattr(qe, name), "w"))
    return [r.text for rows_ in sets for r in rows_]


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    labels = list(qe.SMALL) + list(qe.FURNITURE) + [f"{KINDS[k % len(KINDS)]} {k}" for k in range(a.labels)]
    names = Names(labels, list(qe.REGIONS))
    texts = question_texts()
    all_ms, refused_ms = [], []
    for _ in range(a.repeat):
        for q in texts:
            t0 = time.perf_counter()
            out = understand(q, qe.NOW, names)
            ms = (time.perf_counter() - t0) * 1000
            all_ms.append(ms)
            if not isinstance(out, Understanding):
                refused_ms.append(ms)
    print(f"{len(texts)} questions x {a.repeat}, {len(labels)} labels")
    for name, xs in (("all", all_ms), ("refused", refused_ms)):
        print(f"  {name:8s} n={len(xs):5d}  p50 {pct(xs, 50):6.2f} ms  p95 {pct(xs, 95):6.2f} ms  "
              f"max {max(xs):7.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
