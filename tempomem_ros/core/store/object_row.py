"""ObjectRow: one row of the objects table as the store layer hands it out, typed and read by attribute.

Why a type: fusion, the settling step, maintenance, retention and the queries all take an object row as the
domain object; as a raw ``sqlite3.Row`` (or the PostgreSQL connection's row) its columns were strings typed
at every use (``obj["label"]``), a misspelt one failed only when that line ran, and nothing said which
columns a row has. A NamedTuple names every column of rows.OBJECT_COLS once, in order, with its type:
``obj.label``, ``obj.min_x`` are checked by linters and type checkers, and a schema change that forgets
the row fails test_core_object_row.py.

Why a NamedTuple (not a dataclass): it is a tuple, built from the fetched values in one call and read through
C descriptors. Measured (bench/bench_rows.py, 10,000 rows of a real store, two loaded cores): building costs
1.2 x a fetch as sqlite3.Row (1.4 x when built from an already built row, the PostgreSQL path's shape), while
reading 13 columns costs 0.11 x by attribute and 0.7 x by name (sqlite3.Row finds a name by scanning its
columns); bench/bench_core.py's commit of 20 sightings into 10,000 objects was no slower (61-68 vs 79-104 ms
median, same machine, same load).
"""

from __future__ import annotations

from typing import NamedTuple

class ObjectRow(NamedTuple):
    """One object (every column of rows.OBJECT_COLS, in that order; docs/MEMORY.md says how each is decided).

    - identity and label: ``id``; ``label`` the fused label (the heaviest label mass, changed only past the
      relabel margin); ``pinned_label`` a person's correction (None: none), which overrides ``label`` wherever
      a label is shown or searched.
    - confidence: ``confidence`` the value shown, ``base_confidence`` decayed by maintenance's decay (equal to
      it until then); ``base_confidence`` the fused one (c <- c + (1 - c) * conf * gain per merge).
    - geometry: ``cx, cy, cz`` the centre of the fused box (the reported position); ``mx, my, mz`` the
      confidence-weighted running mean of the merged sightings' centroids (None on an object maintenance split
      off, until its rebuild: the box centre stands in); ``zt, zb`` running means of the sightings' top and
      bottom heights, which relations use (None where never set: max_z / min_z stand in); ``min_x .. max_z``
      the fused box; ``weight`` the sum of the merged sightings' confidences (the running means' weight);
      ``ext_x, ext_y, ext_z`` the object's size on each axis: the largest extent a single merged sighting had,
      or, for an object seen whole often enough, a running quantile of its sightings' extents
      (fusion.size_after_sighting; the growth bound, "seen whole").
    - appearance: ``feature`` the running mean of the sightings' features, L2-normalised, as float32 bytes
      (None: no sighting had one); ``feature_weight`` its weight.
    - lifecycle: ``state`` tentative, present, missing or forgotten; ``first_seen``, ``last_seen`` the stamps
      of its first and latest sightings; ``n_observations`` sightings merged; ``n_moves`` moves.
    - misses since the last sighting: ``misses`` counted, ``first_miss`` (a removal's stamp), ``last_miss``.
    - where: ``region_id`` the smallest region holding its centre when its placement opened (0: none);
      ``placement_id`` its current placement (None: none open, as for a missing object).
    - absence evidence over looks (core/persistence.py): ``absence_evidence`` units from ``absence_looks``
      looks; the current look's ``look_start`` and ``look_misses``; ``removal_due`` when a held removal is
      decided (None: none pending).

    Read by attribute only: ``row["label"]`` raises (TypeError, a tuple's index), and there is no ``keys()``,
    so a caller that reads a column by name fails at once instead of reading on slowly (a name was found by a
    Python-level lookup: 0.7 x a sqlite3.Row against 0.11 x by attribute, bench/bench_rows.py). Every caller in
    the package reads attributes; the box helpers of rows.py (bmin_of, center_of ...) read the other row kinds
    (placements, observations, regions, tombstones) by name, so an object's box is ``bmin`` / ``bmax`` /
    ``center`` / ``centroid`` here. An int or a slice indexes the tuple (``row[0]``, ``row[1:]``), as with a raw
    row.
    """

    id: int
    label: str
    pinned_label: str | None
    confidence: float
    base_confidence: float
    cx: float
    cy: float
    cz: float
    mx: float | None
    my: float | None
    mz: float | None
    zt: float | None
    zb: float | None
    min_x: float
    min_y: float
    min_z: float
    max_x: float
    max_y: float
    max_z: float
    weight: float
    ext_x: float
    ext_y: float
    ext_z: float
    feature: bytes | None
    feature_weight: float
    state: str
    first_seen: float
    last_seen: float
    n_observations: int
    n_moves: int
    misses: int
    first_miss: float | None
    last_miss: float | None
    region_id: int
    placement_id: int | None
    absence_evidence: float
    absence_looks: int
    look_start: float | None
    look_misses: int
    removal_due: float | None

    # The box and centres, as rows.py's bmin_of / bmax_of / center_of read them from the other row kinds
    # (placements, observations, regions, tombstones), which are read by name.
    @property
    def bmin(self) -> tuple[float, float, float]:
        return (self.min_x, self.min_y, self.min_z)

    @property
    def bmax(self) -> tuple[float, float, float]:
        return (self.max_x, self.max_y, self.max_z)

    @property
    def center(self) -> tuple[float, float, float]:
        """The centre of the fused box (the reported position)."""
        return (self.cx, self.cy, self.cz)

    @property
    def centroid(self) -> tuple[float, float, float]:
        """The running mean of the merged sightings' centroids; the box centre where there is none (an object
        maintenance split off, until its rebuild)."""
        if self.mx is None:
            return (self.cx, self.cy, self.cz)
        return (self.mx, self.my, self.mz)


_new = ObjectRow._make
#: a fetched row of rows.OBJECT_COLS (any sequence in that order) as an ObjectRow
new_object_row = _new


def fetch_object(cursor) -> ObjectRow | None:
    """The next row of an executed SELECT of rows.OBJECT_COLS (in that order, either backend) as an ObjectRow,
    or None."""
    _plain(cursor)
    row = cursor.fetchone()
    return None if row is None else _new(row)


def fetch_objects(cursor) -> list[ObjectRow]:
    """The remaining rows of an executed SELECT of rows.OBJECT_COLS (in that order, either backend) as
    ObjectRows."""
    _plain(cursor)
    return list(map(_new, cursor.fetchall()))


def fetch_plain(cursor) -> list[tuple]:
    """The remaining rows of an executed SELECT as plain tuples (_plain), on either backend."""
    _plain(cursor)
    return cursor.fetchall()


def fetch_keyed_objects(cursor) -> list[tuple]:
    """The remaining rows of an executed SELECT of one key column, then rows.OBJECT_COLS, as (key, ObjectRow)
    pairs."""
    _plain(cursor)
    return [(r[0], _new(r[1:])) for r in cursor.fetchall()]


def _plain(cursor) -> None:
    """Let a SQLite cursor hand out plain tuples: a sqlite3.Row built per row only to be copied costs more
    than the copy (bench/bench_rows.py). SQLite applies a cursor's row factory when a row is fetched, so this
    holds for every row of an executed statement. A PostgreSQL cursor (postgres/connection.py) has no row
    factory of its own: its rows, already built, are tuples too."""
    if getattr(cursor, "row_factory", None) is not None:
        cursor.row_factory = None
