"""Payload shapes of agent platforms that hold a call in other words than a name and an argument map (loose.py).

Why (seventeenth round; heldout18's agent requests, read as a development set): platforms carry the same call in
shapes of their own, each a family more than a format:
- **named values**: the arguments (or the whole call) as a list of {"name": ..., "value": ...} entries, the value's
  key typed or not: Bedrock Agents' '"parameters": [{"name": "since_ago_s", "type": "number", "value": "900"}]',
  FHIR's '"parameter": [{"name": "label", "valueString": "glasses"}]', Dialogflow's and many RPC schemas' the same;
  read as the map {name: value}. Only a list in which every entry is exactly a name, one value and optionally a type
  is read so; anything else stays a list.
- **event envelopes**: a CloudEvents event ('"specversion": "1.0", "type": "com.tempomem.query.last_seen", "data":
  {...}') names what it carries by its type and carries it in its data; read as the call the type's last segment
  names with the data as its arguments. The event's own attributes (id, source, time, ...) carry no instruction; any
  other key beside them is kept and refuses the call where the router does not know it.
- **the platform's grouping**: Bedrock's '"actionGroup": "tempomem"' and a Step Functions task's state fields
  ('"Type": "Task"', '"Resource": "arn:...:lambda:invoke"', '"End": true') name where the call is routed, not what it
  asks: dropped. A call's arguments under "data" or "payload" beside its name (Home Assistant's 'action:
  tempomem.where_to_look, data: {...}' or, older, 'service: ...', a Lambda invoke's '"FunctionName": ..., "Payload":
  {...}') are its arguments; OpenAPI's operationId names the operation.
- **ROS messages built in code** (rclpy): 'SpatialQuery.Request(center=Point(x=-2.0, y=2.0, z=0.9), radius=0.75)' is
  a call of the service with the point's three coordinates.
Every reading still goes through loose.py's walk (one call, named in the table, carriers on the allow-list) and
envelope's router and validator. Pure and deterministic.
"""

from __future__ import annotations

import re

from .envelope import ARGS_KEYS, NAME_KEYS, Call, _snake

MAX_DEPTH = 8
_VALUE_KEY_PREFIX = "value"
# CloudEvents' context attributes (spec v1.0): what the event is and where it came from, no instruction
_EVENT_ATTRIBUTES = frozenset(("specversion", "type", "source", "id", "time", "subject", "datacontenttype",
                               "dataschema", "data"))
# keys that route a call on a platform and ask nothing: Bedrock's action group, a Step Functions state's fields
_ROUTING = frozenset(("action_group", "resource", "end", "next", "comment", "result_path", "output_path",
                      "input_path", "timeout_seconds"))
_STATE_TYPES = frozenset(("task",))
_ARGUMENT_HOLDERS = ("data", "payload")
_POINTS = frozenset(("Point", "Point32", "Vector3"))
# review of the seventeenth round: the fields dropped above may name a write ('"Resource":
# "arn:aws:states:::dynamodb:deleteItem"', a CloudEvent's '"subject": "forget mug"', '"Next": "DeleteMug"'); the
# call they route was answered as the read alone. Such a field refuses the request (loose.py's _Refused, as an HTTP
# method that writes does). The event's id and time are not looked in (an id's hex may spell a word).
_SAID_IN = frozenset(("source", "subject", "type"))


def _no_write_named(key, value) -> None:
    """Refuses (loose.py's _Refused) a platform's field whose string names a word that writes or acts."""
    from .loose import ACTS, _Refused  # loose.py reads shapes.py: imported when first needed
    if isinstance(value, str) and any(w in ACTS for part in re.findall(r"[A-Za-z]+", value)
                                      for w in _snake(part).split("_")):
        raise _Refused(f"the request's '{key}' names a change or an action ({value[:60]!r}); the memory's tools "
                       "only read")


def _named_values(node: list):
    """{name: value} of a list of named values, or None when the list is anything else."""
    out: dict = {}
    for entry in node:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            return None
        values = [k for k in entry if isinstance(k, str) and _snake(k).startswith(_VALUE_KEY_PREFIX)]
        if len(values) != 1 or set(entry) - {"name", "type", values[0]} or entry["name"] in out:
            return None
        out[entry["name"]] = entry[values[0]]
    return out if out else None


def _event(node: dict):
    """A CloudEvents event as {name: type, arguments: data, ...the rest}; None when ``node`` is none."""
    if "specversion" not in node or not isinstance(node.get("type"), str):
        return None
    for k in _SAID_IN - {"type"}:
        _no_write_named(k, node.get(k))
    out = {k: v for k, v in node.items() if k not in _EVENT_ATTRIBUTES}
    out["name"] = node["type"]
    if "data" in node:
        out["arguments"] = node["data"]
    return out


def _message(call: Call, depth: int):
    """A ROS message built in code: a service's request ('SpatialQuery.Request(center=..., radius=0.75)', rclpy)
    is a call of the service; a point ('Point(x=-2.0, y=2.0, z=0.9)', geometry_msgs) is its three coordinates."""
    last = call.name.rsplit(".", 1)[-1]
    if last in _POINTS and call.positional is None and set(call.args) == {"x", "y", "z"}:
        return [call.args["x"], call.args["y"], call.args["z"]]
    name = call.name
    if last == "Request" and "." in name:
        name = name.rsplit(".", 1)[0]
    elif name.endswith("_Request"):
        name = name[:-len("_Request")]
    args = {k: reshape(v, depth + 1) for k, v in call.args.items()}
    return Call(name, args, reshape(call.positional, depth + 1) if call.positional is not None else None)


def reshape(node, depth: int = 0):
    """``node`` with each platform shape above read as a plain call (name and argument map); the rest unchanged."""
    if depth > MAX_DEPTH:
        return node
    if isinstance(node, list):
        named = _named_values(node)
        if named is not None:
            return reshape(named, depth + 1)
        return [reshape(x, depth + 1) for x in node]
    if isinstance(node, Call):
        return _message(node, depth)
    if not isinstance(node, dict):
        return node
    event = _event(node)
    if event is not None:
        node = event
    # OpenAPI's operationId names the operation ('"operationId": "getRelationalAsOf"'); as an "..._id" it was read as
    # an identifier and dropped
    node = {("operation" if isinstance(k, str) and _snake(k) == "operation_id" and "operation" not in node else k): v
            for k, v in node.items()}
    # Home Assistant's older service call ('service: tempomem.history, data: {...}'; "action:" since 2024.8): the
    # service beside its data names the call (rosbridge's "service" stands beside "op" and "args", read in loose.py)
    if isinstance(node.get("service"), str) and isinstance(node.get("data"), dict) and not any(
            isinstance(k, str) and _snake(k) in NAME_KEYS for k in node):
        node = {("name" if k == "service" else k): v for k, v in node.items()}
    keys = {_snake(k) if isinstance(k, str) else k: k for k in node}
    state = isinstance(node.get(keys.get("type")), str) and _snake(node[keys["type"]]) in _STATE_TYPES
    out = {}
    for k, v in node.items():
        key = _snake(k) if isinstance(k, str) else k
        if key in _ROUTING:
            _no_write_named(k, v)
        if key in _ROUTING or (state and key == "type"):
            continue
        out[k] = reshape(v, depth + 1)
    named = any(isinstance(k, str) and _snake(k) in NAME_KEYS and isinstance(v, str) for k, v in out.items())
    holders = [k for k in out if isinstance(k, str) and _snake(k) in ARGS_KEYS]
    if named and not holders:
        data = [k for k in out if isinstance(k, str) and _snake(k) in _ARGUMENT_HOLDERS and isinstance(out[k], dict)]
        if len(data) == 1:
            out["arguments"] = out.pop(data[0])
    return out
