"""The agent tools' argument layer: one JSON-Schema function spec per operator of the table, plus ``ask``, and the
validation of an untrusted argument object against it.

Why in core/answering and not in tools/agent_tools.py, where it was written: two readers take an agent's arguments,
the tool layer (tools/agent_tools.call, the MCP server) and the question understander (envelope.py: a tool call typed
into /tempomem/query, '<tool_call>{"name": "is_missing", ...}</tool_call>'); both must check them with the same bounds,
and core may not import tools/ (agent_tools imports the answering package). So the specs and validators live here,
once, and agent_tools re-exports them. Every argument is untrusted: a model can hallucinate a NaN, a 10^400 integer, a
50 kB label or a negative radius; each is refused with a message that is safe to show (no value echoed raw).
"""

from __future__ import annotations

import math
import unicodedata

from .operators import TABLE

MAX_TEXT = 200          # labels, anchors, descriptions
MAX_QUESTION = 500
AGENT_MAX_K, DEFAULT_K = 100, 10  # an agent reads every result into its context: a short page
MAX_ID = 2**53          # JSON numbers stay exact below this
MAX_COORD = 1e6         # metres: a map is never this large
MAX_RADIUS = 1000.0
MAX_AGO_S = 10 * 365 * 86400.0
MIN_STAMP, MAX_STAMP = 0.0, 1e11
KINDS = ("appeared", "moved", "removed", "reappeared")


class ToolError(Exception):
    """A call the caller can fix; its message is safe to show."""


# ------------------------------------------------------------------------------------------------- schemas
def _param_schema(p) -> dict[str, dict]:
    if p.kind == "label":
        return {"label": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT, "description": p.description},
                "object_id": {"type": "integer", "minimum": 1, "maximum": MAX_ID,
                              "description": "the object by id (instead of label)"}}
    if p.kind == "anchor":
        return {"anchor": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT, "description": p.description},
                "anchor_id": {"type": "integer", "minimum": 1, "maximum": MAX_ID,
                              "description": "the anchor by object id (instead of anchor)"}}
    if p.kind == "relation":
        return {"relation": {"type": "string", "enum": ["on", "under", "near", "in"], "description": p.description}}
    if p.kind == "time":
        return {p.name: {"type": "number", "minimum": MIN_STAMP, "maximum": MAX_STAMP, "description": p.description},
                f"{p.name}_ago_s": {"type": "number", "minimum": 0, "maximum": MAX_AGO_S,
                                    "description": f"{p.name} as seconds before now (instead of {p.name})"}}
    if p.kind == "kinds":
        return {"kinds": {"type": "array", "items": {"type": "string", "enum": list(KINDS)}, "uniqueItems": True,
                          "maxItems": len(KINDS), "description": p.description}}
    if p.kind == "point":
        return {"center": {"type": "array", "items": {"type": "number", "minimum": -MAX_COORD, "maximum": MAX_COORD},
                           "minItems": 3, "maxItems": 3, "description": p.description}}
    if p.kind == "radius":
        return {"radius": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_RADIUS,
                           "description": p.description}}
    if p.kind == "text":
        return {"text": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT, "description": p.description}}
    raise AssertionError(p.kind)  # pragma: no cover - every kind of the table is listed above


def tool_specs() -> list[dict]:
    """One spec per operator (name, description, inputSchema), then ``ask``; deterministic order."""
    specs = []
    for op in TABLE:
        props: dict = {}
        any_of = []
        for p in op.params:
            props.update(_param_schema(p))
            if p.required and p.kind in ("label", "anchor") and op.name != "spatial":
                by_id = "object_id" if p.kind == "label" else "anchor_id"  # the id's own property (_param_schema)
                any_of.append([{"required": [p.kind]}, {"required": [by_id]}])
        props["k"] = {"type": "integer", "minimum": 1, "maximum": AGENT_MAX_K, "default": DEFAULT_K,
                      "description": "at most this many objects in the result"}
        required = [p.name for p in op.params if p.required and p.kind not in ("label", "anchor", "time")]
        schema: dict = {"type": "object", "properties": props, "additionalProperties": False}
        if required:
            schema["required"] = required
        conditions = [{"anyOf": alts} for alts in any_of]
        if any(p.kind == "time" and p.required for p in op.params):
            conditions.append({"anyOf": [{"required": ["t"]}, {"required": ["t_ago_s"]}]})
        if op.name == "spatial":
            conditions.append({"anyOf": [{"required": ["center"]}, {"required": ["anchor"]},
                                         {"required": ["anchor_id"]}]})
        if conditions:
            schema["allOf"] = conditions
        examples = "; ".join(f"'{e}'" for e in op.examples)
        specs.append({"name": op.name, "description": f"{op.summary[0].upper()}{op.summary[1:]}. As a question: "
                                                      f"{examples}. Read-only.", "inputSchema": schema})
    specs.append({"name": "ask", "description": "Ask the memory a question in English (the same understanding as "
                  "the /tempomem/query service); the result says what it was understood as. Read-only.",
                  "inputSchema": {"type": "object", "additionalProperties": False, "required": ["question"],
                                  "properties": {"question": {"type": "string", "minLength": 1,
                                                              "maxLength": MAX_QUESTION},
                                                 "k": {"type": "integer", "minimum": 1, "maximum": AGENT_MAX_K,
                                                       "default": DEFAULT_K}}}})
    return specs


_SPECS = {s["name"]: s for s in tool_specs()}


# ---------------------------------------------------------------------------------------------- validation
def _number(v, name: str, lo: float, hi: float, *, exclusive_lo: bool = False) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ToolError(f"{name} must be a number")
    try:
        v = float(v)
    except OverflowError:  # an integer of 400 digits: float() raises instead of giving inf
        raise ToolError(f"{name} must be a finite number in [{lo:g}, {hi:g}]") from None
    if not math.isfinite(v) or v < lo or v > hi or (exclusive_lo and v <= lo):
        raise ToolError(f"{name} must be a finite number in {'(' if exclusive_lo else '['}{lo:g}, {hi:g}]")
    return v


def _integer(v, name: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ToolError(f"{name} must be an integer in [{lo}, {hi}]")
    return v


def _text(v, name: str, limit: int) -> str:
    if not isinstance(v, str):
        raise ToolError(f"{name} must be a non-empty string")
    # compatibility forms read as what they stand for (stop 36, review of stop 35): a fullwidth "ｍｕｇ" is the mug, as
    # it is in a typed question (normalise.py); a label never matched "ｍｕｇ" and an agent was told of no such thing.
    # Normalised before the checks: NFKC can lengthen a text eighteen times ("ﷺ" is 18 characters), so a limit of 200
    # checked before it let 3600 through (review of the thirteenth round)
    v = unicodedata.normalize("NFKC", v)
    if not v.strip():
        raise ToolError(f"{name} must be a non-empty string")
    if len(v) > limit:
        raise ToolError(f"{name} must be at most {limit} characters")
    if any(ord(c) < 32 and c not in "\t" for c in v):
        raise ToolError(f"{name} must not contain control characters")
    return v.strip()


def validate(name: str, arguments, now: float | None) -> dict:
    """The operator's arguments from an untrusted JSON object (ToolError with a safe message when invalid)."""
    if name not in _SPECS:
        raise ToolError(f"unknown tool '{str(name)[:40]}'")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise ToolError("arguments must be a JSON object")
    props = _SPECS[name]["inputSchema"]["properties"]
    unknown = sorted(str(k)[:40] for k in arguments if k not in props)
    if unknown:
        raise ToolError(f"unknown argument '{unknown[0]}' (expected: {', '.join(props)})")
    a: dict = {}
    for key, v in arguments.items():
        if key in ("label", "anchor", "text"):
            a[key] = _text(v, key, MAX_TEXT)
        elif key == "question":
            a[key] = _text(v, key, MAX_QUESTION)
        elif key in ("object_id", "anchor_id"):
            a[key] = _integer(v, key, 1, MAX_ID)
        elif key == "k":
            a[key] = _integer(v, key, 1, AGENT_MAX_K)
        elif key == "relation":
            if v not in ("on", "under", "near", "in"):
                raise ToolError("relation must be one of on, under, near, in")
            a[key] = v
        elif key == "kinds":
            if not isinstance(v, list) or len(v) > len(KINDS) or any(k not in KINDS for k in v):
                raise ToolError(f"kinds must be a list of {', '.join(KINDS)}")
            a[key] = sorted(set(v))
        elif key == "center":
            if not isinstance(v, list) or len(v) != 3:
                raise ToolError("center must be [x, y, z]")
            a[key] = [_number(c, "center", -MAX_COORD, MAX_COORD) for c in v]
        elif key == "radius":
            a[key] = _number(v, "radius", 0.0, MAX_RADIUS, exclusive_lo=True)
        elif key.endswith("_ago_s"):
            base = key[:-6]
            if base in arguments:
                raise ToolError(f"give {base} or {key}, not both")
            if now is None:
                raise ToolError("the memory is empty: there is no 'now' to count back from")
            a[base] = now - _number(v, key, 0.0, MAX_AGO_S)
        else:  # t, since, until
            a[key] = _number(v, key, MIN_STAMP, MAX_STAMP)
    if "label" in a and "object_id" in a:
        raise ToolError("give label or object_id, not both")
    if "anchor" in a and "anchor_id" in a:
        raise ToolError("give anchor or anchor_id, not both")
    if "anchor_id" in a:
        a["anchor"] = a.pop("anchor_id")  # the operators take an anchor as label text or object id
    spec = next((op for op in TABLE if op.name == name), None)
    if spec is not None:
        for p in spec.params:
            if p.required and p.kind in ("label",) and "label" not in a and "object_id" not in a:
                raise ToolError("give label or object_id")
            if p.required and p.kind == "anchor" and name != "spatial" and "anchor" not in a:
                raise ToolError("give anchor or anchor_id")
            if p.required and p.kind not in ("label", "anchor") and p.name not in a:
                raise ToolError(f"{p.name} is required")
        if name == "spatial" and ("center" in a) == ("anchor" in a):
            raise ToolError("give center or anchor (or anchor_id), one of them")
        if "since" in a and "until" in a and a["since"] > a["until"]:
            raise ToolError("since must not be after until")
    return a
