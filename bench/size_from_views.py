"""How well an object's size follows its true size: the largest view against a running quantile of the views.

Run: .venv/bin/python bench/size_from_views.py WORKDIR
WORKDIR is a `tempomem_eval --workdir` folder (scenes plus their `*-offline.db` stores, e.g. seeds 230-259
profile default). For every object still placed at the end whose label and place (within 0.3 m on the floor
plane) match a ground-truth object, the views its store kept (observations, in stamp order) are replayed through
fusion.size_after_sighting twice: with the quantile off (the maximum of the views, bounded per view by the
growth bound as merge_geometry does) and with the configured quantile (fusion.size_quantile* defaults; a
footprint over size_quantile_below keeps the maximum). It prints, per kind (furniture / small), the share of
objects whose size ends over 1.3 x and under 0.8 x their true footprint. Why: every identity and absence rule
reads an object's size, and a real pipeline's worst view is a mask bled onto the background.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

import numpy as np

from tempomem_ros.core import fusion
from tempomem_ros.core.config import FusionConfig


def _truth(gt: dict, label: str, x: float, y: float):
    best = None
    for o in gt["objects"]:
        if o["label"] != label:
            continue
        for iv in o["intervals"]:
            d = float(np.hypot(iv["center"][0] - x, iv["center"][1] - y))
            if d < 0.3 and (best is None or d < best[0]):
                best = (d, o["kind"], max(np.subtract(iv["bbox_max"], iv["bbox_min"])[:2]))
    return best


def replay(views: np.ndarray, cfg: FusionConfig, quantile_on: bool) -> float:
    """The object's footprint size after folding its views (x, y, z extents) in order."""
    ext = views[0].copy()
    for n, v in enumerate(views[1:], start=1):
        v = np.minimum(v, fusion.growth_limit(ext, cfg.box_growth_factor, cfg.geometry_scale))
        tracked = quantile_on and fusion.size_is_tracked(ext, n, cfg.size_quantile_after, cfg.size_step,
                                                         cfg.size_quantile_below)
        ext = fusion.size_after_sighting(ext, v, tracked, cfg.size_quantile, cfg.size_step)
    return float(max(ext[0], ext[1]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("workdir", type=Path)
    ap.add_argument("--min-views", type=int, default=10)
    args = ap.parse_args(argv)
    cfg = FusionConfig()
    ratios: dict[tuple[str, bool], list[float]] = {}
    for store in sorted(args.workdir.glob("*-offline.db")):
        gt = json.loads((args.workdir / store.name.replace("-offline.db", "") / "ground_truth.json").read_text())
        db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
        rows = db.execute("SELECT o.id, o.label, p.cx, p.cy FROM objects o JOIN placements p "
                          "ON p.object_id = o.id AND p.t_to IS NULL").fetchall()
        for oid, label, x, y in rows:
            truth = _truth(gt, label, x, y)
            views = np.array(db.execute("SELECT max_x - min_x, max_y - min_y, max_z - min_z FROM observations "
                                        "WHERE object_id = ? ORDER BY stamp, id", (oid,)).fetchall(), float)
            if truth is None or len(views) < args.min_views:
                continue
            kind = "furniture" if truth[1] == "furniture" else "small"
            for on in (False, True):
                ratios.setdefault((kind, on), []).append(replay(views, cfg, on) / truth[2])
        db.close()
    print(f"{'kind':10s} {'size':9s} {'objects':>7s} {'median':>7s} {'> 1.3x':>7s} {'< 0.8x':>7s}")
    for (kind, on), r in sorted(ratios.items()):
        a = np.array(r)
        print(f"{kind:10s} {'quantile' if on else 'maximum':9s} {len(a):7d} {np.median(a):7.2f} "
              f"{np.mean(a > 1.3):7.2f} {np.mean(a < 0.8):7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
