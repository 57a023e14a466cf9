"""Every interface in msg/ and srv/ is generated, serialisable, and usable as a service.

The names come from the msg/ and srv/ directories, not from a list kept here: a new file that CMakeLists.txt
forgets to generate fails these tests instead of being silently absent from the build.
"""

import importlib
import itertools
import pathlib

import pytest
from rosidl_parser.definition import (
    AbstractGenericString,
    AbstractNestedType,
    Array,
    BasicType,
    BoundedSequence,
    NamespacedType,
)

ROOT = pathlib.Path(__file__).resolve().parents[1]
MSG_NAMES = sorted(p.stem for p in (ROOT / "msg").glob("*.msg"))
SRV_NAMES = sorted(p.stem for p in (ROOT / "srv").glob("*.srv"))

INT_TYPES = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "octet"}
FLOAT_TYPES = {"float", "double"}


def _msg_type(name):
    return getattr(importlib.import_module("tempomem_ros.msg"), name)


def _srv_type(name):
    return getattr(importlib.import_module("tempomem_ros.srv"), name)


def _value(slot_type, counter):
    """A value of `slot_type` that differs from its default; counter keeps values distinct per field."""
    if isinstance(slot_type, AbstractNestedType):
        if isinstance(slot_type, Array):
            length = slot_type.size
        elif isinstance(slot_type, BoundedSequence):
            length = min(2, slot_type.maximum_size)
        else:
            length = 2
        return [_value(slot_type.value_type, counter) for _ in range(length)]
    if isinstance(slot_type, NamespacedType):
        module = importlib.import_module(".".join(slot_type.namespaces))
        return _filled(getattr(module, slot_type.name)(), counter)
    if isinstance(slot_type, AbstractGenericString):
        text = f"v{next(counter)}"
        limit = getattr(slot_type, "maximum_size", None)
        return text[:limit] if limit else text
    if isinstance(slot_type, BasicType):
        k = next(counter)
        if slot_type.typename == "boolean":
            return True
        if slot_type.typename in FLOAT_TYPES:
            # Exactly representable in float32, and never 0.0 or 1.0 (Quaternion.w defaults to 1.0).
            return 1.5 + 0.25 * k
        if slot_type.typename in INT_TYPES:
            return 1 + k % 100
        if slot_type.typename == "byte":
            return bytes([1 + k % 100])
        if slot_type.typename == "char":
            return chr(ord("a") + k % 26)
    raise NotImplementedError(f"no test value for interface field type {slot_type!r}: extend _value()")


def _filled(message, counter=None):
    """`message` with every field set to a deterministic non-default value (nested messages too)."""
    counter = itertools.count() if counter is None else counter
    for field, slot_type in zip(message.get_fields_and_field_types(), type(message).SLOT_TYPES):
        setattr(message, field, _value(slot_type, counter))
    return message


def _all_types():
    types = [(f"msg/{name}", lambda name=name: _msg_type(name)) for name in MSG_NAMES]
    for name in SRV_NAMES:
        types.append((f"srv/{name}.Request", lambda name=name: _srv_type(name).Request))
        types.append((f"srv/{name}.Response", lambda name=name: _srv_type(name).Response))
    return types


ALL_TYPES = _all_types()


def test_interface_directories_are_not_empty():
    assert MSG_NAMES and SRV_NAMES


@pytest.mark.parametrize("kind, names", [("msg", MSG_NAMES), ("srv", SRV_NAMES)], ids=["msg", "srv"])
def test_generated_package_holds_exactly_the_interface_files(kind, names):
    module = importlib.import_module(f"tempomem_ros.{kind}")
    # Interface names are CamelCase; a service also brings Name_Request, Name_Response and Name_Event.
    public = [n for n in dir(module) if "_" not in n]
    generated = sorted(n for n in public if isinstance(getattr(module, n), type))
    assert generated == names


@pytest.mark.parametrize("get_type", [t for _, t in ALL_TYPES], ids=[i for i, _ in ALL_TYPES])
def test_every_field_is_filled_with_a_non_default_value(get_type):
    message_type = get_type()
    default, filled = message_type(), _filled(message_type())
    same = [f for f in default.get_fields_and_field_types() if getattr(default, f) == getattr(filled, f)]
    assert same == []


@pytest.mark.parametrize("get_type", [t for _, t in ALL_TYPES], ids=[i for i, _ in ALL_TYPES])
def test_serialization_round_trip_is_exact(get_type):
    from rclpy.serialization import deserialize_message, serialize_message

    message_type = get_type()
    original = _filled(message_type())
    data = serialize_message(original)
    assert deserialize_message(data, message_type) == original
    assert deserialize_message(serialize_message(message_type()), message_type) != original


def test_a_service_of_every_type_answers_an_rclpy_client(make_node, spin_until):
    node = make_node("tempomem_interface_test")
    received = {}

    def handler(name):
        srv_type = _srv_type(name)

        def answer(request, response):
            received[name] = request
            return _filled(srv_type.Response())

        return answer

    services = [node.create_service(_srv_type(n), f"interface_test/{n}", handler(n)) for n in SRV_NAMES]
    clients = {n: node.create_client(_srv_type(n), f"interface_test/{n}") for n in SRV_NAMES}
    assert len(services) == len(SRV_NAMES)
    assert spin_until(lambda: all(c.service_is_ready() for c in clients.values()), timeout_sec=20.0)

    futures = {n: c.call_async(_filled(_srv_type(n).Request())) for n, c in clients.items()}
    assert spin_until(lambda: all(f.done() for f in futures.values()), timeout_sec=20.0)

    for name, future in futures.items():
        srv_type = _srv_type(name)
        assert received[name] == _filled(srv_type.Request()), name
        assert future.result() == _filled(srv_type.Response()), name
        assert future.result() != srv_type.Response(), name
