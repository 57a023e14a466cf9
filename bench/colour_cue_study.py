"""Would a colour histogram of each instance's pixels tell objects apart? (issue 11, study; no fusion change)

Issue 11 allows a cheap, real appearance cue computed in the perception node. Before building one, this measures
whether it separates what fusion must separate: one object across frames and views (should be close) against
two instances of one class (twins), look-alike classes (the generator's LOOK_ALIKES, the confusions fusion
meets) and unrelated classes. The bags keep no colour image (written with color=False), so each scene's world
and script are rebuilt from its ground truth (seed, attempt, config) and every ``--stride``-th kept frame is
rendered again with its colour image; the rendered instances are checked against the ground truth's frame
list (same ids, objects, labels, pixel counts), so the study sees exactly the frames the memory was run on.

For each kept object instance: its mask eroded by 1 px (the perception default; an instance erosion would
erase keeps its uneroded mask, as the node does), then four histograms (L1-normalised):
  hs88    8 hue x 8 saturation bins (HSV);
  hsv28   8 hue x 3 saturation bins for chromatic pixels (s >= 0.2, v >= 0.12), 4 value bins for the rest
          (white, grey and black objects have no meaningful hue);
  rgb444  4 x 4 x 4 RGB bins;
  hs88raw hs88 without the erosion (what mask bleed costs);
  hs88wb, hsv28wb  hs88 / hsv28 of the frame times a per-frame random gain (log-normal, 0.06 per channel and
          0.25 overall): a stress for the white balance and exposure drift the generator does not render.
Distances: Bhattacharyya (Hellinger form, sqrt(1 - sum sqrt(p q)), OpenCV's HISTCMP_BHATTACHARYYA) on every
pair of a scene, chi-square (0.5 sum (p-q)^2/(p+q)) on a sample. Pairs are within one scene (what fusion
compares); same-object pairs are from different frames, split into the same visit and another visit.
Figures printed per histogram and distance:
  sep@5%   the task's separability: share of same-object pairs closer than the 5th percentile of the other
           class's pairs (a "same object" test that accepts 5 % of twins would accept this share of true pairs);
  veto@5%  share of the other class's pairs farther than the 95th percentile of same-object pairs (a veto
           that wrongly splits 5 % of true pairs would block this share of wrong joins);
  AUC      P(d(same) < d(other)).
"det vs model" repeats it for what fusion would actually compare: one detection against an object's mean
histogram over its detections in the OTHER visits (own object), or over all detections (another object).
Last, the cost of computing hsv28 for 10 instances on a 640x480 frame (numpy only).

    source .tempomem_env.sh && nice -n 10 python bench/colour_cue_study.py \
        --scene /work/ev/dev/seed1-default --scene /work/ev/h460/seed460-default [--stride 4]

Realistic colours (stop 50; the default noise since stop 51, ``real`` its old name): a scene generated with them
(``python -m tempomem_ros.tools.scenegen --seed N --out DIR --no-color``) is re-rendered with that preset, as its
ground truth records it (read in today's names: ``config.recorded_noise``): colours from palettes look-alike
classes share, per-visit white balance and exposure with per-frame flicker, masks that bleed over the boundary
(scenegen/colour.py, noise.py). There the plain hs88/hsv28 figures are the realistic ones; the *wb kinds add the
study's own gain on top. The classes twin_same_colour and lookalike_same_colour are the pairs whose recorded
colours differ by at most SAME_COLOUR levels a channel (two white mugs): the pairs a colour cue cannot tell apart,
however good.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from tempomem_ros.perception import erode_mask
from tempomem_ros.tools.scenegen import detection as det
from tempomem_ros.tools.scenegen.config import SceneConfig, recorded_noise
from tempomem_ros.tools.scenegen.frames import PERCEPTION, FrameRenderer
from tempomem_ros.tools.scenegen.script import build_script
from tempomem_ros.tools.scenegen.world import CATALOG, build_world

KINDS = ("hs88", "hsv28", "rgb444", "hs88raw", "hs88wb", "hsv28wb")
WB_SIGMA, EXPOSURE_SIGMA = 0.06, 0.25    # hsv28wb: per-frame log gain per channel / overall (a stress, not a model)
CHROMA_S, CHROMA_V = 0.2, 0.12          # below either, a pixel's hue is noise: counted by value only
CLASSES = ("same", "same_visit", "other_visit", "twin", "twin_same_colour", "lookalike", "lookalike_same_colour",
           "unrelated")
SAME_COLOUR = 20                        # two objects whose recorded colours differ by at most this a channel
CHI_SAMPLE = 20000                      # chi-square pairs per class per scene
RNG = np.random.default_rng(0)


# ------------------------------------------------------------------------------------------ histograms


def _hsv(rgb: np.ndarray):
    """Hue in [0, 1), saturation and value in [0, 1] of (N, 3) uint8 pixels."""
    c = rgb.astype(np.float32) / 255.0
    r, g, b = c[:, 0], c[:, 1], c[:, 2]
    mx, mn = c.max(axis=1), c.min(axis=1)
    d = mx - mn
    safe = np.where(d > 0, d, 1.0)
    h = np.where(mx == r, (g - b) / safe, np.where(mx == g, 2.0 + (b - r) / safe, 4.0 + (r - g) / safe))
    h = np.where(d > 0, (h / 6.0) % 1.0, 0.0)
    s = np.where(mx > 0, d / np.where(mx > 0, mx, 1.0), 0.0)
    return h, s, mx


def _hsv28_of(rgb_pixels: np.ndarray) -> np.ndarray:
    h, s, v = _hsv(rgb_pixels)
    hb = np.minimum((h * 8).astype(np.int64), 7)
    chroma = (s >= CHROMA_S) & (v >= CHROMA_V)
    sb = np.clip(((s - CHROMA_S) / (1.0 - CHROMA_S) * 3).astype(np.int64), 0, 2)
    vb = np.minimum((v * 4).astype(np.int64), 3)
    return np.where(chroma, hb * 3 + sb, 24 + vb)


def _lut() -> np.ndarray:
    """hsv28 bin of every 5-bit-per-channel colour (32 768 entries), taken at each cell's centre.

    Why a table: the bin of a pixel is then three shifts and one lookup, no float HSV per pixel; 5 bits per
    channel (8-level cells) move a pixel to a neighbouring bin only at a bin edge."""
    q = np.arange(32768, dtype=np.int64)
    centres = np.stack(((q >> 10) & 31, (q >> 5) & 31, q & 31), axis=1) * 8 + 4
    return _hsv28_of(centres.astype(np.uint8)).astype(np.uint8)


HSV28_LUT = _lut()


def pixel_bins(rgb_pixels: np.ndarray, kind: str) -> tuple[np.ndarray, int]:
    """(bin of each pixel, number of bins) of one histogram kind."""
    if kind == "rgb444":
        q = rgb_pixels.astype(np.int64) >> 6
        return q[:, 0] * 16 + q[:, 1] * 4 + q[:, 2], 64
    if kind == "hsv28":
        q = rgb_pixels >> 3
        return HSV28_LUT[(q[:, 0].astype(np.int64) << 10) | (q[:, 1].astype(np.int64) << 5) | q[:, 2]], 28
    h, s, _ = _hsv(rgb_pixels)
    hb = np.minimum((h * 8).astype(np.int64), 7)
    return hb * 8 + np.minimum((s * 8).astype(np.int64), 7), 64


def instance_histograms(rgb: np.ndarray, mask: np.ndarray, ids, kind: str = "hsv28", erosion: int = 1,
                        eroded: np.ndarray | None = None) -> np.ndarray:
    """(len(ids), bins) L1-normalised histograms of each instance's pixels in one pass over the frame.

    The mask is eroded by ``erosion`` px (or ``eroded`` is the node's already eroded mask); an instance the
    erosion erased, or left under a third of its pixels, keeps its uneroded pixels (perception's rule for
    thin objects). A row of zeros: no pixel.
    """
    ids = np.asarray(ids, dtype=np.int64)
    if eroded is None:
        eroded = erode_mask(mask, erosion) if erosion else mask
    n = int(max(mask.max(initial=0), ids.max(initial=0))) + 1
    full = np.bincount(mask.reshape(-1), minlength=n)
    kept = np.bincount(eroded.reshape(-1), minlength=n)
    use_raw = np.zeros(n, dtype=bool)
    use_raw[ids] = 3 * kept[ids] < full[ids]
    lab = np.where(use_raw[mask], mask, eroded).reshape(-1).astype(np.int64)
    sel = np.flatnonzero(lab)
    bins, nb = pixel_bins(rgb.reshape(-1, 3)[sel], kind)
    hist = np.bincount(lab[sel] * nb + bins, minlength=n * nb).reshape(n, nb)[ids].astype(np.float64)
    tot = hist.sum(axis=1, keepdims=True)
    return hist / np.where(tot > 0, tot, 1.0)


def bhattacharyya_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    bc = np.sqrt(a) @ np.sqrt(b).T
    return np.sqrt(np.clip(1.0 - bc, 0.0, 1.0))


def chi2_pairs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    s = a + b
    return 0.5 * np.sum(np.where(s > 0, (a - b) ** 2 / np.where(s > 0, s, 1.0), 0.0), axis=1)


# -------------------------------------------------------------------------------------------- scenes


def lookalike_pairs() -> set[frozenset]:
    """Unordered label pairs of the generator's LOOK_ALIKES where both labels are objects of the catalogue."""
    return {frozenset((a, b)) for a, alts in det.LOOK_ALIKES.items() for b, _ in alts
            if a in CATALOG and b in CATALOG and a != b}


def scene_detections(scene_dir: Path, stride: int) -> dict:
    """Every kept object instance of every stride-th kept frame, with its histograms."""
    gt = json.loads((scene_dir / "ground_truth.json").read_text())
    cfg_d = dict(gt["config"])
    cfg_d.pop("noise_settings", None)
    # in today's names: a scene of before stop 51 records "default" for what is now "plain", "real" for the default
    cfg_d["noise"], cfg_d["noise_overrides"] = recorded_noise(gt["config"])
    cfg = SceneConfig(**cfg_d)
    seed, attempt = int(gt["seed"]), int(gt["attempt"])
    world = build_world(np.random.default_rng([seed, attempt, 1]), cfg)
    script = build_script(np.random.default_rng([seed, attempt, 2]), world, cfg)
    renderer = FrameRenderer(seed, attempt, cfg, world, script)
    objects = {o.id: o for o in script.objects}
    gt_frames = {f["stamp_ns"]: f for f in gt["frames"]}
    plans = [p for p in script.frames if p.stamp_ns in gt_frames][::stride]
    rows: dict[str, list] = {k: [] for k in ("frame", "visit", "obj", "label", "reported", "pixels", "part",
                                             "small", "colour")}
    hists: dict[str, list] = {k: [] for k in KINDS}
    for plan in plans:
        fp = renderer.render(plan, images=True)
        mine = [(i.mask_id, i.object_id, i.label, i.pixels, i.kept) for i in fp.record.instances]
        theirs = [(i["id"], i["object"], i["label"], i["pixels"], i["kept"])
                  for i in gt_frames[plan.stamp_ns]["instances"]]
        if mine != theirs:
            raise SystemExit(f"{scene_dir}: frame {plan.index} renders differently from its ground truth")
        inst = [i for i in fp.record.instances if i.kept and i.kind == "object"]
        if not inst:
            continue
        ids = [i.mask_id for i in inst]
        eroded = erode_mask(fp.mask, PERCEPTION.mask_erosion_px)
        wrng = np.random.default_rng([seed, plan.index, 77])
        gain = np.exp(wrng.normal(0.0, WB_SIGMA, 3) + wrng.normal(0.0, EXPOSURE_SIGMA))
        balanced = np.clip(np.rint(fp.rgb * gain), 0, 255).astype(np.uint8)
        for kind in KINDS:
            base = {"hs88raw": "hs88", "hs88wb": "hs88", "hsv28wb": "hsv28"}.get(kind, kind)
            h = instance_histograms(balanced if kind.endswith("wb") else fp.rgb, fp.mask, ids, base,
                                    eroded=fp.mask if kind == "hs88raw" else eroded)
            hists[kind].append(h)
        er_counts = np.bincount(eroded.reshape(-1), minlength=int(fp.mask.max()) + 1)
        visit = plan.visit if plan.visit is not None else 100 + int(plan.patrol or 0)
        for i in inst:
            rows["frame"].append(plan.index)
            rows["visit"].append(visit)
            rows["obj"].append(i.object_id)
            rows["label"].append(objects[i.object_id].label)
            rows["reported"].append(i.label)
            rows["pixels"].append(int(er_counts[i.mask_id]))
            rows["part"].append(-1 if i.part is None else i.part)
            rows["small"].append(objects[i.object_id].kind == "small")
            rows["colour"].append(tuple(objects[i.object_id].color))
    out = {k: np.array(v) for k, v in rows.items()}
    out.update({k: np.concatenate(v) for k, v in hists.items()})
    out["name"] = np.array(scene_dir.name)
    out["frames"] = np.array(len(plans))
    return out


def only(d: dict, keep: np.ndarray) -> dict:
    return {k: (v[keep] if isinstance(v, np.ndarray) and v.ndim >= 1 else v) for k, v in d.items()}


def load_scene(scene_dir: Path, stride: int, cache: Path | None) -> dict:
    """scene_detections, kept as an .npz under ``cache`` (keyed by scene path and stride) when given."""
    if cache is None:
        return scene_detections(scene_dir, stride)
    f = cache / f"{scene_dir.parent.name}-{scene_dir.name}-s{stride}-{len(KINDS)}k-c.npz"
    if not f.exists():
        cache.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(f, **scene_detections(scene_dir, stride))
    with np.load(f) as z:
        return {k: z[k] for k in z.files}


def pair_classes(d: dict, looks: set[frozenset]) -> dict[str, np.ndarray]:
    """Class -> (i, j) index pairs (i < j) of one scene's detections."""
    n = len(d["obj"])
    i, j = np.triu_indices(n, 1)
    obj, frame, visit, label = d["obj"], d["frame"], d["visit"], d["label"]
    same_obj = obj[i] == obj[j]
    same = same_obj & (frame[i] != frame[j])
    same_label = label[i] == label[j]
    is_look = np.array([frozenset((a, b)) in looks for a, b in zip(label[i], label[j])], dtype=bool)
    colour = d["colour"].astype(np.int64)
    same_colour = np.abs(colour[i] - colour[j]).max(axis=1) <= SAME_COLOUR
    classes = {
        "same": same,
        "same_visit": same & (visit[i] == visit[j]),
        "other_visit": same & (visit[i] != visit[j]),
        "twin": ~same_obj & same_label,
        "twin_same_colour": ~same_obj & same_label & same_colour,
        "lookalike": ~same_obj & ~same_label & is_look,
        "lookalike_same_colour": ~same_obj & ~same_label & is_look & same_colour,
        "unrelated": ~same_obj & ~same_label & ~is_look,
    }
    return {k: np.stack((i[m], j[m]), axis=1) for k, m in classes.items()}


# ---------------------------------------------------------------------------------------------- figures


def separability(same: np.ndarray, other: np.ndarray) -> tuple[float, float, float]:
    """(sep@5%, veto@5%, AUC) of same-object distances against another class's."""
    if same.size == 0 or other.size == 0:
        return float("nan"), float("nan"), float("nan")
    sep = float(np.mean(same < np.percentile(other, 5)))
    veto = float(np.mean(other > np.percentile(same, 95)))
    both = np.concatenate((same, other))
    ranks = both.argsort(kind="stable").argsort() + 1.0
    auc = (ranks[same.size:].sum() - other.size * (other.size + 1) / 2) / (same.size * other.size)
    return sep, veto, float(auc)


def print_table(title: str, dist: dict[str, list]) -> None:
    print(f"\n{title}")
    print(f"  {'class':12s} {'pairs':>9s} {'p5':>6s} {'p50':>6s} {'p95':>6s}")
    for c in CLASSES:
        v = np.concatenate(dist[c]) if dist[c] else np.zeros(0)
        if v.size:
            print(f"  {c:12s} {v.size:9d} {np.percentile(v, 5):6.3f} {np.median(v):6.3f} {np.percentile(v, 95):6.3f}")
    for ref in ("same", "other_visit"):
        s = np.concatenate(dist[ref]) if dist[ref] else np.zeros(0)
        for c in ("twin", "twin_same_colour", "lookalike", "lookalike_same_colour", "unrelated"):
            o = np.concatenate(dist[c]) if dist[c] else np.zeros(0)
            if not o.size:
                continue
            sep, veto, auc = separability(s, o)
            print(f"  {ref:11s} vs {c:9s}: sep@5% {sep:.3f}  veto@5% {veto:.3f}  AUC {auc:.3f}")


def size_table(scenes, looks, kind: str, small_px: int = 60) -> None:
    """Same object vs twin, by the smaller mask of the pair (eroded pixels at the scene's resolution)."""
    print(f"\nby mask size ({kind}, Bhattacharyya; pixels after erosion at 320x240, x4 for 640x480)")
    for name, test in (("both >= %d px" % small_px, lambda a: a >= small_px), ("one < %d px" % small_px,
                                                                               lambda a: a < small_px)):
        dist: dict[str, list] = {c: [] for c in CLASSES}
        for d in scenes:
            h, px = d[kind], d["pixels"]
            for c, p in pair_classes(d, looks).items():
                p = p[test(np.minimum(px[p[:, 0]], px[p[:, 1]]))]
                if len(p):
                    dist[c].append(np.sqrt(np.clip(1 - np.sum(np.sqrt(h[p[:, 0]] * h[p[:, 1]]), axis=1), 0, 1)))
        s_ = np.concatenate(dist["same"]) if dist["same"] else np.zeros(0)
        t_ = np.concatenate(dist["twin"]) if dist["twin"] else np.zeros(0)
        sep, veto, auc = separability(s_, t_)
        print(f"  {name:14s} same {s_.size:7d} twin {t_.size:6d}: sep@5% {sep:.3f}  veto@5% {veto:.3f}  AUC {auc:.3f}")


def label_pair_table(scenes, looks, kind: str) -> None:
    """Median Bhattacharyya per twin class and per look-alike pair, and the same-object median of those labels."""
    by: dict[str, list] = {}
    for d in scenes:
        pairs = pair_classes(d, looks)
        h = d[kind]
        for c in ("same", "twin", "lookalike"):
            p = pairs[c]
            if not len(p):
                continue
            dist = np.sqrt(np.clip(1 - np.sum(np.sqrt(h[p[:, 0]] * h[p[:, 1]]), axis=1), 0, 1))
            la, lb = d["label"][p[:, 0]], d["label"][p[:, 1]]
            for a, b, v in zip(la, lb, dist):
                key = f"{c}:{a}" if c != "lookalike" else f"{c}:{'/'.join(sorted((a, b)))}"
                by.setdefault(key, []).append(v)
    print(f"\nper label ({kind}, Bhattacharyya): median [p5, p95] (pairs)")
    for key in sorted(by):
        v = np.array(by[key])
        if v.size >= 20:
            print(f"  {key:28s} {np.median(v):.3f} [{np.percentile(v, 5):.3f}, {np.percentile(v, 95):.3f}] ({v.size})")


def model_distances(d: dict, looks: set[frozenset], kind: str) -> dict[str, list]:
    """Detection vs object mean histograms: own object (its other visits) / twin / look-alike / unrelated."""
    h, obj, visit, label = d[kind], d["obj"], d["visit"], d["label"]
    ids = np.unique(obj)
    full = {o: h[obj == o].mean(axis=0) for o in ids}
    olabel = {o: label[obj == o][0] for o in ids}
    ocolour = {o: d["colour"][obj == o][0].astype(np.int64) for o in ids}
    out: dict[str, list] = {c: [] for c in CLASSES}
    for k in range(len(obj)):
        o = obj[k]
        others = (obj == o) & (visit != visit[k])
        if others.any():
            m = h[others].mean(axis=0)
            out["same"].append(np.sqrt(max(0.0, 1 - np.sum(np.sqrt(h[k] * m)))))
        for p in ids:
            if p == o:
                continue
            c = "twin" if olabel[p] == label[k] else (
                "lookalike" if frozenset((olabel[p], label[k])) in looks else "unrelated")
            v = np.sqrt(max(0.0, 1 - np.sum(np.sqrt(h[k] * full[p]))))
            out[c].append(v)
            if c != "unrelated" and np.abs(ocolour[o] - ocolour[p]).max() <= SAME_COLOUR:
                out[f"{c}_same_colour"].append(v)
    out["other_visit"] = list(out["same"])
    return {c: [np.array(v)] if v else [] for c, v in out.items()}


def timing() -> None:
    """ms for hsv28 of 10 instances on a 640x480 frame, with its own erosion and with the node's eroded mask."""
    rng = np.random.default_rng(1)
    rgb = rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
    mask = np.zeros((480, 640), np.uint16)
    sizes = (20, 30, 40, 50, 60, 80, 100, 140, 180, 240)   # square side in px: 400 to 57 600 pixels
    for k, s in enumerate(sizes):
        y, x = (k // 5) * 240 + 5, (k % 5) * 128 + 2
        mask[y:y + min(s, 230), x:x + min(s, 124)] = k + 1
    ids = list(range(1, 11))
    eroded = erode_mask(mask, 1)
    for label, kw in (("own 1-px erosion", {}), ("node's eroded mask", {"eroded": eroded})):
        ts, cpu = [], []
        for _ in range(30):
            t0, c0 = time.perf_counter(), time.process_time()
            instance_histograms(rgb, mask, ids, "hsv28", **kw)
            ts.append(1000 * (time.perf_counter() - t0))
            cpu.append(1000 * (time.process_time() - c0))
        ts.sort()
        cpu.sort()
        print(f"  hsv28, 10 instances ({int((mask > 0).sum())} px), 640x480, {label}: "
              f"wall p50 {ts[15]:.2f} ms, p95 {ts[28]:.2f} ms; CPU p50 {cpu[15]:.2f} ms")
    # the whole-frame alternative: every pixel's bin, then one bincount
    ts = []
    for _ in range(10):
        t0 = time.process_time()
        _hsv28_of(rgb.reshape(-1, 3)[mask.reshape(-1) > 0])
        ts.append(1000 * (time.process_time() - t0))
    print(f"  (float HSV per masked pixel instead of the table: CPU p50 {sorted(ts)[5]:.2f} ms)")
    agree = np.mean(_hsv28_of(rgb.reshape(-1, 3)) == pixel_bins(rgb.reshape(-1, 3), "hsv28")[0])
    print(f"  (table vs float HSV: the same bin for {100 * agree:.1f} % of uniform random pixels)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scene", action="append", required=True, help="a generated scene dir (default profile)")
    ap.add_argument("--stride", type=int, default=4, help="render every n-th kept frame")
    ap.add_argument("--furniture", action="store_true", help="keep furniture detections (default: small objects)")
    ap.add_argument("--cache", type=Path, help="keep each scene's detections and histograms here (.npz)")
    args = ap.parse_args(argv)
    looks = lookalike_pairs()
    print("look-alike pairs (both in the catalogue):", sorted("/".join(sorted(p)) for p in looks))
    scenes = []
    for s in args.scene:
        t0 = time.perf_counter()
        d = load_scene(Path(s), args.stride, args.cache)
        if not args.furniture:
            d = only(d, d["small"])
        scenes.append(d)
        labels = np.unique(d["label"])
        n_obj = len(np.unique(d["obj"]))
        twins = sorted({str(lab) for lab in labels if len(np.unique(d["obj"][d["label"] == lab])) > 1})
        print(f"{d['name']}: {int(d['frames'])} frames, {len(d['obj'])} detections of {n_obj} objects, "
              f"median {int(np.median(d['pixels']))} px after erosion, classes with twins {twins} "
              f"({time.perf_counter() - t0:.0f} s)")
    for kind in KINDS:
        bh: dict[str, list] = {c: [] for c in CLASSES}
        chi: dict[str, list] = {c: [] for c in CLASSES}
        for d in scenes:
            h = d[kind]
            m = bhattacharyya_matrix(h, h)
            for c, p in pair_classes(d, looks).items():
                if not len(p):
                    continue
                bh[c].append(m[p[:, 0], p[:, 1]])
                q = p if len(p) <= CHI_SAMPLE else p[RNG.choice(len(p), CHI_SAMPLE, replace=False)]
                chi[c].append(chi2_pairs(h[q[:, 0]], h[q[:, 1]]))
        print_table(f"== {kind}, Bhattacharyya, detection vs detection", bh)
        print_table(f"== {kind}, chi-square (sampled), detection vs detection", chi)
        md: dict[str, list] = {c: [] for c in CLASSES}
        for d in scenes:
            for c, v in model_distances(d, looks, kind).items():
                md[c].extend(v)
        print_table(f"== {kind}, Bhattacharyya, detection vs object mean (own: its other visits)", md)
    size_table(scenes, looks, "hsv28")
    label_pair_table(scenes, looks, "hs88")
    label_pair_table(scenes, looks, "hsv28")
    print("\ncost (numpy only):")
    timing()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
