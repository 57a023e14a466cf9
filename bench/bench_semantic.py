"""semantic() latency over a large map: sqlite-vec index vs the exact numpy path.

Run: .venv/bin/python bench/bench_semantic.py [--objects 100000] [--dim 512] [--queries 30] [--minilm]
The CLIP text tower is replaced by a fixed random projection of the query text (the encoder's own cost is
measured by bench/bench_clip.py), so the figures are the memory's retrieval + re-ranking cost. With
--minilm the label path uses the real offline sentence encoder (its per-query encoding is included).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

from bench_core import populate  # noqa: E402

from tempomem_ros.core import Memory  # noqa: E402


class RandomTextTower:
    """Deterministic stand-in for a CLIP text tower: the text's hash seeds a unit vector."""

    name = "open_clip:bench"

    def __init__(self, dim: int):
        self.dim = dim

    def encode(self, texts):
        out = []
        for t in texts:
            seed = int.from_bytes(hashlib.sha256(t.encode()).digest()[:8], "little")
            v = np.random.default_rng(seed).standard_normal(self.dim)
            out.append(v / np.linalg.norm(v))
        return np.asarray(out, np.float32)


QUERIES = ["something to drink from", "somewhere to sit", "something to read", "my keys", "the remote control",
           "a plant", "a bowl for soup", "a laptop to work on", "the lamp", "a bottle of water"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--objects", type=int, default=100000)
    ap.add_argument("--dim", type=int, default=512)
    ap.add_argument("--queries", type=int, default=30)
    ap.add_argument("--minilm", action="store_true", help="label path with the real sentence encoder")
    args = ap.parse_args()
    label_encoder = None
    if args.minilm:
        from tempomem_ros.semantics import SentenceLabelEncoder
        label_encoder = SentenceLabelEncoder()
        label_encoder.load()
    tower = RandomTextTower(args.dim)
    d = tempfile.mkdtemp()
    try:
        path = os.path.join(d, "s.db")
        t0 = time.perf_counter()
        m = Memory.open(path, embedding_dim=args.dim, vector_index="off", feature_model=tower.name)
        populate(m, args.objects, side=float(np.sqrt(args.objects / 4.0)), feature_dim=args.dim)
        m.close()
        print(f"{args.objects:,} objects with {args.dim}-d features built in {time.perf_counter() - t0:.0f} s")
        results = {}
        for mode in ("on", "off"):
            t0 = time.perf_counter()
            m = Memory.open(path, embedding_dim=args.dim, vector_index=mode, feature_model=tower.name,
                            clip_text_encoder=tower, label_encoder=label_encoder)
            open_s = time.perf_counter() - t0
            times, answers = [], []
            for i in range(args.queries + 2):
                q = QUERIES[i % len(QUERIES)]
                t0 = time.perf_counter()
                hits = m.semantic(q, k=10)
                if i >= 2:  # the first calls build caches (feature matrix / label embeddings)
                    times.append((time.perf_counter() - t0) * 1e3)
                answers.append([h.object.id for h in hits])
            results[mode] = answers
            name = "sqlite-vec index" if mode == "on" else "exact numpy path"
            median = statistics.median(times)
            print(f"semantic() k=10 over {args.objects:,} objects, {name:>16}: median {median:7.2f} ms"
                  f"  p95 {np.percentile(times, 95):7.2f} ms  (open/index build {open_s:.1f} s; n={len(times)})")
            m.close()
        same = sum(a == b for a, b in zip(results["on"], results["off"]))
        print(f"identical top-10 on both paths: {same}/{len(results['on'])} queries")
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
