"""Figures and reports of evaluation runs: per-run summaries, pooled figures, the targets, failure lists.

Why pooled counts rather than means of per-scene ratios: one scene with two objects and one false one
would otherwise weigh as much as a scene with twenty; the issue's targets are stated over pooled scenes
(object precision and recall from the summed TP/FP/FN of the final maps, duplicates and false removals as
summed counts over summed denominators, change F1 from summed TP/FP/FN, questions over all questions).

Why failure lists: a figure that misses a target must come with its cause, and the cause is read from
what the memory got wrong (which labels, where, when); ``report`` prints them per seed, stamps relative to
the scene's start.
"""

from __future__ import annotations

import numpy as np

#: The targets of issue 11 (every profile): (comparison, value). Question kinds: every "q:" key >= 0.95.
TARGETS: dict[str, tuple[str, float]] = {
    "object_precision": (">=", 0.97),
    "object_recall": (">=", 0.97),
    "duplicate_rate": ("<=", 0.01),
    "false_removal_rate": ("<=", 0.01),
    "moved_f1": (">=", 0.95),
    "removed_f1": (">=", 0.95),
    "appeared_f1": (">=", 0.95),
    "flicker_events": ("<=", 0),
}
QUESTION_TARGET = 0.95


def target_of(key: str) -> tuple[str, float] | None:
    if key in TARGETS:
        return TARGETS[key]
    if key.startswith("q:"):
        return (">=", QUESTION_TARGET)
    return None


def meets(key: str, value) -> bool | None:
    t = target_of(key)
    if t is None or value is None or isinstance(value, str):
        return None
    return value >= t[1] if t[0] == ">=" else value <= t[1]


def summary(run: dict) -> dict:
    """The headline figures of one run (flat, for tables and floors)."""
    s = run["scores"]
    fm, ch, qs = s["final_map"], s["changes"], s["questions"]
    lab = fm["label_rule"]
    out = {
        "object_precision": lab["precision"], "object_recall": lab["recall"],
        "object_f1_label": lab["f1"], "object_f1_iou": fm["iou_rule"]["f1"],
        "duplicate_rate": fm["duplicate_rate"], "duplicates": fm["duplicates"],
        "centroid_error_m": fm["centroid_error_median"], "label_accuracy": fm["label_accuracy"],
        "map_f1_min_over_times": min(m["label_rule"]["f1"] for m in s["maps"].values()),
        "moved_f1": ch["moved"]["f1"], "removed_f1": ch["removed"]["f1"], "appeared_f1": ch["appeared"]["f1"],
        "false_removal_rate": ch["false_removal_rate"], "false_removals": ch["false_removals"],
        "false_removal_rate_hard": ch["false_removal_rate_hard_cases"],
        "flicker_events": ch.get("flicker_events", 0), "reappeared_events": ch.get("reappeared_events", 0),
        "delay_median_s": ch["delay_median_s"],
    }
    for kind in ("appeared", "moved", "removed"):
        out[f"{kind}_counts"] = f"{ch[kind]['tp']}/{ch[kind]['fp']}/{ch[kind]['fn']}"
    for op, v in sorted(qs.items()):
        out[f"q:{op}"] = v["accuracy"]
    return out


def _f1(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else (1.0 if fn == 0 else 0.0)
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def pooled(runs: list[dict]) -> dict:
    """Figures over all runs from summed counts (module docstring); other figures are means of the runs'."""
    if len(runs) == 1:
        return summary(runs[0])
    sums = [summary(r) for r in runs]
    out = {}
    for k in sums[0]:
        vals = [s[k] for s in sums if isinstance(s.get(k), (int, float)) and s.get(k) is not None]
        if vals and not k.startswith("q:"):
            out[k] = float(np.mean(vals))
    fms = [r["scores"]["final_map"] for r in runs]
    tp, fp, fn = (sum(f["label_rule"][x] for f in fms) for x in ("tp", "fp", "fn"))
    out["object_precision"], out["object_recall"], out["object_f1_label"] = _f1(tp, fp, fn)
    n_mem = sum(f["memory"] for f in fms)
    out["duplicates"] = sum(f["duplicates"] for f in fms)
    out["duplicate_rate"] = out["duplicates"] / n_mem if n_mem else 0.0
    ch = [r["scores"]["changes"] for r in runs]
    out["false_removals"] = sum(c["false_removals"] for c in ch)
    visits = sum(c["stayed_put_object_visits"] for c in ch)
    out["false_removal_rate"] = out["false_removals"] / visits if visits else 0.0
    out["flicker_events"] = sum(c.get("flicker_events", 0) for c in ch)
    out["reappeared_events"] = sum(c.get("reappeared_events", 0) for c in ch)
    for kind in ("appeared", "moved", "removed"):
        tp, fp, fn = (sum(c[kind][x] for c in ch) for x in ("tp", "fp", "fn"))
        out[f"{kind}_f1"] = _f1(tp, fp, fn)[2]
        out[f"{kind}_counts"] = f"{tp}/{fp}/{fn}"
    ops = sorted({op for r in runs for op in r["scores"]["questions"]})
    for op in ops:
        n = sum(r["scores"]["questions"].get(op, {}).get("n", 0) for r in runs)
        c = sum(r["scores"]["questions"].get(op, {}).get("correct", 0) for r in runs)
        out[f"q:{op}"] = c / n if n else None
        out[f"n:{op}"] = n
    return out


def questions_pooled(runs: list[dict]) -> tuple[int, int]:
    """(correct, asked) over every question of every run."""
    c = sum(v["correct"] for r in runs for v in r["scores"]["questions"].values())
    n = sum(v["n"] for r in runs for v in r["scores"]["questions"].values())
    return c, n


def _fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "NO"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


ORDER = ("object_precision", "object_recall", "object_f1_label", "object_f1_iou", "duplicate_rate", "duplicates",
         "centroid_error_m", "label_accuracy", "map_f1_min_over_times", "moved_f1", "moved_counts", "removed_f1",
         "removed_counts", "appeared_f1", "appeared_counts", "false_removal_rate", "false_removals",
         "false_removal_rate_hard", "flicker_events", "reappeared_events", "delay_median_s")


def table(columns: dict[str, dict], targets: bool = False) -> str:
    """Metrics as rows, one column per entry; targets=True adds the target and whether the last column meets it."""
    keys = [k for k in ORDER if any(k in c for c in columns.values())]
    for col in columns.values():
        for k in col:
            if k not in keys and not k.startswith("n:"):
                keys.append(k)
    width = max(len(k) for k in keys) + 2
    names = list(columns) + (["target", "met"] if targets else [])
    lines = [f"{'metric':<{width}}" + "".join(f"{name:>14}" for name in names)]
    lines.append("-" * len(lines[0]))
    last = list(columns.values())[-1]
    for k in keys:
        row = f"{k:<{width}}" + "".join(f"{_fmt(col.get(k)):>14}" for col in columns.values())
        if targets:
            t = target_of(k)
            row += f"{(t[0] + ' ' + _fmt(t[1])) if t else '':>14}{_fmt(meets(k, last.get(k))) if t else '':>14}"
        lines.append(row)
    return "\n".join(lines)


def _rel(t: float, t0: float) -> str:
    return f"t+{t - t0:.1f}s"


def failures(run: dict, gt_time_base: float | None = None) -> list[str]:
    """The per-seed failure list: what the memory got wrong, with labels, places and stamps."""
    s = run["scores"]
    t0 = gt_time_base if gt_time_base is not None else run.get("time_base", 0.0)
    fm, ch = s["final_map"], s["changes"]
    lines = []
    if fm.get("missed_list"):
        lines.append("  missed objects (final map): " + ", ".join(f"{lab} {c}" for lab, c in fm["missed_list"]))
    if fm.get("false_list"):
        lines.append("  false objects (final map): " + ", ".join(f"{lab} {c}" for lab, c in fm["false_list"]))
    if fm.get("duplicate_list"):
        lines.append("  duplicates (final map): " + ", ".join(f"{lab} {c}" for lab, c in fm["duplicate_list"]))
    for kind in ("appeared", "moved", "removed"):
        if ch[kind]["false_events"]:
            lines.append(f"  false {kind}: " + ", ".join(f"{lab} {_rel(t, t0)}" for lab, t in ch[kind]["false_events"]))
        if ch[kind]["missed"]:
            lines.append(f"  missed {kind}: " + ", ".join(f"{lab} {_rel(t, t0)}" for lab, t in ch[kind]["missed"]))
    if ch.get("false_removal_list"):
        lines.append("  false removals (object still there): "
                     + ", ".join(f"{lab} {_rel(t, t0)}" for lab, t in ch["false_removal_list"]))
    if ch.get("flicker_list"):
        lines.append("  flicker (removed -> reappeared): "
                     + ", ".join(f"{lab} {_rel(a, t0)}->{b - a:.1f}s" for lab, a, b in ch["flicker_list"]))
    for op, v in sorted(s["questions"].items()):
        for w in v["wrong"]:
            lines.append(f"  wrong {op}: {w['text']!r} ({w['detail']})")
    return lines


def delivery(run: dict) -> list[str]:
    """A nodes run's line: what reached the perception node against what the bag holds (NodesPipeline.replay),
    and the frames the memory staged; none for an offline run (or a nodes run recorded before the count)."""
    info = run.get("run") or {}
    if "received" not in info:
        return []
    lost = {t: n for t, n in info["lost"].items() if n}
    parts = [f"{t} {info['received'][t]}/{info['bag'][t]}" for t in sorted(info["received"])]
    return [f"  reached the perception node (of the bag): {', '.join(parts)}; "
            f"{'LOST ' + str(lost) if lost else 'nothing lost'}; the memory staged "
            f"{info['memory_staged_frames']} frames"]


#: What a run recorded before stop 51 (only the name its scene recorded) means in today's presets: the default of
#: then is ``plain``, the ``real`` of then is today's ``default``.
NOISE_BEFORE_51 = {"default": "plain", "real": "default"}


def noise_preset(run: dict) -> str:
    """The run's noise preset in today's names, with its overrides if any ("default", "plain", "default + mask_bleed_px
    6.0"). Why: one name must never stand for two noises in a report: runs of both are compared side by side."""
    if "noise_preset" in run:
        name = run["noise_preset"]
    else:
        name = NOISE_BEFORE_51.get(run.get("noise", "default"), run.get("noise", "default"))
    extra = ", ".join(f"{k} {v}" for k, v in sorted((run.get("noise_overrides") or {}).items()))
    return f"{name} + {extra}" if extra else name


def report(runs: list[dict]) -> str:
    """Per seed: what ran and its failure list; then the table (per seed, pooled, target, met)."""
    text = []
    for r in runs:
        noise = f", noise {noise_preset(r)}"
        head = (f"seed {r['seed']} (profile {r.get('profile', '?')}{noise}, {r.get('fps', '?')} Hz, {r['mode']}, "
                f"{r['frames']} frames, {r['questions']} questions; generated in {r.get('gen_s', '-')} s, "
                f"evaluated in {r['wall_s']} s)")
        text.append("\n".join([head] + delivery(r) + (failures(r) or ["  no failure"])))
    cols = {f"seed {r['seed']}": summary(r) for r in runs}
    if len(runs) > 1:
        cols["pooled"] = pooled(runs)
    c, n = questions_pooled(runs)
    text.append(table(cols, targets=True) + f"\nall questions: {c}/{n} = {c / n if n else 0:.3f}")
    return "\n\n".join(text)


DECISION_FIELDS = ("scores", "questions", "snapshot")


def decision_differences(a: dict, b: dict) -> list[str]:
    """Where two result files' memories decided differently: for each run (matched by seed, profile and mode) the
    fields of DECISION_FIELDS that differ, and runs only one file has. Empty: the same scores, answers and final
    graph in every run (run times and paths are not compared). Why: a change meant to keep behaviour (a
    restructuring) is shown to keep it by this, not by pooled figures that could hide two opposite changes."""
    def key(run: dict) -> tuple:
        return (run["seed"], run["profile"], run["mode"])

    ra, rb = {key(r): r for r in a["runs"]}, {key(r): r for r in b["runs"]}
    out = []
    for k in sorted(set(ra) | set(rb), key=str):
        if k not in ra or k not in rb:
            out.append(f"seed {k[0]} {k[1]} {k[2]}: only in {'B' if k not in ra else 'A'}")
            continue
        fields = [f for f in DECISION_FIELDS if ra[k].get(f) != rb[k].get(f)]
        if fields:
            out.append(f"seed {k[0]} {k[1]} {k[2]}: {', '.join(fields)} differ")
    return out


def compare(a: dict, b: dict) -> str:
    pa, pb = pooled(a["runs"]), pooled(b["runs"])
    delta = {k: (pb[k] - pa[k]) if isinstance(pa.get(k), (int, float)) and isinstance(pb.get(k), (int, float))
             and not isinstance(pa.get(k), bool) else None for k in pb}
    differ = decision_differences(a, b)
    runs = len({(r["seed"], r["profile"], r["mode"]) for r in a["runs"] + b["runs"]})
    same = (f"decisions: identical in all {runs} runs (scores, question answers, final graph)" if not differ else
            f"decisions: {len(differ)} of {runs} runs differ\n  " + "\n  ".join(differ))
    return table({"A": pa, "B": pb, "B - A": delta}) + "\n\n" + same
