"""Node parameters declared from one table: name, default, description, choices, range.

Why a table: both nodes built their ParameterDescriptors by hand (two copies of the range logic), and the
memory node exposed 30 hand-picked MemoryConfig settings of 88, so that ``fusion.label_mode``, for one,
could not be set from ROS. Now every MemoryConfig setting is a parameter of the memory node, generated from
the dataclasses with their documented comments (core/config.py field_docs), ranges (FIELD_RANGES) and
choices (FIELD_CHOICES); a setting added to the core is a parameter without touching this package.
"""

from __future__ import annotations

from dataclasses import dataclass

from rcl_interfaces.msg import FloatingPointRange, IntegerRange, ParameterDescriptor

from tempomem_ros.core import config as core_config


@dataclass(frozen=True)
class ParamSpec:
    name: str
    default: object
    description: str
    choices: tuple[str, ...] | None = None
    span: tuple[float, float] | None = None
    read_only: bool = False

    @property
    def ros_default(self):
        """The default as ROS holds it: a tuple setting is a (double or string) array."""
        return list(self.default) if isinstance(self.default, tuple) else self.default


def descriptor(spec: ParamSpec) -> ParameterDescriptor:
    """The ParameterDescriptor of one spec: its description (with its choices), range and read-only flag."""
    text = spec.description if spec.choices is None else f"{spec.description} One of: {', '.join(spec.choices)}."
    desc = ParameterDescriptor(name=spec.name, description=text, read_only=spec.read_only)
    if spec.span is not None and not isinstance(spec.default, bool):
        low, high = spec.span
        if isinstance(spec.default, int):
            desc.integer_range = [IntegerRange(from_value=int(low), to_value=int(high), step=1)]
        elif isinstance(spec.default, float):
            desc.floating_point_range = [FloatingPointRange(from_value=float(low), to_value=float(high), step=0.0)]
    return desc


def declare(node, specs) -> None:
    """Declare every spec on the node, in order."""
    for spec in specs:
        node.declare_parameter(spec.name, spec.ros_default, descriptor(spec))


def memory_config_specs(overrides: dict[str, str] | None = None) -> tuple[ParamSpec, ...]:
    """One spec per MemoryConfig setting ('section.key'), in declaration order. ``overrides``: a description
    to use instead of the one beside the field in core/config.py (a node's own wording for its users)."""
    docs = core_config.field_docs()
    out = []
    for key, default in core_config.flat_defaults().items():
        why = (overrides or {}).get(key) or docs.get(key) or "see docs/MEMORY.md"
        out.append(ParamSpec(key, default, f"{why} (MemoryConfig {key})", core_config.FIELD_CHOICES.get(key),
                             core_config.FIELD_RANGES.get(key)))
    return tuple(out)


def memory_config_from(get, **top) -> core_config.MemoryConfig:
    """The MemoryConfig of a node's parameters: ``get(name)`` gives each setting's value."""
    return core_config.from_flat({k: get(k) for k in core_config.flat_defaults()}, **top)
