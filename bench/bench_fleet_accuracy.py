"""Accuracy of a fleet on one PostgreSQL memory (issue 15): one generated scene's camera path split between two
robots, both staging into one database while one fuser fuses, against one robot seeing the whole path.

Why: the fleet's promise is "the same object map and events as one robot seeing both paths" (object F1 >= 0.97,
0 cross-robot duplicates, moves across robots counted once). The scene's frames are made once by the perception
math (tools/evaluation/offline.py observed_frames, as `tempomem_eval --mode offline`), then:

- reference: one Memory on SQLite adds and commits every frame in stamp order (the offline evaluation's run);
- fleet: a throwaway PostgreSQL 15 + PostGIS server; robot_a and robot_b are processes of their own, each staging
  its share of the frames (add() only: durable once it returns) on one shared schedule (frame k of the scene at
  ``start + k * pace``, whichever robot has it), while a third process, the fuser, fuses whatever is staged, batch
  after batch (docs/FLEET.md, "Staging beside fusion");
- ``--split visits``: the scene's visits alternate between the robots (visit 0 robot_a, visit 1 robot_b, ...), so
  an object moved between visits is seen before the move by one robot and after it by the other;
  ``--split frames``: the frames of every visit alternate (two robots walking the path together: the same objects
  seen by both within a fraction of a second).

Both stores are scored by the evaluation's scorer (tools/evaluation/score.py: the final map at the ask time, object
F1 by label and distance, duplicates; changes appeared / moved / removed). A cross-robot duplicate is a duplicate of
the final map (a second memory object of one true object) whose sightings and those of the object matched to it
come from different robots only. Also judged: the fleet's map and events against the one robot's (the issue's "same
object map and events", `against_reference`). Also printed: the fuser's batches and each frame's staged ->
fused-visible latency.

The fuser fuses at most ``--max-frames`` frames a batch (default 50: FLEET_FUSE_BATCH, as `tempomem fuse`, the memory
node's commit_max_frames and bench_fleet's fuser; 0: every staged frame). Why bounded: unbounded, a fuser behind a
backlog fused it in one transaction holding the fusion lock past another writer's 5 s timeout (bench_fleet's fuser,
192-631 frames a batch at stop 44; docs/RESULTS.md section 7, round 15), and the scene's frames, staged faster than
they are fused on a loaded machine, made such a backlog here too.

    python bench/bench_fleet_accuracy.py --scene /work/ev/default/seed1-default [--scene ...] [--split visits|frames]
                                         [--pace 0.05] [--max-frames 50]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from tempomem_ros.core import Memory
from tempomem_ros.core.memory import FLEET_FUSE_BATCH


def robot(address: str, frames_path: str, source: str, start_at: float, pace: float, dim: int) -> dict:
    """Stage this robot's frames, each at its time on the shared schedule; wait until the fuser fused them."""
    with open(frames_path, "rb") as f:
        frames = pickle.load(f)
    mine = [(k, fr) for k, fr in enumerate(frames) if fr["robot"] == source]
    staged_at = []
    with Memory.open(address, embedding_dim=dim, config={"source": source}) as m:
        for k, fr in mine:
            delay = start_at + k * pace - time.time()
            if delay > 0:
                time.sleep(delay)
            result = m.stage(fr["obs"], fr["view"], stamp=fr["stamp"])
            staged_at.append((result.frame_id, time.time()))
        while m.pending():  # the fuser fuses them; close() would fuse them itself, under the fusion lock
            time.sleep(0.05)
    return {"staged_at": staged_at}


def fuser(address: str, n_frames: int, dim: int, max_frames: int | None = FLEET_FUSE_BATCH) -> dict:
    """Fuse every staged frame, batch after batch of at most ``max_frames`` (None: every staged frame), until all
    ``n_frames`` are fused."""
    batches, fused, deadline = [], 0, time.monotonic() + 3600.0
    with Memory.open(address, embedding_dim=dim, config={"source": "fuser"}) as m:
        while fused < n_frames and time.monotonic() < deadline:
            if not m.pending():
                time.sleep(0.005)
                continue
            t0 = time.perf_counter()
            stats = m.commit(max_frames)
            batches.append({"frames": list(stats.frame_ids), "ms": (time.perf_counter() - t0) * 1e3,
                            "visible_at": time.time()})
            fused += len(stats.frame_ids)
    return {"batches": batches}


def sources_of_objects(m: Memory, ids) -> dict[int, set]:
    return {oid: {h.source for h in m.history(oid)} for oid in ids}


def cross_robot_duplicates(final_map: list[dict], truth: list[dict], sources: dict[int, set]) -> list:
    """Duplicates of the final map (score_map's rule: a memory object of a true object's label within MATCH_DIST of
    it, the true object already matched to another) whose sources and the matched object's are disjoint."""
    from tempomem_ros.tools.evaluation import score as sc

    pairs = [(sc._dist(g["center"], o["center"]), gi, mi)
             for gi, g in enumerate(truth) for mi, o in enumerate(final_map)
             if sc._norm(g["label"]) == sc._norm(o["label"]) and sc._dist(g["center"], o["center"]) <= sc.MATCH_DIST]
    matched = {gi: mi for gi, mi, _ in sc._greedy(pairs)}
    matched_m = set(matched.values())
    out = []
    for _, gi, mi in pairs:
        if mi in matched_m or gi not in matched:
            continue
        a, b = sources[final_map[mi]["id"]], sources[final_map[matched[gi]]["id"]]
        if a and b and not (a & b):
            out.append((final_map[mi]["label"], sorted(a), sorted(b)))
    return sorted(set(out))


def scored(m: Memory, gt: dict) -> dict:
    from tempomem_ros.tools.evaluation import score as sc
    from tempomem_ros.tools.evaluation.snapshot import snapshot_from_memory

    snap = snapshot_from_memory(m, gt, [])
    result = sc.score_all(gt, [], snap)
    ask = float(gt["ask_time"])
    final = snap["objects_at"][sc._key(ask)]
    truth, _ = sc.truth_at(gt, ask)
    sources = sources_of_objects(m, [o["id"] for o in final])
    fm = result["final_map"]
    changes = result["changes"]
    return {"f1": fm["label_rule"]["f1"], "precision": fm["label_rule"]["precision"],
            "recall": fm["label_rule"]["recall"], "memory": fm["memory"], "truth": fm["truth"],
            "duplicates": fm["duplicates"], "cross_robot_duplicates": cross_robot_duplicates(final, truth, sources),
            "changes": {k: {"f1": changes[k]["f1"], "tp": changes[k].get("tp"), "fp": changes[k].get("fp"),
                            "fn": changes[k].get("fn")} for k in ("appeared", "moved", "removed")},
            "events": {k: sum(e["kind"] == k for e in snap["events"]) for k in ("appeared", "moved", "removed")},
            "objects_seen_by_both": sum(len(s) > 1 for s in sources.values()),
            "final": [{"label": o["label"], "center": list(o["center"])} for o in final],
            "event_list": [{"kind": e["kind"], "label": e["label"], "stamp": e["stamp"]} for e in snap["events"]]}


#: Seconds two stores' events of one kind and label may differ in stamp and still be the same event (the
#: evaluation's time tolerance for answers).
EVENT_STAMP_TOL = 2.0


def against_reference(reference: dict, fleet: dict) -> dict:
    """The issue's figure itself: the fleet's map and events judged against the one robot's, not against the truth.
    Objects pair one-to-one by label within the scorer's MATCH_DIST (nearest first); events by kind and label
    within EVENT_STAMP_TOL (nearest first)."""
    from tempomem_ros.tools.evaluation import score as sc

    ref, got = reference["final"], fleet["final"]
    pairs = [(sc._dist(a["center"], b["center"]), i, j) for i, a in enumerate(ref) for j, b in enumerate(got)
             if sc._norm(a["label"]) == sc._norm(b["label"]) and sc._dist(a["center"], b["center"]) <= sc.MATCH_DIST]
    objects = len(sc._greedy(pairs))
    er, eg = reference["event_list"], fleet["event_list"]
    pairs = [(abs(a["stamp"] - b["stamp"]), i, j) for i, a in enumerate(er) for j, b in enumerate(eg)
             if a["kind"] == b["kind"] and a["label"] == b["label"] and abs(a["stamp"] - b["stamp"]) <= EVENT_STAMP_TOL]
    events = len(sc._greedy(pairs))
    f1 = 2 * objects / (len(ref) + len(got)) if ref or got else 1.0
    return {"map_f1": f1, "objects_matched": objects, "objects_ref": len(ref), "objects_fleet": len(got),
            "events_matched": events, "events_ref": len(er), "events_fleet": len(eg)}


def prepare(scene: Path, split: str, work: str) -> tuple[str, dict, int, int]:
    """The scene's frames (perception math, once), each given to a robot by ``split``: pickled for the workers."""
    from tempomem_ros.perception import PerceptionConfig
    from tempomem_ros.tools.evaluate import memory_params, perception_params
    from tempomem_ros.tools.evaluation.offline import observed_frames

    gt = json.loads((scene / "ground_truth.json").read_text())
    dim = memory_params(gt).get("embedding_dim", 32)
    visits = sorted(gt["visits"], key=lambda v: v["t_start"])
    frames = []
    for n, (_, obs, view, stamp) in enumerate(observed_frames(scene / "bag",
                                                              PerceptionConfig(**perception_params(gt)))):
        visit = max([i for i, v in enumerate(visits) if v["t_start"] <= stamp + 1e-6] or [0])
        who = visit if split == "visits" else n
        frames.append({"obs": obs, "view": view, "stamp": stamp, "robot": ("robot_a", "robot_b")[who % 2]})
    path = os.path.join(work, "frames.pkl")
    with open(path, "wb") as f:
        pickle.dump(frames, f)
    return path, gt, dim, len(frames)


def run_scene(scene: Path, split: str, pace: float, max_frames: int = FLEET_FUSE_BATCH) -> dict:
    from tempomem_ros.tools.pg_sandbox import PgSandbox

    work = tempfile.mkdtemp(prefix="tempomem_fleet_acc_")
    os.chmod(work, 0o755)  # the server runs as the postgres system user when this runs as root
    try:
        t = time.perf_counter()
        frames_path, gt, dim, n = prepare(scene, split, work)
        with open(frames_path, "rb") as f:
            frames = pickle.load(f)
        print(f"{scene.name}: {n} frames ({sum(fr['robot'] == 'robot_a' for fr in frames)} robot_a, "
              f"{sum(fr['robot'] == 'robot_b' for fr in frames)} robot_b), made in {time.perf_counter() - t:.0f} s",
              flush=True)
        ref_path = os.path.join(work, "reference.db")
        with Memory.open(ref_path, embedding_dim=dim) as m:  # one robot sees the whole path (the offline run)
            for fr in frames:
                m.add(fr["obs"], fr["view"], stamp=fr["stamp"])
                m.commit()
            reference = scored(m, gt)
        with PgSandbox.start(root=os.path.join(work, "pg")) as pg:
            pg.create_database("fleet")
            pg.psql("CREATE EXTENSION postgis", "fleet")
            address = pg.url("fleet")
            with Memory.open(address, embedding_dim=dim):
                pass
            start_at = time.time() + 3.0
            me = os.path.abspath(__file__)
            procs = [subprocess.Popen([sys.executable, me, "--worker", "robot", "--address", address, "--frames",
                                       frames_path, "--source", src, "--start-at", str(start_at), "--pace", str(pace),
                                       "--dim", str(dim)], stdout=subprocess.PIPE, text=True)
                     for src in ("robot_a", "robot_b")]
            procs.append(subprocess.Popen([sys.executable, me, "--worker", "fuser", "--address", address,
                                           "--n-frames", str(n), "--dim", str(dim), "--max-frames", str(max_frames)],
                                          stdout=subprocess.PIPE, text=True))
            outs = []
            for p in procs:
                out, _ = p.communicate(timeout=3600)
                if p.returncode != 0:
                    raise SystemExit(f"a worker failed (exit {p.returncode})")
                outs.append(json.loads(out.strip().splitlines()[-1]))
            with Memory.open(address, readonly=True) as m:
                fleet = scored(m, gt)
        staged = dict(x for o in outs[:2] for x in o["staged_at"])
        visible = {fid: b["visible_at"] for b in outs[2]["batches"] for fid in b["frames"]}
        assert sorted(visible) == sorted(staged), "a staged frame was not fused exactly once"
        lat = [(visible[f] - t) * 1e3 for f, t in staged.items()]
        sizes = [len(b["frames"]) for b in outs[2]["batches"]]
        fleet["visible_ms_p50_p95"] = (float(np.percentile(lat, 50)), float(np.percentile(lat, 95)))
        fleet["batches"] = (len(sizes), float(np.median(sizes)), max(sizes))
        fleet["max_frames"] = max_frames or None  # the fuser's bound (None: every staged frame)
        return {"scene": scene.name, "split": split, "frames": n, "reference": reference, "fleet": fleet,
                "against_reference": against_reference(reference, fleet)}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def show(r: dict) -> None:
    print(f"{r['scene']} split={r['split']} ({r['frames']} frames)")
    for who in ("reference", "fleet"):
        s = r[who]
        ch = ", ".join(f"{k} F1 {v['f1']:.3f}" for k, v in s["changes"].items())
        print(f"  {who:<9} object F1 {s['f1']:.3f} (P {s['precision']:.3f} R {s['recall']:.3f}; {s['memory']} "
              f"objects / {s['truth']} true)  duplicates {s['duplicates']}  cross-robot duplicates "
              f"{len(s['cross_robot_duplicates'])}  events {s['events']}  changes: {ch}")
        if who == "fleet":
            b = s["batches"]
            print(f"            objects seen by both robots {s['objects_seen_by_both']}; fuser batches {b[0]} (frames "
                  f"p50 {b[1]:.0f}, max {b[2]}, bound {s['max_frames'] or 'none'});"
                  f" fused-visible p50 {s['visible_ms_p50_p95'][0]:.0f} ms, p95 "
                  f"{s['visible_ms_p50_p95'][1]:.0f} ms")
            if s["cross_robot_duplicates"]:
                print(f"            cross-robot duplicates: {s['cross_robot_duplicates']}")
    a = r["against_reference"]
    print(f"  fleet against the one robot: map F1 {a['map_f1']:.3f} ({a['objects_matched']} objects paired of "
          f"{a['objects_ref']} / {a['objects_fleet']}), events paired {a['events_matched']} of {a['events_ref']} / "
          f"{a['events_fleet']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scene", action="append", default=[])
    ap.add_argument("--split", choices=("visits", "frames"), default="visits")
    ap.add_argument("--pace", type=float, default=0.05, help="seconds between frames on the shared schedule")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--worker", choices=("robot", "fuser"))
    ap.add_argument("--address")
    ap.add_argument("--frames")
    ap.add_argument("--source")
    ap.add_argument("--start-at", type=float, default=0.0)
    ap.add_argument("--n-frames", type=int, default=0)
    ap.add_argument("--dim", type=int, default=32)
    ap.add_argument("--max-frames", type=int, default=FLEET_FUSE_BATCH, metavar="N",
                    help=f"frames the fuser fuses per batch at most (default {FLEET_FUSE_BATCH}, as bench_fleet's "
                         "fuser and `tempomem fuse`; 0: every staged frame)")
    args = ap.parse_args()
    if args.max_frames < 0:
        ap.error("--max-frames: 0 (every staged frame) or more")
    if args.worker == "robot":
        print(json.dumps(robot(args.address, args.frames, args.source, args.start_at, args.pace, args.dim)))
        return
    if args.worker == "fuser":
        print(json.dumps(fuser(args.address, args.n_frames, args.dim, args.max_frames or None)))
        return
    print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    results = []
    for scene in args.scene:
        r = run_scene(Path(scene), args.split, args.pace, args.max_frames)
        show(r)
        results.append(r)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=list))


if __name__ == "__main__":
    main()
