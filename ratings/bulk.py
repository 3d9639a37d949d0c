"""Fast bulk inserts: COPY on PostgreSQL, executemany elsewhere.

The recompute writes hundreds of thousands of history rows; Django's bulk_create
spends most of its time preparing values, so rows go in as plain tuples here.
Values must already be in database form (JSON as text, grades as ranks).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection


def as_json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def _number(value: Any) -> str:
    if value is None:
        return "null"
    if type(value) is float or type(value) is int:
        return repr(value)  # what json.dumps writes for a finite float or an int
    return json.dumps(value)


def breakdown_json(games: list[dict[str, Any]]) -> str:
    """`as_json` for the per-game breakdown, several times faster (it is most of a row)."""
    return (
        "["
        + ",".join(
            f'{{"round":{g["round"]},"opponent":{g["opponent"]},'
            f'"opponent_rating":{_number(g["opponent_rating"])},"score":{_number(g["score"])},'
            f'"expected":{_number(g["expected"])},"change":{_number(g["change"])}}}'
            for g in games
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
