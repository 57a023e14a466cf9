"""ClipEncoder on a tiny random-weight CLIP (no checkpoint needed): shapes, masking, batching, errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("open_clip")

from tempomem_ros.core.errors import InvalidInputError
from tempomem_ros.perception.clip_encoder import ClipConfig, ClipEncoder
from tempomem_ros.perception.errors import (
    ConfigError,
    ImageEncodingError,
    InputMismatchError,
    PerceptionError,
)

TINY = {
    "embed_dim": 32,
    "vision_cfg": {"image_size": 32, "layers": 1, "width": 64, "patch_size": 8},
    "text_cfg": {"context_length": 77, "vocab_size": 49408, "width": 32, "heads": 2, "layers": 1},
}


def tiny_config(**overrides) -> ClipConfig:
    base = {"model_name": "tiny-test", "allow_random_weights": True, "model_cfg": TINY, "num_threads": 1}
    base.update(overrides)
    return ClipConfig(**base)


@pytest.fixture(scope="module")
def enc() -> ClipEncoder:
    return ClipEncoder(tiny_config())


@pytest.fixture(scope="module")
def frame():
    """60x80 noise image; id 1 = disk (its box corners are outside the mask), 2 = block, 3 = small block."""
    rng = np.random.default_rng(7)
    rgb = rng.integers(0, 256, (60, 80, 3), dtype=np.uint8)
    mask = np.zeros((60, 80), dtype=np.uint16)
    yy, xx = np.mgrid[0:60, 0:80]
    mask[(yy - 20) ** 2 + (xx - 20) ** 2 <= 12**2] = 1
    mask[35:55, 45:75] = 2
    mask[5:12, 60:70] = 3
    return rgb, mask


def test_shapes_normalisation_and_empty_instance(enc, frame):
    rgb, mask = frame
    feats, valid = enc.encode_instances_with_validity(rgb, mask, [1, 2, 3, 9])
    assert feats.shape == (4, 32) and feats.dtype == np.float32
    assert valid.tolist() == [True, True, True, False]
    np.testing.assert_allclose(np.linalg.norm(feats[:3], axis=1), 1.0, atol=1e-6)
    assert not np.any(feats[3]) and np.all(np.isfinite(feats))
    assert enc.dim == 32 and enc.name == "open_clip:tiny-test" and enc.image_size == (32, 32)
    # Different instances are different features (a constant function would fail here).
    assert np.abs(feats[0] - feats[1]).max() > 1e-3
    assert np.abs(feats[1] - feats[2]).max() > 1e-3


def test_empty_id_list_and_duplicates(enc, frame):
    rgb, mask = frame
    assert enc.encode_instances(rgb, mask, []).shape == (0, 32)
    feats = enc.encode_instances(rgb, mask, [2, 1, 2])
    np.testing.assert_array_equal(feats[0], feats[2])
    single = enc.encode_instances(rgb, mask, [1])
    np.testing.assert_allclose(feats[1], single[0], atol=1e-5)


def test_batch_equals_singles(enc, frame):
    rgb, mask = frame
    batch = enc.encode_instances(rgb, mask, [1, 2, 3])
    singles = np.vstack([enc.encode_instances(rgb, mask, [i]) for i in (1, 2, 3)])
    np.testing.assert_allclose(batch, singles, atol=1e-5)


def test_chunked_batches_match_one_batch(enc, frame):
    rgb, mask = frame
    chunked = ClipEncoder(tiny_config(batch_size=2))  # same seed -> same weights
    np.testing.assert_allclose(
        chunked.encode_instances(rgb, mask, [1, 2, 3]), enc.encode_instances(rgb, mask, [1, 2, 3]), atol=1e-5
    )


def test_deterministic_same_input_and_same_seed(enc, frame):
    rgb, mask = frame
    a = enc.encode_instances(rgb, mask, [1, 2])
    b = enc.encode_instances(rgb.copy(), mask.copy(), [1, 2])
    np.testing.assert_array_equal(a, b)
    again = ClipEncoder(tiny_config())
    np.testing.assert_array_equal(again.encode_instances(rgb, mask, [1, 2]), a)
    other_seed = ClipEncoder(tiny_config(seed=1))
    assert np.abs(other_seed.encode_instances(rgb, mask, [1, 2]) - a).max() > 1e-3


def _outside_disk_in_box(mask):
    """Pixels of the disk's bounding box that are not disk: the corners."""
    box = np.zeros(mask.shape, dtype=bool)
    box[8:33, 8:33] = True
    return box & (mask != 1)


def test_mask_mode_ignores_pixels_outside_the_mask(enc, frame):
    rgb, mask = frame
    changed = rgb.copy()
    changed[_outside_disk_in_box(mask)] = 255 - changed[_outside_disk_in_box(mask)]
    changed[mask == 2] = 0  # another instance, also outside instance 1
    before = enc.encode_instances(rgb, mask, [1])
    np.testing.assert_array_equal(enc.encode_instances(changed, mask, [1]), before)
    inside = rgb.copy()
    inside[mask == 1] = 255 - inside[mask == 1]
    assert np.abs(enc.encode_instances(inside, mask, [1]) - before).max() > 1e-3


def test_crop_mode_sees_pixels_outside_the_mask(frame):
    rgb, mask = frame
    crop = ClipEncoder(tiny_config(background="crop"))
    changed = rgb.copy()
    changed[_outside_disk_in_box(mask)] = 255 - changed[_outside_disk_in_box(mask)]
    before = crop.encode_instances(rgb, mask, [1])
    assert np.abs(crop.encode_instances(changed, mask, [1]) - before).max() > 1e-3


def test_min_pixels_marks_small_instances_invalid(frame):
    rgb, mask = frame
    strict = ClipEncoder(tiny_config(min_pixels=100))  # id 3 has 70 pixels, id 2 has 600
    feats, valid = strict.encode_instances_with_validity(rgb, mask, [3, 2])
    assert valid.tolist() == [False, True]
    assert not np.any(feats[0]) and abs(np.linalg.norm(feats[1]) - 1.0) < 1e-6


def test_elongated_and_border_instances(enc):
    rgb = np.full((40, 50, 3), 90, dtype=np.uint8)
    mask = np.zeros((40, 50), dtype=np.uint16)
    mask[0, :] = 4  # one-pixel-high line along the top border
    mask[10:40, 49] = 5  # one-pixel-wide line along the right border
    feats, valid = enc.encode_instances_with_validity(rgb, mask, [4, 5])
    assert valid.tolist() == [True, True]
    np.testing.assert_allclose(np.linalg.norm(feats, axis=1), 1.0, atol=1e-6)


def test_pixel_padding_unit(frame):
    rgb, mask = frame
    px = ClipEncoder(tiny_config(padding=3, padding_unit="pixels"))
    feats = px.encode_instances(rgb, mask, [1, 2])
    np.testing.assert_allclose(np.linalg.norm(feats, axis=1), 1.0, atol=1e-6)


@pytest.mark.parametrize(
    ("rgb", "mask", "ids", "error", "text"),
    [
        (np.zeros((6, 8, 3), np.float32), np.zeros((6, 8), np.uint16), [1], ImageEncodingError, "uint8"),
        (np.zeros((6, 8), np.uint8), np.zeros((6, 8), np.uint16), [1], ImageEncodingError, "HxWx3"),
        (np.zeros((6, 8, 3), np.uint8), np.zeros((6, 8), np.float32), [1], ImageEncodingError, "mask"),
        (np.zeros((6, 8, 3), np.uint8), np.zeros((6, 9), np.uint16), [1], InputMismatchError, "9x6"),
        (np.zeros((6, 8, 3), np.uint8), np.zeros((6, 8), np.uint16), [0], PerceptionError, "0 marks"),
        (np.zeros((6, 8, 3), np.uint8), np.zeros((6, 8), np.uint16), [70000], PerceptionError, "1..65535"),
        (np.zeros((6, 8, 3), np.uint8), np.zeros((6, 8), np.uint16), [1.5], PerceptionError, "integer"),
    ],
)
def test_bad_frames_are_rejected_clearly(enc, rgb, mask, ids, error, text):
    with pytest.raises(error, match=text):
        enc.encode_instances(rgb, mask, ids)


def test_bad_input_is_an_invalid_input_error(enc):
    with pytest.raises(InvalidInputError):
        enc.encode_instances(np.zeros((6, 8, 3), np.uint8), np.zeros((6, 8), np.uint16), "12")


def test_missing_checkpoint_names_the_parameter(tmp_path):
    with pytest.raises(ConfigError, match=r"clip\.checkpoint_path .*does not exist"):
        ClipEncoder(ClipConfig(checkpoint_path=str(tmp_path / "nope.pt")))
    with pytest.raises(ConfigError, match=r"clip\.checkpoint_path is empty.*allow_random_weights"):
        ClipEncoder(ClipConfig())
    with pytest.raises(ConfigError, match=r"clip\.checkpoint_path .*is not a file"):
        ClipEncoder(ClipConfig(checkpoint_path=str(tmp_path)))


def test_corrupt_checkpoint_names_the_parameter(tmp_path):
    bad = tmp_path / "garbage.pt"
    bad.write_bytes(b"definitely not a torch checkpoint")
    with pytest.raises(ConfigError, match=r"clip\.checkpoint_path .*could not be loaded"):
        ClipEncoder(tiny_config(checkpoint_path=str(bad)))


def test_checkpoint_round_trip(enc, frame, tmp_path):
    import torch

    path = tmp_path / "tiny.pt"
    torch.save(enc.model.state_dict(), path)
    loaded = ClipEncoder(tiny_config(checkpoint_path=str(path), allow_random_weights=False, seed=99))
    rgb, mask = frame
    expected = enc.encode_instances(rgb, mask, [1, 2])
    np.testing.assert_array_equal(loaded.encode_instances(rgb, mask, [1, 2]), expected)
    assert loaded.weights == str(path)


@pytest.mark.parametrize(
    ("overrides", "param"),
    [
        ({"background": "blur"}, "clip.background"),
        ({"padding": -1}, "clip.padding"),
        ({"padding_unit": "inches"}, "clip.padding_unit"),
        ({"batch_size": 0}, "clip.batch_size"),
        ({"min_pixels": 0}, "clip.min_pixels"),
        ({"num_threads": -2}, "clip.num_threads"),
        ({"allow_random_weights": "yes"}, "clip.allow_random_weights"),
        ({"image_std": (0.2, 0.0, 0.2)}, "clip.image_std"),
    ],
)
def test_bad_config_names_the_parameter(overrides, param):
    with pytest.raises(ConfigError, match=param.replace(".", r"\.")):
        tiny_config(**overrides)


def test_unknown_architecture_is_a_config_error():
    with pytest.raises(ConfigError, match=r"clip\.model_name 'ViT-Nope' is not an open_clip architecture"):
        ClipEncoder(ClipConfig(model_name="ViT-Nope", allow_random_weights=True))


def test_text_encoder_shape_normalisation_and_cache(enc):
    text = enc.text_encoder()
    assert text is enc.text_encoder()
    assert text.name == "open_clip:tiny-test" and text.dim == 32
    vecs = text.encode(["a mug", "a sofa", "a mug"])
    assert vecs.shape == (3, 32) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-6)
    np.testing.assert_array_equal(vecs[0], vecs[2])
    assert np.abs(vecs[0] - vecs[1]).max() > 1e-3
    calls = text.model_calls
    np.testing.assert_array_equal(text.encode(["a sofa"])[0], vecs[1])
    assert text.model_calls == calls
    with pytest.raises(InvalidInputError, match="blank"):
        text.encode(["  "])


def test_import_does_not_load_torch():
    code = "import sys, tempomem_ros.perception.clip_encoder; print('torch' in sys.modules)"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"
