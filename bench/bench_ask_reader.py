"""Does the similarity reader cost the questions the rules read anything? (issue 13, seventh round)

The reader (core/answering/similar.py) is asked only about questions every rule refuses, so a question the rules
read should take the same time with the sentence model attached as without it. This asks every question of the
sets that the rules read through ``Memory.ask`` on the bench memory (question_eval.build_memory), in passes that
alternate the reader off and on (the model loaded and the table embedded once, before the first pass), and prints
p50 / p95 per pass; then the questions the rules refuse, with the reader on, once (what a refusal pays now).

    source .tempomem_env.sh && python bench/bench_ask_reader.py [--passes 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import question_eval as qe  # noqa: E402


def _pct(ms: list[float]) -> str:
    ms = sorted(ms)
    return f"p50 {ms[len(ms) // 2]:.2f} ms, p95 {ms[min(len(ms) - 1, int(0.95 * len(ms)))]:.2f} ms (n={len(ms)})"


def _ask_ms(m, texts) -> list[float]:
    """Milliseconds of each Memory.ask, in order."""
    ms = []
    for t in texts:
        t0 = time.perf_counter()
        m.ask(t, now=qe.NOW)
        ms.append(1000 * (time.perf_counter() - t0))
    return ms


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--passes", type=int, default=3)
    args = p.parse_args(argv)
    texts = [q.text for _, rows in qe.select_sets("all") for q in rows]
    with tempfile.TemporaryDirectory() as tmp:
        m = qe.build_memory(os.path.join(tmp, "questions.db"))
        try:
            ruled = [t for t in texts if m.ask(t, now=qe.NOW).understood]
            refused = [t for t in texts if t not in set(ruled)]
            qe.attach_model(m)
            reader = m._question_reader
            for i in range(2 * args.passes):
                on = i % 2 == 1
                m._question_reader = reader if on else None
                print(f"pass {i + 1}, reader {'on ' if on else 'off'}: questions the rules read: "
                      f"{_pct(_ask_ms(m, ruled))}")
            m._question_reader = reader
            print(f"reader on: questions the rules refuse: {_pct(_ask_ms(m, refused))}")
        finally:
            m.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
