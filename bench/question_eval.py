"""How well the memory understands questions as people and agents ask them (issue 13).

The question set (bench/questions/questions.txt) was written before the understanding rules: each line names
the operator a question means and its arguments. This script builds a small memory that knows every label
the set names (bench scene below: furniture, small objects, regions, a day and a half of visits with moves),
asks every question through ``Memory.ask`` with ``now`` = 2026-01-15 14:30 UTC, and sorts each answer into

  right    the expected operator with the expected arguments (a question that must be refused: refused);
           an unknown thing must answer "I don't know any X";
  refused  not understood although it has a meaning (the answer lists the closest supported forms);
  wrong    understood as something else, or answered although it must be refused.

Printed per half (development / held-out) and per operator. The split is a fixed rule (per operator, the
questions sorted by the SHA-256 of their text, alternately dev and held-out, dev first); the file records it
and this script refuses to run when the file and the rule disagree, so the halves cannot drift.

The first held-out half was read once the rules had been fitted to the development half, so it no longer
measures anything held out. bench/questions/questions_heldout2.txt is a second, fresh set, written before the
rules were changed again: the whole file is one half, "held_out2" (no split), and this script refuses it when
one of its questions repeats a line of questions.txt (compared case- and punctuation-blind).
questions_heldout2.txt has been read since as well (it is a development set of the third round);
bench/questions/questions_heldout3.txt is the third fresh set, the half "held_out3", refused in the same way
when it repeats a line of questions.txt or of questions_heldout2.txt. It has been read too (a development set of
the fourth round); bench/questions/questions_heldout4.txt is the fourth fresh set, the half "held_out4", refused
when it repeats a line of an earlier set or holds a near copy of one (near_copies: the things masked, a word
overlap of at least NEAR_COPY_FLOOR).

bench/questions/questions_heldout5.txt is the fifth, written by a helper that had not read the rules; the
fourth is a development set of the fifth round. bench/questions/questions_heldout6.txt, written after it by
another such helper, probed the fifth round's first rules once and was then fitted on (a development set);
bench/questions/questions_heldout7.txt, a third helper's, probed the rules fitted on the sixth in the same way.
The fifth was measured once (185/238 right, 6 wrong) and then fitted on too, and so was the eighth (145/220, 7
wrong); questions_heldout9.txt, a fifth helper's, written meanwhile, is the round's held-out set, measured once
after its last rule change.

    source .tempomem_env.sh && python bench/question_eval.py [--set main|heldout2|heldout3|heldout4|heldout5|dev|all]
        [--half dev|held_out|both] [--show wrong|refused|all] [--model none|minilm]

--model minilm puts the similarity reader (core/answering/similar.py, the offline sentence model) behind the rules
and counts the questions it read; the default, none, is the rules alone (the figures test_question_set.py guards).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import math
import os
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass

from tempomem_ros.core import Memory, Observation
from tempomem_ros.core.errors import TempoMemError
from tempomem_ros.core.labels import label_matches, words
from tempomem_ros.core.types import Answer

HERE = os.path.dirname(os.path.abspath(__file__))
QUESTIONS = os.path.join(HERE, "questions", "questions.txt")
QUESTIONS_HELDOUT2 = os.path.join(HERE, "questions", "questions_heldout2.txt")
QUESTIONS_HELDOUT3 = os.path.join(HERE, "questions", "questions_heldout3.txt")
QUESTIONS_HELDOUT4 = os.path.join(HERE, "questions", "questions_heldout4.txt")
QUESTIONS_HELDOUT5 = os.path.join(HERE, "questions", "questions_heldout5.txt")
QUESTIONS_HELDOUT6 = os.path.join(HERE, "questions", "questions_heldout6.txt")
QUESTIONS_HELDOUT7 = os.path.join(HERE, "questions", "questions_heldout7.txt")
QUESTIONS_HELDOUT8 = os.path.join(HERE, "questions", "questions_heldout8.txt")
QUESTIONS_HELDOUT9 = os.path.join(HERE, "questions", "questions_heldout9.txt")
QUESTIONS_HELDOUT10 = os.path.join(HERE, "questions", "questions_heldout10.txt")
QUESTIONS_HELDOUT11 = os.path.join(HERE, "questions", "questions_heldout11.txt")
QUESTIONS_HELDOUT12 = os.path.join(HERE, "questions", "questions_heldout12.txt")
QUESTIONS_HELDOUT13 = os.path.join(HERE, "questions", "questions_heldout13.txt")
QUESTIONS_HELDOUT14 = os.path.join(HERE, "questions", "questions_heldout14.txt")
QUESTIONS_HELDOUT15 = os.path.join(HERE, "questions", "questions_heldout15.txt")
QUESTIONS_HELDOUT16 = os.path.join(HERE, "questions", "questions_heldout16.txt")
QUESTIONS_HELDOUT17 = os.path.join(HERE, "questions", "questions_heldout17.txt")
QUESTIONS_HELDOUT18 = os.path.join(HERE, "questions", "questions_heldout18.txt")
QUESTIONS_HELDOUT19 = os.path.join(HERE, "questions", "questions_heldout19.txt")
QUESTIONS_HELDOUT20 = os.path.join(HERE, "questions", "questions_heldout20.txt")
QUESTIONS_HELDOUT21 = os.path.join(HERE, "questions", "questions_heldout21.txt")
QUESTIONS_HELDOUT22 = os.path.join(HERE, "questions", "questions_heldout22.txt")
QUESTIONS_HELDOUT23 = os.path.join(HERE, "questions", "questions_heldout23.txt")
QUESTIONS_HELDOUT24 = os.path.join(HERE, "questions", "questions_heldout24.txt")
QUESTIONS_HELDOUT25 = os.path.join(HERE, "questions", "questions_heldout25.txt")
QUESTIONS_HELDOUT26 = os.path.join(HERE, "questions", "questions_heldout26.txt")
QUESTIONS_HELDOUT27 = os.path.join(HERE, "questions", "questions_heldout27.txt")
QUESTIONS_HELDOUT28 = os.path.join(HERE, "questions", "questions_heldout28.txt")
QUESTIONS_HELDOUT29 = os.path.join(HERE, "questions", "questions_heldout29.txt")
QUESTIONS_HELDOUT30 = os.path.join(HERE, "questions", "questions_heldout30.txt")
QUESTIONS_HELDOUT31 = os.path.join(HERE, "questions", "questions_heldout31.txt")
QUESTIONS_HELDOUT32 = os.path.join(HERE, "questions", "questions_heldout32.txt")
QUESTIONS_HELDOUT33 = os.path.join(HERE, "questions", "questions_heldout33.txt")
QUESTIONS_HELDOUT34 = os.path.join(HERE, "questions", "questions_heldout34.txt")
QUESTIONS_HELDOUT35 = os.path.join(HERE, "questions", "questions_heldout35.txt")
QUESTIONS_HELDOUT36 = os.path.join(HERE, "questions", "questions_heldout36.txt")
QUESTIONS_HELDOUT37 = os.path.join(HERE, "questions", "questions_heldout37.txt")
QUESTIONS_HELDOUT38 = os.path.join(HERE, "questions", "questions_heldout38.txt")
NOW = dt.datetime(2026, 1, 15, 14, 30, tzinfo=dt.timezone.utc).timestamp()
DAY = 86400.0
TIME_TOL = 1.0
HALVES = ("dev", "held_out")
HELD_OUT2 = "held_out2"
HELD_OUT3 = "held_out3"
HELD_OUT4 = "held_out4"
HELD_OUT5 = "held_out5"
HELD_OUT6 = "held_out6"
HELD_OUT7 = "held_out7"
HELD_OUT8 = "held_out8"
HELD_OUT9 = "held_out9"
HELD_OUT10 = "held_out10"
HELD_OUT11 = "held_out11"
HELD_OUT12 = "held_out12"
HELD_OUT13 = "held_out13"
HELD_OUT14 = "held_out14"
HELD_OUT15 = "held_out15"
HELD_OUT16 = "held_out16"
HELD_OUT17 = "held_out17"
HELD_OUT18 = "held_out18"
HELD_OUT19 = "held_out19"
HELD_OUT20 = "held_out20"
HELD_OUT21 = "held_out21"
HELD_OUT22 = "held_out22"
HELD_OUT23 = "held_out23"
HELD_OUT24 = "held_out24"
HELD_OUT25 = "held_out25"
HELD_OUT26 = "held_out26"
HELD_OUT27 = "held_out27"
HELD_OUT28 = "held_out28"
HELD_OUT29 = "held_out29"
HELD_OUT30 = "held_out30"
HELD_OUT31 = "held_out31"
HELD_OUT32 = "held_out32"
HELD_OUT33 = "held_out33"
HELD_OUT34 = "held_out34"
HELD_OUT35 = "held_out35"
HELD_OUT36 = "held_out36"
HELD_OUT37 = "held_out37"
HELD_OUT38 = "held_out38"
NEAR_COPY_FLOOR = 0.8  # word-set overlap (Jaccard) of two questions with their things masked


# ------------------------------------------------------------------------------------------- the question set
@dataclass(frozen=True)
class Question:
    id: str
    half: str
    op: str
    args: dict
    text: str


def parse_args_field(field: str) -> dict:
    field = field.strip()
    if field in ("", "-"):
        return {}
    out = {}
    for part in field.split(";"):
        key, _, value = part.strip().partition("=")
        out[key.strip()] = value.strip()
    return out


def load(path: str = QUESTIONS, prefix: str = "q") -> list[Question]:
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            half, op, args, text = (p.strip() for p in line.rstrip("\n").split(" | ", 3))
            rows.append(Question(f"{prefix}{len(rows) + 1:03d}", half, op, parse_args_field(args), text))
    return rows


def split_rule(rows) -> dict[str, str]:
    """text -> half: per operator, sorted by SHA-256 of the text, alternately dev and held-out."""
    by_op: dict[str, list[str]] = {}
    for r in rows:
        by_op.setdefault(r.op, []).append(r.text)
    out = {}
    for texts in by_op.values():
        for i, text in enumerate(sorted(texts, key=lambda t: hashlib.sha256(t.encode()).hexdigest())):
            out[text] = HALVES[i % 2]
    return out


def check_split(rows) -> None:
    rule = split_rule(rows)
    bad = [r.text for r in rows if rule[r.text] != r.half]
    if bad or len(rule) != len(rows):
        raise SystemExit(f"question set: the recorded halves disagree with the split rule ({bad[:3]}) "
                         f"or a question is duplicated")


def _plain(text: str) -> str:
    return " ".join(words(text))


def check_fresh(rows, earlier_rows, half: str = HELD_OUT2, name: str = "questions_heldout2") -> None:
    """A fresh set is all held out (one half), has no duplicate, repeats no line of the sets written before it,
    and asks only the operators questions.txt defines (a new operator name would be judged against nothing)."""
    halves = {r.half for r in rows}
    if halves != {half}:
        raise SystemExit(f"{name}: every line must be half {half!r}, found {sorted(halves)}")
    seen = {_plain(r.text) for r in earlier_rows}
    mine = [_plain(r.text) for r in rows]
    repeated = [r.text for r in rows if _plain(r.text) in seen]
    if repeated or len(set(mine)) != len(mine):
        raise SystemExit(f"{name}: repeats an earlier set ({repeated[:3]}) or itself")
    ops = {r.op for r in earlier_rows}
    foreign = sorted({r.op for r in rows} - ops)
    if foreign:
        raise SystemExit(f"{name}: operators questions.txt does not define: {foreign}")


def _masked(q: Question) -> frozenset[str]:
    """The question's words with the things it names (label, anchor) replaced by one mark, so that a
    label-swapped copy ("where is the mug" / "where is the lamp") reads as the same question."""
    text = " " + _plain(q.text) + " "
    for key in ("label", "anchor"):
        if q.args.get(key):
            text = text.replace(" " + _plain(q.args[key]) + " ", " THING ")
    return frozenset(text.split())


def near_copies(rows, earlier_rows, floor: float = NEAR_COPY_FLOOR) -> list[tuple[str, str]]:
    """(question, earlier question) pairs whose masked word sets overlap by >= floor (Jaccard): near copies
    that a fresh set must not hold. A fresh set's own lines are compared with each other too."""
    earlier = [(_masked(r), r.text) for r in earlier_rows]
    out = []
    for i, r in enumerate(rows):
        mine = _masked(r)
        others = earlier + [(_masked(o), o.text) for o in rows[:i]]
        for theirs, text in others:
            if mine and theirs and len(mine & theirs) / len(mine | theirs) >= floor:
                out.append((r.text, text))
                break
    return out


def check_heldout2(rows, main_rows) -> None:
    check_fresh(rows, main_rows, HELD_OUT2, "questions_heldout2")


def load_heldout2(main_rows) -> list[Question]:
    rows = load(QUESTIONS_HELDOUT2, prefix="h")
    check_heldout2(rows, main_rows)
    return rows


def load_heldout3(main_rows, heldout2_rows) -> list[Question]:
    """The third fresh set; ids k001... (never colliding with q001... and h001...)."""
    rows = load(QUESTIONS_HELDOUT3, prefix="k")
    check_fresh(rows, [*main_rows, *heldout2_rows], HELD_OUT3, "questions_heldout3")
    return rows


def load_fresh(path: str, prefix: str, half: str, earlier_sets) -> list[Question]:
    """A fresh set (heldout4 on): all one half, ids ``prefix``001..., refused when it repeats a line of an earlier
    set or holds a near copy of one (masked word overlap >= NEAR_COPY_FLOOR)."""
    name = os.path.splitext(os.path.basename(path))[0]
    rows = load(path, prefix=prefix)
    earlier = [r for rows_ in earlier_sets for r in rows_]
    check_fresh(rows, earlier, half, name)
    near = near_copies(rows, earlier)
    if near:
        raise SystemExit(f"{name}: near copies of earlier questions: {near[:3]}")
    return rows


def load_heldout4(*earlier_sets) -> list[Question]:
    """The fourth fresh set (f001...), written before any rule of the fourth round."""
    return load_fresh(QUESTIONS_HELDOUT4, "f", HELD_OUT4, earlier_sets)


def load_heldout5(*earlier_sets) -> list[Question]:
    """The fifth (v001...), written by a helper that did not read the rules, before any rule of the fifth round."""
    return load_fresh(QUESTIONS_HELDOUT5, "v", HELD_OUT5, earlier_sets)


def load_heldout6(*earlier_sets) -> list[Question]:
    """The sixth (w001...), another helper's: a probe of the fifth round's first rules, measured once, then fitted
    on, while the fifth stayed held out."""
    return load_fresh(QUESTIONS_HELDOUT6, "w", HELD_OUT6, earlier_sets)


def load_heldout7(*earlier_sets) -> list[Question]:
    """The seventh (x001...), a third helper's, written after the sixth had been fitted on: a second probe."""
    return load_fresh(QUESTIONS_HELDOUT7, "x", HELD_OUT7, earlier_sets)


def load_heldout8(*earlier_sets) -> list[Question]:
    """The eighth (y001...), a fourth helper's, written while the round fitted its rules on the fifth: measured
    once (145/220 right, 7 wrong), then fitted on."""
    return load_fresh(QUESTIONS_HELDOUT8, "y", HELD_OUT8, earlier_sets)


def load_heldout9(*earlier_sets) -> list[Question]:
    """The ninth (z001...), a fifth helper's, written while the round fitted its rules on the eighth: the fifth
    round's held-out set, measured once after its last rule change."""
    return load_fresh(QUESTIONS_HELDOUT9, "z", HELD_OUT9, earlier_sets)


def load_heldout10(*earlier_sets) -> list[Question]:
    """The tenth (m001...), a helper's that never opened the understanding code, written during the sixth round:
    the sixth round's held-out set, measured once after its last rule change."""
    return load_fresh(QUESTIONS_HELDOUT10, "m", HELD_OUT10, earlier_sets)


def load_heldout11(*earlier_sets) -> list[Question]:
    """The eleventh (n001...), another helper's that never opened the understanding code, written after the sixth
    round's figure: committed before its one measurement (measured once, after the seventh round)."""
    return load_fresh(QUESTIONS_HELDOUT11, "n", HELD_OUT11, earlier_sets)


def load_heldout12(*earlier_sets) -> list[Question]:
    """The twelfth (p001...), a third helper's that never opened the understanding code, written after heldout11's
    measurement: committed before its one measurement (integ31, session 31); in "all" since."""
    return load_fresh(QUESTIONS_HELDOUT12, "p", HELD_OUT12, earlier_sets)


def load_heldout13(*earlier_sets) -> list[Question]:
    """The thirteenth (r001...), a fourth helper's that never opened the understanding code, written after heldout12's
    measurement: committed before its one measurement (bc39a4f), measured once on integ32 (session 32); in "all"
    since."""
    return load_fresh(QUESTIONS_HELDOUT13, "r", HELD_OUT13, earlier_sets)


def load_heldout14(*earlier_sets) -> list[Question]:
    """The fourteenth (s001...), a helper's that never opened the understanding code, written after heldout13's
    measurement: committed (b9b9e9f) before its one measurement (integ33, session 33); in "all" since."""
    return load_fresh(QUESTIONS_HELDOUT14, "s", HELD_OUT14, earlier_sets)


def load_heldout15(*earlier_sets) -> list[Question]:
    """The fifteenth (t001...), a helper's that never opened the understanding code, written after heldout14's
    measurement: committed before its one measurement. Only ``--set heldout15`` asks it (not "all") until then."""
    return load_fresh(QUESTIONS_HELDOUT15, "t", HELD_OUT15, earlier_sets)


def load_heldout16(*earlier_sets) -> list[Question]:
    """The sixteenth (u001...), a helper's that never opened the understanding code, written after heldout15's
    measurement: committed before its one measurement (integ35, session 35); in "all" since."""
    return load_fresh(QUESTIONS_HELDOUT16, "u", HELD_OUT16, earlier_sets)


def load_heldout17(*earlier_sets) -> list[Question]:
    """The seventeenth (a001...; v001... are heldout5's), a helper's that never opened the understanding code, written
    after heldout16's measurement: committed before its one measurement (integ36, session 36); in "all" since."""
    return load_fresh(QUESTIONS_HELDOUT17, "a", HELD_OUT17, earlier_sets)


def load_heldout18(*earlier_sets) -> list[Question]:
    """The eighteenth (b001...), a helper's that never opened the understanding code, written after heldout17's
    measurement: committed (1435ff9) before its one measurement (integ37 825f549, stop 37); in "all" since (stop 38)."""
    return load_fresh(QUESTIONS_HELDOUT18, "b", HELD_OUT18, earlier_sets)


def load_heldout19(*earlier_sets) -> list[Question]:
    """The nineteenth (c001...), a helper's that never opened the understanding code, written after heldout18's
    measurement: committed (76dfd1d) before its one measurement (integ38 9f81480, stop 38); in "all" since (stop 39)."""
    return load_fresh(QUESTIONS_HELDOUT19, "c", HELD_OUT19, earlier_sets)


def load_heldout20(*earlier_sets) -> list[Question]:
    """The twentieth (d001...), a helper's that never opened the understanding code, written after heldout19's
    measurement: committed (53f2732) before its one measurement (integ39 c16932f, stop 39); in "all" since (stop 40)."""
    return load_fresh(QUESTIONS_HELDOUT20, "d", HELD_OUT20, earlier_sets)


def load_heldout21(*earlier_sets) -> list[Question]:
    """The twenty-first (e001...), a helper's that never opened the understanding code, written after heldout20's
    measurement: committed (f8fe0e1) before its one measurement (integ40 e6e87a9, stop 40); in "all" since (stop 41)."""
    return load_fresh(QUESTIONS_HELDOUT21, "e", HELD_OUT21, earlier_sets)


def load_heldout22(*earlier_sets) -> list[Question]:
    """The twenty-second (g001...), a helper's that never opened the understanding code, written after heldout21's
    measurement: committed (fe5ad2b) before its one measurement (integ41 93bf41f, stop 41); in "all" since (stop 42)."""
    return load_fresh(QUESTIONS_HELDOUT22, "g", HELD_OUT22, earlier_sets)


def load_heldout23(*earlier_sets) -> list[Question]:
    """The twenty-third (i001...), a helper's that never opened the understanding code, written after heldout22's
    measurement: committed (5a16f9b) before its one measurement (integ42 7492273, stop 42); in "all" since (stop 42)."""
    return load_fresh(QUESTIONS_HELDOUT23, "i", HELD_OUT23, earlier_sets)


def load_heldout24(*earlier_sets) -> list[Question]:
    """The twenty-fourth (j001...), a helper's that never opened the understanding code, written after heldout23's
    measurement: committed (7b65a2b) before its one measurement (integ43 b6ec5ea, stop 43); in "all" since (stop 44)."""
    return load_fresh(QUESTIONS_HELDOUT24, "j", HELD_OUT24, earlier_sets)


def load_heldout25(*earlier_sets) -> list[Question]:
    """The twenty-fifth (l001...), a helper's that never opened the understanding code, written after heldout24's
    measurement: committed (7d28471) before its one measurement (integ44 728ec28, stop 44); in "all" since (stop 45)."""
    return load_fresh(QUESTIONS_HELDOUT25, "l", HELD_OUT25, earlier_sets)


def load_heldout26(*earlier_sets) -> list[Question]:
    """The twenty-sixth (o001...), a helper's that never opened the understanding code, written at stop 45:
    committed (7c25782) before its one measurement (integ45 2880a48, stop 45); in "all" since (stop 46)."""
    return load_fresh(QUESTIONS_HELDOUT26, "o", HELD_OUT26, earlier_sets)


def load_heldout27(*earlier_sets) -> list[Question]:
    """The twenty-seventh (A001...: every lower-case letter is taken), a helper's that never opened the understanding
    code, written at stop 46: committed (68c433c) before its one measurement (integ46 aa4c5ee, stop 46); in "all"
    since (stop 47)."""
    return load_fresh(QUESTIONS_HELDOUT27, "A", HELD_OUT27, earlier_sets)


def load_heldout28(*earlier_sets) -> list[Question]:
    """The twenty-eighth (B001...: every lower-case letter and A are taken), a helper's that never opened the
    understanding code, written at stop 47: committed (060b244) before its one measurement (integ47 fd931be, stop
    47); in "all" since (stop 48)."""
    return load_fresh(QUESTIONS_HELDOUT28, "B", HELD_OUT28, earlier_sets)


def load_heldout29(*earlier_sets) -> list[Question]:
    """The twenty-ninth (C001...: every lower-case letter, A and B are taken), a helper's that never opened the
    understanding code, written at stop 48: committed before its one measurement (2d70a4f, stop 48); in "all" since
    (stop 49)."""
    return load_fresh(QUESTIONS_HELDOUT29, "C", HELD_OUT29, earlier_sets)


def load_heldout30(*earlier_sets) -> list[Question]:
    """The thirtieth (D001...: every lower-case letter, A, B and C are taken), a helper's that never opened the
    understanding code, written at stop 49: committed before its one measurement (integ49 beec20a, stop 49); in "all"
    since (stop 50)."""
    return load_fresh(QUESTIONS_HELDOUT30, "D", HELD_OUT30, earlier_sets)


def load_heldout31(*earlier_sets) -> list[Question]:
    """The thirty-first (E001...: every lower-case letter, A, B, C and D are taken), a helper's that never opened the
    understanding code, written at stop 50: committed before its one measurement (2c92240, stop 50); in "all" since
    (stop 51)."""
    return load_fresh(QUESTIONS_HELDOUT31, "E", HELD_OUT31, earlier_sets)


def load_heldout32(*earlier_sets) -> list[Question]:
    """The thirty-second (F001...: every lower-case letter, A, B, C, D and E are taken), a helper's that never opened
    the understanding code, written at stop 51: committed before its one measurement (6fef954, stop 51); in "all" since
    (stop 52)."""
    return load_fresh(QUESTIONS_HELDOUT32, "F", HELD_OUT32, earlier_sets)


def load_heldout33(*earlier_sets) -> list[Question]:
    """The thirty-third (G001...: every lower-case letter, A, B, C, D, E and F are taken), a helper's that never opened
    the understanding code, written at stop 52: committed before its one measurement (e45a02c, stop 52); in "all" since
    (stop 53)."""
    return load_fresh(QUESTIONS_HELDOUT33, "G", HELD_OUT33, earlier_sets)


def load_heldout34(*earlier_sets) -> list[Question]:
    """The thirty-fourth (H001...: every lower-case letter, A, B, C, D, E, F and G are taken), a helper's that never
    opened the understanding code, written at stop 53: committed before its one measurement (919f3b1, stop 53); in "all"
    since (stop 54)."""
    return load_fresh(QUESTIONS_HELDOUT34, "H", HELD_OUT34, earlier_sets)


def load_heldout35(*earlier_sets) -> list[Question]:
    """The thirty-fifth (I001...: every lower-case letter, A, B, C, D, E, F, G and H are taken), a helper's that never
    opened the understanding code, written at stop 54: committed before its one measurement (e7a3506, stop 54); in "all"
    since (stop 55)."""
    return load_fresh(QUESTIONS_HELDOUT35, "I", HELD_OUT35, earlier_sets)


def load_heldout36(*earlier_sets) -> list[Question]:
    """The thirty-sixth (J001...: every lower-case letter, A, B, C, D, E, F, G, H and I are taken), a helper's that
    never opened the understanding code, written at stop 55: committed before its one measurement (0862ecc, stop 55); in
    "all" since (stop 56)."""
    return load_fresh(QUESTIONS_HELDOUT36, "J", HELD_OUT36, earlier_sets)


def load_heldout37(*earlier_sets) -> list[Question]:
    """The thirty-seventh (K001...: every lower-case letter, A, B, C, D, E, F, G, H, I and J are taken), a helper's
    that never opened the understanding code, written at stop 56: committed before its one measurement (cb322da, stop
    56); in "all" since (stop 57)."""
    return load_fresh(QUESTIONS_HELDOUT37, "K", HELD_OUT37, earlier_sets)


def load_heldout38(*earlier_sets) -> list[Question]:
    """The thirty-eighth (L001...: every lower-case letter, A, B, C, D, E, F, G, H, I, J and K are taken), a helper's
    that never opened the understanding code, written at stop 57: only ``--set heldout38`` asks it, until its one
    measurement."""
    return load_fresh(QUESTIONS_HELDOUT38, "L", HELD_OUT38, earlier_sets)


# ------------------------------------------------------------------------------------------------ the scene
FURNITURE = {  # label: (centre x, y, half extents)
    "table": ((2.0, 0.0), (0.6, 0.4, 0.375)), "coffee table": ((0.0, 2.0), (0.4, 0.3, 0.2)),
    "desk": ((5.0, 0.0), (0.6, 0.35, 0.375)), "counter": ((-2.0, 2.0), (0.8, 0.3, 0.45)),
    "shelf": ((5.0, 3.0), (0.4, 0.2, 0.9)), "sofa": ((0.0, 4.0), (1.0, 0.45, 0.4)),
    "chair": ((3.0, 1.2), (0.25, 0.25, 0.45)), "bed": ((8.0, 3.0), (1.0, 0.8, 0.3)),
    "cabinet": ((-2.0, -1.0), (0.4, 0.3, 0.5)),
}
SMALL = ("mug", "cup", "water bottle", "wallet", "keys", "charger", "phone", "laptop", "lamp", "scissors", "book",
         "plant", "remote", "glasses", "backpack", "umbrella", "headphones", "notebook", "bowl", "jacket",
         "teddy bear")
SUPPORTS = ("table", "coffee table", "desk", "counter", "bed", "chair", "sofa")
REGIONS = {"kitchen": ((-4, 0, 0), (-0.5, 4, 3)), "hall": ((-4, -3, 0), (0.5, 0, 3)),
           "living room": ((-0.5, 0, 0), (4, 6, 3)), "office": ((4, -2, 0), (6.5, 2, 3)),
           "bedroom": ((6.5, 1, 0), (10, 6, 3))}
VISITS = [NOW - DAY - 5.5 * 3600, NOW - DAY + 0.5 * 3600, NOW - DAY + 3.5 * 3600, NOW - 6.5 * 3600,
          NOW - 5 * 3600, NOW - 2.5 * 3600, NOW - 1.5 * 3600, NOW - 3000, NOW - 1200, NOW]


def _furniture_obs(label: str, stamp: float) -> Observation:
    (x, y), (hx, hy, hz) = FURNITURE[label]
    return Observation(label, 0.9, (x, y, hz), (x - hx, y - hy, 0.0), (x + hx, y + hy, 2 * hz), stamp)


def _small_obs(label: str, support: str, slot: int, stamp: float) -> Observation:
    (x, y), (hx, hy, hz) = FURNITURE[support]
    top = 2 * hz
    sx = x - hx + 0.15 + (slot % 5) * min(0.25, (2 * hx - 0.3) / 4)
    sy = y - hy / 2 + (slot // 5) * 0.1
    return Observation(label, 0.9, (sx, sy, top + 0.05), (sx - 0.04, sy - 0.04, top), (sx + 0.04, sy + 0.04, top + 0.1),
                       stamp)


def build_memory(path: str) -> Memory:
    """The bench scene: every label the question set names, on supports, moving between visits."""
    # a fixed wall clock keeps the store deterministic; the scene's 2026 stamps are then "ahead" of it
    m = Memory.open(path, embedding_dim=4, clock=lambda: 0.0, config={"gates": {"max_stamp_ahead_s": float(2**31)}})
    for name, (lo, hi) in REGIONS.items():
        m.define_region(name, lo, hi)
    for v, stamp in enumerate(VISITS):
        obs = [_furniture_obs(f, stamp) for f in FURNITURE]
        for i, label in enumerate(SMALL):
            support = SUPPORTS[(i + (v if i % 3 == 0 else 0)) % len(SUPPORTS)]  # every third object moves
            obs.append(_small_obs(label, support, i, stamp))
        m.add(obs, stamp=stamp)
        m.commit()
    return m


def known_names(m: Memory) -> list[str]:
    return sorted({o.label for o in m.objects()} | {r.label for r in m.regions()})


# ---------------------------------------------------------------------------------------------------- judging
def resolve_time(spec: str, now: float) -> float:
    spec = spec.strip()
    if spec == "now":
        return now
    if spec.startswith("now-"):
        return now - float(spec[4:])
    if spec.startswith(("today ", "yesterday ")):
        day, clock = spec.split()
        hh, mm = (int(x) for x in clock.split(":"))
        base = dt.datetime.fromtimestamp(now, tz=dt.timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
        t = base.timestamp() + hh * 3600 + mm * 60
        return t - DAY if day == "yesterday" else t
    return float(spec)


def _names_selected(arg: str, names: list[str]) -> set[str]:
    return {n for n in names if label_matches(arg, n)}


def judge(q: Question, answer, names: list[str], now: float) -> tuple[str, str]:
    """('right' | 'refused' | 'wrong', why)."""
    if q.op == "refuse":
        return ("right", "refused") if not answer.understood else ("wrong", f"answered as {answer.operator}")
    if not answer.understood:
        return "refused", "not understood"
    op, _, rel = answer.operator.partition(":")
    got = dict(answer.arguments or {})
    if rel and "relation" not in got:
        got["relation"] = rel
    if op != q.op:
        return "wrong", f"operator {answer.operator}"
    unknown = q.args.get("unknown")
    for key, want in q.args.items():
        if key == "unknown":
            continue
        have = got.get(key)
        if key in ("label", "anchor"):
            if have is None:
                return "wrong", f"no {key}"
            if unknown == key:
                if words(str(have)) != words(want):
                    return "wrong", f"{key} {have!r}, expected unknown {want!r}"
                if answer.found or "don't know any" not in answer.text:
                    return "wrong", f"unknown {key} {want!r} not reported: {answer.text[:60]}"
            elif _names_selected(str(have), names) != _names_selected(want, names) or not _names_selected(want, names):
                return "wrong", f"{key} {have!r}, expected {want!r}"
        elif key in ("t", "since", "until"):
            if have is None or abs(float(have) - resolve_time(want, now)) > TIME_TOL:
                return "wrong", f"{key} {have}, expected {want}"
        elif key == "kinds":
            if have is None or sorted(have) != sorted(want.split(",")):
                return "wrong", f"kinds {have}, expected {want}"
        elif key == "relation":
            if have != want:
                return "wrong", f"relation {have}, expected {want}"
        elif key == "center":
            want_c = [float(x) for x in want.split(",")]
            if have is None or any(abs(float(a) - b) > 1e-6 for a, b in zip(have, want_c)):
                return "wrong", f"center {have}, expected {want}"
        elif key == "radius":
            if have is None or abs(float(have) - float(want)) > 1e-6:
                return "wrong", f"radius {have}, expected {want}"
        elif key == "text":
            content = set(words(want)) - {"a", "an", "the", "my", "i", "to", "can", "what", "where", "use"}
            if have is None or not content <= set(words(str(have))):
                return "wrong", f"text {have!r}, expected {want!r}"
    for key in ("t", "since", "until", "kinds"):  # a window nobody asked for is a different question
        if key not in q.args and got.get(key) not in (None, [], ()):
            if key == "until" and q.op == "changes" and abs(float(got[key]) - now) <= TIME_TOL:
                continue
            return "wrong", f"unexpected {key} {got.get(key)}"
    return "right", ""


# ------------------------------------------------------------------------------------------------------ main
SIMILARITY_MARK = "matched by similarity"  # what the similarity reader's interpretation says (similar.py)
ASK_SECONDS: list[tuple[str, float]] = []  # (how the question was read, seconds of Memory.ask): --model's report


def evaluate(rows, m: Memory, now: float = NOW) -> list[tuple[Question, str, str, object]]:
    names = known_names(m)
    out = []
    for q in rows:
        t0 = time.perf_counter()
        try:
            answer = m.ask(q.text, now=now)
        except TempoMemError as exc:  # an error answers nothing: counted as a refusal, with the reason
            answer = Answer(False, "", f"error: {exc}")
        how = ("similarity" if SIMILARITY_MARK in (answer.understood_as or "") else
               "rules" if answer.understood else "refused")
        ASK_SECONDS.append((how, time.perf_counter() - t0))
        verdict, why = judge(q, answer, names, now)
        out.append((q, verdict, why, answer))
    return out


def summary(results) -> dict:
    c = Counter(v for _, v, _, _ in results)
    n = len(results)
    return {"n": n, "right": c["right"], "refused": c["refused"], "wrong": c["wrong"],
            "right_share": c["right"] / n if n else math.nan}


def report(half: str, results, show: str) -> None:
    s = summary(results)
    print(f"{half:9s} n={s['n']:3d}  right {s['right']:3d} ({100 * s['right'] / s['n']:5.1f} %)  "
          f"refused {s['refused']:3d} ({100 * s['refused'] / s['n']:5.1f} %)  "
          f"wrong {s['wrong']:3d} ({100 * s['wrong'] / s['n']:5.1f} %)")
    per_op: dict[str, Counter] = {}
    for q, v, _, _ in results:
        per_op.setdefault(q.op, Counter())[v] += 1
    print("           " + "  ".join(f"{op} {c['right']}/{sum(c.values())}" for op, c in sorted(per_op.items())))
    for q, v, why, a in results:
        if show == "all" or show == v or (show == "refused" and v == "wrong"):
            if v != "right" or show == "all":
                print(f"    [{v}] {q.id} {q.text!r} -> {a.operator or '-'} {why}")


def attach_model(m: Memory) -> None:
    """The offline sentence model as the memory's question encoder; without it the rules answer alone."""
    from tempomem_ros.semantics.protocol import EncoderLoadError
    from tempomem_ros.semantics.text_encoder import SentenceLabelEncoder
    enc = SentenceLabelEncoder()
    try:
        enc.load()
    except EncoderLoadError as exc:
        print(f"the sentence model did not load ({exc}); the rules answer alone")
        return
    m.question_encoder = enc
    m._question_reader.prepare()  # the canonical sentences, embedded once before the first question


# Every fresh set in the order it was written: (--set name, half name, loader, in "all"). Each is loaded checked fresh
# against questions.txt and every set before it in this table; "dev" is the fifth round's development sets; "all"
# asks every set measured so far. A set written for a round stays out of "all" (False: asked only by name, checked
# against every set before it) until its one measurement.
FRESH_SETS = (
    ("heldout2", HELD_OUT2, load_heldout2, True), ("heldout3", HELD_OUT3, load_heldout3, True),
    ("heldout4", HELD_OUT4, load_heldout4, True), ("heldout5", HELD_OUT5, load_heldout5, True),
    ("heldout6", HELD_OUT6, load_heldout6, True), ("heldout7", HELD_OUT7, load_heldout7, True),
    ("heldout8", HELD_OUT8, load_heldout8, True), ("heldout9", HELD_OUT9, load_heldout9, True),
    ("heldout10", HELD_OUT10, load_heldout10, True), ("heldout11", HELD_OUT11, load_heldout11, True),
    ("heldout12", HELD_OUT12, load_heldout12, True),  # in "all" since its one measurement (integ31, session 31)
    ("heldout13", HELD_OUT13, load_heldout13, True),  # in "all" since its one measurement (integ32, session 32)
    ("heldout14", HELD_OUT14, load_heldout14, True),  # in "all" since its one measurement (integ33, session 33)
    ("heldout15", HELD_OUT15, load_heldout15, True),  # in "all" since its one measurement (integ34, session 34)
    ("heldout16", HELD_OUT16, load_heldout16, True),  # in "all" since its one measurement (integ35, session 35)
    ("heldout17", HELD_OUT17, load_heldout17, True),  # in "all" since its one measurement (integ36, session 36)
    ("heldout18", HELD_OUT18, load_heldout18, True),  # in "all" since its one measurement (integ37 825f549, stop 37)
    ("heldout19", HELD_OUT19, load_heldout19, True),  # in "all" since its one measurement (integ38 9f81480, stop 38)
    ("heldout20", HELD_OUT20, load_heldout20, True),  # in "all" since its one measurement (integ39 c16932f, stop 39)
    ("heldout21", HELD_OUT21, load_heldout21, True),  # in "all" since its one measurement (integ40 e6e87a9, stop 40)
    ("heldout22", HELD_OUT22, load_heldout22, True),  # in "all" since its one measurement (integ41 93bf41f, stop 41)
    ("heldout23", HELD_OUT23, load_heldout23, True),  # in "all" since its one measurement (integ42 7492273, stop 42)
    ("heldout24", HELD_OUT24, load_heldout24, True),  # in "all" since its one measurement (integ43 b6ec5ea, stop 43)
    ("heldout25", HELD_OUT25, load_heldout25, True),  # measured at integ44 728ec28 (stop 44); in "all" from stop 45
    ("heldout26", HELD_OUT26, load_heldout26, True),  # measured at integ45 2880a48 (stop 45); in "all" from stop 46
    ("heldout27", HELD_OUT27, load_heldout27, True),  # measured at integ46 aa4c5ee (stop 46); in "all" from stop 47
    ("heldout28", HELD_OUT28, load_heldout28, True),  # measured at integ47 fd931be (stop 47); in "all" from stop 48
    ("heldout29", HELD_OUT29, load_heldout29, True),  # measured once at 2d70a4f (stop 48); in "all" from stop 49
    ("heldout30", HELD_OUT30, load_heldout30, True),  # measured once at beec20a (stop 49); in "all" from stop 50
    ("heldout31", HELD_OUT31, load_heldout31, True),  # measured once at 2c92240 (stop 50); in "all" from stop 51
    ("heldout32", HELD_OUT32, load_heldout32, True),  # measured once at 6fef954 (stop 51); in "all" from stop 52
    ("heldout33", HELD_OUT33, load_heldout33, True),  # measured once at e45a02c (stop 52); in "all" from stop 53
    ("heldout34", HELD_OUT34, load_heldout34, True),  # measured once at 919f3b1 (stop 53); in "all" from stop 54
    ("heldout35", HELD_OUT35, load_heldout35, True),  # measured once at e7a3506 (stop 54); in "all" from stop 55
    ("heldout36", HELD_OUT36, load_heldout36, True),  # measured once at 0862ecc (stop 55); in "all" from stop 56
    ("heldout37", HELD_OUT37, load_heldout37, True),  # measured once at cb322da (stop 56); in "all" from stop 57
    ("heldout38", HELD_OUT38, load_heldout38, False),  # measured once at 104ded3 (stop 57); into "all" at stop 58
)
DEV_SETS = ("heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8")  # with questions.txt


def select_sets(qset: str, half_arg: str = "both") -> list[tuple[str, list[Question]]]:
    """(half name, its questions) of a --set choice. Every fresh set up to the last one asked is loaded in the order
    of FRESH_SETS, each checked fresh against questions.txt (both halves, whatever --half says) and every set before
    it, as it was when measured."""
    rows = load()
    check_split(rows)
    sets: list[tuple[str, list[Question]]] = []
    if qset in ("main", "dev", "all"):
        for half in (HALVES if half_arg == "both" else (half_arg,)):
            sets.append((half, [r for r in rows if r.half == half]))
    asked = ({name for name, _, _, in_all in FRESH_SETS if in_all} if qset == "all" else
             set(DEV_SETS) if qset == "dev" else {qset} - {"main"})
    earlier = [rows]
    for name, half, loader, _ in FRESH_SETS:
        if not asked:
            break
        fresh = loader(*earlier)
        earlier.append(fresh)
        if name in asked:
            sets.append((half, fresh))
            asked.discard(name)
    return sets


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    in_all_sets = [name for name, _, _, in_all in FRESH_SETS if in_all]
    by_name = [name for name, _, _, in_all in FRESH_SETS if not in_all]
    p.add_argument("--set", dest="qset", choices=("main", *(name for name, _, _, _ in FRESH_SETS), "dev", "all"),
                   default="main",
                   help="main: questions.txt (its --half); heldoutN: questions_heldoutN.txt as the half held_outN, "
                        "checked fresh against every set before it "
                        f"({in_all_sets[0]} ... {in_all_sets[-1]} in all since their measurement; "
                        f"{', '.join(by_name) or 'none'} only by name, not in all); dev: the development "
                        "sets of the fifth round (main, heldout2 ... heldout8); all: every set measured so far")
    p.add_argument("--half", choices=("dev", "held_out", "both"), default="both", help="halves of questions.txt")
    p.add_argument("--show", choices=("none", "wrong", "refused", "all"), default="wrong")
    p.add_argument("--model", choices=("none", "minilm"), default="none",
                   help="minilm: the similarity reader behind the rules (core/answering/similar.py) with the offline "
                        "sentence model; none: the rules alone (the guarded figures of test_question_set.py)")
    args = p.parse_args(argv)
    sets = select_sets(args.qset, args.half)
    with tempfile.TemporaryDirectory() as tmp:
        m = build_memory(os.path.join(tmp, "questions.db"))
        try:
            if args.model == "minilm":
                attach_model(m)
            for half, half_rows in sets:
                results = evaluate(half_rows, m)
                report(half, results, args.show)
                if args.model == "minilm":
                    by_sim = [v for _, v, _, a in results if SIMILARITY_MARK in (a.understood_as or "")]
                    print(f"           read by similarity: {len(by_sim)} ({by_sim.count('right')} right, "
                          f"{len(by_sim) - by_sim.count('right')} wrong)")
            if args.show != "none":
                for how in ("rules", "similarity", "refused"):
                    ms = sorted(1000 * t for h, t in ASK_SECONDS if h == how)
                    if ms:
                        print(f"Memory.ask, read by {how}: n={len(ms)} p50 {ms[len(ms) // 2]:.1f} ms, "
                              f"p95 {ms[min(len(ms) - 1, int(0.95 * len(ms)))]:.1f} ms")
        finally:
            m.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
