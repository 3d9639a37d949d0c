"""Most of the history rewritten at once, into a fresh table swapped in (PostgreSQL, issue 57).

A change of rules, or the first recompute after a bulk load, writes every row of a list.
Written in place, each row costs a new entry in all six indexes (two of them cover the
state columns every rewrite changes, so no update is HOT) and three foreign-key checks:
at EGD scale 12.8x the engine and 2.9 GB of WAL. Here the rows go by COPY FREEZE into a
new table without indexes (frozen: no hint bits or visibility to set later), the rest of
the table is copied beside them, then the indexes are built, the constraints added (each
checked by one join) and the statistics taken, and the new table takes the old one's
place under the same names: indexes, constraints, the id sequence's next value.

Readers are not blocked while it is built: other writers of the history are (a SHARE
lock: another list's recompute waits for the commit), and readers only for the swap at
the end (drop and renames). Rows keep their ids (pages link to a row by its id).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from django.db import connection

from ratings.models import RatingHistory
from ratings.recompute.reads import id_array

TABLE = RatingHistory._meta.db_table
_SWAP = f"{TABLE}_swap"
# Rows of a list's rewrite from which a swap pays: under it, rows are updated in place.
SWAP_MIN_ROWS = 20000
# ... and the share of the whole table (every list's rows) they must be: the rest of the
# table is copied too.
SWAP_SHARE = 0.5


def swap_pays(rows: int) -> bool:
    """Whether writing `rows` of the history is cheaper through a swap (PostgreSQL)."""
    if connection.vendor != "postgresql" or rows < SWAP_MIN_ROWS:
        return False
    with connection.cursor() as cursor:
        # The planner's estimate (-1: never counted); exact enough to weigh a half.
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = %s::regclass", [TABLE])
        (table_rows,) = cursor.fetchone()
    return rows >= SWAP_SHARE * max(table_rows, 0)


def stored_ids(rating_list_id: int, tournament_ids: list[int]) -> dict[tuple[int, int], int]:
    """The ids of the list's stored rows of these tables, by (member, tournament)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT member_id, tournament_id, id FROM {TABLE} WHERE rating_list_id = %s "
            "AND tournament_id = ANY(%s::bigint[])",
            [rating_list_id, id_array(tournament_ids)],
        )
        return {(m, t): pk for m, t, pk in cursor.fetchall()}


def history_swap(
    rating_list_id: int,
    columns: Sequence[str],
    rows: Iterable[Sequence],
    replaced_tables: list[int],
    *,
    new_rows: int,
) -> int:
    """Make the history the table as it is, but the list's rows of `replaced_tables`
    replaced by `rows` (values of `columns`, `id` last: None for each of the `new_rows`
    rows new to the table). Returns how many rows of `rows` were written."""
    with connection.cursor() as cursor:
        # Writers of the history wait from here (ids are drawn below); readers do not.
        cursor.execute(f"LOCK TABLE {TABLE} IN SHARE MODE")
        indexes, constraints = _definitions(cursor)
        cursor.execute(
            f"CREATE TABLE {_SWAP} (LIKE {TABLE} INCLUDING DEFAULTS INCLUDING CONSTRAINTS "
            "INCLUDING STORAGE INCLUDING COMPRESSION)"
        )
        written = _copy_frozen(cursor, columns, rows, new_rows)
        names = ", ".join(f'"{c.column}"' for c in RatingHistory._meta.concrete_fields)
        cursor.execute(
            f"INSERT INTO {_SWAP} ({names}) SELECT {names} FROM {TABLE} "
            "WHERE rating_list_id <> %s OR tournament_id <> ALL(%s::bigint[])",
            [rating_list_id, id_array(replaced_tables)],
        )
        renames = []
        for name, definition in indexes:
            temporary = f"{_SWAP}_{len(renames)}"
            cursor.execute(_on_swap(definition, name, temporary))
            renames.append((temporary, name))
        for name, kind, definition in constraints:
            if kind == "f":  # names of foreign keys are the table's own: no clash
                cursor.execute(f'ALTER TABLE {_SWAP} ADD CONSTRAINT "{name}" {definition}')
        # The statistics of every column but the JSON ones (the breakdown is most of a
        # row; no query filters or joins on them): at EGD scale 0.5-0.85 s against
        # 0.8-1.0 s for all (two runs each, a busy machine).
        measured = ", ".join(
            f'"{f.column}"' for f in RatingHistory._meta.concrete_fields if not _is_json(f)
        )
        cursor.execute(f"ANALYZE {_SWAP} ({measured})")
        # The swap: readers wait from here to the commit.
        cursor.execute(f"LOCK TABLE {TABLE} IN ACCESS EXCLUSIVE MODE")
        # Checks of rows this transaction wrote before (deferred) run now: a table with
        # checks pending cannot be dropped. The new table's are deferred as before.
        keys = [name for name, kind, _definition in constraints if kind == "f"]
        if keys:
            quoted = ", ".join(connection.ops.quote_name(k) for k in keys)
            cursor.execute(f"SET CONSTRAINTS {quoted} IMMEDIATE")
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id'))", [TABLE])
        (next_id,) = cursor.fetchone()
        cursor.execute(f"DROP TABLE {TABLE}")
        cursor.execute(f"ALTER TABLE {_SWAP} RENAME TO {TABLE}")
        cursor.execute(
            f"ALTER TABLE {TABLE} ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY "
            f"(START WITH {int(next_id)})"
        )
        by_index = {name: (kind, definition) for name, kind, definition in constraints}
        for temporary, name in renames:
            kind, _definition = by_index.get(name, ("", ""))
            if kind == "p":
                cursor.execute(
                    f'ALTER TABLE {TABLE} ADD CONSTRAINT "{name}" '
                    f"PRIMARY KEY USING INDEX {temporary}"
                )
            elif kind == "u":
                cursor.execute(
                    f'ALTER TABLE {TABLE} ADD CONSTRAINT "{name}" UNIQUE USING INDEX {temporary}'
                )
            else:
                cursor.execute(f'ALTER INDEX {temporary} RENAME TO "{name}"')
    return written


def _definitions(cursor) -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The table's indexes (name, CREATE INDEX) and its constraints (name, kind,
    definition) as the catalog holds them."""
    cursor.execute(
        "SELECT c.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i "
        "JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = %s::regclass "
        "ORDER BY c.relname",
        [TABLE],
    )
    indexes = cursor.fetchall()
    cursor.execute(
        "SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE conrelid = %s::regclass ORDER BY conname",
        [TABLE],
    )
    return indexes, cursor.fetchall()


def _is_json(field) -> bool:
    return field.get_internal_type() == "JSONField"


_CREATE_INDEX = re.compile(r"^(CREATE (?:UNIQUE )?INDEX) (\S+) ON (\S+) ")


def _on_swap(definition: str, name: str, temporary: str) -> str:
    """An index's definition on the old table as one on the new, under `temporary`."""
    match = _CREATE_INDEX.match(definition)
    if match is None or match.group(2).strip('"') != name:
        raise ValueError(f"unexpected index definition: {definition}")
    return f"{match.group(1)} {temporary} ON {_SWAP} {definition[match.end() :]}"


def _copy_frozen(cursor, columns: Sequence[str], rows: Iterable[Sequence], new: int) -> int:
    """COPY the rows in frozen (the table is this transaction's: nobody else sees it
    before the commit), the `new` ones numbered from the id sequence."""
    ids: Iterable[int] = ()
    if new:
        # Under the SHARE lock nobody else draws from the sequence: one block of ids.
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence(%s, 'id'), "
            "nextval(pg_get_serial_sequence(%s, 'id')) + %s - 1)",
            [TABLE, TABLE, new],
        )
        (last,) = cursor.fetchone()
        ids = iter(range(last - new + 1, last + 1))
    names = ", ".join(f'"{c}"' for c in columns)
    count = 0
    with cursor.cursor.copy(f"COPY {_SWAP} ({names}) FROM STDIN (FREEZE)") as copy:
        for row in rows:
            if row[-1] is None:
                row = (*row[:-1], next(ids))
            copy.write_row(row)
            count += 1
    return count
