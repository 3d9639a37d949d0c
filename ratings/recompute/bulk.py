"""Fast bulk inserts: COPY on PostgreSQL, executemany elsewhere.

The recompute writes hundreds of thousands of history rows; Django's bulk_create
spends most of its time preparing values, so rows go in as plain tuples here.
Values must already be in database form (JSON as text, grades as ranks).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from typing import Any

from django.db import connection
from psycopg import Cursor

from ratings.recompute.pipeline import pipeline_mode


def as_json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def _number(value: Any) -> str:
    if value is None:
        return "null"
    if type(value) is float or type(value) is int:
        return repr(value)  # what json.dumps writes for a finite float or an int
    return json.dumps(value)


def breakdown_json(games: Iterable[Sequence[Any]]) -> str:
    """`as_json` of the per-game breakdown (tuples in `state.BREAKDOWN_FIELDS` order, as
    objects with those keys), several times faster (it is most of a row)."""
    return (
        "["
        + ",".join(
            f'{{"round":{r},"opponent":{o},"opponent_rating":{_number(b)},'
            f'"score":{_number(s)},"expected":{_number(e)},"change":{_number(c)}}}'
            for r, o, b, s, e, c in games
        )
        + "]"
    )


def insert_rows(model: Any, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """Insert rows of `columns` into `model`'s table; returns how many."""
    table = connection.ops.quote_name(model._meta.db_table)
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    count = 0
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
                    count += 1
            return count
        marks = ", ".join(["%s"] * len(columns))
        batch: list[Sequence[Any]] = []
        for row in rows:
            batch.append(row)
            if len(batch) >= 5000:
                cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", batch)
                count += len(batch)
                batch = []
        if batch:
            cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", batch)
            count += len(batch)
    return count


class RowUpdates:
    """PostgreSQL: rows rewritten in place by key, a batch of them at a time, each batch
    sent at once in psycopg's pipeline mode: the server updates a batch while the caller
    makes the next (issue 18). The rows go as one array per column (`unnest`), not by
    COPY, which a pipeline cannot carry. Use as a context manager; it waits for the
    server on leaving. No other query may run inside it."""

    BATCH = 250  # rows per statement

    def __init__(
        self,
        model: Any,
        columns: Sequence[str],
        key: Sequence[str],
        *,
        driver: Any = None,
        sends_when_full: bool = True,
    ) -> None:
        """`driver`: psycopg's connection in pipeline mode already (the caller's, which
        waits for the server when it leaves it): the rows go there; else one of its own.
        `sends_when_full`: a batch goes as soon as it is full; else only on `flush`
        (the caller chooses when the server may take them)."""
        fields = {f.column: f for f in model._meta.concrete_fields}
        quote = connection.ops.quote_name
        types = [fields[c].db_type(connection) for c in columns]
        # A list of numbers goes as an array of one type: a rating may be an int.
        self._float_columns = [i for i, t in enumerate(types) if t == "double precision"]
        values = [quote(c) for c in columns if c not in key]
        self._sql = (
            f"UPDATE {quote(model._meta.db_table)} t SET "
            f"{', '.join(f'{v} = n.{v}' for v in values)} "
            f"FROM unnest({', '.join(f'%b::{t}[]' for t in types)}) "
            f"AS n({', '.join(quote(c) for c in columns)}) "
            f"WHERE {' AND '.join(f't.{quote(k)} = n.{quote(k)}' for k in key)}"
        )
        self._batch: list[Sequence[Any]] = []
        self.count = 0
        self._driver = driver
        self._sends_when_full = sends_when_full

    def __enter__(self) -> RowUpdates:
        self._pipeline = pipeline_mode() if self._driver is None else nullcontext(self._driver)
        # Bound by the server, in the binary format: numbers and dates go as they are,
        # where Django's cursor would write each into the statement's text for the server
        # to parse back (a retroactive insert's 1,300 rows: 24 ms of the server's parsing).
        self._cursor = Cursor(self._pipeline.__enter__())
        return self

    def add(self, row: Sequence[Any]) -> None:
        """One row's new values, in `columns` order, its key among them."""
        self._batch.append(row)
        if self._sends_when_full and len(self._batch) >= self.BATCH:
            self._send()

    def flush(self) -> None:
        """Send the rows added so far now, not with the next batch: the server writes them
        while the caller goes on (leaving still waits for it)."""
        while self._batch:
            self._send()

    def __exit__(self, *exc: Any) -> None:
        try:
            if exc[0] is None:
                self.flush()
        finally:
            self._pipeline.__exit__(*exc)  # waits for the server; raises what it refused
            if self._driver is None:  # the caller's pipeline may still wait for its result
                self._cursor.close()

    def _send(self) -> None:
        """Send a batch of the rows added (at most `BATCH`)."""
        batch, self._batch = self._batch[: self.BATCH], self._batch[self.BATCH :]
        columns = [list(column) for column in zip(*batch, strict=True)]
        for i in self._float_columns:
            columns[i] = [v if v is None else float(v) for v in columns[i]]
        self._cursor.execute(self._sql, columns)
        self.count += len(batch)
