"""PostgreSQL's connection in psycopg's pipeline mode: queries sent at once, their results
taken in later, while Python goes on (issue 18)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection


@contextmanager
def pipeline_mode() -> Iterator[Any]:
    """The connection (psycopg's) in pipeline mode for the block."""
    connection.ensure_connection()
    driver = connection.connection
    # libpq keeps the last query's row-by-row or chunked mode (psycopg's `stream`, as in
    # `reads._raw_rows`) for the first query of a pipeline, whose rows then come in pieces
    # that psycopg refuses there; a plain statement first resets it.
    driver.execute("SELECT 1")
    with driver.pipeline():
        yield driver
