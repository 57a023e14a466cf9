"""Time to refuse a text far longer than a question (issue 13, seventeenth round): the readers of talk read a text
whole, and the sixteenth round's review found a 32 kB text taking seconds to refuse.

    source .tempomem_env.sh && python bench/bench_long_question.py

Prints the seconds of one ``understand`` per text and what it answered; never asserted (this machine is shared).
Run it with ``PYTHONPATH`` set to each tree to compare them side by side.
"""

from __future__ import annotations

import datetime as dt
import time

from tempomem_ros.core.answering import Names, understand

NOW = dt.datetime(2026, 1, 15, 14, 30, tzinfo=dt.timezone.utc).timestamp()  # question_eval.py's moment
TEXTS = (("32 kB of words", "word " * 6400), ("34 kB of a question", "where is the mug " * 2000),
         ("600 characters", "where is the mug " * 35))


def main() -> int:
    names = Names(["mug", "keys", "table"], ["kitchen"])
    for name, text in TEXTS:
        t = time.perf_counter()
        out = understand(text, NOW, names)
        took = time.perf_counter() - t
        print(f"{name:22s} {took:8.3f} s  {type(out).__name__}: {getattr(out, 'reason', '')[:70]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
