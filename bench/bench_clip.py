"""CLIP crop-encoding cost per frame: 20 instances of a 640x480 frame through ViT-B-32 on CPU.

Random weights (no checkpoint exists on this machine) cost exactly what real ones do. Prints the torch
thread count, per-frame median and p95 in ms for the whole ``encode_instances`` call, and the share spent
cropping/resizing (torch ops, before the image tower).

    .venv/bin/python bench/bench_clip.py [--frames 10] [--instances 20] [--threads 0] [--batch-size 32]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tempomem_ros.perception.clip_encoder import ClipConfig, ClipEncoder


def synthetic_frame(n_instances: int, seed: int = 0, height: int = 480, width: int = 640):
    """Noise image with ``n_instances`` rectangles/ellipses of 20..160 px, ids 1..n (later ones on top)."""
    rng = np.random.default_rng(seed)
    rgb = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    mask = np.zeros((height, width), dtype=np.uint16)
    yy, xx = np.mgrid[0:height, 0:width]
    for inst in range(1, n_instances + 1):
        h, w = rng.integers(20, 161, size=2)
        r, c = rng.integers(0, height - h), rng.integers(0, width - w)
        ellipse = ((yy - r - h / 2) / (h / 2)) ** 2 + ((xx - c - w / 2) / (w / 2)) ** 2 <= 1.0
        mask[ellipse] = inst
    return rgb, mask


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="ViT-B-32")
    ap.add_argument("--frames", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--instances", type=int, default=20)
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0 = torch default)")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--background", choices=("mask", "crop"), default="mask")
    ap.add_argument("--device", default="cpu")
    args = ap.parse_args()

    import torch

    t0 = time.perf_counter()
    enc = ClipEncoder(
        ClipConfig(
            model_name=args.model,
            allow_random_weights=True,
            num_threads=args.threads,
            batch_size=args.batch_size,
            background=args.background,
            device=args.device,
        )
    )
    load_s = time.perf_counter() - t0
    frames = [synthetic_frame(args.instances, seed=i) for i in range(args.frames + args.warmup)]
    ids = list(range(1, args.instances + 1))
    totals, preps = [], []
    for i, (rgb, mask) in enumerate(frames):
        t = time.perf_counter()
        _feats, valid = enc.encode_instances_with_validity(rgb, mask, ids)
        total = (time.perf_counter() - t) * 1000
        # Preprocessing alone, re-run outside the timed call so the total above is untouched.
        from scipy.ndimage import find_objects

        t = time.perf_counter()
        boxes = find_objects(mask, max_label=len(ids))
        for inst in ids:
            if boxes[inst - 1] is not None:
                enc._preprocess(rgb, mask, boxes[inst - 1], inst)
        prep = (time.perf_counter() - t) * 1000
        if i >= args.warmup:
            totals.append(total)
            preps.append(prep)
    totals, preps = np.array(totals), np.array(preps)
    print(f"model={enc.name} weights={enc.weights} dim={enc.dim} input={enc.image_size} device={args.device}")
    print(f"torch threads={torch.get_num_threads()} batch_size={args.batch_size} "
          f"background={args.background}")
    print(f"model load: {load_s:.1f} s (incl. torch/open_clip import)")
    print(f"instances/frame={args.instances} (valid in last frame: {int(valid.sum())}) frames={len(totals)}")
    print(f"encode_instances per frame: median {np.median(totals):.1f} ms, "
          f"p95 {np.percentile(totals, 95):.1f} ms, "
          f"per instance {np.median(totals) / args.instances:.1f} ms")
    print(f"  of which crop+resize: median {np.median(preps):.1f} ms, p95 {np.percentile(preps, 95):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
