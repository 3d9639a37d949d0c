"""A rewrite of most of the history goes into a fresh table swapped in (issue 57, PostgreSQL):
the same rows as written in place, under the same ids, names and constraints."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection

from ratings.models import ListTournament, RatingHistory
from ratings.recompute import history_swap
from ratings.recompute.services import rating_list_recompute
from tests.pipeline.test_cone_replay import every_column
from tests.pipeline.test_history_write import _egf_list

pytestmark = pytest.mark.django_db

DAYS = [dt.date(2023, 3, 5), dt.date(2023, 6, 4), dt.date(2023, 9, 3)]


def _catalog() -> tuple[list, list, int]:
    """The history table's indexes and constraints as the catalog defines them, and its oid."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index "
            "WHERE indrelid = 'ratings_ratinghistory'::regclass ORDER BY 1"
        )
        indexes = cursor.fetchall()
        cursor.execute(
            "SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid = 'ratings_ratinghistory'::regclass ORDER BY 1"
        )
        constraints = cursor.fetchall()
        cursor.execute("SELECT 'ratings_ratinghistory'::regclass::oid")
        (oid,) = cursor.fetchone()
    return indexes, constraints, oid


def _ids(rating_list) -> dict[tuple[int, int], int]:
    rows = RatingHistory.objects.filter(rating_list=rating_list)
    return {(m, t): pk for m, t, pk in rows.values_list("member_id", "tournament_id", "id")}


def _change_of_rules(rating_list) -> None:
    """Every row of the list to be rewritten, as after a change of rules."""
    RatingHistory.objects.filter(rating_list=rating_list).update(fingerprint=None)
    ListTournament.objects.filter(rating_list=rating_list).update(history_digest=None)


def test_a_rewrite_of_most_rows_swaps_in_a_table_with_the_same_rows_ids_and_names(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the swap is PostgreSQL's (SQLite replaces the rows)")
    rewritten, _tables = _egf_list(11, "swap-a", DAYS)
    other, _other_tables = _egf_list(12, "swap-b", DAYS[:2])
    stored, stored_other = every_column(rewritten), every_column(other)
    ids, other_ids = _ids(rewritten), _ids(other)
    indexes, constraints, oid = _catalog()
    assert len(indexes) == 6 and stored[0], "nothing to compare"
    # One row gone (a new one to the table: it gets a new id), the rest to be rewritten.
    gone = RatingHistory.objects.filter(rating_list=rewritten).order_by("pk").first()
    gone.delete()
    _change_of_rules(rewritten)
    monkeypatch.setattr(history_swap, "SWAP_MIN_ROWS", 1)
    rating_list_recompute(rating_list_id=rewritten.pk, trigger="t", from_date=dt.date(1900, 1, 1))

    after_indexes, after_constraints, after_oid = _catalog()
    assert after_oid != oid, "the rows were written in place, not swapped in"
    assert (after_indexes, after_constraints) == (indexes, constraints)
    assert every_column(rewritten) == stored and every_column(other) == stored_other
    new_ids = _ids(rewritten)
    back = (gone.member_id, gone.tournament_id)
    assert {k: v for k, v in new_ids.items() if k != back} == {
        k: v for k, v in ids.items() if k != back
    }
    assert new_ids[back] > max([*ids.values(), *other_ids.values()])
    assert _ids(other) == other_ids
    assert not RatingHistory.objects.filter(fingerprint__isnull=True).exists()
    # The id sequence goes on from where the old table's stood.
    row = RatingHistory.objects.filter(rating_list=other).order_by("pk").first()
    row.pk = None
    row.rating_list = rewritten
    row.member = gone.member
    row.tournament_id = _other_tables[0].pk
    row.save()
    assert row.pk > new_ids[back]
    # A foreign key still holds on the new table.
    with pytest.raises(Exception, match="foreign key"):
        RatingHistory.objects.filter(pk=row.pk).update(member_id=10**9)
        connection.check_constraints(table_names=["ratings_ratinghistory"])


def test_a_rewrite_of_few_rows_of_a_big_table_is_written_in_place(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the swap is PostgreSQL's")
    rewritten, _tables = _egf_list(13, "swap-few", DAYS)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ratings_ratinghistory")
    stored = every_column(rewritten)
    _catalog_before = _catalog()
    _change_of_rules(rewritten)
    rows = RatingHistory.objects.filter(rating_list=rewritten).count()
    # More rows than the minimum, but under the share of the table the estimate counts.
    monkeypatch.setattr(history_swap, "SWAP_MIN_ROWS", 1)
    monkeypatch.setattr(history_swap, "SWAP_SHARE", 1000.0)
    rating_list_recompute(rating_list_id=rewritten.pk, trigger="t", from_date=dt.date(1900, 1, 1))
    assert rows and _catalog() == _catalog_before
    assert every_column(rewritten) == stored
