"""Colour realism (the default noise since stop 51; the preset ``real`` of stop 50): palettes look-alikes share,
white balance and exposure per visit.

Why: stop 49's colour cue study (bench/colour_cue_study.py) found that the default scenes of then cannot judge a
colour cue honestly. Each label has one base colour (+-20 a channel per instance), every look-alike pair
differs in colour (a red mug, a white cup) and the light is grey, so an 8x8 hue-saturation histogram told one
object across views from a same-class twin far better than a real camera allows. A real household has two
white mugs, a black remote next to a black phone, and a camera whose auto white balance and exposure differ
from one visit to the next. Everything here is off in ``NoiseConfig()`` and the preset ``plain`` (the default
before stop 51; ``NoiseConfig.palette_colors``, ``white_balance_sigma``, ``exposure_sigma``, ``flicker_sigma``) and
draws from its own random streams (keys 21, 24 and 25), so the plain scenes keep every byte.

**Palettes.** Look-alike classes (detection.LOOK_ALIKES) draw from one palette: drinkware (mug, cup, bowl),
vessels (bottle, vase), handhelds (remote, phone, wallet), small metal things (keys, glasses), flat things
(book, laptop), containers (basket), fabric (pillow, backpack, shoe) and toys (ball); plants stay green.
The frequencies are stated, not measured: white dominates ceramics (plain white mugs, cups and bowls are the
commonest tableware), black and dark grey dominate electronics and wallets, books spread over many colours.
They are set so that two instances of a class share a base colour often (drinkware: P = sum of squared
weights = 0.18; handhelds: 0.31) and a look-alike pair as often as a twin pair. An instance takes its
palette colour +-10 a channel (two white mugs differ by a few levels, as two real ones do under one light).

**White balance and exposure.** The renderer's light is grey and constant; a real camera's auto white balance
and exposure settle differently at each visit (another time of day, another lamp) and flicker a little
between frames (mains lighting, auto-exposure hunting). Per visit or patrol pass: a gain per channel
exp(N(0, white_balance_sigma)) (4 %: the spread of grey-world AWB errors under indoor light) times an
overall gain exp(N(0, exposure_sigma)) (15 %); per frame an overall exp(N(0, flicker_sigma)) (2 %). The gains
multiply the shaded colour before sensor noise and 8-bit clipping (a white object saturates, as it does).
"""

from __future__ import annotations

import numpy as np

from .config import NoiseConfig

# named reflectances (8-bit sRGB, before shading)
COLOURS: dict[str, tuple[int, int, int]] = {
    "white": (236, 236, 232), "cream": (226, 214, 180), "black": (34, 34, 36), "grey": (128, 128, 132),
    "dark_grey": (70, 70, 76), "silver": (176, 178, 184), "red": (190, 40, 36), "blue": (44, 80, 170),
    "navy": (30, 40, 80), "green": (50, 140, 70), "dark_green": (40, 80, 50), "yellow": (228, 196, 50),
    "orange": (230, 110, 30), "brown": (110, 70, 40), "tan": (180, 140, 90), "pink": (220, 130, 160),
    "purple": (120, 60, 150), "clear_glass": (196, 210, 206), "green_glass": (70, 130, 80),
    "amber_glass": (140, 80, 30), "brass": (190, 160, 70), "wicker": (184, 148, 96),
}

#: palette name -> [(colour name, frequency)]; frequencies sum to 1.
PALETTES: dict[str, list[tuple[str, float]]] = {
    "drinkware": [("white", 0.35), ("cream", 0.10), ("black", 0.12), ("grey", 0.08), ("red", 0.10),
                  ("blue", 0.12), ("green", 0.06), ("yellow", 0.04), ("orange", 0.03)],
    "vessel": [("clear_glass", 0.30), ("green_glass", 0.20), ("amber_glass", 0.10), ("white", 0.15),
               ("blue", 0.10), ("black", 0.05), ("red", 0.05), ("grey", 0.05)],
    "handheld": [("black", 0.50), ("dark_grey", 0.20), ("silver", 0.10), ("white", 0.08), ("brown", 0.07),
                 ("navy", 0.05)],
    "metal": [("silver", 0.45), ("brass", 0.20), ("black", 0.20), ("brown", 0.15)],
    "flat": [("silver", 0.20), ("dark_grey", 0.15), ("black", 0.15), ("white", 0.10), ("blue", 0.10),
             ("red", 0.10), ("green", 0.07), ("yellow", 0.05), ("brown", 0.08)],
    "container": [("wicker", 0.40), ("tan", 0.20), ("grey", 0.15), ("white", 0.15), ("brown", 0.10)],
    "fabric": [("grey", 0.20), ("black", 0.18), ("navy", 0.12), ("white", 0.12), ("cream", 0.10),
               ("red", 0.08), ("blue", 0.08), ("green", 0.06), ("pink", 0.06)],
    "toy": [("red", 0.25), ("orange", 0.15), ("yellow", 0.15), ("blue", 0.20), ("white", 0.15), ("green", 0.10)],
    "plant": [("green", 0.60), ("dark_green", 0.40)],
}

#: catalogue label -> palette (look-alike classes share one)
LABEL_PALETTE: dict[str, str] = {
    "mug": "drinkware", "cup": "drinkware", "bowl": "drinkware", "bottle": "vessel", "vase": "vessel",
    "remote": "handheld", "phone": "handheld", "wallet": "handheld", "keys": "metal", "glasses": "metal",
    "book": "flat", "laptop": "flat", "basket": "container", "pillow": "fabric", "backpack": "fabric",
    "shoe": "fabric", "ball": "toy", "plant": "plant",
}
INSTANCE_JITTER = 10      # +- levels a channel around the palette colour


def palette_colour(rng: np.random.Generator, label: str) -> tuple[tuple[int, int, int], str] | None:
    """(colour, colour name) drawn from the label's palette, or None for a label without one."""
    name = LABEL_PALETTE.get(label)
    if name is None:
        return None
    options = PALETTES[name]
    w = np.array([f for _, f in options], float)
    pick = options[int(rng.choice(len(options), p=w / w.sum()))][0]
    base = COLOURS[pick]
    return tuple(int(np.clip(c + rng.integers(-INSTANCE_JITTER, INSTANCE_JITTER + 1), 0, 255)) for c in base), pick


def apply_palettes(seed: int, attempt: int, objects, noise: NoiseConfig) -> None:
    """Give every small object of the script its palette colour (in place; the same draw on every call).

    Each object draws from its own stream [seed, attempt, 21, id]: the script's colours were already drawn
    (and are replaced) so nothing else in the scene changes."""
    if not noise.palette_colors:
        return
    for obj in objects:
        if obj.kind != "small":
            continue
        drawn = palette_colour(np.random.default_rng([seed, attempt, 21, obj.id]), obj.label)
        if drawn is not None:
            obj.color = drawn[0]


def frame_gain(seed: int, attempt: int, run_key: int, index: int, noise: NoiseConfig) -> np.ndarray | None:
    """Per-channel gain of one frame (white balance x exposure of its visit or pass, times its flicker);
    None when all are off."""
    if noise.white_balance_sigma <= 0 and noise.exposure_sigma <= 0 and noise.flicker_sigma <= 0:
        return None
    vrng = np.random.default_rng([seed, attempt, 24, run_key])
    log_gain = vrng.normal(0.0, 1.0, 3) * noise.white_balance_sigma + vrng.normal(0.0, 1.0) * noise.exposure_sigma
    frng = np.random.default_rng([seed, attempt, 25, index])
    return np.exp(log_gain + frng.normal(0.0, 1.0) * noise.flicker_sigma)
