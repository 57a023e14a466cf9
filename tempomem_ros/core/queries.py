"""Read-side queries: spatial, relational, semantic, and the records behind every object.

Why answers are built from stored rows only: a query must never change the memory, and whatever it
returns must be traceable (the observation ids, placements and relation rows it came from).
"""

from __future__ import annotations

import json
import math

import numpy as np

from . import validation
from .config import MemoryConfig
from .errors import InvalidInputError, TempoMemError, UnknownIdError
from .labels import label_matches, words
from .rows import observation_record, region_info, relation_info
from .store import StoreInterface, vectors
from .store.audit import AuditRows
from .store.events import EventRows
from .store.object_row import ObjectRow
from .store.objects import ObjectRows
from .store.observations import ObservationRows
from .store.placements import PlacementRows
from .store.reads import StoreReads
from .store.regions import RegionRows
from .store.relations import RelationRows
from .types import AuditRow, ObjectInfo, RelationalResult, Scored


# Words that carry no meaning for keyword matching of labels in free-text queries.
STOPWORDS = frozenset(
    "a an the something somewhere thing things some any find me to from for of on in with where what which "
    "is are i my can could you please show get give one that this it".split())


def _keyword_hit(label: str, query_words: set[str]) -> float:
    """1 when every content word of the label appears in the query ("the red mug" finds "mug")."""
    label_words = set(words(label)) - STOPWORDS
    return 1.0 if label_words and label_words <= query_words else 0.0


#: The query methods Memory exposes (each through its facade).
PUBLIC = (
    "spatial", "relational", "relational_before", "objects_labelled", "relations", "semantic",
    "history", "history_count", "observation", "sources_of", "observations", "placements", "placement_count",
    "events", "regions", "contents", "audit", "tombstones",
)


class QueryService:
    """Spatial, relational, semantic and record queries over one store; nothing here writes. Memory exposes each
    public method (its facade takes the lock and maps storage errors, guard.py)."""

    PUBLIC = PUBLIC

    def __init__(self, store: StoreInterface, reads: StoreReads, config: MemoryConfig, *, embedding_dim: int,
                 meta: dict, vector_index_on: bool, vector_mode: str, label_encoder=None, clip_text_encoder=None,
                 explain_missing=None):
        self._store = store
        self._reads = reads
        self.config = config
        self.embedding_dim = embedding_dim
        self._meta = meta  # the store's meta table (its feature_model may be recorded after opening)
        self._vector_index_on = vector_index_on
        self._vector_mode = vector_mode
        self.label_encoder = label_encoder
        self.clip_text_encoder = clip_text_encoder
        #: observation id -> what became of it, for an id the store no longer holds (retention's tallies)
        self._explain_missing = explain_missing
        self._label_embeddings: dict[str, np.ndarray] = {}
        self._label_matrix: tuple = (None, None)  # (labels list, its stacked embeddings)
        self._feature_matrix = vectors.FeatureMatrix()
        self._feature_rows, self._feature_rows_key = 0, None
        # the store's rows, by table (core/store/)
        self._object_rows = ObjectRows(store)
        self._observation_rows = ObservationRows(store, has_sources=reads.has_sources)
        self._placement_rows = PlacementRows(store)
        self._event_rows = EventRows(store)
        self._relation_rows = RelationRows(store)
        self._region_rows = RegionRows(store)
        self._audit_rows = AuditRows(store)

    @property
    def _conn(self):
        return self._store.conn

    # ------------------------------------------------------------------ spatial
    def spatial(self, center, radius: float, *, label: str | None = None, k: int = 100,
                states: tuple[str, ...] = ("present",)) -> list[Scored]:
        """Objects whose centroid lies within ``radius`` of ``center``: ascending distance, ties by id."""
        c = validation.finite_vec3(center, "center")
        r = validation.finite_number(radius, "radius")
        if r <= 0:
            raise InvalidInputError(f"radius must be > 0, got {r}")
        k = validation.positive_int(k, "k", maximum=validation.MAX_K)
        rows = self._store.objects_in_box([v - r for v in c], [v + r for v in c], tuple(states))
        hits = []
        for row in rows:
            d = math.sqrt((row.cx - c[0]) ** 2 + (row.cy - c[1]) ** 2 + (row.cz - c[2]) ** 2)
            if d > r:
                continue
            if label and not label_matches(label, row.pinned_label or row.label):
                continue
            hits.append((d, row.id, row))
        hits.sort(key=lambda h: (h[0], h[1]))
        hits = hits[:k]
        infos = self._reads.object_infos([h[2] for h in hits])
        return [Scored(info, h[0]) for info, h in zip(infos, hits)]

    # ------------------------------------------------------------------ relational
    def _resolve_anchors(self, anchor, states=("present",)) -> list[ObjectRow]:
        if isinstance(anchor, bool):
            raise InvalidInputError("anchor must be a label or an object id")
        if isinstance(anchor, (int, np.integer)):
            validation.id_in_range(anchor, "anchor id")
            row = self._object_rows.row(anchor)
            return [row] if row is not None and row.state in states else []
        if not isinstance(anchor, str) or not words(anchor):
            raise InvalidInputError("anchor must be a non-empty label or an object id")
        validation.text_length(anchor, "anchor", self.config.max_label_length)
        return list(self._reads.objects_labelled(anchor, tuple(states)))

    def relational(self, relation: str, anchor, *, t: float | None = None) -> RelationalResult:
        """Objects in ``relation`` (on | under | near | in) to the anchor (label text or object id), now or,
        with ``t``, as of that moment (relation rows keep their validity interval [since, until)).

        An anchor that matches nothing gives anchor_found=False and no objects, never everything. As of t,
        anchors are the present and missing objects of that label (a table gone now still had things on it
        then), and ``placements`` holds where each object stood at t. Validity intervals are stamped when the
        memory learned of the change (the newest frame stamp of the commit that decided it).
        """
        if relation not in ("on", "under", "near", "in"):
            raise InvalidInputError(f"unknown relation '{relation}' (on | under | near | in)")
        if t is not None:
            t = validation.finite_number(t, "t")
        anchors = self._resolve_anchors(anchor, ("present",) if t is None else ("present", "missing"))
        region, region_ids = self._anchor_regions(relation, anchor)
        if not anchors and not region_ids:
            return RelationalResult(False, (), ())
        anchor_ids = [int(a.id) for a in anchors]
        rel_rows = self._relation_rows.with_anchors(relation, anchor_ids, region_ids, t)
        ids = self._related_ids(relation, rel_rows, anchor_ids)
        states = ("present",) if t is None else ("present", "missing")
        # the related rows, the region labels and the label mass of them and of the anchors in one round trip
        rows, infos, anchor_infos, _ = self._reads.rows_described(ids, states, also=anchors)
        placements: tuple = ()
        if t is not None:
            at = {p.object_id: p for p in self.placements_at([int(r.id) for r in rows], t)}
            infos = [info for r, info in zip(rows, infos) if int(r.id) in at]  # stood somewhere known at t
            rows = [r for r in rows if int(r.id) in at]
            placements = tuple(at[int(r.id)] for r in rows)
        return RelationalResult(True, tuple(anchor_infos), tuple(infos),
                                tuple(relation_info(r) for r in rel_rows), region, placements)

    def relational_before(self, relation: str, anchor) -> tuple[float | None, RelationalResult]:
        """(t, result): what stood in ``relation`` to the anchor just before the last change of that set
        (t = when it changed; None and the current set when it never changed). "What was on the table
        before" asks for the table's previous contents, as "where was the mug before" asks for its previous
        place."""
        now = self.relational(relation, anchor)
        if not now.anchor_found:
            return None, now
        anchors = self._resolve_anchors(anchor, ("present", "missing"))
        _, region_ids = self._anchor_regions(relation, anchor)
        rows = self._relation_rows.with_anchors(relation, [int(a.id) for a in anchors], region_ids, None,
                                                history=True)
        current = {o.id for o in now.objects}
        for tc in sorted({float(r["since"]) for r in rows} | {float(r["until"]) for r in rows
                                                               if r["until"] is not None}, reverse=True):
            before = self.relational(relation, anchor, t=math.nextafter(tc, -math.inf))
            if {o.id for o in before.objects} != current:
                return tc, before
        return None, now

    def _anchor_regions(self, relation: str, anchor):
        region, region_ids = None, []
        if relation == "in" and isinstance(anchor, str):
            for r in self._region_rows.all():
                if label_matches(anchor, r["label"]):
                    region_ids.append(int(r["id"]))
                    region = region if region is not None else region_info(r)
        return region, region_ids

    @staticmethod
    def _related_ids(relation: str, rel_rows, anchor_ids) -> list[int]:
        if relation == "under":
            return sorted({int(r["object_id"]) for r in rel_rows} - set(anchor_ids))
        return sorted({int(r["subject_id"]) for r in rel_rows} - set(anchor_ids))

    def placements_at(self, object_ids, t: float) -> list:
        """The placement each object had at t (objects without one are left out), by object id."""
        out = self._reads.placement_infos(self._placement_rows.at(object_ids, t))
        seen, unique = set(), []
        for p in out:
            if p.object_id not in seen:
                seen.add(p.object_id)
                unique.append(p)
        return unique

    def objects_labelled(self, label: str, states: tuple[str, ...] = ("present", "missing")) -> list[ObjectInfo]:
        """Objects whose shown label contains the words of ``label`` (whole words), present before missing,
        then the most recently seen, then the lowest id (the order answers describe them in)."""
        return self._reads.object_infos(self.objects_labelled_rows(label, states))

    def objects_labelled_rows(self, label: str, states: tuple[str, ...] = ("present", "missing")) -> list[ObjectRow]:
        """objects_labelled's objects as the store's rows, in the same order, without their label mass and region
        (object_infos): for a caller that describes one of them and names the others by id and state (the yes/no
        checks), whose cost would otherwise grow with the label's copies (bench_long_run: 333 -> 475 objects over
        the same 200 requests, day 1 -> 30)."""
        if not isinstance(label, str) or not words(label):
            raise InvalidInputError("label must not be empty")
        for st in states:
            if st not in ("present", "missing", "forgotten"):
                raise InvalidInputError(f"unknown state '{st}' (present | missing | forgotten)")
        rows = list(self._reads.objects_labelled(label, tuple(states)))
        rows.sort(key=lambda r: (r.state != "present", -float(r.last_seen), r.id))
        return rows

    def relations(self, object_id: int | None = None) -> list:
        """Current relation rows (all, or those involving one object), ordered by id."""
        if object_id is None:
            rows = self._relation_rows.current()
        else:
            self._reads.row_or_raise(object_id)
            rows = self._relation_rows.current_of(object_id)
        return [relation_info(r) for r in rows]

    # ------------------------------------------------------------------ semantic
    def label_vectors(self, labels: list[str]) -> dict[str, np.ndarray]:
        missing = [lbl for lbl in labels if lbl not in self._label_embeddings]
        if missing:
            vecs = np.asarray(self.label_encoder.encode(missing), dtype=np.float32)
            for lbl, v in zip(missing, vecs):
                self._label_embeddings[lbl] = v
        return {lbl: self._label_embeddings[lbl] for lbl in labels}

    def semantic(self, text: str, k: int = 10) -> list[Scored]:
        """Present objects matching a meaning, best first (ties by id).

        score = a * label similarity + b * CLIP similarity + keyword_bonus * (every content word of the
        label appears in the text), with a = label_weight and b = 1 - label_weight when both encoders are
        available, only the available term otherwise (keywords alone without encoders). Label similarity
        embeds the text and each distinct label with the label encoder (cached per label); CLIP similarity
        compares the CLIP text embedding with each object's stored feature (only when the store's
        feature_model is that encoder's model). Retrieval then exact re-ranking: candidates are the
        clip_candidates(k) nearest features (sqlite-vec index or exact numpy; identical by construction,
        see store/vectors.py) plus the objects of the label_candidates best labels; every candidate is scored
        exactly from the stored BLOBs.
        """
        if not isinstance(text, str) or not words(text):
            raise InvalidInputError("semantic query text must not be empty")
        # a 1 MB query held a reader for 3.3 s (issue 12); descriptions are a few words
        validation.text_length(text, "semantic query text", self.config.gates.max_question_length)
        k = validation.positive_int(k, "k", maximum=validation.MAX_K)
        scfg = self.config.semantic
        labels = self._reads.distinct_labels("present")
        if not labels:
            return []
        query_words = set(words(text)) - STOPWORDS
        label_sim = self._label_similarities(text, labels)
        clip_q = self._clip_query(text)
        a = (scfg.label_weight if clip_q is not None else 1.0) if label_sim is not None else 0.0
        b = 0.0 if clip_q is None else 1.0 - a
        static = {lbl: a * (label_sim[lbl] if label_sim is not None else 0.0)
                  + scfg.keyword_bonus * _keyword_hit(lbl, query_words) for lbl in labels}
        ranked_labels = sorted((lbl for lbl in labels if static[lbl] > 0), key=lambda lbl: (-static[lbl], lbl))
        candidates: set[int] = set()
        if clip_q is not None:
            candidates.update(self._clip_candidates(clip_q, max(scfg.clip_candidates, 5 * k)))
            groups = ranked_labels[: scfg.label_candidates]
            per_label = scfg.label_group_limit
        else:
            groups, per_label, total = [], None, 0
            for lbl in ranked_labels:  # objects of one label share its score: take whole labels until k
                groups.append(lbl)
                total += self._object_rows.count_present_labelled(lbl)
                if total >= k:
                    break
        for lbl in groups:
            candidates.update(self._object_rows.present_ids_labelled(lbl, per_label))
        clip = vectors.exact_similarities(self._conn, candidates, clip_q) if clip_q is not None else {}
        scored = []
        for oid, lbl in self._object_rows.shown_labels_of(candidates):
            total = static.get(lbl, 0.0) + b * clip.get(oid, 0.0)
            if total >= scfg.min_score:
                scored.append((-round(total, 9), oid, total))
        scored.sort()
        scored = scored[:k]
        rows = [self._object_rows.row(oid) for _, oid, _ in scored]
        return [Scored(info, s[2]) for info, s in zip(self._reads.object_infos(rows), scored)]

    def _label_similarities(self, text: str, labels: list[str]) -> dict[str, float] | None:
        if self.label_encoder is None:
            return None
        q = np.asarray(self.label_encoder.encode([text]), dtype=np.float32)[0]
        cached_labels, matrix = self._label_matrix
        if cached_labels is not labels:  # the same list object while the labels are unchanged
            vecs = self.label_vectors(labels)
            matrix = np.stack([vecs[lbl] for lbl in labels]) if labels else np.zeros((0, q.shape[0]), np.float32)
            self._label_matrix = (labels, matrix)
        return dict(zip(labels, (matrix @ q).tolist()))

    def _clip_query(self, text: str) -> np.ndarray | None:
        enc = self.clip_text_encoder
        if enc is None:
            return None
        model = self._meta.get("feature_model", "")
        if model and model != enc.name:
            raise TempoMemError(f"stored features come from '{model}' but the text encoder is '{enc.name}'")
        if not model:
            return None
        q = np.asarray(enc.encode([text]), dtype=np.float32)[0]
        if q.shape != (self.embedding_dim,):
            raise TempoMemError(f"text encoder '{enc.name}' gives {q.shape[0]}-d vectors, the store holds "
                                f"{self.embedding_dim}-d features")
        return q

    def _use_index_for(self, key) -> bool:
        """Measured (bench/bench_semantic.py): sqlite-vec's vec0 search is exact brute force and slower than
        numpy on a cached matrix (97 vs 21 ms at 100,000 x 512), so "auto" uses the index only when the
        matrix would exceed semantic.feature_matrix_budget_mb of RAM; "on" always uses it."""
        if not self._vector_index_on:
            return False
        if self._vector_mode == "on":
            return True
        if self._feature_rows_key != key:
            self._feature_rows = self._object_rows.count_present_with_feature()
            self._feature_rows_key = key
        budget = self.config.semantic.feature_matrix_budget_mb * 2**20
        return self._feature_rows * self.embedding_dim * 4 > budget

    def _clip_candidates(self, query: np.ndarray, n: int) -> list[int]:
        """The n present objects with the most similar features (index or exact path), by exact score."""
        key = (self._store.data_version(), self._store.writes)
        if self._use_index_for(key):
            ids = vectors.index_knn(self._conn, query, n)
        else:
            fids, matrix = self._feature_matrix.get(self._conn, key)
            ids = vectors.exact_knn(fids, matrix, query, n)
        sims = vectors.exact_similarities(self._conn, ids, query)
        return [oid for oid, _ in sorted(sims.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]

    # ------------------------------------------------------------------ records
    def history(self, object_id: int, *, k: int | None = None, offset: int = 0) -> list:
        """The object's observations in stamp order (ties by id), each with its verdict. Under retention these are
        the kept sightings; sighting_counts() says how many more each placement had (counted in tallies).

        With ``k`` (and ``offset``): one page, counted from the newest: the newest ``k`` after skipping the
        ``offset`` newest, still in stamp order; history_count() gives the total. Why pages from the newest: a
        month-old object keeps some 50 sightings per placement and dozens of placements, and a caller (the
        History service, an agent) asks about its recent past first; a page costs what it returns."""
        self._reads.row_or_raise(object_id)
        k = -1 if k is None else validation.positive_int(k, "k", maximum=10**7)   # -1: no limit
        offset = validation.non_negative_int(offset, "offset")
        rows = self._observation_rows.newest_of(object_id, k, offset)
        return [observation_record(r) for r in reversed(rows)]

    def history_count(self, object_id: int) -> int:
        """How many observations history() holds for the object (all pages)."""
        self._reads.row_or_raise(object_id)
        return self._observation_rows.count_of(object_id)

    def observation(self, observation_id: int):
        if isinstance(observation_id, bool) or not isinstance(observation_id, (int, np.integer)):
            raise UnknownIdError(f"observation id must be an integer, got {observation_id!r}")
        validation.id_in_range(observation_id, "observation id")
        row = self._observation_rows.row(observation_id)
        if row is None:
            # says so when retention thinned it
            text = self._explain_missing(int(observation_id)) if self._explain_missing else None
            raise UnknownIdError(text or f"unknown observation id {observation_id}")
        return observation_record(row)

    def sources_of(self, observation_ids) -> tuple[str, ...]:
        """The source (robot id) of each observation, in the order given: which robot saw each piece of an
        answer's evidence (docs/FLEET.md). An unknown id is an UnknownIdError."""
        ids = [validation.id_in_range(i, "observation id") for i in observation_ids]
        found = self._observation_rows.sources(ids)
        missing = [i for i in ids if i not in found]
        if missing:
            raise UnknownIdError(f"unknown observation id {missing[0]}")
        return tuple(found[i] for i in ids)

    def observations(self, verdict: str | None = None) -> list:
        """Every stored observation (optionally of one verdict), by id. Under retention (retention.mode thin) the
        settled ones beyond each placement's sample are counted in tallies instead (core/retention.py)."""
        rows = self._observation_rows.all(verdict)
        return [observation_record(r) for r in rows]

    def placements(self, object_id: int, *, k: int | None = None, offset: int = 0) -> list:
        """The object's placements, oldest first; closed ones are kept (superseded, never deleted).

        With ``k`` (and ``offset``): one page, counted from the newest as history()'s: the newest ``k`` after
        skipping the ``offset`` newest, still oldest first; placement_count() gives the total. Why pages: every
        move and every removal and reappearance adds a placement for good, so a month-old object's list grows with
        its age (bench_long_run: the History service's placements 251 rows on day 1, 836 on day 30, x2.6 CPU for
        the unpaged field), and the History service answers in one message; the newest first, as the current
        place and the recent moves are what a caller asks about first."""
        self._reads.row_or_raise(object_id)
        if k is None and not offset:
            return self._reads.placement_infos(self._placement_rows.of_object(object_id))
        k = -1 if k is None else validation.positive_int(k, "k", maximum=10**7)   # -1: no limit
        offset = validation.non_negative_int(offset, "offset")
        rows = self._placement_rows.newest_of(object_id, k, offset)
        return self._reads.placement_infos(list(reversed(rows)))

    def placement_count(self, object_id: int) -> int:
        """How many placements placements() holds for the object (all pages)."""
        self._reads.row_or_raise(object_id)
        return self._placement_rows.count_of(object_id)

    def placement_now(self, object_id: int):
        """The object's current placement, else its newest (where it was last seen), else None: what the yes/no
        checks answer from (checks.py). The same placement as the first current one of placements(), else its last,
        from one or two indexed rows (placements_object) instead of the object's whole history, which grows with
        every move and reappearance (bench_long_run: the shown objects' placements 134 after day 1, 549 after 30)."""
        row = self._placement_rows.current_of(object_id)
        if row is None:
            row = self._placement_rows.last_of(object_id)
        return None if row is None else self._reads.placement_infos([row])[0]

    def object_events(self, object_id: int, kind: str, since: float | None = None, until: float | None = None) -> list:
        """The object's events of one kind with since <= stamp <= until (None: open), in stamp order: the events of
        events(object_id) that the yes/no checks answer from, without reading (and building the before / after
        placements of) every other event of the object, whose removals and reappearances grow with its history."""
        lo = float("-inf") if since is None else since
        hi = float("inf") if until is None else until
        return self._reads.events_from_rows(self._event_rows.of_object_kind(object_id, kind, lo, hi))

    def last_object_event(self, object_id: int, kind: str) -> list:
        """[the object's newest event of one kind] (object_events(object_id, kind)[-1:]), read as one row and named
        from the events after it: is_present's removal, which must not cost what the object's month of removals
        and reappearances holds (bench/long_run_calls.py --per-label is_present, thin/on: the notebook, missing on
        day 30, 512 -> 356 us; the laptop, missing on day 1, 293)."""
        row = self._event_rows.last_of_object_kind(object_id, kind)
        return [] if row is None else self._reads.events_from_rows([row])

    def last_event_id(self) -> int:
        """The id of the newest change event (0 when there is none), read without reading the events: a publisher
        starting on a store of months only needs where to begin."""
        return self._event_rows.last_id()

    def events(self, object_id: int | None = None, *, after_id: int | None = None,
               limit: int | None = None) -> list:
        """Change events in stamp order; with after_id: those recorded after that event id, in id order
        (a publisher's cursor: a removal is stamped with its first miss, so a time window could skip it)."""
        if after_id is not None:
            after_id = validation.non_negative_int(after_id, "after_id")
            lim = -1 if limit is None else validation.positive_int(limit, "limit", maximum=1_000_000)
            rows = self._event_rows.after(after_id, lim)
        elif object_id is None:
            rows = self._event_rows.all()
        else:
            self._reads.row_or_raise(object_id)
            rows = self._event_rows.of_object(object_id)
        return self._reads.events_from_rows(rows)

    def regions(self) -> list:
        return [region_info(r) for r in self._region_rows.all()]

    def contents(self, region_id: int) -> list:
        """Present objects whose centroid lies in the region, by id."""
        if isinstance(region_id, bool) or not isinstance(region_id, (int, np.integer)):
            raise UnknownIdError(f"region id must be an integer, got {region_id!r}")
        validation.id_in_range(region_id, "region id")
        reg = self._region_rows.row(region_id)
        if reg is None:
            raise UnknownIdError(f"unknown region id {region_id}")
        rows = self._object_rows.present_centred_in(reg)
        return self._reads.object_infos(rows)

    def audit(self, since: float | None = None) -> list:
        """The append-only audit of mutations (optionally those at wall time >= since), by id."""
        rows = self._audit_rows.rows(None if since is None else validation.finite_number(since, "since"))
        return [AuditRow(id=r["id"], stamp=r["stamp"], wall_time=r["wall_time"], action=r["action"],
                         object_ids=tuple(json.loads(r["object_ids"])),
                         observation_ids=tuple(json.loads(r["observation_ids"])),
                         detail=json.loads(r["detail"]), source=r["source"] if self._reads.has_sources else "")
                for r in rows]

    def tombstones(self) -> list[dict]:
        return [{"id": r["id"], "object_id": r["object_id"], "kind": r["kind"], "stamp": r["stamp"],
                 "wall_time": r["wall_time"], "reason": r["reason"], "label": r["label"],
                 "active": bool(r["active"])}
                for r in self._object_rows.tombstones()]
