"""Service handlers of the memory node: validate the request, call the core, fill the response.

Why a separate module: the node file stays a thin lifecycle adapter, and every handler here is a plain
function of (request, response) that tests can call without DDS. Why every handler is wrapped: a service
callback that raises takes the request down with it (the client waits forever) and, in rclpy, can stop the
executor; a malformed request must come back with a clear ``error`` (``success=false`` + ``message`` for the
mutating services) and the node must keep answering.

Reads go to a read-only Memory on the same SQLite file (WAL lets it read while the writer commits), so a
query never waits for a long commit; only forget and define_region use the writer.

Why every request field is checked here, by name (issue 12: 7 of 63 malformed requests answered "internal
error: OverflowError"): ids are uint64 on the wire but SQLite holds 1 .. 2**63 - 1, Time.nanosec is uint32 but
means < 1e9, strings are unbounded. Each is refused with a message naming the field; text a request sent
is echoed only sanitised and shortened (no control characters in responses or logs).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable

from tempomem_ros.core import validation
from tempomem_ros.core.config import MemoryConfig
from tempomem_ros.core.errors import ImplausibleInputError, InvalidInputError, TempoMemError, UnknownIdError
from tempomem_ros.core.labels import sanitize_label
from tempomem_ros.core.memory import Memory
from tempomem_ros.core.temporal import OPERATORS
from tempomem_ros.core.types import EVENT_KINDS, RELATIONS
from tempomem_ros.nodes import conversions as conv

SRV_MAX_K = 1000  # the .srv contract (below the core's validation.MAX_K)
DEFAULT_K = 10
DEFAULT_SPATIAL_K = 100
DEFAULT_SCENE_K = 50
# History's page when k is 0. Why 20 and not the 200 of before: a ROS service answers in one response, so its
# default must bound the work and the message of a call, and the offset and total_observations already let a client
# read every page (nothing is lost). With 200 the page was never full in a month of bench_long_run (the label's first
# object keeps 28 sightings on day 1, 73 on day 30), so the default answer, and its cost, grew with the object's age:
# CPU p95 day 1 -> 30 0.70 -> 1.95 ms (x2.8); a page of 20 is full from day 1 on: 0.39 -> 0.43 ms with the placements
# (x1.1), 0.35 -> 0.36 without (`python bench/long_run_calls.py STORE.day1 STORE.day30 --services history --no-fit
# --history-pages`; docs/RESULTS.md section 6). It is also what `ros2 service call` shows in a screenful, and the
# scale of the other defaults (DEFAULT_K, DEFAULT_SCENE_K). A client wanting more asks for up to SRV_MAX_K.
DEFAULT_HISTORY_K = 20
# History's page of placements when placements_k is 0, counted from the newest as the observations are (the current
# place first to be read). Why a page: a placement is never deleted (every move, removal and reappearance adds one),
# so the unpaged field grew with the object's age: in bench_long_run the History probe's 200 calls read 251
# placements on day 1 and 836 on day 30, and the field alone cost x2.6 CPU p95 day 1 -> 30 (docs/RESULTS.md section
# 6, round 3). Why 20, the sightings' page: the whole list of an object that has stood in at most 20 places, which is
# every object the bench's History probe asks about in its month (after 30 days only a shelf 37, a sofa 30, a dresser
# and a plate 22 have more), so a normal answer is unchanged and a long-lived object's is bounded; a client pages on
# with placements_offset.
DEFAULT_HISTORY_PLACEMENTS = 20
MAX_REASON_LENGTH = 500  # a forget reason (the tombstone keeps it)
ECHO_LENGTH = 60  # characters of request text quoted back in an error message
TEMPORAL_OPERATIONS = (*OPERATORS, "where_to_look")
CHECKS = (*RELATIONS, "moved", "present", "missing", "seen")


def check_k(k: int, default: int, name: str = "k") -> int:
    """0 = the default; otherwise 1..SRV_MAX_K (the .srv contract); ``name`` is the field's, for the error."""
    k = int(k)
    if k == 0:
        return default
    if not 1 <= k <= SRV_MAX_K:
        raise InvalidInputError(f"{name} must be in 1..{SRV_MAX_K} (0 = default {default}), got {k}")
    return k


def shown(text: str) -> str:
    """Request text as it may appear in an error message: sanitised, at most ECHO_LENGTH characters."""
    clean = sanitize_label(text, ECHO_LENGTH + 1)
    return clean if len(clean) <= ECHO_LENGTH else clean[:ECHO_LENGTH] + "..."


def check_text(text: str, name: str, maximum: int | None = None) -> str:
    if maximum is not None and len(text) > maximum:
        raise ImplausibleInputError(f"{name} is {len(text)} characters long, at most {maximum} are accepted",
                                    "request_size")
    if not text or not text.strip():
        raise InvalidInputError(f"{name} must not be empty")
    return text.strip()


def check_id(value: int, name: str) -> int:
    """A uint64 id field: 1 .. 2**63 - 1 (SQLite's INTEGER); 0 is 'not given' and handled by the caller."""
    return validation.id_in_range(int(value), name)


def check_time(stamp, name: str) -> float:
    """A builtin_interfaces/Time field as seconds: nanosec must be below 1e9 (conv.from_time)."""
    return conv.from_time(stamp, name)


def check_point(p, name: str) -> tuple[float, float, float]:
    xyz = conv.from_point(p)
    if not all(math.isfinite(v) for v in xyz):
        raise InvalidInputError(f"{name} must be finite, got ({xyz[0]}, {xyz[1]}, {xyz[2]})")
    return xyz


def handler(failure: Callable[[object, str], None]):
    """Turn any exception of a handler into a response that says what went wrong.

    TempoMemError subclasses carry messages written for users (malformed input, unknown id, closed store);
    anything else is a bug and is logged with its traceback, but the caller still gets an answer.
    A failed call answers a fresh response with the error and nothing else: a handler fills its response as it
    goes (History had set found, the object and a page of sightings when placements_k was refused), and a
    partly filled reply beside an error reads as an answer.
    """

    def wrap(method):
        @functools.wraps(method)
        def run(self, request, response):
            try:
                return method(self, request, response)
            except TempoMemError as exc:
                self._log_warn(f"{method.__name__}: {exc}")
                self.on_refused(method.__name__, exc)
                message = str(exc)
            except Exception as exc:  # noqa: BLE001 - the node must survive any bug in a handler
                self._log_error(f"{method.__name__} failed", exc)
                message = f"internal error: {type(exc).__name__}: {exc}"
            response = type(response)()
            failure(response, message)
            return response

        return run

    return wrap


def _set_error(response, message: str) -> None:
    response.error = message


def _set_failure(response, message: str) -> None:
    response.success = False
    response.message = message


class ServiceHandlers:
    """The eleven services. ``reader`` answers queries, ``writer`` mutates; ``now`` gives the "now" used for
    relative times (None = the latest observation stamp); ``on_change`` is called after a mutation so the
    node republishes its scene graph and markers. Text fields are limited to gates.max_question_length
    (questions, semantic text), max_label_length (labels, anchors) and MAX_REASON_LENGTH (forget reasons)."""

    def __init__(
        self,
        reader: Memory,
        writer: Memory,
        *,
        now: Callable[[], float | None] = lambda: None,
        on_change: Callable[[], None] = lambda: None,
        on_refused: Callable[[str, Exception], None] = lambda service, exc: None,
        logger=None,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.now = now
        self.on_change = on_change
        #: called with (service, error) for every refused request (the node counts them, and a storage
        #: error of a mutation updates its store state)
        self.on_refused = on_refused
        config = getattr(reader, "config", None)
        config = config if isinstance(config, MemoryConfig) else MemoryConfig()
        self.gates = config.gates
        self.max_label = config.max_label_length
        self.logger = logger
        self._objects = conv.MessageMemo(conv.scene_object, key=lambda o: o.id)
        self._placements = conv.MessageMemo(conv.placement, key=lambda p: None if p is None else p.id)

    def _log_warn(self, text: str) -> None:
        if self.logger is not None:
            self.logger.warning(text, throttle_duration_sec=1.0)

    def _log_error(self, text: str, exc: BaseException) -> None:
        if self.logger is not None:
            import traceback

            self.logger.error(f"{text}: {''.join(traceback.format_exception(exc))}")

    # ------------------------------------------------------------------------------------ queries
    @handler(_set_error)
    def query(self, request, response):
        question = check_text(request.question, "question", self.gates.max_question_length)
        k = check_k(request.k, DEFAULT_K)
        answer = self.reader.ask(question, now=self.now(), k=k)
        response.understood = answer.understood
        response.operation = answer.operator
        response.answer = answer.text
        response.objects = self._objects.messages(answer.objects)
        response.placements = self._placements.messages(answer.placements)
        response.evidence = [int(i) for i in answer.evidence]
        response.events = conv.change_events(answer.events)
        response.found = bool(answer.found)
        response.count = -1 if answer.count is None else int(answer.count)
        if answer.operator == "duration":
            response.duration_s = float(answer.time) if answer.time is not None else 0.0
        elif answer.time is not None:
            response.has_time = True
            response.time_result = conv.to_time(answer.time)
        response.scores = [float(x) for x in answer.scores]
        response.understood_as = answer.understood_as
        response.arguments = json.dumps(answer.arguments if answer.understood else {}, sort_keys=True, default=str)
        response.has_verdict = answer.verdict is not None
        response.verdict = bool(answer.verdict)
        response.suggestions = list(answer.suggestions)
        return response

    @handler(_set_error)
    def spatial_query(self, request, response):
        center = check_point(request.center, "center")
        radius = float(request.radius)
        if not math.isfinite(radius) or radius <= 0:
            raise InvalidInputError(f"radius must be a finite number > 0, got {radius}")
        k = check_k(request.k, DEFAULT_SPATIAL_K)
        label = request.label.strip() or None
        if label is not None:
            label = check_text(label, "label", self.max_label)
        hits = self.reader.spatial(center, radius, label=label, k=k)
        response.objects = self._objects.messages(h.object for h in hits)
        response.distances = [float(h.score) for h in hits]
        return response

    def _require_object(self, object_id: int, name: str = "object_id"):
        """The object with this id (any state); an id the store never issued is a malformed request."""
        object_id = check_id(object_id, name)
        try:
            return self.reader.get(object_id)
        except UnknownIdError:
            raise UnknownIdError(f"unknown object id {object_id}") from None

    @handler(_set_error)
    def relational_query(self, request, response):
        relation = request.relation.strip().lower()
        if relation not in RELATIONS:
            raise InvalidInputError(f"unknown relation '{shown(request.relation)}' ({' | '.join(RELATIONS)})")
        if request.anchor_id:
            anchor = self._require_object(request.anchor_id, "anchor_id").id
        else:
            anchor = check_text(request.anchor, "anchor (or anchor_id)", self.max_label)
        if request.before:
            changed_at, result = self.reader.relational_before(relation, anchor)
            response.changed_at = conv.to_time(changed_at)
        else:
            result = self.reader.relational(relation, anchor, t=conv.optional_time(request.time, "time"))
        response.anchor_found = result.anchor_found
        response.anchor_objects = self._objects.messages(result.anchors)
        response.objects = self._objects.messages(result.objects)
        response.placements = self._placements.messages(result.placements)
        return response

    @handler(_set_error)
    def semantic_query(self, request, response):
        text = check_text(request.text, "text", self.gates.max_question_length)
        k = check_k(request.k, DEFAULT_K)
        hits = self.reader.semantic(text, k=k)
        response.objects = self._objects.messages(h.object for h in hits)
        response.scores = [float(h.score) for h in hits]
        return response

    @handler(_set_error)
    def temporal_query(self, request, response):
        operation = request.operation.strip().lower()
        if operation not in TEMPORAL_OPERATIONS:
            raise InvalidInputError(
                f"unknown operation '{shown(request.operation)}' ({' | '.join(TEMPORAL_OPERATIONS)})")
        if request.object_id:
            target = {"object_id": self._require_object(request.object_id).id}
        else:
            target = {"label": check_text(request.label, "label (or object_id)", self.max_label)}
        t = check_time(request.time, "time") if operation == "as_of" else None
        if operation == "where_to_look":
            answer = self.reader.where_to_look(now=self.now(), **target)
        else:
            span = {}
            if operation in ("history", "count_moves"):
                span = {"since": conv.optional_time(request.since, "since"),
                        "until": conv.optional_time(request.until, "until")}
            answer = self.reader.temporal(operation, t=t, now=self.now(), **target, **span)
        response.found = answer.found
        response.answer = answer.text
        response.objects = self._objects.messages(answer.objects)
        response.placements = self._placements.messages(answer.placements)
        response.count = int(answer.count or 0)
        response.time_result = conv.to_time(answer.time)
        response.evidence = [int(i) for i in answer.evidence]
        response.scores = [float(x) for x in answer.scores]
        return response

    @handler(_set_error)
    def check(self, request, response):
        kind = request.check.strip().lower()
        if kind not in CHECKS:
            raise InvalidInputError(f"unknown check '{shown(request.check)}' ({' | '.join(CHECKS)})")
        if request.object_id:
            target = {"object_id": self._require_object(request.object_id).id}
        else:
            target = {"label": check_text(request.label, "label (or object_id)", self.max_label)}
        span = {"since": conv.optional_time(request.since, "since"),
                "until": conv.optional_time(request.until, "until")}
        if kind in RELATIONS:
            if request.anchor_id:
                anchor = self._require_object(request.anchor_id, "anchor_id").id
            else:
                anchor = check_text(request.anchor, "anchor (or anchor_id)", self.max_label)
            answer = self.reader.is_related(kind, anchor, t=conv.optional_time(request.time, "time"), **target)
        elif kind == "moved":
            answer = self.reader.did_move(**target, **span)
        elif kind == "seen":
            answer = self.reader.was_seen(**target, **span)
        else:
            answer = self.reader.is_present(missing=kind == "missing", **target)
        response.found = bool(answer.found)
        response.verdict = bool(answer.verdict)
        response.answer = answer.text
        response.objects = self._objects.messages(answer.objects)
        response.placements = self._placements.messages(answer.placements)
        response.events = conv.change_events(answer.events)
        response.evidence = [int(i) for i in answer.evidence]
        return response

    @handler(_set_error)
    def changes(self, request, response):
        since = check_time(request.since, "since")
        until = conv.optional_time(request.until, "until")
        kinds = [k.strip().lower() for k in request.kinds] or None
        for kind in kinds or ():
            if kind not in EVENT_KINDS:
                raise InvalidInputError(f"unknown event kind '{shown(kind)}' ({' | '.join(EVENT_KINDS)})")
        response.events = conv.change_events(self.reader.changes(since, until, kinds=kinds))
        return response

    @handler(_set_error)
    def scene_as_of(self, request, response):
        radius = float(request.radius)
        if not math.isfinite(radius) or radius < 0:
            raise InvalidInputError(f"radius must be 0 (whole scene) or a finite number > 0, got {radius}")
        # A page, never the whole store: a 10k-object answer takes ~1 s to build and as long again for an
        # rclpy client to read (bench/bench_services.py), so callers page through large scenes.
        k = check_k(request.k, DEFAULT_SCENE_K)
        t = check_time(request.time, "time")
        where = {"center": check_point(request.center, "center"), "radius": radius} if radius > 0 else {}
        pairs = self.reader.scene_as_of(t, k=k, offset=int(request.offset), **where)
        response.total = self.reader.scene_count_as_of(t, **where)
        response.objects = self._objects.messages(obj for obj, _ in pairs)
        response.placements = self._placements.messages(p for _, p in pairs)
        return response

    @handler(_set_error)
    def history(self, request, response):
        if not request.object_id:
            raise InvalidInputError("object_id is required (ids start at 1)")
        obj = self._require_object(request.object_id)
        response.found = True
        response.object = self._objects.messages([obj])[0]
        # a page, from the newest: a month-old object keeps thousands of sightings (bench/bench_long_run.py)
        k = check_k(request.k, DEFAULT_HISTORY_K)
        response.observations = [conv.observation_record(r)
                                 for r in self.reader.history(obj.id, k=k, offset=int(request.offset))]
        response.total_observations = self.reader.history_count(obj.id)
        # its placements, a page from the newest too: every move adds one for good (DEFAULT_HISTORY_PLACEMENTS)
        pk = check_k(request.placements_k, DEFAULT_HISTORY_PLACEMENTS, "placements_k")
        response.placements = self._placements.messages(
            self.reader.placements(obj.id, k=pk, offset=int(request.placements_offset)))
        response.total_placements = self.reader.placement_count(obj.id)
        return response

    # ------------------------------------------------------------------------------------ mutations
    @handler(_set_failure)
    def forget(self, request, response):
        if not request.object_id:
            raise InvalidInputError("object_id is required (ids start at 1)")
        object_id = check_id(request.object_id, "object_id")
        if len(request.reason) > MAX_REASON_LENGTH:
            raise ImplausibleInputError(f"reason is {len(request.reason)} characters long, at most "
                                        f"{MAX_REASON_LENGTH} are accepted", "request_size")
        try:
            obj = self.writer.get(object_id)
        except UnknownIdError:
            raise UnknownIdError(f"unknown object id {object_id}") from None
        reason = sanitize_label(request.reason, MAX_REASON_LENGTH) if request.reason.strip() else \
            "forgotten on request"
        if self.writer.forget(obj.id, reason):
            self.on_change()
            response.success = True
            response.message = f"forgot object #{obj.id} ({obj.label}): {reason}"
        else:
            response.success = False
            response.message = f"object #{obj.id} ({obj.label}) was already forgotten"
        return response

    @handler(_set_failure)
    def define_region(self, request, response):
        label = check_text(request.label, "label", self.max_label)
        lo = check_point(request.bbox_min, "bbox_min")
        hi = check_point(request.bbox_max, "bbox_max")
        region_id = self.writer.define_region(label, lo, hi)
        self.on_change()
        response.region_id = int(region_id)
        response.success = True
        response.message = f"defined region #{region_id} ({sanitize_label(label, self.max_label)})"
        return response


#: (service name under /tempomem, srv type name, handler method name) for the node to create.
SERVICES = (
    ("query", "Query", "query"),
    ("spatial_query", "SpatialQuery", "spatial_query"),
    ("relational_query", "RelationalQuery", "relational_query"),
    ("semantic_query", "SemanticQuery", "semantic_query"),
    ("temporal_query", "TemporalQuery", "temporal_query"),
    ("changes", "Changes", "changes"),
    ("scene_as_of", "SceneAsOf", "scene_as_of"),
    ("history", "History", "history"),
    ("forget", "Forget", "forget"),
    ("define_region", "DefineRegion", "define_region"),
    ("check", "Check", "check"),
)
MUTATING = frozenset({"forget", "define_region"})


def create_services(node, handlers: ServiceHandlers, namespace: str, mutate_group, query_group) -> list:
    """Create one service per SERVICES row under ``namespace`` on ``node``: the mutating ones in
    ``mutate_group``, the queries in ``query_group``. Returns them, for the node to destroy."""
    from tempomem_ros import srv as tempomem_srv  # noqa: PLC0415 - only creating the services needs the srv types

    return [node.create_service(getattr(tempomem_srv, type_name), f"{namespace}/{name}", getattr(handlers, method),
                                callback_group=mutate_group if name in MUTATING else query_group)
            for name, type_name, method in SERVICES]
