"""Open-vocabulary semantics: text encoders behind one protocol, and label ranking for free-text requests.

Why ROS-free and torch-free at import: the core memory accepts an injected ``TextEncoder`` and must stay
importable on a machine without torch; model packages are imported only when a model is first loaded.
"""

from tempomem_ros.semantics.protocol import EncoderLoadError, TextEncoder, check_texts, normalize_rows
from tempomem_ros.semantics.text_encoder import (
    SENTENCE_MODEL_DIM,
    SENTENCE_MODEL_NAME,
    CachingTextEncoder,
    HashingTextEncoder,
    SentenceLabelEncoder,
    cosine,
    default_text_encoder,
    label_similarity,
)
from tempomem_ros.semantics.vocabulary import (
    DEFAULT_LABEL_TEMPLATE,
    LabelIndex,
    evaluate_vocabulary,
    load_vocabulary_set,
)

__all__ = [
    "DEFAULT_LABEL_TEMPLATE",
    "SENTENCE_MODEL_DIM",
    "SENTENCE_MODEL_NAME",
    "CachingTextEncoder",
    "EncoderLoadError",
    "HashingTextEncoder",
    "LabelIndex",
    "SentenceLabelEncoder",
    "TextEncoder",
    "check_texts",
    "cosine",
    "default_text_encoder",
    "evaluate_vocabulary",
    "label_similarity",
    "load_vocabulary_set",
    "normalize_rows",
]
