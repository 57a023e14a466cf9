"""Which store addresses name a PostgreSQL database, and how they are shown.

A store address is a SQLite file path unless it is a libpq connection string: a URL
(``postgresql://user@host/db``, ``postgres://...``) or key/value conninfo (``service=fleet``,
``host=/run/pg dbname=memory``). A bare word is a file name, so a libpq service is written ``service=NAME``
(or ``postgresql://?service=NAME``).

Credentials come only from libpq's usual sources (PGPASSWORD and the other PG* variables, ~/.pgpass or
PGPASSFILE, the service file PGSERVICEFILE / ~/.pg_service.conf); tempomem never asks for, stores or
logs a password. An address that carries one anyway works (libpq reads it), but every message, log line and
diagnostic shows ``display(address)``, with the password replaced by ``***``.
"""

from __future__ import annotations

import re

from ..errors import InvalidInputError

_URL = re.compile(r"^postgres(ql)?://", re.I)
_CONNINFO = re.compile(r"^\s*(service|host|hostaddr|dbname|user|port)\s*=", re.I)


def is_postgres(address) -> bool:
    """Whether a store address names a PostgreSQL database (else it is a SQLite file)."""
    if not isinstance(address, str):
        return False
    return bool(_URL.match(address) or _CONNINFO.match(address))


def display(address: str) -> str:
    """The address without its password (if it holds one), for messages and logs."""
    try:
        from psycopg.conninfo import conninfo_to_dict, make_conninfo
    except ImportError:  # pragma: no cover - psycopg is a requirement
        return re.sub(r"(?i)(password\s*=\s*)\S+", r"\1***", re.sub(r"//([^:/@]*):[^@]*@", r"//\1:***@", address))
    try:
        params = conninfo_to_dict(address)
    except Exception:  # noqa: BLE001 - a malformed address: show nothing of it that could be a secret
        return "<malformed PostgreSQL address>"
    if "password" in params:
        params["password"] = "***"
    if _URL.match(address) and "password" not in params:
        return address
    return make_conninfo(**{k: str(v) for k, v in params.items()})


def check(address: str) -> dict:
    """Parse the address (InvalidInputError naming what is wrong, never echoing a password)."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        return conninfo_to_dict(address)
    except Exception:  # noqa: BLE001 - libpq's message may quote part of the string, a password included
        raise InvalidInputError("not a valid PostgreSQL address: libpq cannot parse it (see the libpq "
                                "documentation, 'Connection Strings')") from None
