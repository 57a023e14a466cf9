"""The memory node's text encoders for semantic questions: a label encoder and, with CLIP image features, the
matching CLIP text tower. Why loaded at configure: the first query must not wait for a model to load, and a
model that cannot load leaves keyword matching working (a warning says so), never a node that fails."""

from __future__ import annotations

import sys

from tempomem_ros.core.errors import InvalidInputError

LABEL_ENCODERS = ("none", "minilm", "hashing")
QUESTION_MODELS = ("none", "minilm")


def label_encoder(choice: str, logger):
    """none | minilm (the offline sentence model) | hashing (character n-grams); None when unavailable."""
    if choice not in LABEL_ENCODERS:
        raise InvalidInputError(f"label_encoder must be one of {', '.join(LABEL_ENCODERS)}, got '{choice}'")
    if choice == "none":
        return None
    try:
        from tempomem_ros import semantics

        encoder = semantics.default_text_encoder() if choice == "minilm" else semantics.HashingTextEncoder()
        encoder.encode(["object"])  # load the model now, not on the first query
        return encoder
    except Exception as exc:  # noqa: BLE001 - any failure to load falls back to keyword matching
        logger.warning(f"label_encoder '{choice}' unavailable ({type(exc).__name__}: {exc}); "
                       "semantic queries use keywords only")
        return None


def attach_question_model(memory, choice: str, label_encoder, logger) -> bool:
    """none | minilm: the similarity reader behind the question rules (core/answering/similar.py) on ``memory``;
    the label encoder is reused when it is the same model. False (the rules alone) when it does not load."""
    if choice not in QUESTION_MODELS:
        raise InvalidInputError(f"question_model must be one of {', '.join(QUESTION_MODELS)}, got '{choice}'")
    if choice == "none":
        return False
    try:
        from tempomem_ros import semantics

        same = getattr(label_encoder, "name", "") == semantics.SENTENCE_MODEL_NAME
        memory.question_encoder = label_encoder if same else semantics.default_text_encoder()
        return True
    except Exception as exc:  # noqa: BLE001 - any failure to load leaves the rules answering alone
        logger.warning(f"question_model '{choice}' unavailable ({type(exc).__name__}: {exc}); questions are read "
                       "by the rules alone")
        return False


def limit_torch_threads(threads: int) -> None:
    """Apply encoder_threads to torch, if an encoder loaded it (torch is never imported for this)."""
    torch = sys.modules.get("torch")
    if threads > 0 and torch is not None:
        torch.set_num_threads(threads)


def clip_text_encoder(feature_model: str | None, checkpoint: str, random_weights: bool):
    """The CLIP text tower matching the stored image features, when configured (else None)."""
    if not feature_model or not feature_model.startswith("open_clip:"):
        return None
    if not checkpoint and not random_weights:
        return None
    from tempomem_ros.perception.clip_encoder import ClipConfig, ClipEncoder

    clip = ClipEncoder(ClipConfig(model_name=feature_model.split(":", 1)[1], checkpoint_path=checkpoint,
                                  allow_random_weights=random_weights))
    return clip.text_encoder()
