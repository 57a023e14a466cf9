"""A top-down map of the memory as a PNG: object footprints, labels, movement arrows and a scale bar.

Why a picture without RViz: a store is often inspected after the fact, on a machine without a display
or ROS (a bug report, a CI artefact); one PNG shows at a glance where things are and how they moved.
ROS-free on purpose: pillow and the core only.

At a given time T the map shows the objects present at T (each at the placement it had then) and the
moves that happened up to T; without T it shows the memory as it is now (missing objects dashed grey).
"""

from __future__ import annotations

import colorsys
import math
import zlib
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from tempomem_ros.core.memory import Memory
from tempomem_ros.core.types import ObjectInfo, PlacementInfo

BACKGROUND = (255, 255, 255)
GRID = (232, 232, 232)
MISSING = (150, 150, 150)


@dataclass(frozen=True)
class Drawn:
    """What ended up in the picture (tests and the CLI report it)."""

    objects: int
    missing: int
    arrows: int
    metres_per_pixel: float
    scale_bar_m: float


@dataclass(frozen=True)
class _Item:
    obj: ObjectInfo
    lo: tuple[float, float]
    hi: tuple[float, float]
    center: tuple[float, float]
    missing: bool


def label_color(label: str) -> tuple[int, int, int]:
    """Same hue rule as the RViz markers (crc32 of the label), so a mug has one colour everywhere."""
    hue = (zlib.crc32(label.encode("utf-8")) % 360) / 360.0
    r, g, b = colorsys.hsv_to_rgb(hue, 0.75, 0.85)
    return int(r * 255), int(g * 255), int(b * 255)


def nice_length(target: float) -> float:
    """The largest 1, 2 or 5 x 10^k not above target (a readable scale-bar length)."""
    if target <= 0 or not math.isfinite(target):
        return 1.0
    exp = math.floor(math.log10(target))
    for mult in (5.0, 2.0, 1.0):
        if mult * 10**exp <= target:
            return mult * 10**exp
    return 10**exp


def _scene(
    memory: Memory, time: float | None
) -> tuple[list[_Item], list[tuple[PlacementInfo, PlacementInfo, str]]]:
    items: list[_Item] = []
    arrows: list[tuple[PlacementInfo, PlacementInfo, str]] = []
    if time is None:
        objects = [o for o in memory.objects() if o.state in ("present", "missing")]
        for o in objects:
            items.append(_Item(o, o.bbox_min[:2], o.bbox_max[:2], o.center[:2], o.state == "missing"))
        histories = {o.id: memory.placements(o.id) for o in objects if o.n_moves > 0}
    else:
        pairs = memory.scene_as_of(time)
        for o, p in pairs:
            items.append(_Item(o, p.bbox_min[:2], p.bbox_max[:2], p.center[:2], False))
        histories = {}
        for o, _ in pairs:
            if o.n_moves > 0:
                histories[o.id] = [p for p in memory.placements(o.id) if p.t_from <= time]
    labels = {it.obj.id: it.obj.label for it in items}
    for oid, places in histories.items():
        for before, after in zip(places, places[1:]):
            arrows.append((before, after, labels[oid]))
    return items, arrows


def render(
    memory: Memory, out_path: str, *, time: float | None = None, size: int = 900, margin: int = 50
) -> Drawn:
    """Write the PNG and say what is in it. ``size`` is the longer side in pixels."""
    items, arrows = _scene(memory, time)
    xs = [v for it in items for v in (it.lo[0], it.hi[0])] + [p.center[0] for a in arrows for p in a[:2]]
    ys = [v for it in items for v in (it.lo[1], it.hi[1])] + [p.center[1] for a in arrows for p in a[:2]]
    if not xs:
        xs, ys = [-1.0, 1.0], [-1.0, 1.0]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    span = max(x1 - x0, y1 - y0, 0.5)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    scale = (size - 2 * margin) / span  # pixels per metre
    width = max(400, int(round((x1 - x0) * scale)) + 2 * margin)
    height = max(300, int(round((y1 - y0) * scale)) + 2 * margin) + 30  # bottom band: scale bar

    def px(x: float, y: float) -> tuple[float, float]:
        return (width / 2 + (x - cx) * scale, (height - 30) / 2 - (y - cy) * scale)  # world y up

    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image, "RGBA")
    font = ImageFont.load_default()
    step = nice_length(span / 5)  # grid spacing, metres
    half_w, half_h = width / 2 / scale, height / 2 / scale
    gx = math.floor((cx - half_w) / step) * step
    while gx <= cx + half_w:
        draw.line([px(gx, cy - half_h), px(gx, cy + half_h)], fill=GRID)
        gx += step
    gy = math.floor((cy - half_h) / step) * step
    while gy <= cy + half_h:
        draw.line([px(cx - half_w, gy), px(cx + half_w, gy)], fill=GRID)
        gy += step

    for it in sorted(items, key=lambda i: i.obj.id):
        a, b = px(it.lo[0], it.hi[1]), px(it.hi[0], it.lo[1])
        if it.missing:
            _dashed_rect(draw, a, b, MISSING)
        else:
            color = label_color(it.obj.label)
            draw.rectangle([a, b], fill=color + (90,), outline=color + (255,), width=2)
    for before, _, label in arrows:  # previous places, faded
        a, b = px(before.bbox_min[0], before.bbox_max[1]), px(before.bbox_max[0], before.bbox_min[1])
        draw.rectangle([a, b], outline=label_color(label) + (110,), width=1)
    for before, after, label in arrows:
        _arrow(draw, px(*before.center[:2]), px(*after.center[:2]), label_color(label) + (220,))
    for it in sorted(items, key=lambda i: i.obj.id):
        x, y = px(*it.center)
        text = f"{it.obj.label} #{it.obj.id}" + (" (missing)" if it.missing else "")
        draw.text((x + 4, y - 12), text, fill=(20, 20, 20) if not it.missing else MISSING, font=font)

    bar_m = nice_length(span / 4)
    bx, by = margin, height - 22
    draw.line([(bx, by), (bx + bar_m * scale, by)], fill=(0, 0, 0), width=3)
    for end in (bx, bx + bar_m * scale):
        draw.line([(end, by - 5), (end, by + 5)], fill=(0, 0, 0), width=2)
    draw.text((bx + bar_m * scale + 8, by - 7), f"{bar_m:g} m", fill=(0, 0, 0), font=font)
    title = "now" if time is None else f"as of t={time:.3f}"
    draw.text((margin, 8), f"tempomem: {len(items)} object(s), {title}", fill=(0, 0, 0), font=font)
    image.save(out_path, format="PNG")
    return Drawn(
        objects=len(items),
        missing=sum(it.missing for it in items),
        arrows=len(arrows),
        metres_per_pixel=1.0 / scale,
        scale_bar_m=bar_m,
    )


def _arrow(draw: ImageDraw.ImageDraw, a, b, color) -> None:
    draw.line([a, b], fill=color, width=2)
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1e-6:
        return
    ux, uy = dx / length, dy / length
    head = min(12.0, length / 2)
    left = (b[0] - head * ux + head * 0.5 * uy, b[1] - head * uy - head * 0.5 * ux)
    right = (b[0] - head * ux - head * 0.5 * uy, b[1] - head * uy + head * 0.5 * ux)
    draw.polygon([b, left, right], fill=color)


def _dashed_rect(draw: ImageDraw.ImageDraw, a, b, color, dash: float = 6.0) -> None:
    (x0, y0), (x1, y1) = a, b
    for p, q in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        length = math.hypot(q[0] - p[0], q[1] - p[1])
        n = max(1, int(length // dash))
        for i in range(0, n, 2):
            t0, t1 = i / n, min(1.0, (i + 1) / n)
            draw.line(
                [
                    (p[0] + (q[0] - p[0]) * t0, p[1] + (q[1] - p[1]) * t0),
                    (p[0] + (q[0] - p[0]) * t1, p[1] + (q[1] - p[1]) * t1),
                ],
                fill=color,
                width=2,
            )
