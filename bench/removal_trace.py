"""Why each removal the memory decided (or never decided) happened: the misses since the object's last sighting,
grouped into looks and viewpoints, each miss judged against the scene's re-rendered truth.

    python bench/removal_trace.py --scene DIR --store DIR-offline.db [--render]

Reads a copy of the store (never the original) and the scene's ground_truth.json. For every `removed` event:
the matched true object and whether it still stood at its place, the misses that led to it (stamp, visible
fraction, camera position, range, look, viewpoint cluster) and, with --render, what the generator's camera saw
there in that frame (unoccluded pixels within range, pixels with nothing in front, the detection probability,
what the segmenter reported). For every true removal without a memory removal: the memory object at the place and
its misses since the change. Why: stop 50's question, which evidence let false removals through and which
removals never came, asked on each miss rather than on the failure list.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import tempfile
from pathlib import Path

import numpy as np

LOOK_GAP = 3.0
VIEW_M = 0.5


def _pose(blob):
    from tempomem_ros.core.retention import stored_pose
    return stored_pose(blob)


def _looks(stamps):
    out, cur, prev = [], [], None
    for t in stamps:
        if prev is not None and t - prev > LOOK_GAP:
            out.append(cur)
            cur = []
        cur.append(t)
        prev = t
    if cur:
        out.append(cur)
    return out


class Renderer:
    def __init__(self, gt):
        from tempomem_ros.tools.scenegen import detection as det
        from tempomem_ros.tools.scenegen.config import SceneConfig, recorded_noise
        from tempomem_ros.tools.scenegen.frames import FrameRenderer
        from tempomem_ros.tools.scenegen.script import build_script
        from tempomem_ros.tools.scenegen.world import build_world
        seed, attempt = int(gt["seed"]), int(gt["attempt"])
        noise, overrides = recorded_noise(gt["config"])   # a scene of before stop 51 says "default" for plain
        cfg = SceneConfig(profile=gt["profile"], width=gt["config"]["width"], height=gt["config"]["height"],
                          visits=gt["config"]["visits"], fps=gt["config"]["fps"], noise=noise,
                          noise_overrides=overrides)
        cfg = cfg.resolved(seed)
        world = build_world(np.random.default_rng([seed, attempt, 1]), cfg)
        script = build_script(np.random.default_rng([seed, attempt, 2]), world, cfg)
        self.r = FrameRenderer(seed, attempt, cfg, world, script)
        self.det, self.cfg = det, cfg
        self.by_ns = {f.stamp_ns: f for f in script.frames}

    def view(self, stamp_ns, oid):
        """(unoccluded px in range, ghost px, detection probability) of true object oid in the frame."""
        from tempomem_ros.tools.scenegen.frames import look_pose
        r, cfg, det = self.r, self.cfg, self.det
        plan = self.by_ns.get(stamp_ns)
        if plan is None:
            return None
        pose = look_pose(plan.position, plan.yaw, plan.pitch)
        parts = r._parts(plan.stamp_ns)
        lo = np.array([p[0].lo for p in parts], float).reshape(-1, 3)
        hi = np.array([p[0].hi for p in parts], float).reshape(-1, 3)
        owners = np.array([p[1] for p in parts], dtype=np.int64)
        e = np.zeros((0, 3))
        geo = r.caster.cast(pose, r.world.envelope.lo, r.world.envelope.hi, lo, hi, e, e, owners)
        in_range = geo.depth <= cfg.max_range
        hit = geo.part >= 0
        owner_map = np.where(hit, owners[np.maximum(geo.part, 0)], 0)
        vis = int(((owner_map == oid) & in_range).sum())
        allpx = int((owner_map == oid).sum())
        ghost = int((geo.ghost_union or {}).get(oid, allpx))
        obj = r._objects.get(oid)
        pl = obj.placement_at(plan.stamp_ns) if obj else None
        front = ""
        mine = owners == oid
        if mine.any():
            alone = r.caster.cast(pose, r.world.envelope.lo, r.world.envelope.hi, lo[mine], hi[mine], e, e,
                                  owners[mine])
            sil = (alone.part >= 0) & (alone.depth <= cfg.max_range)
            cover = owner_map[sil]
            ids, counts = np.unique(cover[cover != oid], return_counts=True)
            front = " ".join(f"{r._objects[int(i)].label if int(i) in r._objects else 'world'}#{int(i)}:{int(c)}"
                             for i, c in zip(ids, counts))
        if pl is None or vis < cfg.min_pixels:
            return vis, ghost, 0.0, front
        cut = det.truncation(pose, cfg.fx, cfg.fx, cfg.cx, cfg.cy, cfg.width, cfg.height, pl.box.lo, pl.box.hi)
        hidden = max(0.0, 1.0 - allpx / ghost) if ghost > 0 else 1.0
        z = float((np.asarray(pl.box.center) - pose[:3, 3]) @ pose[:3, 2])
        p = det.detection_probability(vis * cfg.pixel_scale, z, cut, hidden, r.noise)
        return vis, ghost, round(float(p), 3), front


def _true_at(gt, label, centre, t, tol=0.6):
    """The true object whose placement (at time t, else one that ended before t) is nearest centre; same label and
    a placement holding t preferred."""
    best = None
    for o in gt["objects"]:
        for iv in o["intervals"]:
            if iv["t_from"] <= t:
                d = float(np.linalg.norm(np.asarray(iv["center"]) - centre))
                key = (o["label"] != label, not (iv["t_to"] is None or t < iv["t_to"]), d)
                if d <= tol and (best is None or key < best[0]):
                    best = (key, o, iv)
    return None if best is None else (best[1], best[2])


def trace(scene: Path, store: Path, render: bool):
    gt = json.loads((scene / "ground_truth.json").read_text())
    tmp = Path(tempfile.mkdtemp(prefix="rtrace"))
    db = tmp / "s.db"
    shutil.copy(store, db)
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    rend = Renderer(gt) if render else None
    frames_gt = {round(f["stamp"], 4): f for f in gt["frames"]}
    print(f"== {scene.name}  fps {gt['fps']}")
    evs = con.execute("SELECT * FROM events WHERE kind='removed' AND retracted=0 ORDER BY stamp").fetchall()
    for ev in evs:
        oid = ev["object_id"]
        det = json.loads(ev["detail"] or "{}")
        pl = con.execute("SELECT * FROM placements WHERE object_id=? AND t_from<=? ORDER BY t_from DESC LIMIT 1",
                         (oid, ev["stamp"])).fetchone()
        centre = np.array([pl["cx"], pl["cy"], pl["cz"]]) if pl else None
        size = np.array([pl["max_x"] - pl["min_x"], pl["max_y"] - pl["min_y"], pl["max_z"] - pl["min_z"]]) \
            if pl else None
        last = con.execute("SELECT MAX(stamp) FROM observations WHERE object_id=? AND stamp<?",
                           (oid, ev["stamp"])).fetchone()[0]
        nobs = con.execute("SELECT COUNT(*) FROM observations WHERE object_id=?", (oid,)).fetchone()[0]
        misses = con.execute(
            "SELECT m.stamp, m.visible_fraction, f.pose, f.width FROM misses m JOIN frames f ON f.id=m.frame_id "
            "WHERE m.object_id=? AND m.stamp>? AND m.stamp<=? ORDER BY m.stamp",
            (oid, last or -1e9, ev["recorded_at"] + 5)).fetchall()
        truth = _true_at(gt, ev["label"], centre, ev["stamp"]) if centre is not None else None
        if truth:
            o, iv = truth
            still = iv["t_to"] is None or iv["t_to"] > ev["recorded_at"]
            tdesc = f"true #{o['id']} {o['label']} at {np.round(iv['center'], 2).tolist()} " \
                    f"{'STILL THERE' if still else 'left at %.1f' % iv['t_to']}"
        else:
            o, still = None, False
            tdesc = "no true object there (gone / false object)"
        print(f"-- removed #{oid} {ev['label']} stamp {ev['stamp']:.1f} decided {ev['recorded_at']:.1f} "
              f"last seen {last if last is None else round(last, 1)} n_obs {nobs} box {np.round(size, 2).tolist()}"
              f"\n   {tdesc}")
        stamps = [m["stamp"] for m in misses]
        cams = []
        for m in misses:
            cams.append(_pose(m["pose"])[:3, 3] if m["pose"] is not None else np.full(3, np.nan))
        clusters = []
        for c in cams:
            for k, cc in enumerate(clusters):
                if np.linalg.norm(c - cc) < VIEW_M:
                    break
            else:
                clusters.append(c)
        looks = _looks(stamps)
        print(f"   misses {len(stamps)} looks {len(looks)} "
              f"({', '.join('%d@%.1f+%.2fs' % (len(lk), lk[0], lk[-1] - lk[0]) for lk in looks)}) "
              f"viewpoints {len(clusters)}")
        for m, c in zip(misses, cams):
            rng_m = float(np.linalg.norm(c - centre)) if centre is not None else float("nan")
            line = f"     {m['stamp']:.2f} vis {m['visible_fraction']:.2f} cam {np.round(c, 2).tolist()} " \
                   f"range {rng_m:.2f}"
            if o is not None:
                fg = frames_gt.get(round(m["stamp"], 4))
                if fg is not None:
                    ins = [i for i in fg["instances"] if i["object"] == o["id"]]
                    line += " seg " + (",".join(f"{i['label']}:{i['pixels']}px{'' if i['kept'] else '(dropped)'}"
                                                for i in ins) or "none")
                    if rend is not None and still or (rend is not None and o is not None):
                        v = rend.view(fg["stamp_ns"], o["id"])
                        if v is not None:
                            line += f" truth vis {v[0]}px ghost {v[1]}px p {v[2]}" + (f" behind {v[3]}" if v[3] else "")
            print(line)
        print(f"   detail {json.dumps(det)[:300]}")
    # true removals with no memory removal near
    print("-- true removals")
    mem = [(e["stamp"], e["label"], e["object_id"]) for e in evs]
    for e in gt["events"]:
        if e["kind"] != "removed":
            continue
        c = np.asarray(e["before"]["center"])
        found = False
        for s, lab, mo in mem:
            p = con.execute("SELECT cx,cy,cz FROM placements WHERE object_id=? ORDER BY t_from DESC LIMIT 1",
                            (mo,)).fetchone()
            if p and np.linalg.norm(np.array(p) - c) <= 0.5 and s >= e["t_world"] - 1:
                found = True
        print(f"   {e['label']} #{e['object']} removed at {e['t_world']:.1f} observable {e['t_observable']} "
              f"{'found' if found else 'MISSED'}")
        if found:
            continue
        rows = con.execute("SELECT o.id, o.label, o.state, o.cx, o.cy, o.cz, o.last_seen FROM objects o").fetchall()
        near = [r for r in rows if np.linalg.norm(np.array([r["cx"], r["cy"], r["cz"]]) - c) <= 0.5]
        for r in near:
            ms = con.execute("SELECT m.stamp, m.visible_fraction, f.pose FROM misses m JOIN frames f ON "
                             "f.id=m.frame_id WHERE m.object_id=? AND m.stamp>=? ORDER BY m.stamp",
                             (r["id"], e["t_world"])).fetchall()
            obs = con.execute("SELECT stamp, label FROM observations WHERE object_id=? AND stamp>=? ORDER BY stamp",
                              (r["id"], e["t_world"])).fetchall()
            lk = _looks([m["stamp"] for m in ms])
            print(f"     mem #{r['id']} {r['label']} {r['state']} last_seen {r['last_seen']:.1f}; misses after: "
                  f"{len(ms)} in {len(lk)} looks "
                  f"({', '.join('%d@%.1f+%.2fs' % (len(x), x[0], x[-1] - x[0]) for x in lk)}); "
                  f"sightings after {len(obs)} {sorted({x['label'] for x in obs})}")
            for m in ms[:12]:
                print(f"       {m['stamp']:.2f} vis {m['visible_fraction']:.2f} "
                      f"cam {np.round(_pose(m['pose'])[:3, 3], 2).tolist()}")
        # frames that looked at the place after the change (from the truth's probes)
    shutil.rmtree(tmp)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scene", required=True, type=Path)
    ap.add_argument("--store", required=True, type=Path)
    ap.add_argument("--render", action="store_true")
    a = ap.parse_args()
    trace(a.scene, a.store, a.render)


if __name__ == "__main__":
    main()
