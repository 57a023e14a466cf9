"""Calibration of the similarity reader (core/answering/similar.py): its floor and margin, from the dev sets.

Every question of the chosen sets (default: every set question_eval.py knows, all of them development sets by
now) is read by the similarity reader ALONE, whether the rules understand it or not, against the bench memory's
names (question_eval.build_memory), and judged like question_eval judges an answer. A reading whose arguments
the parsers fill is a candidate; printed: the similarity and margin of right against wrong candidates
(quantiles, and the nearest wrong ones), and for a grid of floors and margins how many candidates would be taken
right and wrong, over all questions and over the questions the rules refuse (what the reader is for).
Then each set as question_eval scores it with the reader behind the rules at the module's FLOOR / MARGIN, and
the reader's cost per question.

    source .tempomem_env.sh && python bench/question_similarity.py [--set all] [--floor F --margin M]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import question_eval as qe  # noqa: E402
from tempomem_ros.core.answering import similar  # noqa: E402
from tempomem_ros.core.answering.answers import names_of  # noqa: E402
from tempomem_ros.core.types import Answer  # noqa: E402

FLOORS = [round(0.60 + 0.025 * i, 3) for i in range(15)]
MARGINS = [0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.10]


def _q(values, qs=(0.0, 0.1, 0.5, 0.9, 1.0)) -> str:
    if not values:
        return "-"
    return " / ".join(f"{np.quantile(values, q):.3f}" for q in qs)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--set", dest="qset", default="all", choices=("main", "heldout2", "heldout3", "heldout4",
                   "heldout5", "heldout6", "heldout7", "heldout8", "heldout9", "heldout10", "dev", "all"))
    p.add_argument("--floor", type=float, default=similar.FLOOR)
    p.add_argument("--margin", type=float, default=similar.MARGIN)
    p.add_argument("--per-form", type=int, default=similar.PER_FORM)
    p.add_argument("--vectors", default="", help="a .npz file keeping the sentence vectors between runs (the "
                   "encoder is a pure function of the text, so this only saves time)")
    args = p.parse_args(argv)
    from tempomem_ros.semantics.text_encoder import SentenceLabelEncoder
    enc = SentenceLabelEncoder(cache_size=1 << 20)
    if args.vectors and os.path.exists(args.vectors):
        kept = np.load(args.vectors, allow_pickle=False)
        for text, row in zip(kept["texts"], kept["vectors"]):
            row = row.copy()
            row.setflags(write=False)
            enc._remember(str(text), row)
    t0 = time.perf_counter()
    enc.load()
    t_load = time.perf_counter() - t0
    reader = similar.SimilarityReader(enc, args.floor, args.margin, args.per_form)
    t0 = time.perf_counter()
    reader.prepare()
    t_table = time.perf_counter() - t0
    print(f"model load {t_load:.1f} s; {len(reader._rows)} canonical sentences embedded in {t_table:.1f} s")
    sets = qe.select_sets(args.qset)
    cand = []  # (set, question, rules verdict, Match, verdict of the match)
    costs = []
    with tempfile.TemporaryDirectory() as tmp:
        m = qe.build_memory(os.path.join(tmp, "questions.db"))
        try:
            names = names_of(m)
            qnames = qe.known_names(m)
            for half, rows in sets:
                for q, v, _why, _a in qe.evaluate(rows, m):
                    t0 = time.perf_counter()
                    mt = reader.match(q.text, qe.NOW, names)
                    final = reader.match_clauses(q.text, qe.NOW, names)
                    costs.append(time.perf_counter() - t0)
                    fv = None
                    if reader._taken(final):
                        fv = qe.judge(q, Answer(True, final.operator, "", found=True, arguments=dict(final.args)),
                                      qnames, qe.NOW)[0]
                    rules = "understood" if v == "wrong" or (v == "right" and q.op != "refuse") else "refused"
                    if mt is None or mt.args is None:
                        cand.append((half, q, v, mt, None, rules, final, fv))
                        continue
                    ans = Answer(True, mt.operator, "", found=True, arguments=dict(mt.args))
                    verdict, why = qe.judge(q, ans, qnames, qe.NOW)
                    cand.append((half, q, v, mt, verdict, rules, final, fv))
        finally:
            m.close()
    filled = [c for c in cand if c[4] is not None]
    if args.vectors:
        with enc._lock:
            texts = list(enc._cache)
            np.savez(args.vectors, texts=np.array(texts), vectors=np.stack([enc._cache[t] for t in texts]))
    for name, sel in (("all questions", filled), ("not understood by the rules (incl. those to refuse)",
                                                  [c for c in filled if c[5] == "refused"])):
        right = [c for c in sel if c[4] == "right"]
        wrong = [c for c in sel if c[4] != "right"]
        print(f"\n{name}: {len(sel)} candidates whose arguments fill ({len(right)} right, {len(wrong)} wrong)")
        print(f"  similarity min/10%/50%/90%/max  right {_q([c[3].similarity for c in right])}   "
              f"wrong {_q([c[3].similarity for c in wrong])}")
        print(f"  margin     min/10%/50%/90%/max  right {_q([c[3].margin for c in right])}   "
              f"wrong {_q([c[3].margin for c in wrong])}")
        print("  taken right/wrong by floor (rows) and margin (columns " + " ".join(f"{x:.2f}" for x in MARGINS) + ")")
        for f in FLOORS:
            cells = []
            for mg in MARGINS:
                r = sum(1 for c in right if c[3].similarity >= f and c[3].margin >= mg)
                w = sum(1 for c in wrong if c[3].similarity >= f and c[3].margin >= mg)
                cells.append(f"{r:3d}/{w:<2d}")
            print(f"  {f:.3f}  " + " ".join(cells))
    for name, sel, n in (("all questions", filled, 15),
                         ("not understood by the rules", [c for c in filled if c[5] == "refused"], 15)):
        wrong_all = [c for c in sel if c[4] != "right"]
        wrong_all.sort(key=lambda c: -min(c[3].similarity - args.floor, c[3].margin - args.margin))
        print(f"\n{name}: nearest wrong candidates to the floor {args.floor} / margin {args.margin} "
              "(similarity, margin):")
        for half, q, v, mt, verdict, *_ in wrong_all[:n]:
            print(f"  {mt.similarity:.3f} {mt.margin:.3f} {half} {q.id} [{q.op}] {q.text!r} -> {mt.operator} "
                  f"~ {mt.sentence!r}")
    print(f"\nwith the reader behind the rules (floor {args.floor}, margin {args.margin}): set right/refused/wrong "
          "rules -> rules + similarity")
    for half, _ in sets:
        rows = [c for c in cand if c[0] == half]
        before = {k: sum(1 for c in rows if c[2] == k) for k in ("right", "refused", "wrong")}
        took = [c for c in rows if c[5] == "refused" and c[7] is not None]
        meant = [c for c in took if c[1].op != "refuse"]  # refused by the rules although it has a meaning
        to_refuse = [c for c in took if c[1].op == "refuse"]  # a question to refuse, now answered: wrong
        gain_r = sum(1 for c in meant if c[7] == "right")
        print(f"  {half:10s} n={len(rows):3d}  {before['right']}/{before['refused']}/{before['wrong']} -> "
              f"{before['right'] + gain_r - len(to_refuse)}/{before['refused'] - len(meant)}/"
              f"{before['wrong'] + len(meant) - gain_r + len(to_refuse)}")
        for c in took:
            print(f"      [{'wrong' if c[1].op == 'refuse' else c[7]}] {c[1].id} {c[1].text!r} -> {c[6].operator} "
                  f"{c[6].similarity:.3f}/{c[6].margin:.3f} ~ {c[6].sentence!r} [{c[6].text!r}]")
    ms = np.array(costs) * 1000
    print(f"\nreader cost per question (model warm, parse + one encode + compare): p50 {np.quantile(ms, .5):.1f} ms, "
          f"p95 {np.quantile(ms, .95):.1f} ms, max {ms.max():.1f} ms over {len(ms)} questions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
