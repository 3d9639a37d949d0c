"""PostgreSQL's driver (psycopg 3) used directly where a recompute reads much: queries in
pipeline mode, sent at once and their results taken in later while Python goes on, and
results streamed in chunks (issue 18)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from django.db import connection
from psycopg import Cursor
from psycopg.abc import Buffer
from psycopg.adapt import Loader
from psycopg.pq import Format, TransactionStatus


@contextmanager
def pipeline_mode() -> Iterator[Any]:
    """The connection (psycopg's) in pipeline mode for the block."""
    connection.ensure_connection()
    driver = connection.connection
    # libpq keeps the last query's row-by-row or chunked mode (psycopg's `stream`, as in
    # `stream_chunks`) for the first query of a pipeline, whose rows then come in pieces
    # that psycopg refuses there; a plain statement first resets it.
    driver.execute("SELECT 1")
    with driver.pipeline():
        yield driver


def binary_cursor() -> Cursor[Any]:
    """A cursor on Django's connection (psycopg's) that takes rows in PostgreSQL's binary
    format: numbers, dates and ids come as they are stored, where the text format has the
    server write each as digits and Python parse them back (a year's stored rows at EGD
    scale, 40,000 with ten numbers each, in about half the processor time). Its
    parameters are bound by the server (Django's own cursors inline them). JSON comes
    as its text, as in Django's cursors."""
    connection.ensure_connection()
    cursor = Cursor(connection.connection)
    cursor.adapters.register_loader("jsonb", _JsonbText)
    return cursor


class _JsonbText(Loader):
    """A `jsonb` value in the binary format as its JSON text (after the format's version
    byte), as Django's loader gives it in the text format."""

    format = Format.BINARY

    def load(self, data: Buffer) -> str:
        return bytes(data[1:]).decode()


def stream_chunks(
    cursor: Cursor[Any], sql: str, params: Sequence[Any], *, size: int, binary: bool = False
) -> Iterator[list[Any]]:
    """The rows of `sql` as psycopg's `cursor.stream(sql, params, size=size)` gives them,
    but a chunk (a list of rows) at a time: the server goes on producing while Python
    takes in the chunk it has sent, and each chunk's rows are made in one call into
    psycopg's C loader, where `stream` makes them one by one through a Python generator
    (a million games read in 90 % of the time).

    These are `stream`'s own steps (psycopg 3.3, pinned in requirements.txt), private
    names included; a change of them fails every PostgreSQL test that reads games. Left
    before its end (an error in the caller), the query is cancelled as `stream` does."""
    conn = cursor._conn
    with conn.lock:
        conn.wait(cursor._stream_send_gen(sql, params, binary=binary or None, size=size))
        first = True
        try:
            while result := conn.wait(cursor._stream_fetchone_gen(first)):
                yield cursor._tx.load_rows(0, result.ntuples, cursor._make_row)
                first = False
        finally:
            if cursor._pgconn.transaction_status == TransactionStatus.ACTIVE:
                _stream_abandon(cursor)


def _stream_abandon(cursor: Cursor[Any]) -> None:
    """Cancel a stream left before its end and take in what the server sent meanwhile, so
    that the connection can run the next query (psycopg's `stream` does the same)."""
    conn = cursor._conn
    conn._try_cancel()
    with suppress(Exception):  # the cancelled query's error, expected
        while conn.wait(cursor._stream_fetchone_gen(False)):
            pass
    with suppress(Exception):  # as in psycopg: one attempt to leave ACTIVE
        conn.wait(cursor._stream_fetchone_gen(False))
