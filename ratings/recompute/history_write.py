"""A replay's history rows written, touching only the rows that changed (issue 18).

Each row carries a fingerprint: a 64-bit digest of every column but its key and its
replay position (`sequence`, compared as it is: rows written before it became the
tournament's id still hold a running count, and are rewritten once). A recompute reads
the key, position and fingerprint of the stored rows in its scope (three integers a
row), computes the fingerprints of its own rows, and then:
deletes the stored rows it no longer has, updates those whose fingerprint or position
differ, and COPYs the new ones straight in. A full recompute of an unchanged list at
EGD scale reads 400,000 small tuples and writes nothing; before, it sent every row
(breakdowns and all) to a temporary table and compared them in the database.

A row written or edited by anything else has no fingerprint (null), which never equals a
computed one: such a row is rewritten by the next recompute that reaches it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import marshal
from collections.abc import Iterable
from typing import Any

from django.db import connection

from ratings.models import RatingHistory
from ratings.recompute.bulk import as_json, breakdown_json, copy_to_temporary, insert_rows
from ratings.recompute.reads import fast_rows, with_ids
from ratings.recompute.state import HistoryRow

COLUMNS = [
    "rating_list_id", "member_id", "tournament_id", "date", "sequence", "rating_in", "before",
    "after", "change", "games_count", "rated", "provisional", "anomalous", "reset", "grade",
    "list_grade", "klass", "note", "tournaments_so_far", "games_so_far", "best_grade_so_far",
    "history", "breakdown", "fingerprint",
]  # fmt: skip


def fingerprint(row: HistoryRow, history_json: str | None) -> int:
    """The digest of a row's columns but its key and `sequence` (a signed 64-bit integer).

    The values go through `marshal` format 2, which writes numbers in binary (no float
    formatting: the cost of a JSON text) and, unlike later formats, no back-references
    that would depend on which objects happen to be shared, so the same values give the
    same bytes in every process; then an 8-byte BLAKE2b."""
    values = (
        row.date.toordinal(), row.rating_in, row.before, row.after, row.change,
        row.games_count, row.rated, row.provisional, row.anomalous, row.reset, row.grade,
        row.list_grade, row.klass, row.note, row.tournaments_so_far, row.games_so_far,
        row.best_grade_so_far, history_json, row.breakdown,
    )  # fmt: skip
    digest = hashlib.blake2b(marshal.dumps(values, 2), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def _values(rating_list_id: int, row: HistoryRow, history: str | None, digest: int) -> tuple:
    return (
        rating_list_id, row.member_id, row.tournament_id, row.date, row.sequence,
        row.rating_in, row.before, row.after, row.change, row.games_count, row.rated,
        row.provisional, row.anomalous, row.reset, row.grade, row.list_grade, row.klass,
        row.note, row.tournaments_so_far, row.games_so_far, row.best_grade_so_far, history,
        breakdown_json(row.breakdown), digest,
    )  # fmt: skip


def history_write(
    rating_list_id: int,
    rows: Iterable[HistoryRow],
    *,
    from_date: dt.date,
    tournament_ids: list[int] | None,
) -> tuple[set[int], int]:
    """Make the list's stored rows from `from_date` on (of `tournament_ids` only, unless
    None) equal to `rows`, which must all fall there. Returns the members whose rows were
    taken out and how many rows were written (deleted, updated, added)."""
    if connection.vendor != "postgresql":
        return _replace(rating_list_id, rows, from_date=from_date, tournament_ids=tournament_ids)
    in_scope = RatingHistory.objects.filter(rating_list_id=rating_list_id, date__gte=from_date)
    scopes = (
        [in_scope]
        if tournament_ids is None
        else with_ids(in_scope, "tournament_id", tournament_ids)
    )
    stored = {
        (m, t): (s, f)
        for queryset in scopes
        for m, t, s, f in fast_rows(
            queryset.order_by().values_list("member_id", "tournament_id", "sequence", "fingerprint")
        )
    }
    added: list[tuple] = []
    changed: list[tuple] = []
    for row in rows:
        history = as_json(row.history)
        digest = fingerprint(row, history)
        was = stored.pop((row.member_id, row.tournament_id), None)
        if was is None:
            added.append(_values(rating_list_id, row, history, digest))
        elif was != (row.sequence, digest):
            changed.append(_values(rating_list_id, row, history, digest))
    removed = list(stored)  # in the scope, no longer replayed
    with connection.cursor() as cursor:
        if removed:
            cursor.execute(
                "DELETE FROM ratings_ratinghistory t USING unnest(%s::bigint[], %s::bigint[]) "
                "AS d(member_id, tournament_id) WHERE t.rating_list_id = %s "
                "AND t.member_id = d.member_id AND t.tournament_id = d.tournament_id",
                [[m for m, _t in removed], [t for _m, t in removed], rating_list_id],
            )
        if changed:
            _update(cursor, changed)
    insert_rows(RatingHistory, COLUMNS, added)
    return {m for m, _t in removed}, len(removed) + len(changed) + len(added)


def _update(cursor: Any, rows: list[tuple]) -> None:
    """Rewrite these rows' values in place (their key stays: no foreign key to check)."""
    copy_to_temporary(cursor, "history_changed", "ratings_ratinghistory", COLUMNS, rows)
    # No ANALYZE: never analysed, the table is estimated from its size, which is enough
    # for this one join on the key (and analysing its JSON columns cost 0.75 s a year back).
    values = [c for c in COLUMNS if c not in ("rating_list_id", "member_id", "tournament_id")]
    cursor.execute(
        f"UPDATE ratings_ratinghistory t SET {', '.join(f'{c} = n.{c}' for c in values)} "
        "FROM history_changed n WHERE t.rating_list_id = n.rating_list_id "
        "AND t.member_id = n.member_id AND t.tournament_id = n.tournament_id"
    )
    cursor.execute("DROP TABLE history_changed")


def _replace(
    rating_list_id: int,
    rows: Iterable[HistoryRow],
    *,
    from_date: dt.date,
    tournament_ids: list[int] | None,
) -> tuple[set[int], int]:
    """SQLite (the tests): delete the scope's rows and insert the new ones."""
    stale = RatingHistory.objects.filter(rating_list_id=rating_list_id, date__gte=from_date)
    if tournament_ids is not None:
        stale = stale.filter(tournament_id__in=tournament_ids)
    affected = set(stale.values_list("member_id", flat=True))
    written = stale.delete()[0]
    values = []
    for row in rows:
        history = as_json(row.history)
        values.append(_values(rating_list_id, row, history, fingerprint(row, history)))
    return affected, written + insert_rows(RatingHistory, COLUMNS, values)
