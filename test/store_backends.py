"""The store backends every core test runs against: a SQLite file and a PostgreSQL database.

Why one fixture: "the same answers on both backends" is only true if the same tests, with the same exact
assertions, pass on both. A test asks ``store("m")`` for a store address (the same name gives the same
address within the test); on SQLite that is a file in the test's tmp_path, on PostgreSQL a fresh schema
of the session's throwaway cluster (tempomem_ros/tools/pg_sandbox.py: unix socket only, removed at the end).

If the PostgreSQL cluster cannot start, every PostgreSQL test fails with the reason (never a silent skip).
TEMPOMEM_TEST_BACKENDS=sqlite limits a local run to SQLite; scripts/test.sh and the CI always run both.
"""

from __future__ import annotations

import itertools
import os
from urllib.parse import quote

import pytest

from tempomem_ros.core import Memory

BACKENDS = tuple(b for b in os.environ.get("TEMPOMEM_TEST_BACKENDS", "sqlite,postgresql").split(",") if b)
TEMPLATE_DB = "tempomem_tests"
_SCHEMAS = itertools.count(1)


class PgCluster:
    """The session's cluster: one database with PostGIS, a schema per store of a test."""

    def __init__(self, sandbox):
        self.sandbox = sandbox
        sandbox.create_database(TEMPLATE_DB)
        sandbox.psql("CREATE EXTENSION postgis", TEMPLATE_DB)

    def new_schema(self) -> tuple[str, str]:
        name = f"t{next(_SCHEMAS)}"
        self.sandbox.psql(f"CREATE SCHEMA {name}", TEMPLATE_DB)
        base = self.sandbox.url(TEMPLATE_DB)
        return name, f"{base}?options={quote(f'-csearch_path={name},public', safe='')}"

    def drop_schema(self, name: str) -> None:
        self.sandbox.psql(f"DROP SCHEMA IF EXISTS {name} CASCADE", TEMPLATE_DB)


@pytest.fixture(scope="session")
def pg_cluster():
    """The throwaway PostgreSQL cluster of this test session (fails, with the reason, when it cannot start)."""
    from tempomem_ros.tools.pg_sandbox import PgSandbox

    try:
        sandbox = PgSandbox.start()
    except Exception as exc:  # noqa: BLE001 - every reason must reach the test report
        pytest.fail(f"the PostgreSQL test cluster could not start: {exc}", pytrace=False)
    try:
        cluster = PgCluster(sandbox)
    except Exception as exc:  # noqa: BLE001
        sandbox.stop()
        pytest.fail(f"the PostgreSQL test cluster could not be prepared: {exc}", pytrace=False)
    try:
        yield cluster
    finally:
        sandbox.stop()


class Stores:
    """``store(name="m") -> address``; ``backend`` says which one this test runs on."""

    def __init__(self, backend: str, tmp_path, cluster: PgCluster | None):
        self.backend = backend
        self._tmp = tmp_path
        self._cluster = cluster
        self._made: dict[str, str] = {}
        self._schemas: list[str] = []

    def __call__(self, name: str = "m") -> str:
        if name not in self._made:
            if self.backend == "sqlite":
                self._made[name] = str(self._tmp / f"{name}.db")
            else:
                schema, url = self._cluster.new_schema()
                self._schemas.append(schema)
                self._made[name] = url
        return self._made[name]

    @property
    def postgres(self) -> bool:
        return self.backend == "postgresql"

    def raw(self, address: str, sql: str, params=()) -> list:
        """Run one statement on the store behind the memory's back (tests that damage or age a store); returns
        the rows. SQLite placeholders are ``?``, PostgreSQL's ``%s``."""
        if self.backend == "sqlite":
            import sqlite3

            con = sqlite3.connect(address)
            try:
                rows = con.execute(sql, params).fetchall()
                con.commit()
                return rows
            finally:
                con.close()
        import psycopg

        with psycopg.connect(address, autocommit=True) as con:
            cur = con.execute(sql, params)
            return cur.fetchall() if cur.description is not None else []

    def cleanup(self) -> None:
        for schema in self._schemas:
            self._cluster.drop_schema(schema)


@pytest.fixture(params=BACKENDS)
def store(request, tmp_path):
    """A store address on each backend (the test runs once per backend)."""
    cluster = request.getfixturevalue("pg_cluster") if request.param == "postgresql" else None
    stores = Stores(request.param, tmp_path, cluster)
    try:
        yield stores
    finally:
        if cluster is not None:
            stores.cleanup()


@pytest.fixture
def mem(store):
    """A Memory with the default configuration and 4-d features on each backend (a test file with another
    configuration defines its own ``mem``, which takes precedence)."""
    with Memory.open(store("m"), embedding_dim=4) as m:
        yield m
