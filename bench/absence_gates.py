"""Which gate of the absence test refused each miss at a true object's old place after it moved or was removed.

    python bench/absence_gates.py --scene DIR [--object TRUE_ID ...] [--max-frames N]

Runs the scene offline (as tempomem_eval --mode offline does) with FrameFusion._absence wrapped: for every true
`moved` / `removed` event (or only those of --object), every frame after the change in which the true old box is
in view (its samples seen through on the view's depth, visible_fractions with every object detectable) is
listed with the memory objects at that place (core-box centre within 0.3 m of the true old centre) and the first
gate of the absence test that stopped the miss: out of the candidates (not present/tentative), matched (a
sighting fused into it), geometry (samples: outside, unknown depth, occluded, claimed), not detectable (the
estimate, sighted floor, reported view), hidden (under min_visible_fraction, not resolved in part),
might_be (a sighting of the frame at its place, with its label), holds_furniture, not displaced, seen_in_look
(its own last sighting or a reading at its place within look_gap_s), or MISS (counted). Why: stop 54's class of
missed moves and late removals whose old place was seen in many frames with no miss counted; the removal_trace
tool shows only the misses that were counted.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from tempomem_ros.core import frame_fusion as ff
from tempomem_ros.core.absence import _SIGNS, expected_mask_px, min_expected_px, projected_depth, visible_fractions

NEAR_M = 0.3
FULL = {}   # the last frame's full-resolution depth (the coarse view's depth is min-pooled per block)


def sample_reasons(view, lo, hi, acfg):
    """Counts of the 9 samples of box lo..hi by the first test that refused them (no claims)."""
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    c, h = 0.5 * (lo + hi), 0.5 * (hi - lo)
    s = np.concatenate([c[None], c[None] + 0.5 * _SIGNS * h[None]])
    origin = view.pose[:3, 3]
    z, u, v, ok, d = projected_depth(view, s, acfg)
    step = s - origin
    step = np.where(np.abs(step) < 1e-12, 1e-12, step)
    t_lo, t_hi = (lo - origin) / step, (hi - origin) / step
    ref = np.clip(np.minimum(t_lo, t_hi).max(axis=1), 0, 1) * z
    known = np.isfinite(d) & (d > 0)
    occl = ok & known & (d < ref - acfg.occlusion_tolerance)
    out = {"out": int((~ok).sum()), "nodepth": int((ok & ~known).sum()), "occluded": int(occl.sum()),
           "occl_by_m": [round(float(x), 2) for x in (ref - d)[occl]]}
    full = FULL.get("depth")
    if full is not None:
        fh, fw = full.shape
        fc = np.clip(np.where(ok, u, 0).astype(int), 0, fw - 1)
        fr = np.clip(np.where(ok, v, 0).astype(int), 0, fh - 1)
        df = full[fr, fc].astype(float)
        kf = np.isfinite(df) & (df > 0)
        out["occluded_fullres"] = int((ok & kf & (df < ref - acfg.occlusion_tolerance)).sum())
    return out


class Tracer:
    def __init__(self, gt):
        tb = gt.get("time_base", 0.0)
        self.tb = tb
        self.targets = []   # (true id, label, kind, t_change, lo, hi, centre)
        for e in gt["events"]:
            if e["kind"] in ("moved", "removed") and e.get("before"):
                b = e["before"]
                self.targets.append((e["object"], e["label"], e["kind"], e["t_world"], np.array(b["bbox_min"]),
                                     np.array(b["bbox_max"]), np.array(b["center"])))
        self.rows = defaultdict(list)   # target index -> [(stamp, truth_vis, expected px, [(mem id, label, gate)])]
        self.misses = set()
        self.min_vis = 0.6
        self.reasons = {}

    def wrap(self):
        orig = ff.FrameFusion._absence
        tracer = self

        def _absence(fusion, frame, view, matched, items, counters, touched, fused=None, rows=None, parts=None):
            if view is not None:
                try:
                    tracer.observe(fusion, frame, view, matched, items, fused or {}, rows or {})
                except Exception as exc:  # a tracer must never change the run
                    print("tracer error", exc)
            return orig(fusion, frame, view, matched, items, counters, touched, fused, rows, parts=parts)
        ff.FrameFusion._absence = _absence

        orig_add = None

        def patch_rows(fusion):
            nonlocal orig_add
            r = fusion._rows
            if getattr(r, "_traced", False):
                return
            orig_add = r.add_miss

            def add_miss(obj_id, frame_id, placement_id, stamp, frac, state, due):
                tracer.misses.add((int(obj_id), round(float(stamp), 4)))
                return orig_add(obj_id, frame_id, placement_id, stamp, frac, state, due)
            r.add_miss = add_miss
            r._traced = True
        self.patch_rows = patch_rows

    def observe(self, fusion, frame, view, matched, items, fused, rows):
        self.patch_rows(fusion)
        stamp = float(frame["stamp"])
        acfg = fusion.config.absence
        active = [k for k, t in enumerate(self.targets) if stamp > t[3]]
        if not active:
            return
        lo = np.array([self.targets[k][4] for k in active])
        hi = np.array([self.targets[k][5] for k in active])
        vis = visible_fractions(view, lo, hi, acfg, detectable=np.ones(len(active), bool))
        px = expected_mask_px(view, lo, hi, acfg, 1.0)
        floor = min_expected_px(view, acfg)
        for k, v, p in zip(active, vis, px):
            t = self.targets[k]
            if self.min_vis <= 0:
                if sample_reasons(view, t[4], t[5], acfg)["out"] >= 5:
                    continue
            elif v < self.min_vis:
                continue
            if stamp > t[3] + 1e9:
                continue
            if self.min_vis <= 0:
                self.reasons[(k, stamp)] = sample_reasons(view, t[4], t[5], acfg)
            self.rows[k].append((stamp, float(v), float(p), float(floor), self.gates(fusion, frame, view, matched,
                                                                                      items, fused, rows, t, stamp)))

    def gates(self, fusion, frame, view, matched, items, fused, rows, t, stamp):
        ahead = fusion._in_view_ahead
        in_view = ahead if ahead is not None else fusion._candidates(*ff._view_box(view),
                                                                     states=("present", "tentative"))
        # memory objects near the true old place: every state
        cands = fusion._candidates(t[4] - NEAR_M, t[5] + NEAR_M, states=("present", "tentative", "missing"))
        out = []
        ids_in = {int(o.id) for o in in_view}
        for o in cands:
            lo, hi = ff._core_box(o)
            c = 0.5 * (np.array(lo) + np.array(hi))
            if np.linalg.norm(c - t[6]) > NEAR_M:
                continue
            out.append((int(o.id), o.label, self.gate(fusion, view, matched, items, fused, rows, o, ids_in,
                                                      stamp, in_view)))
        return out

    def gate(self, fusion, view, matched, items, fused, rows, obj, ids_in, stamp, in_view):
        acfg = fusion.config.absence
        if obj.state not in ("present", "tentative"):
            return f"state:{obj.state}"
        if int(obj.id) in matched:
            labs = [s.label for s in items if fused.get(s.id) == obj.id]
            return f"matched:{'/'.join(labs)}"
        if int(obj.id) not in ids_in:
            return "not_candidate"
        lo, hi = ff._core_box(obj)
        lo_a, hi_a = np.array([lo]), np.array([hi])
        born = {int(o.id): float(o.first_seen) for o in list(rows.values()) + list(in_view)}
        geo = visible_fractions(view, lo_a, hi_a, acfg, detectable=np.ones(1, bool))[0]
        seen = visible_fractions(view, lo_a, hi_a, acfg, detectable=np.ones(1, bool),
                                 claims=ff._claims(items, [obj], fused, born, stamp))[0]
        det = fusion._detectable(view, [obj], lo_a, hi_a, np.array([seen]))[0]
        est = float(expected_mask_px(view, lo_a, hi_a, acfg, 1.0)[0])
        frac = seen if det else 0.0
        in_part = bool(ff._resolved_in_part(view, lo_a, hi_a, np.array([frac]), acfg)[0])
        hidden = frac < acfg.min_visible_fraction and not in_part
        furniture = ff._is_furniture(obj, fusion.config.identity)
        why = f"geo {geo:.2f} claimed->{seen:.2f} est {est:.0f}px det {int(det)}"
        if hidden and not furniture:
            if not det and seen >= acfg.min_visible_fraction:
                sf = fusion._sighted_floor(view, obj, np.array(lo), np.array(hi), min_expected_px(view, acfg)) \
                    if obj.placement_id is not None else None
                return f"not_detectable(sighted floor {sf}) " + why
            if seen < geo:
                return "claimed " + why
            r = sample_reasons(view, lo, hi, acfg)
            return f"hidden({'out' if r['out'] >= 4 else 'occluded' if r['occluded'] else 'nodepth'}) " + why + \
                f" {r}"
        pairs = ff._ViewPairs(items, [obj], fusion.config.fusion.same_place_tol, pad=ff.PART_TOLERANCE_M)
        mb = [s for s in pairs.centred_in(0) if fusion._might_be(s, obj)]
        if mb:
            return "might_be:" + "/".join(f"{s.label}->{fused.get(s.id)}" for s in mb) + " " + why
        if furniture and any(fusion._holds_furniture(s, obj) for s in pairs.near_within(0)):
            return "holds_furniture " + why
        if hidden and not fusion._displaced(view, obj, [s for s in pairs.touching(0)
                                                       if not ff._a_neighbour(s, obj, fused, born)]):
            return "hidden_furniture " + why
        if fusion._seen_in_look(obj, stamp, pairs.touching(0)):
            place = fusion._place_sighted_in_look(obj, stamp)
            return f"seen_in_look(last {stamp - float(obj.last_seen):.1f}s place " \
                   f"{None if place is None else round(stamp - place, 1)}) " + why
        return "MISS " + why


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scene", required=True, type=Path)
    ap.add_argument("--object", type=int, nargs="*")
    ap.add_argument("--max-frames", type=int, default=60)
    ap.add_argument("--min-vis", type=float, default=0.6)
    ap.add_argument("--store", default="/tmp/absence_gates.db")
    a = ap.parse_args()
    from tempomem_ros.perception import PerceptionConfig
    from tempomem_ros.tools.evaluate import memory_params, perception_params
    from tempomem_ros.tools.evaluation.offline import run_offline
    gt = json.loads((a.scene / "ground_truth.json").read_text())
    tr = Tracer(gt)
    if a.object:
        tr.targets = [t for t in tr.targets if t[0] in a.object]
    tr.min_vis = a.min_vis
    from tempomem_ros.tools.evaluation import offline as off
    mk = off.make_camera_view

    def make_camera_view(depth, *args, **kw):
        FULL["depth"] = depth
        return mk(depth, *args, **kw)
    off.make_camera_view = make_camera_view
    tr.wrap()
    Path(a.store).unlink(missing_ok=True)
    mem = run_offline(a.scene / "bag", a.store, perception=PerceptionConfig(**perception_params(gt)),
                      embedding_dim=memory_params(gt).get("embedding_dim", 32))
    mem.close()
    for k, t in enumerate(tr.targets):
        rows = tr.rows.get(k, [])
        print(f"== true #{t[0]} {t[1]} {t[2]} at {t[3] - tr.tb:.1f} s from {np.round(t[6], 2).tolist()}: "
              f"{len(rows)} frames with the old place in view")
        tally = Counter()
        for stamp, v, p, floor, g in rows[:a.max_frames]:
            gl = "; ".join(f"#{i} {lab}: {gate}" for i, lab, gate in g) or "no memory object there"
            counted = any((i, round(stamp, 4)) in tr.misses for i, _, _ in g)
            extra = ""
            if a.min_vis <= 0:
                extra = str(tr.reasons.get((k, stamp)))
            mark = "[miss]" if counted else ""
            print(f"  {stamp - tr.tb:8.2f} truth vis {v:.2f} est {p:.0f}/{floor:.0f}px {mark}{extra}"
                  f" {gl}")
        for stamp, v, p, floor, g in rows:
            for i, lab, gate in g:
                tally[gate.split(" ")[0].split("(")[0].split(":")[0]] += 1
        print("  tally:", dict(tally))


if __name__ == "__main__":
    main()
