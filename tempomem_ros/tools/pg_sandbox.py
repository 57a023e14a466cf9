"""A throwaway PostgreSQL 15 cluster in a temporary directory: for the tests, the benchmarks and trying the
fleet backend on one machine, never for a robot's real memory.

Why its own cluster and not the Debian one: the tests must not depend on (or change) a server someone
else runs, and the project's rule is that nothing listens on a network interface. So the cluster listens
on a unix socket only (``listen_addresses = ''``), in a directory of its own, and is stopped and removed
at the end. PostgreSQL refuses to run as root; when this runs as root the server's files belong to the
Debian ``postgres`` system user (present wherever the server package is installed) and initdb / pg_ctl run
through ``runuser``; otherwise they run as the current user.

Roles: ``tempomem`` (owner of the databases, trusted on the socket: the tests' superuser), and, made by
``add_role``, password roles for the security tests (scram-sha-256 on the socket). The connection string
never carries a password: libpq reads it from its usual sources (PGPASSWORD, ~/.pgpass, a service file).

``durable=False`` (the tests) turns fsync off: a throwaway cluster loses nothing that matters in a crash,
and every test commit would otherwise wait for the disk. The benchmarks run with the server's defaults.
"""

from __future__ import annotations

import argparse
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from urllib.parse import quote

PG_BIN = os.environ.get("TEMPOMEM_PG_BIN", "/usr/lib/postgresql/15/bin")
SERVER_USER = "postgres"  # the Debian package's system user
SUPERUSER = "tempomem"


class SandboxError(RuntimeError):
    """The throwaway cluster could not be made or started; the message says why (with the server's log)."""


def _binary(name: str) -> str:
    path = os.path.join(PG_BIN, name)
    if not os.access(path, os.X_OK):
        raise SandboxError(f"{path} not found: install postgresql-15 (bash scripts/setup.sh does)")
    return path


@dataclass
class PgSandbox:
    """A running throwaway cluster. Use ``start()`` / ``stop()`` or ``with PgSandbox.start() as pg:``."""

    root: str
    port: int = 5432  # only names the socket file (.s.PGSQL.<port>); no TCP listener exists
    as_user: str | None = None  # run the server binaries as this user (root: the postgres system user)
    _stopped: bool = field(default=False, repr=False)

    @property
    def data_dir(self) -> str:
        return os.path.join(self.root, "data")

    @property
    def socket_dir(self) -> str:
        return os.path.join(self.root, "socket")

    @property
    def log_file(self) -> str:
        return os.path.join(self.root, "server.log")

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def start(cls, *, durable: bool = False, root: str | None = None, extra_conf: dict | None = None) -> "PgSandbox":
        as_user = SERVER_USER if os.geteuid() == 0 else None
        if as_user is not None:
            try:
                pwd.getpwnam(as_user)
            except KeyError:
                raise SandboxError(f"running as root, and the system user '{as_user}' that the server would run "
                                   "as does not exist (install postgresql-15)") from None
        root = root or tempfile.mkdtemp(prefix="tempomem_pg_")
        os.makedirs(root, exist_ok=True)
        sandbox = cls(root=root, as_user=as_user)
        try:
            sandbox._initdb(durable, extra_conf or {})
            sandbox._pg_ctl("start", "-w", "-t", "60", "-l", sandbox.log_file)
        except BaseException:
            sandbox.stop()
            raise
        return sandbox

    def __enter__(self) -> "PgSandbox":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove the directory. Safe to call twice."""
        if self._stopped:
            return
        self._stopped = True
        try:
            if os.path.exists(os.path.join(self.data_dir, "postmaster.pid")):
                self._pg_ctl("stop", "-m", "fast", "-w", "-t", "30", check=False)
            pid = self._postmaster_pid()
            if pid is not None:  # still there after a fast stop: do not leave a server behind
                try:
                    os.kill(pid, signal.SIGQUIT)
                except ProcessLookupError:
                    pass
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def _postmaster_pid(self) -> int | None:
        try:
            with open(os.path.join(self.data_dir, "postmaster.pid")) as fh:
                return int(fh.readline().strip())
        except (OSError, ValueError):
            return None

    def _run(self, argv: list[str], *, check: bool = True) -> subprocess.CompletedProcess:
        if self.as_user is not None:
            argv = ["runuser", "-u", self.as_user, "--", *argv]
        proc = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, "LC_ALL": "C.UTF-8"})
        if check and proc.returncode != 0:
            log = ""
            if os.path.exists(self.log_file):
                with open(self.log_file, errors="replace") as fh:
                    log = "".join(fh.readlines()[-20:])
            raise SandboxError(f"{' '.join(argv)} failed (exit {proc.returncode}): "
                               f"{(proc.stderr or proc.stdout).strip()[-2000:]}\n{log}".rstrip())
        return proc

    def _pg_ctl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return self._run([_binary("pg_ctl"), "-D", self.data_dir, *args], check=check)

    def _initdb(self, durable: bool, extra_conf: dict) -> None:
        os.makedirs(self.socket_dir, exist_ok=True)
        if self.as_user is not None:
            info = pwd.getpwnam(self.as_user)
            for path in (self.root, self.socket_dir):
                os.chown(path, info.pw_uid, info.pw_gid)
        os.chmod(self.root, 0o755)
        os.chmod(self.socket_dir, 0o755)
        self._run([_binary("initdb"), "-D", self.data_dir, "-U", SUPERUSER, "--auth-local=trust",
                   "--auth-host=reject", "-E", "UTF8", "--no-instructions"])
        conf = {
            "listen_addresses": "''",  # no TCP socket at all: the unix socket below is the only way in
            "unix_socket_directories": f"'{self.socket_dir}'",
            "port": str(self.port),
            "max_connections": "200",
            "shared_buffers": "'128MB'",
            "log_min_messages": "warning",
            "log_statement": "'none'",  # statements are parameterised, but no statement text is logged at all
            "log_connections": "off",
        }
        if not durable:
            conf.update({"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"})
        conf.update({k: str(v) for k, v in extra_conf.items()})
        with open(os.path.join(self.data_dir, "postgresql.auto.conf"), "a") as fh:
            for key, value in conf.items():
                fh.write(f"{key} = {value}\n")
        # Password roles (add_role) authenticate with scram on the socket; the superuser is trusted (it only
        # exists in this throwaway cluster, reachable through a socket in its own directory).
        with open(os.path.join(self.data_dir, "pg_hba.conf"), "w") as fh:
            fh.write(f"local all {SUPERUSER} trust\nlocal all all scram-sha-256\n")

    # ------------------------------------------------------------------ addresses and databases
    def url(self, dbname: str = "postgres", user: str = SUPERUSER) -> str:
        """libpq URL for a database of this cluster (no password in it)."""
        return f"postgresql://{quote(user)}@{quote(self.socket_dir, safe='')}:{self.port}/{quote(dbname)}"

    def psql(self, sql: str, dbname: str = "postgres") -> str:
        proc = subprocess.run([_binary("psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", "-d", self.url(dbname),
                               "-c", sql], capture_output=True, text=True)
        if proc.returncode != 0:
            raise SandboxError(f"psql failed: {proc.stderr.strip()}")
        return proc.stdout

    def create_database(self, name: str, template: str | None = None) -> str:
        """Create a database (from ``template`` when given) and return its URL."""
        tpl = f' TEMPLATE "{template}" STRATEGY FILE_COPY' if template else ""
        self.psql(f'CREATE DATABASE "{name}"{tpl}')
        return self.url(name)

    def add_role(self, name: str, password: str, *, login: bool = True) -> None:
        """A password role (scram-sha-256); the password is sent once, here, and lives nowhere else."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE ROLE {} WITH {} PASSWORD {}").format(
                sql.Identifier(name), sql.SQL("LOGIN" if login else "NOLOGIN"), sql.Literal(password)))


def wait_for(condition, timeout_s: float = 10.0, step_s: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(step_s)
    return True


def main(argv: list[str] | None = None) -> int:
    """``python -m tempomem_ros.tools.pg_sandbox``: start a throwaway cluster, print its URL, stop on Ctrl-C."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--durable", action="store_true", help="keep fsync on (the server's default)")
    parser.add_argument("--database", default="tempomem", help="database to create (default tempomem)")
    args = parser.parse_args(argv)
    sandbox = PgSandbox.start(durable=args.durable)
    try:
        print(sandbox.create_database(args.database), flush=True)
        print("listening on the unix socket only; Ctrl-C stops the cluster and removes it", file=sys.stderr)
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
    finally:
        sandbox.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
